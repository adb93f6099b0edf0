"""Risus Royale's tables as data: clichés, creatures, opponents, treasures, goals, the map.

Everything here is read from ../shared/specs/risus-royale.md and docs/rules/risus-royale.md
holds the same tables for people. Lists follow the cliché order (spades, clubs, diamonds,
hearts) used throughout the game; a cliché is referred to by its index in that order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

CLICHES = ("spades", "clubs", "diamonds", "hearts")
"""The cliché order: every list of the game (dice, rounds, views) follows it."""
CLICHE_OF_SUIT = {"S": 0, "C": 1, "D": 2, "H": 3}
SUIT_LETTERS = "SCDH"
PARTNER = (3, 2, 1, 0)  # spades <-> hearts, clubs <-> diamonds
ADJECTIVE = ("Magical", "Nasty", "Sneaky", "Mystical")
VALUE = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10}

CREATURE_DICE = {
    3: (2, 1),
    4: (2, 2),
    5: (3, 2),
    6: (4, 2),
    7: (5, 2),
    8: (5, 3),
    9: (5, 4),
    10: (5, 5),
}
"""Value -> (base dice, secondary dice)."""
CREATURES = (
    ("Imp", "Unicorn", "Centaur", "Manticore", "Griffon", "Genie", "Jabberwock", "Dragon"),
    ("Boar", "Knight", "Lion", "Pirates", "Bear", "Troll", "Ogre", "Giant"),
    (
        "Giant Rat",
        "Giant Spider",
        "Pack of Wolves",
        "Giant Snake",
        "Giant Lizard",
        "Band of Thieves",
        "Yeti/Bigfoot",
        "Giant Wurm",
    ),
    ("Skeleton", "Mummy", "Ghost", "Zombies", "Werewolf", "Ghoul", "Vampire", "Demon"),
)
"""Per cliché, the creatures of values 3 to T."""

CLASSES = ("wizard", "fighter", "thief", "cleric")
RACES = {"A": "halfling", "J": "dwarf", "Q": "elf", "K": "human"}
OPPONENTS = {
    "S": {
        "A": ("Frato Poofwand", 1),
        "J": ("Snotty", 2),
        "Q": ("Mauritius", 3),
        "K": ("Ian McKellan", 4),
    },
    "C": {
        "A": ("Freto Stinkfoot", 2),
        "J": ("Feisty", 4),
        "Q": ("Belarus", 1),
        "K": ("John Wayne", 3),
    },
    "D": {
        "A": ("Frito Pockpicket", 3),
        "J": ("Squinty", 1),
        "Q": ("Glorioso", 4),
        "K": ("David Niven", 2),
    },
    "H": {
        "A": ("Froto Acnescarr", 4),
        "J": ("Frumpy", 3),
        "Q": ("Andorra", 2),
        "K": ("Bing Crosby", 1),
    },
}
"""Suit letter -> rank -> (name, strength before the `opponent_bonus`)."""

ItemKind = Literal["plus", "minus", "x", "w"]
Against = Literal["creature", "opponent", "both"]
TREASURE_KINDS: dict[int, tuple[ItemKind, Against]] = {
    3: ("plus", "creature"),
    4: ("minus", "creature"),
    5: ("plus", "opponent"),
    6: ("minus", "opponent"),
    7: ("plus", "both"),
    8: ("minus", "both"),
    9: ("x", "both"),
    10: ("w", "both"),
}
TREASURE_NAMES = (
    (
        "Dagger",
        "Armor",
        "Sword",
        "Voodoo Doll",
        "Fireball",
        "Magic Aura",
        "Rabbit's Foot",
        "Firebomb",
    ),
    ("Club", "Shield", "Mace", "Helm", "Ax", "Spear", "Lucky Penny", "Hand Grenade"),
    ("Whip", "Net", "Garrote", "Bolo", "Bow", "Poison", "Monkey's Paw", "Plastique"),
    ("Stole", "Censer", "Staff", "Mitre", "Vestments", "Holy Water", "Holy Medallion", "Dynamite"),
)
"""Per cliché, the treasures of values 3 to T."""

GOAL_CHART = {
    ("2S", "2C"): 1,
    ("2S", "2D"): 2,
    ("2S", "2H"): 3,
    ("2C", "2S"): 4,
    ("2C", "2D"): 5,
    ("2C", "2H"): 6,
    ("2D", "2S"): 7,
    ("2D", "2C"): 8,
    ("2D", "2H"): 9,
    ("2H", "2S"): 10,
    ("2H", "2C"): 11,
    ("2H", "2D"): 12,
}
"""(first deuce, second deuce) -> goal number: the first picks the row, the second the column."""
GOAL_TEXT = {
    1: "Defeat all Wizards",
    2: "Defeat all Fighters",
    3: "Defeat all Thieves",
    4: "Defeat all Clerics",
    5: "Defeat all Wizards, all Fighters, all Thieves or all Clerics",
    6: "Defeat all Halflings",
    7: "Defeat all Dwarves",
    8: "Defeat all Elves",
    9: "Defeat all Humans",
    10: "Defeat all Halflings, all Dwarves, all Elves or all Humans",
    11: "Defeat every opponent of one row, column or diagonal, or of the four corners",
    12: "Meet any one of goals 1 to 11",
}

DEUCES = ("2C", "2D", "2H", "2S")
OPPONENT_CODES = tuple(r + s for s in "CDHS" for r in "AJQK")
NUMBER_CODES = tuple(r + s for s in "CDHS" for r in "3456789T")
"""The canonical orders the `opponents` and `deal` streams shuffle."""

SIZE = 4
PILES = tuple(range(SIZE * SIZE))
"""Pile index i = 4 * row + column."""


def cell(pile: int) -> list[int]:
    return [pile // SIZE, pile % SIZE]


def pile_at(row: int, column: int) -> int:
    return row * SIZE + column


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        pile_at(r, c)
        for r in range(SIZE)
        for c in range(SIZE)
        if (r, c) != (p // SIZE, p % SIZE) and abs(r - p // SIZE) <= 1 and abs(c - p % SIZE) <= 1
    )
    for p in PILES
)
"""The up-to-8 neighbours of each pile, in row-major order (the order of `move` choices)."""
EDGE = tuple(p for p in PILES if p // SIZE in (0, SIZE - 1) or p % SIZE in (0, SIZE - 1))

LINES: tuple[frozenset[int], ...] = (
    *(frozenset(pile_at(r, c) for c in range(SIZE)) for r in range(SIZE)),
    *(frozenset(pile_at(r, c) for r in range(SIZE)) for c in range(SIZE)),
    frozenset(pile_at(i, i) for i in range(SIZE)),
    frozenset(pile_at(i, SIZE - 1 - i) for i in range(SIZE)),
    frozenset((pile_at(0, 0), pile_at(0, 3), pile_at(3, 0), pile_at(3, 3))),
)
"""Goal 11's eleven lines: rows, columns, the two long diagonals, the four corners."""


OPPONENT_BIT = {code: 1 << i for i, code in enumerate(OPPONENT_CODES)}


@dataclass(frozen=True, slots=True)
class Alternative:
    """One way of meeting a goal: defeat every opponent of `opponents`, or clear `piles`.

    The masks are the same sets as bits (opponents by `OPPONENT_BIT`, piles by index), which
    the end checks run after every move test cheaply."""

    opponents: frozenset[str] = frozenset()
    piles: frozenset[int] = frozenset()
    opponent_mask: int = field(init=False, repr=False, compare=False)
    pile_mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "opponent_mask", sum(OPPONENT_BIT[c] for c in self.opponents))
        object.__setattr__(self, "pile_mask", sum(1 << p for p in self.piles))


_CLASS_ALTERNATIVES = tuple(
    Alternative(opponents=frozenset(r + s for r in "AJQK")) for s in SUIT_LETTERS
)
_RACE_ALTERNATIVES = tuple(
    Alternative(opponents=frozenset(r + s for s in SUIT_LETTERS)) for r in "AJQK"
)
_LINE_ALTERNATIVES = tuple(Alternative(piles=line) for line in LINES)

GOAL_ALTERNATIVES: dict[int, tuple[Alternative, ...]] = {
    **{n: (_CLASS_ALTERNATIVES[n - 1],) for n in (1, 2, 3, 4)},
    5: _CLASS_ALTERNATIVES,
    **{n: (_RACE_ALTERNATIVES[n - 6],) for n in (6, 7, 8, 9)},
    10: _RACE_ALTERNATIVES,
    11: _LINE_ALTERNATIVES,
    12: (*_CLASS_ALTERNATIVES, *_RACE_ALTERNATIVES, *_LINE_ALTERNATIVES),
}

RELEVANT: dict[int, frozenset[str]] = {
    n: frozenset().union(*(a.opponents for a in alts)) for n, alts in GOAL_ALTERNATIVES.items()
}
"""The opponents some alternative of each goal names: defeated, they go to the victory area.

Goal 11's lines name piles, not opponents, so under goal 11 no opponent is relevant: the
spec's vectors (`w-wins`, `out-of-turns`) put its defeated opponents on the discard pile,
although the spec's prose lists goal 11 among those where every opponent is relevant. The
vectors are followed (docs/rules/risus-royale.md, ambiguity 28)."""


@dataclass(frozen=True, slots=True)
class Foe:
    """A guard creature or an opponent, as the battle sees it (strength before any bonus)."""

    card: str
    role: Literal["guard", "opponent"]
    name: str
    strength: tuple[int, int, int, int]
    char_class: str | None = None
    race: str | None = None


@dataclass(frozen=True, slots=True)
class Treasure:
    card: str
    name: str
    kind: ItemKind
    against: Against
    suit: int
    number: int

    def fits(self, role: str) -> bool:
        """Whether its C/O mark allows trying it against a foe of this role."""
        return self.against == "both" or (self.against == "creature") == (role == "guard")

    def to_json(self) -> dict[str, object]:
        return {
            "card": self.card,
            "name": self.name,
            "kind": self.kind,
            "against": self.against,
            "suit": CLICHES[self.suit],
            "number": self.number,
        }


def _creature(code: str) -> Foe:
    value, base = VALUE[code[0]], CLICHE_OF_SUIT[code[1]]
    partner = PARTNER[base]
    dice = [0, 0, 0, 0]
    dice[base], dice[partner] = CREATURE_DICE[value]
    name = f"{ADJECTIVE[base]} {ADJECTIVE[partner]} {CREATURES[base][value - 3]}"
    return Foe(code, "guard", name, (dice[0], dice[1], dice[2], dice[3]))


def _opponent(code: str) -> Foe:
    name, strength = OPPONENTS[code[1]][code[0]]
    cliche = CLICHE_OF_SUIT[code[1]]
    dice = tuple(strength if i == cliche else 0 for i in range(4))
    return Foe(code, "opponent", name, dice, CLASSES[cliche], RACES[code[0]])  # type: ignore[arg-type]


def _treasure(code: str) -> Treasure:
    value, suit = VALUE[code[0]], CLICHE_OF_SUIT[code[1]]
    kind, against = TREASURE_KINDS[value]
    return Treasure(code, TREASURE_NAMES[suit][value - 3], kind, against, suit, value)


CREATURE = {code: _creature(code) for code in NUMBER_CODES}
OPPONENT = {code: _opponent(code) for code in OPPONENT_CODES}
TREASURE = {code: _treasure(code) for code in NUMBER_CODES}
