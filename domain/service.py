"""The game service: load, replay, check, append. Every business rule of the API lives here.

It talks to storage only through the `GameStore` port, and takes the clock and the source of
secrets as plain functions, so it stays free of I/O and of wall-clock time: the HTTP handlers,
the Lambda entry and the tests wire in real or fixed ones.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Any

from domain.capabilities import AnyRuleset, GameEntry
from domain.daily import FIRST_DAY, check_date, display_name, leaderboard_key, select
from domain.deal import DealRandom, check_seed, seed_commitment
from domain.errors import (
    DailyClosed,
    Forbidden,
    GameNotFound,
    GameOver,
    IdempotencyMismatch,
    IllegalMove,
    InvalidRequest,
    LogFull,
    NotYourTurn,
    ReplayError,
    StaleVersion,
    StoreUnavailable,
    Unauthenticated,
    VersionConflict,
)
from domain.playthrough import Playthrough
from domain.record import RECORD_FORMAT, RECORD_FORMAT_V1, move_hash, move_salt
from domain.registry import GAMES, RULESETS, get_game, get_ruleset
from domain.replay_cache import ReplayCache
from domain.store import (
    DailyDeal,
    Finish,
    GameRecord,
    GameStore,
    LeaderboardEntry,
    MoveEvent,
    PlayerRecord,
    StoredGame,
    decode_cursor,
    encode_cursor,
)

Json = dict[str, Any]
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a game id can look like (the service issues 32 URL-safe characters)."""
MAX_PAGE = 100
MAX_EVENTS = 2000
"""The most events a player may append to one game, undo included (past that only `resign`
is taken; bots still reply). The longest of 600 bot games of each ruleset had 478 events, so
no game played to win gets near it, while a log's replay and verification stay bounded."""
RESIGN = {"type": "resign"}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game as one seat (or a spectator) sees it, plus what the last move set off."""

    game: Json
    view: Json
    effects: list[Json] | None = None
    token: str | None = None
    seat: int | None = None  # the seat a token was issued for
    invites: list[Json] | None = None  # a new game's invites, for the other human seats
    seq: int | None = None  # the event a move became (for Location headers)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def epoch(at: str) -> int:
    """Unix seconds of a time as the clock gives it (ISO 8601, UTC).

    >>> epoch("2026-11-22T00:00:00.000Z")
    1795305600
    """
    return int(datetime.fromisoformat(at).timestamp())


def logged(event: MoveEvent, shown: Json, chain_key: str | None) -> Json:
    """A move as published in logs and records (the Idempotency-Key stays private), with
    `shown`, the move as the requester may see it (the ruleset's `public_log`). Its `salt`
    comes only with the whole move: the hash of a move shown in part (cards face down, a
    sealed choice) chains from a salt nobody else has, so trying every possible move against
    it finds nothing, while every move a requester sees whole can be checked link by link."""
    out = {"seq": event.seq, "seat": event.seat, "move": shown, "at": event.at,
           "hash": event.hash}  # fmt: skip
    if chain_key is not None and shown == event.move:
        out["salt"] = move_salt(chain_key, event.seq)
    return out


MAX_APPEND_ATTEMPTS = 8
"""How often a move is re-checked and re-tried when another seat's move was appended first."""


class GameService:
    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], str],
        new_secret: Callable[[], str],
        daily_secret: bytes | Callable[[], bytes] = b"",
        replay_cache: ReplayCache | None = None,
        first_day: str = FIRST_DAY,
        game_ttl: int | None = None,
    ) -> None:
        self.store = store
        # Seconds an unfinished casual game lives after its last move (None: for good).
        self.game_ttl = game_ttl or None
        self.first_day = first_day  # the first day with a daily challenge
        self.clock = clock
        self.new_secret = new_secret
        self.cache = replay_cache
        # Keys the daily deals (without it none can be chosen); a function is called once, on
        # first need, so that a cold start never waits on a secret store it may not use.
        self._daily_secret = daily_secret

    # ---- queries ---------------------------------------------------------------------------

    @staticmethod
    def rulesets() -> list[Json]:
        """Each ruleset's description, with the bot policies a seat may name (multi-seat games:
        a solitaire has no seat to give a bot)."""
        return [
            {**r.describe(), "policies": list(GAMES[r.id].policies) if r.max_seats > 1 else []}
            for r in RULESETS.values()
        ]

    def read_game(self, game_id: str, token: str | None) -> Snapshot:
        stored = self._load(game_id)
        seat = self._seat(stored.record, token) if token is not None else None
        self._guard_daily(stored.record, seat)
        game = self._replay(stored, stored.version)
        if self._bot_due(stored.record, game):  # a bot's reply left unplayed (a crash)
            stored, game, _ = self._play_bots(stored, game, seat)
        return Snapshot(self._game_json(stored.record, stored.version, game), game.view(seat))

    def moves(self, game_id: str, token: str | None = None) -> list[Json]:
        stored = self._load(game_id)
        seat = self._seat(stored.record, token) if token is not None else None
        self._guard_daily(stored.record, seat)
        game = self._replay(stored, stored.version)
        return self._public_moves(stored, game, seat)

    @staticmethod
    def _public_moves(stored: StoredGame, game: Playthrough, seat: int | None) -> list[Json]:
        """The log as `seat` (None: a spectator) may see it now."""
        shown = game.ruleset.public_log(game.state, [(m.seat, m.move) for m in stored.moves], seat)
        key = stored.record.chain_key
        return [logged(m, move, key) for m, move in zip(stored.moves, shown, strict=True)]

    def record(self, game_id: str, token: str | None) -> Json:
        """The game's record (docs/record-format.md), as much of it as the requester may see.

        While the game is played the seed is left out unless the client chose it; once it
        is over the record is complete, and anyone can verify it end to end.
        """
        stored = self._load(game_id)
        seat = self._seat(stored.record, token) if token is not None else None
        self._guard_daily(stored.record, seat)
        game = self._replay(stored, stored.version)
        r = stored.record
        out: Json = {
            "format": RECORD_FORMAT if r.chain_key is not None else RECORD_FORMAT_V1,
            "id": r.id,
            "ruleset": r.ruleset,
            "options": r.options,
            "seed_commitment": r.seed_commitment,
        }
        if self._seed_public(r, game.ruleset.is_over(game.state)):
            out["seed"] = r.seed
        out["created_at"] = r.created_at
        if r.from_game is not None:
            out["from_game"] = r.from_game
        out["moves"] = self._public_moves(stored, game, seat)
        out["status"] = game.ruleset.status(game.state)
        out["outcome"] = game.ruleset.outcome(game.state)
        return out

    def replay_step(self, game_id: str, token: str | None, at: int) -> Json:
        """The view after `at` events (0: the deal), with the event that led there.

        A finished game's steps are public, shown to the spectator with the whole deal (its
        seed is public by then). While a game is played only a seat may step through it, in
        its own view and up to the present: nothing it has not already seen.
        """
        stored = self._load(game_id)
        seat = self._seat(stored.record, token) if token is not None else None
        self._guard_daily(stored.record, seat)
        # The record's status is written in the finishing move's own transaction: no need to
        # replay the whole log a second time to learn that the game is over.
        over = self._seed_public(stored.record, stored.record.status != "playing")
        if not over and seat is None:
            raise Unauthenticated("stepping through a game in play needs a seat's token")
        if not 0 <= at <= stored.version:
            raise InvalidRequest("at", f"at must be from 0 to {stored.version}")
        shown = self._public_moves(
            stored, self._replay(stored, stored.version), None if over else seat
        )
        game = self._replay(stored, max(at - 1, 0))
        effects: list[Json] = []
        if at > 0:
            event = stored.moves[at - 1]
            effects = game.play(event.seat, event.move)
        viewer = None if over else seat
        out: Json = {
            "at": at,
            "version": stored.version,
            "move": shown[at - 1] if at > 0 else None,
            "effects": effects,
            "view": game.view(viewer),
        }
        if over:
            out["deck"] = game.ruleset.deck(stored.record.seed, stored.record.options)
        return out

    def list_finished(self, ruleset_id: str | None, limit: int, cursor: str | None) -> Json:
        if ruleset_id is not None:
            get_ruleset(ruleset_id)  # UnknownRuleset names the known ones
        if not 1 <= limit <= MAX_PAGE:
            raise InvalidRequest("limit", f"limit must be from 1 to {MAX_PAGE}")
        page = self.store.list_finished(ruleset_id, limit, cursor)
        games = [self._finished_json(r) for r in page.records]
        return {"games": games, "cursor": page.cursor}

    def _finished_json(self, r: GameRecord) -> Json:
        """A finished game in the public listing: its seed only once it may be shown (a ranked
        daily game's not before its day is over, when the day's seed is public anyway)."""
        out: Json = {
            "id": r.id,
            "ruleset": r.ruleset,
            "status": r.status,
            "outcome": r.outcome,
            "moves": r.version,
            "created_at": r.created_at,
            "finished_at": r.finished_at,
            "seed_commitment": r.seed_commitment,
        }
        if self._seed_public(r, True):
            out["seed"] = r.seed
        out["record"] = f"/v1/games/{r.id}/record"
        return out

    def game_version(self, game_id: str) -> int:
        """The number of moves in the game's log, from one small read: what a long-poll
        checks while it waits (it has read the game, with its seat's checks, already)."""
        if GAME_ID.fullmatch(game_id) is None:
            raise GameNotFound(f"no game {game_id[:80]!r}")
        version = self.store.version(game_id)
        if version is None:
            raise GameNotFound(f"no game {game_id!r}")
        return version

    # ---- commands --------------------------------------------------------------------------

    def create_game(
        self,
        ruleset_id: str,
        options: Mapping[str, Any] | None,
        seed: str | None,
        from_game: str | None = None,
        seats: object = None,
    ) -> Snapshot:
        """Deal a new game; seed_known is true when the seed is public from the start: chosen
        by the client, or taken from a finished game (`from_game`, a shared deal).

        The creator takes the first human seat; every other human seat gets a one-time
        invite, and bot seats play as soon as they have a move to make.
        """
        entry = get_game(ruleset_id)
        ruleset = entry.ruleset
        seat_list = self._seats(entry, seats)
        if not ruleset.deals_may_be_chosen and (seed is not None or from_game is not None):
            field = "seed" if seed is not None else "from_game"
            raise InvalidRequest(
                field,
                f"{ruleset.id} deals only secret deals: a seed one seat knows would show it "
                "the other seat's cards (the seed is revealed when the game ends)",
            )
        if from_game is not None:
            options, seed = self._shared_deal(ruleset, from_game, options, seed)
        full_options = ruleset.validate_options(options)
        seed_known = seed is not None
        game_seed = check_seed(seed) if seed is not None else self.new_secret()
        record, game, token, invites = self._deal(
            ruleset, full_options, game_seed, seed_known, seat_list, from_game=from_game
        )
        if self.game_ttl is not None:  # a casual game: it expires unless it is played
            record = replace(record, expires_at=epoch(record.created_at) + self.game_ttl)
        self.store.create(record)
        creator = self._creator_seat(record)
        stored, game, effects = self._play_bots(StoredGame(record), game, creator)
        return Snapshot(
            self._game_json(stored.record, stored.version, game),
            game.view(creator),
            effects or None,
            token,
            creator,
            invites,
        )

    @staticmethod
    def _seats(entry: GameEntry, seats: object) -> tuple[Json, ...]:
        """The seats asked for, checked: as many as the ruleset allows, one human at least,
        bots with a policy the game offers. Default: its minimum, every seat human."""
        ruleset = entry.ruleset
        if seats is None:
            return tuple({"player": "human"} for _ in range(ruleset.min_seats))
        if not isinstance(seats, list) or not (
            ruleset.min_seats <= len(seats) <= ruleset.max_seats
        ):
            count = (
                str(ruleset.min_seats)
                if ruleset.min_seats == ruleset.max_seats
                else f"{ruleset.min_seats} to {ruleset.max_seats}"
            )
            raise InvalidRequest("seats", f"{ruleset.id} takes a list of {count} seat(s)")
        out: list[Json] = []
        for index, seat in enumerate(seats):
            player = seat.get("player") if isinstance(seat, dict) else None
            policy = seat.get("policy") if isinstance(seat, dict) else None
            if player == "human" and set(seat) == {"player"}:
                out.append({"player": "human"})
            elif player == "bot" and set(seat) <= {"player", "policy"}:
                policy = "best" if policy is None else policy
                if not isinstance(policy, str) or policy not in entry.policies:
                    raise InvalidRequest(
                        "seats",
                        f"seats[{index}].policy must be one of {', '.join(entry.policies)}",
                    )
                out.append({"player": "bot", "policy": policy})
            else:
                raise InvalidRequest(
                    "seats",
                    f'seats[{index}] must be {{"player": "human"}} or '
                    '{"player": "bot", "policy": P}',
                )
        if not any(seat["player"] == "human" for seat in out):
            raise InvalidRequest("seats", "at least one seat must be human")
        return tuple(out)

    @staticmethod
    def _creator_seat(record: GameRecord) -> int:
        return next(i for i, s in enumerate(record.seat_list) if s["player"] == "human")

    def _deal(
        self,
        ruleset: AnyRuleset,
        options: Mapping[str, Any],
        seed: str,
        seed_known: bool,
        seats: tuple[Json, ...] = (),
        **extra: Any,
    ) -> tuple[GameRecord, Playthrough, str, list[Json]]:
        """A new game's record (not yet stored), its dealt position, the creator's token and
        the invites of the other human seats (only their hashes are kept)."""
        game = Playthrough(ruleset, seed, options)
        game_id = self.new_secret()
        token = self.new_secret()
        seat_list = list(seats) or [{"player": "human"}]
        creator = next(i for i, s in enumerate(seat_list) if s["player"] == "human")
        invites: list[Json] = []
        for index, seat in enumerate(seat_list):
            if seat["player"] == "human" and index != creator:
                invite = self.new_secret()
                seat_list[index] = {**seat, "invite_hash": token_digest(invite)}
                invites.append(
                    {"seat": index, "invite": invite, "join": f"/v1/games/{game_id}/seats/{index}"}
                )
        record = GameRecord(
            id=game_id,
            ruleset=ruleset.id,
            options=dict(game.options),
            seed=seed,
            seed_commitment=seed_commitment(seed),
            seed_known=seed_known,
            chain_key=self.new_secret(),  # the salts' secret: whoever chose the seed
            created_at=self.clock(),
            token_hashes={str(creator): token_digest(token)},
            status=ruleset.status(game.state),
            outcome=ruleset.outcome(game.state),
            seats=tuple(seat_list) if seats else (),
            **extra,
        )
        return record, game, token, invites

    def join(self, game_id: str, seat: int, invite: str | None) -> Snapshot:
        """Take a seat with its invite: the seat's token, once (only its hash is stored)."""
        if not isinstance(invite, str) or not invite:
            raise InvalidRequest("invite", "the invite of this seat is required")
        self._load(game_id)
        token = self.new_secret()
        self.store.join(game_id, seat, token_digest(invite), token_digest(token))
        stored = self._load(game_id)
        game = self._replay(stored, stored.version)
        return Snapshot(
            self._game_json(stored.record, stored.version, game), game.view(seat), None, token, seat
        )

    def _shared_deal(
        self,
        ruleset: AnyRuleset,
        source_id: str,
        options: Mapping[str, Any] | None,
        seed: str | None,
    ) -> tuple[Mapping[str, Any], str]:
        """The options and seed of a finished game, to deal it again."""
        if seed is not None or options:
            raise InvalidRequest(
                "from_game", "a shared deal takes its seed and options from its game"
            )
        try:
            source = self._load(source_id)
        except GameNotFound:
            raise InvalidRequest("from_game", f"no game {source_id[:80]!r}") from None
        if source.record.ruleset != ruleset.id:
            raise InvalidRequest(
                "from_game", f"that game is {source.record.ruleset}, not {ruleset.id}"
            )
        game = self._replay(source, source.version)
        if not self._seed_public(source.record, ruleset.is_over(game.state)):
            raise InvalidRequest(
                "from_game", "that game is still being played: its deal is secret until it ends"
            )
        return source.record.options, source.record.seed

    def play(
        self,
        game_id: str,
        token: str | None,
        version: int,
        move: Json,
        idempotency_key: str | None = None,
    ) -> Snapshot:
        """Check `move` against the replayed game and append it if the seat is up to date.

        A seat is stale only when a move since its `version` changed what it may do: the other
        seat's sealed submission in the same simultaneous step does not, and the move is then
        accepted at the latest version. A write lost to another seat's move is re-checked and
        re-tried, so two seats submitting at once are both accepted.
        """
        if token is None:
            raise Unauthenticated("a move needs the seat's token: Authorization: Bearer <token>")
        for _ in range(MAX_APPEND_ATTEMPTS):
            stored = self._load(game_id)
            seat = self._seat(stored.record, token)
            if idempotency_key is not None:
                earlier = self._answered(stored, idempotency_key, seat, version, move)
                if earlier is not None:
                    return earlier
            daily = stored.record.daily
            if daily is not None and daily["date"] < self.today():
                raise DailyClosed(
                    f"the day of this ranked attempt ({daily['date']}, UTC) is over: its deal "
                    "is public now, so no more moves are accepted and the attempt does not rank"
                )
            if stored.version >= MAX_EVENTS and move != RESIGN:
                raise LogFull(MAX_EVENTS)
            game = self._replay(stored, stored.version)
            if game.ruleset.is_over(game.state):
                raise GameOver()
            self._check_turn(game, seat, move)
            if version != stored.version and not self._still_current(stored, game, seat, version):
                raise StaleVersion(stored.version)
            before = stored.version
            try:
                stored, effects = self._append(stored, game, seat, move, idempotency_key)
            except VersionConflict:
                continue  # another seat's move came first: look again
            stored, game, bot_effects = self._play_bots(stored, game, seat)
            effects += bot_effects
            return Snapshot(
                self._game_json(stored.record, stored.version, game),
                game.view(seat),
                effects,
                seq=before + 1,
            )
        raise StoreUnavailable("the game is too busy: retry", retry_after=1)

    @staticmethod
    def _check_turn(game: Playthrough, seat: int, move: Json) -> None:
        """A seat that may not move now (other than resign) is told so, not given a 422."""
        if seat in game.ruleset.to_move(game.state):
            return
        legal = game.legal_moves(seat)
        if move not in legal:
            raise NotYourTurn("it is not your turn: wait for the other seat", legal)

    def _still_current(
        self, stored: StoredGame, game: Playthrough, seat: int, version: int
    ) -> bool:
        """Whether every move since `version` was another seat's and left this seat's legal
        moves as they were (a sealed submission in a simultaneous step)."""
        if not 0 <= version < stored.version:
            return False
        if any(m.seat == seat for m in stored.moves[version:]):
            return False
        then = self._replay(stored, version)
        return then.legal_moves(seat) == game.legal_moves(seat)

    def _append(
        self,
        stored: StoredGame,
        game: Playthrough,
        seat: int,
        move: object,
        idempotency_key: str | None = None,
    ) -> tuple[StoredGame, list[Json]]:
        """Play `move` on `game` (in place) and append it as the log's next event: one
        conditional write (VersionConflict if another came first; `game` is then stale)."""
        version = stored.version
        playing = game.copy()
        effects = playing.play(seat, move)  # IllegalMove: nothing is appended
        assert isinstance(move, dict)
        seq = version + 1
        previous = stored.hash_at(version)
        at = self.clock()
        key = stored.record.chain_key
        salt = None if key is None else move_salt(key, seq)
        event = MoveEvent(
            seq, seat, move, at, move_hash(previous, seq, seat, move, salt), idempotency_key
        )
        finish = None
        ruleset = game.ruleset
        record = stored.record
        if ruleset.is_over(playing.state):
            outcome = ruleset.outcome(playing.state)
            assert outcome is not None
            entry = None
            if record.daily is not None:
                daily = record.daily
                key = leaderboard_key(outcome["result"], outcome["score"], seq, at, record.id)
                entry = LeaderboardEntry(daily["date"], ruleset.id, key, record.id,
                                         daily["player"], daily["name"], outcome["result"],
                                         outcome["score"], seq, at)  # fmt: skip
            finish = Finish(ruleset.status(playing.state), outcome, at, ruleset.id, entry)
        elif (renewed := self._renewed_expiry(record, at)) is not None:
            # Before the move, so that a game cannot expire under an accepted one.
            self.store.touch(record.id, renewed)
            record = replace(record, expires_at=renewed)
        self.store.append(record.id, version, event, finish)
        game.take(playing)
        if finish is not None:
            record = replace(
                record,
                status=finish.status,
                outcome=finish.outcome,
                finished_at=finish.at,
                version=seq,
                expires_at=None,  # removed by the finishing write: a finished game is kept
            )
        return StoredGame(record, (*stored.moves, event)), effects

    def _renewed_expiry(self, record: GameRecord, at: str) -> int | None:
        """A casual game's new expiry if a move at `at` is to push it back: only once less
        than half its time is left, so that most moves cost no write more."""
        ttl, expires = self.game_ttl, record.expires_at
        if ttl is None or expires is None or expires - epoch(at) >= ttl / 2:
            return None
        return epoch(at) + ttl

    @staticmethod
    def _bot_due(record: GameRecord, game: Playthrough) -> int | None:
        """The bot seat that has a move to make now, if any."""
        seats = record.seat_list
        for seat in game.ruleset.to_move(game.state):
            if seats[seat]["player"] == "bot":
                return int(seat)
        return None

    def _play_bots(
        self, stored: StoredGame, game: Playthrough, viewer: int | None
    ) -> tuple[StoredGame, Playthrough, list[Json]]:
        """Play every bot seat's move due now, each from its seat's own view and appended as
        its own event (ordered conditional writes: a crash in between leaves a valid log, and
        the next request that reads the game plays the rest). Returns what `viewer` may see
        of them: each bot move as `public_log` shows it, followed by its effects."""
        effects: list[Json] = []
        entry = get_game(stored.record.ruleset)
        while (bot := self._bot_due(stored.record, game)) is not None:
            policy_name = stored.record.seat_list[bot]["policy"]
            # The bot's randomness comes from the secret seed, so no seat can predict it,
            # and from nothing else its seat cannot see.
            rng = DealRandom(stored.record.seed, f"bot:{bot}:{stored.version}")
            choose = entry.policies[policy_name](rng)
            move = choose(game.ruleset, game.state, bot, game.legal_moves(bot))
            try:
                stored, bot_effects = self._append(stored, game, bot, move)
            except VersionConflict:  # another request is playing this bot: it will finish
                stored = self._load(stored.record.id)
                game = self._replay(stored, stored.version)
                continue
            shown = game.ruleset.public_log(game.state, [(bot, move)], viewer)[0]
            effects.append({"type": "bot_move", "seat": bot, "move": shown})
            effects += bot_effects
        return stored, game, effects

    # ---- daily challenges (docs/daily.md) -------------------------------------------------------

    def today(self) -> str:
        """The current UTC date, from the injected clock: the day boundary is testable."""
        return self.clock()[:10]

    def daily(self, date: str) -> Json:
        """The day's deal of every solitaire: commitment, difficulty, players; the seed only
        once the day is over."""
        today = self.today()
        day = check_date(date, today, self.first_day)
        challenges = []
        for game in GAMES.values():
            if game.ruleset.max_seats != 1:
                continue
            deal = self._daily_deal(day, game)
            entry: Json = {
                "ruleset": game.id,
                "seed_commitment": deal.seed_commitment,
                "difficulty": deal.difficulty,
                "bot_win_rate": deal.bot_wins / deal.bot_games,
                "players": deal.players,
                "ranked": day == today,
                "leaderboard": f"/v1/daily/{day}/{game.id}/leaderboard",
            }
            if day < today:
                entry["seed"] = deal.seed
            challenges.append(entry)
        return {"date": day, "today": today, "over": day < today, "challenges": challenges}

    def _daily_deal(self, day: str, game: GameEntry) -> DailyDeal:
        kept = self.store.load_daily(day, game.id)
        if kept is None:
            if callable(self._daily_secret):
                self._daily_secret = self._daily_secret()
            if not self._daily_secret:
                raise StoreUnavailable("no daily secret is configured", retry_after=60)
            kept = self.store.save_daily(select(game, self._daily_secret, day))
        return kept

    def prepare_daily(self, days: int = 2) -> list[str]:
        """Choose and keep the deals of today and the `days - 1` days after it (UTC), so that no
        player's first request of a day waits for the solver (that lazy path stays, as the
        fallback). Run on a schedule (docs/daily.md); what is kept already costs one read.

        Keeping tomorrow's deal early shows nothing: every endpoint refuses a day that has
        not begun (404) before it reads a deal. Returns "date/ruleset" of each deal chosen
        by this call (an empty list when all were there)."""
        first = date.fromisoformat(self.today())
        chosen: list[str] = []
        for offset in range(days):
            day = (first + timedelta(days=offset)).isoformat()
            for game in GAMES.values():
                if game.ruleset.max_seats == 1 and self.store.load_daily(day, game.id) is None:
                    self._daily_deal(day, game)
                    chosen.append(f"{day}/{game.id}")
        return chosen

    def delete_expired(self) -> int:
        """Delete the unfinished casual games whose time is up (docs/api.md, "Limits"): run on
        a schedule by `court serve`; on DynamoDB the table's TTL does it instead (0 here)."""
        return self.store.delete_expired(epoch(self.clock()))

    def create_player(self, name: object) -> Json:
        player_id = self.new_secret()[:16]
        shown = display_name(name, player_id)
        secret = self.new_secret()
        self.store.create_player(PlayerRecord(player_id, shown, token_digest(secret), self.clock()))
        return {"player_id": player_id, "name": shown, "token": f"{player_id}.{secret}"}

    def _player(self, token: str | None) -> PlayerRecord:
        if token is None:
            raise Unauthenticated("a daily challenge needs a player's token (POST /v1/players)")
        player_id, _, secret = token.partition(".")
        player = self.store.load_player(player_id) if GAME_ID.fullmatch(player_id) else None
        if player is None or not hmac.compare_digest(token_digest(secret), player.token_hash):
            raise Forbidden("this is not a player's token")
        return player

    def start_daily(self, date: str, ruleset_id: str, player_token: str | None) -> Snapshot:
        """Today: the player's one ranked attempt. A past day: a practice game on its deal."""
        game = get_game(ruleset_id)
        if game.ruleset.max_seats != 1:
            raise InvalidRequest("ruleset", "daily challenges are for solitaires")
        today = self.today()
        day = check_date(date, today, self.first_day)
        deal = self._daily_deal(day, game)
        if day < today:  # practice: unranked, and the seed is public by now
            if player_token is not None:
                self._player(player_token)
            return self.create_game(game.id, None, deal.seed)
        player = self._player(player_token)
        # Options fixed by the server (the defaults: no undo when ranked).
        record, played, token, _ = self._deal(
            game.ruleset, {}, deal.seed, False, (),
            daily={"date": day, "player": player.id, "name": player.name},
        )  # fmt: skip
        self.store.create_attempt(day, player.id, record)  # AttemptExists names the first
        return Snapshot(self._game_json(record, 0, played), played.view(0), None, token)

    def leaderboard(
        self,
        date: str,
        ruleset_id: str,
        limit: int,
        cursor: str | None,
        player_token: str | None = None,
    ) -> Json:
        game = get_game(ruleset_id)
        today = self.today()
        day = check_date(date, today, self.first_day)
        if not 1 <= limit <= MAX_PAGE:
            raise InvalidRequest("limit", f"limit must be from 1 to {MAX_PAGE}")
        after, rank = None, 0
        if cursor is not None:
            position = decode_cursor(cursor, ("key", "rank"))
            after, rank = position["key"], _count(position["rank"])
        over = day < today
        page = self.store.leaderboard(day, game.id, limit + 1, after)
        entries = [self._entry_json(e, rank + i + 1, over) for i, e in enumerate(page[:limit])]
        next_cursor = None
        if len(page) > limit:
            next_cursor = encode_cursor({"key": page[limit - 1].key, "rank": str(rank + limit)})
        out: Json = {"date": day, "ruleset": game.id, "over": over, "entries": entries,
                     "cursor": next_cursor}  # fmt: skip
        if player_token is not None:
            out["you"] = self._own_entry(day, game.id, self._player(player_token), over)
        return out

    def _own_entry(self, day: str, ruleset_id: str, player: PlayerRecord, over: bool) -> Json:
        game_id = self.store.load_attempt(day, ruleset_id, player.id)
        if game_id is None:
            return {"name": player.name, "played": False}
        record = self._load(game_id).record
        if record.finished_at is None or record.outcome is None:
            return {"name": player.name, "played": True, "finished": False, "game_id": game_id}
        key = leaderboard_key(
            record.outcome["result"], record.outcome["score"], record.version,
            record.finished_at, game_id,
        )  # fmt: skip
        rank = self.store.leaderboard_rank(day, ruleset_id, key)
        entry = LeaderboardEntry(day, ruleset_id, key, game_id, player.id, player.name,
                                 record.outcome["result"], record.outcome["score"],
                                 record.version, record.finished_at)  # fmt: skip
        return self._entry_json(entry, rank, over) | {"played": True, "finished": True}

    @staticmethod
    def _entry_json(entry: LeaderboardEntry, rank: int, over: bool) -> Json:
        out: Json = {
            "rank": rank,
            "name": entry.name,
            "result": entry.result,
            "score": entry.score,
            "moves": entry.moves,
            "finished_at": entry.finished_at,
            "game_id": entry.game_id,
        }
        if over:
            out["record"] = f"/v1/games/{entry.game_id}/record"
        return out

    def _seed_public(self, record: GameRecord, over: bool) -> bool:
        """Whether the seed may be shown: chosen by the client, or the game is over; and for a
        ranked daily game, only once its day is over (else a finished player could pass the
        deck on to those still to play)."""
        if record.seed_known:
            return True
        if record.daily is not None:  # the day's seed is public once the day is over
            return bool(record.daily["date"] < self.today())
        return over

    def _guard_daily(self, record: GameRecord, seat: int | None) -> None:
        """A ranked daily game is its player's alone until the day is over: what it shows
        (cards drawn, the log replayed) would tell others the day's deck."""
        if record.daily is not None and seat is None and record.daily["date"] >= self.today():
            raise Forbidden("a ranked daily game is private to its player until the day is over")

    # ---- helpers ---------------------------------------------------------------------------

    def _load(self, game_id: str) -> StoredGame:
        if GAME_ID.fullmatch(game_id) is None:  # never issued: no need to ask the store
            raise GameNotFound(f"no game {game_id[:80]!r}")
        stored = self.store.load(game_id)
        if stored is None:
            raise GameNotFound(f"no game {game_id!r}")
        expires = stored.record.expires_at
        if expires is not None and expires <= epoch(self.clock()):
            # Expired, whether or not the store has deleted it yet (DynamoDB's TTL takes days).
            raise GameNotFound(f"no game {game_id!r} (it expired unplayed)")
        return stored

    @staticmethod
    def _seat(record: GameRecord, token: str) -> int:
        digest = token_digest(token)
        for seat, expected in record.token_hashes.items():
            if hmac.compare_digest(digest, expected):
                return int(seat)
        raise Forbidden("this token is not a token of a seat of this game")

    def _replay(self, stored: StoredGame, upto: int) -> Playthrough:
        """The game after `upto` events of its log, from the cache's longest matching prefix
        (or from the deal, without a cache or an entry that matches)."""
        r = stored.record
        cache = self.cache
        found = None if cache is None else cache.get(r.id, stored.hash_at, upto)
        if found is None:
            start, game = 0, Playthrough(get_ruleset(r.ruleset), r.seed, r.options)
        else:
            start, game = found
        moves = stored.moves
        for index in range(start, upto):
            event = moves[index]
            try:
                game.advance_event(event.seat, event.payload)
            except (IllegalMove, GameOver) as e:
                raise ReplayError(index, event.move, str(e), []) from None
        if cache is not None:
            cache.put(r.id, upto, stored.hash_at(upto), game)
        return game

    def _answered(
        self, stored: StoredGame, idempotency_key: str, seat: int, version: int, move: Json
    ) -> Snapshot | None:
        """The answer already given to this Idempotency-Key, or None if it is new."""
        for event in stored.moves:
            if event.idempotency_key == idempotency_key:
                if (event.seq, event.seat, event.move) != (version + 1, seat, move):
                    raise IdempotencyMismatch(
                        "this Idempotency-Key was already used for a different move"
                    )
                return self._as_of(stored, event.seq)
        return None

    def _as_of(self, stored: StoredGame, seq: int) -> Snapshot:
        """Exactly the response the move `seq` got when it was accepted: replay is exact."""
        game = self._replay(stored, seq - 1)
        event = stored.moves[seq - 1]
        effects = game.play(event.seat, event.move)
        # ... and the bot replies that followed it in the same request.
        seats = stored.record.seat_list
        version = seq
        for later in stored.moves[seq:]:
            if seats[later.seat]["player"] != "bot" or self._bot_due(stored.record, game) is None:
                break
            bot_effects = game.play(later.seat, later.move)
            shown = game.ruleset.public_log(game.state, [(later.seat, later.move)], event.seat)
            effects += [{"type": "bot_move", "seat": later.seat, "move": shown[0]}, *bot_effects]
            version = later.seq
        return Snapshot(
            self._game_json(stored.record, version, game),
            game.view(event.seat),
            effects,
            seq=seq,
        )

    def _game_json(self, record: GameRecord, version: int, game: Playthrough) -> Json:
        ruleset = game.ruleset
        over = ruleset.is_over(game.state)
        out: Json = {
            "id": record.id,
            "ruleset": record.ruleset,
            "options": record.options,
            "version": version,
            "status": ruleset.status(game.state),
            "seed_commitment": record.seed_commitment,
            "seed_known": record.seed_known,
            "created_at": record.created_at,
            "outcome": ruleset.outcome(game.state),
        }
        out["seats"] = [
            {"seat": i, "player": seat["player"], **({"policy": seat["policy"]}
             if seat["player"] == "bot" else {}),
             "joined": seat["player"] == "bot" or str(i) in record.token_hashes}
            for i, seat in enumerate(record.seat_list)
        ]  # fmt: skip
        if record.from_game is not None:
            out["from_game"] = record.from_game
        if record.daily is not None:
            out["daily"] = {"date": record.daily["date"], "name": record.daily["name"]}
        if self._seed_public(record, over):
            out["seed"] = record.seed  # revealed: anyone can now check it and re-deal
        if "seed" in out and over:
            out["share"] = {
                "record": f"/v1/games/{record.id}/record",
                "seed": record.seed,
            }
            if ruleset.deals_may_be_chosen:
                out["share"]["same_deal"] = {"ruleset": record.ruleset, "from_game": record.id}
        return out


def _count(text: str) -> int:
    """A count carried in a cursor, which a client may have forged."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise InvalidRequest("cursor", "not a cursor this server gave")
    return int(text)
