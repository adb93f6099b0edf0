"""How good a Royal Assassin position looks to the player: the greedy bot's guide."""

from __future__ import annotations

from domain.games.royal_assassin.rules import RANK_VALUE, ROYAL, State, pretender_totals


def heuristic(state: State, seat: int) -> float:
    """Royals killed count most, then pressure on Pretenders and a well-placed Joker.

    Reads only what the player sees (columns, discard), never the stock.
    """
    if state.status == "won":
        return 10_000.0
    score = 3.0 * sum(RANK_VALUE[c.rank] for c in state.discard if c.is_royal)
    ace_low = state.options.ace_low_after_play
    for c, column in enumerate(state.columns):
        p, attack, defense = pretender_totals(column, ace_low, None)
        if p < 0:
            continue
        royals = [e.card for e in column if e.role == ROYAL]
        score -= sum(RANK_VALUE[r.rank] for r in royals)
        score += min(attack - defense, RANK_VALUE[column[p].card.rank])
        if state.jokers_above[c] is not None:
            score += 0.5 * sum(RANK_VALUE[r.rank] for r in royals[:-1])
    return score
