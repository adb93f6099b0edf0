"""Entry points around the game service, one sub-package per kind: `http` (the Flask API that
every server runs), `serve` (`court serve`: waitress and its event streams), `aws` (the Lambda
functions serverless.yml deploys) and `cli` (the `court` command). `serve` and `aws` run the
`http` app and `cli` starts `serve`; `http` imports none of them. `config.py`, what they all
share, turns the environment into a store and a service. Thin by design: no rule lives here."""
