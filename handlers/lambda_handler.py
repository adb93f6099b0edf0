"""AWS Lambda entry: the same Flask app behind API Gateway's HTTP API (payload 2.0).

Built once per process at import (cold start): the DynamoDB client, the service and the app.
Nothing else is imported here: no apispec and no YAML on the request path. Swagger UI (`/docs`)
is not served on Lambda: its assets would be almost half the artifact; `/openapi.yaml` is, and
any OpenAPI viewer reads it (or `make run` serves `/docs` locally).
"""

from __future__ import annotations

from apig_wsgi import make_lambda_handler

from handlers.app import create_app
from handlers.config import Settings, build_service

settings = Settings.from_env(default_store="dynamodb")
app = create_app(
    build_service(settings), cors_origins=list(settings.cors_origins), docs_enabled=False
)
handler = make_lambda_handler(app)
