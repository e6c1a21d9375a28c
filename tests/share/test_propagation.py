"""A GM change reaching the players' screens (issue 33): each seat repaints and sends only
the lines that changed, and a new log entry is wrapped (a changed row drawn) once for
every seat that shows it (each app on the real :class:`ChannelDriver`, its frames
captured from the channel); one player's key flood, over real SSH, costs another seat's
update a frame at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import re
import statistics
import time

import asyncssh
import pytest
from textual import events

from hsm_tui.campaign.combat import SetCover
from hsm_tui.share.driver import ChannelDriver, run_app
from hsm_tui.share.pacing import KEY_GAP
from hsm_tui.share.terminal import FLOOD_SECONDS, ClientTerminal
from hsm_tui.table.seated import SeatedSession
from hsm_tui.table.seats import Role, Seat
from hsm_tui.ui.player.app import PlayerApp
from hsm_tui.ui.widgets.line_table import LineTable, row_line
from hsm_tui.ui.widgets.roll_log import RollLog, wrap_entry
from tests.share.conftest import fight, until

ROW = re.compile(rb"\x1b\[(\d+);\d+H(?=\x1b\[[\d;]*m|[^\x1b\n])")
"""A cursor move to a screen row (1-based) with something drawn after it (a frame ends by
moving the cursor home)."""


class Channel:
    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def get_write_buffer_size(self) -> int:
        return 0

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


async def test_a_gm_change_sends_each_player_the_changed_lines_only() -> None:
    session = fight()
    seats = [Seat(Role.PLAYER, user, "kestrel-vance") for user in ("kara", "otto")]
    channels = [Channel() for _ in seats]
    apps = [PlayerApp(SeatedSession(session, seat)) for seat in seats]
    tasks = [
        asyncio.create_task(run_app(app, ClientTerminal(channel, "xterm-256color", (80, 24))))
        for app, channel in zip(apps, channels, strict=True)
    ]
    try:
        await until(
            lambda: all(b"Pirate raider" in b"".join(c.writes) for c in channels),
            lambda: "no first frame",
        )
        await asyncio.sleep(0.2)  # settled: nothing more to draw
        before = [len(c.writes) for c in channels]
        wraps, drawn = wrap_entry.cache_info().misses, row_line.cache_info().misses
        session.apply(SetCover("pirate-raider-1", "heavy"))
        await until(
            lambda: all(len(c.writes) > n for c, n in zip(channels, before, strict=True)),
            lambda: "the change never reached a player",
        )
        await asyncio.sleep(0.2)
        for app, channel, n in zip(apps, channels, before, strict=True):
            frame = b"".join(channel.writes[n:])
            table, log = app.screen.query_one(LineTable), app.screen.query_one(RollLog)
            raider = next(i for i, r in enumerate(table.rows) if r.cells[1] == "Pirate raider 1")
            row = table.content_region.y + 1 + raider  # under the header
            content = range(log.content_region.y, log.content_region.bottom)
            rows = {int(y) - 1 for y in ROW.findall(frame)}
            assert row in rows and b"heavy" in frame
            assert rows <= {row, *content}  # not the other rows, the borders, the party
        assert wrap_entry.cache_info().misses == wraps + 1  # the new entry, once for both
        assert row_line.cache_info().misses == drawn + 1  # the raider's row, once for both
    finally:
        for app in apps:
            app.exit()
        await asyncio.gather(*tasks)


async def test_a_flooding_player_costs_another_seats_update_a_frame_at_most(
    game, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Kara types flat out (her client sends letters as fast as SSH takes them, each may
    open a screen); her keys reach her app in turn, each after some times what the one
    before cost the loop, so Otto's screen shows each GM change as it would with no
    flood; after :data:`FLOOD_SECONDS` seconds of it she is dropped, and Otto plays on."""
    handed: dict[int, list[float]] = {}  # driver → when each key reached its app
    process = ChannelDriver.process_message

    def timed(driver: ChannelDriver, message: events.Message) -> None:
        if isinstance(message, events.Key):
            handed.setdefault(id(driver), []).append(time.monotonic())
        process(driver, message)

    monkeypatch.setattr(ChannelDriver, "process_message", timed)
    session = fight()
    table = await game(session)
    kara, otto = await table.join("kara"), await table.join("otto")
    await otto.shows("Pirate raider")
    rng = random.Random(0)

    async def flood() -> None:
        with contextlib.suppress(asyncssh.Error, OSError):  # dropped: the flood is over
            while not kara.conn.is_closed():
                kara.send(bytes(rng.choice(b"almvtxnA") for _ in range(4096)))
                await kara.process.stdin.drain()

    with caplog.at_level(logging.WARNING, logger="hsm_tui.share"):
        flooder = asyncio.create_task(flood())
        await until(lambda: sum(map(len, handed.values())) > 10, lambda: f"{handed}", 30)
        for cover in ("heavy", "light", "heavy"):
            session.apply(SetCover("pirate-raider-1", cover))
            await otto.shows(f"Pirate raider 1: {cover} cover")  # the log's newest line
        await asyncio.wait_for(kara.conn.wait_closed(), FLOOD_SECONDS + 30)  # not forever
        await flooder
    assert "dropping a client that types flat out" in caplog.text
    session.apply(SetCover("pirate-raider-1", "light"))
    await otto.shows("Pirate raider 1: light cover")
    [keys] = handed.values()  # Otto typed nothing
    gaps = [b - a for a, b in itertools.pairwise(keys)]
    assert len(keys) > 10 and min(gaps) >= KEY_GAP * 0.99
    assert statistics.median(gaps) >= 2 * KEY_GAP  # a screen's cost, not a frame, apart
