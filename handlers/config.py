"""Wiring: which store, which clock, which secrets. The only place that reads the environment.

Environment (all optional): ROYAL_STORE (sqlite|dynamodb), ROYAL_DB (SQLite file, default
./court.db), ROYAL_TABLE (DynamoDB table, default royal-court), ROYAL_DYNAMODB_ENDPOINT (e.g.
DynamoDB Local), AWS_REGION, ROYAL_CORS_ORIGINS (comma-separated, default *).
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from domain.service import GameService
from domain.store import GameStore


def utc_now() -> str:
    """ISO 8601 in UTC with milliseconds, e.g. 2026-11-22T03:25:59.123Z."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_secret() -> str:
    """192 random bits, URL-safe: game ids, seat tokens and secret seeds alike."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Settings:
    store: str = "sqlite"
    db: str = "./court.db"
    table: str = "royal-court"
    endpoint_url: str | None = None
    region: str | None = None
    cors_origins: tuple[str, ...] = ("*",)
    create_table: bool = False

    @classmethod
    def from_env(cls, default_store: str = "sqlite") -> Settings:
        env = os.environ
        origins = tuple(o.strip() for o in env.get("ROYAL_CORS_ORIGINS", "*").split(",") if o)
        return cls(
            store=env.get("ROYAL_STORE", default_store),
            db=env.get("ROYAL_DB", "./court.db"),
            table=env.get("ROYAL_TABLE", "royal-court"),
            endpoint_url=env.get("ROYAL_DYNAMODB_ENDPOINT") or None,
            region=env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION"),
            cors_origins=origins or ("*",),
        )


def build_store(settings: Settings) -> GameStore:
    if settings.store == "sqlite":
        from infra.sqlite_store import SqliteStore

        return SqliteStore(settings.db)
    if settings.store == "dynamodb":
        from infra.dynamo_store import DynamoStore, make_client

        store = DynamoStore(make_client(settings.endpoint_url, settings.region), settings.table)
        if settings.create_table:
            store.create_table()
        return store
    raise ValueError(f"unknown store {settings.store!r} (sqlite or dynamodb)")


def build_service(settings: Settings) -> GameService:
    return GameService(build_store(settings), utc_now, new_secret)
