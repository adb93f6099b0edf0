"""Per-client rate limits for `court serve`: a token bucket per client address, per process.

Creating a player or a game is cheap for a client and not for the server (rows kept forever,
a deal, a daily attempt), so `court serve` limits how often one address may do it
(`--players-per-minute`, `--games-per-minute`; docs/api.md, "Limits"). Each worker process
keeps its own buckets: with N workers a client may get up to N times the rate, as the kernel
spreads its connections. On AWS, API Gateway's throttles and a WAF rate-based rule do this job.
The app applies them (`create_app(games_per_minute=..., players_per_minute=...)`, a 429 problem
past the rate), so they live beside it; only `court serve` turns them on.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

GAMES_PER_MINUTE = 60
"""`court serve`'s default rate of games one address may create, per worker."""
PLAYERS_PER_MINUTE = 10
"""... of players one address may create, per worker."""
MOVES_PER_MINUTE = 600
"""... of moves one address may make, per worker (each a row kept as long as its game)."""
COSTLY_READS_PER_MINUTE = 300
"""... of records, replay steps, verifications and profiles one address may ask for, per worker."""
MAX_CLIENTS = 10_000
"""Buckets kept at most per limit (least recently used out): a few hundred kilobytes. A bucket
left out is one that has not been used for the longest time, most likely full again anyway."""


def client_key(address: str | None) -> str:
    """The bucket a client address draws from: an IPv4 address, or an IPv6 address's /64
    (one host is usually given a whole /64, and must not get a fresh bucket per address)."""
    if not address:
        return "-"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class RateLimiter:
    """At most `per_minute` requests a minute per client, in bursts of up to `burst` (by
    default a minute's worth): a bucket of `burst` tokens per client, refilled at
    `per_minute / 60` tokens a second, one token per request."""

    def __init__(
        self,
        per_minute: float,
        *,
        burst: float | None = None,
        max_clients: int = MAX_CLIENTS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if per_minute <= 0:
            raise ValueError("a rate limit is a positive number per minute")
        self.per_minute = per_minute
        self.rate = per_minute / 60.0
        self.burst = max(1.0, float(burst if burst is not None else per_minute))
        self.max_clients = max_clients
        self.clock = clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> tokens, at

    def take(self, address: str | None) -> int:
        """Take a token for this client: 0 if it may go on, else the whole seconds until it
        may try again (for `Retry-After`)."""
        key = client_key(address)
        now = self.clock()
        with self._lock:
            tokens, at = self._buckets.pop(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - at) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                wait = 0
            else:
                self._buckets[key] = (tokens, now)
                wait = max(1, math.ceil((1.0 - tokens) / self.rate))
            while len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)
        return wait

    def __len__(self) -> int:
        return len(self._buckets)
