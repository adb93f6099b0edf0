"""The API's links: the use cases return what a game, a listing or a board is, and this adds
where to find more (`/v1/...`), so that the domain knows nothing of URLs.

Each function takes the use case's JSON and returns it with its links, keys in the order the
API has always sent them.
"""

from __future__ import annotations

import json

from domain.errors import Json


def record_url(game_id: str) -> str:
    return f"/v1/games/{game_id}/record"


def game_url(game_id: str) -> str:
    return f"/v1/games/{game_id}"


def game(body: Json) -> Json:
    """A game: its share block (once its seed is public and it is over) links its record,
    its rematch (once dealt) the rematch's game."""
    share, rematch = body.get("share"), body.get("rematch")
    if share is not None:
        body = {**body, "share": {"record": record_url(body["id"]), **share}}
    if rematch is not None:
        body = {**body, "rematch": {**rematch, "game": game_url(rematch["game_id"])}}
    return body


def game_with_view(game_json: Json, view: Json) -> Json:
    """A game and a seat's view of it: what a read answers, and what each event of a stream
    carries (one function, so that the two cannot differ)."""
    return {"game": game(game_json), "view": view}


def json_bytes(body: Json) -> bytes:
    """A body as the API writes it: `json.dumps`'s defaults, one line (an event's data line)."""
    return json.dumps(body).encode()


def invites(game_id: str, invites: list[Json] | None) -> list[Json]:
    """A new game's invites, each with where to join its seat."""
    return [
        {**invite, "join": f"/v1/games/{game_id}/seats/{invite['seat']}"}
        for invite in invites or []
    ]


def finished_games(listing: Json) -> Json:
    """The finished games' listing: each game links its record."""
    games = [{**entry, "record": record_url(entry["id"])} for entry in listing["games"]]
    return {**listing, "games": games}


def daily(day: Json) -> Json:
    """A day's challenges: each links its leaderboard (before the seed, once it is out)."""
    challenges = []
    for challenge in day["challenges"]:
        linked = {k: v for k, v in challenge.items() if k != "seed"}
        linked["leaderboard"] = f"/v1/daily/{day['date']}/{challenge['ruleset']}/leaderboard"
        if "seed" in challenge:
            linked["seed"] = challenge["seed"]
        challenges.append(linked)
    return {**day, "challenges": challenges}


def leaderboard(board: Json) -> Json:
    """A leaderboard: once its day is over, each entry (and yours) links its game's record."""
    if not board["over"]:
        return board
    out = {**board, "entries": [_with_record(e) for e in board["entries"]]}
    you = board.get("you")
    if you is not None and you.get("finished"):
        out["you"] = _with_record(you)
    return out


def _with_record(entry: Json) -> Json:
    """An entry with its record's link after `game_id` (the order the API always sent)."""
    out: Json = {}
    for key, value in entry.items():
        out[key] = value
        if key == "game_id":
            out["record"] = record_url(value)
    return out
