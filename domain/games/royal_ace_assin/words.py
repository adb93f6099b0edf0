"""Royal Ace-assin in its own words (domain/presentation.py): each move and effect as a
sentence from the reader's side, the reveal card by card ("Opponent flips your 9♥ under the
King"), each figurehead's running total, and the ending."""

from __future__ import annotations

from domain.presentation import SUIT_TERMS, Choice, Ending, Panel, Words

VALUES = {**{str(n): n for n in range(2, 10)}, "T": 10}
"""Supporters are worth their face value; Aces and figureheads nothing."""

FIGUREHEADS = {"king": "King", "queen": "Queen", "jack": "Jack"}
_SUBMITTED = "{#:seat}: {@:submitted}"

WORDS = Words(
    moves={
        "choose_suit": "{mover:seat} [choose|chooses] {suit:suit}",
        "place": "{mover:seat} [place|places] three supporters face down<: {cards.king:card} "
        "under the King, {cards.queen:card} under the Queen, {cards.jack:card} under the Jack>",
        "flip": "{mover:seat} [seal|seals] a flip<, pointing at {mover:rival_of} "
        "{targets:list:figurehead}>",
        "assassinate": "{mover:seat} [send your|sends its] assassin against {mover:rival_of} "
        "{target:figurehead}",
        "resign": "{mover:seat} [resign|resigns]",
    },
    effects={
        "suit_chosen": "",
        "placed": "",
        "sealed": "",
        "revealed": "{seat:seat_of} {card:card} under the {figurehead:figurehead} turns face up",
        "flipped": "{by:seat} [flip|flips] {seat:seat_of} {card:card} under the "
        "{figurehead:figurehead}",
        "gambit": "The gambit: exposed totals {exposed:per_seat:number}; {first_assassin:seat} "
        "[send|sends] the first assassin",
        "assassinated": "{seat:seat_of} assassin kills {card:card_name}",
        "resigned": "",
        "game_over": "Game over: every face-down supporter turns face up<; totals "
        "{outcome.totals:per_seat:pairs:figurehead}>; {outcome.winner:seat} [win|wins]<; "
        "{outcome.ruler:card_name} rules>",
    },
    terms={
        "suit": SUIT_TERMS,
        "figurehead": FIGUREHEADS,
        "phase": {
            "suits": "choosing suits",
            "place": "placing supporters",
            "flip": "flipping",
            "gambit": "the gambit",
            "over": "over",
        },
        "submitted": {"true": "done", "false": "to play"},
    },
    card_values=VALUES,
    panels=(
        Panel(
            "Turn",
            (
                "<Turn {turn:number}: >{phase:phase}",
                "<{first_assassin:seat} [send|sends] the first assassin>",
            ),
        ),
        Panel(
            "This step",
            (Choice("^phase", {"place": _SUBMITTED, "flip": _SUBMITTED}),),
            each="submitted.*",
        ),
        Panel("Exposed totals", ("{#:seat}: {exposed:number}",), each="sides.*"),
        Panel(
            "Figurehead totals",
            (
                Choice(
                    "alive",
                    {"false": "{#0:seat_of} {#1:figurehead}: dead"},
                    "{#0:seat_of} {#1:figurehead}: {supporters:sum}",
                ),
            ),
            each="sides.*.figureheads.*",
        ),
    ),
    ending=Ending(
        winner="winner",
        reason=Choice(
            "decided_by",
            {
                "total": "{ruler:card_name} has the highest total",
                "rank": "{ruler:card_name} wins a tie on totals by rank",
                "tiebreak": "{ruler:card_name} wins the tie-break",
                "resignation": "{winner:rival} resigned",
            },
        ),
        score="<Totals (each living figurehead's supporters at face value, Aces 0): "
        "{totals:per_seat:pairs:figurehead}>",
    ),
)
