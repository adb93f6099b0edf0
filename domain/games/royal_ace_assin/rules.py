"""Royal Ace-assin: two seats, hidden hands, sealed simultaneous flips, two assassins.

The rules as this project plays them, with every ambiguity of the seed text resolved, are in
docs/rules/royal-ace-assin.md (from ../shared/specs/royal-ace-assin.md, followed to the
letter). There is no deal: each seat's cards come from the suit it chooses, and the only
randomness is the final tie-break, drawn from the seed's `tiebreak` stream when needed.

Effects are public by construction (who placed, who sealed, which cards turned face up), so
the service can hand a move's effects to either seat or a spectator as they are; the moves
themselves are filtered per viewer by `public_log`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, permutations
from typing import ClassVar

from domain.deal import DealRandom, DealStep
from domain.errors import Json
from domain.fast_paths import InPlace
from domain.games.royal_ace_assin.board import GESTURES
from domain.games.royal_ace_assin.contract import CONTRACT
from domain.games.royal_ace_assin.words import WORDS
from domain.gestures import Gestures
from domain.moves import FieldSpec, MoveShape
from domain.options import OptionValue
from domain.presentation import Words
from domain.ruleset import Ruleset
from domain.transition import Effect

SEATS = (0, 1)
FIGUREHEADS = ("king", "queen", "jack")
FIGUREHEAD_RANK = {"king": "K", "queen": "Q", "jack": "J"}
SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_LETTER = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
SUPPORTER_RANKS = "23456789T"
VALUE = {rank: i + 2 for i, rank in enumerate(SUPPORTER_RANKS)}  # T is 10
PHASES = ("suits", "place", "flip", "gambit", "over")
TURNS_WITH_FLIP = {1: 1, 2: 2}  # turn -> how many enemy supporters each seat flips
SUPPORTER_CODES = tuple(r + s for s in "CDHS" for r in SUPPORTER_RANKS)


def value(code: str) -> int:
    return VALUE[code[0]]


@dataclass(frozen=True, slots=True)
class Move:
    """`choose_suit`, `place` (cards for king, queen, jack), `flip` (targets in king, queen,
    jack order), `assassinate` or `resign`."""

    kind: str
    suit: str | None = None
    cards: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    target: str | None = None
    is_resign: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_resign", self.kind == "resign")

    def to_json(self) -> Json:
        # `place` first, its dict written out in FIGUREHEADS' order: every order of three
        # cards is listed at each placing, and writing them was a tenth of a request's time.
        if self.kind == "place":
            king, queen, jack = self.cards
            return {"type": "place", "cards": {"king": king, "queen": queen, "jack": jack}}
        if self.kind == "choose_suit":
            return {"type": "choose_suit", "suit": self.suit}
        if self.kind == "flip":
            return {"type": "flip", "targets": list(self.targets)}
        if self.kind == "assassinate":
            return {"type": "assassinate", "target": self.target}
        return {"type": "resign"}


RESIGN = Move("resign")
_FIGUREHEAD_FIELD = FieldSpec("enum", FIGUREHEADS)
_CARD_FIELD = FieldSpec("enum", SUPPORTER_CODES)
MOVE_SHAPES: tuple[MoveShape, ...] = (
    MoveShape(
        "choose_suit",
        {"suit": FieldSpec("enum", SUITS, description="Seat 1 may not take seat 0's suit.")},
        "Seat 0, then seat 1: the suit the seat plays (its 13 cards).",
    ),
    MoveShape(
        "place",
        {
            "cards": FieldSpec(
                "object",
                members=tuple((f, _CARD_FIELD) for f in FIGUREHEADS),
                description="Three distinct cards of your hand, one under each figurehead.",
            )
        },
        "Simultaneous: place three supporters face down, one per figurehead.",
    ),
    MoveShape(
        "flip",
        {
            "targets": FieldSpec(
                "string_list",
                FIGUREHEADS,
                description="Enemy figureheads: one in turn 1, two distinct in turn 2.",
            )
        },
        "Simultaneous and sealed: turn up the enemy supporters placed this turn under these "
        "figureheads, once both seats have chosen.",
    ),
    MoveShape(
        "assassinate",
        {"target": FieldSpec("enum", FIGUREHEADS, description="An enemy figurehead.")},
        "The gambit: send your Ace to kill an enemy figurehead.",
    ),
    MoveShape("resign", description="Either seat, at any time while playing: the other wins."),
)


@cache
def _placements(hand: tuple[str, ...]) -> tuple[Move, ...]:
    """Every ordered triple of distinct hand cards, lexicographic by (king, queen, jack) in
    rank order (the hand is kept in rank order). At most 3 x 84 hands per suit: cached."""
    return tuple(Move("place", cards=triple) for triple in permutations(hand, 3))


class Supporter:
    """A placed card: face down until flipped (or until the game ends)."""

    __slots__ = ("code", "face_up")

    def __init__(self, code: str, face_up: bool = False) -> None:
        self.code = code
        self.face_up = face_up


class Side:
    """One seat's cards: its suit, hand (rank order), columns, assassin and losses."""

    __slots__ = ("alive", "columns", "hand", "kill", "suit")

    def __init__(self) -> None:
        self.suit: str | None = None
        self.hand: list[str] = []
        self.columns: dict[str, list[Supporter]] = {f: [] for f in FIGUREHEADS}
        self.alive: dict[str, bool] = {f: True for f in FIGUREHEADS}
        self.kill: str | None = None  # the enemy figurehead this side's assassin killed

    def copy(self) -> Side:
        new = Side.__new__(Side)
        new.suit = self.suit
        new.hand = self.hand[:]
        new.columns = {
            f: [Supporter(s.code, s.face_up) for s in col] for f, col in self.columns.items()
        }
        new.alive = dict(self.alive)
        new.kill = self.kill
        return new

    @property
    def letter(self) -> str:
        assert self.suit is not None
        return SUIT_LETTER[self.suit]

    def exposed(self) -> int:
        return sum(value(s.code) for col in self.columns.values() for s in col if s.face_up)

    def total(self, figurehead: str) -> int:
        return sum(value(s.code) for s in self.columns[figurehead])


class State:
    """A position. Mutated only by the ruleset, on a copy it has just made."""

    __slots__ = (
        "decided_by",
        "first_assassin",
        "phase",
        "placed",
        "resigned",
        "ruler",
        "sealed",
        "seed",
        "sides",
        "tiebreak",
        "turn",
        "winner",
    )

    def __init__(self, seed: str) -> None:
        self.seed = seed  # decides the tie-break only: never shown while playing
        self.phase = "suits"
        self.turn: int | None = None
        self.sides = [Side(), Side()]
        self.placed = [False, False]  # this turn's place submitted
        self.sealed: list[tuple[str, ...] | None] = [None, None]  # this turn's flip, sealed
        self.first_assassin: int | None = None
        self.winner: int | None = None
        self.ruler: str | None = None
        self.decided_by: str | None = None
        self.tiebreak: list[list[str]] = []
        self.resigned = False

    def copy(self) -> State:
        new = State.__new__(State)
        new.seed, new.phase, new.turn = self.seed, self.phase, self.turn
        new.sides = [side.copy() for side in self.sides]
        new.placed = self.placed[:]
        new.sealed = self.sealed[:]
        new.first_assassin, new.winner, new.ruler = self.first_assassin, self.winner, self.ruler
        new.decided_by, new.resigned = self.decided_by, self.resigned
        new.tiebreak = [pair[:] for pair in self.tiebreak]  # appended to at a tie: not shared
        return new

    @property
    def over(self) -> bool:
        return self.phase == "over"


class RoyalAceAssin(Ruleset[State, Move]):
    id: ClassVar[str] = "royal-ace-assin"
    title: ClassVar[str] = "Royal Ace-assin"
    board: ClassVar[str] = "figureheads"
    gestures: ClassVar[Gestures] = GESTURES
    in_place = InPlace
    words: ClassVar[Words] = WORDS
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    move_shapes = MOVE_SHAPES
    view_schema = CONTRACT.view_schema(MOVE_SHAPES)
    effect_schemas = CONTRACT.effect_schemas(MOVE_SHAPES)
    outcome_schema = CONTRACT.outcome_schema()

    # ---- setup ------------------------------------------------------------------------------

    def _initial(self, seed: str, options: dict[str, OptionValue]) -> State:
        return State(seed)

    def _deal_plan(self, options: dict[str, OptionValue]) -> tuple[DealStep, ...]:
        return ()  # no deal: the players choose every card (stream `tiebreak` breaks ties)

    def _parse_move(self, move: Json) -> Move:
        kind = move["type"]
        if kind == "choose_suit":
            return Move(kind, suit=move["suit"])
        if kind == "place":
            cards = move["cards"]
            return Move(kind, cards=tuple(cards[f] for f in FIGUREHEADS))
        if kind == "flip":
            named = set(move["targets"])
            return Move(kind, targets=tuple(f for f in FIGUREHEADS if f in named))
        if kind == "assassinate":
            return Move(kind, target=move["target"])
        return RESIGN

    # ---- whose move, and what --------------------------------------------------------------

    def _to_move(self, state: State) -> tuple[int, ...]:
        if state.phase == "suits":
            return (0,) if state.sides[0].suit is None else (1,)
        if state.phase == "place":
            return tuple(s for s in SEATS if not state.placed[s])
        if state.phase == "flip":
            return tuple(s for s in SEATS if state.sealed[s] is None)
        if state.phase == "gambit":
            first = state.first_assassin
            assert first is not None
            return (first,) if state.sides[first].kill is None else (1 - first,)
        return ()

    def _legal(self, state: State, seat: int) -> tuple[Move, ...]:
        if state.over:
            return ()
        if seat not in self._to_move(state):
            return (RESIGN,)
        side = state.sides[seat]
        if state.phase == "suits":
            taken = state.sides[0].suit if seat == 1 else None
            moves = [Move("choose_suit", suit=s) for s in SUITS if s != taken]
        elif state.phase == "place":
            moves = list(_placements(tuple(side.hand)))
        elif state.phase == "flip":
            assert state.turn is not None
            count = TURNS_WITH_FLIP[state.turn]
            moves = [Move("flip", targets=pick) for pick in combinations(FIGUREHEADS, count)]
        else:
            moves = [Move("assassinate", target=f) for f in FIGUREHEADS]
        return (*moves, RESIGN)

    def _is_legal(self, state: State, seat: int, move: Move) -> bool:
        if move.kind != "place":
            return move in self._legal(state, seat)
        hand = state.sides[seat].hand
        return (
            state.phase == "place"
            and seat in self._to_move(state)
            and len(set(move.cards)) == 3
            and all(code in hand for code in move.cards)
        )

    def _forced(self, state: State, seat: int) -> Move | None:
        """Never: every choice of this game has at least three options (the spec's rule)."""
        return None

    def _why_illegal(self, state: State, seat: int, move: Move) -> str:
        if seat not in SEATS:
            return f"there is no seat {seat} in this game"
        if seat not in self._to_move(state):
            if state.phase in ("place", "flip"):
                return "you have already submitted this step: wait for the other seat"
            return "it is not your turn"
        expected = {"suits": "choose_suit", "gambit": "assassinate"}.get(state.phase, state.phase)
        if move.kind != expected:
            return f"this is the {state.phase} step: play {expected}"
        if move.kind == "choose_suit":
            return f"seat 0 has taken {move.suit}"
        if move.kind == "place":
            hand = state.sides[seat].hand
            if len(set(move.cards)) != 3:
                return "place three different cards"
            missing = [c for c in move.cards if c not in hand]
            return f"not in your hand: {', '.join(missing)}"
        if move.kind == "flip":
            assert state.turn is not None
            count = TURNS_WITH_FLIP[state.turn]
            return f"in turn {state.turn} flip exactly {count} distinct enemy figurehead(s)"
        return "not a legal move now"

    # ---- playing ----------------------------------------------------------------------------

    def _play(self, state: State, seat: int, move: Move, effects: list[Effect]) -> None:
        if move.kind == "resign":
            self._resign(state, seat, effects)
        elif move.kind == "choose_suit":
            self._choose_suit(state, seat, move, effects)
        elif move.kind == "place":
            self._place(state, seat, move, effects)
        elif move.kind == "flip":
            self._flip(state, seat, move, effects)
        else:
            self._assassinate(state, seat, move, effects)

    def _choose_suit(self, state: State, seat: int, move: Move, effects: list[Effect]) -> None:
        side = state.sides[seat]
        side.suit = move.suit
        side.hand = [rank + side.letter for rank in SUPPORTER_RANKS]
        effects.append({"type": "suit_chosen", "seat": seat, "suit": move.suit})
        if seat == 1:
            state.phase, state.turn = "place", 1

    def _place(self, state: State, seat: int, move: Move, effects: list[Effect]) -> None:
        side = state.sides[seat]
        for figurehead, code in zip(FIGUREHEADS, move.cards, strict=True):
            side.hand.remove(code)
            side.columns[figurehead].append(Supporter(code))
        state.placed[seat] = True
        effects.append({"type": "placed", "seat": seat, "turn": state.turn})
        if not all(state.placed):
            return
        state.placed = [False, False]
        if state.turn in TURNS_WITH_FLIP:
            state.phase = "flip"
            return
        # Turn 3: every card placed this turn turns face up at once, and the gambit begins.
        for s in SEATS:
            for figurehead in FIGUREHEADS:
                card = state.sides[s].columns[figurehead][-1]
                card.face_up = True
                effects.append(
                    {"type": "revealed", "seat": s, "figurehead": figurehead, "card": card.code}
                )
        exposed = [state.sides[s].exposed() for s in SEATS]
        state.first_assassin = 0 if exposed[0] < exposed[1] else 1
        state.phase, state.turn = "gambit", None
        effects.append(
            {"type": "gambit", "exposed": exposed, "first_assassin": state.first_assassin}
        )

    def _flip(self, state: State, seat: int, move: Move, effects: list[Effect]) -> None:
        state.sealed[seat] = move.targets
        effects.append({"type": "sealed", "seat": seat, "turn": state.turn})
        if any(targets is None for targets in state.sealed):
            return
        for s in SEATS:  # seat s points at the enemy's supporters
            enemy = 1 - s
            for figurehead in state.sealed[s] or ():
                card = state.sides[enemy].columns[figurehead][-1]
                card.face_up = True
                effects.append(
                    {
                        "type": "flipped",
                        "seat": enemy,
                        "by": s,
                        "figurehead": figurehead,
                        "card": card.code,
                    }
                )
        state.sealed = [None, None]
        assert state.turn is not None
        state.phase, state.turn = "place", state.turn + 1

    def _assassinate(self, state: State, seat: int, move: Move, effects: list[Effect]) -> None:
        assert move.target is not None
        enemy = state.sides[1 - seat]
        state.sides[seat].kill = move.target
        enemy.alive[move.target] = False
        code = FIGUREHEAD_RANK[move.target] + enemy.letter
        effects.append({"type": "assassinated", "seat": seat, "target": move.target, "card": code})
        if all(side.kill is not None for side in state.sides):
            self._crown(state)
            effects.append({"type": "game_over", "outcome": self.outcome(state)})

    def _crown(self, state: State) -> None:
        """Both assassins are out: every card turns up and the victor is decided."""
        self._end(state)
        totals = [
            (side.total(f), "KQJ".index(FIGUREHEAD_RANK[f]), s, f)
            for s, side in enumerate(state.sides)
            for f in FIGUREHEADS
            if side.alive[f]
        ]
        best = max(t[0] for t in totals)
        leaders = [t for t in totals if t[0] == best]
        top_rank = min(t[1] for t in leaders)
        ranked = [t for t in leaders if t[1] == top_rank]
        if len(leaders) == 1:
            state.decided_by = "total"
        elif len(ranked) == 1:
            state.decided_by = "rank"
        else:
            state.decided_by = "tiebreak"
        if len(ranked) == 1:
            _, _, winner, figurehead = ranked[0]
        else:
            winner = self._tiebreak(state)
            figurehead = ranked[0][3]
        state.winner = winner
        state.ruler = FIGUREHEAD_RANK[figurehead] + state.sides[winner].letter

    def _tiebreak(self, state: State) -> int:
        """Rule 3: rounds of a card drawn from each side's shuffled fan, from stream
        `tiebreak`, until the values differ; the higher card's owner wins."""
        rng = DealRandom(state.seed, "tiebreak")
        fans = [[r + side.letter for r in SUPPORTER_RANKS] for side in state.sides]
        while True:
            shuffled0 = rng.shuffle(fans[0])
            shuffled1 = rng.shuffle(fans[1])
            pick0 = shuffled0[rng.uniform(9)]  # seat 1 selects from seat 0's fan
            pick1 = shuffled1[rng.uniform(9)]  # seat 0 selects from seat 1's fan
            state.tiebreak.append([pick0, pick1])
            if value(pick0) != value(pick1):
                return 0 if value(pick0) > value(pick1) else 1

    def _resign(self, state: State, seat: int, effects: list[Effect]) -> None:
        self._end(state)
        state.resigned = True
        state.winner = 1 - seat
        state.decided_by = "resignation"
        effects.append({"type": "resigned", "seat": seat})
        effects.append({"type": "game_over", "outcome": self.outcome(state)})

    @staticmethod
    def _end(state: State) -> None:
        """The game is over: every card is shown, and an unresolved sealed flip is dropped."""
        state.phase, state.turn = "over", None
        state.placed = [False, False]
        state.sealed = [None, None]
        for side in state.sides:
            for column in side.columns.values():
                for card in column:
                    card.face_up = True

    # ---- reading ----------------------------------------------------------------------------

    def status(self, state: State) -> str:
        if not state.over:
            return "playing"
        return "resigned" if state.resigned else "finished"

    def _result(
        self, state: State, outcome: Json, seats: int
    ) -> tuple[Sequence[str], str | None, Sequence[int] | None]:
        """Its reason is `decided_by` (total, tiebreak, resign, ...); no score is counted."""
        by_seat, _, _ = super()._result(state, outcome, seats)
        return by_seat, outcome["decided_by"], None

    def outcome(self, state: State) -> Json | None:
        """Seat-free: `result` and `score` are null (each seat's view fills in its own)."""
        return self._outcome(state, None)

    def _outcome(self, state: State, seat: int | None) -> Json | None:
        if not state.over:
            return None
        assert state.winner is not None
        won = None if seat is None else seat == state.winner
        totals = None
        if not state.resigned:
            totals = [
                {f: side.total(f) if side.alive[f] else None for f in FIGUREHEADS}
                for side in state.sides
            ]
        return {
            "result": None if won is None else ("won" if won else "lost"),
            "score": None if won is None else int(won),
            "winner": state.winner,
            "ruler": state.ruler,
            "decided_by": state.decided_by,
            "totals": totals,
            "tiebreak": [pair[:] for pair in state.tiebreak],
        }

    def view(self, state: State, seat: int | None) -> Json:
        simultaneous = state.phase in ("place", "flip")
        submitted = [False, False]
        if simultaneous:
            submitted = (
                list(state.placed)
                if state.phase == "place"
                else [targets is not None for targets in state.sealed]
            )
        sealed: Json | None = None  # the viewer's own submission, the other seat's awaited
        if seat is not None and state.phase == "flip":
            mine = state.sealed[seat]
            if mine is not None and state.sealed[1 - seat] is None:
                sealed = {"type": "flip", "targets": list(mine)}
        elif (
            seat is not None
            and state.phase == "place"
            and state.placed[seat]
            and not state.placed[1 - seat]
        ):
            columns = state.sides[seat].columns
            sealed = {"type": "place", "cards": {f: columns[f][-1].code for f in FIGUREHEADS}}
        return {
            "status": self.status(state),
            "phase": state.phase,
            "turn": state.turn,
            "seat": seat,
            "to_move": list(self.to_move(state)),
            "submitted": submitted,
            "sealed": sealed,
            "first_assassin": state.first_assassin,
            "sides": [self._side_view(state, s, seat) for s in SEATS],
            "legal_moves": [] if seat is None else self.legal_moves(state, seat),
            "outcome": self._outcome(state, seat),
        }

    @staticmethod
    def _side_view(state: State, owner: int, viewer: int | None) -> Json:
        side = state.sides[owner]
        sees_hand = viewer == owner or state.over
        out: Json = {
            "suit": side.suit,
            "hand": side.hand[:] if sees_hand else None,
            "hand_count": len(side.hand),
            "assassin": None,
            "exposed": side.exposed(),
            "figureheads": None,
        }
        if side.suit is None:
            return out
        out["assassin"] = {"card": "A" + side.letter, "target": side.kill}
        out["figureheads"] = {
            f: {
                "card": FIGUREHEAD_RANK[f] + side.letter,
                "alive": side.alive[f],
                "supporters": [
                    {
                        "card": s.code if (s.face_up or viewer == owner) else None,
                        "face_up": s.face_up,
                    }
                    for s in side.columns[f]
                ],
            }
            for f in FIGUREHEADS
        }
        return out

    def inventory(self, state: State) -> list[str]:
        cards: list[str] = []
        for side in state.sides:
            if side.suit is None:
                continue
            letter = side.letter
            cards += side.hand
            cards += [s.code for col in side.columns.values() for s in col]
            cards += [FIGUREHEAD_RANK[f] + letter for f in FIGUREHEADS]
            cards.append("A" + letter)
        return cards

    def hidden(self, state: State, seat: int | None) -> set[str]:
        if state.over:
            return set()
        out: set[str] = set()
        for owner, side in enumerate(state.sides):
            if owner == seat:
                continue
            out.update(side.hand)
            out.update(s.code for col in side.columns.values() for s in col if not s.face_up)
        return out

    def public_log(
        self, state: State, events: Sequence[tuple[int, Json]], viewer: int | None
    ) -> list[Json]:
        """Each logged move as `viewer` may see it now: another seat's `place` without its
        cards, and another seat's flip without its targets while it is still sealed. Once the
        game is over every move is shown in full."""
        if state.over:
            return [move for _, move in events]
        out: list[Json] = []
        last_flip = {
            s: max(
                (i for i, (es, m) in enumerate(events) if es == s and m.get("type") == "flip"),
                default=-1,
            )
            for s in SEATS
        }
        for index, (event_seat, move) in enumerate(events):
            if event_seat == viewer:
                out.append(move)
            elif move.get("type") == "place":
                out.append({"type": "place"})
            elif (
                move.get("type") == "flip"
                and state.sealed[event_seat] is not None
                and index == last_flip[event_seat]
            ):
                out.append({"type": "flip"})
            else:
                out.append(move)
        return out
