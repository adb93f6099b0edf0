"""The Decktet, as data: one row per card, in the canonical order the deal algorithm shuffles.

Source: ../shared/reference/decktet.md (the reference beside this repository; the rules as played
here: docs/rules/adaman.md). Codes are lowercase slugs of the card names without "the".
Ranks are the ones Adaman uses (Ace 1, Crown 10, Pawn 10, Court 10); the Excuse has none.
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS: tuple[str, ...] = ("moons", "suns", "waves", "leaves", "wyrms", "knots")

# code            rank  suits                   kinds                 deck
TABLE = """
ace-moons           1   moons                   ace                   basic
ace-suns            1   suns                    ace                   basic
ace-waves           1   waves                   ace                   basic
ace-leaves          1   leaves                  ace                   basic
ace-wyrms           1   wyrms                   ace                   basic
ace-knots           1   knots                   ace                   basic
author              2   moons,knots             personality           basic
desert              2   suns,wyrms              location              basic
origin              2   waves,leaves            location,event        basic
journey             3   moons,waves             event                 basic
painter             3   suns,knots              personality           basic
savage              3   leaves,wyrms            personality           basic
mountain            4   moons,suns              location              basic
battle              4   wyrms,knots             event                 basic
sailor              4   waves,leaves            personality           basic
discovery           5   suns,waves              event                 basic
forest              5   moons,leaves            location              basic
soldier             5   wyrms,knots             personality           basic
lunatic             6   moons,waves             personality           basic
market              6   leaves,knots            location,event        basic
penitent            6   suns,wyrms              personality           basic
castle              7   suns,knots              location              basic
cave                7   waves,wyrms             location              basic
chance-meeting      7   moons,leaves            event                 basic
betrayal            8   wyrms,knots             event                 basic
diplomat            8   moons,suns              personality           basic
mill                8   waves,leaves            location              basic
darkness            9   waves,wyrms             location              basic
merchant            9   leaves,knots            personality           basic
pact                9   moons,suns              event                 basic
huntress           10   moons                   personality           basic
bard               10   suns                    personality           basic
sea                10   waves                   location              basic
end                10   leaves                  location,event        basic
calamity           10   wyrms                   event                 basic
windfall           10   knots                   event                 basic
watchman           10   moons,wyrms,knots       personality           pawn
light-keeper       10   suns,waves,knots        personality           pawn
borderland         10   waves,leaves,wyrms      location              pawn
harvest            10   moons,suns,leaves       event                 pawn
consul             10   moons,waves,knots       personality           court
island             10   suns,waves,wyrms        location              court
rite               10   moons,leaves,wyrms      event                 court
window             10   suns,leaves,knots       location              court
excuse              -   -                       excuse                excuse
"""


@dataclass(frozen=True, slots=True, eq=False)
class DecktetCard:
    """One Decktet card. Interned: compare by identity, look up by `code`.

    `suit_mask` has bit i set for SUITS[i], so "shares a suit" is one AND.
    """

    code: str
    rank: int
    suits: tuple[str, ...]
    kinds: tuple[str, ...]
    deck: str
    index: int  # canonical position
    suit_mask: int
    is_personality: bool  # of kind "personality": a field, as the rules ask it constantly

    @property
    def is_excuse(self) -> bool:
        return self.deck == "excuse"

    def __repr__(self) -> str:
        return f"DecktetCard({self.code})"


def _parse(table: str) -> tuple[DecktetCard, ...]:
    cards = []
    for index, line in enumerate(line for line in table.strip().splitlines()):
        code, rank, suits, kinds, deck = line.split()
        suit_names = () if suits == "-" else tuple(suits.split(","))
        kind_names = tuple(kinds.split(","))
        mask = sum(1 << SUITS.index(s) for s in suit_names)
        cards.append(
            DecktetCard(
                code,
                0 if rank == "-" else int(rank),
                suit_names,
                kind_names,
                deck,
                index,
                mask,
                "personality" in kind_names,
            )
        )
    return tuple(cards)


CARDS: tuple[DecktetCard, ...] = _parse(TABLE)
BY_CODE: dict[str, DecktetCard] = {c.code: c for c in CARDS}
BASIC: tuple[DecktetCard, ...] = tuple(c for c in CARDS if c.deck == "basic")
PAWNS_AND_COURTS: tuple[DecktetCard, ...] = tuple(c for c in CARDS if c.deck in ("pawn", "court"))
EXTRA_PERSONALITIES: tuple[DecktetCard, ...] = tuple(
    BY_CODE[code] for code in ("watchman", "light-keeper", "consul")
)
EXCUSE: DecktetCard = BY_CODE["excuse"]
