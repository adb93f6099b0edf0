"""Schemathesis, in process, against the Flask app: no 5xx, every response as documented."""

from collections import Counter

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from tests.api_helpers import make_app

APP = make_app()
schema = schemathesis.openapi.from_wsgi("/openapi.yaml", APP)
CASES: list[str] = []


@schema.parametrize()
@settings(max_examples=90, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms(case):
    CASES.append(case.operation.label)
    # Every default check but one: JSON Schema counts 9.0 as an integer, and this API is
    # deliberately stricter (integers must be written as integers), so a "schema-valid" 9.0
    # is rightly refused with 422. Everything else, including negative data, is checked.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


def test_enough_cases_ran():
    """At least 500 generated cases over every operation of the spec."""
    assert len(CASES) >= 500, len(CASES)
    assert len(set(CASES)) == len(list(schema.get_all_operations()))


def test_stateful_links_play_games():
    """Schemathesis' stateful phase follows the spec's links (a new seat's token and version
    into reads and moves, a new player's token into its daily attempt), so it plays moves
    and finds nothing. `ignored_auth` is left out here only: a token a link carries into
    `Authorization` looks to it like a generated one, so a move made with the seat's real
    token would be reported as accepted without authentication (the stateless run above
    keeps the check)."""
    seen: Counter[tuple[str, int]] = Counter()
    # Its own app, store and spec: what the stateful phase explores depends on the answers it
    # gets, so it starts from the same empty server whatever ran before it in the session.
    own = schemathesis.openapi.from_wsgi("/openapi.yaml", make_app())

    class Machine(own.as_state_machine()):  # type: ignore[misc]
        def validate_response(self, response, case, **kwargs):
            seen[(case.operation.label, response.status_code)] += 1
            case.validate_response(
                response, excluded_checks=[positive_data_acceptance, ignored_auth]
            )

    Machine.run(
        settings=settings(
            max_examples=30, stateful_step_count=8, derandomize=True, deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )  # fmt: skip
    assert seen[("POST /v1/games/{game_id}/moves", 201)] > 0, seen
    assert seen[("POST /v1/daily/{date}/{ruleset}/games", 201)] > 0, seen
