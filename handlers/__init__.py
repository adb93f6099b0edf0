"""Entry points: the `court` CLI, the HTTP app and the Lambda handler. Thin by design."""
