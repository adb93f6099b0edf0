"""Structured logs and metrics for the Lambda entries, in the shape Powertools for AWS Lambda
(Python) writes them, without depending on it (the whole package would be most of the
artifact again, for two small functions).

Every line is one JSON object on stdout, which CloudWatch Logs keeps as one event (a
traceback too, in `exception`): `level`, `location`, `message`, `timestamp` (RFC 3339, UTC),
`service`, then, during an invocation, Powertools' Lambda context keys (`cold_start`,
`function_name`, `function_memory_size`, `function_arn`, `function_request_id`), its
`correlation_id` (API Gateway's `requestContext.requestId`) and `xray_trace_id`. Logs
Insights can then join a line of the API Gateway access log (its `requestId`) to the
function's lines and to the Lambda REPORT line (its `function_request_id`).

The access line per request is written here, at the entry point, not by Flask: it sees every
invocation, its whole duration and API Gateway's ids. Its `path` is the raw path alone: no
query string and no header is ever logged, so no token can reach the logs (the web client
keeps tokens in the URL fragment, which no browser sends).

The cold start is also a CloudWatch metric, in the embedded metric format (EMF), as
Powertools' Metrics writes it: `ColdStart`, count 1, by `function_name` and `service`. Lambda
has no metric of its own for it; its Duration, Errors and Throttles and API Gateway's 4xx,
5xx and Latency need nothing from the code. The access line carries the request's own counts
in the same format (`request_counts`: requests, moves, finishes, conflicts, 503s, 5xx), and
the push function's line its pushes sent, gone and failed: no extra line, no extra call.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

LambdaHandler = Callable[[dict[str, Any], Any], dict[str, Any]]

_invocation: ContextVar[dict[str, Any] | None] = ContextVar("invocation", default=None)
"""The keys of the invocation under way, added to every line it logs."""

# What a LogRecord always has: anything else on a record came in `extra=` and is logged.
_RECORD_ATTRIBUTES = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "taskName",
}

log = logging.getLogger("royal_court.lambda")


def _rfc3339(seconds: float) -> str:
    """2026-11-24T20:06:07.123+00:00: Powertools' `use_rfc3339` timestamp, in UTC."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def _xray_trace_id() -> str | None:
    """The trace's root id. Lambda sets `_X_AMZN_TRACE_ID` anew for each invocation, so it
    is read here at each one, not once in handlers/config.py."""
    header = os.environ.get("_X_AMZN_TRACE_ID")
    return header.split(";")[0].removeprefix("Root=") if header else None


class JsonFormatter(logging.Formatter):
    """A record as one JSON line with Powertools Logger's keys (module docstring)."""

    def __init__(self, service: str) -> None:
        super().__init__()
        self.service = service

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "level": record.levelname,
            "location": f"{record.funcName}:{record.lineno}",
            "message": record.getMessage(),
            "timestamp": _rfc3339(record.created),
            "service": self.service,
        }
        entry.update(_invocation.get() or {})
        entry.update({k: v for k, v in vars(record).items() if k not in _RECORD_ATTRIBUTES})
        if record.exc_info and record.exc_info[0] is not None:
            entry["exception"] = self.formatException(record.exc_info)
            entry["exception_name"] = record.exc_info[0].__name__
        return json.dumps(
            {k: v for k, v in entry.items() if v is not None}, default=str, separators=(",", ":")
        )


class StdoutHandler(logging.Handler):
    """Writes each line to the current `sys.stdout` (looked up at each line, not bound at
    import): Lambda sends stdout to CloudWatch Logs, one line one event."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stdout.write(self.format(record) + "\n")
            sys.stdout.flush()
        except Exception:
            self.handleError(record)


def configure(service: str) -> None:
    """Route the app's loggers (`royal_court.*`: causes of 503s, 500 tracebacks, this
    module's access lines) to stdout as JSON lines, at INFO, and not also to the Lambda
    runtime's text handler on the root logger. Flask's own access line is turned off here:
    the entry point writes a fuller one."""
    root = logging.getLogger("royal_court")
    for old in [h for h in root.handlers if isinstance(h, StdoutHandler)]:
        root.removeHandler(old)  # configured again at a re-import (tests): one line each
    handler = StdoutHandler()
    handler.setFormatter(JsonFormatter(service))
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    root.propagate = False
    logging.getLogger("royal_court.access").setLevel(logging.WARNING)


def invocation_keys(event: dict[str, Any], context: Any, cold_start: bool) -> dict[str, Any]:
    """Powertools' Lambda context keys, its correlation id and the X-Ray trace id. A context
    without some attribute (serverless-offline's, a test's None) just leaves its key out."""
    request_context = event.get("requestContext") or {}
    return {
        "cold_start": cold_start,
        "function_name": getattr(context, "function_name", None),
        "function_memory_size": getattr(context, "memory_limit_in_mb", None),
        "function_arn": getattr(context, "invoked_function_arn", None),
        "function_request_id": getattr(context, "aws_request_id", None),
        "correlation_id": request_context.get("requestId"),
        "xray_trace_id": _xray_trace_id(),
    }


def metrics(
    namespace: str, service: str, function_name: str | None, counts: dict[str, float]
) -> dict[str, Any]:
    """`counts` as CloudWatch's embedded metric format (EMF), by `function_name` and `service`:
    the `_aws` block and the values, to merge into a JSON log line (CloudWatch turns any line
    carrying them into metrics; no line of its own is needed). Counts of 0 are left out."""
    counts = {name: value for name, value in counts.items() if value}
    if not counts:
        return {}
    dimensions = ["function_name", "service"] if function_name else ["service"]
    document: dict[str, Any] = {
        "_aws": {
            "Timestamp": int(time.time() * 1000),
            "CloudWatchMetrics": [
                {
                    "Namespace": namespace,
                    "Dimensions": [dimensions],
                    "Metrics": [{"Name": name, "Unit": "Count"} for name in counts],
                }
            ],
        },
        "service": service,
        **{name: [float(value)] for name, value in counts.items()},
    }
    if function_name:
        document["function_name"] = function_name
    return document


def cold_start_metric(namespace: str, service: str, function_name: str | None) -> str:
    """The EMF document of one cold start, as Powertools' `capture_cold_start_metric`."""
    document = metrics(namespace, service, function_name, {"ColdStart": 1})
    return json.dumps(document, separators=(",", ":"))


def request_counts(fields: dict[str, Any], status: int | None, body: object) -> dict[str, float]:
    """What an API request counts towards: every request; a move accepted, and whether it
    ended its game; a conflict (409: a stale version, a sealed move already in, a ranked day
    over); an answer the service could not give (503: the store unavailable, its cause in the
    line before) or failed to (500)."""
    move = fields.get("method") == "POST" and str(fields.get("path") or "").endswith("/moves")
    accepted = move and status == 201
    finished = False
    if accepted and isinstance(body, str):
        try:
            game = json.loads(body).get("game") or {}
        except (ValueError, AttributeError):
            game = {}
        finished = isinstance(game, dict) and game.get("status") not in (None, "playing")
    return {
        "Requests": 1,
        "Moves": accepted,
        "Finishes": finished,
        "Conflicts": status == 409,
        "Unavailable": status == 503,
        "ServerErrors": status is not None and status >= 500,
    }


def _request_fields(event: dict[str, Any]) -> dict[str, Any]:
    """Method, raw path (never the query string) and route of a payload 2.0 event (1.0's
    names as the fallback; a WebSocket event has its route only, in its request context)."""
    request_context = event.get("requestContext") or {}
    http = request_context.get("http") or {}
    return {
        "method": http.get("method") or event.get("httpMethod"),
        "path": event.get("rawPath") or event.get("path"),
        "route_key": event.get("routeKey") or request_context.get("routeKey"),
    }


def instrument(handler: LambdaHandler, service: str, namespace: str) -> LambdaHandler:
    """`handler` writing one access line per invocation (method, path, status, duration and
    the ids above) and the cold-start metric on its first."""
    cold = [True]

    def instrumented(event: dict[str, Any], context: Any) -> dict[str, Any]:
        started = time.perf_counter()
        cold_start, cold[0] = cold[0], False
        keys = invocation_keys(event, context, cold_start)
        token = _invocation.set(keys)
        try:
            if cold_start:
                print(cold_start_metric(namespace, service, keys["function_name"]), flush=True)
            fields = _request_fields(event)
            try:
                response = handler(event, context)
            except Exception:
                elapsed = round((time.perf_counter() - started) * 1000, 2)
                log.exception("request failed", extra={**fields, "duration_ms": elapsed})
                raise
            elapsed = round((time.perf_counter() - started) * 1000, 2)
            status = response.get("statusCode", 200) if isinstance(response, dict) else None
            body = response.get("body") if isinstance(response, dict) else None
            counts = request_counts(fields, status, body)
            emf = metrics(namespace, service, keys["function_name"], counts)
            log.info("request", extra={**fields, "status": status, "duration_ms": elapsed, **emf})
            return response
        finally:
            _invocation.reset(token)

    return instrumented


def scheduled(function: LambdaHandler) -> LambdaHandler:
    """A non-HTTP entry (a schedule, a stream) with the same keys on every line it logs."""
    cold = [True]

    def wrapped(event: dict[str, Any], context: Any) -> dict[str, Any]:
        cold_start, cold[0] = cold[0], False
        token = _invocation.set(invocation_keys(event, context, cold_start))
        try:
            return function(event, context)
        finally:
            _invocation.reset(token)

    return wrapped
