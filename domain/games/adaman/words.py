"""Adaman in its own words (domain/presentation.py): each move and effect as a sentence
("You take control of The Author ☾∞ with The Sea ≈ and The Mill ≈❦"), what is left to win,
and the ending."""

from __future__ import annotations

from domain.presentation import Choice, Ending, Panel, Words

WORDS = Words(
    moves={
        "control": "{mover:seat} [take|takes] control of {target:card} with {with:cards}",
        "excuse": "{mover:seat} [play|plays] the Excuse<, moving {card:card}>",
        "resign": "{mover:seat} [resign|resigns]",
    },
    effects={
        "deal": "{card:card} is dealt to the {to:text}",
        "control": "{target:card} goes {to:control_to}",
        "excuse": "The Excuse goes to the {to:text}<; {card:card} takes its place>",
        "resign": "",
        "end": "Game over: {result:end}",
    },
    terms={
        "control_to": {"controlled": "under your control", "resources": "to your resources"},
        "end": {
            "won": "every personality is yours",
            "lost": "no move is left",
            "lost_utterly": "the palace is full: your plot is discovered",
        },
    },
    panels=(
        Panel(
            "Still to win",
            (
                "Personalities left: {personalities_left:number}",
                "Stock: {stock_count:count:card}, discard pile: {discard_count:count:card}",
                "Palace: {palace:cards} (a sixth card there loses utterly)",
            ),
        ),
        Panel("Casual play", ("<Undos used: {undos:number}>",)),
    ),
    ending=Ending(
        results={"won": "won", "lost": "lost", "lost_utterly": "lost"},
        reason=Choice(
            "result",
            {
                "won": "every personality is yours",
                "lost": "no move is left",
                "lost_utterly": "a sixth card entered the palace",
            },
        ),
        score=Choice(
            "result",
            {
                "won": "Score {score:number}: the ranks of the cards you control, plus those of "
                "your resources left over",
                "lost": "Score {score:number}: the ranks of the cards you control",
                "lost_utterly": "Score {score:number}: an utter loss scores nothing",
            },
        ),
    ),
)
