"""AWS Lambda entry: the same Flask app behind API Gateway's HTTP API (payload 2.0).

Built once per process at import (cold start): the DynamoDB client, the service and the app.
Nothing else is imported here: no apispec and no YAML on the request path. Swagger UI (`/docs`)
is not served on Lambda: its assets would be almost half the artifact; `/openapi.yaml` is, and
any OpenAPI viewer reads it (or `make run` serves `/docs` locally).
"""

from __future__ import annotations

import gc

# A cold start allocates a few hundred thousand objects that live as long as the process
# (modules, botocore's service model, the app). Collecting mid-import finds no garbage among
# them, only costs: collection is paused while they are made, and they are then frozen out
# of every later collection, so requests do not pay to re-scan them either.
gc.disable()

from apig_wsgi import make_lambda_handler  # noqa: E402

from handlers.app import create_app  # noqa: E402
from handlers.config import Settings, build_service  # noqa: E402

settings = Settings.from_env(default_store="dynamodb")
app = create_app(
    build_service(settings), cors_origins=list(settings.cors_origins), docs_enabled=False
)
handler = make_lambda_handler(app)

gc.freeze()
gc.enable()
