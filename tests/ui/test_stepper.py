"""The Stepper's digit type-ahead, driven by keys in a small app (Pilot).

Digits typed within ``Stepper.TYPE_AHEAD_SECONDS`` of each other build one number (1 then
2 is 12), so a GM can type counts of 10 or more. The clock is a fake: no test sleeps.
"""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from hsm_tui.ui.widgets import stepper as stepper_module
from hsm_tui.ui.widgets.stepper import Stepper

COUNTS = [(str(n), n) for n in range(1, 41)]


class FakeClock:
    """Stands in for ``monotonic`` in the stepper module; time moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(stepper_module, "monotonic", fake)
    return fake


class _OneField(App[None]):
    def __init__(self, choices: list[tuple[str, object]], value: object) -> None:
        super().__init__()
        self.choices = choices
        self.start = value

    def compose(self) -> ComposeResult:
        yield Stepper("Count", self.choices, self.start, id="field")


async def _keys(pilot: Pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


def _field(pilot: Pilot) -> Stepper:
    return pilot.app.query_one("#field", Stepper)


async def test_digits_in_quick_succession_build_a_number(clock: FakeClock) -> None:
    async with _OneField(COUNTS, 1).run_test() as pilot:
        await _keys(pilot, "1", "2")
        assert _field(pilot).value == 12
        await _keys(pilot, "right", "4", "0")  # ← → start a new number
        assert _field(pilot).value == 40


async def test_a_pause_longer_than_the_timeout_starts_a_new_number(clock: FakeClock) -> None:
    async with _OneField(COUNTS, 1).run_test() as pilot:
        await _keys(pilot, "1")
        clock.now += Stepper.TYPE_AHEAD_SECONDS + 0.1
        await _keys(pilot, "2")
        assert _field(pilot).value == 2
        clock.now += Stepper.TYPE_AHEAD_SECONDS  # just within: the number goes on
        await _keys(pilot, "5")
        assert _field(pilot).value == 25


async def test_a_number_that_is_no_choice_falls_back_to_the_last_digit(clock: FakeClock) -> None:
    async with _OneField(COUNTS, 1).run_test() as pilot:
        await _keys(pilot, "4", "1")  # 41 is beyond 40
        assert _field(pilot).value == 1
        await _keys(pilot, "2")  # the number goes on from the 1: 12
        assert _field(pilot).value == 12
    async with _OneField([(str(n), n) for n in range(4)], 0).run_test() as pilot:
        await _keys(pilot, "1", "2")  # 0..3: no 12, so 2
        assert _field(pilot).value == 2
        await _keys(pilot, "9")  # no 29 nor 9: nothing changes
        assert _field(pilot).value == 2


async def test_a_value_set_by_code_starts_a_new_number(clock: FakeClock) -> None:
    """The builder puts Count back to 1 after an add: the next digit is a new count."""
    async with _OneField(COUNTS, 1).run_test() as pilot:
        await _keys(pilot, "1")
        _field(pilot).value = 1
        await _keys(pilot, "2")
        assert _field(pilot).value == 2


async def test_signed_choices_are_typed_without_the_plus(clock: FakeClock) -> None:
    choices = [(f"{n:+d}" if n else "0", n) for n in range(-3, 4)]
    async with _OneField(choices, 0).run_test() as pilot:
        await _keys(pilot, "2")
        assert _field(pilot).value == 2
