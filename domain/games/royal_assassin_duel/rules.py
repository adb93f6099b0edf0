"""Royal Assassin Duel: the two-player Royal Assassin, with hidden hands and reaction chains.

Followed to the letter from ../shared/specs/royal-assassin-duel.md; in our words, with every
ambiguity of the seed text and its resolution, in docs/rules/royal-assassin-duel.md. Card values
and colours are the solitaire's (`domain.cards`); the column rules differ enough (two owners,
an attacking suit per column, reactions from either reserve) to be written here afresh.

Cards are plain codes: `KH` with one deck, `KH1`/`KH2` with two. The stock keeps its top card
last, so that a draw is a cheap `pop()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from domain.cards import STANDARD_DECK
from domain.deal import DealRandom, DealStep
from domain.errors import Json
from domain.fast_paths import InPlace
from domain.games.royal_assassin_duel.board import GESTURES
from domain.games.royal_assassin_duel.contract import CONTRACT
from domain.games.royal_assassin_duel.words import WORDS
from domain.gestures import Gestures
from domain.moves import FieldSpec, MoveShape
from domain.options import OptionSpec, OptionValue
from domain.presentation import Words
from domain.ruleset import Ruleset
from domain.transition import Effect

SEATS = (0, 1)
COLUMNS = ("clubs", "diamonds", "hearts", "spades")
SUIT_OF = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
ROYAL_VALUE = {"K": 13, "Q": 12, "J": 11}
VALUE = {"A": 11, "T": 10, **{str(n): n for n in range(2, 10)}, **ROYAL_VALUE}
JOKERS = ("X1", "X2")  # seat 0's, seat 1's
HAND_SIZE = 3


def all_codes(decks: int) -> tuple[str, ...]:
    """Every card of the game in canonical order: deck 1's 52, then deck 2's."""
    if decks == 1:
        return tuple(c.code for c in STANDARD_DECK)
    return tuple(c.code + str(d) for d in (1, 2) for c in STANDARD_DECK)


CANONICAL = {code: i for decks in (1, 2) for i, code in enumerate(all_codes(decks))}
EVERY_CODE = tuple(sorted({*CANONICAL, *JOKERS}))


def value(code: str) -> int:
    return VALUE[code[0]]


def is_royal(code: str) -> bool:
    return code[0] in ROYAL_VALUE


def column_of(code: str) -> str:
    return SUIT_OF[code[1]]


def is_red(code: str) -> bool:
    return code[1] in "DH"


@dataclass(frozen=True, slots=True)
class Move:
    kind: str
    card: str | None = None
    column: str | None = None
    is_resign: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_resign", self.kind == "resign")

    def to_json(self) -> Json:
        out: Json = {"type": self.kind}
        if self.card is not None:
            out["card"] = self.card
        if self.column is not None:
            out["column"] = self.column
        return out


RESIGN, PASS = Move("resign"), Move("pass")
_CARD = FieldSpec("enum", EVERY_CODE, description="A card of your hand.")
_COLUMN = FieldSpec("enum", COLUMNS, description="A column (family), by suit.")
MOVE_SHAPES: tuple[MoveShape, ...] = (
    MoveShape("attack", {"card": _CARD, "column": _COLUMN},
              "A number card from the hand onto an enemy column of the other colour."),
    MoveShape("defend", {"card": _CARD, "column": _COLUMN},
              "A number card from the hand onto your own column of its suit."),
    MoveShape("present", {"card": _CARD}, "A royal from the hand onto your column of its suit."),
    MoveShape("assassinate", {"card": _CARD, "column": _COLUMN},
              "A royal from the hand kills an unprotected enemy top royal of the other colour "
              "and no higher value; both are discarded."),
    MoveShape("discard", {"card": _CARD},
              "Only when nothing else is possible: a hand card onto your reserve."),
    MoveShape("joker", {"column": _COLUMN},
              "A free move: hang your Joker above an enemy column under attack with two "
              "royals or more; when its top royal dies, the whole column goes."),
    MoveShape("react", {"column": _COLUMN},
              "In a reaction step: your reserve's top card defends your column of its suit, "
              "or continues your attack of its suit on an enemy column."),
    MoveShape("pass", description="In a reaction step: let it go by."),
    MoveShape("resign", description="The seat to move gives up: the other wins."),
)  # fmt: skip


class Entry:
    """A card in a column and its role: royal, attack or defense."""

    __slots__ = ("card", "role")

    def __init__(self, card: str, role: str) -> None:
        self.card, self.role = card, role

    def to_json(self) -> Json:
        return {"card": self.card, "role": self.role}


class Column:
    """A family: entries bottom to top. Only the entries above the top royal count."""

    __slots__ = ("entries",)

    def __init__(self, entries: list[Entry] | None = None) -> None:
        self.entries = entries or []

    def copy(self) -> Column:
        return Column([Entry(e.card, e.role) for e in self.entries])

    def top_index(self) -> int | None:
        for i in range(len(self.entries) - 1, -1, -1):
            if self.entries[i].role == "royal":
                return i
        return None

    def top_royal(self) -> str | None:
        i = self.top_index()
        return None if i is None else self.entries[i].card

    def on_top(self) -> list[Entry]:
        i = self.top_index()
        return [] if i is None else self.entries[i + 1 :]

    def totals(self) -> tuple[int, int]:
        attack = defense = 0
        for e in self.on_top():
            if e.role == "attack":
                attack += value(e.card)
            else:
                defense += value(e.card)
        return attack, defense

    def attacking_suit(self) -> str | None:
        for e in self.entries:
            if e.role == "attack":
                return e.card[1]
        return None

    def royals(self) -> list[str]:
        return [e.card for e in self.entries if e.role == "royal"]

    def under_attack(self) -> bool:
        return any(e.role == "attack" for e in self.on_top())


class State:
    """A position. Mutated only by the ruleset, on a copy it has just made."""

    __slots__ = ("columns", "decks", "discard", "hands", "hold_deal", "jokers",
                 "max_reshuffles", "phase", "reaction", "reason", "reserves", "reshuffles",
                 "round", "seed", "stock", "turn", "winner")  # fmt: skip

    def __init__(self, seed: str, decks: int, jokers: bool, max_reshuffles: int) -> None:
        self.seed, self.decks, self.max_reshuffles = seed, decks, max_reshuffles
        self.stock: list[str] = []  # top card last
        self.discard: list[str] = []
        self.reshuffles = 0
        self.columns = [{c: Column() for c in COLUMNS} for _ in SEATS]
        self.reserves: list[list[str]] = [[], []]
        self.hands: list[list[str]] = [[], []]
        # Each seat's Joker: None without Jokers, "" when in its owner's hands, else the
        # other seat's column it hangs above.
        self.jokers: list[str | None] = ["", ""] if jokers else [None, None]
        self.round = 0
        self.phase = "turn"
        self.turn: int | None = 0
        self.reaction: dict[str, int] | None = None  # {"mover", "seat", "passes"}
        self.winner: int | None = None
        self.reason: str | None = None
        self.hold_deal = False  # a preview: the next round is not dealt (it draws unseen cards)

    def copy(self) -> State:
        new = State.__new__(State)
        new.seed, new.decks, new.max_reshuffles = self.seed, self.decks, self.max_reshuffles
        new.stock, new.discard, new.reshuffles = self.stock[:], self.discard[:], self.reshuffles
        new.columns = [{c: col.copy() for c, col in side.items()} for side in self.columns]
        new.reserves = [r[:] for r in self.reserves]
        new.hands = [h[:] for h in self.hands]
        new.jokers = self.jokers[:]
        new.round, new.phase, new.turn = self.round, self.phase, self.turn
        new.reaction = None if self.reaction is None else dict(self.reaction)
        new.winner, new.reason = self.winner, self.reason
        new.hold_deal = self.hold_deal
        return new

    def royal_value(self, seat: int) -> int:
        return sum(value(r) for col in self.columns[seat].values() for r in col.royals())

    def has_royal(self, seat: int) -> bool:
        return any(col.top_index() is not None for col in self.columns[seat].values())


class RoyalAssassinDuel(Ruleset[State, Move]):
    id: ClassVar[str] = "royal-assassin-duel"
    title: ClassVar[str] = "Royal Assassin Duel"
    board: ClassVar[str] = "facing-tableaux"
    gestures: ClassVar[Gestures] = GESTURES
    in_place = InPlace
    words: ClassVar[Words] = WORDS
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    move_shapes = MOVE_SHAPES
    view_schema = CONTRACT.view_schema(MOVE_SHAPES)
    effect_schemas = CONTRACT.effect_schemas(MOVE_SHAPES)
    outcome_schema = CONTRACT.outcome_schema()
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("decks", "integer", 2,
                   "Play with 1 or 2 full decks. With 2, each card's code also says which "
                   "deck it is from (the King of Hearts of deck 1 is KH1).",
                   minimum=1, maximum=2),
        OptionSpec("jokers", "boolean", True,
                   "Each player has a Joker of their own (X1 for the first player, X2 for "
                   "the second), never shuffled into the stock."),
        OptionSpec("max_reshuffles", "integer", 4,
                   "How many times the discard pile may be turned over as a new stock; once "
                   "it cannot, the game ends.",
                   minimum=0, maximum=10),
    )  # fmt: skip

    # ---- setup ------------------------------------------------------------------------------

    def _deal_plan(self, options: dict[str, OptionValue]) -> tuple[DealStep, ...]:
        return (DealStep("deal", all_codes(int(options["decks"] or 2))),)

    def _initial(self, seed: str, options: dict[str, OptionValue]) -> State:
        state = State(seed, int(options["decks"] or 2), bool(options["jokers"]),
                      int(options["max_reshuffles"] or 0))  # fmt: skip
        state.stock = self.deck(seed, options)[::-1]
        for seat in SEATS:
            self._set_up(state, seat)
        if not self._wiped(state, []):
            self._new_round(state, [])
        return state

    @staticmethod
    def _set_up(state: State, seat: int) -> None:
        royals = 0
        while state.stock:
            card = state.stock.pop()
            if is_royal(card):
                state.columns[seat][column_of(card)].entries.append(Entry(card, "royal"))
                royals += 1
                continue
            state.reserves[seat].append(card)
            if card[0] != "A" and value(card) <= royals:
                return

    # ---- moves --------------------------------------------------------------------------

    def _parse_move(self, move: Json) -> Move:
        return Move(move["type"], move.get("card"), move.get("column"))

    def _to_move(self, state: State) -> tuple[int, ...]:
        if state.phase == "turn":
            assert state.turn is not None
            return (state.turn,)
        if state.phase == "reaction":
            assert state.reaction is not None
            return (state.reaction["seat"],)
        return ()

    def _legal(self, state: State, seat: int) -> tuple[Move, ...]:
        if state.phase == "over" or seat not in self._to_move(state):
            return ()
        jokers = self._joker_moves(state, seat)
        if state.phase == "reaction":
            return (*self._reactions(state, seat), *jokers, PASS, RESIGN)
        moves: list[Move] = []
        for card in state.hands[seat]:
            moves += self._card_moves(state, seat, card)
        if not moves:
            moves = [Move("discard", card) for card in state.hands[seat]]
        return (*moves, *jokers, RESIGN)

    def _card_moves(self, state: State, seat: int, card: str) -> list[Move]:
        enemy = state.columns[1 - seat]
        moves: list[Move] = []
        if is_royal(card):
            moves.append(Move("present", card))
            for name in COLUMNS:
                col = enemy[name]
                top = col.top_royal()
                if (top is not None and is_red(top) != is_red(card)
                        and value(top) <= value(card) and not col.on_top()):  # fmt: skip
                    moves.append(Move("assassinate", card, name))
            return moves
        if state.columns[seat][column_of(card)].top_index() is not None:
            moves.append(Move("defend", card, column_of(card)))
        suit = card[1]
        running = {col.attacking_suit() for col in enemy.values()}
        for name in COLUMNS:
            col = enemy[name]
            top = col.top_royal()
            if top is None or is_red(top) == is_red(card):
                continue
            attacking = col.attacking_suit()
            if attacking == suit or (attacking is None and suit not in running):
                moves.append(Move("attack", card, name))
        return moves

    def _reactions(self, state: State, seat: int) -> list[Move]:
        reserve = state.reserves[seat]
        if not reserve:
            return []
        top = reserve[-1]
        moves = []
        own = state.columns[seat][column_of(top)]
        if own.under_attack():
            moves.append(Move("react", column=column_of(top)))
        for name in COLUMNS:
            col = state.columns[1 - seat][name]
            if col.attacking_suit() == top[1] and col.under_attack():
                moves.append(Move("react", column=name))
        return moves

    def _joker_moves(self, state: State, seat: int) -> list[Move]:
        if state.jokers[seat] != "":
            return []
        return [
            Move("joker", column=name)
            for name in COLUMNS
            if len(state.columns[1 - seat][name].royals()) >= 2
            and state.columns[1 - seat][name].under_attack()
        ]

    def _why_illegal(self, state: State, seat: int, move: Move) -> str:
        if seat not in self._to_move(state):
            return "it is not your turn"
        if move.card is not None and move.card not in state.hands[seat]:
            return f"{move.card} is not in your hand"
        if state.phase == "reaction" and move.kind not in ("react", "joker", "pass", "resign"):
            return "this is a reaction step: react, joker, pass or resign"
        if state.phase == "turn" and move.kind in ("react", "pass"):
            return "reactions come after a turn move"
        if move.kind == "discard":
            return "a card may go to the reserve only when nothing else can be played"
        return f"{move.kind} is not possible there now"

    # ---- playing ----------------------------------------------------------------------------

    def _play(self, state: State, seat: int, move: Move, effects: list[Effect]) -> None:
        kind = move.kind
        if kind == "resign":
            self._end(state, 1 - seat, "resign", effects)
            return
        if kind == "joker":
            assert move.column is not None
            state.jokers[seat] = move.column
            effects.append({"type": "joker", "seat": seat, "card": JOKERS[seat],
                            "column": move.column})  # fmt: skip
            return  # a free move: the same seat moves again
        if kind == "pass":
            self._step_done(state, reacted=False, effects=effects)
            return
        if kind == "react":
            self._react(state, seat, move, effects)
            return
        assert move.card is not None
        state.hands[seat].remove(move.card)
        if kind == "discard":
            state.reserves[seat].append(move.card)
            effects.append({"type": "discard", "seat": seat, "card": move.card})
        elif kind == "present":
            state.columns[seat][column_of(move.card)].entries.append(Entry(move.card, "royal"))
            effects.append({"type": "present", "seat": seat, "card": move.card})
        elif kind == "assassinate":
            assert move.column is not None
            self._assassinate(state, seat, move.card, move.column, effects)
        else:
            assert move.column is not None
            owner = seat if kind == "defend" else 1 - seat
            role = "defense" if kind == "defend" else "attack"
            self._place(state, owner, move.column, Entry(move.card, role), seat, effects)
        if self._wiped(state, effects):
            return
        state.phase = "reaction"
        state.reaction = {"mover": seat, "seat": 1 - seat, "passes": 0}
        self._advance_chain(state, effects)

    def _react(self, state: State, seat: int, move: Move, effects: list[Effect]) -> None:
        assert move.column is not None
        card = state.reserves[seat].pop()
        defense = move.column == column_of(card)
        owner = seat if defense else 1 - seat
        entry = Entry(card, "defense" if defense else "attack")
        self._place(state, owner, move.column, entry, seat, effects, reaction=True)
        if self._wiped(state, effects):
            return
        self._step_done(state, reacted=True, effects=effects)

    def _step_done(self, state: State, reacted: bool, effects: list[Effect]) -> None:
        reaction = state.reaction
        assert reaction is not None
        reaction["passes"] = 0 if reacted else reaction["passes"] + 1
        if reaction["passes"] >= 2:
            self._end_chain(state, effects)
            return
        reaction["seat"] = 1 - reaction["seat"]
        self._advance_chain(state, effects)

    def _advance_chain(self, state: State, effects: list[Effect]) -> None:
        """Skip every seat that has no reaction; stop at one that has, or end the chain."""
        reaction = state.reaction
        assert reaction is not None
        while not self._reactions(state, reaction["seat"]):
            reaction["passes"] += 1
            if reaction["passes"] >= 2:
                self._end_chain(state, effects)
                return
            reaction["seat"] = 1 - reaction["seat"]

    def _end_chain(self, state: State, effects: list[Effect]) -> None:
        reaction = state.reaction
        assert reaction is not None
        mover = reaction["mover"]
        state.reaction = None
        state.phase = "turn"
        if state.hands[1 - mover]:
            state.turn = 1 - mover
        elif state.hands[mover]:
            state.turn = mover
        elif not state.hold_deal:
            self._new_round(state, effects)

    def _place(
        self,
        state: State,
        owner: int,
        name: str,
        entry: Entry,
        by: int,
        effects: list[Effect],
        reaction: bool = False,
    ) -> None:
        state.columns[owner][name].entries.append(entry)
        effects.append({"type": "react" if reaction else entry.role, "seat": by,
                        "owner": owner, "column": name, "card": entry.card,
                        "role": entry.role})  # fmt: skip
        self._resolve(state, owner, name, effects)

    def _assassinate(
        self, state: State, seat: int, card: str, name: str, effects: list[Effect]
    ) -> None:
        owner = 1 - seat
        col = state.columns[owner][name]
        index = col.top_index()
        assert index is not None
        target = col.entries[index].card
        effects.append({"type": "assassinate", "seat": seat, "card": card, "owner": owner,
                        "column": name, "target": target})  # fmt: skip
        self._royal_dies(state, owner, name, index, [card], effects)
        self._resolve(state, owner, name, effects)

    def _royal_dies(
        self, state: State, owner: int, name: str, index: int, extra: list[str],
        effects: list[Effect],
    ) -> None:  # fmt: skip
        """The top royal at `index` dies with what is on it (and `extra`, an assassin); a
        Joker hanging above the column takes the whole column, and goes back to its owner."""
        col = state.columns[owner][name]
        joker_seat = 1 - owner
        if state.jokers[joker_seat] == name:
            gone = [e.card for e in col.entries]
            col.entries = []
            state.jokers[joker_seat] = ""
            effects.append({"type": "joker_returns", "seat": joker_seat, "column": name})
        else:
            gone = [e.card for e in col.entries[index:]]
            del col.entries[index:]
        gone += extra
        state.discard += gone
        effects.append({"type": "killed", "owner": owner, "column": name, "cards": gone})

    def _resolve(self, state: State, owner: int, name: str, effects: list[Effect]) -> None:
        col = state.columns[owner][name]
        while True:
            index = col.top_index()
            if index is None:
                return
            attack, defense = col.totals()
            if attack - defense >= value(col.entries[index].card):
                self._royal_dies(state, owner, name, index, [], effects)
                continue
            if attack == defense > 0:
                gone = [e.card for e in col.entries[index + 1 :]]
                del col.entries[index + 1 :]
                state.discard += gone
                effects.append({"type": "exact_zero", "owner": owner, "column": name,
                                "cards": gone})  # fmt: skip
            return

    def _play_visible(self, state: State, seat: int, move: Move) -> None:
        """What `preview` shows a bot: the move and the chain it sets off, but not the next
        round's deal, which would turn up cards from the stock."""
        state.hold_deal = True
        try:
            self._play(state, seat, move, [])
        finally:
            state.hold_deal = False

    # ---- rounds and the end ------------------------------------------------------------------

    def _draw(self, state: State, effects: list[Effect]) -> str | None:
        if not state.stock:
            if not state.discard or state.reshuffles >= state.max_reshuffles:
                return None
            state.reshuffles += 1
            pile = sorted(state.discard, key=CANONICAL.__getitem__)
            state.discard = []
            stock = DealRandom(state.seed, f"reshuffle-{state.reshuffles}").shuffle(pile)
            state.stock = stock[::-1]
            effects.append({"type": "reshuffle", "reshuffles": state.reshuffles,
                            "stock_count": len(stock)})  # fmt: skip
        return state.stock.pop()

    def _new_round(self, state: State, effects: list[Effect]) -> None:
        state.round += 1
        leader = (state.round - 1) % 2
        dealt = 0
        for seat in (leader, 1 - leader):
            got = 0
            for _ in range(HAND_SIZE):
                card = self._draw(state, effects)
                if card is None:
                    break
                state.hands[seat].append(card)
                got += 1
            dealt += got
            effects.append({"type": "drew", "seat": seat, "count": got})
        state.phase, state.reaction = "turn", None
        if dealt == 0:  # exhaustion: a round that deals nothing is not a round dealt
            state.round -= 1
            v0, v1 = state.royal_value(0), state.royal_value(1)
            self._end(state, None if v0 == v1 else (0 if v0 > v1 else 1), "exhaustion", effects)
            return
        state.turn = leader if state.hands[leader] else 1 - leader
        effects.append({"type": "round", "round": state.round, "leader": leader})

    def _wiped(self, state: State, effects: list[Effect]) -> bool:
        for seat in SEATS:
            if not state.has_royal(seat):
                self._end(state, 1 - seat, "wipe", effects)
                return True
        return False

    def _end(self, state: State, winner: int | None, reason: str, effects: list[Effect]) -> None:
        state.phase, state.turn, state.reaction = "over", None, None
        state.winner, state.reason = winner, reason
        effects.append({"type": "game_over", "outcome": self.outcome(state)})

    # ---- reading ----------------------------------------------------------------------------

    def status(self, state: State) -> str:
        return "finished" if state.phase == "over" else "playing"

    def outcome(self, state: State) -> Json | None:
        if state.phase != "over":
            return None
        return {
            "result": "draw" if state.winner is None else "win",
            "winner": state.winner,
            "reason": state.reason,
            "score": [state.royal_value(0), state.royal_value(1)],
        }

    def view(self, state: State, seat: int | None) -> Json:
        return {
            "status": self.status(state),
            "seat": seat,
            "round": state.round,
            "phase": state.phase,
            "to_move": list(self.to_move(state)),
            "turn": state.turn,
            "reaction": None if state.reaction is None else dict(state.reaction),
            "hand": None if seat is None else state.hands[seat][:],
            "hand_counts": [len(h) for h in state.hands],
            "players": [
                {
                    "columns": {
                        name: [e.to_json() for e in col.entries]
                        for name, col in state.columns[p].items()
                    },
                    "reserve": state.reserves[p][:],
                    "joker": None if state.jokers[p] is None else {
                        "card": JOKERS[p], "above": state.jokers[p] or None},
                }
                for p in SEATS
            ],
            "stock_count": len(state.stock),
            "discard_count": len(state.discard),
            "reshuffles": state.reshuffles,
            "legal_moves": [] if seat is None else self.legal_moves(state, seat),
            "outcome": self.outcome(state),
        }  # fmt: skip

    def inventory(self, state: State) -> list[str]:
        cards = [*state.stock, *state.discard]
        for seat in SEATS:
            cards += state.hands[seat] + state.reserves[seat]
            cards += [e.card for col in state.columns[seat].values() for e in col.entries]
        return cards

    def hidden(self, state: State, seat: int | None) -> set[str]:
        out = {*state.stock, *state.discard}
        for other in SEATS:
            if other != seat:
                out.update(state.hands[other])
        return out

    def public_log(
        self, state: State, events: Sequence[tuple[int, Json]], viewer: int | None
    ) -> list[Json]:
        """Every move names only a card it puts on the table (or onto the face-up reserve):
        all moves are public as they stand."""
        return [move for _, move in events]
