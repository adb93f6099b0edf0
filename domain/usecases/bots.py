"""The bot seats: each plays as soon as it has a move to make, from its seat's own view, and
each of its moves is an event of its own."""

from __future__ import annotations

from domain.deal import DealRandom
from domain.errors import Json, VersionConflict
from domain.registry import get_game
from domain.replay import Playthrough
from domain.stored import GameRecord, StoredGame
from domain.usecases.appending import append
from domain.usecases.court import Court


def bot_due(record: GameRecord, game: Playthrough) -> int | None:
    """The bot seat that has a move to make now, if any."""
    seats = record.seat_list
    for seat in game.ruleset.to_move(game.state):
        if seats[seat].is_bot:
            return int(seat)
    return None


def play_bots(
    court: Court, stored: StoredGame, game: Playthrough, viewer: int | None
) -> tuple[StoredGame, Playthrough, list[Json]]:
    """Play every bot seat's move due now, each from its seat's own view and appended as its
    own event (ordered conditional writes: a crash in between leaves a valid log, and the
    next request that reads the game plays the rest). Returns what `viewer` may see of them:
    each bot move as `public_log` shows it, followed by its effects."""
    effects: list[Json] = []
    entry = get_game(stored.record.ruleset)
    while (bot := bot_due(stored.record, game)) is not None:
        policy_name = stored.record.seat_list[bot].policy
        assert policy_name is not None  # every bot seat is dealt with one
        # The bot's randomness comes from the secret seed, so no seat can predict it, and
        # from nothing else its seat cannot see.
        rng = DealRandom(stored.record.seed, f"bot:{bot}:{stored.version}")
        choose = entry.policies[policy_name](rng)
        move = choose(game.ruleset, game.state, bot, game.legal_moves(bot))
        try:
            stored, bot_effects = append(court, stored, game, bot, move)
        except VersionConflict:  # another request is playing this bot: it will finish
            stored = court.load(stored.record.id)
            game = court.replay(stored, stored.version)
            continue
        shown = game.ruleset.public_log(game.state, [(bot, move)], viewer)[0]
        effects.append({"type": "bot_move", "seat": bot, "move": shown})
        effects += bot_effects
    return stored, game, effects
