"""What the server knows of one SSH client's terminal: its channel, its type,
its size (bounded, whatever the client claims) and environment, and the input that
arrives before its app's driver is up. Shared by the client's SSH session, which feeds
it, and the app's :class:`~hsm_tui.share.driver.ChannelDriver`, which reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

MIN_SIZE = (20, 10)
MAX_SIZE = (500, 200)
"""A client's terminal is taken as at least 20×10 and at most 500×200 cells, whatever it
says: a huge size would make the server render millions of cells every frame."""

MAX_EARLY_INPUT = 64 << 10
"""Bytes typed before the app's driver is up that are kept for it; the rest is dropped."""


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
        """Called once when the client is dropped for not reading: closes its connection."""
        self._early = bytearray()

    def received(self, data: bytes) -> None:
        """Bytes the client typed."""
        if self.driver is not None:
            self.driver.receive(data)
        elif len(self._early) + len(data) <= MAX_EARLY_INPUT:
            self._early += data

    def resized(self, cols: int, rows: int) -> None:
        """The client's window changed size."""
        self.size = bounded(cols, rows)
        if self.driver is not None:
            self.driver.resize()

    def lost(self) -> None:
        """The channel closed: the app exits and writes nothing more."""
        self.closed = True
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
        """The client stopped reading: close its connection, once."""
        if not self.closed:
            self.lost()
            self.on_drop()
