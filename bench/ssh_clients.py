"""bench/ssh.py's SSH clients: each an 80×24 xterm-256color PTY that stamps every chunk
it reads with the time it came and feeds its pyte screen only when asked; a GM typing
into the palette, timed per key.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Sequence
from typing import Any

import asyncssh
import pyte

SIZE = (80, 24)
QUIET = 0.1
"""Seconds without output from any client after which its screens are parsed."""
TIMEOUT = 10.0
KEYS = "abcdefghijklmnopqrst"
"""Letters the GM types into the palette, one timed sample each."""
ROUNDS = 3
"""Times the GM types them: 57 samples, so that a p95 is not the one slowest key."""


class Player:
    """One SSH client with a PTY: each chunk it reads with the time it came, and a pyte
    screen fed from them only when :meth:`scan` is called.
    """

    def __init__(self, conn: asyncssh.SSHClientConnection, process: Any) -> None:
        self.conn = conn
        self.process = process
        self.chunks: list[tuple[float, bytes]] = []
        self.screen = pyte.Screen(*SIZE)
        self._stream = pyte.ByteStream(self.screen)
        self._fed = 0
        self.found: float | None = None
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(asyncssh.ConnectionLost, OSError):  # dropped by the server
            while data := await self.process.stdout.read(1 << 16):
                self.chunks.append((time.monotonic(), data))

    @property
    def last(self) -> float:
        return self.chunks[-1][0] if self.chunks else 0.0

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data)

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def scan(self, pattern: re.Pattern[str], since: float) -> float | None:
        """Feed the screen what came; the stamp of the first chunk at or after ``since``
        after which the screen matches ``pattern`` (kept in :attr:`found`).
        """
        while self._fed < len(self.chunks):
            stamp, data = self.chunks[self._fed]
            self._fed += 1
            self._stream.feed(data)
            if self.found is None and stamp >= since and pattern.search(self.text):
                self.found = stamp
        return self.found

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()
        await asyncio.wait_for(self._reader, TIMEOUT)


async def join(
    port: int, user: str, key: asyncssh.SSHKey, local: str | None = None
) -> tuple[Player, float, float]:
    """A player at the table (from the address ``local``, if given): the client, when
    connecting started, when the session did."""
    start = time.monotonic()
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        username=user,
        client_keys=[key],
        known_hosts=None,
        agent_path=None,
        config=None,
        local_addr=None if local is None else (local, 0),
    )
    opened = time.monotonic()
    process = await conn.create_process(term_type="xterm-256color", term_size=SIZE, encoding=None)
    return Player(conn, process), start, opened


async def shown(players: Sequence[Player], pattern: str, since: float) -> list[float | None]:
    """For each player, when the screen came to match ``pattern`` (None: not within the
    timeout). Parses only once every player has had output since ``since`` and all of it
    has been quiet for :data:`QUIET`.
    """
    regex = re.compile(pattern)
    for player in players:
        player.found = None
    end = time.monotonic() + TIMEOUT
    while True:
        await asyncio.sleep(QUIET / 4)
        now = time.monotonic()
        quiet = now - max(p.last for p in players) >= QUIET
        if now > end or (quiet and all(p.last >= since for p in players)):
            found = [p.scan(regex, since) for p in players]
            if now > end or None not in found:
                return found


async def typed(gm: Player) -> list[float]:
    """Open the palette on ``gm``'s screen, type :data:`KEYS` one at a time, each but the
    first timed until the palette shows it (the first starts the palette's search, some
    150 ms in the bare app too); close it again; :data:`ROUNDS` times. Seconds per key."""
    times = []
    for _ in range(ROUNDS):
        gm.send(b"\x10")  # ctrl+p
        if (await shown([gm], "Search for commands", time.monotonic() - TIMEOUT))[0] is None:
            raise RuntimeError("the GM's command palette never opened")
        for n in range(len(KEYS)):
            sent = time.monotonic()
            gm.send(KEYS[n].encode())
            (seen,) = await shown([gm], re.escape(KEYS[: n + 1]), sent)
            if seen is not None and n:  # the first starts the palette's search: untimed
                times.append(seen - sent)
        gm.send(b"\x1b")
        await asyncio.sleep(0.5)  # the lone Esc waits out the escape delay
    return times
