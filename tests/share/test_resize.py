"""Window changes from a real SSH client: a burst reaches the app as a few re-layouts
(the last size wins), the GM's list hears of it as often, and a client that keeps
sending them flat out is dropped while the others play on.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time

import pytest

from hsm_tui.share.pacing import RESIZE_SHARE
from hsm_tui.share.terminal import FLOOD_SECONDS, RESIZE_EVERY, RESIZE_FLOOD

from .conftest import Probe, Table, until


async def test_a_burst_of_window_changes_is_a_few_re_layouts_the_last_size_wins(table: Table):
    heard: list[tuple[int, int]] = []
    table.server.on_change(lambda: heard.append(table.server.connections[0].size))
    kara = await table.join("kara")
    await kara.shows("size 80x24")
    [(_, _, probe)] = table.built
    assert isinstance(probe, Probe)
    before, began = probe.resizes, time.monotonic()
    for n in range(RESIZE_FLOOD * FLOOD_SECONDS - 1):  # with the last: as many as may come at once
        kara.process.change_terminal_size(20 + n % 300, 10 + n % 150)
    kara.resize(123, 45)
    await kara.shows("size 123x45")
    await until(lambda: heard[-1] == (123, 45), lambda: f"the GM's list heard {heard[-3:]}")
    most = (time.monotonic() - began) / RESIZE_EVERY + 2
    assert 1 <= probe.resizes - before <= most
    assert 1 <= len(heard) - 1 <= most  # once for kara's coming, then per re-layout


@pytest.mark.parametrize(
    ("rate", "within"),
    [(2 * RESIZE_FLOOD, (FLOOD_SECONDS - 1, FLOOD_SECONDS + 2)), (20_000, (0, 1))],
    ids=["twice-the-flood-rate", "flat-out"],
)
async def test_a_client_that_keeps_flooding_window_changes_is_dropped(
    table: Table, caplog: pytest.LogCaptureFixture, rate: int, within: tuple[float, float]
):
    kara, wes = await table.join("kara"), await table.join("wes")
    await kara.shows("seat kara")
    await wes.shows("seat wes")
    with caplog.at_level(logging.WARNING, logger="hsm_tui.share"):
        began = time.monotonic()
        end = began + FLOOD_SECONDS + 3
        sent = 0
        closed = asyncio.ensure_future(kara.conn.wait_closed())
        while not closed.done() and time.monotonic() < end:
            due = min(int((time.monotonic() - began) * rate), sent + 50)  # ``rate`` a second
            for k in range(sent, due):
                kara.process.change_terminal_size(20 + k % 300, 10 + k % 150)
            sent = max(sent, due)
            await asyncio.sleep(0.005)
        await asyncio.wait_for(closed, 5)  # dropped: its connection closed by the server
    assert within[0] <= time.monotonic() - began <= within[1]
    assert "dropping a client that sends window changes flat out" in caplog.text
    await until(lambda: len(table.server.connections) == 1, lambda: "kara still seated")
    wes.send(b"w")
    await wes.shows("key <w>")


class _BigScreen(Probe):
    """A seat whose every re-layout costs the loop :data:`COST` s of CPU, as a big screen's
    does."""

    COST = 0.02

    def __init__(self, seat) -> None:
        super().__init__(seat)
        self.sizes: list[tuple[int, int]] = []

    @property
    def layouts(self) -> int:
        """Sizes taken, each once (Textual may report one size twice)."""
        return sum(1 for a, b in itertools.pairwise([None, *self.sizes]) if a != b)

    def on_resize(self, event) -> None:
        super().on_resize(event)
        self.sizes.append(tuple(event.size))
        start = time.thread_time()
        while time.thread_time() - start < self.COST:
            pass


async def test_window_changes_just_under_the_flood_rate_get_a_share_of_the_loop(serve):
    """Kara's client sends window changes 110 a second, each another size, for two seconds:
    not dropped, but her re-layouts come :data:`RESIZE_SHARE` times their cost apart (one
    a second here; five without), her last size wins, and Wes's keys still reach his app."""
    built: list[Probe] = []

    def game(seat, _connection):
        app = (_BigScreen if seat.user == "kara" else Probe)(seat)
        built.append(app)
        return app

    table = await serve(game)
    kara, wes = await table.join("kara"), await table.join("wes")
    await kara.shows("seat kara")
    await wes.shows("seat wes")
    kara_app = next(a for a in built if a.seat.user == "kara")
    before, began, sent = kara_app.layouts, time.monotonic(), 0
    while time.monotonic() - began < 2.0:
        due = int((time.monotonic() - began) * (RESIZE_FLOOD - 10))
        for k in range(sent, due):
            kara.process.change_terminal_size(40 + k % 200, 12 + k % 100)
        sent = max(sent, due)
        await asyncio.sleep(1 / 60)
    kara.resize(123, 45)
    wes.send(b"x")
    await wes.shows("key <x>")
    await kara.shows("size 123x45", timeout=15)
    assert not kara.conn.is_closed()
    gap = RESIZE_SHARE * _BigScreen.COST
    most = (time.monotonic() - began) / gap + 2
    assert sent > 150 and 2 <= kara_app.layouts - before <= most
