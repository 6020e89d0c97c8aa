"""The seeded random generator carried inside game state (PCG32, XSH-RR).

The generator's whole state is the ``RngState`` message inside a game's state,
so a game is reproducible from (options, seed, moves) and the RNG survives
storage. Each draw writes the advanced state straight back into that message:
an engine cannot forget to save it. The RNG state never appears in a view.

PCG32 reference: M. O'Neill, "PCG: A Family of Simple Fast Space-Efficient
Statistically Good Algorithms for Random Number Generation" (2014).
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from throneroom.v1 import common_pb2

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005
_T = TypeVar("_T")


def seed_rng(msg: common_pb2.RngState, seed: int, stream: int = 0x5851F42D4C957F2D) -> None:
    """Initialise ``msg`` from a 64-bit seed (and an optional stream selector)."""
    inc = ((stream << 1) | 1) & _MASK64
    state = 0
    state = (state * _MULT + inc) & _MASK64
    state = (state + (seed & _MASK64)) & _MASK64
    state = (state * _MULT + inc) & _MASK64
    msg.state = state
    msg.inc = inc


class Rng:
    """Draws from the PCG32 state held in ``msg`` (advanced in place)."""

    __slots__ = ("_msg",)

    def __init__(self, msg: common_pb2.RngState) -> None:
        self._msg = msg

    def next_u32(self) -> int:
        msg = self._msg
        old = msg.state
        msg.state = (old * _MULT + msg.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) without modulo bias (rejection sampling)."""
        if not 0 < n <= 1 << 32:
            raise ValueError(f"below() needs 0 < n <= 2**32, got {n}")
        threshold = ((1 << 32) - n) % n
        while True:
            r = self.next_u32()
            if r >= threshold:
                return r % n

    def choice(self, items: Sequence[_T]) -> _T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[_T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
