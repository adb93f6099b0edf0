"""Risus Royale bots. Each decides from the player's view alone (`bots.from_view`): the
face-down cards and the dice to come are as unknown to a bot as to a person.

`greedy` is the spec's sensible player: a goal-aware character (the goal's clichés strong, and
each pair of partner clichés covered by one strong cliché), the cliché with the best dice
margin, every Plus, Minus and X it may try, a W kept for an opponent the goal needs, escapes
from opponents the goal does not need, and moves that cut off nothing the goal may still need,
towards the nearest pile it needs.

`best` plays the same character, items and escapes, and reasons with exact odds. A Risus
battle is a small Markov chain (each round one side loses a die in the contested cliché), so
the chance of winning from any dice count is computed exactly from the distributions of sums
of d6 (`win_chance`). It uses those odds to choose the cliché of every round (switching when
the odds say so) and to plan a route: each neighbour is valued by the odds of getting through
its guard (when face up) or the opponent the goal needs, and by how far it leads towards what
the goal's alternatives closest to done still need, never cutting off a pile the goal may need.
"""

from __future__ import annotations

from collections import deque
from functools import cache
from itertools import product

from domain.deal import DealRandom
from domain.errors import Json
from domain.games.risus_royale.rules import reachable
from domain.games.risus_royale.tables import (
    CLICHE_OF_SUIT,
    CLICHES,
    CREATURE,
    GOAL_ALTERNATIVES,
    NEIGHBOURS,
    OPPONENT,
    OPPONENT_CODES,
    PILES,
    TREASURE,
    Alternative,
    pile_at,
)

# ---- the view, read once per decision -------------------------------------------------------


class Board:
    """What a decision needs from the view: cleared and cut-off piles, where the player is,
    which opponents are already beaten or known to lie where, and what the goal still needs."""

    def __init__(self, view: Json) -> None:
        flat = [pile for row in view["map"] for pile in row]
        self.cleared = [p["cleared"] for p in flat]
        self.cleared_mask = sum(1 << i for i, cleared in enumerate(self.cleared) if cleared)
        self.cut_off = [p["cut_off"] for p in flat]
        self.guard = [p["guard"] for p in flat]
        self.opponent = [p["opponent"] for p in flat]
        position = view["position"]
        self.here = None if position is None else pile_at(*position)
        self.known = {code: i for i, code in enumerate(self.opponent) if code is not None}
        gone = {p["opponent"] for p in flat if p["opponent"]} | set(view["discard"])
        self.beaten = (set(view["victory"]) | set(view["discard"])) & set(OPPONENT_CODES)
        self.unseen = set(OPPONENT_CODES) - gone - self.beaten
        alive = [a for a in GOAL_ALTERNATIVES[view["goal"]["number"]] if self._whole(a)]
        # Chase the alternatives closest to done: a goal of several (any class, any line) is
        # met sooner by finishing one than by advancing all.
        fewest = min((self._left(a) for a in alive), default=0)
        self.alive = [a for a in alive if self._left(a) == fewest]
        self.bonus = 0  # the `opponent_bonus`: seen once an opponent is fought
        battle = view["battle"]
        if battle is not None and battle["foe"]["role"] == "opponent":
            foe = battle["foe"]["card"]
            self.bonus = sum(battle["foe"]["cliches"].values()) - sum(OPPONENT[foe].strength)

    def _left(self, alt: Alternative) -> int:
        if alt.piles:
            return sum(1 for p in alt.piles if not self.cleared[p])
        return len(alt.opponents - self.beaten)

    def _whole(self, alt: Alternative) -> bool:
        if alt.piles:
            return not any(self.cut_off[p] for p in alt.piles)
        return not any(
            code in self.known and self.cut_off[self.known[code]] for code in alt.opponents
        )

    def open_piles(self) -> list[int]:
        return [p for p in PILES if not self.cleared[p] and not self.cut_off[p]]

    def needs_pile(self, pile: int) -> bool:
        """Whether the goal may still need this uncleared pile: it lies on a live line, holds
        a needed opponent, or hides an opponent that might be one."""
        for alt in self.alive:
            if alt.piles:
                if pile in alt.piles:
                    return True
                continue
            code = self.opponent[pile]
            if code is not None:
                if code in alt.opponents:
                    return True
            elif alt.opponents & self.unseen:
                return True
        return False

    def needs_opponent(self, code: str) -> bool:
        pile = self.known.get(code)
        return any(
            code in alt.opponents or (pile is not None and pile in alt.piles) for alt in self.alive
        )

    def distance_to_need(self, start: int) -> int:
        """Steps from `start` through uncleared piles to the nearest pile the goal needs."""
        queue, seen = deque([(start, 0)]), {start}
        while queue:
            pile, steps = queue.popleft()
            if self.needs_pile(pile):
                return steps
            for n in NEIGHBOURS[pile]:
                if n not in seen and not self.cleared[n]:
                    seen.add(n)
                    queue.append((n, steps + 1))
        return 99

    def lost_by_going(self, pile: int) -> int:
        """How many piles the goal may need would be cut off by stepping onto `pile`."""
        reach = reachable(pile, self.cleared_mask)  # the rules' own cut-off test
        return sum(1 for p in self.open_piles() if not reach >> p & 1 and self.needs_pile(p))


def _real(view: Json) -> list[Json]:
    return [m for m in view["legal_moves"] if m["type"] != "resign"]


# ---- exact battle odds ----------------------------------------------------------------------


@cache
def _sum_distribution(dice: int, drop_highest: bool) -> tuple[float, ...]:
    """P(total = t) for `dice` d6, optionally without the single highest die."""
    counts: dict[int, int] = {}
    for roll in product(range(1, 7), repeat=dice):
        total = sum(roll) - (max(roll) if drop_highest else 0)
        counts[total] = counts.get(total, 0) + 1
    size = 6**dice
    return tuple(counts.get(t, 0) / size for t in range(6 * dice + 1))


@cache
def round_chance(player: int, foe: int, x: bool = False) -> float:
    """The chance that `player` d6 beat `foe` d6 strictly (the foe's highest dropped with x)."""
    if foe <= 0:
        return 1.0
    if player <= 0:
        return 0.0
    mine, theirs = _sum_distribution(player, False), _sum_distribution(foe, x)
    below = 0.0
    chance = 0.0
    for total, p in enumerate(mine):
        chance += p * below  # theirs strictly below `total`
        if total < len(theirs):
            below += theirs[total]
    return chance


@cache
def win_chance(player: tuple[int, ...], foe: tuple[int, ...], x: tuple[bool, ...]) -> float:
    """The chance of winning a battle fought in the clichés listed, choosing each round's
    cliché to maximise it: `player[i]`, `foe[i]` dice in the i-th cliché the foe has."""
    best = 0.0
    for i, (mine, theirs) in enumerate(zip(player, foe, strict=True)):
        if mine <= 0:
            continue
        if theirs <= 0:
            return 1.0
        p = round_chance(mine, theirs, x[i])
        after_win = 1.0 if theirs == 1 else win_chance(player, _less(foe, i), x)
        after_loss = 0.0 if mine == 1 else win_chance(_less(player, i), foe, x)
        best = max(best, p * after_win + (1 - p) * after_loss)
    return best


def _less(dice: tuple[int, ...], i: int) -> tuple[int, ...]:
    return (*dice[:i], dice[i] - 1, *dice[i + 1 :])


def _battle_dice(
    battle: Json,
) -> tuple[list[str], tuple[int, ...], tuple[int, ...], tuple[bool, ...]]:
    names = list(battle["foe_dice"])
    player = tuple(battle["player_dice"][c] for c in names)
    foe = tuple(battle["foe_dice"][c] for c in names)
    x_suits = {TREASURE[code].suit for code in battle["x"]}
    return names, player, foe, tuple(CLICHES.index(c) in x_suits for c in names)


def _best_round(view: Json, moves: list[Json]) -> Json:
    """The round whose cliché gives the best chance of winning the battle from here."""
    names, player, foe, x = _battle_dice(view["battle"])

    def value(move: Json) -> float:
        i = names.index(move["cliche"])
        if foe[i] <= 0:
            return 2.0
        p = round_chance(player[i], foe[i], x[i])
        after_win = 1.0 if foe[i] == 1 else win_chance(player, _less(foe, i), x)
        after_loss = 0.0 if player[i] == 1 else win_chance(_less(player, i), foe, x)
        return p * after_win + (1 - p) * after_loss

    return max(moves, key=value)


def _margin_round(view: Json, moves: list[Json]) -> Json:
    """The round in the cliché with the best dice margin (more dice breaking ties)."""
    battle = view["battle"]

    def margin(move: Json) -> tuple[int, int]:
        c = move["cliche"]
        return battle["player_dice"][c] - battle["foe_dice"][c], battle["player_dice"][c]

    return max(moves, key=margin)


# ---- the character --------------------------------------------------------------------------


def _goal_weights(goal: int) -> list[float]:
    """How much each cliché matters to the goal's opponents: the strength of those its
    alternatives name (every opponent for lines), shared among the alternatives."""
    alternatives = GOAL_ALTERNATIVES[goal]
    named = set().union(*(a.opponents for a in alternatives))
    if not named or any(a.piles for a in alternatives):
        named = set(OPPONENT_CODES)
    weights = [0.0, 0.0, 0.0, 0.0]
    for code in named:
        cliche = CLICHE_OF_SUIT[code[1]]
        weights[cliche] += OPPONENT[code].strength[cliche] / len(alternatives)
    return weights


GUARD_WEIGHT = 4.0
"""A guard creature has dice in a pair of partner clichés (spades-hearts, clubs-diamonds), so
the player fights it with the stronger of the pair: what counts against guards is the best
die count of each pair."""


def _create(view: Json, moves: list[Json]) -> Json:
    """The goal's clichés strong, and each partner pair covered by one strong cliché (two
    strong clichés of one pair leave every guard of the other pair unbeatable)."""
    weights = _goal_weights(view["goal"]["number"])

    def worth(move: Json) -> float:
        dice = [int(move["cliches"][c]) for c in CLICHES]
        goal = sum(w * d for w, d in zip(weights, dice, strict=True))
        return goal + GUARD_WEIGHT * (max(dice[0], dice[3]) + max(dice[1], dice[2]))

    return max(moves, key=worth)


# ---- the policies ---------------------------------------------------------------------------


def random_choice(view: Json, rng: DealRandom) -> Json:
    choices = _real(view) or view["legal_moves"]
    return choices[rng.uniform(len(choices))]


def greedy_choice(view: Json, rng: DealRandom) -> Json:
    return _choose(view, careful=False)


def best_choice(view: Json, rng: DealRandom) -> Json:
    return _choose(view, careful=True)


def _choose(view: Json, careful: bool) -> Json:
    moves = _real(view)
    kinds = {m["type"] for m in moves}
    if "create" in kinds:
        return _create(view, moves)
    board = Board(view)
    if kinds & {"enter", "move", "retreat"}:
        return _step(board, moves, careful, view)
    battle = view["battle"]
    needed = battle["foe"]["role"] == "guard" or board.needs_opponent(battle["foe"]["card"])
    if "escape" in kinds and not needed:
        return {"type": "escape"}
    for move in moves:
        if move["type"] == "declare":
            return move
    for move in moves:
        if move["type"] == "use" and TREASURE[move["item"]].kind == "x":
            return move
    for move in moves:
        if move["type"] == "use" and needed and battle["foe"]["role"] == "opponent":
            return move
    rounds = [m for m in moves if m["type"] == "round"]
    if rounds:
        return _best_round(view, rounds) if careful else _margin_round(view, rounds)
    return next(m for m in moves if m["type"] == "fight")


def _step(board: Board, moves: list[Json], careful: bool, view: Json) -> Json:
    """Where to go: never cut off what the goal may need; then towards what it needs. The
    careful bot values each neighbour by what it holds and the odds of getting through it."""
    cliches = view["character"]["cliches"]
    dice = tuple(cliches[c] for c in CLICHES)

    def value(move: Json) -> tuple[float, ...]:
        pile = pile_at(*(move.get("pile") or move["to"]))
        lost = board.lost_by_going(pile) if board.here is not None else 0
        distance = board.distance_to_need(pile)
        if not careful:
            return (-lost, -distance)
        return (-lost, _pile_value(board, pile, dice) - 0.3 * distance)

    return max(moves, key=value)


def _pile_value(board: Board, pile: int, dice: tuple[int, ...]) -> float:
    """What stepping onto `pile` is worth: a needed opponent already face up (by the odds of
    beating it), an unexplored pile (by the odds of passing its guard and the chance that it
    hides what the goal needs), little for an opponent the goal does not need."""
    opponent = board.opponent[pile]
    if opponent is not None and board.guard[pile] is None:
        if board.needs_opponent(opponent):
            cliche = CLICHE_OF_SUIT[opponent[1]]
            strength = OPPONENT[opponent].strength[cliche] + board.bonus
            return 2.0 * win_chance((dice[cliche],), (strength,), (False,))
        return 0.1
    guard = board.guard[pile]
    odds = _guard_odds(dice, guard) if guard is not None else _mean_guard_odds(dice)
    return odds * (0.5 + (1.0 if board.needs_pile(pile) else 0.0))


def _guard_odds(dice: tuple[int, ...], guard: str) -> float:
    creature = CREATURE[guard]
    has = [c for c in range(4) if creature.strength[c]]
    return win_chance(
        tuple(dice[c] for c in has), tuple(creature.strength[c] for c in has), (False,) * len(has)
    )


@cache
def _mean_guard_odds(dice: tuple[int, ...]) -> float:
    return sum(_guard_odds(dice, code) for code in CREATURE) / len(CREATURE)
