"""Each access pattern's DynamoDB requests and partition keys, as the capacity model measures
them (bench/capacity.py, docs/capacity.md) on DynamoDB Local: a change that adds a request to
a pattern, or has it read or write a partition it did not, fails here until this table (and
the model's page) says so. A key with no id in it (`DAILY#<day>`, an index's `FINISHED`) is
one partition for the whole service: adding one to a popular pattern is how a hot key comes.
"""

from __future__ import annotations

from bench.capacity import measure_patterns

# pattern: (requests by operation, partition classes written, partition classes read)
BUDGET = {
    "game.create": ({"PutItem": 1}, {"GAME#<game>"}, set()),
    "game.read": ({"Query": 1}, set(), {"GAME#<game>"}),
    "game.move": ({"Query": 1, "PutItem": 1}, {"GAME#<game>"}, {"GAME#<game>"}),
    "game.finish": ({"Query": 1, "TransactWriteItems": 1}, {"GAME#<game>"}, {"GAME#<game>"}),
    "finished.page": ({"Query": 1}, set(), {"finished:FINISHED"}),
    "daily.page": ({"Query": 3}, set(), {"DAILY#<day>"}),
    "daily.start": (
        {"GetItem": 1, "TransactWriteItems": 1, "UpdateItem": 1},
        {"GAME#<game>", "PLAYER#<player>", "DAILY#<day>"},
        {"PLAYER#<player>"},
    ),
    "daily.finish": (
        {"Query": 1, "TransactWriteItems": 1, "UpdateItem": 2},
        {"GAME#<game>", "PLAYER#<player>", "DAILY#<day>#{r}", "DAILY#<day>#{r}#TALLY#<k>"},
        {"GAME#<game>"},
    ),
    "board.page": ({"Query": 1}, set(), {"DAILY#<day>#{r}"}),
    "board.you": (
        {"GetItem": 2, "Query": 5},
        set(),
        {"PLAYER#<player>", "DAILY#<day>#{r}", "DAILY#<day>#{r}#TALLY#<k>"},
    ),
    # Each in partitions of its own person: the account's pointer, its player, the token.
    "account.first_sign_in": (
        {"GetItem": 1, "PutItem": 1, "TransactWriteItems": 1, "UpdateItem": 1},
        {"SIGNIN#<token>", "PLAYER#<player>", "ACCOUNT#<account>"},
        {"ACCOUNT#<account>"},
    ),
    "account.sign_in": (
        {"GetItem": 2, "PutItem": 1, "UpdateItem": 1},
        {"SIGNIN#<token>", "PLAYER#<player>"},
        {"ACCOUNT#<account>", "PLAYER#<player>"},
    ),
}


def test_every_pattern_makes_the_requests_and_touches_the_keys_it_did(dynamodb_local_endpoint):
    from collections import Counter

    from bench.capacity import RULESET, partition_class

    patterns = measure_patterns(dynamodb_local_endpoint, runs=1)
    assert set(patterns) == set(BUDGET)
    for name, (operations, written, read) in BUDGET.items():
        requests = patterns[name].requests
        assert dict(Counter(r.operation for r in requests)) == operations, name
        keys = {
            kind: {partition_class(k) for r in requests for k in getattr(r, f"{kind}_units")}
            - {"(indexes)"}
            for kind in ("write", "read")
        }
        expected = {k.format(r=RULESET) for k in written}, {k.format(r=RULESET) for k in read}
        assert (keys["write"], keys["read"]) == expected, name
