"""Royal Assassin in its own words (domain/presentation.py): each move and effect as a
sentence, the Pretenders' arithmetic and the top of the reserve as text, and the ending."""

from __future__ import annotations

from domain.presentation import SUIT_TERMS, Choice, Ending, Panel, Words

VALUES = {**{str(n): n for n in range(2, 10)}, "T": 10, "A": 11, "J": 11, "Q": 12, "K": 13}

WORDS = Words(
    moves={
        "draw": "{mover:seat} [turn|turns] the top card of the stock",
        "attack": "{mover:seat} [attack|attacks] the {column:column} Pretender with the current "
        "card",
        "reserve": "{mover:seat} [put|puts] the current card on the reserve",
        "continue": "{mover:seat} [continue|continues] the attack on the {column:column} "
        "Pretender from the reserve",
        "joker": "{mover:seat} [place|places] a Joker above the {column:column} column",
        "resign": "{mover:seat} [resign|resigns]",
    },
    effects={
        "draw": "Turned up: {card:card}",
        "reserve": "{card:card} goes on top of the reserve",
        "attack": "{card:card} attacks {target:card_name}: strength {strength:number} left",
        "continue": "{card:card} from the reserve attacks {target:card_name}: strength "
        "{strength:number} left",
        "defense": "{card:card} from the reserve defends {target:card_name}: strength "
        "{strength:number}",
        "joker": "{card:card_name} goes above the {column:column} column, {from:joker_from}",
        "royal": "{card:card_name} arrives in the {column:column} column",
        "kill": "{royal:card_name} is killed (attack {attack:number} against defense "
        "{defense:number}): {cards:cards} to the discard pile<; the Joker goes "
        "{joker_to:joker_to}>",
        "cancel": "Attack {attack:number} and defense {defense:number} on {royal:card_name} "
        "cancel out: {cards:cards} to the discard pile",
        "recycle": "The reserve goes back under the stock: {cards:count:card}",
        "resign": "",
        "end": "{result:end}",
    },
    terms={
        "column": SUIT_TERMS,
        "joker_from": {
            "hand": "from your hand",
            "current": "the current card",
            "reserve": "from the reserve",
        },
        "joker_to": {"discard": "to the discard pile", "hand": "back to your hand"},
        "end": {
            "won": "No royal is left: the throne is yours",
            "lost": "No move is left: a Pretender takes the throne",
        },
    },
    card_values=VALUES,
    panels=(
        Panel("Top of the reserve", ("{reserve:last:card}",)),
        Panel(
            "Pretenders",
            (
                "<{#:column}: {card:card_name} {value:number}, attack {attack:number}, defense "
                "{defense:number}: strength {strength:number}>",
            ),
            each="pretenders.*",
        ),
        Panel(
            "Cards",
            (
                "Stock: {stock_count:count:card}, discard pile: {discard_count:count:card}",
                "Jokers in hand: {jokers.in_hand:cards}",
            ),
        ),
        Panel("Casual play", ("<Undos used: {undos:number}>",)),
    ),
    ending=Ending(
        reason=Choice(
            "result",
            {
                "won": "every royal is dead: the throne is yours",
                "lost": Choice(
                    "ruler",
                    {"joker": "the Joker takes the throne"},
                    "<{ruler:card_name} takes the throne>",
                ),
            },
        ),
        score=Choice(
            "result",
            {
                "won": "Score {score:number}: 200 for the win, plus the royals killed (Jack 11, "
                "Queen 12, King 13) and 1 for each card left in the stock",
                "lost": "Score {score:number}: the royals killed (Jack 11, Queen 12, King 13; "
                "at most 144, and any win scores over 200)",
            },
        ),
    ),
)
