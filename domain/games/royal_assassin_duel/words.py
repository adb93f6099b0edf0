"""Royal Assassin Duel in its own words (domain/presentation.py): each move and effect as a
sentence from the reader's side ("Opponent attacks your ♣ clubs column with 7♥"), every
column's running totals, the royals each side holds, and the ending."""

from __future__ import annotations

from domain.presentation import SUIT_TERMS, Choice, Ending, Panel, Words

VALUES = {**{str(n): n for n in range(2, 10)}, "T": 10, "A": 11, "J": 11, "Q": 12, "K": 13}

WORDS = Words(
    moves={
        "attack": "{mover:seat} [attack|attacks] {mover:rival_of} {column:column} column with "
        "{card:card}",
        "defend": "{mover:seat} [defend your|defends its] {column:column} column with {card:card}",
        "present": "{mover:seat} [present|presents] {card:card_name}",
        "assassinate": "{mover:seat} [send|sends] {card:card_name} to assassinate the top "
        "royal of {mover:rival_of} {column:column} column",
        "discard": "{mover:seat} [put|puts] {card:card} on [your|its] reserve",
        "joker": "{mover:seat} [hang your|hangs its] Joker above {mover:rival_of} {column:column} "
        "column",
        "react": "{mover:seat} [react|reacts] from the reserve",
        "pass": "{mover:seat} [let|lets] the reaction go by",
        "resign": "{mover:seat} [resign|resigns]",
    },
    effects={
        "attack": "",
        "defense": "",
        "react": "{card:card} from {seat:seat_of} reserve goes on {owner:seat_of} "
        "{column:column} column as {role:role}",
        "present": "",
        "discard": "",
        "assassinate": "{card:card_name} kills {target:card_name}; both go to the discard pile",
        "joker": "",
        "joker_returns": "{seat:seat_of} Joker comes back from the {column:column} column",
        "killed": "The top royal of {owner:seat_of} {column:column} column falls: "
        "{cards:cards} to the discard pile",
        "exact_zero": "Exact zero on {owner:seat_of} {column:column} column: {cards:cards} to "
        "the discard pile",
        "reshuffle": "The discard pile is shuffled into a new stock of "
        "{stock_count:count:card} (reshuffle {reshuffles:number})",
        "drew": "{seat:seat} [draw|draws] {count:count:card}",
        "round": "Round {round:number}: {leader:seat} [lead|leads]",
        "game_over": Choice(
            "outcome.result",
            {
                "win": "Game over: {outcome.winner:seat} [win|wins] ({outcome.reason:reason})",
                "draw": "Game over: a draw ({outcome.reason:reason})",
            },
        ),
    },
    terms={
        "column": SUIT_TERMS,
        "role": {"attack": "an attack", "defense": "a defense"},
        "phase": {"turn": "turn", "reaction": "reaction", "over": "game over"},
        "reason": {
            "wipe": "no royal left on one side",
            "resign": "a resignation",
            "exhaustion": "the cards ran out",
        },
    },
    card_values=VALUES,
    panels=(
        Panel(
            "Round",
            (
                "Round {round:number}<: {turn:seat_of} turn>",
                "<{reaction.seat:seat} may react>",
                "Stock: {stock_count:count:card}, discard pile: {discard_count:count:card}, "
                "{reshuffles:count:reshuffle} so far",
            ),
        ),
        Panel("Cards in hand", ("{#:seat}: {@:count:card}",), each="hand_counts.*"),
        Panel(
            "Column totals",
            ("{#0:seat_of} {#1:column} column: {@:stack:royal}",),
            each="players.*.columns.*",
        ),
        Panel("Top of the reserves", ("{#:seat_of} reserve: {reserve:last:card}",), "players.*"),
        Panel("Royals in the columns", ("{#:seat}: {columns.*:sum:royal}",), each="players.*"),
    ),
    ending=Ending(
        results={"win": "won", "draw": "draw"},
        winner="winner",
        reason=Choice(
            "reason",
            {
                "wipe": "{winner:rival} [have|has] no royal left in the columns",
                "resign": "{winner:rival} resigned",
                "exhaustion": "the cards ran out<: {winner:seat} [hold|holds] the higher total "
                "of royals>",
            },
        ),
        score="Royals in the columns: {score:per_seat:number}",
    ),
)
