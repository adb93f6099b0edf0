"""Bot seats: each plays as soon as it has a move, from its own view, one event per move."""

from domain.usecases import bots, games, playing

DUEL = "royal-assassin-duel"
BOT_FIRST = [{"player": "bot", "policy": "greedy"}, {"player": "human"}]


def test_a_bot_is_due_only_when_it_may_move(court):
    created = games.create_game(court, DUEL, None, None, seats=BOT_FIRST)
    stored = court.load(created.game["id"])
    game = court.replay(stored, stored.version)
    # The bot moved at creation (more than once if the deal gives it the turn again); now it
    # is the human seat's turn alone.
    assert game.ruleset.to_move(game.state) == (1,)
    assert bots.bot_due(stored.record, game) is None
    # Only the bot's moves are logged: some, if the deal gave the bot's seat the lead (most
    # deals do; a secret deal, counted per worker, may not).
    dealt = game.ruleset.start(stored.record.seed, stored.record.options)
    assert {e.seat for e in stored.moves} == ({0} if game.ruleset.to_move(dealt) == (0,) else set())


def test_bots_answer_each_move_with_events_of_their_own(court):
    created = games.create_game(court, DUEL, None, None, seats=BOT_FIRST)
    gid, token = created.game["id"], created.token
    for _ in range(3):
        stored = court.load(gid)
        view = games.read_game(court, gid, token).view
        move = next(m for m in view["legal_moves"] if m["type"] != "resign")
        answer = playing.play(court, gid, token, stored.version, move)
        after = court.load(gid)
        mine = [e for e in after.moves[stored.version :] if e.seat == 1]
        theirs = [e for e in after.moves[stored.version :] if e.seat == 0]
        assert len(mine) == 1 and after.moves[stored.version].seat == 1
        shown = [e for e in answer.effects if e["type"] == "bot_move"]
        assert len(shown) == len(theirs) and all(e["seat"] == 0 for e in shown)
        if answer.game["status"] != "playing":
            break


def test_play_bots_plays_nothing_when_no_bot_is_due(court):
    created = games.create_game(court, DUEL, None, None)
    stored = court.load(created.game["id"])
    game = court.replay(stored, 0)
    after, same, effects = bots.play_bots(court, stored, game, 0)
    assert (after, effects) == (stored, []) and same is game
