"""The per-client token buckets behind `court serve`'s rate limits (handlers/http/limits.py)."""

import pytest

from handlers.http.limits import RateLimiter, client_key


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_a_burst_then_one_request_per_interval():
    clock = Clock()
    limiter = RateLimiter(6, clock=clock)  # six a minute: a burst of six, then one every 10 s
    assert [limiter.take("10.0.0.1") for _ in range(6)] == [0] * 6
    assert limiter.take("10.0.0.1") == 10
    clock.now += 4
    assert limiter.take("10.0.0.1") == 6  # a refused request takes nothing
    clock.now += 6
    assert limiter.take("10.0.0.1") == 0
    assert limiter.take("10.0.0.1") == 10
    clock.now += 3600  # a long pause refills the bucket, never past the burst
    assert [limiter.take("10.0.0.1") for _ in range(7)] == [0] * 6 + [10]


def test_each_address_has_its_own_bucket():
    limiter = RateLimiter(1, clock=Clock())
    assert limiter.take("10.0.0.1") == 0
    assert limiter.take("10.0.0.1") == 60
    assert limiter.take("10.0.0.2") == 0


def test_an_ipv6_host_is_one_client_per_64():
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:ffff::9")
    assert client_key("2001:db8:1:2::1") != client_key("2001:db8:1:3::1")
    assert client_key("::ffff:192.0.2.1") == client_key("192.0.2.1") == "192.0.2.1"
    assert client_key(None) == client_key("") == "-"
    limiter = RateLimiter(1, clock=Clock())
    assert limiter.take("2001:db8::1") == 0
    assert limiter.take("2001:db8::2") == 60


def test_the_table_of_buckets_is_bounded():
    clock = Clock()
    limiter = RateLimiter(1, max_clients=100, clock=clock)
    for i in range(10_000):
        limiter.take(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}")
    assert len(limiter) == 100
    # The most recently used are kept: the last address is still empty-handed.
    assert limiter.take("10.0.39.15") == 60


def test_a_limit_is_positive():
    with pytest.raises(ValueError):
        RateLimiter(0)
