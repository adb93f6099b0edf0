"""The HTTP API (version 1) as one WSGI app, whatever serves it. `app.py` builds the Flask app:
its routes, the web client's files, `/openapi.yaml` and `/docs`. It validates bodies with the
marshmallow `schemas.py`, answers every error from the one table in `problems.py`, adds links
with `presenter.py`, sends a game's Server-Sent Events through `events.py` (what `court
serve`'s stream hub and the pushes on AWS send too) and, when asked, applies the per-client
rate limits of `limits.py`.
`openapi.py` generates openapi.yaml from the same schemas and problems: a development tool,
never on the request path nor in the Lambda artifact. `court serve` (handlers/serve/) and the
Lambda entry (handlers/aws/) both run this app; it imports neither."""
