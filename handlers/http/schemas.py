"""Marshmallow schemas: they validate request bodies and, through apispec, document every body.

Request schemas refuse unknown fields and loose types (an integer must be a JSON integer, not
`1.0`, `"1"` or `true`). Response schemas are documentation: the handlers return plain JSON
built by the service.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from domain.capabilities import AnyRuleset
from domain.deal import SEED_PATTERN
from domain.options import OptionSpec
from domain.registry import GAMES
from domain.service import GAME_ID

SEED_REGEX = f"^{SEED_PATTERN.pattern}$"  # the domain's rule, documented in the spec
FROM_GAME = fields.String(
    validate=validate.Regexp(f"^{GAME_ID.pattern}$"),
    metadata={
        "description": "Deal the same game as this finished one (its ruleset, options and "
        "seed): a shared deal, with the seed public from the start.",
    },
)
EXAMPLE_RULESET = next(iter(GAMES))  # the first game registered illustrates the documentation


class StrictInteger(fields.Integer):
    """A JSON integer and nothing else: marshmallow's strict mode still lets booleans in."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError("Not a valid integer.")
        result: int = super()._deserialize(value, attr, data, **kwargs)
        return result


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


# ---- requests -------------------------------------------------------------------------------


class CreateGameRequest(StrictSchema):
    ruleset = fields.String(required=True, metadata={"example": EXAMPLE_RULESET})
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={
            "description": "Ruleset options; omitted ones take their defaults.",
            "example": {"recycle_reserve": True},
        },
    )
    seed = fields.String(
        validate=validate.Regexp(SEED_REGEX),
        metadata={
            "description": "Choose the seed to share a deal: it is then visible to everyone "
            "from the start. Omit it for a secret seed, revealed when the game is over.",
            "example": "daily-2026-11-22",
        },
    )
    from_game = FROM_GAME
    seats = fields.List(
        fields.Nested(lambda: SeatRequest()),
        validate=validate.Length(min=1, max=8),
        metadata={
            "description": "One entry per seat (default: the ruleset's minimum, all human). "
            "The creator takes the first human seat; every other human seat gets an invite.",
            "example": [{"player": "human"}, {"player": "bot", "policy": "best"}],
        },
    )


class SeatRequest(StrictSchema):
    player = fields.String(required=True, validate=validate.OneOf(["human", "bot"]))
    policy = fields.String(
        validate=validate.Length(min=1, max=40),
        metadata={"description": "A bot seat's policy (the ruleset's `policies`; default best)."},
    )


class JoinRequest(StrictSchema):
    invite = fields.String(
        required=True,
        validate=validate.Length(min=1, max=200),
        metadata={"description": "The seat's invite, from the create response."},
    )


class ReadGameQuery(StrictSchema):
    wait = fields.Float(
        validate=validate.Range(min=0, max=25),
        metadata={
            "description": "Long-poll: with If-None-Match, answer as soon as the version "
            "differs, or 304 after this many seconds (at most 25)."
        },
    )


class ListGamesQuery(StrictSchema):
    status = fields.String(
        required=True,
        validate=validate.OneOf(["finished"]),
        metadata={"description": "Only finished games are listed."},
    )
    ruleset = fields.String(metadata={"description": "Only this ruleset's games."})
    limit = fields.Integer(
        load_default=20,
        validate=validate.Range(min=1, max=100),
        metadata={"description": "Games per page (1-100)."},
    )
    cursor = fields.String(
        validate=validate.Length(max=1000),
        metadata={"description": "The `cursor` of the previous page, as it came."},
    )


class PlayerRequest(StrictSchema):
    name = fields.String(
        required=True,
        metadata={
            "description": "1-24 printable characters, trimmed, at least one of them visible "
            "(not only spaces, marks or blank fillers), no `#`; shown with `#` and an "
            "8-character suffix.",
            "example": "Anne",
            "minLength": 1,
            # 1-24 characters once trimmed, the first and last not blank, no `#`.
            "pattern": r"^\s*[^\s#](?:[^#]{0,22}[^\s#])?\s*$",
        },
    )


class LeaderboardQuery(StrictSchema):
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    cursor = fields.String(validate=validate.Length(max=1000))


class ReplayQuery(StrictSchema):
    at = fields.Integer(
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "The step: 0 is the deal, k the position after k events."},
    )


class MoveRequest(StrictSchema):
    version = StrictInteger(
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "The number of moves the client has seen.", "example": 0},
    )
    move = fields.Dict(
        keys=fields.String(),
        required=True,
        metadata={
            "description": "A move of the game's ruleset, as listed in the view's legal_moves.",
            "example": {"type": "attack", "column": "hearts"},
        },
    )


# ---- responses ------------------------------------------------------------------------------


# A string field whose metadata says `"x-enum": "statuses"` (or results, reasons) is one of a
# closed set that the games declare (each game's view `status`, its outcome's `result` and
# `reason`): handlers/http/openapi.py writes the set out as the field's `enum` when it builds the
# spec, from the games registered then, so a new game needs no line here.


def ref(name: str) -> dict[str, Any]:
    """A reference to a component that handlers/http/openapi.py declares as plain JSON Schema
    (moves, views, outcomes: made from the games' own declarations, not from marshmallow)."""
    return {"$ref": f"#/components/schemas/{name}"}


def ref_field(name: str, description: str = "", *, nullable: bool = False, **kw: Any) -> Any:
    """A response field documented by a component of its own (apispec copies the metadata)."""
    # apispec copies only schema keywords from metadata: a lone `$ref` goes in an `allOf`.
    schema = {"anyOf" if nullable else "allOf": [ref(name)] + ([{"type": "null"}] * nullable)}
    meta = {**schema, **({"description": description} if description else {})}
    return fields.Raw(allow_none=nullable, metadata=meta, **kw)


def list_field(name: str, description: str = "", **kw: Any) -> Any:
    """A list of a component's items."""
    meta = {"description": description} if description else {}
    return fields.List(fields.Raw(metadata={"allOf": [ref(name)]}), metadata=meta, **kw)


OPTIONS_DESCRIPTION = "The game's options, every one with its value (defaults filled in)."


class Game(Schema):
    id = fields.String(required=True, metadata={"example": "3q2t0Jx8u1kZbH9sWcR4Ag"})
    ruleset = fields.String(required=True, metadata={"example": EXAMPLE_RULESET})
    options = ref_field("Options", OPTIONS_DESCRIPTION, required=True)
    version = fields.Integer(required=True, metadata={"description": "Moves played so far."})
    status = fields.String(required=True, metadata={"example": "playing", "x-enum": "statuses"})
    seed_commitment = fields.String(
        required=True,
        metadata={"description": "Hex SHA-256 of the seed, published before play."},
    )
    seed_known = fields.Boolean(
        required=True, metadata={"description": "True when the client chose the seed."}
    )
    created_at = fields.String(required=True, metadata={"example": "2026-11-22T03:25:59.123Z"})
    outcome = ref_field(
        "Outcome", "Null while playing; at least {result, score} once over.",
        nullable=True, required=True,
    )  # fmt: skip
    result = ref_field(
        "Result", "Null while playing; how it ended in the words every game shares.",
        nullable=True, required=True,
    )  # fmt: skip
    seed = fields.String(
        metadata={"description": "Present only when the client chose it or the game is over."}
    )
    seats = fields.List(
        fields.Nested(lambda: SeatInfo()),
        required=True,
        metadata={"description": "Each seat: human or bot, and whether it has been joined."},
    )
    from_game = fields.String(metadata={"description": "The game whose deal this one replays."})
    daily = fields.Nested(
        lambda: DailyTag(),
        metadata={"description": "A daily challenge's game: its day and its player's name."},
    )
    share = fields.Nested(
        lambda: Share(),
        metadata={"description": "Once the game is over and its seed public: how to share it."},
    )
    rematch = fields.Nested(
        lambda: Rematch(),
        metadata={
            "description": "Once a seat of this finished game has asked for a rematch "
            "(rematchGame): the new game, same seats, new deal. Absent before."
        },
    )


class DailyTag(Schema):
    date = fields.String(required=True, metadata={"example": "2026-11-22"})
    name = fields.String(required=True, metadata={"example": "Anne#1a2b3c4d"})


class SameDeal(Schema):
    """The body of POST /v1/games that deals this game again."""

    ruleset = fields.String(required=True)
    from_game = fields.String(required=True)


class Share(Schema):
    record = fields.String(
        required=True, metadata={"description": "The record's URL: download it and verify it."}
    )
    seed = fields.String(required=True)
    same_deal = fields.Nested(
        SameDeal,
        metadata={"description": "A solitaire only: POST it to /v1/games to play the same deal."},
    )


class Rematch(Schema):
    game_id = fields.String(required=True, metadata={"description": "The rematch's id."})
    game = fields.String(
        required=True,
        metadata={
            "description": "The rematch to read. Another seat takes its seat there with "
            "rematchGame, or joinSeat with its token of this game as the invite.",
            "example": "/v1/games/Zb9Q4sWcR4Agq0Vh3lJx8u1k",
        },
    )


class SeatInfo(Schema):
    seat = fields.Integer(required=True)
    player = fields.String(required=True, metadata={"example": "human"})
    policy = fields.String(metadata={"description": "A bot seat's policy."})
    joined = fields.Boolean(required=True)


class Invite(Schema):
    seat = fields.Integer(required=True, metadata={"example": 1})
    invite = fields.String(
        required=True, metadata={"description": "One-time secret: give it to that seat's player."}
    )
    join = fields.String(required=True, metadata={"example": "/v1/games/3q2t0Jx8/seats/1"})


View = ref_field(
    "View",
    "Everything the seat may see (the ruleset's view); never the stock order, another "
    "seat's cards or an unrevealed seed.",
    required=True,
)
EFFECTS_DESCRIPTION = (
    "What the move set off, in order (cards drawn, defenses pulled, kills, cancels, forced "
    "moves), for clients to animate."
)


class CreatedGame(Schema):
    game = fields.Nested(Game, required=True)
    token = fields.String(
        required=True,
        metadata={"description": "Your seat's secret: send it as `Authorization: Bearer <token>`."},
    )
    seat = fields.Integer(required=True, metadata={"description": "Your seat (the first human)."})
    invites = fields.List(
        fields.Nested(Invite),
        required=True,
        metadata={"description": "One per other human seat (empty for a solitaire)."},
    )
    view = View
    effects = list_field(
        "Effect",
        "Only when bots moved first (a bot in seat 0): their moves and what they set off.",
    )


class JoinedSeat(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "The seat's secret."})
    game = fields.Nested(Game, required=True)
    view = View


class GameWithView(Schema):
    game = fields.Nested(Game, required=True)
    view = View


class MoveResult(Schema):
    game = fields.Nested(Game, required=True)
    view = View
    effects = list_field("Effect", EFFECTS_DESCRIPTION, required=True)


class LoggedMove(Schema):
    seq = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    move = ref_field(
        "LoggedMoveBody",
        "The move, whole or, while the game is played, as the requester may see it.",
        required=True,
    )
    at = fields.String(required=True)
    hash = fields.String(
        required=True,
        metadata={
            "description": "SHA-256(previous hash + canonical JSON of {seq, seat, move, salt}) "
            "(format 2; format 1 records hash {seq, seat, move}): docs/record-format.md."
        },
    )
    salt = fields.String(
        metadata={
            "description": "The move's salt (64 hex), present when the requester sees the "
            "move whole: a move shown in part (a face-down placement, a sealed flip) comes "
            "without it, so its hash cannot be tested against guesses. Absent in format 1."
        }
    )


class MoveLog(Schema):
    moves = fields.List(fields.Nested(LoggedMove), required=True)


class Record(Schema):
    """docs/record-format.md: everything needed to re-derive and check the game."""

    format = fields.String(
        required=True,
        metadata={
            "example": "royal-court-record/2",
            "description": "royal-court-record/2 (salted chain), or /1 for games stored before.",
        },
    )
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    options = ref_field("Options", OPTIONS_DESCRIPTION, required=True)
    seed_commitment = fields.String(required=True)
    seed = fields.String(
        metadata={"description": "Present when the client chose it or the game is over."}
    )
    created_at = fields.String(required=True)
    from_game = fields.String(metadata={"description": "The game whose deal this one replays."})
    moves = fields.List(fields.Nested(LoggedMove), required=True)
    status = fields.String(required=True, metadata={"x-enum": "statuses"})
    outcome = ref_field("Outcome", nullable=True, required=True)


class VerifyProblem(Schema):
    seq = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Null: the record itself."}
    )
    field = fields.String(required=True)
    expected = fields.Raw(required=True, allow_none=True)
    found = fields.Raw(required=True, allow_none=True)
    message = fields.String(required=True)


class Verdict(Schema):
    valid = fields.Boolean(required=True)
    ruleset = fields.String(required=True, allow_none=True)
    result = fields.String(required=True, allow_none=True, metadata={"x-enum": "results"})
    score = ref_field(
        "Score", "The outcome's score (null when the record does not verify).",
        nullable=True, required=True,
    )  # fmt: skip
    moves = fields.Integer(required=True)
    winner = fields.Integer(
        required=True, allow_none=True,
        metadata={"description": "The winning seat of a game of several seats (else null)."},
    )  # fmt: skip
    problems = fields.List(
        fields.Nested(VerifyProblem),
        required=True,
        metadata={"description": "Empty when valid; else the first problem found."},
    )


class DealStep(Schema):
    label = fields.String(required=True, metadata={"example": "deal"})
    cards = fields.List(fields.String(), required=True, metadata={"example": ["AC", "2C", "3C"]})


class ReplayStep(Schema):
    at = fields.Integer(required=True)
    version = fields.Integer(required=True, metadata={"description": "Events in the log now."})
    move = fields.Nested(LoggedMove, required=True, allow_none=True)
    effects = list_field("Effect", "What the step's event set off.", required=True)
    view = View
    deck = fields.List(
        fields.String(),
        metadata={"description": "Finished games only: the whole deal, top card first."},
    )
    deal_plan = fields.List(
        fields.Nested(DealStep),
        metadata={
            "description": "Finished games only: what the deal shuffled (docs/deal-algorithm.md), "
            "step by step; `deck` is each step's cards shuffled by the stream of its label from "
            "the seed, one after another. Each step's cards are in canonical order, so a client "
            "re-derives `deck` knowing nothing of the game."
        },
    )


class Challenge(Schema):
    ruleset = fields.String(required=True)
    seed_commitment = fields.String(required=True)
    difficulty = fields.Integer(required=True, metadata={"description": "1 (easy) to 5 stars."})
    bot_win_rate = fields.Float(required=True)
    players = fields.Integer(required=True, metadata={"description": "Ranked attempts so far."})
    ranked = fields.Boolean(required=True, metadata={"description": "True on its own day."})
    leaderboard = fields.String(required=True)
    seed = fields.String(metadata={"description": "Only once the day is over (UTC)."})


class DailyChallenges(Schema):
    date = fields.String(required=True, metadata={"example": "2026-11-22"})
    today = fields.String(required=True)
    over = fields.Boolean(required=True)
    challenges = fields.List(fields.Nested(Challenge), required=True)


class SignInRequest(StrictSchema):
    """Either `id_token` (a client that signed in with the provider itself), or `code`,
    `code_verifier` and `redirect_uri` (a web page back from the provider's sign-in: this
    server gets the ID token for the code)."""

    id_token = fields.String(
        validate=validate.Length(min=1, max=8192),
        metadata={
            "description": "An OpenID Connect ID token from the provider `GET /v1/sign-in` "
            "names, for its audience: signs in once (a token used before is refused)."
        },
    )
    code = fields.String(
        validate=validate.Length(min=1, max=2048),
        metadata={"description": "The authorization code the provider's sign-in came back with."},
    )
    code_verifier = fields.String(
        validate=validate.Regexp(r"^[A-Za-z0-9._~-]{43,128}$"),
        metadata={"description": "The PKCE verifier whose S256 challenge the sign-in was asked "
                  "with (RFC 7636)."},
    )  # fmt: skip
    redirect_uri = fields.String(
        validate=validate.Length(min=1, max=2048),
        metadata={"description": "The redirect URI the sign-in was asked with, exactly."},
    )
    name = fields.String(
        allow_none=True,
        metadata={
            "description": "A new account's name (the rules of `PlayerRequest.name`); "
            "`Player` when left out or null. An account signed in before keeps its own, as does a "
            "guest attached by its token.",
            "example": "Anne",
        },
    )

    @validates_schema
    def _one_way(self, data: dict[str, Any], **_: Any) -> None:
        code = [f for f in ("code", "code_verifier", "redirect_uri") if f in data]
        if ("id_token" in data) == bool(code) or 0 < len(code) < 3:
            raise ValidationError(
                "either id_token, or code, code_verifier and redirect_uri together", "_schema"
            )


class SignInProvider(Schema):
    available = fields.Boolean(
        required=True,
        metadata={"description": "Whether players sign in here; false: every player is a guest "
                  "(and guests rank), and the fields below are absent."},
    )  # fmt: skip
    issuer = fields.String(metadata={"description": "The OpenID Connect issuer to sign in with."})
    authorization_endpoint = fields.String(
        metadata={"description": "Where to send a person to sign in (the code flow with PKCE, "
                  "`response_type=code`, `scope=openid`, this `audience` as `client_id`)."},
    )  # fmt: skip
    audience = fields.String(
        metadata={"description": "The client id (audience) its ID tokens must be issued for."},
    )


class DailyStatistics(Schema):
    ruleset = fields.String(required=True, metadata={"description": "A solitaire."})
    played = fields.Integer(required=True, metadata={"description": "Ranked attempts started."})
    won = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    best_score = fields.Integer(
        required=True, allow_none=True, metadata={"description": "None until one is finished."}
    )
    current_streak = fields.Integer(
        required=True,
        metadata={"description": "Days in a row with the ranked attempt finished, ending today "
                  "or (today's not finished yet) yesterday."},
    )  # fmt: skip
    best_streak = fields.Integer(required=True)
    badges = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "`streak-N`: N days in a row (3, 7, 30, 100, 365)."},
    )


class PlayerProfile(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True, metadata={"example": "Anne#1a2b3c4d"})
    joined = fields.String(required=True, metadata={"description": "When it was made (UTC)."})
    signed_in = fields.Boolean(
        required=True,
        metadata={"description": "An account's player (signed in), not a guest."},
    )
    dailies = fields.List(
        fields.Nested(DailyStatistics),
        required=True,
        metadata={"description": "Each solitaire's daily statistics over the last 366 days."},
    )


class Me(PlayerProfile):
    sessions = fields.Integer(
        required=True,
        metadata={"description": "Devices signed in to the account (at most 8; 0 for a guest)."},
    )


class CreatedPlayer(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True, metadata={"example": "Anne#1a2b3c4d"})
    token = fields.String(
        required=True,
        metadata={"description": "The player's secret: `Authorization: Bearer <token>`."},
    )


class BoardEntry(Schema):
    rank = fields.Integer(
        required=True,
        metadata={
            "description": "1 + the entries strictly better (result, then score, then fewer "
            "moves): tied entries share a rank (1, 2, 2, 4), listed by finish time."
        },
    )
    name = fields.String(required=True)
    player_id = fields.String(
        required=True, metadata={"description": "Its player's profile: `GET /v1/players/{id}`."}
    )
    result = fields.String(required=True, metadata={"x-enum": "results"})
    score = fields.Integer(required=True)
    moves = fields.Integer(required=True)
    finished_at = fields.String(required=True)
    game_id = fields.String(required=True)
    record = fields.String(metadata={"description": "Once the day is over: verify it."})


class Leaderboard(Schema):
    date = fields.String(required=True)
    ruleset = fields.String(required=True)
    over = fields.Boolean(required=True)
    entries = fields.List(fields.Nested(BoardEntry), required=True)
    verified = fields.Boolean(
        required=True,
        metadata={"description": "Its players signed in with the server's provider, one "
                  "attempt per account; false where none is configured: its players are "
                  "guests, unverified (docs/accounts.md)."},
    )  # fmt: skip
    cursor = fields.String(required=True, allow_none=True)
    you = fields.Nested(
        lambda: OwnEntry(),
        metadata={"description": "With a player's token: its own attempt, ranked or not yet."},
    )


class OwnEntry(Schema):
    """The requesting player's own attempt: not played yet (`played` false), in play
    (`finished` false, with its `game_id`), or finished (its board entry, ranked)."""

    name = fields.String(required=True)
    player_id = fields.String(metadata={"description": "Once finished, as on the board."})
    played = fields.Boolean(required=True)
    finished = fields.Boolean(metadata={"description": "Present once played."})
    game_id = fields.String(metadata={"description": "Present once played."})
    rank = fields.Integer(metadata={"description": "Once finished, as on the board."})
    result = fields.String(metadata={"description": "Once finished.", "x-enum": "results"})
    score = fields.Integer(metadata={"description": "Once finished."})
    moves = fields.Integer(metadata={"description": "Once finished."})
    finished_at = fields.String(metadata={"description": "Once finished."})
    record = fields.String(metadata={"description": "Once finished and the day is over."})


class FinishedGame(Schema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    status = fields.String(required=True, metadata={"x-enum": "statuses"})
    outcome = ref_field("Outcome", required=True)
    moves = fields.Integer(required=True)
    created_at = fields.String(required=True)
    finished_at = fields.String(required=True)
    seed_commitment = fields.String(required=True)
    seed = fields.String(
        metadata={
            "description": "The revealed seed; absent for a ranked daily game until its UTC day "
            "is over."
        }
    )
    record = fields.String(required=True, metadata={"example": "/v1/games/{id}/record"})


class GameList(Schema):
    games = fields.List(fields.Nested(FinishedGame), required=True)
    cursor = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Pass it back as `cursor` for the next page; null: the last."},
    )


class OptionDescription(Schema):
    name = fields.String(required=True)
    type = fields.String(required=True, metadata={"example": "boolean"})
    default = fields.Raw(required=True, allow_none=True)
    description = fields.String(required=True)
    nullable = fields.Boolean(required=True)
    minimum = fields.Integer()
    maximum = fields.Integer()


class Seats(Schema):
    min = fields.Integer(required=True)
    max = fields.Integer(required=True)


class GesturePick(Schema):
    field = fields.String(required=True, metadata={"description": "A list field of the move."})
    key = fields.String(
        required=True, metadata={"description": "Each item's element: `{item}` is the item."}
    )


class GestureAssign(Schema):
    field = fields.String(required=True, metadata={"description": "An object field of the move."})
    source = fields.String(
        required=True,
        metadata={"description": "The element put down: `{name}` the member, `{value}` its value."},
    )
    target = fields.String(required=True, metadata={"description": "The element it goes on."})


class GestureTune(Schema):
    field = fields.String(
        required=True, metadata={"description": "An object field of integers: one stepper each."}
    )
    zone = fields.String(required=True, metadata={"description": "The element the steppers go in."})


class Gesture(Schema):
    """One way of making a kind of move on the board (docs/web-client.md, "Playing on the
    board"): key templates of the board's elements, `{field}` a field of the move."""

    source = fields.String(
        metadata={"description": "The element picked up first.", "example": "current"}
    )
    target = fields.String(
        metadata={
            "description": "The element clicked to make the move.",
            "example": "column:{column}",
        }
    )
    when = fields.List(
        fields.String(),
        validate=validate.Length(equal=2),
        metadata={"description": "The gesture applies only when both resolve to the same text."},
    )
    pick = fields.Nested(GesturePick)
    assign = fields.Nested(GestureAssign)
    tune = fields.Nested(GestureTune)


class RulesetDescription(Schema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    seats = fields.Nested(Seats, required=True)
    options = fields.List(fields.Nested(OptionDescription), required=True)
    chosen_deals = fields.Boolean(
        required=True,
        metadata={
            "description": "Whether a client may choose the deal (`seed`, `from_game`): only a "
            "solitaire. In a game of several seats the seed is always the server's secret."
        },
    )
    board = fields.String(
        required=True,
        metadata={
            "description": "How a client lays out this game's view, by kind (docs/web-client.md): "
            "`tableau`, `facing-tableaux`, `capital`, `figureheads`, `map`, or `generic` (the "
            "view as it is). A client that does not know a layout shows the view generically.",
            "example": "tableau",
        },
    )
    gestures = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Nested(Gesture)),
        required=True,
        metadata={
            "description": "How each kind of move is made on the board, by move type "
            "(domain/gestures.py): the first gesture that applies to a legal move is used. A "
            "move without one is offered beside the board; every legal move stays in the list."
        },
    )
    words = ref_field(
        "Words",
        "The game's own words (domain/presentation.py): how a client says what each move and "
        "effect did, what the view holds and how the game ended, knowing no game.",
        required=True,
    )
    policies = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "The bot policies a seat may name when creating a game "
            "(`seats: [{player: bot, policy}]`); empty for a solitaire.",
            "example": ["best", "greedy", "random"],
        },
    )


class RulesetList(Schema):
    rulesets = fields.List(fields.Nested(RulesetDescription), required=True)


class Health(Schema):
    status = fields.String(required=True, metadata={"example": "ok"})


class Problem(Schema):
    """RFC 9457 problem details, with the extension members each error adds."""

    type = fields.String(
        required=True, metadata={"example": "urn:royal-court:problem:illegal-move"}
    )
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String()
    errors = fields.Dict(
        metadata={
            "description": "Field -> messages, for invalid bodies.",
            "additionalProperties": True,
        }
    )
    current_version = fields.Integer(metadata={"description": "On a stale version (409)."})
    reason = fields.String(metadata={"description": "Why a move is illegal (422)."})
    legal_moves = list_field(
        "Move", "On an illegal move or not-your-turn (409): what the seat may play."
    )
    game_id = fields.String(
        metadata={"description": "On already-played (409): the player's ranked attempt."}
    )
    limit = fields.Integer(metadata={"description": "On game-too-long (409): the most events."})


# ---- per-ruleset documentation, generated from each ruleset's option specs -------------------


def _option_field(spec: OptionSpec) -> fields.Field[Any]:
    meta = {"description": spec.description}
    kwargs: dict[str, Any] = {
        "allow_none": spec.nullable,
        "load_default": spec.default,
        "metadata": meta,
    }
    if spec.kind == "boolean":
        return fields.Boolean(**kwargs)
    if spec.kind == "integer":
        return StrictInteger(validate=validate.Range(min=spec.minimum, max=spec.maximum), **kwargs)
    return fields.String(**kwargs)


def create_game_variant(ruleset: AnyRuleset) -> type[Schema]:
    """The exact create-game body of one ruleset: its id, its options, nothing else."""
    name = "".join(part.title() for part in ruleset.id.split("-"))
    options = Schema.from_dict(
        {spec.name: _option_field(spec) for spec in ruleset.options_offered},
        name=f"{name}Options",
    )
    options.Meta.unknown = RAISE
    return Schema.from_dict(
        {
            "ruleset": fields.String(required=True, validate=validate.OneOf([ruleset.id])),
            "options": fields.Nested(options),
            # A client chooses the deal of a solitaire only (`chosen_deals`): elsewhere the
            # seed would show every hand, so a game of several seats is not offered either.
            **(
                {
                    "seed": fields.String(validate=validate.Regexp(SEED_REGEX)),
                    "from_game": FROM_GAME,
                }
                if ruleset.deals_may_be_chosen
                else {}
            ),
            **(
                {
                    "seats": fields.List(
                        fields.Nested(SeatRequest),
                        validate=validate.Length(min=ruleset.min_seats, max=ruleset.max_seats),
                    )
                }
                if ruleset.max_seats > 1
                else {}
            ),
        },
        name=f"Create{name}Game",
    )
