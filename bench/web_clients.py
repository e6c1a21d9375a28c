"""bench/web.py's browsers: each an aiohttp client that trades an invite for a session
cookie and opens the table's WebSocket at 80×24, read by bench/ssh_clients.py's Player
(stamps, pyte screen, ``shown``, ``typed``) as if it were an SSH session.
"""

from __future__ import annotations

import asyncio
import json
import time

import aiohttp

from bench.ssh_clients import SIZE, Player


class Socket:
    """A browser's WebSocket in the shape Player reads an SSH connection and its process:
    ``stdout.read`` gives the next binary message (the app's output; ``b""`` once the
    socket closes), ``stdin.write`` sends keys as a binary message, ``close`` and
    ``wait_closed`` close the socket and the browser's HTTP session."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.http = http
        self.ws = ws
        self.stdout = self.stdin = self
        self.bye: str | None = None
        """The server's parting line, once it sent one."""
        self._sending: set[asyncio.Task[None]] = set()

    async def read(self, _size: int) -> bytes:
        while True:
            message = await self.ws.receive()
            if message.type is aiohttp.WSMsgType.BINARY:
                return bytes(message.data)
            if message.type is not aiohttp.WSMsgType.TEXT:
                return b""
            self.bye = json.loads(message.data).get("bye")

    def write(self, data: bytes) -> None:
        """Send ``data`` now (Player's ``send`` is not awaited); sends go out in order,
        since an uncompressed frame is written to the transport before any wait."""
        task = asyncio.ensure_future(self.ws.send_bytes(data))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def close(self) -> None:
        """Closing happens in :meth:`wait_closed`, which Player awaits straight after."""

    async def wait_closed(self) -> None:
        await self.ws.close()
        await self.http.close()


async def enter(url: str, origin: str, token: str) -> tuple[Player, float, float]:
    """A browser at the table by an invite's ``token``: its Player, when the ``/join``
    POST started, when the WebSocket's connect did. Raises RuntimeError with the server's
    reason when the join is refused."""
    http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # 127.0.0.1
    start = time.monotonic()
    try:
        async with http.post(f"{url}/join", json={"secret": token}) as response:
            if response.status != 200:
                raise RuntimeError(f"/join refused: {(await response.json())['error']}")
        opened = time.monotonic()
        ws = await http.ws_connect(
            f"{url}/ws?cols={SIZE[0]}&rows={SIZE[1]}", origin=origin, max_msg_size=0
        )
    except BaseException:
        await http.close()
        raise
    socket = Socket(http, ws)
    return Player(socket, socket), start, opened  # type: ignore[arg-type]
