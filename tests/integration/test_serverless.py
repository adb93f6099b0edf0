"""serverless.yml packages offline with the Serverless Framework v3, and the CloudFormation it
generates passes cfn-lint and grants exactly what the store needs."""

import json
import os
import shutil
import subprocess
import zipfile

import pytest

from tests.stores import ROOT, load_yaml, node_tools

SERVERLESS = ROOT / "tools/node_modules/.bin/serverless"
ALLOWED = {
    "dynamodb:Query",
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:ConditionCheckItem",
}
# Serverless v3's own HTTP API wiring declares a DependsOn that a Ref already implies; that
# template line is the framework's, not this project's.
IGNORED_CFN_CHECKS = ["W3005"]


@pytest.fixture(scope="module")
def packaged(lambda_artifact, tmp_path_factory):
    node_tools()
    if not SERVERLESS.exists():
        if os.environ.get("CI"):
            pytest.fail("the Serverless Framework v3 is missing: run `make tools`")
        pytest.skip("run `make tools` to install the Serverless Framework v3")
    work = tmp_path_factory.mktemp("sls")
    shutil.copy(ROOT / "serverless.yml", work / "serverless.yml")
    (work / "build" / "lambda").mkdir(parents=True)
    artifact = work / "build" / "lambda" / "function.zip"
    shutil.copy(lambda_artifact, artifact)
    env = {
        **os.environ,
        "AWS_ACCESS_KEY_ID": "offline",
        "AWS_SECRET_ACCESS_KEY": "offline",
        "SLS_TELEMETRY_DISABLED": "1",
        "SLS_NOTIFICATIONS_MODE": "off",
    }
    result = subprocess.run(
        [str(SERVERLESS), "package", "--stage", "test"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    template_path = work / ".serverless" / "cloudformation-template-update-stack.json"
    return artifact, template_path, json.loads(template_path.read_text())


def test_cfn_lint_is_clean(packaged):
    _, template_path, _ = packaged
    result = subprocess.run(
        [
            str(ROOT / ".venv/bin/cfn-lint"),
            "--ignore-checks",
            *IGNORED_CFN_CHECKS,
            "--",
            str(template_path),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def resources(template, kind):
    return {k: v for k, v in template["Resources"].items() if v["Type"] == kind}


def test_least_privilege_on_the_table_only(packaged):
    _, _, template = packaged
    role = template["Resources"]["ApiRole"]  # the API's and prepareDaily's
    dynamo = [
        s
        for p in role["Properties"]["Policies"]
        for s in p["PolicyDocument"]["Statement"]
        if any(str(a).startswith("dynamodb:") for a in s["Action"])
    ]
    assert len(dynamo) == 1
    assert set(dynamo[0]["Action"]) == ALLOWED
    assert dynamo[0]["Resource"] == [
        {"Fn::GetAtt": ["GamesTable", "Arn"]},
        {"Fn::Join": ["/", [{"Fn::GetAtt": ["GamesTable", "Arn"]}, "index", "*"]]},
    ]
    ssm = [
        s
        for p in role["Properties"]["Policies"]
        for s in p["PolicyDocument"]["Statement"]
        if any(str(a).startswith("ssm:") for a in s["Action"])
    ]
    assert len(ssm) == 1 and ssm[0]["Action"] == ["ssm:GetParameter"]
    assert json.dumps(ssm[0]["Resource"]).count("parameter/royal-court/") == 1
    text = json.dumps(template)
    assert "dynamodb:Scan" not in text and "dynamodb:*" not in text
    assert "dynamodb:DeleteItem" not in json.dumps(role) and "StreamArn" not in json.dumps(role)
    assert set(resources(template, "AWS::IAM::Role")) == {"ApiRole", "ExpiredGamesRole", "PushRole"}
    api = template["Resources"]["ApiLambdaFunction"]["Properties"]
    assert api["Role"] == {"Fn::GetAtt": ["ApiRole", "Arn"]}


def test_no_role_manages_every_websocket_connection(packaged):
    """The framework's default role was granted execute-api:ManageConnections on every
    WebSocket connection of the account (`*:*:*/@connections/*`): no function has it now, and
    only the push's role manages connections, this stage's of this API."""
    _, _, template = packaged
    managing = {
        name: statement["Resource"]
        for name, role in resources(template, "AWS::IAM::Role").items()
        for policy in role["Properties"]["Policies"]
        for statement in policy["PolicyDocument"]["Statement"]
        if "execute-api:ManageConnections" in statement["Action"]
    }
    assert list(managing) == ["PushRole"], managing
    [resource] = managing["PushRole"]
    assert "${WebsocketsApi}/test/*/@connections/*" in resource["Fn::Sub"]
    assert "*:*:*/@connections" not in json.dumps(template)


def test_table_function_and_api(packaged):
    artifact, _, template = packaged
    table = template["Resources"]["GamesTable"]["Properties"]
    assert table["BillingMode"] == "PAY_PER_REQUEST"
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert {k["AttributeName"]: k["KeyType"] for k in table["KeySchema"]} == {
        "pk": "HASH",
        "sk": "RANGE",
    }
    from infra.dynamo_store import FINISHED_KEYS

    indexes = {
        i["IndexName"]: {k["AttributeName"]: k["KeyType"] for k in i["KeySchema"]}
        for i in table["GlobalSecondaryIndexes"]
    }
    assert indexes == {
        name: {key: "HASH", "fin_sk": "RANGE"} for name, key in FINISHED_KEYS.items()
    }
    function = template["Resources"]["ApiLambdaFunction"]["Properties"]
    assert function["Runtime"] == "python3.11"
    assert function["Handler"] == "handlers/aws/api.handler"
    env = function["Environment"]["Variables"]
    assert env["ROYAL_TABLE"] == table["TableName"] and env["ROYAL_STORE"] == "dynamodb"
    assert env["ROYAL_DAILY_SECRET_PARAM"].startswith("/royal-court/")
    stage = template["Resources"]["HttpApiStage"]["Properties"]["DefaultRouteSettings"]
    assert stage["ThrottlingRateLimit"] > 0 and stage["ThrottlingBurstLimit"] > 0
    assert resources(template, "AWS::ApiGatewayV2::Api")
    names = set(zipfile.ZipFile(artifact).namelist())
    assert {
        "handlers/aws/api.py",
        "domain/service.py",
        "openapi.yaml",
        "flask/__init__.py",
        "apig_wsgi/__init__.py",
    } <= names
    assert "handlers/http/openapi.py" not in names
    assert not any(n.startswith("tests/") for n in names)
    # Bytecode ships, hash-based and unchecked (PEP 552 flags 0b01): no compiling at cold start.
    pyc = "domain/__pycache__/service.cpython-311.pyc"
    assert pyc in names and "flask/__pycache__/app.cpython-311.pyc" in names
    flags = int.from_bytes(zipfile.ZipFile(artifact).read(pyc)[4:8], "little")
    assert flags == 0b01
    assert not any(n.startswith("flask_swagger_ui/") for n in names)  # /docs: not on Lambda


CREATION_ROUTES = {"POST /v1/games", "POST /v1/players", "POST /v1/daily/{date}/{ruleset}/games"}
COSTLY_ROUTES = {"POST /v1/records/verify", "GET /v1/games/{game_id}/replay"}


def test_creation_and_costly_routes_are_throttled_below_the_stage_default(packaged):
    _, _, template = packaged
    stage = template["Resources"]["HttpApiStage"]
    default = stage["Properties"]["DefaultRouteSettings"]
    routes = {
        name: r["Properties"]["RouteKey"]
        for name, r in resources(template, "AWS::ApiGatewayV2::Route").items()
    }
    settings = stage["Properties"]["RouteSettings"]
    throttled = CREATION_ROUTES | COSTLY_ROUTES
    assert set(settings) == throttled and set(routes.values()) >= throttled
    for limits in settings.values():
        # Both, always: a route setting without one falls back to the account's limit.
        assert 0 < limits["ThrottlingRateLimit"] < default["ThrottlingRateLimit"]
        assert 0 < limits["ThrottlingBurstLimit"] < default["ThrottlingBurstLimit"]
    create = settings["POST /v1/games"]
    for key in COSTLY_ROUTES:  # the costliest requests get the smallest share
        assert settings[key]["ThrottlingRateLimit"] <= create["ThrottlingRateLimit"]
        assert settings[key]["ThrottlingBurstLimit"] <= create["ThrottlingBurstLimit"]
    # The stage names those routes, so it is made after them; every other request still
    # reaches the function through the catch-all route.
    assert {n for n, key in routes.items() if key in throttled} <= set(stage["DependsOn"])
    assert "$default" in routes.values()
    # Each throttled key is a real operation of the API.
    spec = load_yaml((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    for key in throttled:
        method, path = key.split(" ")
        assert method.lower() in spec["paths"][path], key


def test_daily_deals_are_prepared_on_a_schedule(packaged):
    artifact, _, template = packaged
    function = template["Resources"]["PrepareDailyLambdaFunction"]["Properties"]
    assert function["Handler"] == "handlers/aws/api.prepare_daily"
    api = template["Resources"]["ApiLambdaFunction"]["Properties"]
    assert function["Role"] == api["Role"]  # the same least-privilege role (GetItem, PutItem)
    shared = {k: v for k, v in api["Environment"]["Variables"].items() if k != "ROYAL_PUSH_URL"}
    assert function["Environment"]["Variables"] == shared  # the store and secret alike
    assert function["Timeout"] > api["Timeout"] and function["Timeout"] <= 900
    (name, rule), = resources(template, "AWS::Events::Rule").items()  # fmt: skip
    props = rule["Properties"]
    assert props["State"] == "ENABLED"
    # Once a day, before midnight UTC: tomorrow's deals are kept before anyone can ask.
    minute, hour, *rest = props["ScheduleExpression"].removeprefix("cron(").rstrip(")").split()
    assert rest == ["*", "*", "?", "*"] and 18 <= int(hour) <= 23 and 0 <= int(minute) < 60
    assert props["Targets"][0]["Arn"] == {"Fn::GetAtt": ["PrepareDailyLambdaFunction", "Arn"]}
    permission = next(
        p["Properties"]
        for p in resources(template, "AWS::Lambda::Permission").values()
        if p["Properties"]["Principal"] == "events.amazonaws.com"
    )
    assert permission["SourceArn"] == {"Fn::GetAtt": [name, "Arn"]}
    assert permission["Action"] == "lambda:InvokeFunction"
    source = zipfile.ZipFile(artifact).read("handlers/aws/api.py").decode()
    assert "def prepare_daily(event" in source


def test_expired_games_go_by_ttl_and_the_stream(packaged):
    artifact, _, template = packaged
    found = template["Resources"]
    table = found["GamesTable"]["Properties"]
    from infra.dynamo_store import RECORD_SK, TTL_ATTRIBUTE

    assert table["TimeToLiveSpecification"] == {"AttributeName": TTL_ATTRIBUTE, "Enabled": True}
    assert table["StreamSpecification"] == {"StreamViewType": "KEYS_ONLY"}
    env = found["ApiLambdaFunction"]["Properties"]["Environment"]["Variables"]
    assert float(env["ROYAL_GAME_TTL_DAYS"]) > 0
    function = found["ExpiredGamesLambdaFunction"]["Properties"]
    assert function["Handler"] == "handlers/aws/expiry.expired_games"
    assert function["Role"] == {"Fn::GetAtt": ["ExpiredGamesRole", "Arn"]}
    mapping = found["ExpiredGamesStream"]
    assert mapping["Type"] == "AWS::Lambda::EventSourceMapping"
    props = mapping["Properties"]
    assert props["EventSourceArn"] == {"Fn::GetAtt": ["GamesTable", "StreamArn"]}
    assert props["FunctionName"] == {"Fn::GetAtt": ["ExpiredGamesLambdaFunction", "Arn"]}
    assert "ExpiredGamesRole" in mapping["DependsOn"]
    (pattern,) = [json.loads(f["Pattern"]) for f in props["FilterCriteria"]["Filters"]]
    assert pattern == {
        "eventName": ["REMOVE"],
        "userIdentity": {"type": ["Service"], "principalId": ["dynamodb.amazonaws.com"]},
        "dynamodb": {"Keys": {"sk": {"S": [RECORD_SK]}}},
    }
    # Its role, the only one that may delete: Query, DeleteItem and BatchWriteItem on the
    # table's games (no index, no Scan), the stream's reads on the stream, its own log group.
    statements = [
        s
        for p in found["ExpiredGamesRole"]["Properties"]["Policies"]
        for s in p["PolicyDocument"]["Statement"]
    ]
    by_action = {a: s["Resource"] for s in statements for a in s["Action"]}
    table_arn = [{"Fn::GetAtt": ["GamesTable", "Arn"]}]
    stream_arn = [{"Fn::GetAtt": ["GamesTable", "StreamArn"]}]
    assert {a for a in by_action if a.startswith("dynamodb:")} == {
        "dynamodb:Query", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem",
        "dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator",
        "dynamodb:ListStreams",
    }  # fmt: skip
    assert by_action["dynamodb:Query"] == by_action["dynamodb:BatchWriteItem"] == table_arn
    [deleting] = [s for s in statements if "dynamodb:BatchWriteItem" in s["Action"]]
    # Only a game's items: a player's, a day's or a board's partition is out of its reach.
    games_only = {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["GAME#*"]}}
    assert deleting["Condition"] == games_only
    assert by_action["dynamodb:GetRecords"] == stream_arn
    assert "expiredGames:*" in json.dumps(by_action["logs:PutLogEvents"])
    assert all(not a.startswith(("ssm:", "iam:")) for a in by_action)
    source = zipfile.ZipFile(artifact).read("handlers/aws/expiry.py").decode()
    assert "def expired_games(event" in source


def test_reserved_concurrency_caps_every_function(packaged):
    """At most so many of each run at once: the API's cost and its load on the table have a
    ceiling no other function of the account can take from, the schedule never overlaps a
    retry, and the stream's deletes go at a bounded pace."""
    _, _, template = packaged
    found = template["Resources"]
    concurrency = {
        name: found[f"{name}LambdaFunction"]["Properties"].get("ReservedConcurrentExecutions")
        for name in ("Api", "PrepareDaily", "ExpiredGames", "Socket", "Push")
    }
    assert all(concurrency.values())
    assert concurrency["PrepareDaily"] == 1
    assert 0 < concurrency["ExpiredGames"] < concurrency["Api"]
    # What the stage lets in at its steady rate, at ~0.1 s a request, fits well inside.
    stage = found["HttpApiStage"]["Properties"]["DefaultRouteSettings"]
    assert stage["ThrottlingRateLimit"] * 0.1 < concurrency["Api"]
    # The account keeps 100 unreserved (AWS's minimum) out of the default quota of 1,000.
    assert sum(concurrency.values()) <= 1000 - 100


def test_api_gateway_writes_a_json_access_log(packaged):
    _, _, template = packaged
    found = template["Resources"]
    settings = found["HttpApiStage"]["Properties"]["AccessLogSettings"]
    assert settings["DestinationArn"] == {"Fn::GetAtt": ["HttpApiLogGroup", "Arn"]}
    group = found["HttpApiLogGroup"]["Properties"]
    assert group["RetentionInDays"] == 30
    fields = json.loads(settings["Format"])  # API Gateway fills in $context variables
    assert fields["requestId"] == "$context.requestId"  # the function's correlation_id
    for name, variable in (("method", "httpMethod"), ("path", "path"), ("status", "status"),
                           ("routeKey", "routeKey"), ("ip", "identity.sourceIp"),
                           ("responseLatency", "responseLatency"),
                           ("integrationError", "integrationErrorMessage")):  # fmt: skip
        assert fields[name] == f"$context.{variable}"
    # Nothing that could carry a token: no header but the User-Agent, no query string.
    variables = " ".join(fields.values()).lower()
    assert "authorization" not in variables and "querystring" not in variables


def test_the_functions_log_as_one_service_and_read_the_deploys_secret(packaged):
    _, _, template = packaged
    from scripts.daily_secret import parameter_name

    env = template["Resources"]["ApiLambdaFunction"]["Properties"]["Environment"]["Variables"]
    assert env["POWERTOOLS_SERVICE_NAME"] == "royal-court"
    assert env["POWERTOOLS_METRICS_NAMESPACE"]
    # The parameter the deploy step creates is the one the function reads.
    assert env["ROYAL_DAILY_SECRET_PARAM"] == parameter_name("test")


def test_moves_are_pushed_through_a_websocket_api(packaged):
    """The WebSocket API's three routes go to the socket function; the table's stream, its
    new move items only, to the push function; both with a role that reads games as the API
    does, keeps connections in a table of their own (deleting there only), and may post to
    the stage's connections; the connections' items expire by TTL."""
    artifact, _, template = packaged
    found = template["Resources"]
    assert found["WebsocketsApi"]["Properties"]["ProtocolType"] == "WEBSOCKET"
    routes = {
        r["Properties"]["RouteKey"]: r["Properties"]
        for r in resources(template, "AWS::ApiGatewayV2::Route").values()
        if r["Properties"]["ApiId"] == {"Ref": "WebsocketsApi"}
    }
    assert set(routes) == {"$connect", "$disconnect", "$default"}
    integration = found["SocketWebsocketsIntegration"]["Properties"]
    assert "SocketLambdaFunction" in json.dumps(integration["IntegrationUri"])
    stage = found["WebsocketsDeploymentStage"]["Properties"]["DefaultRouteSettings"]
    assert stage["ThrottlingRateLimit"] > 0 and stage["ThrottlingBurstLimit"] > 0
    assert "ServiceEndpointWebsocket" in template["Outputs"]  # what clients connect to

    socket = found["SocketLambdaFunction"]["Properties"]
    push = found["PushLambdaFunction"]["Properties"]
    assert socket["Handler"] == "handlers/aws/push.socket"
    assert push["Handler"] == "handlers/aws/push.push"
    assert socket["Role"] == push["Role"] == {"Fn::GetAtt": ["PushRole", "Arn"]}
    table = found["ConnectionsTable"]["Properties"]
    from infra.push_connections import TTL_ATTRIBUTE

    assert table["TimeToLiveSpecification"] == {"AttributeName": TTL_ATTRIBUTE, "Enabled": True}
    assert table["BillingMode"] == "PAY_PER_REQUEST"
    for env in (socket["Environment"]["Variables"], push["Environment"]["Variables"]):
        assert env["ROYAL_CONNECTIONS_TABLE"] == table["TableName"]
    assert "WebsocketsApi" in json.dumps(
        push["Environment"]["Variables"]["ROYAL_WEBSOCKET_ENDPOINT"]
    )

    mapping = found["PushStream"]
    props = mapping["Properties"]
    assert props["EventSourceArn"] == {"Fn::GetAtt": ["GamesTable", "StreamArn"]}
    assert props["FunctionName"] == {"Fn::GetAtt": ["PushLambdaFunction", "Arn"]}
    assert "PushRole" in mapping["DependsOn"]
    (pattern,) = [json.loads(f["Pattern"]) for f in props["FilterCriteria"]["Filters"]]
    assert pattern == {
        "eventName": ["INSERT"],
        "dynamodb": {"Keys": {"sk": {"S": [{"prefix": "MOVE#"}]}}},
    }

    statements = [
        s
        for p in found["PushRole"]["Properties"]["Policies"]
        for s in p["PolicyDocument"]["Statement"]
    ]
    games = [{"Fn::GetAtt": ["GamesTable", "Arn"]}]
    connections = [{"Fn::GetAtt": ["ConnectionsTable", "Arn"]}]
    on = lambda resource: {a for s in statements if s["Resource"] == resource for a in s["Action"]}  # noqa: E731
    assert on(games) == ALLOWED  # what a read may do (a read plays a bot's due move)
    assert on(connections) == {"dynamodb:Query", "dynamodb:GetItem", "dynamodb:PutItem",
                               "dynamodb:DeleteItem"}  # fmt: skip
    assert on([{"Fn::GetAtt": ["GamesTable", "StreamArn"]}]) == {
        "dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator",
        "dynamodb:ListStreams",
    }  # fmt: skip
    (manage,) = [s for s in statements if s["Action"] == ["execute-api:ManageConnections"]]
    assert "${WebsocketsApi}/test/*/@connections/*" in json.dumps(manage["Resource"])
    actions = {a for s in statements for a in s["Action"]}
    assert not any(a.startswith(("ssm:", "iam:")) or a.endswith("*") for a in actions)
    source = zipfile.ZipFile(artifact).read("handlers/aws/push.py").decode()
    assert "\nsocket = " in source and "def push(event" in source


def test_game_reads_link_the_websocket_api_clients_wait_on(packaged):
    """The API function knows the WebSocket API's wss:// address (its id, region and stage),
    which it links from game reads; the push function posts to the same API over https."""
    _, _, template = packaged
    api = template["Resources"]["ApiLambdaFunction"]["Properties"]["Environment"]["Variables"]
    push = template["Resources"]["PushLambdaFunction"]["Properties"]["Environment"]["Variables"]
    [_, linked] = api["ROYAL_PUSH_URL"]["Fn::Join"]
    [_, posted] = push["ROYAL_WEBSOCKET_ENDPOINT"]["Fn::Join"]
    assert linked[0] == "wss://" and posted[0] == "https://"
    assert linked[1:] == posted[1:] and {"Ref": "WebsocketsApi"} in linked


def test_failures_are_kept_and_alarmed(packaged):
    """Operations (issue 39): the table cannot be deleted by a stray call, a stream batch that
    fails its retries goes to a queue (partial failures reported, so one bad record holds up
    no other), and each failure an operator must hear of has an alarm on the one topic."""
    _, _, template = packaged
    [table] = [r for r in resources(template, "AWS::DynamoDB::Table").values()
               if "GlobalSecondaryIndexes" in r["Properties"]]  # fmt: skip
    assert table["Properties"]["DeletionProtectionEnabled"] is True
    queue = {"Fn::GetAtt": ["StreamFailures", "Arn"]}
    mappings = resources(template, "AWS::Lambda::EventSourceMapping").values()
    assert len(mappings) == 2
    for mapping in mappings:
        props = mapping["Properties"]
        assert props["DestinationConfig"]["OnFailure"]["Destination"] == queue
        assert props["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    for role in ("ExpiredGamesRole", "PushRole"):  # Lambda sends as the function's role
        statements = template["Resources"][role]["Properties"]["Policies"][0]["PolicyDocument"]
        assert {"Effect": "Allow", "Action": ["sqs:SendMessage"], "Resource": [queue]} in (
            statements["Statement"]
        )
    alarms = resources(template, "AWS::CloudWatch::Alarm").values()
    watched = {
        (m["Namespace"], m["MetricName"], tuple(d["Name"] for d in m["Dimensions"]))
        for a in alarms
        for m in (
            [a["Properties"]]
            if "MetricName" in a["Properties"]
            else [
                x["MetricStat"]["Metric"] for x in a["Properties"]["Metrics"] if "MetricStat" in x
            ]
        )
    }
    assert watched == {
        ("AWS/ApiGateway", "5xx", ("ApiId",)),
        ("AWS/Lambda", "Throttles", ("FunctionName",)),
        ("AWS/Lambda", "ConcurrentExecutions", ("FunctionName",)),
        # DynamoDB publishes these by table (an index's writes by table and index); its
        # ThrottledRequests needs an operation too: an alarm by table alone would never fire.
        ("AWS/DynamoDB", "ReadThrottleEvents", ("TableName",)),
        ("AWS/DynamoDB", "WriteThrottleEvents", ("TableName",)),
        ("AWS/DynamoDB", "WriteThrottleEvents", ("TableName", "GlobalSecondaryIndexName")),
        ("AWS/Lambda", "IteratorAge", ("FunctionName",)),
        ("AWS/SQS", "ApproximateNumberOfMessagesVisible", ("QueueName",)),
        ("AWS/Lambda", "Errors", ("FunctionName",)),
    }
    assert len(alarms) == 8  # IteratorAge twice: the pushes' stream and the expiries'
    assert all(a["Properties"]["AlarmActions"] == [{"Ref": "Alarms"}] for a in alarms)
    assert template["Resources"]["AlarmsEmail"]["Condition"] == "HasAlarmEmail"
