"""Royal Assassin Duel bots, deciding from their seat's view alone (`bots.from_view`).

Neither bot is given the state. To judge a move they rebuild a position consistent with the
view (a **determinization**): the cards they cannot see (the other hand, the stock, the
discard pile) are dealt at random from the cards not in view, then the real rules are applied.

- `greedy`: one move ahead, on one determinization: the move whose result `evaluate` likes best.
- `best`: every move, then the other seat's best answer by the same measure (two plies), over
  several determinizations; the move with the best average. It also never passes a reaction
  that `evaluate` likes.
"""

from __future__ import annotations

from domain.deal import DealRandom
from domain.errors import GameOver, IllegalMove, Json
from domain.games.royal_assassin_duel.rules import (
    COLUMNS,
    RoyalAssassinDuel,
    State,
    all_codes,
    value,
)
from domain.games.royal_assassin_duel.rules import Column as _Column
from domain.games.royal_assassin_duel.rules import Entry as _Entry

RULES = RoyalAssassinDuel()
SAMPLES = 3


def determinize(view: Json, rng: DealRandom) -> State:
    """A full position the viewer cannot tell from the real one."""
    seat = view["seat"]
    players = view["players"]
    seen = list(view["hand"] or [])
    for p in players:
        seen += p["reserve"] + [e["card"] for col in p["columns"].values() for e in col]
    decks = 2 if any(len(code) == 3 for code in seen) else 1
    jokers = players[0]["joker"] is not None
    state = State("determinized", decks, jokers, 4)
    shown = set(seen)
    unseen = rng.shuffle([c for c in all_codes(decks) if c not in shown])
    counts = view["hand_counts"]
    for p, player in enumerate(players):
        state.columns[p] = {
            name: _Column([_Entry(e["card"], e["role"]) for e in player["columns"][name]])
            for name in COLUMNS
        }
        state.reserves[p] = list(player["reserve"])
        if jokers:
            state.jokers[p] = player["joker"]["above"] or ""
        state.hands[p] = (
            list(view["hand"]) if p == seat else [unseen.pop() for _ in range(counts[p])]
        )
    state.discard = [unseen.pop() for _ in range(min(view["discard_count"], len(unseen)))]
    state.stock = unseen
    state.round, state.phase, state.turn = view["round"], view["phase"], view["turn"]
    state.reaction = None if view["reaction"] is None else dict(view["reaction"])
    state.reshuffles = view["reshuffles"]
    return state


def evaluate(state: State, seat: int) -> float:
    """How good `state` looks to `seat`: royal value, pressure on columns, reserves."""
    if state.phase == "over":
        if state.winner is None:
            return 0.0
        return 10_000.0 if state.winner == seat else -10_000.0
    return _side(state, seat) - _side(state, 1 - seat)


def _side(state: State, seat: int) -> float:
    score = 0.0
    for col in state.columns[seat].values():
        top = col.top_royal()
        if top is None:
            continue
        royals = col.royals()
        score += 10 * sum(value(r) for r in royals) + 25 * len(royals)
        attack, defense = col.totals()
        margin = value(top) - (attack - defense)  # how much more attack it takes
        score -= 60.0 / max(margin, 1) if attack else 0.0
        score += min(defense - attack, 10) if defense > attack else 0.0
    score += 2 * len(state.reserves[seat]) + 3 * len(state.hands[seat])
    if state.jokers[seat] == "":
        score += 5
    return score


def _real(view: Json) -> list[Json]:
    return [m for m in view["legal_moves"] if m["type"] != "resign"] or view["legal_moves"]


def _after(state: State, seat: int, move: Json) -> State | None:
    try:
        return RULES.apply(state, seat, move).state
    except (IllegalMove, GameOver):
        return None


def _reply_value(state: State, me: int) -> float:
    """The position after the other seat's best answer (by `evaluate`), if it is to move."""
    if state.phase == "over" or me in RULES.to_move(state):
        return evaluate(state, me)
    other = RULES.to_move(state)[0]
    worst = float("inf")
    for reply in RULES.legal_moves(state, other):
        if reply["type"] == "resign":
            continue
        after = _after(state, other, reply)
        if after is not None:
            worst = min(worst, evaluate(after, me))
    return evaluate(state, me) if worst == float("inf") else worst


def greedy_choice(view: Json, rng: DealRandom) -> Json:
    moves = _real(view)
    if len(moves) == 1:
        return moves[0]
    state = determinize(view, rng)
    seat = view["seat"]
    return max(moves, key=lambda m: _score(state, seat, m, lookahead=False))


def best_choice(view: Json, rng: DealRandom) -> Json:
    moves = _real(view)
    if len(moves) == 1:
        return moves[0]
    seat = view["seat"]
    samples = [determinize(view, rng) for _ in range(SAMPLES)]
    totals = [sum(_score(s, seat, m, lookahead=True) for s in samples) for m in moves]
    return moves[max(range(len(moves)), key=totals.__getitem__)]


def _score(state: State, seat: int, move: Json, lookahead: bool) -> float:
    after = _after(state, seat, move)
    if after is None:
        return float("-inf")
    return _reply_value(after, seat) if lookahead else evaluate(after, seat)
