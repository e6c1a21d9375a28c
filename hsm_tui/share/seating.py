"""Who sits at the shared table, whatever way they came in (SSH or a browser): the
seats taken, the limits on them (``max_seats`` at once, ``per_user`` for one user), when
each user last left, the listeners the GM's seat list hangs on, and each seat's app.

One :class:`Seating` serves every transport of one ``hsm serve``, so its limits count all
seats together and the GM sees them in one list. A transport hands it a connection's
:class:`~hsm_tui.share.terminal.ClientTerminal`, whose channel knows how to end that
connection (:class:`Ending`); the seating runs the app on it and ends it after.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from textual.app import App

from ..table.seats import Seat
from . import departed
from .driver import run_app
from .terminal import Channel, ClientTerminal

log = logging.getLogger(__name__)

EXIT_TIMEOUT = 5.0
"""Seconds :meth:`Seating.close` gives the apps to exit before it cancels them."""


class Ending(Channel, Protocol):
    """A channel the seating can end: each transport says goodbye its own way."""

    def end(self, status: int, line: str = "") -> None:
        """Close the connection with ``status`` (the app's exit code, 1 for a refusal),
        the client reading ``line`` (if any) last; a channel already closed is fine."""
        ...


@dataclass(frozen=True)
class Connection:
    """Who sits at the table: the seat, from where (``peer``: an SSH client's address, or
    ``web ADDRESS`` for a browser), the terminal's size (cols, rows), since when
    (``time.time()``), and an id unique in this seating's life.
    """

    id: int
    seat: Seat
    peer: str
    size: tuple[int, int]
    connected_at: float


@dataclass
class _Place:
    """A connection at the table: what the GM sees, the terminal, the app's task."""

    connection: Connection
    terminal: ClientTerminal
    task: asyncio.Task[None] | None = None


class Seating:
    """The seats taken at one table; see the module's docstring."""

    def __init__(
        self,
        make_app: Callable[[Seat, Connection], App[Any]],
        *,
        max_seats: int = 8,
        per_user: int = 2,
    ) -> None:
        self._make_app = make_app
        self.max_seats = max_seats
        self.per_user = per_user
        self.closing = False
        """:meth:`close` has begun: nobody sits down any more."""
        self._places: dict[int, _Place] = {}
        self._left: dict[str, float] = {}
        self._listeners: list[Callable[[], None]] = []
        self._ids = itertools.count(1)
        self._held: list[tuple[Ending, int]] = []  # ended by close(): (channel, code)

    @property
    def connections(self) -> tuple[Connection, ...]:
        """Who is at the table now, in the order they came."""
        return tuple(p.connection for p in self._places.values())

    def on_change(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback`` whenever someone comes, leaves or resizes; returns the
        function that stops it. It is called on the server's loop from whichever
        connection changed (any context): it should only schedule a refresh. A callback
        that raises is logged and dropped.
        """
        self._listeners.append(callback)

        def unsubscribe() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return unsubscribe

    def left_at(self, user: str) -> float | None:
        """When ``user`` last left the table (``time.time()``), None if never."""
        return self._left.get(user)

    def refusal(self, seat: Seat) -> str:
        """Why ``seat`` may not sit down now, "" if it may: the line its client reads."""
        if self.closing:
            return "hsm: the table is closing"
        if len(self._places) >= self.max_seats:
            return f"hsm: the table is full ({self.max_seats} connected); try again later"
        theirs = sum(p.connection.seat.user == seat.user for p in self._places.values())
        if theirs >= self.per_user:
            return f"hsm: {seat.user} is connected {self.per_user} times already (the most)"
        return ""

    def sit(self, seat: Seat, peer: str, terminal: ClientTerminal) -> Connection:
        """Seat a connection (after :meth:`refusal` said it may; its terminal's channel an
        :class:`Ending`) and start its app in a task with a context of its own; its window
        changes reach the GM's list."""
        connection = Connection(next(self._ids), seat, peer, terminal.size, time.time())
        place = self._places[connection.id] = _Place(connection, terminal)
        terminal.on_resize = lambda: self._resized(place)
        place.task = asyncio.create_task(
            self._serve(place), name=f"hsm table {connection.id}", context=contextvars.Context()
        )
        log.info("%s joined from %s as %s", seat.user, peer, seat.role)
        self._changed()
        return connection

    async def close(self, farewell: Callable[[], str] | None = None) -> None:
        """Ask every app to exit (each restores its client's terminal), cancel those
        still running after :data:`EXIT_TIMEOUT`, then end every connection. ``farewell``
        runs once every app has stopped (the game can no longer change: the campaign is
        saved there); each client reads the line it returns as the table closes.
        """
        self.closing = True
        tasks = [p.task for p in self._places.values() if p.task is not None]
        for place in list(self._places.values()):
            place.terminal.quit()
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=EXIT_TIMEOUT)
            for task in late:
                task.cancel()
            if late:
                await asyncio.wait(late, timeout=EXIT_TIMEOUT)
        line = farewell() if farewell is not None else ""
        for channel, code in self._held:
            channel.end(code, line)
        self._held.clear()

    async def _serve(self, place: _Place) -> None:
        """Run the connection's app; whatever happens, it leaves the table after."""
        connection, terminal = place.connection, place.terminal
        code = 1
        try:
            code = await run_app(self._make_app(connection.seat, connection), terminal)
        except Exception:
            log.exception(
                "the app of %s (connection %d) failed", connection.seat.user, connection.id
            )
        finally:
            del self._places[connection.id]
            departed.forget_departed_apps()
            self._left[connection.seat.user] = time.time()
            log.info("%s left (connection %d)", connection.seat.user, connection.id)
            if not terminal.closed:
                terminal.closed = True
                if self.closing:  # the table closes: its farewell comes once all stopped
                    self._held.append((terminal.channel, code))
                else:
                    terminal.channel.end(code)
            self._changed()

    def _resized(self, place: _Place) -> None:
        if place.connection.id in self._places and place.connection.size != place.terminal.size:
            place.connection = replace(place.connection, size=place.terminal.size)
            self._changed()

    def _changed(self) -> None:
        for callback in list(self._listeners):
            try:
                callback()
            except Exception:
                log.exception("a table listener failed; it is dropped")
                self._listeners.remove(callback)
