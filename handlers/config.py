"""Wiring: which store, which clock, which secrets. The only place that reads the environment.

Environment (all optional): ROYAL_STORE (sqlite|dynamodb), ROYAL_DB (SQLite file, default
./court.db), ROYAL_TABLE (DynamoDB table, default royal-court), ROYAL_DYNAMODB_ENDPOINT (e.g.
DynamoDB Local), AWS_REGION, ROYAL_CORS_ORIGINS (comma-separated, default *),
ROYAL_LEADERBOARD_SHARDS (DynamoDB partitions per day's board, default 1), ROYAL_REPLAY_CACHE
(games kept replayed per process, default 1024; 0 turns it off), ROYAL_GAME_TTL_DAYS (days
after which an unfinished casual game nobody moved in is deleted, default 30; 0 keeps them
for good), ROYAL_FINISHED_TTL_DAYS (days a finished casual game is kept after it ends, or
after its deal was last dealt again from a shared link, default 90; 0 keeps them for good),
POWERTOOLS_SERVICE_NAME and POWERTOOLS_METRICS_NAMESPACE (the `service` and the CloudWatch
namespace of the Lambda entry's logs and metrics, Powertools' variables; default
royal-court and RoyalCourt), ROYAL_CONNECTIONS_TABLE and ROYAL_WEBSOCKET_ENDPOINT (the
WebSocket connections' table and API Gateway's Management API endpoint, for the pushes on
AWS: handlers/aws/push.py), ROYAL_PUSH_URL (that WebSocket API's wss:// address, linked
from game reads for clients), and the daily secret: ROYAL_DAILY_SECRET (the secret itself), or
ROYAL_DAILY_SECRET_PARAM (the name of an SSM SecureString parameter, read at a process's
first daily request, and again at the next while it cannot be read: 503 meanwhile); with
neither, on SQLite, a secret made once and kept next to the database file (mode 0600).
Sign-in (docs/accounts.md): ROYAL_OIDC_ISSUER and ROYAL_OIDC_AUDIENCE, an OpenID Connect
issuer and the client id its ID tokens are for (both or neither; neither: guests only).
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from domain.errors import StoreUnavailable
from domain.identity import IdentityPort
from domain.replay_cache import ReplayCache
from domain.service import GameService
from domain.store import GameStore

if TYPE_CHECKING:
    from infra.push_connections import PushConnections


def utc_now() -> str:
    """ISO 8601 in UTC with milliseconds, e.g. 2026-11-22T03:25:59.123Z."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_secret() -> str:
    """192 random bits, URL-safe: game ids, seat tokens and secret seeds alike. Never one that
    begins with `-`, which a command line reads as an option (`court record <game id>`,
    `--token <token>`): one draw in 64 is drawn again, 0.02 bits fewer."""
    while (secret := secrets.token_urlsafe(24)).startswith("-"):
        pass
    return secret


@dataclass(frozen=True)
class Settings:
    store: str = "sqlite"
    db: str = "./court.db"
    table: str = "royal-court"
    endpoint_url: str | None = None
    region: str | None = None
    cors_origins: tuple[str, ...] = ("*",)
    create_table: bool = False
    daily_secret: str | None = None
    daily_secret_param: str | None = None
    leaderboard_shards: int = 1
    replay_cache: int = 1024  # games kept replayed per process; 0 turns the cache off
    game_ttl_days: float = 30.0  # unfinished casual games unmoved this long are deleted; 0: never
    # Finished casual games are deleted this long after they end (or after their deal was last
    # dealt again from a shared link); ranked daily attempts are kept. 0: never.
    finished_ttl_days: float = 90.0
    service_name: str = "royal-court"  # `service` in every Lambda log line and metric
    metrics_namespace: str = "RoyalCourt"  # the CloudWatch namespace of the Lambda metrics
    connections_table: str = "royal-court-connections"  # the WebSocket connections (AWS)
    # API Gateway's Management API for the WebSocket API (https://<api>.execute-api.<region>.
    # amazonaws.com/<stage>): where pushes are posted; the socket routes read it from their
    # event when it is not set.
    websocket_endpoint: str | None = None
    # The WebSocket API's own address for clients (wss://<api>.execute-api.<region>.amazonaws.
    # com/<stage>): game reads link it (`Link: <…?game=<id>>; rel="push"`), and the web client
    # then waits on it instead of an event stream or long-polls. None: not linked.
    push_url: str | None = None
    # Sign-in (docs/accounts.md): an OpenID Connect issuer and the client id (audience) its ID
    # tokens are for. Both or neither; without them every player is a guest, and guests rank.
    oidc_issuer: str | None = None
    oidc_audience: str | None = None

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
            daily_secret=env.get("ROYAL_DAILY_SECRET") or None,
            daily_secret_param=env.get("ROYAL_DAILY_SECRET_PARAM") or None,
            leaderboard_shards=int(env.get("ROYAL_LEADERBOARD_SHARDS", "1")),
            replay_cache=int(env.get("ROYAL_REPLAY_CACHE", "1024")),
            game_ttl_days=float(env.get("ROYAL_GAME_TTL_DAYS", "30")),
            finished_ttl_days=float(env.get("ROYAL_FINISHED_TTL_DAYS", "90")),
            service_name=env.get("POWERTOOLS_SERVICE_NAME") or "royal-court",
            metrics_namespace=env.get("POWERTOOLS_METRICS_NAMESPACE") or "RoyalCourt",
            connections_table=env.get("ROYAL_CONNECTIONS_TABLE") or "royal-court-connections",
            websocket_endpoint=env.get("ROYAL_WEBSOCKET_ENDPOINT") or None,
            push_url=env.get("ROYAL_PUSH_URL") or None,
            oidc_issuer=env.get("ROYAL_OIDC_ISSUER") or None,
            oidc_audience=env.get("ROYAL_OIDC_AUDIENCE") or None,
        )

    @property
    def game_ttl(self) -> int | None:
        """The games' time to live in seconds, None when they never expire."""
        return round(self.game_ttl_days * 86_400) or None

    @property
    def finished_ttl(self) -> int | None:
        """Finished casual games' retention in seconds, None when they are kept for good."""
        return round(self.finished_ttl_days * 86_400) or None


def build_store(settings: Settings) -> GameStore:
    if settings.store == "sqlite":
        from infra.sqlite_store import SqliteStore

        return SqliteStore(settings.db, settings.game_ttl)
    if settings.store == "dynamodb":
        from infra.dynamo_store import DynamoStore, make_client

        client = make_client(settings.endpoint_url, settings.region)
        store = DynamoStore(client, settings.table, settings.leaderboard_shards)
        if settings.create_table:
            store.create_table()
        return store
    raise ValueError(f"unknown store {settings.store!r} (sqlite or dynamodb)")


def build_connections(settings: Settings) -> PushConnections:
    """The WebSocket connections' table (AWS only: handlers/aws/push.py)."""
    from infra.dynamo_store import make_client
    from infra.push_connections import PushConnections

    client = make_client(settings.endpoint_url, settings.region)
    return PushConnections(client, settings.connections_table)


def daily_secret(settings: Settings) -> bytes:
    """The key of the daily deals: from the environment, from SSM, or kept beside the SQLite
    file (made on first use, readable by its owner only)."""
    if settings.daily_secret:
        return settings.daily_secret.encode("utf-8")
    if settings.daily_secret_param:
        return _ssm_secret(settings.daily_secret_param, settings.region)
    if settings.store != "sqlite":
        return b""  # daily challenges answer 503 until a secret is configured
    path = Path(f"{settings.db}.daily-secret")
    if not path.exists():
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as f:
            f.write(secrets.token_hex(32))
    return path.read_text().strip().encode("utf-8")


SSM_MISSING = ("ParameterNotFound", "ParameterVersionNotFound", "AccessDeniedException")
"""SSM errors that no retry mends: the operator must create the parameter (or grant it)."""


def _ssm_secret(name: str, region: str | None) -> bytes:
    """The daily secret from an SSM parameter. Any failure to read it is `StoreUnavailable`
    (503 with Retry-After, its cause logged), never a 500: a fresh deploy whose parameter
    was not created yet, or SSM throttling, leaves every game route working and the daily
    routes saying "come back". Nothing is kept on failure, so the next request reads again
    and the parameter takes effect without a redeploy."""
    import boto3
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        ssm = boto3.client("ssm", region_name=region or "us-east-1")
        found = ssm.get_parameter(Name=name, WithDecryption=True)
    except ClientError as e:
        code = e.response.get("Error", {}).get("Code", "")
        if code in SSM_MISSING:
            raise StoreUnavailable(
                f"the daily secret's SSM parameter {name} cannot be read ({code}): create it "
                "with scripts/daily_secret.py (docs/deploy.md)",
                retry_after=300,
            ) from e
        raise StoreUnavailable(f"SSM: {code or e}", retry_after=5) from e
    except BotoCoreError as e:
        raise StoreUnavailable(f"SSM: {e}", retry_after=5) from e
    return str(found["Parameter"]["Value"]).encode("utf-8")


def build_identities(settings: Settings) -> IdentityPort | None:
    """The sign-in provider's checker, or None (guests only) when none is configured."""
    if not settings.oidc_issuer and not settings.oidc_audience:
        return None
    if not (settings.oidc_issuer and settings.oidc_audience):
        raise ValueError("sign-in needs both an OpenID Connect issuer and an audience")
    from infra.oidc import OidcVerifier  # PyJWT and cryptography: loaded where used only

    return OidcVerifier(settings.oidc_issuer, settings.oidc_audience)


def build_service(settings: Settings) -> GameService:
    cache = ReplayCache(settings.replay_cache) if settings.replay_cache > 0 else None
    secret = lambda: daily_secret(settings)  # noqa: E731 (read on first need, once)
    return GameService(
        build_store(settings), utc_now, new_secret, secret, cache,
        game_ttl=settings.game_ttl, finished_ttl=settings.finished_ttl,
        identities=build_identities(settings),
    )  # fmt: skip
