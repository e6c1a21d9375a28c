"""Colour carries meaning only with a symbol or a word (DESIGN, terminal constraints).

The app must render under ``NO_COLOR`` (Textual turns every colour to grey) and in a
16-colour terminal (``TEXTUAL_COLOR_SYSTEM=standard``) without errors, and the facts a GM
reads by colour elsewhere — whose turn it is (▶), Shaken, Fear/Morale, Fortune ★ and
Misfortune ✗ — must still be there as text.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from rich.color import ColorType
from textual.pilot import Pilot

from hsm_tui.campaign.combat import SetCondition
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp

SEED = 7
SIZE = (80, 24)
ROAN = "roan-maddox-1"

SGR = re.compile(r"\x1b\[([0-9;]*)m")
BASIC_COLOURS = {0, 1, 2, 3, 4, 7, 9, 21, 22, 23, 24, 27, 29, 39, 49}
BASIC_COLOURS |= {*range(30, 38), *range(40, 48), *range(90, 98), *range(100, 108)}
"""SGR parameters a 16-colour terminal understands: attributes, resets, 8 + 8 colours."""

SCREENS = {
    "f2": ("TN 4", "★ Fort.", "✗ Misf."),
    "f3": ("Content",),
    "f4": ("▶", "Kestrel Vance", "shaken", "F/M"),
    "f5": ("Severe Wound",),
    "f6": ("Log",),
}
"""Per screen key: text that must be on the 80×24 frame."""


class Frame(NamedTuple):
    """One composed 80×24 frame: its text, the bytes a terminal gets, its RGB colours."""

    text: str
    ansi: str
    rgb: list[tuple[int, int, int]]


def _frame(app: HsmApp) -> Frame:
    """The whole current frame. Textual has no public call for a composed frame as text;
    ``export_screenshot`` builds the same full update but always encodes true-colour SVG.
    """
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    segments = [seg for line in update.strips for strip in line for seg in strip]
    colours = {
        colour
        for seg in segments
        if seg.style is not None
        for colour in (seg.style.color, seg.style.bgcolor)
        if colour is not None and colour.type is ColorType.TRUECOLOR and colour.triplet
    }
    text = "\n".join("".join(strip.text for strip in line) for line in update.strips)
    rgb = sorted({tuple(c.triplet) for c in colours if c.triplet is not None})
    return Frame(text, update.render_segments(app.console), rgb)  # type: ignore[arg-type]


def _sgr_codes(ansi: str) -> Iterator[list[int]]:
    for match in SGR.finditer(ansi):
        yield [int(p) for p in match.group(1).split(";") if p]


async def _fight(pilot: Pilot) -> None:
    """The example fight, initiative rolled, Roan Shaken (he acts after Kestrel, so the
    condition is still on the table)."""
    await pilot.press("f4", "L", "s")
    await pilot.pause()
    pilot.app.session.apply(SetCondition(ROAN, "shaken"))  # type: ignore[attr-defined]
    await pilot.pause()


async def _every_screen(app: HsmApp) -> dict[str, Frame]:
    """Each mode's frame, the combat screen mid-fight."""
    frames = {}
    async with app.run_test(size=SIZE) as pilot:
        await _fight(pilot)
        for key in SCREENS:
            await pilot.press(key)
            await pilot.pause()
            frames[key] = _frame(app)
        assert app._exception is None
    return frames


def _missing(frames: dict[str, Frame]) -> dict[str, list[str]]:
    """Per screen, the words that should be on it and are not."""
    found = {
        key: [w for w in wanted if w not in frames[key].text] for key, wanted in SCREENS.items()
    }
    return {key: words for key, words in found.items() if words}


def print_frames_in_this_terminal() -> None:
    """Run in a fresh interpreter by the 16-colour test: Rich caches each style's escape
    codes for the first colour system it meets, so one process cannot test two systems.
    """
    frames = asyncio.run(_every_screen(HsmApp(Session(seed=SEED))))
    print(json.dumps({key: frame._asdict() for key, frame in frames.items()}))


async def test_no_color_turns_every_colour_grey_and_keeps_the_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = HsmApp(Session(seed=SEED))
    assert app.no_color
    frames = await _every_screen(app)
    assert _missing(frames) == {}
    for key, frame in frames.items():
        assert frame.rgb, f"{key}: no colour at all (is the filter gone?)"
        assert [c for c in frame.rgb if len(set(c)) > 1] == [], f"{key}: a colour not grey"


def test_sixteen_colour_terminal_gets_only_basic_colours_and_the_words() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["TEXTUAL_COLOR_SYSTEM"] = "standard"
    probe = f"from {__name__} import print_frames_in_this_terminal as p; p()"
    result = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    frames = {key: Frame(**data) for key, data in json.loads(result.stdout).items()}
    assert _missing(frames) == {}
    for key, frame in frames.items():
        used = {p for params in _sgr_codes(frame.ansi) for p in params}
        assert used - BASIC_COLOURS == set(), f"{key}: codes a 16-colour terminal lacks"
        assert used & {*range(30, 38), *range(90, 98)}, f"{key}: no colour at all"


def test_snapshot_no_color_combat_80x24(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    """The combat screen mid-fight under NO_COLOR at the smallest supported size."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(HsmApp(Session(seed=SEED)), run_before=_fight, terminal_size=SIZE)
