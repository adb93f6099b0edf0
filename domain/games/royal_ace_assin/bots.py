"""Royal Ace-assin bots. Each decides from its seat's view alone (`bots.from_view`), so no bot
can see a card or a sealed flip its seat cannot.

`greedy` is the few lines of heuristic a newcomer plays: the strongest cards on the King, the
assassin on the enemy figurehead with the highest visible total.

`best` plays a plan and reasons about what it cannot see:
- **Placement**: its nine supporters are split once into two strong figureheads (King and
  Queen, about 22-23 each) and a weak Jack (the three lowest). An opponent's assassin can kill
  only one figurehead, so the second strong one survives; the highest cards go down first,
  in turn 1, where two of three stay face down until the end.
- **Assassination**: the enemy's face-down supporters are a known set of cards (its nine
  minus those face up) in known places, so every way of dealing them into those places is
  enumerated (at most 3! at the gambit). For each target it scores the chance of winning over
  those placements: as the second assassin exactly (it knows which of its own died); as the
  first, against the enemy's best reply in each placement (a cautious minimax).
"""

from __future__ import annotations

from itertools import permutations

from domain.deal import DealRandom
from domain.errors import Json
from domain.games.royal_ace_assin.rules import FIGUREHEADS, SUPPORTER_RANKS, value

RANK_ORDER = {"king": 0, "queen": 1, "jack": 2}


def _real(view: Json) -> list[Json]:
    return [m for m in view["legal_moves"] if m["type"] != "resign"]


def random_choice(view: Json, rng: DealRandom) -> Json:
    choices = _real(view) or view["legal_moves"]
    return choices[rng.uniform(len(choices))]


def greedy_choice(view: Json, rng: DealRandom) -> Json:
    choices = _real(view)
    kind = choices[0]["type"]
    seat = view["seat"]
    if kind == "place":
        hand = sorted(view["sides"][seat]["hand"], key=value)  # the King takes the strongest
        return {"type": "place", "cards": {"king": hand[-1], "queen": hand[1], "jack": hand[0]}}
    if kind == "assassinate":
        enemy = view["sides"][1 - seat]["figureheads"]
        return max(
            choices, key=lambda m: (_visible_total(enemy[m["target"]]), -RANK_ORDER[m["target"]])
        )
    return choices[0]


def best_choice(view: Json, rng: DealRandom) -> Json:
    choices = _real(view)
    kind = choices[0]["type"]
    if kind == "place":
        return _planned_place(view)
    if kind == "assassinate":
        return _best_assassination(view, choices)
    return choices[rng.uniform(len(choices))]


def _visible_total(figurehead: Json) -> int:
    return sum(value(s["card"]) for s in figurehead["supporters"] if s["face_up"])


# ---- placement -------------------------------------------------------------------------------


def plan(cards: list[str]) -> dict[str, list[str]]:
    """The nine supporters split into King and Queen (strong, near equal) and Jack (weak).

    >>> plan([r + "H" for r in "23456789T"])
    {'king': ['TH', '8H', '5H'], 'queen': ['9H', '7H', '6H'], 'jack': ['4H', '3H', '2H']}
    """
    ordered = sorted(cards, key=value, reverse=True)
    strong, weak = ordered[:6], ordered[6:]
    # T 9 8 7 6 5 -> King T 8 5 (23), Queen 9 7 6 (22)
    return {
        "king": [strong[0], strong[2], strong[5]],
        "queen": [strong[1], strong[3], strong[4]],
        "jack": weak,
    }


def _planned_place(view: Json) -> Json:
    side = view["sides"][view["seat"]]
    placed = {f: [s["card"] for s in side["figureheads"][f]["supporters"]] for f in FIGUREHEADS}
    everything = side["hand"] + [c for f in FIGUREHEADS for c in placed[f]]
    target = plan(everything)
    cards = {}
    hand = list(side["hand"])
    for f in FIGUREHEADS:
        wanted = [c for c in target[f] if c in hand]
        pick = wanted[0] if wanted else max(hand, key=value)
        hand.remove(pick)
        cards[f] = pick
    return {"type": "place", "cards": cards}


# ---- the gambit ------------------------------------------------------------------------------


def _placements(side: Json) -> list[dict[str, int]]:
    """Every way the side's face-down supporters may lie, as totals per living figurehead."""
    letter = side["assassin"]["card"][1]
    known = [
        s["card"]
        for f in FIGUREHEADS
        for s in side["figureheads"][f]["supporters"]
        if s["card"] is not None
    ]
    unseen = [r + letter for r in SUPPORTER_RANKS if r + letter not in known]
    slots = [
        f for f in FIGUREHEADS for s in side["figureheads"][f]["supporters"] if s["card"] is None
    ]
    base = {
        f: sum(
            value(s["card"]) for s in side["figureheads"][f]["supporters"] if s["card"] is not None
        )
        for f in FIGUREHEADS
    }
    if not slots:
        return [base]
    seen: set[tuple[int, ...]] = set()
    out = []
    for order in permutations(unseen, len(slots)):
        totals = dict(base)
        for f, card in zip(slots, order, strict=True):
            totals[f] += value(card)
        key = tuple(totals[f] for f in FIGUREHEADS)
        if key not in seen:
            seen.add(key)
            out.append(totals)
    return out


def _win(mine: dict[str, int], theirs: dict[str, int]) -> float:
    """1 if my best living figurehead rules, 0 if theirs does, 0.5 on a card tie-break."""
    best_mine = max((t, -RANK_ORDER[f]) for f, t in mine.items())
    best_theirs = max((t, -RANK_ORDER[f]) for f, t in theirs.items())
    if best_mine == best_theirs:
        return 0.5
    return 1.0 if best_mine > best_theirs else 0.0


def _best_assassination(view: Json, choices: list[Json]) -> Json:
    seat = view["seat"]
    me, enemy = view["sides"][seat], view["sides"][1 - seat]
    my_totals = {
        f: sum(value(s["card"]) for s in me["figureheads"][f]["supporters"])
        for f in FIGUREHEADS
        if me["figureheads"][f]["alive"]
    }
    layouts = _placements(enemy)
    second = len(my_totals) < 3  # my side has lost one: the enemy's assassin is out

    def score(target: str) -> float:
        total = 0.0
        for layout in layouts:
            theirs = {f: t for f, t in layout.items() if f != target}
            if second:
                total += _win(my_totals, theirs)
            else:
                total += min(
                    _win({f: t for f, t in my_totals.items() if f != reply}, theirs)
                    for reply in my_totals
                )
        return total / len(layouts)

    return max(choices, key=lambda m: (score(m["target"]), -RANK_ORDER[m["target"]]))
