"""The hash-chained record format (docs/record-format.md)."""

from domain.deal import seed_commitment
from domain.record import canonical_json, chain_breaks, move_hash

ATTACK = {"type": "attack", "column": "hearts"}


def test_the_documented_vector():
    # Computed independently with printf ... | sha256sum.
    expected = "f432386221aaa486b529c46bb5423362f4c1a02fad4c38dfe8f3b0a62d61cd62"
    assert move_hash(seed_commitment("royal"), 1, 0, ATTACK) == expected


def test_canonical_json_sorts_keys_and_keeps_utf8():
    assert canonical_json({"b": 1, "a": ["é", 2]}) == '{"a":["é",2],"b":1}'


def chain(moves):
    out, previous = [], seed_commitment("royal")
    for seq, move in enumerate(moves, start=1):
        previous = move_hash(previous, seq, 0, move)
        out.append((seq, 0, move, previous))
    return out


def test_an_intact_chain_has_no_breaks():
    assert chain_breaks(seed_commitment("royal"), chain([ATTACK, {"type": "draw"}])) == []


def test_tampering_shows():
    log = chain([ATTACK, {"type": "draw"}, {"type": "reserve"}])
    edited = [log[0], (2, 0, {"type": "resign"}, log[1][3]), log[2]]
    assert chain_breaks(seed_commitment("royal"), edited) == [2]
    reordered = [log[1], log[0], log[2]]
    assert chain_breaks(seed_commitment("royal"), reordered) == [2, 1, 3]
    assert chain_breaks(seed_commitment("other"), log)[0] == 1
