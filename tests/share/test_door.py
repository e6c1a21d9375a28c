"""The door's limits with real clients on 127.0.0.1: connections that never log in cannot
hold every slot (sshd's MaxStartups, PerSourceMaxStartups) nor stay silent past the
login grace (LoginGraceTime), a logged-in connection with no session is closed
(UnusedConnectionTimeout), sessions per connection are capped (MaxSessions), and
connections never take the descriptors a save needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator

import asyncssh
import pytest

from hsm_tui.share.door import Door
from hsm_tui.share.limits import Limits, refusal_chance, startups
from hsm_tui.share.terminal import FLOOD_SECONDS, RESIZE_FLOOD

from .conftest import Table, until


@contextlib.asynccontextmanager
async def silent(port: int, count: int) -> AsyncIterator[None]:
    """``count`` TCP connections that never say a word (each has the server's banner)."""
    pairs = [await asyncio.open_connection("127.0.0.1", port) for _ in range(count)]
    try:
        for reader, _ in pairs:
            assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"SSH-2.0-")
        yield
    finally:
        for _, writer in pairs:
            writer.close()


async def turned_away(table: Table) -> bool:
    """Whether a login of kara's is turned away at the door (no banner: a lost connection)."""
    try:
        await table.connect("kara")
    except (asyncssh.ConnectionLost, ConnectionError):
        return True
    return False


@pytest.mark.parametrize(
    ("waiting", "chance"), [(0, 0), (9, 0), (10, 0.3), (55, 0.65), (100, 1), (500, 1)]
)
def test_the_chance_of_being_turned_away_grows_as_sshd_s(waiting: int, chance: float):
    assert refusal_chance(waiting, 10, 30, 100) == pytest.approx(chance)


@pytest.mark.parametrize(
    ("text", "read"), [("10:30:100", (10, 30, 100)), ("4", (4, 100, 4)), ("1:1:1", (1, 1, 1))]
)
def test_max_startups_reads_as_sshd_s(text: str, read: tuple[int, int, int]):
    assert startups(text) == read


@pytest.mark.parametrize("text", ["10:30", "0:30:100", "10:0:100", "20:30:10", "a:b:c", "٣"])
def test_a_bad_max_startups_says_what_it_expects(text: str):
    with pytest.raises(ValueError, match="expected"):
        startups(text)


@pytest.mark.parametrize(
    ("limits", "said"),
    [
        (Limits(max_startups=(2, 100, 2), per_source=10), "2 connections logging in (--max-"),
        (Limits(max_startups=(50, 30, 100), per_source=2), "2 from 127.0.0.1 logging in (--per"),
    ],
    ids=["max-startups", "per-source"],
)
async def test_silent_connections_cannot_hold_the_door(serve, caplog, limits: Limits, said: str):
    table = await serve(limits=limits)
    with caplog.at_level(logging.INFO, logger="hsm_tui.share.door"):
        async with silent(table.server.port, 2):
            assert await turned_away(table)
    assert f"turned away: {said}" in caplog.text
    assert not await turned_away(table)  # the silent ones gone, the door is open again


async def test_past_start_a_login_is_turned_away_by_chance(serve):
    table = await serve(limits=Limits(max_startups=(1, 50, 10), per_source=10))
    table.server.door = Door(table.server.limits, random.Random(7))
    async with silent(table.server.port, 1):
        turned = [await turned_away(table) for _ in range(16)]
    assert 0 < sum(turned) < 16  # one waiting (the silent one): 50 % each


async def test_a_login_with_no_session_is_closed(serve):
    table = await serve(limits=Limits(unused_timeout=0.3))
    idle = await table.connect("kara")
    playing = await table.join("wes")
    await playing.shows("seat wes")
    await asyncio.wait_for(idle.wait_closed(), 5)
    refused = await table.connect("kara")  # a command: refused, its channel closed
    await refused.run("ls")
    await asyncio.wait_for(refused.wait_closed(), 5)
    await asyncio.sleep(0.5)
    playing.send(b"x")
    await playing.shows("key <x>")  # a seated one stays


async def test_sessions_on_one_connection_are_capped(serve):
    table = await serve(limits=Limits(max_sessions=1))
    kara = await table.join("kara")
    await kara.shows("seat kara")
    with pytest.raises(asyncssh.ChannelOpenError):
        await kara.conn.create_process(term_type="xterm", encoding=None)
    kara.send(b"y")
    await kara.shows("key <y>")


async def test_connections_leave_the_descriptor_reserve_alone(serve, caplog):
    table = await serve()
    table.server.door.room = len(table.server._ssh) + 2
    with caplog.at_level(logging.INFO, logger="hsm_tui.share.door"):
        async with silent(table.server.port, 2):
            assert await turned_away(table)
    assert "turned away: no descriptors to spare (2 connections, --fd-reserve)" in caplog.text
    await until(lambda: not table.server._ssh, lambda: "the silent ones still held")
    assert not await turned_away(table)


async def test_an_address_that_flooded_is_turned_away_for_a_while(serve, caplog):
    table = await serve(limits=Limits(flood_penalty=1))
    kara = await table.join("kara")
    await kara.shows("seat kara")
    with caplog.at_level(logging.INFO, logger="hsm_tui.share"):
        for n in range(RESIZE_FLOOD * FLOOD_SECONDS + 1):  # more than may come at once
            kara.process.change_terminal_size(20 + n % 300, 10 + n % 150)
        await asyncio.wait_for(kara.conn.wait_closed(), 5)
        assert await turned_away(table)
    assert "turned away: 127.0.0.1 flooded; turned away " in caplog.text
    await asyncio.sleep(1)
    assert not await turned_away(table)


async def test_a_connection_that_does_not_log_in_is_cut_at_the_login_grace(serve, caplog):
    table = await serve(limits=Limits(login_grace=0.5))
    with caplog.at_level(logging.INFO, logger="hsm_tui.share.door"):
        reader, writer = await asyncio.open_connection("127.0.0.1", table.server.port)
        assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"SSH-2.0-")
        with contextlib.suppress(ConnectionResetError):
            await asyncio.wait_for(reader.read(), 5)  # the server closes it: no timeout
        writer.close()
    assert "did not log in within 0.5 s; disconnected" in caplog.text
    kara = await table.join("kara")  # a login within the grace goes on past it
    await asyncio.sleep(0.6)
    kara.send(b"z")
    await kara.shows("key <z>")
