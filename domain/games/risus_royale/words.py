"""Risus Royale in its own words (domain/presentation.py): each move and roll as a sentence,
clichés by their names ("Wizardry ♠"), the character, the battle, the last roll and the
treasures as text, and the ending."""

from __future__ import annotations

from domain.presentation import Choice, Ending, Panel, Template, Words

CLICHES = {
    "spades": "Wizardry ♠",
    "clubs": "Fighting ♣",
    "diamonds": "Thievery ♦",
    "hearts": "Cleric-type stuff ♥",
}

ROLLS: dict[str, Template] = {
    "escape": "Escape in {cliche:cliche}: {player:dice} = {player_total:number} against "
    "{foe:dice} = {foe_total:number}: {success:escaped}",
    "ability": "Ability roll for {item:card}: {dice:dice} = {total:number}, {needed:number} "
    "needed: {success:works}",
    "round": "Round in {cliche:cliche}: {player:dice} = {player_total:number} against "
    "{foe:dice} = {foe_total:number}<, {ignored:dice} ignored>: {winner:round}",
}

WORDS = Words(
    moves={
        "create": "{mover:seat} [create|creates] a character: {cliches:pairs:cliche}",
        "enter": "{mover:seat} [step|steps] onto the pile at {pile:cell}",
        "escape": "{mover:seat} [try|tries] to escape",
        "declare": "{mover:seat} [try|tries] the treasure {item:card}",
        "use": "{mover:seat} [use|uses] the treasure {item:card}",
        "fight": "{mover:seat} [fight|fights]",
        "round": "{mover:seat} [fight|fights] a round in {cliche:cliche}",
        "retreat": "{mover:seat} [retreat|retreats] to the pile at {to:cell}",
        "move": "{mover:seat} [move|moves] to the pile at {to:cell}",
        "resign": "{mover:seat} [resign|resigns]",
    },
    effects={
        "roll": Choice("kind", ROLLS),
        "flip": "A guard turns up on the pile at {pile:cell}: {card:card}",
        "reveal": "An opponent turns up on the pile at {pile:cell}: {card:card}",
        "treasure": "Treasure won on the pile at {pile:cell}: {card:card}",
        "cut_off": "The pile at {pile:cell} is cut off: {cards:cards} discarded",
        "destroyed": "Used up: {items:cards}",
        "overwhelmed": "The foe is overwhelmed in {cliche:cliche}",
        "won_battle": "Battle won against {foe:card}",
        "lost_battle": "Battle lost against {foe:card}",
        "end": "Game over: {mover:seat} {result:text} ({reason:reason})",
    },
    terms={
        "cliche": CLICHES,
        "escaped": {"true": "you get away", "false": "you must fight"},
        "works": {"true": "it works", "false": "it fails"},
        "round": {"player": "you win the round", "foe": "the foe wins the round"},
        "reason": {
            "goal": "the goal is met",
            "resigned": "resigned",
            "cornered": "cornered, with nowhere to go",
            "out_of_turns": "out of turns: the game ends after the 100th arrival's battles "
            "unless the goal is met",
            "goal_unreachable": "the goal can no longer be met",
        },
        "kind": {
            "plus": "one more die to you",
            "minus": "one die less to the foe",
            "x": "the foe's highest die ignored",
            "w": "wins the battle",
        },
        "against": {
            "creature": "against creatures",
            "opponent": "against opponents",
            "both": "against anyone",
        },
        "escape_tried": {"true": "Escape already tried", "false": ""},
    },
    panels=(
        Panel("Goal", ("Goal {goal.number:number}: {goal.text:text}",)),
        Panel(
            "Your character",
            ("{#:cliche}: {@:count:die/dice}<, {^character.wounds.#:count:wound}>",),
            each="character.cliches.*",
        ),
        Panel(
            "Battle",
            (
                "{foe.name:text} ({foe.card:card}), {foe.role:text}",
                "Its dice: {foe_dice:pairs:cliche}",
                "Your dice: {player_dice:pairs:cliche}",
                "<Plus: {plus:card}>",
                "<Minus: {minus:card}>",
                "<X: {x:cards}>",
                "<Tried: {tried:cards}>",
                "{escape_tried:escape_tried}",
                "Rounds fought: {rounds:number}",
            ),
            each="battle",
        ),
        Panel("Last roll", (Choice("kind", ROLLS),), each="last_roll"),
        Panel(
            "Treasures",
            ("{name:text} ({card:card}): {kind:kind}, {against:against}",),
            each="treasures.*",
        ),
        Panel(
            "Progress",
            (
                "Arrivals: {turn:number} of 100 (the game is lost after the 100th arrival's "
                "battles unless the goal is met)",
                "Foes defeated: {defeated:number}, battles lost: {lost_battles:number}",
                "Dice rolled: {dice_rolled:number}",
            ),
        ),
        Panel("Casual play", ("<Undos used: {undos:number}>",)),
    ),
    ending=Ending(
        reason="{reason:reason}",
        score=Choice(
            "result",
            {
                "won": "Score {score:number}: 200 for the win, 10 for each foe defeated "
                "({defeated:number}) and 1 for each treasure held ({treasures:number})"
            },
            "Score {score:number}: 10 for each foe defeated ({defeated:number}) and 1 for each "
            "treasure held ({treasures:number})",
        ),
    ),
)
