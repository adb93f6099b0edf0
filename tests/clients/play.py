"""A Python client of the Royal Court API, built from openapi.yaml alone.

`royal_court_client` is what openapi-python-client generates from the spec (the test
generates it afresh: tests/clients/test_generated_clients.py); this script uses nothing else
to talk to the server: no raw HTTP, no casts, no `Any` (`mypy --strict` checks it). It plays
every game the server lists to the end (a solitaire on a chosen deal; a game of two seats
with both seats, the second joined by invite, and against a bot), reads each finished game's
log, record and a replay step, has the server verify the record, and plays a daily
challenge. One JSON line per game on stdout; any surprise raises.

    python tests/clients/play.py http://127.0.0.1:8000 ID_TOKEN  # the package importable
"""

from __future__ import annotations

import json
import sys
from typing import TypeVar

import httpx
from royal_court_client import AuthenticatedClient, Client
from royal_court_client.api.default import (
    create_game,
    create_player,
    daily_challenges,
    daily_leaderboard,
    get_record,
    join_seat,
    list_moves,
    list_rulesets,
    me,
    play_move,
    player_profile,
    read_game,
    replay_step,
    sign_in,
    start_daily_game,
    verify_record,
)
from royal_court_client.models import (
    AdamanView,
    CreateAdamanGame,
    CreateAdamanGameRuleset,
    CreatedGame,
    CreatedPlayer,
    CreateRisusRoyaleGame,
    CreateRisusRoyaleGameRuleset,
    CreateRoyalAceAssinGame,
    CreateRoyalAceAssinGameRuleset,
    CreateRoyalAssassinDuelGame,
    CreateRoyalAssassinDuelGameRuleset,
    CreateRoyalAssassinGame,
    CreateRoyalAssassinGameRuleset,
    DailyChallenges,
    DailyLeaderboardRuleset,
    Game,
    GameStatus,
    GameWithView,
    JoinedSeat,
    JoinSeatBody,
    Leaderboard,
    Me,
    MoveLog,
    MoveRequest,
    MoveResult,
    OwnEntry,
    PlayerProfile,
    PlayerRequest,
    Record,
    ReplayStep,
    Resign,
    RisusRoyaleView,
    RoyalAceAssinView,
    RoyalAssassinDuelView,
    RoyalAssassinView,
    RulesetDescription,
    RulesetList,
    SeatRequest,
    SeatRequestPlayer,
    SignInRequest,
    StartDailyGameRuleset,
    Undo,
    Verdict,
)
from royal_court_client.types import Unset

T = TypeVar("T")
View = RoyalAssassinView | AdamanView | RoyalAceAssinView | RoyalAssassinDuelView | RisusRoyaleView
CreateGame = (
    CreateRoyalAssassinGame
    | CreateAdamanGame
    | CreateRoyalAceAssinGame
    | CreateRoyalAssassinDuelGame
    | CreateRisusRoyaleGame
)
MAX_MOVES = 2000  # every game here ends far sooner when each seat plays its first legal move
SEED = "generated-client"  # a solitaire's deal, chosen: the same game on every run


def seat_client(base_url: str, token: str) -> AuthenticatedClient:
    """A client that sends a seat's (or a player's) token."""
    return AuthenticatedClient(base_url=base_url, token=token, timeout=httpx.Timeout(60.0),
                               raise_on_unexpected_status=True)  # fmt: skip


def ok(answer: object, kind: type[T]) -> T:
    """The answer, when it is what the spec says a success is (else a Problem, or None)."""
    if not isinstance(answer, kind):
        raise AssertionError(f"expected {kind.__name__}, got {answer!r}")
    return answer


# --- dealing ---------------------------------------------------------------------------------


def create_body(ruleset: RulesetDescription, seats: list[SeatRequest]) -> CreateGame:
    """The create request of a ruleset the server lists: one typed variant per ruleset."""
    match ruleset.id:
        case "royal-assassin":
            return CreateRoyalAssassinGame(CreateRoyalAssassinGameRuleset.ROYAL_ASSASSIN, seed=SEED)
        case "adaman":
            return CreateAdamanGame(CreateAdamanGameRuleset.ADAMAN, seed=SEED)
        case "risus-royale":
            return CreateRisusRoyaleGame(CreateRisusRoyaleGameRuleset.RISUS_ROYALE, seed=SEED)
        case "royal-ace-assin":
            return CreateRoyalAceAssinGame(
                CreateRoyalAceAssinGameRuleset.ROYAL_ACE_ASSIN, seats=seats
            )
        case "royal-assassin-duel":
            return CreateRoyalAssassinDuelGame(
                CreateRoyalAssassinDuelGameRuleset.ROYAL_ASSASSIN_DUEL, seats=seats
            )
    raise AssertionError(f"a ruleset this client does not know: {ruleset.id}")


# --- playing ---------------------------------------------------------------------------------


def seats_to_move(view: View) -> list[int]:
    """The seats that may move now: a solitaire's one seat, or the view's `to_move`."""
    if isinstance(view, RoyalAceAssinView | RoyalAssassinDuelView):
        return view.to_move
    return [0] if view.legal_moves else []


def choose(view: View, version: int) -> MoveRequest:
    """The view's first legal move that is neither a resignation nor an undo, at the version
    the seat has seen."""
    for move in view.legal_moves:
        if not isinstance(move, Resign | Undo):
            return MoveRequest(version=version, move=move)
    raise AssertionError(f"no move to play in {view!r}")


def play_to_the_end(seats: dict[int, AuthenticatedClient], created: CreatedGame) -> Game:
    """Each seat we hold plays its first legal move whenever it may move (bots move in the
    server, within our requests), until the game is over."""
    game, view, seen_by = created.game, created.view, created.seat
    played = 0
    while game.status == GameStatus.PLAYING:
        mover = min(seat for seat in seats_to_move(view) if seat in seats)  # none: a bot's turn
        if mover != seen_by:  # another seat's turn: read the game as that seat sees it
            read = ok(read_game.sync(game.id, client=seats[mover]), GameWithView)
            game, view, seen_by = read.game, read.view, mover
        request = choose(view, game.version)
        result = ok(play_move.sync(game.id, client=seats[mover], body=request), MoveResult)
        game, view = result.game, result.view
        played += 1
        assert played < MAX_MOVES, f"{game.ruleset} did not end in {MAX_MOVES} moves"
    return game


def check_finished(client: AuthenticatedClient, game: Game) -> bool:
    """The finished game's log, record and first replay step, and the record's verdict."""
    log = ok(list_moves.sync(game.id, client=client), MoveLog)
    assert [m.seq for m in log.moves] == list(range(1, game.version + 1)), log
    record = ok(get_record.sync(game.id, client=client), Record)
    assert record.id == game.id and record.status.value == game.status.value, record
    assert isinstance(record.seed, str), "a finished game's record reveals its seed"
    if game.version > 0:
        step = ok(replay_step.sync(game.id, client=client, at=1), ReplayStep)
        assert step.at == 1 and step.move is not None and step.move.seq == 1, step
        assert step.move.hash_ == log.moves[0].hash_, (step.move, log.moves[0])
    verdict = ok(verify_record.sync(client=client, body=record.to_dict()), Verdict)
    assert verdict.valid and not verdict.problems, verdict
    assert verdict.moves == len(record.moves), (verdict.moves, len(record.moves))
    return verdict.valid


def report(mode: str, game: Game, verified: bool | None) -> None:
    result = game.outcome.result if game.outcome is not None else None
    print(json.dumps({"ruleset": game.ruleset, "mode": mode, "moves": game.version,
                      "status": game.status.value, "result": result,
                      "verified": verified}), flush=True)  # fmt: skip


def play_solitaire(base_url: str, anyone: Client, ruleset: RulesetDescription) -> None:
    created = ok(create_game.sync(client=anyone, body=create_body(ruleset, [])), CreatedGame)
    seat = seat_client(base_url, created.token)
    game = play_to_the_end({created.seat: seat}, created)
    report("solo", game, check_finished(seat, game))


def play_two_seats(base_url: str, anyone: Client, ruleset: RulesetDescription) -> None:
    """Both seats by invite, then one seat against the ruleset's quickest bot."""
    human = SeatRequest(player=SeatRequestPlayer.HUMAN)
    body = create_body(ruleset, [human, human])
    created = ok(create_game.sync(client=anyone, body=body), CreatedGame)
    seats = {created.seat: seat_client(base_url, created.token)}
    for invite in created.invites:
        joined = ok(
            join_seat.sync(created.game.id, invite.seat, client=anyone,
                           body=JoinSeatBody(invite=invite.invite)),
            JoinedSeat,
        )  # fmt: skip
        seats[joined.seat] = seat_client(base_url, joined.token)
    assert sorted(seats) == list(range(ruleset.seats.max_)), seats
    game = play_to_the_end(seats, created)
    report("invite", game, check_finished(seats[created.seat], game))

    policy = "random" if "random" in ruleset.policies else ruleset.policies[0]
    bot = SeatRequest(player=SeatRequestPlayer.BOT, policy=policy)
    created = ok(create_game.sync(client=anyone, body=create_body(ruleset, [human, bot])),
                 CreatedGame)  # fmt: skip
    assert created.invites == [], created.invites
    seat = seat_client(base_url, created.token)
    game = play_to_the_end({created.seat: seat}, created)
    report("bot", game, check_finished(seat, game))


def play_daily(base_url: str, anyone: Client, id_token: str) -> None:
    """A guest signs in (an ID token from the test's issuer) and becomes the account's
    player, reads itself and its public profile, then makes its ranked attempt at one of
    today's challenges and finds its place on the day's leaderboard."""
    guest = ok(create_player.sync(client=anyone, body=PlayerRequest(name="Pyclient")),
               CreatedPlayer)  # fmt: skip
    player = ok(sign_in.sync(client=seat_client(base_url, guest.token),
                             body=SignInRequest(id_token=id_token)), CreatedPlayer)  # fmt: skip
    assert player.player_id == guest.player_id, player
    me_now = ok(me.sync(client=seat_client(base_url, player.token)), Me)
    assert me_now.signed_in and me_now.sessions == 1 and me_now.name == guest.name, me_now
    profile = ok(player_profile.sync(player.player_id, client=anyone), PlayerProfile)
    assert profile.signed_in and profile.name == guest.name, profile
    today = ok(daily_challenges.sync("today", client=anyone), DailyChallenges)
    challenge = min(today.challenges, key=lambda c: (c.ruleset != "royal-assassin", c.ruleset))
    signed_in = seat_client(base_url, player.token)
    created = ok(
        start_daily_game.sync("today", StartDailyGameRuleset(challenge.ruleset),
                              client=signed_in),
        CreatedGame,
    )  # fmt: skip
    assert created.game.seed_commitment == challenge.seed_commitment, created.game
    seat = seat_client(base_url, created.token)
    game = play_to_the_end({created.seat: seat}, created)
    board = ok(
        daily_leaderboard.sync(today.date, DailyLeaderboardRuleset(challenge.ruleset),
                               client=signed_in),
        Leaderboard,
    )  # fmt: skip
    assert isinstance(board.you, OwnEntry) and board.you.game_id == game.id, board.you
    assert player.name in [entry.name for entry in board.entries], board.entries
    log = ok(list_moves.sync(game.id, client=seat), MoveLog)
    assert len(log.moves) == game.version, log
    # A ranked attempt's record keeps its seed until the day is over: nothing to verify yet.
    record = ok(get_record.sync(game.id, client=seat), Record)
    assert isinstance(record.seed, Unset) and len(record.moves) == game.version, record
    report("daily", game, None)


def main(base_url: str, id_token: str) -> None:
    anyone = Client(base_url=base_url, timeout=httpx.Timeout(60.0),
                    raise_on_unexpected_status=True)  # fmt: skip
    listed = ok(list_rulesets.sync(client=anyone), RulesetList)
    for ruleset in listed.rulesets:
        if ruleset.seats.max_ == 1:
            play_solitaire(base_url, anyone, ruleset)
        else:
            play_two_seats(base_url, anyone, ruleset)
    play_daily(base_url, anyone, id_token)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
