"""Deal algorithm v1: the public, language-independent way every deal is derived from a seed.

Anyone holding a revealed seed must be able to re-derive the exact deal in any language, so
the algorithm uses nothing but SHA-256 and integer arithmetic (see docs/deal-algorithm.md).
Python's `random` module is never used to decide anything in a game.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Iterator, Sequence
from typing import NamedTuple, TypeVar

from domain.errors import InvalidSeed, Json

T = TypeVar("T")

SEED_PATTERN = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_TWO_64 = 1 << 64
_FOUR_DRAWS = struct.Struct(">4Q")
_SMALL = 128
_LIMITS = [0] + [(_TWO_64 // n) * n for n in range(1, _SMALL)]
"""The rejection limit of uniform(n) for small n: the largest multiple of n up to 2**64."""
_SMALLEST_LIMIT = min(_LIMITS[2:])
"""A draw below this is accepted by uniform(n) for every small n: a shuffle checks it once."""


def check_seed(seed: object) -> str:
    """Return the seed unchanged, or raise InvalidSeed saying what a seed must look like."""
    if not isinstance(seed, str) or SEED_PATTERN.fullmatch(seed) is None:
        raise InvalidSeed("a seed is 1 to 128 characters from A-Z a-z 0-9 . _ : -")
    return seed


def stream(seed: str, label: str) -> Iterator[int]:
    """Yield the 64-bit draws of stream(seed, label), forever.

    Block k is SHA-256(seed 0x00 label 0x00 k as 8-byte big-endian); each block gives four
    draws, its 8-byte big-endian chunks in order.

    >>> next(stream("royal", "deal"))
    10724036181559373590
    """
    prefix = seed.encode("utf-8") + b"\x00" + label.encode("utf-8") + b"\x00"
    counter = 0
    while True:
        block = hashlib.sha256(prefix + counter.to_bytes(8, "big")).digest()
        yield int.from_bytes(block[0:8], "big")
        yield int.from_bytes(block[8:16], "big")
        yield int.from_bytes(block[16:24], "big")
        yield int.from_bytes(block[24:32], "big")
        counter += 1


class DealRandom:
    """Unbiased integers and shuffles drawn from one labelled stream of a seed."""

    __slots__ = ("_block", "_buffer", "_prefix")

    def __init__(self, seed: str, label: str) -> None:
        # Same draws as `stream`, unpacked four at a time: shuffles run once per game dealt.
        self._prefix = seed.encode("utf-8") + b"\x00" + label.encode("utf-8") + b"\x00"
        self._block = 0
        self._buffer: list[int] = []

    def copy(self) -> DealRandom:
        """An independent stream at the same position: how a game state that draws as it
        plays (dice) is copied without replaying its draws."""
        new = DealRandom.__new__(DealRandom)
        new._prefix, new._block, new._buffer = self._prefix, self._block, self._buffer[:]
        return new

    def draw(self) -> int:
        """The next 64-bit draw of the stream."""
        return (self._buffer or self._refill()).pop()

    def uniform(self, n: int) -> int:
        """An integer in [0, n), by rejection so that every value is exactly equally likely.

        >>> rng = DealRandom("royal", "deal")
        >>> [rng.uniform(6) for _ in range(5)]
        [4, 3, 5, 5, 5]
        """
        if n < 1:
            raise ValueError("uniform(n) needs n >= 1")
        limit = _LIMITS[n] if n < _SMALL else (_TWO_64 // n) * n
        while True:
            x = (self._buffer or self._refill()).pop()
            if x < limit:
                return x % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list: Fisher-Yates from the last index down, j = uniform(i + 1).

        `uniform` and `draw` are inlined here because every game dealt runs this loop; a
        draw uniform(n) would reject lies within n of 2**64, so a shuffle whose draws are all
        below every limit skips the checks (the rejection path is the loop after it).
        """
        result = list(items)
        buffer = self._buffer
        swaps = len(result) - 1
        if swaps < 1:
            return result
        if swaps > len(buffer):
            buffer = self._prefetch((swaps - len(buffer) + 3) // 4)
        if swaps < _SMALL - 1:
            draws = buffer[-swaps:]
            if max(draws) < _SMALLEST_LIMIT:  # no draw rejected: all of them in one pass
                del buffer[-swaps:]
                draws.reverse()
                for i, x in zip(range(swaps, 0, -1), draws, strict=True):
                    j = x % (i + 1)
                    result[i], result[j] = result[j], result[i]
                return result
        for i in range(swaps, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < _SMALL else (_TWO_64 // n) * n
            while True:
                if not buffer:
                    buffer = self._refill()
                x = buffer.pop()
                if x < limit:
                    break
            j = x % n
            result[i], result[j] = result[j], result[i]
        return result

    def _prefetch(self, blocks: int) -> list[int]:
        """The next `blocks` blocks' draws queued behind those still buffered, hashed in one
        go: a shuffle knows how many draws it needs before it starts."""
        prefix, first = self._prefix, self._block
        digests = b"".join(
            hashlib.sha256(prefix + k.to_bytes(8, "big")).digest()
            for k in range(first, first + blocks)
        )
        fresh = list(struct.unpack(f">{4 * blocks}Q", digests))
        fresh.reverse()
        self._buffer = buffer = fresh + self._buffer
        self._block = first + blocks
        return buffer

    def _refill(self) -> list[int]:
        """The next block's four draws, last first (they are popped off the end)."""
        digest = hashlib.sha256(self._prefix + self._block.to_bytes(8, "big")).digest()
        self._buffer = buffer = list(_FOUR_DRAWS.unpack(digest))
        buffer.reverse()
        self._block += 1
        return buffer


def shuffled(seed: str, label: str, items: Sequence[T]) -> list[T]:
    """The items shuffled by stream(seed, label); index 0 is the top card.

    >>> shuffled("royal", "deal", "ABCDE")
    ['E', 'D', 'C', 'B', 'A']
    """
    return DealRandom(seed, label).shuffle(items)


def seed_commitment(seed: str) -> str:
    """Hex SHA-256 of the UTF-8 seed: published before play, checked once the seed is revealed.

    >>> seed_commitment("royal")
    'aa43038afb6314a3b24c02613eb13eb4821b24187af19c86431563f46f11ce6f'
    """
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class DealStep(NamedTuple):
    """One shuffle of a deal (docs/deal-algorithm.md): the stream `label` shuffles `cards`,
    given in their canonical order. A game's deal is its steps' shuffles, one after another;
    published as data so that any client can re-derive a finished game's deck from its seed."""

    label: str
    cards: tuple[str, ...]

    def to_json(self) -> Json:
        return {"label": self.label, "cards": list(self.cards)}
