"""Test double for ``random.Random``: ``randint`` returns a scripted sequence."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class ScriptedRNG:
    """A stand-in for random.Random whose randint returns a scripted sequence, and
    ``choice``: a scripted die from 1 to ``len(seq)`` picks the item (1 = the first), so a
    die rolled as ``choice(range(1, sides + 1))`` takes its face straight from the script.
    """

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.calls: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        assert self.values, f"the script ran out at randint({a}, {b})"
        value = self.values.pop(0)
        assert a <= value <= b, f"scripted {value} is outside {a}..{b}"
        self.calls.append((a, b))
        return value

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randint(1, len(seq)) - 1]

    def done(self) -> bool:
        return not self.values
