"""bench/ssh.py's figures under attack: silent TCP connections (opened, never a byte
sent) held while the GM types, and while a player logs in under ``ulimit -n 1024``; a
player's key flood while the GM changes the game.

The silent ones come from :data:`ATTACKER` (one machine, as in the issue's attack), the
logging-in player from :data:`PLAYERS_HOST`: on one host, two loopback addresses stand for
two machines (a player at the attacker's address would share its per-address limit); the
GM logged in before the attack.
Each silent connection is held until the figure is taken, whatever the server did with it
(the door turns most away at once; ``--per-source-max-startups`` keeps five).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import asyncssh

ATTACKER, PLAYERS_HOST = "127.0.0.3", "127.0.0.2"
SILENT_TYPING, SILENT_LOGIN, LOGIN_NOFILE = 500, 1500, 1024
"""Silent connections while the GM types; while a player logs in, and the server's
``ulimit -n`` then (the issue's attack: 1,500 under 1,024 locked the players out)."""
LOGIN_TARGET_MS = 150.0
"""A login's first frame under the flood: the bench's first-frame target, since silent
connections the door turns away should cost a player nothing they notice."""
FLOOD_KEYS = b"almvtxnA"
"""What a flooding player types: the player's keys that open a screen or a menu."""
RETRY = 0.05
"""Seconds a player waits before trying again when turned away (an ssh in a loop)."""


@contextlib.asynccontextmanager
async def silent(port: int, count: int) -> AsyncIterator[int]:
    """``count`` silent connections from :data:`ATTACKER`, held while the block runs;
    yields how many the server still held open a moment after the last was made."""
    writers: list[asyncio.StreamWriter] = []
    readers: list[asyncio.StreamReader] = []
    try:
        for _ in range(count):
            with contextlib.suppress(OSError):
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(ATTACKER, 0)
                )
                readers.append(reader)
                writers.append(writer)
        await asyncio.sleep(0.5)
        yield sum(not r.at_eof() for r in readers)
    finally:
        for writer in writers:
            writer.close()


async def login_ms(
    join: Callable[..., Awaitable[tuple[object, float, float]]],
    first: Callable[[object, float], Awaitable[float | None]],
    timeout: float = 30.0,
) -> tuple[float | None, int]:
    """A player's login, trying again when turned away, until its first frame: ms from
    the first try (None: not within ``timeout``), and the tries it took."""
    start = time.monotonic()
    tries = 0
    while time.monotonic() - start < timeout:
        tries += 1
        try:
            player, _, _ = await join()
        except (asyncssh.Error, OSError):
            await asyncio.sleep(RETRY)
            continue
        seen = await first(player, start)
        await player.close()  # type: ignore[attr-defined]
        return (None if seen is None else (seen - start) * 1000), tries
    return None, tries


async def key_flood(stdin: asyncssh.SSHWriter[bytes], stop: asyncio.Event) -> int:
    """The player's keys as fast as SSH takes them (4 KB a write) until ``stop``; the
    bytes sent."""
    rng = random.Random(0)
    sent = 0
    with contextlib.suppress(asyncssh.Error, OSError):  # dropped: the flood is over
        while not stop.is_set():
            data = bytes(rng.choice(FLOOD_KEYS) for _ in range(4096))
            stdin.write(data)
            await stdin.drain()
            sent += len(data)
    return sent
