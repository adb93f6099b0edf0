"""Server-Sent Events of a game (`GET /v1/games/{id}/events`, docs/api.md "Streams"): what
every server of the API sends, whoever holds the connection.

Each event is `id: <version>` and `data: <the game and the requester's view>`, the very body
`GET /v1/games/{id}` answers for the same token at that version: both are the read use case
(`GameService.read_game`, its checks and secrecy) shaped by one presenter
(`presenter.game_with_view`), so a stream can show nothing a read would not. `GameEvents` is
that one code path, for the Flask route, `court serve`'s stream hub and the WebSocket pushes on
AWS (handlers/aws/push.py).

Two servers hold a stream:

- **The Flask route** (`handlers/http/app.py`; Lambda, the test client, any WSGI server) answers
  a bounded stream: the current event at once if it is newer than `Last-Event-ID`, else it
  waits like a long-poll for the next version; either way the response then ends and the client
  reconnects with `Last-Event-ID`. Under a buffering gateway that is exactly a long-poll.
- **`StreamHub`** (`court serve`, handlers/serve/stream_hub.py) keeps the connection open
  instead. It offers itself to the route under `HUB_KEY` in the environ, and the route answers
  it with a `Ticket` under `TICKET_KEY`: the stream it opened, which the hub then feeds.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from domain.errors import GameNotFound, Json
from domain.service import GameService
from handlers.http import presenter as present

HUB_KEY = "royal_court.stream_hub"
"""The environ key under which the hub offers itself to the route it runs for a stream's head."""
TICKET_KEY = "royal_court.stream_ticket"
"""The environ key the route answers a hub with: the stream it opened (`Ticket`)."""
CONTENT_TYPE = "text/event-stream; charset=utf-8"
HEARTBEAT = b": keep-alive\n\n"


def encode_event(version: int, body: Json) -> bytes:
    """One event: its id is the version; its data the JSON on one line (json.dumps never
    writes a newline, which would end a data line)."""
    return b"id: %d\ndata: %s\n\n" % (version, present.json_bytes(body))


def last_event_id(header: str | None) -> int | None:
    """The version a client says it has seen, or None when the header is absent or is not a
    version (an id this API never sent: the client then gets the current state)."""
    if header is None:
        return None
    header = header.strip()
    if not header.isascii() or not header.isdigit() or len(header) > 12:
        return None
    return int(header)


def news(version: int, seen: int | None) -> bool:
    """Whether a stream sends the game at `version` to a client that has seen `seen`: only a
    version it has not seen (an id ahead of the game was never sent by it: resend)."""
    return seen is None or version != seen


class GameEvents:
    """The events of games, over the read use case: what both the route and the hub send."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._listeners: list[Callable[[str], None]] = []

    def body(self, game_id: str, token: str | None) -> tuple[int, Json]:
        """The game and the token's view, exactly as `GET /v1/games/{id}` answers them."""
        snap = self.service.read_game(game_id, token)
        return snap.game["version"], present.game_with_view(snap.game, snap.view)

    def watch(self, game_id: str, token: str | None) -> tuple[int | None, int, Json]:
        """`body`, and the token's seat (None: a spectator): what a WebSocket connection on
        AWS keeps instead of the token (handlers/aws/push.py)."""
        seat, snap = self.service.watch_game(game_id, token)
        return seat, snap.game["version"], present.game_with_view(snap.game, snap.view)

    def bodies(self, game_id: str, seats: Iterable[int | None]) -> dict[int | None, Json]:
        """`body` for each seat, as a read with that seat's token answers it, from one load:
        what a push sends a game's connections."""
        snaps = self.service.read_game_as(game_id, seats)
        return {seat: present.game_with_view(s.game, s.view) for seat, s in snaps.items()}

    def event(self, game_id: str, token: str | None) -> tuple[int, bytes]:
        version, body = self.body(game_id, token)
        return version, encode_event(version, body)

    def change_mark(self) -> int | None:
        """A number that changes whenever another connection has written to the store
        (SQLite's `PRAGMA data_version`), or None on a store that cannot say: the hub's safety
        poll reads the watched games' versions only when it changed."""
        mark = getattr(self.service.store, "data_version", None)
        return None if mark is None else int(mark())

    def versions(self, game_ids: list[str]) -> dict[str, int]:
        """Each game's version, a game not found left out: in one statement on a store that
        offers it (SQLite's `versions`), else one small read each (`GameStore.version`)."""
        batch = getattr(self.service.store, "versions", None)
        if batch is not None:
            found: dict[str, int] = batch(game_ids)
            return found
        out: dict[str, int] = {}
        for game_id in game_ids:
            with contextlib.suppress(GameNotFound):
                out[game_id] = self.service.game_version(game_id)
        return out

    def listen(self, listener: Callable[[str], None]) -> None:
        """Be told of every move made through this process (the hub: a prompt event)."""
        self._listeners.append(listener)

    def moved(self, game_id: str) -> None:
        for listener in self._listeners:
            listener(game_id)


@dataclass(frozen=True)
class Place:
    """Whose place a held stream takes (`StreamHub.reserve`): its game, its seat (None: a
    spectator), its client's address (`limits.client_key`)."""

    game_id: str
    seat: int | None
    address: str


@dataclass(frozen=True)
class Ticket:
    """What the route tells the hub it opened: the game, the token, the version sent or seen,
    the place it reserved."""

    game_id: str
    token: str | None
    version: int
    place: Place
