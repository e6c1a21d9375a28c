"""Benchmark of the content-pack loader (``hsm_tui.packs.load``) against its targets.

Run ``.venv/bin/python bench/packs.py`` (a few seconds; ``--quick`` for fewer runs).

Rows:

* **starter pack**: ``load([content/relic-worlds])``, the shipped pack (target ≤ 50 ms);
* **1,000 entries**: a generated pack of 400 weapons, 400 minions, 100 sidekicks and 100
  heroes written once to a temporary folder in the shipped pack's style (effects on every
  face, inline traits and ratings, multi-line equipment lists, cross references), loaded
  whole (target ≤ 300 ms). It must load with no problem, or the run exits 1;
* **tomllib only** (same 1,000-entry files): read + decode + ``tomllib.loads`` of every
  file and nothing else, so the loader's overhead over raw parsing shows as a ratio;
* **LineIndex (full build)**: the loader's line scanner (``toml_lines.LineIndex``) fully
  built over the same text. The loader builds it only when a file has a problem to
  locate, so a clean load does not pay it; this row shows what a broken file costs.

Timing: ``time.perf_counter`` around each whole call after one warm-up call, with
``gc.collect()`` before each run but the collector left on (a real load runs with it).
Median and 95th percentile over the runs. Timings never fail the run; ``--profile``
prints the top of a cProfile of the 1,000-entry load.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import platform
import pstats
import statistics
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from hsm_tui.packs import SHIPPED, load  # noqa: E402
from hsm_tui.packs.toml_lines import LineIndex  # noqa: E402

STARTER = SHIPPED / "relic-worlds"
COUNTS = {"weapon": 400, "minion": 400, "sidekick": 100, "hero": 100}
FILES = {"weapon": "weapons.toml", "minion": "minions.toml", "sidekick": "sidekicks.toml"}
FILES["hero"] = "heroes.toml"

RANGES = ("melee", "short", "medium", "long", "extra-long")
SKILLS_RANGED = ("pistols", "rifles", "vehicle")
SKILLS_MELEE = ("wild", "power", "agile")
EFFECTS = (
    '{ effect = "extra-shots", count = 1 }',
    '{ effect = "reroll-lowest" }',
    '{ effect = "target-defense", value = -1 }',
    '{ effect = "tn", value = 1 }',
    '{ effect = "damage", dice = "1d4", text = "Extra damage." }',
    '{ effect = "recharge", value = 1 }',
    '{ effect = "extra-charge", value = 1 }',
    '{ effect = "fear", dice = "1d4", targets = "all-targets" }',
    '{ effect = "condition", condition = "bleeding", text = "The wound bleeds." }',
    '{ effect = "stuck", actions = 1, text = "Stuck: 1 action to free it." }',
    '{ effect = "called-shot" }',
    '{ effect = "narrative", text = "Something odd happens; the GM decides what." }',
)
TEXT = (
    "A generated entry for the loader benchmark. It carries a sentence or two of GM text,"
    " as the shipped entries do, so that strings are realistic in length."
)


def _traits(i: int) -> str:
    t = [(i + k) % 4 + 1 for k in range(7)]
    names = ("strength", "agility", "knowledge", "savvy", "senses", "charm", "luck")
    return "{ " + ", ".join(f"{n} = {v}" for n, v in zip(names, t, strict=True)) + " }"


def _weapon(i: int) -> str:
    kind = ("ranged", "melee", "thrown")[i % 3]
    lines = [
        "[[weapon]]",
        f'id = "gen-weapon-{i}"',
        f'name = "Generated weapon {i}"',
        f'kind = "{kind}"',
    ]
    if kind == "melee":
        lines += [f'skill = "{SKILLS_MELEE[i % 3]}"', 'damage = "1d6+strdie"', 'range = "melee"']
    else:
        lines += [
            f'skill = "{SKILLS_RANGED[i % 3]}"',
            f"attacks = {1 + i % 5}" if i % 2 else 'attacks = "1+agility"',
            f'damage = "{1 + i % 3}d6"',
            f'range = "{RANGES[1 + i % 4]}"',
            f"power = {10 + i % 11}",
            f'suppression = "10/d{(4, 6, 8)[i % 3]}"',
        ]
    if i % 4 == 0:
        lines += ["two_handed = true", 'damage_options = ["1d4", "1d6", "1d8"]']
    lines.append(f'text = "{TEXT}"')
    if i % 2:
        lines.append(f"special = {EFFECTS[i % 12]}")
    else:
        lines += [f"special4 = {EFFECTS[i % 12]}", f"special5 = {EFFECTS[(i + 1) % 12]}"]
    lines += [f"fortune = {EFFECTS[(i + 2) % 12]}", f"misfortune = {EFFECTS[(i + 3) % 12]}"]
    return "\n".join(lines) + "\n"


def _character(kind: str, i: int) -> str:
    luck = (i + 6) % 4 + 1  # the 7th trait of _traits(i)
    lines = [
        f"[[{kind}]]",
        f'id = "gen-{kind}-{i}"',
        f'name = "Generated {kind} {i}"',
        f"traits = {_traits(i)}",
        "ratings = { pistols = 5, rifles = 6, vehicle = 4, wild = 5, power = 4, agile = 6 }",
        f'weapons = ["gen-weapon-{i % 400}", "gen-weapon-{(i * 7 + 3) % 400}"]',
        'tags = ["generated", "bench"]',
        f'text = "{TEXT}"',
    ]
    if i % 5 == 0:
        lines.append("derived = { morale = 6 }")
    if kind in ("sidekick", "hero"):
        lines += [
            "skills = { stealth = 2, survival = 1, observation = 3, pistols = 1 }",
            "talents = [" + ", ".join(f'"Talent {k}"' for k in range(luck)) + "]",
            'advantages = ["Quick: one re-roll on initiative", "Tough"]',
            'drawbacks = ["Greedy"]',
            "equipment = [",
            '    { name = "Rope", enc = 1, location = "pack" },',
            '    { name = "Lamp", enc = 1, location = "belt" },',
            '    { name = "Rations", enc = 1, location = "pack" },',
            '    { name = "Medkit", enc = 1, location = "belt" },',
            "]",
            "encumbrance = 10",
            "storage = 12",
        ]
    if kind == "hero":
        lines += ['career = "Explorer"', 'motivation = "See what is past the next ruin."']
    return "\n".join(lines) + "\n"


def write_big_pack(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.toml").write_text(
        '[pack]\nid = "bench-pack"\nname = "Benchmark pack"\nversion = "1.0.0"\n',
        encoding="utf-8",
    )
    for kind, count in COUNTS.items():
        build = _weapon if kind == "weapon" else (lambda i, k=kind: _character(k, i))
        body = "\n".join(build(i) for i in range(count))
        (folder / FILES[kind]).write_text(body, encoding="utf-8")
    return folder


# -- timing -------------------------------------------------------------------------------


def measure(fn: Callable[[], object], runs: int) -> list[float]:
    fn()  # warm-up: imports, caches, file cache
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def p95(times: list[float]) -> float:
    if len(times) < 2:
        return times[0]
    return statistics.quantiles(times, n=20, method="inclusive")[18]


def tomllib_only(folder: Path) -> Callable[[], object]:
    paths = sorted(folder.glob("*.toml"))
    return lambda: [tomllib.loads(p.read_bytes().decode("utf-8")) for p in paths]


def line_index_only(folder: Path) -> Callable[[], object]:
    texts = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.toml"))]
    return lambda: [LineIndex(t).lines for t in texts]  # .lines forces the lazy build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    parser.add_argument("--profile", action="store_true", help="cProfile the 1,000-entry load")
    args = parser.parse_args(argv)
    small_runs, big_runs = (10, 3) if args.quick else (50, 15)

    with tempfile.TemporaryDirectory(prefix="hsm-bench-") as tmp:
        big = write_big_pack(Path(tmp) / "bench-pack")
        result = load([big])
        catalog = result.catalog
        loaded = sum(len(catalog.kind(k)) for k in ("weapons", "minions", "sidekicks", "heroes"))
        if result.problems or loaded != sum(COUNTS.values()):
            for problem in result.problems[:20]:
                print(problem.format())
            print(f"generated pack: {loaded} entries loaded, {len(result.problems)} problem(s)")
            return 1
        size_kb = sum(p.stat().st_size for p in big.glob("*.toml")) / 1024
        starter = load([STARTER]).catalog
        starter_n = sum(len(starter.kind(k)) for k in ("weapons", "minions", "sidekicks", "heroes"))
        starter_n += len(starter.chart)

        rows = []
        t = measure(lambda: load([STARTER]), small_runs)
        rows.append(("starter pack (load)", starter_n, t, 50.0))
        t_load = measure(lambda: load([big]), big_runs)
        rows.append(("1,000 entries (load)", loaded, t_load, 300.0))
        t_toml = measure(tomllib_only(big), big_runs)
        rows.append(("1,000 entries (tomllib only)", loaded, t_toml, None))
        t_lines = measure(line_index_only(big), big_runs)
        rows.append(("1,000 entries (LineIndex build)", loaded, t_lines, None))

        print(
            f"hsm content-pack loader benchmark: Python {platform.python_version()}"
            f" on {platform.machine()} ({platform.system()}); generated pack {size_kb:.0f} KiB"
        )
        header = f"{'row':<32}{'entries':>8}{'runs':>6}{'median ms':>11}{'p95 ms':>9}"
        header += f"{'target ms':>11}{'result':>8}{'× tomllib':>11}"
        print(header)
        print("-" * len(header))
        base = statistics.median(t_toml)
        for name, n, times, target in rows:
            med = statistics.median(times)
            verdict = "—" if target is None else ("pass" if med <= target else "FAIL")
            ratio = f"{med / base:.1f}" if "1,000" in name else ""
            print(
                f"{name:<32}{n:>8}{len(times):>6}{med:>11.1f}{p95(times):>9.1f}"
                f"{'—' if target is None else f'{target:.0f}':>11}{verdict:>8}{ratio:>11}"
            )
        over = statistics.median(t_load) - base
        print(
            f"loader overhead over tomllib: {over:.1f} ms on 1,000 entries (a full LineIndex,"
            f" built only for files with problems, would add ≈ {statistics.median(t_lines):.1f} ms)"
        )

        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(load, [big])
            stats = pstats.Stats(profiler).strip_dirs().sort_stats("cumulative")
            stats.print_stats(25)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
