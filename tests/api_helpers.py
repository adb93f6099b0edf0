"""Building the Flask app on a throwaway SQLite file, for API tests."""

import itertools
import tempfile
from pathlib import Path

from domain.service import GameService
from handlers.app import create_app
from infra.sqlite_store import SqliteStore

_counter = itertools.count()


def fixed_clock() -> str:
    return "2026-11-22T00:00:00.000Z"


def counting_secrets():
    """Deterministic, distinct secrets, so failures reproduce."""
    return lambda: f"secret{next(_counter):08d}xxxxxxxxxxxxxxxxxxxxxx"


def make_service(path: str | None = None, store=None) -> GameService:
    if store is None:
        path = path or str(Path(tempfile.mkdtemp()) / "court.db")
        store = SqliteStore(path)
    return GameService(store, fixed_clock, counting_secrets(), b"test-daily-secret")


def make_app(store=None):
    return create_app(make_service(store=store))
