"""What the server knows of one SSH client's terminal: its channel, its type,
its size (bounded, whatever the client claims) and environment, and the input that
arrives before its app's driver is up. Shared by the client's SSH session, which feeds
it, and the app's :class:`~hsm_tui.share.driver.ChannelDriver`, which reads it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Protocol

log = logging.getLogger(__name__)

MIN_SIZE = (20, 10)
MAX_SIZE = (500, 200)
"""A client's terminal is taken as at least 20×10 and at most 500×200 cells, whatever it
says: a huge size would make the server render millions of cells every frame."""

MAX_EARLY_INPUT = 64 << 10
"""Bytes typed before the app's driver is up that are kept for it; the rest is dropped."""

RESIZE_FRAME, RESIZE_EVERY = 1 / 60, 0.2
"""A window change reaches the app a frame after it came, and the next no sooner than
0.2 s after that, however many came between (the last size wins): each is a re-layout of
the whole screen on the loop every seat shares, and dragging a window sends dozens."""

RESIZE_FLOOD, FLOOD_SECONDS = 120, 3
"""Window changes in one second that no hand sends, and the seconds in a row of them after
which the client is dropped; as many as all those seconds' within one second drop it at
once. Each request still costs the server its decryption and parsing, whatever the app
is spared: a client sending them flat out takes the loop from every seat."""


class Channel(Protocol):
    """What the driver uses of an asyncssh server channel opened with ``encoding=None``."""

    def write(self, data: bytes) -> None: ...
    def get_write_buffer_size(self) -> int: ...
    def pause_reading(self) -> None: ...
    def resume_reading(self) -> None: ...


class Receiver(Protocol):
    """What the terminal hands on to its app's driver: the client's keys, a new size, and
    the server's request that the app leave."""

    def receive(self, data: bytes) -> None: ...
    def resize(self) -> None: ...
    def quit(self) -> None: ...


def bounded(cols: int, rows: int) -> tuple[int, int]:
    """A client's terminal size within :data:`MIN_SIZE` and :data:`MAX_SIZE`."""
    return (
        min(max(cols, MIN_SIZE[0]), MAX_SIZE[0]),
        min(max(rows, MIN_SIZE[1]), MAX_SIZE[1]),
    )


class ClientTerminal:
    """One client's terminal as both its SSH session and its app's driver see it: the
    channel, the type and size from the PTY request, the client's environment, and the
    input that arrives before the driver is up.
    """

    def __init__(
        self,
        channel: Channel,
        term: str,
        size: tuple[int, int],
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.channel = channel
        self.term = term
        self.size = bounded(*size)
        self.env = dict(env or {})
        self.closed = False
        """The channel is gone: output is dropped, the app is on its way out."""
        self.quitting = False
        """The server asked the app to leave (it may still draw its last frame)."""
        self.driver: Receiver | None = None
        self.on_drop: Callable[[], None] = lambda: None
        """Called once when the client is dropped (for not reading, for flooding): closes
        its connection."""
        self.on_flood: Callable[[], None] = lambda: None
        """Called when the client is dropped for flooding, before :attr:`on_drop`."""
        self.on_resize: Callable[[], None] | None = None
        """Called with each window change that reaches the app (the GM's list of seats)."""
        self._early = bytearray()
        self._resize: asyncio.TimerHandle | None = None
        self._resize_next = 0.0
        self._resizes = 0  # window changes in this second
        self._resizes_since = 0.0
        self._flood_seconds = 0

    def received(self, data: bytes) -> None:
        """Bytes the client typed."""
        if self.driver is not None:
            self.driver.receive(data)
        elif len(self._early) + len(data) <= MAX_EARLY_INPUT:
            self._early += data

    def resized(self, cols: int, rows: int) -> None:
        """The client's window changed size: taken now, handed on at most once a frame
        (see :data:`RESIZE_EVERY`); a client that floods is dropped."""
        self.size = bounded(cols, rows)
        if self.driver is None and self.on_resize is None:
            return  # the driver starts with the size as it is then
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self._flooding(now):
            log.warning("dropping a client that sends window changes flat out")
            self.on_flood()
            self.dropped()
        elif self._resize is None:
            delay = max(RESIZE_FRAME, self._resize_next - now)
            self._resize = loop.call_later(delay, self._hand_on_size)

    def _hand_on_size(self) -> None:
        """The latest size, to the app and the GM's list."""
        self._resize = None
        self._resize_next = asyncio.get_running_loop().time() + RESIZE_EVERY
        if self.closed:
            return
        if self.driver is not None:
            self.driver.resize()
        if self.on_resize is not None:
            self.on_resize()

    def _flooding(self, now: float) -> bool:
        """Count a window change; whether this client has flooded for long enough."""
        if now - self._resizes_since >= 1.0:
            whole = now - self._resizes_since < 2.0 and self._resizes > RESIZE_FLOOD
            self._flood_seconds = self._flood_seconds + 1 if whole else 0
            self._resizes, self._resizes_since = 0, now
        self._resizes += 1
        return self._flood_seconds >= FLOOD_SECONDS or self._resizes > RESIZE_FLOOD * FLOOD_SECONDS

    def lost(self) -> None:
        """The channel closed: the app exits and writes nothing more."""
        self.closed = True
        if self._resize is not None:
            self._resize.cancel()
            self._resize = None
        self.quit()

    def quit(self) -> None:
        """Ask the app to exit (it restores the client's terminal as it goes)."""
        self.quitting = True
        if self.driver is not None:
            self.driver.quit()

    def attach(self, driver: Receiver) -> bytes:
        """Hand the terminal to ``driver``; returns what the client typed until now."""
        self.driver = driver
        early, self._early = bytes(self._early), bytearray()
        return early

    def dropped(self) -> None:
        """The client stopped reading, or floods: close its connection, once."""
        if not self.closed:
            self.lost()
            self.on_drop()
