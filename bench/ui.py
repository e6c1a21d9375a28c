"""UI figures: cold start to the first frame, key press → frame on the combat screen, and
on the encounter builder while its forecast plays (issue 22: "the screen stays responsive").

Run: ``.venv/bin/python bench/ui.py`` (``--quick`` for fewer runs). Prints a table; never
fails on timing. Targets: ``hsm`` draws its first frame within 1.3× the time a bare
Textual hello-world takes, both measured in the same run; a key on the combat screen
with 40 combatants shows its effect within 50 ms (median to the first frame after the
key; "settled" is the last frame it caused, e.g. a deferred table or header update).

Cold start runs each app as a fresh process in a pseudo-terminal (80×24), the way a GM
starts it, and stops the clock when the first frame's text reaches the terminal (and,
for ``hsm``, again when the home screen shows the party from the Session, which loads
the engine and packs just after the first frame). So it
needs a POSIX system (``pty``); elsewhere that part is skipped.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import textual
from table import record  # bench/table.py: issue 22's rows

from hsm_tui.campaign.combat import AddCombatants, AddZone, SetBand, StartCombat
from hsm_tui.forecast import fight_pool
from hsm_tui.packs import content_dirs, load
from hsm_tui.persistence.encounter_file import encounter_commands, read_encounter
from hsm_tui.table.session import Batch, Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.combat import CombatScreen
from hsm_tui.ui.screens.encounter_builder import EncounterBuilderScreen
from hsm_tui.ui.widgets.forecast_panel import ForecastPanel

START_TARGET = 1.2  # issue 22 (1.3 before it)
USABLE_TARGET = 1.5  # issue 22: the home screen filled in, engine and packs loaded
KEY_TARGET_MS = 50.0

HELLO = """\
from textual.app import App
from textual.widgets import Static

class Hello(App):
    def compose(self):
        yield Static("Hello, world")

Hello().run()
"""
"""The baseline: the smallest Textual app, one Static widget."""

APPS: dict[str, tuple[list[str], tuple[bytes, ...]]] = {
    "hello-world (bare Textual)": ([sys.executable, "-c", HELLO], (b"Hello, world",)),
    "hsm (home screen)": (
        [sys.executable, "-m", "hsm_tui", "--seed", "1"],
        (HsmApp.TITLE.encode(), b"(no heroes yet"),
    ),
}
"""Command and the texts to time: the first frame's (for ``hsm`` the header title), then
for ``hsm`` the home screen filled in from the Session (engine and packs loaded)."""

KEYS = {
    "down": "↓ select next",
    "a": "a aim",
    "right": "→ next target",
    "left": "← previous target",
    "n": "n end turn",
    "u": "u undo",
}
"""The keys of a GM's usual turn, pressed in this order, round after round."""

SIZES = ((80, 24), (120, 40))
EXAMPLE = Path(__file__).resolve().parents[1] / "content" / "encounters" / "dig-site-ambush.toml"


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# -- cold start -------------------------------------------------------------------------
def _first_frame(
    command: list[str], markers: Sequence[bytes], env: dict[str, str], timeout: float
) -> list[float]:
    """Seconds from spawning ``command`` in an 80×24 pty until each marker is written."""
    import fcntl
    import pty
    import termios

    main_fd, child_fd = pty.openpty()
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdin=child_fd, stdout=child_fd, stderr=child_fd, env=env, start_new_session=True
    )
    os.close(child_fd)
    seen = b""
    times: list[float] = []
    keep = max(map(len, markers))
    try:
        while len(times) < len(markers):
            left = timeout - (time.perf_counter() - start)
            ready, _, _ = select.select([main_fd], [], [], max(left, 0))
            if not ready:
                raise TimeoutError(
                    f"no {markers[len(times)]!r} within {timeout} s from {command[1:3]}"
                )
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:  # the child closed the terminal: it exited before drawing
                chunk = b""
            if not chunk:
                raise RuntimeError(f"{command[1:3]} exited before drawing: {seen[-400:]!r}")
            seen = seen[-keep:] + chunk
            while len(times) < len(markers) and markers[len(times)] in seen:
                times.append(time.perf_counter() - start)
        return times
    finally:
        process.kill()
        process.wait()
        os.close(main_fd)


def cold_start(runs: int) -> dict[str, list[float]] | None:
    """First-frame times per app, runs interleaved so both share the machine's noise.

    Children cache bytecode in a temporary folder and each app runs once unmeasured, so
    every measured start is a warm one (as from a GM's second launch on), whatever
    ``PYTHONDONTWRITEBYTECODE`` says in the caller's shell.
    """
    if os.name != "posix":
        return None
    with tempfile.TemporaryDirectory(prefix="hsm-bench-pyc-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(TERM="xterm-256color", PYTHONPYCACHEPREFIX=cache)
        env.pop("NO_COLOR", None)
        times: dict[str, list[float]] = {}
        for i in range(runs + 1):
            for name, (command, markers) in APPS.items():
                elapsed = _first_frame(command, markers, env, timeout=30.0)
                if i:  # run 0 fills the bytecode cache
                    times.setdefault(name, []).append(elapsed[0])
                    if len(elapsed) > 1:
                        times.setdefault(f"{name}, filled in", []).append(elapsed[1])
        return times


# -- key press → frame ------------------------------------------------------------------
def forty_combatants(seed: int = 11) -> Session:
    """4 Heroes against 18 corporate troopers and 18 pirate raiders, combat started."""
    session = Session(seed=seed)
    session.load_content()
    for command in (
        AddZone("dock"),
        AddZone("cargo"),
        AddZone("bridge"),
        SetBand("dock", "cargo", "short"),
        SetBand("cargo", "bridge", "short"),
        SetBand("dock", "bridge", "medium"),
    ):
        session.apply(command)
    for hero in ("kestrel-vance", "oyelaran-sefu", "mireille-ashdown", "roan-maddox"):
        session.apply(AddCombatants("hero", hero, "crew", "dock"))
    session.apply(AddCombatants("minion", "corporate-trooper", "corp", "cargo", count=18))
    session.apply(AddCombatants("minion", "pirate-raider", "pirates", "bridge", count=18))
    session.apply(StartCombat())
    assert len(session.encounter.combatants) == 40 and session.pending is None
    return session


def _frame_clock(app: HsmApp) -> list[float]:
    """Times at which the app hands a frame to its driver, each first encoded to terminal
    bytes as a real driver does (a headless driver skips that step, so it is added back).
    """
    stamps: list[float] = []
    display = app._display

    def stamped(screen: Any, renderable: Any) -> None:
        if renderable is not None and hasattr(renderable, "render_segments"):
            renderable.render_segments(app.console)
        display(screen, renderable)
        if renderable is not None:
            stamps.append(time.perf_counter())

    app._display = stamped  # type: ignore[method-assign]
    return stamps


class _Noted:
    """What a frame showed, one entry per frame :func:`_frame_clock` stamps."""

    def __init__(self, now: Callable[[], object]) -> None:
        self.now = now
        self.frames: list[object] = []

    def clear(self) -> None:
        self.frames.clear()


def _noting_frames(app: HsmApp, now: Callable[[], object]) -> _Noted:
    """Beside :func:`_frame_clock`'s stamps, what each frame showed (``now()`` then), so
    that a key's time runs to the frame that shows its effect, not to any repaint (a
    progress bar's, say).
    """
    noted = _Noted(now)
    display = app._display

    def noting(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None:
            noted.frames.append(now())

    app._display = noting  # type: ignore[method-assign]
    return noted


class KeyFigures:
    """Per key: ms to the first frame and to the last one (the screen settled), frames."""

    def __init__(self) -> None:
        self.first: list[float] = []
        self.settled: list[float] = []
        self.frames = 0
        self.presses = 0
        self.changed = 0
        """Presses that changed what the screen shows (selection, aim or session)."""


async def _key_latency(size: tuple[int, int], rounds: int) -> dict[str, KeyFigures]:
    """Press the turn's keys round after round; Pilot's idle waits after each press are
    not counted, only the time from sending the key to the frames it caused.
    """
    app = HsmApp(forty_combatants())
    figures = {key: KeyFigures() for key in KEYS}
    async with app.run_test(size=size) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        stamps = _frame_clock(app)
        for round_ in range(rounds + 1):
            for key in KEYS:
                stamps.clear()
                before = _shown(app)
                start = time.perf_counter()
                await pilot.press(key)
                await pilot.pause()  # paints whatever is still dirty
                if not isinstance(app.screen, CombatScreen):
                    raise RuntimeError(f"{key!r} left the combat screen for {app.screen!r}")
                if not round_:  # round 0 warms caches (odds, styles)
                    continue
                key_figures = figures[key]
                key_figures.presses += 1
                key_figures.frames += len(stamps)
                key_figures.changed += _shown(app) != before
                if stamps:
                    key_figures.first.append(stamps[0] - start)
                    key_figures.settled.append(stamps[-1] - start)
    return figures


# -- a scripted round ---------------------------------------------------------------------
ROUND_SEED = 7
"""The seed of the round the combat screen's Pilot tests play (Kestrel acts first)."""


class RoundScript:
    """The keys a GM who knows them presses for one round of the shipped example (issue
    19): per turn, a group attacks with ``g``, anyone else aims and rolls with Enter,
    Enter; every question is answered with Enter (its first answer, the suggested re-roll
    split); ``n`` ends the turn.
    """

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.first: list[float] = []
        """Seconds from each key to its first frame."""
        self._turn: tuple[int, int] | None = None
        self._plan: list[str] = []

    def next_key(self, app: HsmApp) -> str:
        if not isinstance(app.screen, CombatScreen):
            return "enter"  # a question or a re-roll split: take what it offers
        enc = app.session.encounter
        turn = (enc.round, enc.turn_index)
        if turn != self._turn:
            self._turn = turn
            group = enc.turn is not None and len(enc.members(enc.turn.actor)) > 1
            self._plan = ["g", "n"] if group else ["enter", "enter", "n"]
        return self._plan.pop(0) if self._plan else "n"


async def _scripted_round(size: tuple[int, int]) -> RoundScript:
    """F4, L, s set the example up (not counted); the keys of round 1 are, until round 2
    begins, each timed from the press to the first frame it caused.
    """
    app = HsmApp(Session(seed=ROUND_SEED))
    script = RoundScript()
    async with app.run_test(size=size) as pilot:
        await pilot.press("f4", "L", "s")
        await pilot.pause()
        stamps = _frame_clock(app)
        while app.session.encounter.round == 1 and len(script.keys) < 200:
            key = script.next_key(app)
            stamps.clear()
            start = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            script.keys.append(key)
            if stamps:
                script.first.append(stamps[0] - start)
    return script


def _shown(app: HsmApp) -> tuple[object, ...]:
    """What a key may change on the combat screen: selection, aim, encounter, log."""
    screen = app.screen
    assert isinstance(screen, CombatScreen)
    return screen.selected, screen.draft, app.session.encounter, len(app.session.log)


def key_latency(rounds: int) -> dict[tuple[int, int], dict[str, KeyFigures]]:
    return {size: asyncio.run(_key_latency(size, rounds)) for size in SIZES}


# -- the builder's forecast --------------------------------------------------------------
async def _forecast_keys(size: tuple[int, int], in_thread: bool) -> tuple[list[float], list[float]]:
    """The shipped example in the encounter builder: ↓ and ↑ pressed while its forecast
    plays (F) and again once it is shown; seconds from each key to the first frame that
    shows it moved the focus or the highlight.
    ``in_thread`` plays the fights in the app's process, as before issue 22's pool.
    """
    catalog = load(content_dirs(())).catalog
    session = Session(seed=ROUND_SEED)
    session.load_content()
    session.apply(Batch(tuple(encounter_commands(read_encounter(EXAMPLE, catalog), catalog))))
    if in_thread:
        saved, fight_pool.shared = fight_pool.shared, lambda: None
    app = HsmApp(session)
    during: list[float] = []
    idle: list[float] = []
    try:
        async with app.run_test(size=size) as pilot:
            screen = EncounterBuilderScreen()
            app.push_screen(screen)
            await pilot.pause()
            await app.workers.wait_for_complete()  # the pool started on mount
            stamps = _frame_clock(app)
            shown = _noting_frames(
                app, lambda: (app.focused, getattr(app.focused, "highlighted", 0))
            )
            panel = screen.query_one(ForecastPanel)
            app.simulate_key("F")  # not Pilot's press: it would wait for the fights to end
            begun = time.perf_counter()
            while not panel.query_one("#builder-progress").display:
                if time.perf_counter() - begun > 5:
                    raise RuntimeError("F started no forecast on the shipped example")
                await asyncio.sleep(0.001)
            for times, playing in ((during, True), (idle, False)):
                while len(times) < 40 and (panel.result is None) is playing:
                    stamps.clear()
                    shown.clear()
                    before = shown.now()
                    start = time.perf_counter()
                    app.simulate_key("up" if len(times) % 2 else "down")  # as a driver does
                    while before in shown.frames[-1:] or not shown.frames:
                        if time.perf_counter() - start > 5:
                            raise RuntimeError("↓/↑ moved nothing on the builder in 5 s")
                        await asyncio.sleep(0.001)
                    first = next(i for i, seen in enumerate(shown.frames) if seen != before)
                    times.append(stamps[first] - start)
                    await asyncio.sleep(0.05)  # a GM's pace, not a flood of keys
                await app.workers.wait_for_complete()
                await pilot.pause()
    finally:
        if in_thread:
            fight_pool.shared = saved
    return during, idle


def _report_forecast() -> None:
    print("\nEncounter builder, shipped example: key → frame while F plays 200 fights")
    print(
        f"{'size':<8}{'fights played in':<22}{'keys':>6}{'during median':>15}{'p95':>7}"
        f"{'idle median':>13}"
    )
    fight_pool.before_apps()
    for size in SIZES:
        for in_thread, where in ((False, "worker processes"), (True, "the app's process")):
            during, idle = asyncio.run(_forecast_keys(size, in_thread))
            if not during:
                print(f"{f'{size[0]}×{size[1]}':<8}{where:<22}  (the forecast ended first)")
                continue
            print(
                f"{f'{size[0]}×{size[1]}':<8}{where:<22}{len(during):>6}"
                f"{_ms(statistics.median(during)):>15}{_ms(_percentile(during, 0.95)):>7}"
                f"{_ms(statistics.median(idle)):>13}"
            )
    fight_pool.stop()


# -- report -----------------------------------------------------------------------------
def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def _report_start(starts: int) -> None:
    print(f"\nCold start to first frame, 80×24 pty, {starts} fresh processes each")
    print(f"{'app':<36}{'median ms':>11}{'p95 ms':>9}{'min ms':>9}")
    starts_by_app = cold_start(starts)
    if starts_by_app is None:
        print("  (skipped: needs a POSIX pty)")
    else:
        for name, values in starts_by_app.items():
            print(
                f"{name:<36}{_ms(statistics.median(values)):>11}"
                f"{_ms(_percentile(values, 0.95)):>9}{_ms(min(values)):>9}"
            )
        hello, hsm, filled = (statistics.median(v) for v in starts_by_app.values())
        ratio = hsm / hello
        verdict = "ok" if ratio <= START_TARGET else "over target"
        print(f"ratio hsm / hello-world (medians): {ratio:.2f}× (≤ {START_TARGET}×: {verdict})")
        usable = filled / hello
        print(f"filled in (engine and packs loaded after the first frame): {usable:.2f}×")
        record("first-frame", f"{ratio:.2f}×", ratio <= START_TARGET)
        record("usable", f"{usable:.2f}×", usable <= USABLE_TARGET)


def _report_keys(rounds: int) -> None:
    print(f"\nKey press → rendered frame, combat screen, 40 combatants, {rounds} rounds per key")
    print(
        f"{'size':<8}{'key':<20}{'1st frame median':>17}{'p95':>7}"
        f"{'settled median':>16}{'p95':>7}{'frames':>8}{'changed':>9}  ≤ {KEY_TARGET_MS:.0f} ms"
    )
    for (width, height), by_key in key_latency(rounds).items():
        for key, fig in by_key.items():
            row = f"{f'{width}×{height}':<8}{KEYS[key]:<20}"
            changed = f"{fig.changed}/{fig.presses}"
            if not fig.first:
                print(f"{row}{'—':>17}{'—':>7}{'—':>16}{'—':>7}{0:>8.1f}{changed:>9}  no frame")
                continue
            first = statistics.median(fig.first)
            verdict = "ok" if first * 1000 <= KEY_TARGET_MS else "over"
            print(
                f"{row}{_ms(first):>17}{_ms(_percentile(fig.first, 0.95)):>7}"
                f"{_ms(statistics.median(fig.settled)):>16}{_ms(_percentile(fig.settled, 0.95)):>7}"
                f"{fig.frames / fig.presses:>8.1f}{changed:>9}  {verdict}"
            )


def _report_round() -> None:
    print("\nScripted round: one round of the shipped example (seed 7) by keys, key → frame")
    print(f"{'size':<8}{'keys':>6}{'1st frame median':>18}{'p95':>7}{'max':>7}  keys pressed")
    for size in SIZES:
        script = asyncio.run(_scripted_round(size))
        first = statistics.median(script.first)
        pressed = " ".join("⏎" if k == "enter" else k for k in script.keys)
        print(
            f"{f'{size[0]}×{size[1]}':<8}{len(script.keys):>6}{_ms(first):>18}"
            f"{_ms(_percentile(script.first, 0.95)):>7}{_ms(max(script.first)):>7}  {pressed}"
        )
        if size == SIZES[0]:
            figure = f"{len(script.keys)} keys, {_ms(first)} ms a key"
            record("round", figure, first * 1000 <= KEY_TARGET_MS)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 starts, 10 key rounds")
    parser.add_argument(
        "--only", choices=("start", "keys", "round", "forecast"), help="run one part only"
    )
    args = parser.parse_args(argv)
    starts, rounds = (10, 10) if args.quick else (20, 30)
    print(
        f"Python {platform.python_version()} · Textual {textual.__version__} · "
        f"{platform.machine()} · {os.cpu_count()} CPU(s)"
    )

    if args.only in (None, "start"):
        _report_start(starts)
    if args.only in (None, "keys"):
        _report_keys(rounds)
    if args.only in (None, "round"):
        _report_round()
    if args.only in (None, "forecast"):
        _report_forecast()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
