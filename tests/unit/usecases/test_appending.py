"""One event onto the log: hashed into the chain, the game's end written with it, the expiry
pushed back only when it must be."""

from domain.record import chain_breaks, move_salt
from domain.usecases import appending, games, playing
from domain.usecases.court import Court, epoch
from tests.api_helpers import counting_secrets


def test_every_appended_event_chains_from_the_commitment(court):
    created = games.create_game(court, "royal-assassin", None, "court-5")
    gid = created.game["id"]
    for version in range(5):
        view = games.read_game(court, gid, created.token).view
        move = next(m for m in view["legal_moves"] if m["type"] not in ("resign", "undo"))
        playing.play(court, gid, created.token, version, move)
    stored = court.load(gid)
    assert [e.seq for e in stored.moves] == [1, 2, 3, 4, 5]
    key, commitment = stored.record.chain_key, stored.record.seed_commitment
    log = [(e.seq, e.seat, e.move, e.hash) for e in stored.moves]
    salts = [move_salt(key, e.seq) for e in stored.moves]
    assert chain_breaks(commitment, log, salts) == []
    assert chain_breaks(commitment, log) == [1, 2, 3, 4, 5]  # each link needs its salt


def test_the_finishing_move_writes_the_end_with_it(court, clock):
    created = games.create_game(court, "royal-assassin", None, None)
    gid = created.game["id"]
    stored = court.load(gid)
    game = court.replay(stored, 0)
    clock.now = "2026-11-22T10:05:00.000Z"
    after, effects = appending.append(court, stored, game, 0, {"type": "resign"})
    assert effects and game.ruleset.is_over(game.state)  # `game` moved on in place
    kept = court.load(gid).record
    assert (kept.status, kept.finished_at, kept.expires_at) == ("lost", clock.now, None)
    assert after.record.status == kept.status and after.record.outcome == kept.outcome


def test_expiry_is_pushed_back_only_once_half_of_it_is_gone(store, clock):
    court = Court(store, clock, counting_secrets(), game_ttl=3600)
    created = games.create_game(court, "royal-assassin", None, "court-5")
    record = court.load(created.game["id"]).record
    start = epoch(clock.now)
    assert record.expires_at == start + 3600
    assert appending.renewed_expiry(court, record, "2026-11-22T10:29:59.000Z") is None
    assert (
        appending.renewed_expiry(court, record, "2026-11-22T10:30:01.000Z") == start + 1801 + 3600
    )
    no_expiry = Court(store, clock, counting_secrets())
    assert appending.renewed_expiry(no_expiry, record, "2026-11-22T10:59:00.000Z") is None
