"""A small deterministic random generator whose whole state is one integer.

The engine needs shuffles that are identical for the same seed on every Python version and
platform, and a state that copies for free and serialises to JSON. SplitMix64 (Steele, Lea,
Flood 2014) gives single draws; shuffles sort by 32-bit keys from BLAKE2b in counter mode,
which runs in C and is several times faster than a Python Fisher-Yates loop (a round's deal
shuffles 108 cards). ``random.Random`` gives none of this cheaply (625 words of state).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import MutableSequence
from hashlib import blake2b
from typing import TypeVar

__all__ = ["Rng"]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_BIG_ENDIAN = sys.byteorder == "big"
_U32 = next(t for t in "IL" if array(t).itemsize == 4)
T = TypeVar("T")


class Rng:
    """SplitMix64. ``state`` is a 64-bit integer; the generator is a value-like object."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in ``range(n)`` (Lemire's multiply-shift; bias below 2**-50 here)."""
        return (self.next64() * n) >> 64

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place: a uniform permutation (ties of 32-bit keys keep their order,
        a bias below one in a million for a deck)."""
        n = len(items)
        if n < 2:
            return
        key = self.next64().to_bytes(8, "little")
        blocks = (4 * n + 63) // 64
        raw = b"".join(
            blake2b(i.to_bytes(4, "little"), digest_size=64, key=key).digest()
            for i in range(blocks)
        )
        keys = array(_U32)
        keys.frombytes(raw[: 4 * n])
        if _BIG_ENDIAN:
            keys.byteswap()
        order = sorted(range(n), key=keys.__getitem__)
        items[:] = [items[i] for i in order]

    def copy(self) -> Rng:
        return Rng(self.state)
