"""Risus Royale: a dice solitaire on a 4x4 map of three-card piles.

Followed to the letter from ../shared/specs/risus-royale.md; in our words, with the tables and
every ambiguity of the seed text and its resolution, in docs/rules/risus-royale.md. The tables
are data in `tables.py`; this module is the rules alone.

Every die comes from the seed's `dice` stream, drawn one at a time in the order the rolls
happen, so a finished game can be re-derived roll by roll from its revealed seed. The stream
is part of the state (a copy carries its position), which keeps replays exact.

Piles keep their cards bottom first (treasure, opponent, guard); `face_down[p]` counts the
bottom cards of pile p still face down, so a card is face up exactly when its index in the
pile is at least that count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import ClassVar

from domain.deal import DealRandom, DealStep
from domain.errors import Json
from domain.fast_paths import InPlace
from domain.games.risus_royale.board import GESTURES
from domain.games.risus_royale.contract import CONTRACT
from domain.games.risus_royale.tables import (
    CLICHE_OF_SUIT,
    CLICHES,
    CREATURE,
    DEUCES,
    EDGE,
    GOAL_ALTERNATIVES,
    GOAL_CHART,
    GOAL_TEXT,
    NEIGHBOURS,
    NUMBER_CODES,
    OPPONENT,
    OPPONENT_BIT,
    OPPONENT_CODES,
    PILES,
    RELEVANT,
    TREASURE,
    Foe,
    cell,
    pile_at,
)
from domain.games.risus_royale.words import WORDS
from domain.gestures import Gestures
from domain.moves import FieldSpec, MoveShape
from domain.options import OptionSpec, OptionValue
from domain.presentation import Words
from domain.ruleset import Ruleset
from domain.transition import Effect

TURN_LIMIT = 100
"""Arrivals allowed (ambiguity 35): the 100th is the last."""
GUARD, OPPONENT_INDEX, TREASURE_INDEX = 2, 1, 0
MOVE_PHASES = ("move", "retreat")
ALL_PILES = (1 << 16) - 1
_SIX_LIMIT = ((1 << 64) // 6) * 6  # DealRandom.uniform(6)'s rejection bound


@dataclass(frozen=True, slots=True)
class Move:
    """`create` (cliches), `enter`/`move`/`retreat` (pile), `declare`/`use` (item), `round`
    (cliche), `escape`, `fight` or `resign`."""

    kind: str
    cliches: tuple[int, int, int, int] | None = None
    pile: int | None = None
    item: str | None = None
    cliche: int | None = None
    is_resign: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_resign", self.kind == "resign")

    def to_json(self) -> Json:
        kind = self.kind
        if kind == "create":
            assert self.cliches is not None
            return {"type": kind, "cliches": dict(zip(CLICHES, self.cliches, strict=True))}
        if kind == "enter":
            assert self.pile is not None
            return {"type": kind, "pile": cell(self.pile)}
        if kind in MOVE_PHASES:
            assert self.pile is not None
            return {"type": kind, "to": cell(self.pile)}
        if kind in ("declare", "use"):
            return {"type": kind, "item": self.item}
        if kind == "round":
            assert self.cliche is not None
            return {"type": kind, "cliche": CLICHES[self.cliche]}
        return {"type": kind}


RESIGN, FIGHT, ESCAPE = Move("resign"), Move("fight"), Move("escape")
ROUNDS = tuple(Move("round", cliche=i) for i in range(4))
ENTER_MOVES = tuple(Move("enter", pile=p) for p in EDGE)
STEP_MOVES = {kind: tuple(Move(kind, pile=p) for p in PILES) for kind in MOVE_PHASES}


def _creations(points: int) -> tuple[Move, ...]:
    """Every allocation of `points` over the four clichés, each 1 to 4, lexicographic."""
    return tuple(
        Move("create", cliches=(s, c, d, h))
        for s, c, d, h in product(range(1, 5), repeat=4)
        if s + c + d + h == points
    )


CREATIONS = {points: _creations(points) for points in (10, 11, 12)}

_CELL = FieldSpec("integer_list", length=2, minimum=0, maximum=3, description="[row, column]")
_ITEM = FieldSpec("enum", NUMBER_CODES, description="A treasure you hold.")
_POINTS = FieldSpec("integer", minimum=1, maximum=4)
MOVE_SHAPES: tuple[MoveShape, ...] = (
    MoveShape(
        "create",
        {
            "cliches": FieldSpec(
                "object",
                members=tuple((c, _POINTS) for c in CLICHES),
                description="Dice per cliché, each 1-4, summing to `points`.",
            )
        },
        "Build the character (phase create).",
    ),
    MoveShape("enter", {"pile": _CELL}, "Step onto an edge pile (phase enter)."),
    MoveShape("escape", {}, "Try to slip away from an opponent before fighting it."),
    MoveShape("declare", {"item": _ITEM}, "Try a Plus or Minus treasure before the rounds."),
    MoveShape("use", {"item": _ITEM}, "Try an X or W treasure, before or between rounds."),
    MoveShape("fight", {}, "Start the rounds of the battle."),
    MoveShape("round", {"cliche": FieldSpec("enum", CLICHES)}, "Fight one round in a cliché."),
    MoveShape("retreat", {"to": _CELL}, "After a lost battle: to an uncleared neighbour."),
    MoveShape("move", {"to": _CELL}, "After clearing a pile or escaping: to a neighbour."),
    MoveShape("resign", description="Give up: lost, reason resigned."),
)

OPTION_SPECS = (
    OptionSpec("points", "integer", 10, "Cliché points to allocate (12: the easier game).", 10, 12),
    OptionSpec("opponent_bonus", "integer", 0, "Added to every opponent's strength.", 0, 2),
)


class Battle:
    """One battle: against the guard, or against the opponent (a separate battle)."""

    __slots__ = ("escape_tried", "foe", "lost", "minus", "plus", "rounds", "strength", "tried", "x")

    def __init__(self, foe: Foe, bonus: int) -> None:
        self.foe = foe
        self.strength = tuple(s + bonus if s else 0 for s in foe.strength)
        self.lost = [0, 0, 0, 0]  # rounds the foe lost, per cliché
        self.plus: str | None = None
        self.minus: str | None = None
        self.x: list[str] = []
        self.tried: list[str] = []
        self.escape_tried = False
        self.rounds = 0

    def copy(self) -> Battle:
        new = Battle.__new__(Battle)
        new.foe, new.strength, new.lost = self.foe, self.strength, self.lost[:]
        new.plus, new.minus, new.x, new.tried = self.plus, self.minus, self.x[:], self.tried[:]
        new.escape_tried, new.rounds = self.escape_tried, self.rounds
        return new

    def has(self, cliche: int) -> bool:
        return self.strength[cliche] > 0

    def dice(self, cliche: int) -> int:
        minus = self.minus is not None and TREASURE[self.minus].suit == cliche
        return self.strength[cliche] - self.lost[cliche] - minus

    def x_in(self, cliche: int) -> bool:
        return any(TREASURE[code].suit == cliche for code in self.x)


class State:
    """A position. Mutated only by the ruleset, on a copy it has just made."""

    __slots__ = (
        "battle",
        "beaten",
        "bonus",
        "cleared_mask",
        "cliches",
        "cut_mask",
        "cut_opponents",
        "defeated",
        "deuces",
        "dice",
        "dice_rolled",
        "discard",
        "face_down",
        "goal",
        "last_roll",
        "lost_battles",
        "phase",
        "piles",
        "points",
        "position",
        "reason",
        "status",
        "treasures",
        "turn",
        "victory",
        "wounds",
    )

    def __init__(self, seed: str, points: int, bonus: int) -> None:
        self.points, self.bonus = points, bonus
        deuces = DealRandom(seed, "goal").shuffle(DEUCES)
        opponents = DealRandom(seed, "opponents").shuffle(OPPONENT_CODES)
        deal = DealRandom(seed, "deal").shuffle(NUMBER_CODES)
        self.deuces = (deuces[0], deuces[1])
        self.goal = GOAL_CHART[self.deuces]
        self.discard = list(deuces)
        self.piles = [[deal[i], opponents[i], deal[16 + i]] for i in PILES]
        self.face_down = [3] * 16
        self.cleared_mask = 0  # cleared piles, bit p for pile p
        self.cut_mask = 0  # cut-off piles, likewise
        self.cut_opponents = 0  # opponents lying on cut-off piles, by OPPONENT_BIT
        self.phase = "create"
        self.position: int | None = None
        self.cliches: tuple[int, int, int, int] | None = None
        self.wounds = [0, 0, 0, 0]
        self.battle: Battle | None = None
        self.treasures: list[str] = []
        self.victory: list[str] = []
        self.beaten = 0  # opponents defeated, by OPPONENT_BIT
        self.defeated = 0
        self.turn = 0
        self.lost_battles = 0
        self.dice = DealRandom(seed, "dice")
        self.dice_rolled = 0
        self.last_roll: Json | None = None
        self.status = "playing"
        self.reason: str | None = None

    def copy(self) -> State:
        new = State.__new__(State)
        new.points, new.bonus, new.deuces, new.goal = (
            self.points,
            self.bonus,
            self.deuces,
            self.goal,
        )
        new.discard = self.discard[:]
        new.piles = [pile[:] for pile in self.piles]
        new.face_down = self.face_down[:]
        new.cleared_mask, new.cut_mask = self.cleared_mask, self.cut_mask
        new.cut_opponents = self.cut_opponents
        new.phase, new.position, new.cliches = self.phase, self.position, self.cliches
        new.wounds = self.wounds[:]
        new.battle = None if self.battle is None else self.battle.copy()
        new.treasures, new.victory = self.treasures[:], self.victory[:]
        new.beaten, new.defeated, new.turn = self.beaten, self.defeated, self.turn
        new.lost_battles, new.dice, new.dice_rolled = (
            self.lost_battles,
            self.dice.copy(),
            self.dice_rolled,
        )
        new.last_roll, new.status, new.reason = self.last_roll, self.status, self.reason
        return new

    # ---- reading ----------------------------------------------------------------------------

    def player_dice(self, cliche: int) -> int:
        """Base dice less wounds, +1 while a successful Plus of this suit is in play."""
        assert self.cliches is not None
        plus = (
            self.battle is not None
            and self.battle.plus is not None
            and (TREASURE[self.battle.plus].suit == cliche)
        )
        return self.cliches[cliche] - self.wounds[cliche] + plus

    def open_neighbours(self, pile: int) -> list[int]:
        """Uncleared neighbours, row-major: where a `move` or `retreat` may go."""
        return [n for n in NEIGHBOURS[pile] if not self.cleared_mask >> n & 1]

    def here(self) -> int:
        assert self.position is not None
        return self.position


class RisusRoyale(Ruleset[State, Move]):
    id: ClassVar[str] = "risus-royale"
    title: ClassVar[str] = "Risus Royale"
    board: ClassVar[str] = "map"
    gestures: ClassVar[Gestures] = GESTURES
    in_place = InPlace
    words: ClassVar[Words] = WORDS
    option_specs = OPTION_SPECS
    move_shapes = MOVE_SHAPES
    view_schema = CONTRACT.view_schema(MOVE_SHAPES)
    effect_schemas = CONTRACT.effect_schemas(MOVE_SHAPES)
    outcome_schema = CONTRACT.outcome_schema()

    # ---- setup ------------------------------------------------------------------------------

    def _initial(self, seed: str, options: dict[str, OptionValue]) -> State:
        return State(seed, int(options["points"] or 10), int(options["opponent_bonus"] or 0))

    def _deal_plan(self, options: dict[str, OptionValue]) -> tuple[DealStep, ...]:
        """The 4 shuffled deuces, the 16 shuffled opponents, the 32 shuffled number cards
        (the dice roll from stream `dice` as the game goes, not part of the deal)."""
        return (
            DealStep("goal", tuple(DEUCES)),
            DealStep("opponents", tuple(OPPONENT_CODES)),
            DealStep("deal", tuple(NUMBER_CODES)),
        )

    def _parse_move(self, move: Json) -> Move:
        kind = move["type"]
        if kind == "create":
            c = move["cliches"]
            return Move(kind, cliches=(c["spades"], c["clubs"], c["diamonds"], c["hearts"]))
        if kind == "enter":
            return Move(kind, pile=pile_at(*move["pile"]))
        if kind in MOVE_PHASES:
            return Move(kind, pile=pile_at(*move["to"]))
        if kind in ("declare", "use"):
            return Move(kind, item=move["item"])
        if kind == "round":
            return ROUNDS[CLICHES.index(move["cliche"])]
        return {"resign": RESIGN, "fight": FIGHT, "escape": ESCAPE}[kind]

    # ---- legal moves ------------------------------------------------------------------------

    def _legal(self, state: State, seat: int) -> tuple[Move, ...]:
        if state.status != "playing" or seat != 0:
            return ()
        phase = state.phase
        if phase == "create":
            return (*CREATIONS[state.points], RESIGN)
        if phase == "enter":
            return (*ENTER_MOVES, RESIGN)
        if phase in MOVE_PHASES:
            steps = STEP_MOVES[phase]
            return (*(steps[p] for p in state.open_neighbours(state.here())), RESIGN)
        battle = state.battle
        assert battle is not None
        moves: list[Move] = []
        if phase == "prepare":
            if self._can_escape(state, battle):
                moves.append(ESCAPE)
            moves += [
                Move("declare", item=t) for t in self._triable(state, battle, ("plus", "minus"))
            ]
            moves += [Move("use", item=t) for t in self._triable(state, battle, ("x", "w"))]
            moves.append(FIGHT)
        else:
            moves += [ROUNDS[c] for c in range(4) if battle.has(c) and state.player_dice(c) >= 1]
            moves += [Move("use", item=t) for t in self._triable(state, battle, ("x", "w"))]
        moves.append(RESIGN)
        return tuple(moves)

    @staticmethod
    def _can_escape(state: State, battle: Battle) -> bool:
        foe = battle.foe
        if foe.role != "opponent" or battle.escape_tried or battle.tried:
            return False
        cliche = CLICHE_OF_SUIT[foe.card[1]]
        return state.player_dice(cliche) >= 1 and bool(state.open_neighbours(state.here()))

    @staticmethod
    def _triable(state: State, battle: Battle, kinds: tuple[str, ...]) -> list[str]:
        """The player's treasures of these kinds it may try now, in the order won."""
        out = []
        for code in state.treasures:
            item = TREASURE[code]
            if item.kind not in kinds or code in battle.tried:
                continue
            if not item.fits(battle.foe.role) or not battle.has(item.suit):
                continue
            if (item.kind == "plus" and battle.plus is not None) or (
                item.kind == "minus" and battle.minus is not None
            ):
                continue
            dice = state.player_dice(item.suit)
            if dice >= 1 and 6 * dice >= item.number:
                out.append(code)
        return out

    def _why_illegal(self, state: State, seat: int, move: Move) -> str:
        if seat != 0:
            return "Risus Royale is a solitaire: only seat 0 plays"
        phase = state.phase
        if phase == "create":
            if move.kind != "create":
                return "build your character first: play create"
            return f"each cliché takes 1 to 4 dice, {state.points} in all"
        if phase == "enter":
            if move.kind != "enter":
                return "step onto the map first: play enter"
            return "enter on an edge pile (row or column 0 or 3)"
        if phase in MOVE_PHASES:
            if move.kind != phase:
                return f"this is the {phase} step: play {phase}"
            return f"{phase} to an uncleared neighbour of your pile"
        if move.kind == "escape":
            return "escape only from an opponent, once, before any item is tried, with a die in its cliché and somewhere to go"  # noqa: E501
        if move.kind in ("declare", "use"):
            if move.kind == "declare" and phase != "prepare":
                return "declare Plus and Minus items before the fight"
            if move.item not in state.treasures:
                return f"you hold no {move.item}"
            return f"{move.item} cannot be tried now (tried already, the wrong kind for this move, not fit for this foe, or out of your dice's reach)"  # noqa: E501
        if move.kind == "round":
            if phase != "rounds":
                return "the rounds have not begun: play fight"
            return "fight a round in a cliché the foe has and in which you have a die"
        if move.kind == "fight":
            return "the fight is on: play a round"
        return f"not a move of the {phase} phase"

    # ---- playing ----------------------------------------------------------------------------

    def _play(self, state: State, seat: int, move: Move, effects: list[Effect]) -> None:
        kind = move.kind
        if kind == "resign":
            self._end(state, "lost", "resigned", effects)
            return
        if kind == "create":
            state.cliches = move.cliches
            state.phase = "enter"
        elif kind in ("enter", "move", "retreat"):
            assert move.pile is not None
            self._arrive(state, move.pile, effects)
        elif kind == "escape":
            self._escape(state, effects)
        elif kind in ("declare", "use"):
            assert move.item is not None
            self._try(state, move.item, effects)
        elif kind == "fight":
            self._fight(state, effects)
        else:
            assert move.cliche is not None
            self._round(state, move.cliche, effects)
        self._end_checks(state, effects)

    def _play_visible(self, state: State, seat: int, move: Move) -> None:
        """What `preview` shows a bot: the character made, or the walk to a pile, and no
        more. Arriving turns up a face-down guard, and every other move rolls dice from the
        seed's stream: both are the future, which no preview may tell."""
        if move.kind == "create":
            self._play(state, seat, move, [])
        elif move.kind in ("enter", "move", "retreat"):
            assert move.pile is not None
            state.position = move.pile
            state.turn += 1
            state.wounds = [0, 0, 0, 0]

    def _roll(self, state: State, count: int) -> list[int]:
        """`count` dice, each `uniform(6) + 1` of the `dice` stream (rejection inlined)."""
        draw = state.dice.draw
        state.dice_rolled += count
        out = []
        for _ in range(count):
            x = draw()
            while x >= _SIX_LIMIT:
                x = draw()
            out.append(x % 6 + 1)
        return out

    def _note_roll(self, state: State, roll: Json, effects: list[Effect]) -> None:
        state.last_roll = roll
        effects.append({"type": "roll", **roll})

    def _arrive(self, state: State, pile: int, effects: list[Effect]) -> None:
        state.position = pile
        state.turn += 1
        state.wounds = [0, 0, 0, 0]
        cards = state.piles[pile]
        if len(cards) == 3:
            if state.face_down[pile] == 3:
                state.face_down[pile] = 2
                effects.append({"type": "flip", "pile": cell(pile), "card": cards[GUARD]})
            self._begin(state, CREATURE[cards[GUARD]])
        else:
            self._begin(state, OPPONENT[cards[OPPONENT_INDEX]])

    def _begin(self, state: State, foe: Foe) -> None:
        state.battle = Battle(foe, state.bonus if foe.role == "opponent" else 0)
        state.phase = "prepare"

    def _escape(self, state: State, effects: list[Effect]) -> None:
        battle = state.battle
        assert battle is not None
        cliche = CLICHE_OF_SUIT[battle.foe.card[1]]
        battle.escape_tried = True
        player = self._roll(state, state.player_dice(cliche))
        foe = self._roll(state, battle.dice(cliche))
        success = sum(player) > sum(foe)
        roll = {
            "kind": "escape",
            "cliche": CLICHES[cliche],
            "player": player,
            "foe": foe,
            "player_total": sum(player),
            "foe_total": sum(foe),
            "success": success,
        }
        self._note_roll(state, roll, effects)
        if success:
            state.battle = None
            state.phase = "move"

    def _try(self, state: State, code: str, effects: list[Effect]) -> None:
        battle = state.battle
        assert battle is not None
        item = TREASURE[code]
        battle.tried.append(code)
        dice = self._roll(state, state.player_dice(item.suit))
        success = sum(dice) >= item.number
        roll = {
            "kind": "ability",
            "item": code,
            "dice": dice,
            "total": sum(dice),
            "needed": item.number,
            "success": success,
        }
        self._note_roll(state, roll, effects)
        if not success:
            return
        if item.kind == "plus":
            battle.plus = code
        elif item.kind == "minus":
            battle.minus = code
        elif item.kind == "x":
            battle.x.append(code)
        else:
            state.treasures.remove(code)
            state.discard.append(code)
            effects.append({"type": "destroyed", "items": [code]})
            self._win(state, effects)

    def _fight(self, state: State, effects: list[Effect]) -> None:
        battle = state.battle
        assert battle is not None
        state.phase = "rounds"
        if not any(battle.has(c) and state.player_dice(c) >= 1 for c in range(4)):
            self._lose(state, effects)

    def _round(self, state: State, cliche: int, effects: list[Effect]) -> None:
        battle = state.battle
        assert battle is not None
        foe_dice = battle.dice(cliche)
        if foe_dice <= 0:
            effects.append({"type": "overwhelmed", "cliche": CLICHES[cliche]})
            self._win(state, effects)
            return
        player = self._roll(state, state.player_dice(cliche))
        foe = self._roll(state, foe_dice)
        ignored = max(foe) if battle.x_in(cliche) else None
        foe_total = sum(foe) - (ignored or 0)
        winner = "player" if sum(player) > foe_total else "foe"
        battle.rounds += 1
        roll = {
            "kind": "round",
            "cliche": CLICHES[cliche],
            "player": player,
            "foe": foe,
            "ignored": ignored,
            "player_total": sum(player),
            "foe_total": foe_total,
            "winner": winner,
        }
        self._note_roll(state, roll, effects)
        if winner == "player":
            battle.lost[cliche] += 1
            if battle.dice(cliche) <= 0:
                self._win(state, effects)
        else:
            state.wounds[cliche] += 1
            if state.player_dice(cliche) <= 0:
                self._lose(state, effects)

    def _win(self, state: State, effects: list[Effect]) -> None:
        battle, pile = state.battle, state.here()
        assert battle is not None
        cards = state.piles[pile]
        foe = battle.foe
        effects.append({"type": "won_battle", "foe": foe.card})
        if foe.role == "guard":
            state.discard.append(cards.pop())
            state.face_down[pile] = 1
            effects.append({"type": "reveal", "pile": cell(pile), "card": cards[OPPONENT_INDEX]})
            self._begin(state, OPPONENT[cards[OPPONENT_INDEX]])
            return
        opponent = cards.pop()
        (state.victory if opponent in RELEVANT[state.goal] else state.discard).append(opponent)
        state.beaten |= OPPONENT_BIT[opponent]
        state.defeated += 1
        treasure = cards.pop()
        state.face_down[pile] = 0
        state.treasures.append(treasure)
        effects.append({"type": "treasure", "pile": cell(pile), "card": treasure})
        state.cleared_mask |= 1 << pile
        state.battle = None
        state.phase = "move"

    def _lose(self, state: State, effects: list[Effect]) -> None:
        battle = state.battle
        assert battle is not None
        effects.append({"type": "lost_battle", "foe": battle.foe.card})
        in_play = [c for c in (battle.plus, battle.minus) if c is not None] + battle.x
        for code in in_play:
            state.treasures.remove(code)
            state.discard.append(code)
        if in_play:
            effects.append({"type": "destroyed", "items": in_play})
        state.lost_battles += 1
        state.battle = None
        state.phase = "retreat"

    # ---- the end checks, after every move and forced move ------------------------------------

    def _end_checks(self, state: State, effects: list[Effect]) -> None:
        if state.status != "playing":
            return
        cleared = state.cleared_mask
        if goal_met(state.goal, state.beaten, cleared):
            self._end(state, "won", "goal", effects)
            return
        if state.position is None:
            return
        here = state.position
        if state.phase in MOVE_PHASES:
            if not state.open_neighbours(here):
                self._end(state, "lost", "cornered", effects)
                return
            if state.turn >= TURN_LIMIT:
                self._end(state, "lost", "out_of_turns", effects)
                return
        lost = ALL_PILES & ~cleared & ~reachable(here, cleared)
        if not lost & ~state.cut_mask:
            return
        for pile in PILES:
            if lost >> pile & 1 and not state.cut_mask >> pile & 1:
                state.cut_mask |= 1 << pile
                state.face_down[pile] = 0
                state.cut_opponents |= OPPONENT_BIT[state.piles[pile][OPPONENT_INDEX]]
                effects.append(
                    {"type": "cut_off", "pile": cell(pile), "cards": state.piles[pile][::-1]}
                )
        cut_piles, cut_opponents = state.cut_mask, state.cut_opponents
        if all(
            (cut_opponents & alt.opponent_mask)
            if alt.opponent_mask
            else (cut_piles & alt.pile_mask)
            for alt in GOAL_ALTERNATIVES[state.goal]
        ):
            self._end(state, "lost", "goal_unreachable", effects)

    def _end(self, state: State, result: str, reason: str, effects: list[Effect]) -> None:
        state.status, state.reason = result, reason
        state.phase = "over"
        state.battle = None
        state.face_down = [0] * 16
        effects.append({"type": "end", "result": result, "reason": reason})

    # ---- reading ----------------------------------------------------------------------------

    def status(self, state: State) -> str:
        return state.status

    def is_over(self, state: State) -> bool:
        return state.status != "playing"

    def outcome(self, state: State) -> Json | None:
        if state.status == "playing":
            return None
        held = len(state.treasures)
        score = 10 * state.defeated + held + (200 if state.status == "won" else 0)
        return {
            "result": state.status,
            "reason": state.reason,
            "score": score,
            "defeated": state.defeated,
            "treasures": held,
        }

    def view(self, state: State, seat: int | None) -> Json:
        character = None
        if state.cliches is not None:
            character = {
                "cliches": dict(zip(CLICHES, state.cliches, strict=True)),
                "wounds": dict(zip(CLICHES, state.wounds, strict=True)),
            }
        return {
            "status": state.status,
            "phase": state.phase,
            "goal": {
                "number": state.goal,
                "text": GOAL_TEXT[state.goal],
                "deuces": list(state.deuces),
            },
            "character": character,
            "position": None if state.position is None else cell(state.position),
            "map": [[self._pile_view(state, pile_at(r, c)) for c in range(4)] for r in range(4)],
            "battle": self._battle_view(state),
            "treasures": [TREASURE[code].to_json() for code in state.treasures],
            "victory": state.victory[:],
            "discard": state.discard[:],
            "defeated": state.defeated,
            "turn": state.turn,
            "lost_battles": state.lost_battles,
            "dice_rolled": state.dice_rolled,
            "last_roll": None if state.last_roll is None else _copy_roll(state.last_roll),
            "legal_moves": self.legal_moves(state, seat) if seat == 0 else [],
            "outcome": self.outcome(state),
        }

    @staticmethod
    def _pile_view(state: State, pile: int) -> Json:
        cards, down = state.piles[pile], state.face_down[pile]
        count = len(cards)

        def shown(index: int) -> str | None:
            return cards[index] if count > index >= down else None

        return {
            "cleared": bool(state.cleared_mask >> pile & 1),
            "cut_off": bool(state.cut_mask >> pile & 1),
            "guard": shown(GUARD),
            "opponent": shown(OPPONENT_INDEX),
            "treasure": shown(TREASURE_INDEX),
            "face_down": down,
        }

    @staticmethod
    def _battle_view(state: State) -> Json | None:
        battle = state.battle
        if battle is None:
            return None
        foe = battle.foe
        has = [c for c in range(4) if battle.has(c)]
        return {
            "foe": {
                "card": foe.card,
                "role": foe.role,
                "class": foe.char_class,
                "race": foe.race,
                "name": foe.name,
                "cliches": {CLICHES[c]: battle.strength[c] for c in has},
            },
            "foe_dice": {CLICHES[c]: battle.dice(c) for c in has},
            "player_dice": {CLICHES[c]: state.player_dice(c) for c in range(4)},
            "plus": battle.plus,
            "minus": battle.minus,
            "x": battle.x[:],
            "tried": battle.tried[:],
            "escape_tried": battle.escape_tried,
            "rounds": battle.rounds,
        }

    def inventory(self, state: State) -> list[str]:
        cards = [code for pile in state.piles for code in pile]
        return cards + state.discard + state.victory + state.treasures

    def hidden(self, state: State, seat: int | None) -> set[str]:
        return {
            code
            for pile, cards in enumerate(state.piles)
            for code in cards[: state.face_down[pile]]
        }


@lru_cache(maxsize=1 << 16)
def goal_met(goal: int, beaten: int, cleared: int) -> bool:
    """Whether one alternative of the goal is met: all its opponents beaten (bits of
    OPPONENT_BIT) or all its piles cleared. Remembered: it runs after every move."""
    return any(
        (beaten & alt.opponent_mask == alt.opponent_mask)
        if alt.opponent_mask
        else (cleared & alt.pile_mask == alt.pile_mask)
        for alt in GOAL_ALTERNATIVES[goal]
    )


@lru_cache(maxsize=1 << 16)
def reachable(here: int, cleared: int) -> int:
    """The uncleared piles (bits) connected through uncleared piles to the player's pile, or,
    when it is cleared, to any of its uncleared neighbours: what the player can still reach.
    A pure function of two small integers, so it is remembered across games."""
    if cleared >> here & 1:
        frontier = [n for n in NEIGHBOURS[here] if not cleared >> n & 1]
    else:
        frontier = [here]
    seen = 0
    for pile in frontier:
        seen |= 1 << pile
    while frontier:
        for n in NEIGHBOURS[frontier.pop()]:
            bit = 1 << n
            if not (seen | cleared) & bit:
                seen |= bit
                frontier.append(n)
    return seen


def _copy_roll(roll: Json) -> Json:
    return {k: v[:] if isinstance(v, list) else v for k, v in roll.items()}
