"""A GM change drawn for 20 players in one process, without SSH: where bench/ssh.py's
server spends a change, apart from the clients and the encryption that share its cores.

Run: ``.venv/bin/python bench/propagation.py`` (``--changes N``, default 40;
``--profile`` prints the cProfile of the changes). Prints; never fails on timing.

Each player's ``PlayerApp`` runs on the real ``ChannelDriver`` over a channel that only
notes when it was written to; the GM's ``HsmApp`` runs headless on the combat screen of
the same Session (the fight of ``tests/share/test_shared_table.py``), and the change,
``SetCover("pirate-raider-1", …)`` heavy and light in turn, is applied from the GM's app,
as bench/ssh.py does. Per change (one unmeasured first): the loop's CPU time from just
before ``session.apply`` until the last player's frame is written (its thread's time, so
other processes on a shared machine move it far less than the wall clock), when the
first player's frame, the median player's and the last were written, and the cycle
collector's runs (each generation's count and time) during the changes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import cProfile
import gc
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PLAYERS = 20
COVERS = ("light", "heavy")


class Channel:
    """An SSH channel that keeps, per write, the wall clock and the loop's CPU time."""

    def __init__(self) -> None:
        self.writes: list[tuple[float, float]] = []

    def write(self, _data: bytes) -> None:
        self.writes.append((time.monotonic(), time.thread_time()))

    def get_write_buffer_size(self) -> int:
        return 0

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


async def measure(changes: int, profiler: cProfile.Profile | None) -> list[str]:
    """The figures' lines (printed once every app has given ``sys.stdout`` back)."""
    from hsm_tui.campaign.combat import SetCover
    from hsm_tui.share.driver import run_app
    from hsm_tui.share.serve import Table
    from hsm_tui.share.terminal import ClientTerminal
    from hsm_tui.table.seats import Role, Seat
    from hsm_tui.ui.app import HsmApp
    from tests.share.test_shared_table import fight

    session = fight()
    gm = HsmApp(session)
    ready = asyncio.Event()

    async def on_combat(pilot: Any) -> None:
        await pilot.press("f4")
        await pilot.pause()
        ready.set()

    gm_task = asyncio.create_task(gm.run_async(headless=True, size=(120, 40), auto_pilot=on_combat))
    await ready.wait()
    table, channels, apps, tasks = Table(session), [], [], []
    for n in range(PLAYERS):
        channel = Channel()
        app = table.make_app(Seat(Role.PLAYER, f"p{n:02d}", "kestrel-vance"), None)
        terminal = ClientTerminal(channel, "xterm-256color", (80, 24))  # type: ignore[arg-type]
        run = run_app(app, terminal)
        tasks.append(asyncio.create_task(run, context=contextvars.Context()))
        channels.append(channel)
        apps.append(app)
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)  # every first frame drawn

    collections: dict[int, list[float]] = {}
    started = [0.0]

    def collected(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            collections.setdefault(info["generation"], []).append(time.perf_counter() - started[0])

    at = [0.0, 0.0]  # the wall clock and the loop's CPU time as the change is applied

    def change(cover: str) -> None:  # in the GM's app, as a key of the GM's would be
        at[:] = [time.monotonic(), time.thread_time()]
        session.apply(SetCover("pirate-raider-1", cover))

    cpu, first, median, last = [], [], [], []
    for n in range(changes + 1):
        for channel in channels:
            channel.writes.clear()
        if n == 1:
            gc.callbacks.append(collected)
            if profiler is not None:
                profiler.enable()
        gm.call_later(change, COVERS[n % 2])
        await asyncio.sleep(0.25)
        if not n:
            continue
        frames = [channel.writes[0] for channel in channels if channel.writes]
        if len(frames) < PLAYERS:
            raise RuntimeError(f"{PLAYERS - len(frames)} player(s) drew no frame")
        cpu.append(max(c for _, c in frames) - at[1])
        walls = sorted(w - at[0] for w, _ in frames)
        first.append(walls[0])
        median.append(statistics.median(walls))
        last.append(walls[-1])
    if profiler is not None:
        profiler.disable()
    gc.callbacks.remove(collected)
    for app in (*apps, gm):
        app.exit()
    await asyncio.gather(*tasks, gm_task)

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:6.1f} ms (min {min(values) * 1000:.1f})"

    return [
        f"{PLAYERS} players, {changes} changes, medians over the changes",
        f"CPU, apply → the last player's frame written  {ms(cpu)}",
        f"wall, apply → the first player's frame          {ms(first)}",
        f"wall, apply → the median player's frame         {ms(median)}",
        f"wall, apply → the last player's frame           {ms(last)}",
        *(
            f"cycle collector, generation {generation}: {len(times) / changes:.2f} runs a"
            f" change, {sum(times) * 1000 / changes:.2f} ms a change"
            f" (longest {max(times) * 1000:.1f} ms)"
            for generation, times in sorted(collections.items())
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=40)
    parser.add_argument("--profile", action="store_true", help="cProfile the changes")
    args = parser.parse_args()
    out = sys.stdout  # each app swaps sys.stdout while it runs
    profiler = cProfile.Profile() if args.profile else None
    for line in asyncio.run(measure(args.changes, profiler)):
        print(line, file=out)
    if profiler is not None:
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("cumulative").print_stats(r"site-packages/(textual|rich)|hsm_tui", 30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
