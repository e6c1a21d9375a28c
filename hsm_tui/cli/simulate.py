"""``hsm simulate --encounter FILE``: forecast an encounter by playing it many times."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from .parser import add_content, add_seed, int_at_least, print_json, seed_of


def fill(sim: argparse.ArgumentParser) -> None:
    """``simulate``'s own arguments."""
    sim.add_argument("--encounter", required=True, metavar="FILE", help="encounter TOML file")
    sim.add_argument("--runs", type=int_at_least(1, 100_000), default=1000, help="fights to play")
    add_seed(sim, "same seed, same forecast")
    sim.add_argument(
        "--jobs",
        type=int_at_least(1, 64),
        help="worker processes (default: one per CPU it may use; the result does not depend on it)",
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    add_content(sim)


def run(args: argparse.Namespace) -> int:
    """Win rates, rounds, wounds and taken-out counts per side."""
    from pathlib import Path

    from ..forecast.fight_pool import cores, play
    from ..packs import content_dirs, load
    from ..persistence.encounter_file import read_encounter

    content = load(content_dirs(args.content))
    spec = read_encounter(Path(args.encounter), content.catalog)
    seed = seed_of(args)
    result = _with_progress(
        lambda tick: play(spec, content.catalog, args.runs, seed, tick, args.jobs or cores()),
        args.runs,
    )
    data = {"encounter": spec.name, "seed": seed, **result.as_dict()}
    if args.json:
        print_json(data)
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(
        "side",
        "wins",
        "wound steps / fight",
        "out / fight",
        title=f"{spec.name}: {args.runs} fights",
    )
    for side, rate in result.wins.items():
        table.add_row(side, f"{rate:.1%}", f"{result.wounds[side]:.2f}", f"{result.out[side]:.2f}")
    table.add_row("draw", f"{result.draws:.1%}", "", "")
    Console().print(table)
    r = result.rounds
    print(f"rounds: mean {r['mean']:.1f}, min {r['min']}, max {r['max']} · seed {seed}")
    for gap in result.never_reach:  # R-COMBAT-2: a side that can never land a hit
        print(f"! {gap}")
    return 0


def _with_progress(work: Callable[[Callable[[int], None] | None], Any], total: int) -> Any:
    """A progress bar on stderr when it is a terminal; silent otherwise (pipes, CI)."""
    if not sys.stderr.isatty():
        return work(None)
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("fighting", total=total)
        return work(lambda done: bar.update(task, completed=done))
