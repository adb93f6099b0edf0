"""Royal Assassin solitaire, with every alternate rule of the seed text as an option.

The rules as played here are in docs/rules/royal-assassin.md, with the ambiguity table. The
state is a small mutable record that `Ruleset.apply` only ever mutates on a fresh copy; stock
lists keep their top card at the *end* so that drawing is a cheap `pop()`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, cast

from domain.cards import JOKERS, STANDARD_DECK, SUIT_NAMES, SUITS, Card
from domain.deal import DealStep, shuffled
from domain.errors import Json
from domain.fast_paths import InPlace
from domain.games.royal_assassin.board import GESTURES
from domain.games.royal_assassin.contract import CONTRACT
from domain.games.royal_assassin.words import WORDS
from domain.gestures import Gestures
from domain.moves import FieldSpec, MoveShape
from domain.options import OptionSpec, OptionValue
from domain.presentation import Words
from domain.ruleset import Ruleset
from domain.transition import UNHEARD, Effect

COLUMNS: tuple[str, ...] = tuple(SUIT_NAMES[s] for s in SUITS)  # clubs diamonds hearts spades
COLUMN_INDEX = {name: i for i, name in enumerate(COLUMNS)}
SUIT_COLUMN = {s: i for i, s in enumerate(SUITS)}

ROYAL, ATTACK, DEFENSE = "royal", "attack", "defense"

RANK_VALUE = {
    "A": 11,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "T": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
}
"""Values of the seed text: numbers at face value, Aces 11, Jacks 11, Queens 12, Kings 13."""

ROYAL_ORDER = {"J": 1, "Q": 2, "K": 3}
SETUP_ENDERS = frozenset("23456789T")
"""Number cards that can end the standard setup: 2 to 10, never an Ace."""

WIN_BONUS = 200
"""Added to a win's score so that every win ranks above every loss (a loss scores at most 144)."""


NUMBER_RANKS = frozenset("A23456789T")
"""Aces and 2-10: the cards that attack and defend."""


class Entry(NamedTuple):
    """One card in a column and the part it plays there."""

    card: Card
    role: str


@dataclass(frozen=True, slots=True)
class Options:
    jokers_in_deck: bool = False
    setup_royals: int | None = None
    new_royal_beneath: bool = False
    joker_discarded: bool = False
    exact_cancel_only: bool = False
    ace_low_after_play: bool = False
    recycle_reserve: bool = False


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """A Royal Assassin move; `column` is an index into COLUMNS for the moves that take one.

    Interned: the eighteen moves below are the only ones, so equality is identity, and
    checking a move against the legal list costs no comparison method.
    """

    kind: str
    column: int | None = None
    is_resign: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_resign", self.kind == "resign")  # read on every move

    def to_json(self) -> Json:
        if self.column is None:
            return {"type": self.kind}
        return {"type": self.kind, "column": COLUMNS[self.column]}


DRAW, RESERVE, RESIGN = Move("draw"), Move("reserve"), Move("resign")
ATTACKS = tuple(Move("attack", c) for c in range(4))
CONTINUES = tuple(Move("continue", c) for c in range(4))
JOKER_MOVES = tuple(Move("joker", c) for c in range(4))
_PLAIN_MOVES = {"draw": DRAW, "reserve": RESERVE, "resign": RESIGN}
_COLUMN_MOVES = {"attack": ATTACKS, "continue": CONTINUES, "joker": JOKER_MOVES}

_COLUMN = FieldSpec("enum", values=COLUMNS, description="The column, named by its suit.")
MOVE_SHAPES: tuple[MoveShape, ...] = (
    MoveShape("draw", description="Turn the top card of the stock."),
    MoveShape("attack", {"column": _COLUMN}, "Play the current card on a Pretender."),
    MoveShape("reserve", description="Put the current card on the reserve."),
    MoveShape("continue", {"column": _COLUMN}, "Continue an attack with the reserve's top."),
    MoveShape("joker", {"column": _COLUMN}, "Place a Joker above a column."),
    MoveShape("resign", description="Give up: the game is lost."),
)


class State:
    """A Royal Assassin position. Mutated only by the ruleset, on a copy it has just made."""

    __slots__ = (
        "columns",
        "current",
        "discard",
        "jokers_above",
        "jokers_in_hand",
        "legal_cache",
        "options",
        "progress",
        "reserve",
        "scans",
        "status",
        "stock",
    )

    def __init__(self, options: Options, stock: list[Card], jokers_in_hand: list[Card]) -> None:
        self.options = options
        self.stock = stock  # top card last
        self.columns: list[list[Entry]] = [[], [], [], []]  # each bottom to top
        self.reserve: list[Card] = []  # bottom to top
        self.discard: list[Card] = []
        self.current: Card | None = None
        self.jokers_in_hand = jokers_in_hand
        self.jokers_above: list[Card | None] = [None, None, None, None]
        self.status = "playing"
        self.progress = False  # an attack or continue since the stock was last formed
        self.legal_cache: tuple[Move, ...] | None = None
        self.scans: list[Scan | None] = [None, None, None, None]  # per column; None = stale

    def copy(self) -> State:
        new = State.__new__(State)
        new.options = self.options
        new.stock = self.stock[:]
        new.columns = [col[:] for col in self.columns]
        new.reserve = self.reserve[:]
        new.discard = self.discard[:]
        new.current = self.current
        new.jokers_in_hand = self.jokers_in_hand[:]
        new.jokers_above = self.jokers_above[:]
        new.status = self.status
        new.progress = self.progress
        new.legal_cache = self.legal_cache
        new.scans = self.scans[:]
        return new

    def changed(self, c: int) -> None:
        """Every change to column c goes through here, so that no stale Scan survives it."""
        self.scans[c] = None
        self.legal_cache = None

    def all_cards(self) -> list[Card]:
        """Every card this game uses, wherever it is: what card-conservation checks count."""
        cards = [*self.stock, *self.reserve, *self.discard, *self.jokers_in_hand]
        cards += [e.card for col in self.columns for e in col]
        cards += [j for j in self.jokers_above if j is not None]
        if self.current is not None:
            cards.append(self.current)
        return cards


# ---- column arithmetic (module functions: these run thousands of times per game) -------------


def pretender_index(column: list[Entry]) -> int:
    for i in range(len(column) - 1, -1, -1):
        if column[i].role == ROYAL:
            return i
    return -1


def pretender_totals(
    column: list[Entry], ace_low: bool, fresh: Card | None
) -> tuple[int, int, int]:
    """The Pretender's index (-1 for an empty column) and the attack and defense on it, read
    in one pass down from the top; an Ace is 1 when `ace_low`, unless it is `fresh`."""
    attack = defense = 0
    for i in range(len(column) - 1, -1, -1):
        card, role = column[i]
        if role == ROYAL:
            return i, attack, defense
        value = RANK_VALUE[card.rank]
        if ace_low and card.rank == "A" and card is not fresh:
            value = 1
        if role == ATTACK:
            attack += value
        else:
            defense += value
    return -1, attack, defense


def _attacking_suit(column: list[Entry]) -> str | None:
    for entry in column:
        if entry.role == ATTACK:
            return entry.card.suit
    return None


class Scan(NamedTuple):
    """What the legal-move rules need from one column, cached until the column changes.

    Columns change far less often than the current card, and legal moves are listed after
    every move of every game, so this is the engine's hottest cache. A card laid on top of a
    column updates its scan in place (`_attack`, `_place_royal`, a defense in `_resolve`): only a
    kill or a cancel, which takes cards away, makes the column be read again.
    """

    pretender: Card | None
    attacked_by: str | None  # the suit of the attack cards anywhere in the column
    under_attack: bool  # the Pretender has at least one attack card on it
    joker_target: bool  # under attack, and the column holds at least two royals
    royals: int  # royals in the column: a Joker needs two


def _column_scan(state: State, c: int) -> Scan:
    scan = state.scans[c]
    if scan is not None:
        return scan
    pretender: Card | None = None
    suit: str | None = None
    under_attack = False
    royals = 0
    column = state.columns[c]
    for i in range(len(column) - 1, -1, -1):
        card, role = column[i]
        if role == ROYAL:
            royals += 1
            if pretender is None:
                pretender = card
        elif role == ATTACK:
            suit = card.suit
            if pretender is None:
                under_attack = True
    scan = Scan(pretender, suit, under_attack, under_attack and royals >= 2, royals)
    state.scans[c] = scan
    return scan


class RoyalAssassinInPlace(InPlace[State, Move]):
    """The in-place fast paths, with the playout's loop fused for one seat: a position is
    forced exactly when it lists two moves, so the forced-move rule and the choice read one
    listing."""

    def playout(
        self, state: State, choosers: Sequence[Callable[[tuple[Move, ...]], Move]]
    ) -> tuple[State, list[tuple[int, Move]]]:
        state = state.copy()
        choose = choosers[0]
        legal_of, play = self.ruleset._legal, self.ruleset._play
        log: list[tuple[int, Move]] = []
        while state.status == "playing":
            legal = state.legal_cache or legal_of(state, 0)
            if len(legal) == 2:
                play(state, 0, legal[0], UNHEARD)
                continue
            move = choose(legal)
            log.append((0, move))
            play(state, 0, move, UNHEARD)
        return state, log


class RoyalAssassin(Ruleset[State, Move]):
    id: ClassVar[str] = "royal-assassin"
    title: ClassVar[str] = "Royal Assassin (solitaire)"
    board: ClassVar[str] = "tableau"
    gestures: ClassVar[Gestures] = GESTURES
    in_place = RoyalAssassinInPlace
    words: ClassVar[Words] = WORDS
    move_shapes: ClassVar[tuple[MoveShape, ...]] = MOVE_SHAPES
    view_schema = CONTRACT.view_schema(MOVE_SHAPES)
    effect_schemas = CONTRACT.effect_schemas(MOVE_SHAPES)
    outcome_schema = CONTRACT.outcome_schema()
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "jokers_in_deck",
            "boolean",
            False,
            "Shuffle both Jokers into the deck (54 cards) instead of starting with one "
            "in hand; a Joker is then played only once it turns up.",
        ),
        OptionSpec(
            "setup_royals",
            "integer",
            None,
            "End the setup as soon as this many royals are placed, instead of on a low "
            "number card.",
            minimum=1,
            maximum=12,
            nullable=True,
        ),
        OptionSpec(
            "new_royal_beneath",
            "boolean",
            False,
            "A newly drawn royal goes beneath the cards on the current Pretender, so "
            "they count against the newcomer.",
        ),
        OptionSpec(
            "joker_discarded",
            "boolean",
            False,
            "After its column is destroyed the Joker goes to the discard pile, not back "
            "to the hand.",
        ),
        OptionSpec(
            "exact_cancel_only",
            "boolean",
            False,
            "Cards on a Pretender are cancelled only when attack equals defense.",
        ),
        OptionSpec(
            "ace_low_after_play",
            "boolean",
            False,
            "An Ace counts 11 only in the checks made as it is placed, 1 afterwards.",
        ),
        OptionSpec(
            "recycle_reserve",
            "boolean",
            False,
            "When play is stuck, turn the reserve over as a new stock, provided an attack "
            "or continue was played since the stock was last formed.",
        ),
    )

    # ---- dealing and setup -------------------------------------------------------------------

    def _deck_cards(self, seed: str, options: dict[str, OptionValue]) -> list[Card]:
        cards = list(STANDARD_DECK)
        if options["jokers_in_deck"]:
            cards += JOKERS
        return shuffled(seed, "deal", cards)

    def _deal_plan(self, options: dict[str, OptionValue]) -> tuple[DealStep, ...]:
        cards = (*STANDARD_DECK, *JOKERS) if options["jokers_in_deck"] else STANDARD_DECK
        return (DealStep("deal", tuple(c.code for c in cards)),)

    def _initial(self, seed: str, options: dict[str, OptionValue]) -> State:
        return self.set_up(self._deck_cards(seed, options), Options(**options))  # type: ignore[arg-type]

    def set_up(self, deck: list[Card], options: Options) -> State:
        """Lay out the setup from `deck` (top first). Public so tests can stack a deck."""
        hand = [] if options.jokers_in_deck else [JOKERS[0]]
        state = State(options, deck[::-1], hand)
        royals = 0
        while state.stock:
            card = state.stock.pop()
            if card.is_royal:
                self._place_royal(state, card, [])
                royals += 1
                if royals == options.setup_royals:
                    break
            else:
                state.reserve.append(card)
                if (
                    options.setup_royals is None
                    and card.rank in SETUP_ENDERS
                    and RANK_VALUE[card.rank] <= royals
                ):
                    break
        self._settle_turn(state, [])
        return state

    # ---- moves -------------------------------------------------------------------------------

    def _parse_move(self, move: Json) -> Move:
        kind = move["type"]
        if kind in _PLAIN_MOVES:
            return _PLAIN_MOVES[kind]
        return _COLUMN_MOVES[kind][COLUMN_INDEX[move["column"]]]

    def _legal(self, state: State, seat: int) -> tuple[Move, ...]:
        if seat != 0 or state.status != "playing":
            return ()
        legal = state.legal_cache
        if legal is not None:
            return legal
        if None in state.scans:  # a kill or a cancel since the last listing
            for c in range(4):
                if state.scans[c] is None:
                    _column_scan(state, c)
        scans = cast("list[Scan]", state.scans)  # every column read now
        # Four columns, unrolled: this listing is made after every move of every game.
        s0, s1, s2, s3 = scans
        attacking = (s0.attacked_by, s1.attacked_by, s2.attacked_by, s3.attacked_by)
        current = state.current
        reserve = state.reserve
        top = reserve[-1] if reserve else None
        if current is None:
            moves = [DRAW] if state.stock else []
            joker_free = top is not None and top.is_joker
        else:
            moves = []
            if current.rank in NUMBER_RANKS:
                suit, red = current.suit, current.is_red
                if suit in attacking:  # a suit attacks one column at a time: only that one
                    c = attacking.index(suit)
                    pretender = scans[c].pretender
                    if pretender is not None and pretender.is_red != red:
                        moves.append(ATTACKS[c])
                else:
                    for c, scan in enumerate(scans):
                        target = scan.pretender
                        if target is not None and target.is_red != red and attacking[c] is None:
                            moves.append(ATTACKS[c])
            moves.append(RESERVE)
            joker_free = current.is_joker or (top is not None and top.is_joker)
        if top is not None and top.suit in attacking and top.rank in NUMBER_RANKS:
            c = attacking.index(top.suit)
            if scans[c].under_attack:
                moves.append(CONTINUES[c])
        if (joker_free or state.jokers_in_hand) and (
            s0.joker_target or s1.joker_target or s2.joker_target or s3.joker_target
        ):
            above = state.jokers_above
            for c, scan in enumerate(scans):
                if scan.joker_target and above[c] is None:
                    moves.append(JOKER_MOVES[c])
        moves.append(RESIGN)
        state.legal_cache = legal = tuple(moves)
        return legal

    @staticmethod
    def _joker_source(state: State) -> str | None:
        """Where the next Joker played comes from: the hand first, then current, then reserve."""
        if state.jokers_in_hand:
            return "hand"
        if state.current is not None and state.current.is_joker:
            return "current"
        if state.reserve and state.reserve[-1].is_joker:
            return "reserve"
        return None

    def _why_illegal(self, state: State, seat: int, move: Move) -> str:
        if seat != 0:
            return "Royal Assassin has one seat, seat 0"
        kind = move.kind
        column = COLUMNS[move.column] if move.column is not None else ""
        current = state.current
        if kind == "draw":
            if current is not None:
                return f"place the current card {current.code} before drawing"
            return "the stock is empty"
        if kind == "reserve":
            return "there is no current card to put on the reserve"
        if kind == "attack":
            if current is None:
                return "there is no current card to attack with"
            if current.rank not in NUMBER_RANKS:
                return f"{current.code} is not a number card and cannot attack"
            col = state.columns[move.column or 0]
            p = pretender_index(col)
            if p < 0:
                return f"the {column} column has no Pretender"
            if col[p].card.is_red == current.is_red:
                return f"{current.code} cannot attack {col[p].card.code}: same colour"
            suit = _attacking_suit(col)
            if suit is not None:
                return f"the {column} column is already attacked by {SUIT_NAMES[suit]}"
            return f"{SUIT_NAMES[current.suit]} already attack another column"
        if kind == "continue":
            top = state.reserve[-1] if state.reserve else None
            if top is None or top.rank not in NUMBER_RANKS:
                return "the top of the reserve is not a number card"
            return (
                f"{top.code} can continue only an attack of its suit on a Pretender that "
                f"already has an attack card on it, and {column} is not one"
            )
        if kind == "joker":
            if self._joker_source(state) is None:
                return "no Joker is available"
            if state.jokers_above[move.column or 0] is not None:
                return f"a Joker is already above the {column} column"
            return (
                f"a Joker needs a column with at least two royals whose Pretender is under "
                f"attack, and {column} is not one"
            )
        return "that move is not legal now"

    def _play_visible(self, state: State, seat: int, move: Move) -> None:
        if move.kind != "draw":  # a draw is nothing but turning a hidden card
            self._play(state, seat, move, [])

    def _play(self, state: State, seat: int, move: Move, effects: list[Effect]) -> None:
        state.legal_cache = None
        kind, c = move.kind, move.column
        if kind == "draw":
            card = state.stock.pop()
            if effects is not UNHEARD:
                effects.append({"type": "draw", "card": card.code})
            if not card.is_royal:
                state.current = card
                return  # nothing on the table changed, and a current card can be reserved
            self._place_royal(state, card, effects)
            # A royal laid on top has nothing on it yet: only one slid beneath the cards on
            # the old Pretender can be killed or cancelled at once.
            beneath = state.options.new_royal_beneath
            self._resolve(state, SUIT_COLUMN[card.suit] if beneath else None, None, effects)
        elif kind == "reserve":
            card = self._take_current(state)
            state.reserve.append(card)
            if effects is not UNHEARD:
                effects.append({"type": "reserve", "card": card.code})
            self._resolve(state, None, None, effects)
        elif kind == "attack":
            assert c is not None
            self._attack(state, c, self._take_current(state), kind, effects)
        elif kind == "continue":
            assert c is not None
            self._attack(state, c, state.reserve.pop(), kind, effects)
        elif kind == "joker":
            assert c is not None
            self._place_joker(state, c, effects)
        else:
            state.status = "lost"
            effects.append({"type": "resign"})
            effects.append({"type": "end", "result": "lost"})
            return
        self._settle_turn(state, effects)

    @staticmethod
    def _take_current(state: State) -> Card:
        card = state.current
        assert card is not None, "legal moves only place a current card that exists"
        state.current = None
        return card

    def _attack(self, state: State, c: int, card: Card, kind: str, effects: list[Effect]) -> None:
        """`attack` (from the current card) and `continue` (from the reserve) differ only there."""
        column = state.columns[c]
        scan = _column_scan(state, c)
        column.append(Entry(card, ATTACK))
        # The attack card tops the column: its Pretender is now under attack, by this suit.
        state.scans[c] = Scan(scan.pretender, card.suit, True, scan.royals >= 2, scan.royals)
        state.legal_cache = None
        state.progress = True
        if effects is not UNHEARD:
            target, strength = self._pretender_strength(state, column, card)
            effects.append(
                {
                    "type": kind,
                    "card": card.code,
                    "column": COLUMNS[c],
                    "target": target.code,
                    "strength": strength,
                }
            )
        self._resolve(state, c, card, effects)

    def _place_joker(self, state: State, c: int, effects: list[Effect]) -> None:
        source = self._joker_source(state)
        if source == "hand":
            joker = state.jokers_in_hand.pop(0)
        elif source == "current":
            joker = self._take_current(state)
        else:
            joker = state.reserve.pop()
        state.jokers_above[c] = joker
        if effects is not UNHEARD:
            effects.append(
                {"type": "joker", "card": joker.code, "column": COLUMNS[c], "from": source}
            )
        self._resolve(state, None, None, effects)  # a Joker taken off the reserve uncovers a card

    def _place_royal(self, state: State, card: Card, effects: list[Effect]) -> None:
        c = SUIT_COLUMN[card.suit]
        column = state.columns[c]
        scan = _column_scan(state, c)
        royals = scan.royals + 1
        if state.options.new_royal_beneath:
            # Beneath the cards on the old Pretender: any attack on it is now on the newcomer.
            column.insert(pretender_index(column) + 1, Entry(card, ROYAL))
            under_attack = scan.under_attack
        else:
            column.append(Entry(card, ROYAL))
            under_attack = False
        state.scans[c] = Scan(
            card, scan.attacked_by, under_attack, under_attack and royals >= 2, royals
        )
        state.legal_cache = None
        if effects is not UNHEARD:
            effects.append({"type": "royal", "card": card.code, "column": COLUMNS[c]})

    @staticmethod
    def _pretender_strength(
        state: State, column: list[Entry], fresh: Card | None
    ) -> tuple[Card, int]:
        """The Pretender and its strength right after `fresh` was placed (what effects show)."""
        p, attack, defense = pretender_totals(column, state.options.ace_low_after_play, fresh)
        pretender = column[p].card
        return pretender, RANK_VALUE[pretender.rank] - attack + defense

    # ---- resolution: kills, cancels and defense, until nothing changes ------------------------

    def _resolve(
        self, state: State, c: int | None, fresh: Card | None, effects: list[Effect]
    ) -> None:
        """Kill or cancel on column `c` (the one just changed), pull a defense card, repeat.

        The rules check every column, but a column nobody touched is already settled, so
        checking only the changed one gives the same result for a fraction of the work.
        `fresh` is the card just placed: with `ace_low_after_play` an Ace counts 11 only in
        the check made as it is placed.
        """
        reserve = state.reserve
        while True:
            if c is not None:
                self._settle_column(state, c, fresh, effects)
            # The reserve's top defends its suit's Pretender when that one is under attack
            # and not already defended past its attack.
            if not reserve:
                return
            top = reserve[-1]
            if top.rank not in NUMBER_RANKS:
                return
            c = SUIT_COLUMN[top.suit]
            if not (state.scans[c] or _column_scan(state, c)).under_attack:
                return
            column = state.columns[c]
            _, attack, defense = pretender_totals(column, state.options.ace_low_after_play, None)
            if attack == 0 or defense > attack:
                return
            reserve.pop()
            column.append(Entry(top, DEFENSE))
            state.legal_cache = None  # a defense card changes nothing the column's scan holds
            if effects is not UNHEARD:
                target, strength = self._pretender_strength(state, column, top)
                effects.append(
                    {
                        "type": "defense",
                        "card": top.code,
                        "column": COLUMNS[c],
                        "target": target.code,
                        "strength": strength,
                    }
                )
            fresh = top

    def _settle_column(
        self, state: State, c: int, fresh: Card | None, effects: list[Effect]
    ) -> None:
        options = state.options
        column = state.columns[c]
        while column:
            p, attack, defense = pretender_totals(column, options.ace_low_after_play, fresh)
            pretender = column[p].card
            if attack >= RANK_VALUE[pretender.rank] + defense:
                joker = state.jokers_above[c]
                if joker is not None:
                    dead = column[:]
                    column.clear()
                    state.jokers_above[c] = None
                    if options.joker_discarded:
                        state.discard.append(joker)
                    else:
                        state.jokers_in_hand.append(joker)
                else:
                    dead = column[p:]
                    del column[p:]
                state.discard.extend(e.card for e in dead)
                state.changed(c)
                if effects is UNHEARD:
                    continue
                kill: Effect = {
                    "type": "kill",
                    "column": COLUMNS[c],
                    "royal": pretender.code,
                    "attack": attack,
                    "defense": defense,
                    "cards": [e.card.code for e in dead],
                }
                if joker is not None:
                    kill["joker"] = joker.code
                    kill["joker_to"] = "discard" if options.joker_discarded else "hand"
                effects.append(kill)
                continue
            cancelled = attack == defense != 0 or (
                defense > attack and not options.exact_cancel_only
            )
            if not cancelled:
                return
            dead = column[p + 1 :]
            del column[p + 1 :]
            state.discard.extend(e.card for e in dead)
            state.changed(c)
            if effects is UNHEARD:
                return
            effects.append(
                {
                    "type": "cancel",
                    "column": COLUMNS[c],
                    "royal": pretender.code,
                    "attack": attack,
                    "defense": defense,
                    "cards": [e.card.code for e in dead],
                }
            )
            return

    def _settle_turn(self, state: State, effects: list[Effect]) -> None:
        """After a move: the win, the loss, or (optionally) turning the reserve over."""
        if not any(state.columns):
            state.status = "won"
            effects.append({"type": "end", "result": "won"})
            return
        state.legal_cache = None
        if state.current is not None or state.stock:
            return  # `reserve` or `draw` is there besides `resign`: not stuck
        if len(self._legal(state, 0)) > 1:
            return
        options = state.options
        if options.recycle_reserve and state.progress and state.reserve:
            state.stock = state.reserve  # the first card placed becomes the top (the end)
            state.stock.reverse()
            state.reserve = []
            state.progress = False
            state.legal_cache = None
            effects.append({"type": "recycle", "cards": len(state.stock)})
            return
        state.status = "lost"
        state.legal_cache = None
        effects.append({"type": "end", "result": "lost"})

    def _play_forced(self, state: State, effects: list[Effect]) -> None:
        """The forced-move rule, read straight off the listing: while playing, the one seat's
        moves always end with `resign`, so a position is forced exactly when it lists two.
        Every draw is forced, so this runs after nearly every move of every game."""
        while state.status == "playing":
            legal = self._legal(state, 0)
            if len(legal) != 2:
                return
            forced = legal[0]
            if effects is not UNHEARD:
                effects.append({"type": "forced", "seat": 0, "move": forced.to_json()})
            self._play(state, 0, forced, effects)

    # ---- reading a position --------------------------------------------------------------------

    def status(self, state: State) -> str:
        return state.status

    def is_over(self, state: State) -> bool:
        return state.status != "playing"  # asked several times per move: skip status()

    def outcome(self, state: State) -> Json | None:
        if state.status == "playing":
            return None
        killed = sum(RANK_VALUE[c.rank] for c in state.discard if c.is_royal)
        if state.status == "won":
            score = WIN_BONUS + killed + len(state.stock)
            return {"result": "won", "ruler": None, "score": score}
        return {"result": "lost", "ruler": self.ruler(state), "score": killed}

    def ruler(self, state: State) -> str:
        """Who takes the throne when the player loses: a Pretender's code, or "joker" on a tie."""
        ace_low = state.options.ace_low_after_play
        claims: list[tuple[tuple[Any, ...], str]] = []
        for column in state.columns:
            p, attack, defense = pretender_totals(column, ace_low, None)
            if p < 0:
                continue
            pretender = column[p].card
            entourage = sorted(
                (ROYAL_ORDER[e.card.rank] for e in column[:p] if e.role == ROYAL), reverse=True
            )
            key = (
                ROYAL_ORDER[pretender.rank],
                RANK_VALUE[pretender.rank] - attack + defense,
                len(entourage),
                tuple(entourage),
            )
            claims.append((key, pretender.code))
        if not claims:
            return "joker"
        best = max(key for key, _ in claims)
        winners = [code for key, code in claims if key == best]
        return winners[0] if len(winners) == 1 else "joker"

    def pretenders(self, state: State) -> dict[str, Json | None]:
        """Per column: the Pretender and the arithmetic on it, as clients want to show it."""
        ace_low = state.options.ace_low_after_play
        out: dict[str, Json | None] = {}
        for c, column in enumerate(state.columns):
            p, attack, defense = pretender_totals(column, ace_low, None)
            if p < 0:
                out[COLUMNS[c]] = None
                continue
            card = column[p].card
            suit = _attacking_suit(column)
            out[COLUMNS[c]] = {
                "card": card.code,
                "value": RANK_VALUE[card.rank],
                "attack": attack,
                "defense": defense,
                "strength": RANK_VALUE[card.rank] - attack + defense,
                "attacked_by": SUIT_NAMES[suit] if suit else None,
            }
        return out

    def view(self, state: State, seat: int | None) -> Json:
        return {
            "status": state.status,
            "current": state.current.code if state.current else None,
            "reserve": [c.code for c in state.reserve],
            "stock_count": len(state.stock),
            "columns": {
                COLUMNS[c]: [{"card": e.card.code, "role": e.role} for e in column]
                for c, column in enumerate(state.columns)
            },
            "pretenders": self.pretenders(state),
            "jokers": {
                "in_hand": [j.code for j in state.jokers_in_hand],
                "above": {
                    COLUMNS[c]: j.code for c, j in enumerate(state.jokers_above) if j is not None
                },
            },
            "discard_count": len(state.discard),
            "legal_moves": self.legal_moves(state, seat) if seat == 0 else [],
            "outcome": self.outcome(state),
        }

    def inventory(self, state: State) -> list[str]:
        return [c.code for c in state.all_cards()]

    def hidden(self, state: State, seat: int | None) -> set[str]:
        return {c.code for c in state.stock}  # face down, and its order secret
