"""Combat engine figures (issue 5): command latency with 40 combatants, forecast speed,
and saving / opening that fight as a campaign file (issue 6); issue 22's rows: the
builder's forecast of the shipped example encounter, ``hsm simulate`` at one worker and
a campaign of 10,000 log entries saved and opened; the autosave's share of the UI thread
on the 40-combatant fight (issue 20).

Run: ``.venv/bin/python bench/combat.py`` (``--quick`` for a short run). Prints a table;
never fails on timing. Targets: apply-command median ≤ 1 ms with 40 combatants;
``hsm simulate`` of 1,000 fights of 6 heroes vs 12 minions ≤ 5 s with one worker (≤ 10 s
before issue 22); the builder's 200 fights ≤ 1 s (in its worker processes, as the screen plays them:
``fight_pool.play``; the first forecast, which starts them, and one thread are
printed beside it); a 10,000-entry campaign opened, and
saved after a step of play, ≤ 100 ms each (saved cold, the first save in the process,
≤ 200 ms: issue 20's target). The first undo that reaches the steps a file brought
replays them all: printed, no target.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from table import record  # bench/table.py: issue 22's rows

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    AnswerDive,
    Attack,
    ChooseChartRow,
    EndTurn,
    PendingChartChoice,
    PendingDive,
    SetBand,
    StartCombat,
)
from hsm_tui.campaign.freeflow import RollTask
from hsm_tui.forecast import fight_pool
from hsm_tui.forecast.simulate import forecast
from hsm_tui.packs import load
from hsm_tui.persistence import autosave, store
from hsm_tui.persistence.encounter_file import read_encounter
from hsm_tui.rules import Modifier, Rank, RulesError, TargetNumber
from hsm_tui.table.session import Session

ROOT = Path(__file__).resolve().parents[1]
HEROES = ("kestrel-vance", "oyelaran-sefu", "mireille-ashdown", "roan-maddox")

ENCOUNTER = (
    """
[encounter]
name = "6 heroes vs 12 minions"
[[zone]]
name = "a"
[[zone]]
name = "b"
[[band]]
between = ["a", "b"]
band = "short"
"""
    + "".join(f'[[combatant]]\nentry = "{h}"\nside = "heroes"\nzone = "a"\n' for h in HEROES)
    + """
[[combatant]]
entry = "veteran-guide"
side = "heroes"
zone = "a"
plays_as = "hero"
[[combatant]]
entry = "pirate-first-mate"
side = "heroes"
zone = "a"
plays_as = "hero"
[[combatant]]
entry = "pirate-raider"
side = "minions"
zone = "b"
count = 6
[[combatant]]
entry = "corporate-trooper"
side = "minions"
zone = "b"
count = 6
"""
)


def command_latency(samples: int) -> list[float]:
    """Cost of Session.apply (undo snapshot included) with 40 combatants, over as many
    fresh fights as it takes to collect ``samples`` commands.
    """
    times: list[float] = []
    seed = 5
    while len(times) < samples:
        times += _one_fight(seed, samples - len(times))[0]
        seed += 1
    return times


def campaign_file(commands: int) -> tuple[int, int, float, float]:
    """Save and reopen a 40-combatant fight with ``commands`` steps of undo history:
    (steps, bytes, save seconds, open seconds).
    """
    _, session = _one_fight(5, commands)
    return (len(session.history), *_save_and_open(session))


@dataclass(frozen=True)
class LongCampaign:
    """Figures of a campaign of 10,000 log entries (seconds; medians of ``runs``)."""

    entries: int
    steps: int
    size: int
    cold_save: float  # the first save in the process: every entry and step written anew
    open: float  # the undo steps are left unread (issue 22)
    save: float  # after opening and one more task: what a GM's S costs
    first_undo: float  # the first undo that reaches the file's steps replays them all


def long_campaign(entries: int, runs: int = 5) -> LongCampaign:
    """A campaign with ``entries`` log entries (a 40-combatant fight of 300 steps, then
    free-flowing tasks, every step undoable), saved, then opened, played a step, saved
    and undone into the file's steps ``runs`` times.
    """
    _, session = _one_fight(5, 300)
    tn = TargetNumber((Modifier("Agility", 3), Modifier("Senses", 2)))
    while len(session.log) < entries:
        session.apply(RollTask(tn, Rank.MINION, f"Task {len(session.log)}"))
    opens, saves, undos = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        path, cold = _save(session, Path(tmp) / "campaign.toml")
        for run in range(runs):
            opened, seconds = _open(session, path)
            opens.append(seconds)
            opened.apply(RollTask(tn, Rank.MINION, "One more"))
            saves.append(_save(opened, Path(tmp) / f"again-{run}.toml")[1])
            opened.undo()
            start = time.perf_counter()
            opened.undo()
            undos.append(time.perf_counter() - start)
        size = path.stat().st_size
    median = statistics.median
    steps = len(session.history)
    return LongCampaign(
        len(session.log), steps, size, cold, median(opens), median(saves), median(undos)
    )


def _save_and_open(session: Session) -> tuple[int, float, float]:
    """``session`` saved to a campaign file and opened in a fresh one: (bytes, save
    seconds, open seconds).
    """
    with tempfile.TemporaryDirectory() as tmp:
        path, saved = _save(session, Path(tmp) / "campaign.toml")
        return path.stat().st_size, saved, _open(session, path)[1]


def _save(session: Session, path: Path) -> tuple[Path, float]:
    """``session`` saved as a campaign file at ``path``: (the file, seconds)."""
    start = time.perf_counter()
    saved = store.save(session, path)
    return saved, time.perf_counter() - start


def _open(saved: Session, path: Path) -> tuple[Session, float]:
    """The campaign file ``saved`` was saved to, opened in a fresh session: (it, seconds);
    its log must be the saved one.
    """
    fresh = Session(content=saved.content)
    start = time.perf_counter()
    store.load(fresh, path)
    seconds = time.perf_counter() - start
    if fresh.log != saved.log:
        raise SystemExit("the campaign opened with another log than it was saved with")
    return fresh, seconds


def autosave_cost(session: Session) -> tuple[float, float]:
    """(seconds on the UI thread: Session.frozen; seconds on the autosave thread: write)."""
    start = time.perf_counter()
    frozen = session.frozen()
    ui = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        autosave.write(frozen, Path(tmp) / ".autosave" / "fight.toml")
        return ui, time.perf_counter() - start


def _timed(work: Callable[[], object]) -> float:
    """Seconds ``work`` takes, by the wall clock."""
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _one_fight(seed: int, wanted: int) -> tuple[list[float], Session]:
    session = Session(seed=seed)
    session.content = load([ROOT / "content" / "relic-worlds"])
    for command in (AddZone("a"), AddZone("b"), SetBand("a", "b", "short")):
        session.apply(command)
    session.apply(AddCombatants("minion", "corporate-trooper", "corp", "a", count=20))
    session.apply(AddCombatants("minion", "pirate-raider", "pirates", "b", count=20))
    session.apply(StartCombat())
    times: list[float] = []

    def timed(command: object) -> None:
        start = time.perf_counter()
        session.apply(command)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)

    for _ in range(200):  # turns
        enc = session.encounter
        for member in enc.members(enc.turn.actor):
            foes = [c for c in session.encounter.combatants if c.side != member.side and c.standing]
            if not foes or len(times) >= wanted:
                return times, session
            with suppress(RulesError):  # e.g. out of charges: the engine refuses, nothing changes
                timed(Attack(member.id, foes[0].id, member.weapons[0].id))
            while session.pending is not None:
                pending = session.pending
                if isinstance(pending, PendingDive):
                    timed(AnswerDive("none"))
                elif isinstance(pending, PendingChartChoice):
                    timed(ChooseChartRow(pending.rows[0]))
                else:
                    return times, session
        timed(EndTurn())
    return times, session


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    runs = 200 if args.quick else 1000
    print(
        f"hsm combat benchmark: Python {platform.python_version()} on {platform.machine()},"
        f" {os.cpu_count()} CPU(s)"
    )
    times = command_latency(200 if args.quick else 1000)
    med = statistics.median(times) * 1000
    p95 = sorted(times)[int(len(times) * 0.95)] * 1000
    rows = [
        (
            "apply command, 40 combatants",
            f"{len(times)} cmds",
            f"{med:.3f} ms",
            f"{p95:.3f} ms",
            "≤ 1 ms median",
            med <= 1.0,
        )
    ]
    steps, size, saved, opened = campaign_file(100 if args.quick else 500)
    for name, seconds in (("save campaign", saved), ("open campaign", opened)):
        work = f"{steps} steps"
        rows.append(
            (name, work, f"{seconds * 1000:.0f} ms", f"{size // 1024} KiB", "≤ 1 s", seconds <= 1)
        )
    big = long_campaign(10_000)
    label = f"{big.entries:,} entries"
    for name, seconds, target in (
        (f"open campaign, {label}", big.open, 0.1),
        ("save it opened + 1 step", big.save, 0.1),
        ("save it cold (1st in process)", big.cold_save, 0.2),
        ("first undo into its steps", big.first_undo, None),
    ):
        work = f"{big.steps} steps"
        figure = f"{seconds * 1000:.0f} ms"
        goal = "—" if target is None else f"≤ {target * 1000:.0f} ms"
        ok = None if target is None else seconds <= target
        rows.append((name, work, figure, f"{big.size // 1024} KiB", goal, ok))
    record("open", f"{big.open * 1000:.0f} ms", big.open <= 0.1)
    record("save", f"{big.save * 1000:.0f} ms", big.save <= 0.1)
    ui, thread = autosave_cost(_one_fight(5, 500)[1])
    rows.append(
        (
            "autosave, 40 combatants",
            "UI / thread",
            f"{ui * 1000:.2f} ms",
            f"{thread * 1000:.0f} ms",
            "≤ 20 ms UI",
            ui <= 0.02,
        )
    )
    catalog = load([ROOT / "content" / "relic-worlds"]).catalog
    example = read_encounter(ROOT / "content" / "encounters" / "dig-site-ambush.toml", catalog)
    cold = _timed(lambda: fight_pool.play(example, catalog, 200, seed=1))
    walls = [  # the builder's forecast as the screen plays it, its workers started on mount
        _timed(lambda: fight_pool.play(example, catalog, 200, seed=1)) for _ in range(3)
    ]
    wall = statistics.median(walls)
    rows.append(
        (
            "builder forecast, example",
            "200 fights",
            f"{wall:.2f} s",
            f"first {cold:.2f} s",
            "≤ 1 s",
            wall <= 1,
        )
    )
    one = statistics.median(
        _timed(lambda: forecast(example, catalog, 200, seed=1)) for _ in range(3)
    )
    rows.append(("  the same in one thread", "200 fights", f"{one:.2f} s", "", "", None))
    record("builder", f"{wall:.2f} s", wall <= 1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.toml"
        path.write_text(ENCOUNTER)
        spec = read_encounter(path, catalog)
        for jobs in sorted({1, os.cpu_count() or 1}):
            start = time.perf_counter()
            result = fight_pool.play(spec, catalog, runs, seed=3, jobs=jobs)
            wall = time.perf_counter() - start
            scaled = wall * 1000 / runs
            label = f"simulate 6 v 12, jobs={jobs}"
            target = 5 if jobs == 1 else 10
            rows.append(
                (
                    label,
                    f"{runs} fights",
                    f"{wall:.2f} s",
                    f"{scaled:.1f} s/1000",
                    f"≤ {target} s / 1000",
                    scaled <= target,
                )
            )
            if jobs == 1:
                record("simulate", f"{scaled:.1f} s/1000", scaled <= target)
    print(
        f"{'row':<34}{'work':>12}{'median/wall':>14}{'p95/scaled':>16}{'target':>16}{'result':>8}"
    )
    print("-" * 100)
    for name, work, a, b, target, ok in rows:
        verdict = "—" if ok is None else "pass" if ok else "FAIL"
        print(f"{name:<34}{work:>12}{a:>14}{b:>16}{target:>16}{verdict:>8}")
    print(
        f"forecast check: heroes win {result.wins['heroes']:.1%} over {result.runs} fights"
        " (the same for any jobs)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
