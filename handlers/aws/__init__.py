"""The AWS Lambda functions serverless.yml deploys, each built once per cold start: `api.py`
(the `http` app behind API Gateway's HTTP API, and the schedule that chooses the daily deals
ahead), `push.py` (the WebSocket API's routes, and each new move pushed to its game's
connections from the table's stream) and `expiry.py` (an expired game's moves deleted, from
the table's stream); `logs.py` writes their JSON log lines and cold-start metric in the shape
Powertools for AWS Lambda writes them."""
