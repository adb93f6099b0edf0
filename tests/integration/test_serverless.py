"""serverless.yml packages offline with the Serverless Framework v3, and the CloudFormation it
generates passes cfn-lint and grants exactly what the store needs."""

import json
import os
import shutil
import subprocess
import zipfile

import pytest

from scripts.build_lambda import build
from tests.stores import ROOT

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
def packaged(tmp_path_factory):
    if not SERVERLESS.exists():
        if os.environ.get("CI"):
            pytest.fail("the Serverless Framework v3 is missing: run `make tools`")
        pytest.skip("run `make tools` to install the Serverless Framework v3")
    work = tmp_path_factory.mktemp("sls")
    shutil.copy(ROOT / "serverless.yml", work / "serverless.yml")
    artifact = build(work / "build" / "lambda")
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
    role = next(iter(resources(template, "AWS::IAM::Role").values()))
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
    assert "dynamodb:Scan" not in text and "dynamodb:DeleteItem" not in text
    assert "dynamodb:*" not in text


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
    function = next(iter(resources(template, "AWS::Lambda::Function").values()))["Properties"]
    assert function["Runtime"] == "python3.11"
    assert function["Handler"] == "handlers/lambda_handler.handler"
    env = function["Environment"]["Variables"]
    assert env["ROYAL_TABLE"] == table["TableName"] and env["ROYAL_STORE"] == "dynamodb"
    assert env["ROYAL_DAILY_SECRET_PARAM"].startswith("/royal-court/")
    stage = template["Resources"]["HttpApiStage"]["Properties"]["DefaultRouteSettings"]
    assert stage["ThrottlingRateLimit"] > 0 and stage["ThrottlingBurstLimit"] > 0
    assert resources(template, "AWS::ApiGatewayV2::Api")
    names = set(zipfile.ZipFile(artifact).namelist())
    assert {
        "handlers/lambda_handler.py",
        "domain/service.py",
        "openapi.yaml",
        "flask/__init__.py",
        "apig_wsgi/__init__.py",
    } <= names
    assert "handlers/openapi.py" not in names and not any(n.startswith("tests/") for n in names)
    # Bytecode ships, hash-based and unchecked (PEP 552 flags 0b01): no compiling at cold start.
    pyc = "domain/__pycache__/service.cpython-311.pyc"
    assert pyc in names and "flask/__pycache__/app.cpython-311.pyc" in names
    flags = int.from_bytes(zipfile.ZipFile(artifact).read(pyc)[4:8], "little")
    assert flags == 0b01
    assert not any(n.startswith("flask_swagger_ui/") for n in names)  # /docs: not on Lambda
