"""Test double for ``random.Random``: ``randint`` returns a scripted sequence."""

from __future__ import annotations


class ScriptedRNG:
    """A stand-in for random.Random whose randint returns a scripted sequence."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.calls: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        assert self.values, f"the script ran out at randint({a}, {b})"
        value = self.values.pop(0)
        assert a <= value <= b, f"scripted {value} is outside {a}..{b}"
        self.calls.append((a, b))
        return value

    def done(self) -> bool:
        return not self.values
