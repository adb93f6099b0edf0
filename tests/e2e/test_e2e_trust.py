"""Hostile clients against a real `court serve` over loopback: the holes an outside attack
found (issue 38), each played again as the attacker played it."""

from domain.registry import GAMES
from tests.e2e.test_e2e import call, server
from tests.helpers import strings_in


def test_the_finished_listing_names_no_card_of_a_ranked_game_before_its_day_is_over(tmp_path):
    """A ranked attempt resigned at once ends "lost" to a Pretender its player saw on the
    table ("ruler": a card). The public listing of finished games is a stranger's window, and
    a stranger may know no card of the day's deal until the day is over: the row keeps the
    result and the score, and names no card."""
    cards = {code for step in GAMES["royal-assassin"].ruleset.deal_plan() for code in step.cards}
    with server("--db", str(tmp_path / "court.db"), env={"ROYAL_DAILY_SECRET": "trust"}) as (
        base,
        _,
    ):
        _, _, player = call(base, "POST", "/v1/players", {"name": "Ann"})
        status, _, started = call(
            base, "POST", "/v1/daily/today/royal-assassin/games", token=player["token"]
        )
        assert status == 201, started
        game = started["game"]
        status, _, ended = call(
            base,
            "POST",
            f"/v1/games/{game['id']}/moves",
            {"version": game["version"], "move": {"type": "resign"}},
            started["token"],
        )
        assert status == 201, ended
        assert ended["game"]["outcome"]["ruler"] in cards  # the player's own: seen, so shown
        status, _, listing = call(base, "GET", "/v1/games?status=finished")
        assert status == 200
        [row] = [row for row in listing["games"] if row["id"] == game["id"]]
        assert row["outcome"] == {**ended["game"]["outcome"], "ruler": None}
        assert not strings_in(row) & cards, row


def test_an_idempotency_key_past_64_characters_is_refused_and_nothing_is_played(tmp_path):
    """Every key is stored with its move for as long as the game is kept: the 255 characters
    the attack sent with each of its 3,123 moves are now a 400, and the move is not played."""
    with server("--db", str(tmp_path / "court.db")) as (base, _):
        _, _, created = call(
            base, "POST", "/v1/games", {"ruleset": "royal-assassin", "seed": "royal"}
        )
        game, token = created["game"], created["token"]
        moves_url = f"/v1/games/{game['id']}/moves"
        body = {"version": 0, "move": {"type": "reserve"}}
        status, headers, problem = call(
            base, "POST", moves_url, body, token, headers={"Idempotency-Key": "k" * 255}
        )
        assert status == 400 and problem["type"].endswith("bad-idempotency-key"), problem
        assert headers["Content-Type"] == "application/problem+json"
        assert call(base, "GET", f"/v1/games/{game['id']}")[2]["game"]["version"] == 0
        status, _, played = call(
            base, "POST", moves_url, body, token, headers={"Idempotency-Key": "k" * 64}
        )
        assert status == 201 and played["game"]["version"] == 1, played
