"""AWS Lambda entry: the same Flask app behind API Gateway's HTTP API (payload 2.0).

Built once per process at import (cold start): the DynamoDB client, the service and the app.
Nothing else is imported here: no apispec and no YAML on the request path. Swagger UI (`/docs`)
is not served on Lambda: its assets would be almost half the artifact; `/openapi.yaml` is, and
any OpenAPI viewer reads it (or `make run` serves `/docs` locally); the web client's "API" link
goes to it here.
"""

from __future__ import annotations

import gc
import logging
from typing import Any

# A cold start allocates a few hundred thousand objects that live as long as the process
# (modules, botocore's service model, the app). Collecting mid-import finds no garbage among
# them, only costs: collection is paused while they are made, and they are then frozen out
# of every later collection, so requests do not pay to re-scan them either.
gc.disable()

from apig_wsgi import make_lambda_handler  # noqa: E402

from handlers.aws import logs  # noqa: E402
from handlers.config import Settings, build_service  # noqa: E402
from handlers.http.app import create_app  # noqa: E402

settings = Settings.from_env(default_store="dynamodb")
# JSON lines on stdout (handlers/aws/logs.py): the access line per request, causes of
# 503s and tracebacks, each with the Lambda and API Gateway request ids.
logs.configure(settings.service_name)
service = build_service(settings)
app = create_app(
    service,
    cors_origins=list(settings.cors_origins),
    docs_enabled=False,
    push_url=settings.push_url,
)
handler = logs.instrument(
    make_lambda_handler(app), settings.service_name, settings.metrics_namespace
)
log = logging.getLogger("royal_court.lambda")


@logs.scheduled
def prepare_daily(event: dict[str, Any], context: object) -> dict[str, Any]:
    """The scheduled entry (an EventBridge rule in serverless.yml, daily before midnight UTC):
    choose and keep today's and tomorrow's daily deals, so that no player's first request of
    a day waits for the solver. A failure raises: Lambda retries the invocation, and the lazy
    path (the first request chooses the deal) remains the fallback."""
    chosen = service.prepare_daily()
    log.info("daily deals prepared", extra={"prepared": chosen, "scheduled_at": event.get("time")})
    return {"prepared": chosen}


gc.freeze()
gc.enable()
