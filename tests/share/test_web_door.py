"""The door holds the web port as it holds the SSH one, with real sockets on 127.0.0.1:
silent connections cannot hold it (PerSourceMaxStartups, MaxStartups), a request sent a
byte at a time is cut at the login grace (LoginGraceTime), an idle kept-alive connection
at the unused timeout (UnusedConnectionTimeout), a page that flooded keeps its address
out for a while (PerSourcePenalties); and one door counts both ports together, within
one descriptor room.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from hsm_tui.share.invites import Invites
from hsm_tui.share.limits import Limits
from hsm_tui.share.serve import Table as Game
from hsm_tui.share.terminal import FLOOD_SECONDS, RESIZE_FLOOD
from hsm_tui.share.web.address import tls_context
from hsm_tui.share.web.server import WebServer

from .conftest import fight, until
from .test_door import silent as silent_ssh
from .test_door import turned_away as ssh_turned_away
from .web_client import Browser, Web, self_signed

ELSEWHERE = "127.0.0.2"
"""Another address on this machine's loopback, as another player's machine."""


@pytest.fixture
async def shared(serve, tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[Web]]]:
    """The game over SSH and, behind the SSH server's own door, to browsers (as ``hsm
    serve --web`` wires them); ``limits`` are the door's."""
    (tmp_path / "index.html").write_text("<!doctype html><title>hsm</title>\n")
    async with contextlib.AsyncExitStack() as closing:

        async def start(tls: ssl.SSLContext | None = None, **limits: Any) -> Web:
            game = Game(fight())
            table = await serve(game.make_app, limits=Limits(**limits))
            game.server = table.server
            door, seats = table.server.door, lambda: table.server.seats
            browsers = WebServer(
                table.server.seating, seats, Invites(), door=door, tls=tls, static=tmp_path
            )
            await browsers.start("127.0.0.1", 0)
            run = Web(table, game, browsers, browsers.invites)
            closing.push_async_callback(browsers.close)  # last: after the table and pages
            closing.push_async_callback(lambda: asyncio.gather(*(b.close() for b in run.browsers)))
            closing.push_async_callback(table.server.close)
            return run

        yield start


@contextlib.asynccontextmanager
async def silent(port: int, count: int, host: str = "127.0.0.1") -> AsyncIterator[None]:
    """``count`` TCP connections to the web port from ``host`` that never say a word."""
    pairs = [
        await asyncio.open_connection("127.0.0.1", port, local_addr=(host, 0)) for _ in range(count)
    ]
    try:
        yield
    finally:
        for _, writer in pairs:
            writer.close()


async def closed_by_server(reader: asyncio.StreamReader, timeout: float = 5) -> bytes:
    """All the server sent before it closed the connection (a reset reads as nothing)."""
    try:
        return await asyncio.wait_for(reader.read(), timeout)
    except ConnectionResetError:
        return b""


async def page_turned_away(run: Web, host: str = "127.0.0.1") -> bool:
    """Whether a fresh connection from ``host`` is closed at once, with no answer."""
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", run.server.port, local_addr=(host, 0)
    )
    try:
        writer.write(b"GET / HTTP/1.1\r\nHost: table\r\n\r\n")
        got = await asyncio.wait_for(reader.read(12), 5)
    except ConnectionError:
        got = b""
    finally:
        writer.close()
    return not got.startswith(b"HTTP/1.1 ")


async def none_waiting(run: Web) -> None:
    """Wait until the door has seen the silent connections go."""
    door = run.table.server.door
    await until(lambda: not door._waiting.total(), lambda: f"still waiting: {door._waiting}")


async def from_elsewhere(browser: Browser) -> Browser:
    """``browser`` as on another machine: its connections come from :data:`ELSEWHERE`."""
    await browser.http.close()
    browser.http = aiohttp.ClientSession(
        cookie_jar=aiohttp.CookieJar(unsafe=True),
        connector=aiohttp.TCPConnector(local_addr=(ELSEWHERE, 0)),
    )
    return browser


async def test_per_source_silent_web_connections_leave_other_addresses_in(shared, caplog):
    run = await shared(per_source=2, max_startups=(50, 30, 100))
    with caplog.at_level(logging.INFO, logger="hsm_tui.share.door"):
        async with silent(run.server.port, 2):
            assert await page_turned_away(run)
            kara = await from_elsewhere(run.browser())
            assert (await kara.get("/")).status == 200
            assert (await kara.join(run.invites.make("kara").token))[0] == 200
            await kara.open()
            await kara.shows("Kestrel")
    assert "turned away: 2 from 127.0.0.1 logging in (--per-source-max-startups)" in caplog.text
    await none_waiting(run)
    assert not await page_turned_away(run)  # the silent ones gone, the door is open again


async def test_silent_web_connections_count_toward_the_ssh_max_startups(shared, caplog):
    run = await shared(max_startups=(2, 100, 2), per_source=10)
    with caplog.at_level(logging.INFO, logger="hsm_tui.share.door"):
        async with silent(run.server.port, 2):
            assert await ssh_turned_away(run.table)
        await none_waiting(run)
        async with silent_ssh(run.table.server.port, 2):
            assert await page_turned_away(run)
    assert caplog.text.count("turned away: 2 connections logging in (--max-startups)") == 2
    assert not await ssh_turned_away(run.table)


async def test_a_web_flood_from_one_address_leaves_room_for_an_ssh_login(shared, caplog):
    run = await shared(per_source=2)
    run.table.server.door.room = 4
    with caplog.at_level(logging.INFO, logger="hsm_tui.share.door"):
        async with silent(run.server.port, 2, ELSEWHERE):
            for _ in range(10):
                assert await page_turned_away(run, ELSEWHERE)
            kara = await run.table.join("kara", (100, 30))
            await kara.shows("Kestrel")
    assert f"turned away: 2 from {ELSEWHERE} logging in" in caplog.text


async def test_both_ports_share_the_descriptor_room(shared, caplog):
    run = await shared()
    run.table.server.door.room = 2
    with caplog.at_level(logging.INFO, logger="hsm_tui.share.door"):
        async with silent_ssh(run.table.server.port, 2):
            assert await page_turned_away(run)
        await none_waiting(run)
        async with silent(run.server.port, 2):
            assert await ssh_turned_away(run.table)
    assert caplog.text.count("no descriptors to spare (2 connections, --fd-reserve)") == 2
    await none_waiting(run)
    assert not await page_turned_away(run)


async def test_half_a_request_is_cut_at_the_login_grace(shared, caplog):
    run = await shared(login_grace=0.5)
    with caplog.at_level(logging.INFO, logger="hsm_tui.share.door"):
        reader, writer = await asyncio.open_connection("127.0.0.1", run.server.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: tab")  # and nothing more: slowloris
        assert await closed_by_server(reader) == b""
        writer.close()
    assert "did not log in within 0.5 s; disconnected" in caplog.text
    assert not await page_turned_away(run)  # a whole request within the grace is answered


async def test_over_tls_a_handshake_never_finished_is_cut_at_the_login_grace(
    shared, caplog, tmp_path: Path
):
    run = await shared(tls_context(*map(str, self_signed(tmp_path))), login_grace=0.5)
    with caplog.at_level(logging.INFO, logger="hsm_tui.share.door"):
        reader, writer = await asyncio.open_connection("127.0.0.1", run.server.port)
        writer.write(b"\x16\x03\x01")  # the first bytes of a ClientHello, then silence
        assert await closed_by_server(reader) == b""
        writer.close()
    assert "did not log in within 0.5 s; disconnected" in caplog.text
    kara = await run.joined("kara")
    await kara.shows("Kestrel")


async def test_an_idle_kept_alive_connection_is_closed_and_a_seat_stays(shared, caplog):
    run = await shared(unused_timeout=0.3)
    kara = await run.joined("kara")
    await kara.shows("Kestrel")
    with caplog.at_level(logging.INFO, logger="hsm_tui.share.door"):
        reader, writer = await asyncio.open_connection("127.0.0.1", run.server.port)
        writer.write(f"GET /whoami HTTP/1.1\r\nHost: 127.0.0.1:{run.server.port}\r\n\r\n".encode())
        assert (await closed_by_server(reader)).startswith(b"HTTP/1.1 401 ")
        writer.close()
    assert "opened no session in 0.3 s; disconnected" in caplog.text
    await asyncio.sleep(0.5)
    await kara.send(b"a")
    await kara.shows("Attack (R-ATK-1)")  # the seated page plays on


async def test_a_page_that_flooded_keeps_its_address_out_for_a_while(shared, caplog):
    run = await shared(flood_penalty=1)
    kara = await run.joined("kara")
    await kara.shows("Kestrel")
    assert kara.ws is not None
    with caplog.at_level(logging.INFO, logger="hsm_tui.share"):
        for n in range(RESIZE_FLOOD * FLOOD_SECONDS + 1):  # more than may come at once
            await kara.ws.send_str(json.dumps({"resize": [20 + n % 300, 10 + n % 150]}))
        await kara.ended()
        assert await page_turned_away(run)
        assert await ssh_turned_away(run.table)  # the one door: both ports
    assert "turned away: 127.0.0.1 flooded; turned away " in caplog.text
    await asyncio.sleep(1)
    assert not await page_turned_away(run)
