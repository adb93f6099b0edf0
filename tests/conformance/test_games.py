"""The conformance suite: what every registered game must satisfy, run over all of them.

In the spirit of OpenSpiel's api_test: a game added to domain/registry.py is tested here with
no new test code. Each property plays random games from random seeds and options through the
public Ruleset API only.
"""

import json
import pickle
from collections import Counter

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.bots import _typed_random, bot_stream, play_out, random_policy
from domain.contracts import RESULT
from domain.deal import SEED_PATTERN, DealRandom
from domain.errors import IllegalMove
from domain.fast_paths import PublicPath, fast_paths
from domain.moves import UNDO_MOVE
from domain.replay import Playthrough, replay
from tests.games import EVERY_GAME
from tests.helpers import strings_in

GAME_IDS = sorted(EVERY_GAME)
MAX_STEPS = 5000  # far above any real game: one that outlasts it is a bug
SEEDS = st.from_regex(SEED_PATTERN, fullmatch=True)
PICKS = st.lists(st.integers(0, 10_000), max_size=400)

# The cases that take seconds each (measured): `make test` runs them at full strength, `make unit`
# deselects them (`-m "not slow"`) and runs each in brief instead (the end of this file).
SLOW_CONSERVATION = (
    "adaman",
    "risus-royale",
    "royal-ace-assin",
    "royal-assassin",
    "royal-assassin-duel",
)
SLOW_IN_PLACE = ("risus-royale", "royal-assassin-duel")
SLOW_DETERMINISM = ("risus-royale",)
SLOW_PLAYOUT = ("risus-royale",)
SLOW_UNDO = ("risus-royale", "royal-assassin")
SLOW_LOOKALIKES = ("royal-ace-assin",)
SLOW_SOLVER_LINES = ("adaman",)
SLOW_BOTS = (("greedy", "royal-assassin-duel"), ("best", "royal-assassin-duel"))


def games(slow=(), among=GAME_IDS):
    """The games as parametrize values, those in `slow` marked so. Their ids do not change,
    and so neither do the examples Hypothesis derives from them."""
    return [pytest.param(g, marks=pytest.mark.slow) if g in slow else g for g in among]


def option_values(spec):
    if spec.kind == "boolean":
        values = st.booleans()
    elif spec.kind == "integer":
        values = st.integers(spec.minimum or 0, spec.maximum if spec.maximum is not None else 50)
    else:
        values = st.just(spec.default)
    return st.none() | values if spec.nullable else values


def options_for(game):
    """The rules' options (`undo` is played around them; `seats` reaches them)."""
    offered = [spec for spec in game.ruleset.options_offered if spec.name != "undo"]
    return st.fixed_dictionaries({spec.name: option_values(spec) for spec in offered})


def seats_of(ruleset, options=None):
    """Every seat of a game dealt with `options`, and a spectator (None)."""
    return [*range(ruleset.seat_count(options)), None]


def random_game(ruleset, seed, options, picks, on_position=None):
    """Play legal moves chosen by `picks` to the end; returns (final state, seated log)."""
    state = ruleset.start(seed, options)
    log = []
    for step in range(MAX_STEPS):
        if on_position is not None:
            on_position(state)
        if ruleset.is_over(state):
            return state, log
        seat = ruleset.to_move(state)[0]
        legal = ruleset.legal_moves(state, seat)
        real = [m for m in legal if m["type"] != "resign"]
        assert real, "a game still playing always offers a move besides resign"
        pick = picks[step] if step < len(picks) else step
        move = real[pick % len(real)]
        log.append((seat, move))
        state = ruleset.apply(state, seat, move).state
    raise AssertionError(f"the game did not end within {MAX_STEPS} moves")


def draw_deal(data, game_id):
    """A game's ruleset with a random seed, random options and random move picks."""
    game = EVERY_GAME[game_id]
    seed = data.draw(SEEDS, label="seed")
    options = data.draw(options_for(game), label="options")
    return game.ruleset, seed, options, data.draw(PICKS, label="picks")


@pytest.mark.parametrize("game_id", games(SLOW_CONSERVATION))
@settings(max_examples=60)
@given(data=st.data())
def test_conservation_hidden_cards_legal_moves_and_termination(game_id, data):
    ruleset, seed, options, picks = draw_deal(data, game_id)
    start = ruleset.start(seed, options)
    expected = Counter(ruleset.inventory(start))

    def check(state):
        # Conservation: every card (or die) accounted for, exactly once as dealt; a game whose
        # cards come into play later (a suit chosen) adds each of them exactly once, for good.
        now = Counter(ruleset.inventory(state))
        assert now >= expected, expected - now
        assert all(
            expected[card] == 0 and count == 1 for card, count in (now - expected).items()
        ), now - expected
        expected.update(now - expected)
        # Secrecy: no seat and no spectator is shown a card hidden from it.
        for seat in seats_of(ruleset, options):
            shown = set(strings_in(ruleset.view(state, seat)))
            assert not shown & ruleset.hidden(state, seat), (
                seat,
                shown & ruleset.hidden(state, seat),
            )
        # A result only once the game is over.
        assert (ruleset.result(state, ruleset.seat_count(options)) is None) == (
            not ruleset.is_over(state)
        )
        # Every listed move applies, and leaves the position it was applied to untouched.
        # The whole state, not only a view: a list shared with the copy and appended to by
        # the move (Royal Ace-assin's tie-break pairs, once) shows in no view until the end.
        for seat in ruleset.to_move(state):
            before, whole = ruleset.view(state, seat), pickle.dumps(state)
            for move in ruleset.legal_moves(state, seat):
                ruleset.apply(state, seat, move)
            assert ruleset.view(state, seat) == before
            assert pickle.dumps(state) == whole

    final, _ = random_game(ruleset, seed, options, picks, check)
    outcome = ruleset.outcome(final)
    assert outcome is not None and {"result", "score"} <= set(outcome)
    assert ruleset.status(final) != "playing"
    if ruleset.max_seats == 1:
        assert ruleset.status(final) == outcome["result"]
    else:  # a game of seats names its winner (None: a draw)
        assert outcome["winner"] in (*range(ruleset.max_seats), None)
    assert ruleset.legal_moves(final, 0) == [] and ruleset.to_move(final) == ()
    # The shared vocabulary says what the game's own outcome says.
    seats = ruleset.seat_count(options)
    result = ruleset.result(final, seats)
    jsonschema.validate(result, RESULT)
    assert len(result["by_seat"]) == seats
    if ruleset.max_seats == 1:
        assert result["by_seat"] == ["won" if outcome["result"] == "won" else "lost"]
    elif outcome["winner"] is None:
        assert result["by_seat"] == ["drew"] * seats
    else:
        assert [s for s, r in enumerate(result["by_seat"]) if r == "won"] == [outcome["winner"]]
        assert result["by_seat"].count("lost") == seats - 1
    if result["scores"] is not None:
        assert len(result["scores"]) == seats


@pytest.mark.parametrize("game_id", games(SLOW_DETERMINISM))
@settings(max_examples=40)
@given(data=st.data())
def test_replay_is_deterministic(game_id, data):
    ruleset, seed, options, picks = draw_deal(data, game_id)
    final, log = random_game(ruleset, seed, options, picks)
    again = replay(ruleset, seed, options, log).state
    for seat in seats_of(ruleset, options):
        assert ruleset.view(again, seat) == ruleset.view(final, seat)
    assert ruleset.outcome(again) == ruleset.outcome(final)
    assert ruleset.deck(seed, options) == ruleset.deck(seed, options)


def views_of(game):
    return [game.view(seat) for seat in seats_of(game.ruleset, game.options)]


@pytest.mark.parametrize("game_id", games(SLOW_IN_PLACE))
@settings(max_examples=25)
@given(data=st.data())
def test_replaying_in_place_matches_playing_move_by_move(game_id, data):
    """`Playthrough.play` unheard (the game's fast path: one state mutated in place if it opts
    in, effects unheard), and `Playthrough.replay` of the JSON text a store keeps (how logs
    are replayed: the typed move found by its text), against `play` heard (copy-on-apply,
    effects kept) after every move; a copy taken midway stays where it was while the original
    advances."""
    ruleset, seed, options, picks = draw_deal(data, game_id)
    _, log = random_game(ruleset, seed, options, picks)
    fast, slow = Playthrough(ruleset, seed, options), Playthrough(ruleset, seed, options)
    stored = Playthrough(ruleset, seed, options)
    branch_at = data.draw(st.integers(0, len(log)), label="branch_at")
    branch = branch_views = None
    for k, (seat, move) in enumerate(log):
        if k == branch_at:
            branch, branch_views = fast.copy(), views_of(fast)
        fast.play(seat, move, heard=False)
        slow.play(seat, move)
        stored.replay([(seat, json.dumps(move))], k, texts=True)
        assert views_of(fast) == views_of(slow) == views_of(stored)
        assert ruleset.inventory(fast.state) == ruleset.inventory(slow.state)
    if branch is not None:
        assert views_of(branch) == branch_views


def lookalikes(value):
    """JSON values equal to `value` in Python, or close to it, that are not the same JSON."""
    if isinstance(value, bool):
        return [int(value), float(value), str(value).lower()]
    if isinstance(value, int):
        twins = [float(value), str(value), [value]]
        return twins + ([bool(value)] if value in (0, 1) else [])
    if isinstance(value, str):
        return [[value], value.upper() if value != value.upper() else value.lower(), 1]
    if isinstance(value, list):
        return [tuple(value), [*value, *value[:1]], [[item] for item in value]]
    members = value.items() if isinstance(value, dict) else ()  # each member's in its place
    return [0, "null", *({**value, k: twin} for k, v in members for twin in lookalikes(v))]


@pytest.mark.parametrize("game_id", games(SLOW_LOOKALIKES))
def test_a_remembered_move_is_never_confused_with_a_lookalike(game_id, brief=False):
    """Rulesets remember moves they have parsed; JSON `true` equals 1 in Python, and a
    list may hold what a string did: none of these may pass for a remembered move, given as
    a move or as the JSON text a store keeps (`advance_text` remembers texts). Every
    kind of move met in a few random games is tried (`brief`: one move of each type): a kind
    is its type and its values that are not text, an object by its keys (its lookalikes do
    not depend on what it holds: Royal Ace-assin's thousand placements are one kind)."""
    ruleset = EVERY_GAME[game_id].ruleset
    tried: set[str] = set()

    def check(state):
        for seat in ruleset.to_move(state):
            legal = ruleset.legal_moves(state, seat)
            for move in legal:
                shape = ",".join(
                    f"{k}={sorted(v) if isinstance(v, dict) else v}"
                    for k, v in move.items()
                    if not isinstance(v, str)
                )
                kind = move["type"] if brief else f"{move['type']}:{shape}"
                if kind in tried:
                    continue
                tried.add(kind)
                for _ in range(2):  # the first parse is remembered, the second recalled
                    ruleset.apply(state, seat, move)
                    fast_paths(ruleset).advance_text(state.copy(), seat, json.dumps(move))
                for name, value in move.items():
                    for twin in lookalikes(value):
                        odd = {**move, name: twin}
                        if odd not in legal:
                            with pytest.raises(IllegalMove):
                                ruleset.apply(state, seat, odd)
                            text = json.dumps(odd)  # a tuple is written as a list
                            if json.loads(text) not in legal:  # nor by its stored text
                                with pytest.raises(IllegalMove):
                                    fast_paths(ruleset).advance_text(state.copy(), seat, text)

    for i in range(3):
        random_game(ruleset, f"lookalike-{i}", None, list(range(i, 400, 7)), check)
    assert tried


@pytest.mark.parametrize("game_id", games(SLOW_PLAYOUT))
@settings(max_examples=30)
@given(seed=SEEDS, data=st.data())
def test_the_fast_playout_plays_exactly_the_public_path(game_id, seed, data):
    """The game's fast playout (domain/fast_paths.py: typed moves, one state mutated in place
    if the game opts in) against `apply` move by move with the same random bot, and against
    the public path's playout: the same moves, the same end, the same view."""
    game = EVERY_GAME[game_id]
    ruleset = game.ruleset
    options = data.draw(options_for(game), label="options")
    fast, fast_log = play_out(ruleset, seed, options, random_policy)

    def fresh():
        return [DealRandom(seed, bot_stream(seat)) for seat in range(ruleset.seat_count(options))]

    choosers = [random_policy(rng) for rng in fresh()]
    state = ruleset.start(seed, options)
    log = []
    while not ruleset.is_over(state):
        seat = ruleset.to_move(state)[0]
        move = choosers[seat](ruleset, state, seat, ruleset.legal_moves(state, seat))
        log.append((seat, move))
        state = ruleset.apply(state, seat, move).state
    assert fast_log == log
    for seat in seats_of(ruleset, options):
        assert ruleset.view(fast, seat) == ruleset.view(state, seat)
    assert ruleset.outcome(fast) == ruleset.outcome(state)
    start = ruleset.start(seed, options)
    public, typed = PublicPath(ruleset).playout(start, [_typed_random(rng) for rng in fresh()])
    assert [(seat, move.to_json()) for seat, move in typed] == log
    assert ruleset.view(public, None) == ruleset.view(state, None)


@pytest.mark.parametrize(
    ("policy", "game_id"),
    [
        pytest.param(
            policy,
            game_id,
            id=f"{policy}-{game_id}",
            marks=[pytest.mark.slow] if (policy, game_id) in SLOW_BOTS else [],
        )
        for game_id in GAME_IDS
        for policy in ("random", "greedy", "best")
    ],
)
def test_bots_only_ever_choose_legal_moves(policy, game_id, games_played=None):
    game = EVERY_GAME[game_id]
    if policy not in game.policies:
        pytest.skip(f"{game_id} has no {policy} bot")
    ruleset = game.ruleset
    for i in range(games_played or (4 if policy == "best" else 10)):
        seed = f"conformance-{policy}-{i}"
        choose = game.policies[policy](DealRandom(seed, "bot"))
        state = ruleset.start(seed)
        for _ in range(MAX_STEPS):
            if ruleset.is_over(state):
                break
            seat = ruleset.to_move(state)[0]
            legal = ruleset.legal_moves(state, seat)
            move = choose(ruleset, state, seat, legal)
            assert move in legal
            state = ruleset.apply(state, seat, move).state
        else:
            raise AssertionError("a bot game did not end")


@pytest.mark.parametrize(
    "game_id", games(SLOW_SOLVER_LINES, [g for g in GAME_IDS if EVERY_GAME[g].solver is not None])
)
def test_solver_lines_replay_to_the_claimed_result(game_id, deals=12):
    game = EVERY_GAME[game_id]
    verdicts = Counter()
    for i in range(deals):
        seed = f"conformance-solve-{i}"
        solution = game.solver(seed, None, 20_000)
        verdicts[(solution.complete, solution.winnable)] += 1
        if solution.complete and solution.winnable:
            final = replay(game.ruleset, seed, None, [(None, m) for m in solution.line]).state
            assert game.ruleset.outcome(final)["result"] == "won"
        else:
            assert solution.line is None
    assert verdicts[(True, True)] > 0, verdicts  # the check above was exercised


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_registry_entry_is_complete(game_id):
    game = EVERY_GAME[game_id]
    ruleset = game.ruleset
    assert game.id == ruleset.id == game_id
    assert {"random", "greedy"} <= set(game.policies)
    example = game.view_example()
    assert example["legal_moves"] and isinstance(game.renderer(example), str)
    schema = game.move_schema()
    assert [branch["properties"]["type"]["const"] for branch in schema["oneOf"]] == [
        shape.type for shape in ruleset.moves_offered
    ]
    listed = {m["type"] for m in example["legal_moves"]}
    assert listed <= {shape.type for shape in ruleset.move_shapes}


SOLITAIRES = [g for g in GAME_IDS if EVERY_GAME[g].ruleset.max_seats == 1]


@pytest.mark.parametrize("game_id", games(SLOW_UNDO, SOLITAIRES))
@settings(max_examples=40)
@given(data=st.data())
def test_undo_takes_back_exactly_and_reveals_nothing(game_id, data):
    """After an undo the view is the one before the undone move, card for card: every card
    went back where it was (the next draw turns the same card), and nothing new shows."""
    ruleset, seed, options, picks = draw_deal(data, game_id)
    game = Playthrough(ruleset, seed, {**options, "undo": True})
    seen = [_without_undo(game.view(0))]
    undos = 0
    for step in range(200):
        if ruleset.is_over(game.state):
            break
        legal = game.legal_moves(0)
        assert (UNDO_MOVE in legal) == (len(seen) > 1)
        if len(seen) > 1 and data.draw(st.integers(0, 3), label="undo?") == 0:
            effects = game.play(0, UNDO_MOVE)
            undos += 1
            assert effects[0]["type"] == "undo"
            seen.pop()
            assert _without_undo(game.view(0)) == seen[-1]
            assert game.view(0)["undos"] == undos
            continue
        real = [m for m in legal if m["type"] not in ("resign", "undo")]
        pick = picks[step] if step < len(picks) else step
        game.play(0, real[pick % len(real)])
        seen.append(_without_undo(game.view(0)))


def _without_undo(view):
    view = dict(view)
    view.pop("undos", None)
    view["legal_moves"] = [m for m in view["legal_moves"] if m != UNDO_MOVE]
    return view


# ---- `make unit`'s brief run of the slow cases ------------------------------------------------
# Each case marked slow above, cut short, so that the fast tier still plays every game through
# every property; `make test` runs these and the slow cases whole.


@pytest.mark.parametrize(
    ("prop", "game_id"),
    [
        pytest.param(prop, game_id, id=f"{prop.__name__}[{game_id}]")
        for prop, slow in (
            (test_conservation_hidden_cards_legal_moves_and_termination, SLOW_CONSERVATION),
            (test_replaying_in_place_matches_playing_move_by_move, SLOW_IN_PLACE),
            (test_undo_takes_back_exactly_and_reveals_nothing, SLOW_UNDO),
            (test_replay_is_deterministic, SLOW_DETERMINISM),
        )
        for game_id in slow
    ],
)
@settings(max_examples=3)
@given(data=st.data())
def test_the_slow_properties_in_brief(prop, game_id, data):
    prop.hypothesis.inner_test(game_id, data)


@pytest.mark.parametrize("game_id", SLOW_LOOKALIKES)
def test_a_remembered_move_is_never_confused_with_a_lookalike_in_brief(game_id):
    test_a_remembered_move_is_never_confused_with_a_lookalike(game_id, brief=True)


@pytest.mark.parametrize("game_id", SLOW_SOLVER_LINES)
def test_solver_lines_replay_to_the_claimed_result_in_brief(game_id):
    test_solver_lines_replay_to_the_claimed_result(game_id, deals=1)


@pytest.mark.parametrize(("policy", "game_id"), SLOW_BOTS, ids=[f"{p}-{g}" for p, g in SLOW_BOTS])
def test_bots_only_ever_choose_legal_moves_in_brief(policy, game_id):
    test_bots_only_ever_choose_legal_moves(policy, game_id, games_played=1)


@pytest.mark.parametrize("game_id", SLOW_PLAYOUT)
@settings(max_examples=3)
@given(seed=SEEDS, data=st.data())
def test_the_fast_playout_plays_exactly_the_public_path_in_brief(game_id, seed, data):
    test_the_fast_playout_plays_exactly_the_public_path.hypothesis.inner_test(game_id, seed, data)
