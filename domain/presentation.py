"""Each game's words, declared as data: what a move did, what a view holds and how the game
ended, said in the game's own terms by a client that knows no game.

A game's board layout and deal plan were already data (`Ruleset.board`, `deal_plan`); its
words are too. Each game declares a `Words` (in `domain/games/<game>/words.py`), served by
`GET /v1/rulesets` as the ruleset's `words`, and the web client renders it generically:

- `moves`: a sentence per move type ("{mover:seat} [attack|attacks] the {column:column}
  Pretender"), said of every logged move, a bot's and a forced one's included;
- `effects`: a sentence per effect type (`""` when the move's sentence already says it all);
- `terms`: the game's vocabularies (a column, a cliché, a reason), value -> words;
- `card_values`: what a card is worth by its rank, for the running totals (`sum`, `stack`);
- `panels`: labelled lines of text over the view (running totals, the battle, the goal);
- `ending`: how the outcome says who won, why, and the score.

**Templates.** A template is a string, or a `Choice` of templates by the value at a path.
In a string:

- `{path}`, `{path:format}` or `{path:format:arg}` is a value: `path` is dotted keys into the
  object the template is said of (an effect, a move, the view, a panel's item); `mover` is
  always the seat whose move this is; in a panel, `^path` starts from the view, `@` is the
  item itself and `#0`, `#1`... (`#` for `#0`) the keys (or indexes) of the item's place, also
  usable as a segment of a path (`^character.wounds.#0`). `format` is one of `FORMATS` or the
  name of one of the game's `terms` (default `text`);
- `<...>` is said only when every value inside it is there (not null, not an empty list);
- `[you form|other form]` agrees with the sentence's subject, its first seat value: "You
  attack" but "Opponent attacks".

The template syntax is read and checked in `domain/word_templates.py`, and a game's words are
held to its declared contracts in `domain/word_checks.py`; this module is what a game declares.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from domain.errors import Json


@dataclass(frozen=True)
class Choice:
    """A template chosen by the value at `path` (its JSON text for a boolean or null:
    `"true"`, `"null"`), or `default` for any other value (none: nothing is said)."""

    path: str
    cases: Mapping[str, Template]
    default: Template | None = None

    def to_json(self) -> Json:
        out: Json = {"choose": self.path, "cases": {k: _json(t) for k, t in self.cases.items()}}
        if self.default is not None:
            out["else"] = _json(self.default)
        return out


Template = str | Choice


def _json(template: Template) -> str | Json:
    return template if isinstance(template, str) else template.to_json()


FORMATS: dict[str, str] = {
    "text": "The value in words (`_` as a space).",
    "number": "A number as it is.",
    "count": "A number and its noun, the arg (`card`; `die/dice` when the plural is not an "
    "added s): 1 card, 3 cards.",
    "card": "A card, short: 7♥, K♣, 10♦², The Author ☾∞.",
    "card_name": "A card by its full name: King of Clubs.",
    "cards": "Cards, short, joined: 7♥, 9♠ and K♣ (none for no card).",
    "seat": "A seat as its reader knows it: you, Opponent, Bot (best), Player 2.",
    "seat_of": "A seat's: your, Opponent's.",
    "rival": "The other seat of a game of two, as `seat`.",
    "rival_of": "The other seat's, as `seat_of`.",
    "dice": "A die or a list of dice, as die faces.",
    "cell": "A map cell [row, column], counted from 1: row 2, column 3.",
    "list": "A list, each item in the format the arg names (with its own arg): King and Jack.",
    "last": "A list's last item (a pile's top), in the format the arg names.",
    "per_seat": "A list indexed by seat, each value in the format the arg names: "
    "you: 144 · Opponent: 72.",
    "pairs": "An object's keys and values, each key in the terms the arg names: Wizardry ♠ 3, "
    "Fighting ♣ 2.",
    "sum": "The total value (`card_values`) of the cards of a list (codes, or objects with a "
    "`card`; face-down ones, null, are counted apart), of the entries whose `role` is the "
    "arg if there is one.",
    "stack": "A column of {card, role} entries, bottom first: its topmost entry of the role "
    "the arg names, its value, and the total of each other role above it.",
    "move": "A move, in the game's sentence for it, said of the object's `seat`.",
}
"""Every format a client knows: anything else a template names is one of the game's terms."""

SEAT_FORMATS = frozenset({"seat", "seat_of", "rival", "rival_of"})
NESTING = frozenset({"list", "last", "per_seat"})
"""The formats whose arg is another format (and its own arg)."""


@dataclass(frozen=True)
class Panel:
    """Labelled lines of text over the view: each line a template said of the view, or with
    `each` (a path with `*`) of every item found there, one line per item. A line that says
    nothing is left out, and a panel with no line."""

    label: str
    lines: tuple[Template, ...]
    each: str | None = None

    def to_json(self) -> Json:
        out: Json = {"label": self.label, "lines": [_json(t) for t in self.lines]}
        if self.each is not None:
            out["each"] = self.each
        return out


@dataclass(frozen=True)
class Ending:
    """How the outcome reads. `winner`: the path to the winning seat (a game of several
    seats; null there: a draw). `result`: the path to the result, read through `results`
    (`won`, `lost` or `draw`). `reason` and `score`: templates said of the outcome."""

    result: str | None = "result"
    results: Mapping[str, str] = field(default_factory=lambda: {"won": "won", "lost": "lost"})
    winner: str | None = None
    reason: Template | None = None
    score: Template | None = None

    def to_json(self) -> Json:
        return {
            "result": self.result,
            "results": dict(self.results),
            "winner": self.winner,
            "reason": None if self.reason is None else _json(self.reason),
            "score": None if self.score is None else _json(self.score),
        }


SUIT_TERMS: dict[str, str] = {
    "clubs": "♣ clubs",
    "diamonds": "♦ diamonds",
    "hearts": "♥ hearts",
    "spades": "♠ spades",
}
"""The four suits, named as every game names them: a game's `terms` may share them."""

STANDARD_VALUES: dict[str, int] = {
    **{str(n): n for n in range(2, 10)},
    "T": 10,
    "A": 1,
    "J": 11,
    "Q": 12,
    "K": 13,
}
"""The standard ranks' face values (a game changes what it values otherwise)."""

ENGINE_MOVES: dict[str, Template] = {
    "undo": "{mover:seat} [take|takes] back the last move",
}
"""The words of the moves the engine offers every game that has them (a solitaire's undo)."""

ENGINE_EFFECTS: dict[str, Template] = {
    "forced": "Forced: {move:move}",
    "undo": "Taken back: {move:move}",
}
"""The words of the effects the engine sets off in every game (domain/contracts.py)."""


@dataclass(frozen=True)
class Words:
    """One game's words (see the module's docstring). A game that declares none is shown in
    generic words: each move and effect by its type and fields."""

    moves: Mapping[str, Template] = field(default_factory=dict)
    effects: Mapping[str, Template] = field(default_factory=dict)
    terms: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    card_values: Mapping[str, int] = field(default_factory=dict)
    panels: tuple[Panel, ...] = ()
    ending: Ending = field(default_factory=Ending)

    @property
    def every_move(self) -> dict[str, Template]:
        return {**ENGINE_MOVES, **self.moves}

    @property
    def every_effect(self) -> dict[str, Template]:
        return {**ENGINE_EFFECTS, **self.effects}

    def templates(self) -> Iterator[tuple[str, Template]]:
        """Every template, named by where it is (`moves.attack`, `panels.0.lines.1`...)."""
        for kind, template in self.every_move.items():
            yield f"moves.{kind}", template
        for kind, template in self.every_effect.items():
            yield f"effects.{kind}", template
        for index, panel in enumerate(self.panels):
            for line, template in enumerate(panel.lines):
                yield f"panels.{index}.lines.{line}", template
        for name in ("reason", "score"):
            template = getattr(self.ending, name)
            if template is not None:
                yield f"ending.{name}", template

    def to_json(self) -> Json:
        return {
            "moves": {k: _json(t) for k, t in self.every_move.items()},
            "effects": {k: _json(t) for k, t in self.every_effect.items()},
            "terms": {name: dict(values) for name, values in self.terms.items()},
            "card_values": dict(self.card_values),
            "panels": [panel.to_json() for panel in self.panels],
            "ending": self.ending.to_json(),
        }


# ---- the JSON Schema of `words`, as GET /v1/rulesets serves it ----------------------------------

_TEMPLATE_REF: Json = {"$ref": "#/components/schemas/WordsTemplate"}
WORDS_COMPONENTS: dict[str, Json] = {
    "WordsTemplate": {
        "title": "WordsTemplate",
        "description": "A sentence with `{path:format:arg}` values, `<optional parts>` and "
        '`[you form|other form]` verbs (docs/web-client.md, "A game\'s words"), or a choice '
        "of such sentences by the value at a path.",
        "oneOf": [{"type": "string"}, {"$ref": "#/components/schemas/WordsChoice"}],
    },
    # Named, not inline in WordsTemplate's `oneOf`: a union branch that refers back to its
    # union made openapi-python-client drop WordsTemplate, Words and GET /v1/rulesets' answer.
    "WordsChoice": {
        "title": "WordsChoice",
        "description": "A choice of sentences by the value at the path `choose`: its case, "
        "else `else`.",
        "type": "object",
        "properties": {
            "choose": {"type": "string"},
            "cases": {"type": "object", "additionalProperties": _TEMPLATE_REF},
            "else": _TEMPLATE_REF,
        },
        "required": ["choose", "cases"],
        "additionalProperties": False,
    },
    "Words": {
        "title": "Words",
        "type": "object",
        "description": "The game's own words, declared by the game (domain/presentation.py): a "
        "sentence per move and effect type, its vocabularies, card values for running totals, "
        "labelled panels of text over the view, and how its outcome reads. A client renders "
        "them knowing no game.",
        "properties": {
            "moves": {"type": "object", "additionalProperties": _TEMPLATE_REF},
            "effects": {"type": "object", "additionalProperties": _TEMPLATE_REF},
            "terms": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": {"type": "string"},
                },
            },
            "card_values": {"type": "object", "additionalProperties": {"type": "integer"}},
            "panels": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "label": {"type": "string"},
                        "lines": {"type": "array", "items": _TEMPLATE_REF},
                        "each": {"type": "string"},
                    },
                    "required": ["label", "lines"],
                    "additionalProperties": False,
                },
            },
            "ending": {
                "type": "object",
                "properties": {
                    "result": {"type": ["string", "null"]},
                    "results": {
                        "type": "object",
                        "additionalProperties": {"enum": ["won", "lost", "draw"]},
                    },
                    "winner": {"type": ["string", "null"]},
                    "reason": {"anyOf": [_TEMPLATE_REF, {"type": "null"}]},
                    "score": {"anyOf": [_TEMPLATE_REF, {"type": "null"}]},
                },
                "required": ["result", "results", "winner", "reason", "score"],
                "additionalProperties": False,
            },
        },
        "required": ["moves", "effects", "terms", "card_values", "panels", "ending"],
        "additionalProperties": False,
    },
}
"""`Words` and its templates as OpenAPI components (handlers/http/openapi.py adds them)."""


def case_key(value: object) -> str:
    """How a choice's cases name a value: its JSON text for a boolean or null."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    return str(value)
