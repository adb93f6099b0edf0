"""Each use case of domain/usecases/ on the in-memory store: no Flask, no database, a clock
the test turns, secrets that count."""

from __future__ import annotations

import pytest

from domain.deal import seed_commitment
from domain.stored import DailyDeal
from domain.usecases.court import Court
from tests.api_helpers import counting_secrets
from tests.fakes import InMemoryStore


class Clock:
    """The injected clock: a fixed instant that a test moves on."""

    def __init__(self, now: str = "2026-11-22T10:00:00.000Z") -> None:
        self.now = now

    def __call__(self) -> str:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store():
    return InMemoryStore()


@pytest.fixture
def court(store, clock):
    return Court(store, clock, counting_secrets(), b"use-case-daily-secret")


def keep_deal(store, day, ruleset, seed="daily-seed"):
    """A day's deal kept as if the schedule had chosen it: no solver runs in a unit test."""
    store.save_daily(DailyDeal(day, ruleset, seed, seed_commitment(seed), 0, 2, 3, 10, {}))
