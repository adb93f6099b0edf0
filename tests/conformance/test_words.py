"""Every game's words (domain/presentation.py) against what the game declares and does.

A client says each move, effect, panel and ending in the game's own words, rendering the
templates the game serves in `GET /v1/rulesets` (`words`). These tests hold each registered
game's templates to its declarations (every move and effect type has a sentence, every value a
template names exists in the schema of what it is said of, in a form its format can say, every
term covers its values, every panel reads the view), and to random games: each value said
outside an optional `<...>` part is there in every move, effect, view and outcome met.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.contracts import moves_schema
from domain.presentation import Choice, Panel, Template, Words, case_key
from domain.registry import GAMES
from domain.word_checks import words_problems
from domain.word_templates import placeholders, template_problems
from tests.conformance.test_games import draw_deal, seats_of

GAME_IDS = sorted(GAMES)


def problems(game_id: str, words: Words | None = None) -> list[str]:
    ruleset = GAMES[game_id].ruleset
    return words_problems(
        ruleset.words if words is None else words,
        moves=moves_schema(ruleset.moves_offered),
        effects=ruleset.effect_schemas,
        view=ruleset.view_schema,
        outcome=ruleset.outcome_schema,
    )


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_declares_its_words_and_they_fit_its_declarations(game_id):
    words = GAMES[game_id].ruleset.words
    assert words != Words(), f"{game_id} declares no words"
    assert words.panels, f"{game_id} shows no panel of its view in words"
    assert problems(game_id) == []


def test_the_check_finds_what_does_not_fit():
    """Each kind of fault, made on purpose in a real game's words, is named."""
    words = GAMES["royal-assassin"].ruleset.words
    broken = replace(
        words,
        moves={k: v for k, v in words.moves.items() if k != "draw"},
        effects={**words.effects, "attack": "{card:seat} {nope} <{column:joker_to}", "x": ""},
        terms={**words.terms, "column": {"clubs": "♣"}},
        panels=(
            Panel("P", ("{#:column} {value:cards}",), each="pretenders.*"),
            Panel("Q", (Choice("status", {"sleeping": "z"}),)),
            Panel("R", ("{x}",), each="nowhere.*"),
        ),
    )
    found = problems("royal-assassin", broken)
    for expected in (
        "moves.draw: no sentence",
        "effects.x: not an effect",
        "effects.attack: an unclosed <",
        "effects.attack: {card:seat}: seat of a string",
        "effects.attack: {nope:text}: no such value",
        "effects.attack: {column:joker_to}: terms joker_to say nothing of clubs, diamonds, "
        "hearts, spades",
        "moves.attack: {column:column}: terms column say nothing of diamonds, hearts, spades",
        "panels.0 (P).lines.0: {value:cards}: cards of a integer",
        "panels.1 (Q).lines.0: choice on status: it is never sleeping",
        "panels.2 (R): each nowhere.*: no such value",
    ):
        assert expected in found, (expected, found)


def test_template_syntax():
    assert template_problems("{mover:seat} [draw|draws] <{card:card}>") == []
    assert template_problems("[draws]") == ["a [you form|other form] needs both forms"]
    assert template_problems("<a <b>>") == ["optional parts do not nest", "a stray >"]
    assert template_problems("{x:per_seat}") == ["per_seat needs a format in {x:per_seat}"]
    assert template_problems("{x:list:cliche}", {"cliche": {}}) == []
    assert template_problems("{a b}") == ["a bad path in {a b:text}"]


# ---- the words against random games --------------------------------------------------------

OPTIONAL = re.compile(r"<[^<>]*>")


def said(template: Template, value: dict[str, Any]) -> list[str]:
    """The paths a template says outside its optional parts, of the case `value` takes."""
    if isinstance(template, Choice):
        picked = lookup(value, template.path)
        case = template.cases.get(case_key(picked), template.default)
        return [] if case is None else said(case, value)
    return [p.path for p in placeholders(OPTIONAL.sub("", template))]


MISSING = object()


def lookup(value: Any, path: str) -> Any:
    for segment in path.split("."):
        if isinstance(value, dict):
            value = value.get(segment, MISSING)
        elif isinstance(value, list) and segment.isdigit() and int(segment) < len(value):
            value = value[int(segment)]
        else:
            return MISSING
        if value is MISSING:
            return MISSING
    return value


def check_said(template: Template, value: dict[str, Any], what: str) -> None:
    for path in said(template, value):
        if path == "mover" or path.startswith(("#", "@", "^")):
            continue
        found = lookup(value, path)
        assert found is not MISSING and found is not None, f"{what}: {path} is not there"


def check_panels(words: Words, view: dict[str, Any], what: str) -> None:
    """Each panel line without `each` says only what the view holds (an `each` line is said
    of items that are there by construction)."""
    for panel in words.panels:
        if panel.each is None:
            for line in panel.lines:
                check_said(line, view, f"{what}: panel {panel.label}")


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_what_the_words_say_is_there_in_random_games(game_id, data):
    ruleset, seed, options, picks = draw_deal(data, game_id)
    words = ruleset.words
    state = ruleset.start(seed, options)
    for step in range(400):
        for seat in seats_of(ruleset):
            check_panels(words, ruleset.view(state, seat), f"{game_id} view of {seat}")
        if ruleset.is_over(state):
            break
        seat = ruleset.to_move(state)[0]
        legal = ruleset.legal_moves(state, seat)
        real = [m for m in legal if m["type"] != "resign"]
        pick = picks[step] if step < len(picks) else step
        move = real[pick % len(real)] if real and pick % 40 else {"type": "resign"}
        check_said(words.every_move[move["type"]], move, f"{game_id} move {move['type']}")
        state, effects = ruleset.apply(state, seat, move)
        for effect in effects:
            template = words.every_effect[effect["type"]]
            check_said(template, effect, f"{game_id} effect {effect['type']}")
            if effect["type"] == "forced":
                forced = effect["move"]
                check_said(words.every_move[forced["type"]], forced, f"{game_id} forced move")
    outcome = ruleset.outcome(state)
    if outcome is not None:
        for template in (words.ending.reason, words.ending.score):
            if template is not None:
                check_said(template, outcome, f"{game_id} outcome")
