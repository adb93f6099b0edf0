"""Building the Flask app on a throwaway SQLite file, for API tests, and the test client that
holds every response it gets to openapi.yaml."""

import functools
import itertools
import tempfile
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from werkzeug.datastructures import Headers
from werkzeug.test import TestResponse, run_wsgi_app

from domain.replay_cache import ReplayCache
from domain.service import GameService
from handlers.config import Settings
from handlers.http.app import create_app
from infra.sqlite_store import SqliteStore
from tests.openapi_contract import response_problems


class SpecCheckedClient(FlaskClient):
    """Flask's test client, which fails the request's test when the response is not one
    openapi.yaml declares for that operation: an undeclared status, another content type, or
    a body its schema refuses, undeclared fields included. So the spec cannot drift from what
    the server sends: any API test that meets the difference fails, naming it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # No cookie jar (Flask's `test_client()` asks for one): the API sets no cookie, and
        # the jar costs werkzeug's client work at every request (see run_wsgi_app).
        kwargs["use_cookies"] = False
        super().__init__(*args, **kwargs)
        # A response's JSON parsed once, however often a test reads `.json` (werkzeug parses
        # it again at each read: a tenth of the secrecy properties' time).
        self.response_wrapper = type(
            "ParsedOnceResponse",
            (self.response_wrapper,),
            {"json": functools.cached_property(lambda response: response.get_json())},
        )

    def run_wsgi_app(
        self, environ: dict[str, Any], buffered: bool = False
    ) -> tuple[Any, str, Headers]:
        """The app called as werkzeug's client does, less the cookie jar's work when there is
        no jar: it rebuilds the request's URL twice a request even then (a twentieth of the
        secrecy properties' time)."""
        if self._cookies is not None:
            return super().run_wsgi_app(environ, buffered)
        return run_wsgi_app(self.application, environ, buffered=buffered)

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        request = response.request
        problems = response_problems(
            request.method, request.path, response.status_code, response.content_type,
            response.get_data(), lambda: response.json,  # the one parse the test reads too
        )  # fmt: skip
        assert not problems, "the response is not as openapi.yaml declares:\n" + "\n".join(problems)
        return response


_counter = itertools.count()


def fixed_clock() -> str:
    return "2026-11-22T00:00:00.000Z"


def counting_secrets():
    """Deterministic, distinct secrets, so failures reproduce."""
    return lambda: f"secret{next(_counter):08d}xxxxxxxxxxxxxxxxxxxxxx"


def make_service(path: str | None = None, store=None) -> GameService:
    """A service as the entry points build one (handlers/config.py), the replay cache on at
    its default size; the clock and secrets fixed, so that failures reproduce. (The cold
    path, each game replayed from its seed, is held to the cached one by the conformance
    properties and tests/integration/test_replay_cache.py.)"""
    if store is None:
        path = path or str(Path(tempfile.mkdtemp()) / "court.db")
        store = SqliteStore(path)
    cache = ReplayCache(Settings.replay_cache)
    return GameService(store, fixed_clock, counting_secrets(), b"test-daily-secret", cache)


def make_app(store=None):
    app = create_app(make_service(store=store))
    app.test_client_class = SpecCheckedClient
    return app
