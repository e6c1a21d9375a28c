"""When a seat's input reaches its app: the events one client may send in a second, and
each key, and each new size of its window, handed on in turn once the one before is
taken and drawn, paced by what it cost the loop every seat shares. A flooding client is
held to a share of that loop, and dropped when it keeps it up.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Any

from textual.app import App, ScreenStackError
from textual.message import Message

from .terminal import FLOOD_SECONDS, ClientTerminal

log = logging.getLogger(__name__)

MAX_EVENTS_PER_SECOND = 200
"""Events (keys, pastes, clicks) one client may send in a second; past it the rest of a
read is dropped and input pauses until the next second. A typist sends tens, a held key
some thirty, a paste is one event (and the longest line a player may type is 200
characters): only a flood reaches it. Each key may open a menu on the loop every seat
shares, so at a thousand a second one flooding client took a fifth of it; those kept are
handed on in turn (:data:`KEY_SHARE`); a client that reaches it :data:`FLOOD_SECONDS`
seconds in a row is dropped."""

KEY_GAP, SETTLE_POLL, SETTLE_LIMIT = 1 / 60, 0.001, 0.25
"""Keys reach the app one at a time, a frame apart at least and once it is done with the
one before (checked every ``SETTLE_POLL`` s, and waited for ``SETTLE_LIMIT`` s at most:
an app busy past it takes the next key anyway). A typist's keys are tens of milliseconds
apart, a paste is one event."""

KEY_SHARE, MAX_KEY_GAP = 6, 0.5
"""After a key, the next waits ``KEY_SHARE`` times the loop's CPU time from handing it on
until the app had taken it and drawn its frame (``MAX_KEY_GAP`` s at most). A key may open
a screen, a re-layout and repaint of ten milliseconds or more on the loop every seat
shares: a seat's keys then take a sixth of it at most, however fast they come, and while
the other seats are busy (a GM change drawn for twenty players is counted too) far less.
A frame apart is a tenth of what a typist's keys cost."""

RESIZE_SHARE, MAX_RESIZE_GAP = 50, 5.0
"""After a new size, the seat's next event (a key or another size) waits ``RESIZE_SHARE``
times the loop's CPU time the re-layout took (``MAX_RESIZE_GAP`` s at most). A re-layout
redraws every cell: at 300×150 a tenth of a second or more on the loop every seat shares,
and a client may send window changes just under the rate that drops it for good. The
last size still wins: one waits at most, taken as it is when its turn comes; after a
quiet spell a new size still arrives at once."""

MAX_HELD = MAX_EVENTS_PER_SECOND
"""Events waiting for their turn; past it the newest are dropped: a second's budget, since
a paste from a terminal that does not mark it as one (a key line typed whole) comes as
a hundred keys, and keys a flood sends faster than they are handed on are not kept."""

QUEUE_HIGH, QUEUE_LOW = 512, 64
"""The app's waiting messages at which the client's input is paused, and resumed: input
an app is slow to take then waits in SSH flow control, not in the server's memory."""

_SIZE = Message()
"""Held in a seat's queue of events for its turn: the client's size as it is then."""


class Pacing:
    """The pacing half of :class:`~hsm_tui.share.driver.ChannelDriver`: events held and
    released in turn. What it uses of the driver is declared here."""

    _app: App[Any]
    _loop: asyncio.AbstractEventLoop
    _input: bool
    _unparsed: str
    terminal: ClientTerminal
    process_message: Any
    _send_size: Any
    _in_context: Any

    def _start_pacing(self) -> None:
        self._paused = False
        self._budget = MAX_EVENTS_PER_SECOND
        self._budget_until = 0.0
        self._flood_seconds = 0
        self._held: deque[Message] = deque()  # keys, and at most one _SIZE
        self._released_at = float("-inf")
        self._key_cpu: float | None = None  # the loop's CPU time when the last key went
        self._drawn_cpu: float | None = None  # … when a frame was last written since then
        self._next_at = float("-inf")  # when the next key may go, by the last one's cost
        self._share, self._max_gap = KEY_SHARE, MAX_KEY_GAP  # … for what went last
        self._release_due: Any = None

    def _post(self, event: Message) -> None:
        """A parsed event to the app, within this second's budget and :data:`MAX_HELD`,
        in the order typed."""
        self._silent = 0
        if self._budget > 0:
            self._budget -= 1
            if len(self._held) < MAX_HELD:
                self._held.append(event)
            if self._release_due is None:
                self._release()

    def _hold_size(self) -> None:
        if _SIZE not in self._held:
            self._held.append(_SIZE)
        if self._release_due is None:
            self._release()

    def _release(self) -> None:
        """Hand the next held event over, when the last one's cost allows; the rest wait.

        Waiting for the app to be done with a key keeps the order typed, too: Textual
        inserts a character in the focused widget's own queue, but a key such as
        Backspace, Enter or ctrl+u bubbles up to the app, whose bindings act on it later,
        so characters typed after it in the same read (SSH sends a typist's burst as one)
        would land first. The next event waits until every queue on its way (the focused
        widget, its ancestors, the app) has finished.
        """
        self._release_due = None
        if not self._held:
            return
        now = self._loop.time()
        due = self._due(now)
        if due > now:
            self._release_due = self._loop.call_at(due, self._in_context, self._release)
            return
        self._released_at, self._key_cpu, self._drawn_cpu = now, time.thread_time(), None
        event = self._held.popleft()
        if event is _SIZE:
            self._share, self._max_gap = RESIZE_SHARE, MAX_RESIZE_GAP
            self._send_size()
        else:
            self._share, self._max_gap = KEY_SHARE, MAX_KEY_GAP
            self.process_message(event)
        if self._held:
            self._release_due = self._loop.call_later(KEY_GAP, self._in_context, self._release)

    def _due(self, now: float) -> float:
        """When the next key may go: once the last one is taken and drawn (or
        :data:`SETTLE_LIMIT` has passed), :data:`KEY_SHARE` times its cost after it went
        (:data:`RESIZE_SHARE` times after a new size).
        """
        waited = now - self._released_at
        if self._key_cpu is not None and waited < SETTLE_LIMIT:
            if not self._settled():
                return now + SETTLE_POLL
            if self._drawn_cpu is None and waited < 2 * KEY_GAP:  # its frame, if it makes one
                return now + KEY_GAP / 4
        if self._key_cpu is not None:
            cost = (self._drawn_cpu or time.thread_time()) - self._key_cpu
            gap = min(max(KEY_GAP, self._share * cost), self._max_gap)
            self._next_at, self._key_cpu = self._released_at + gap, None
        return max(self._next_at, self._released_at + KEY_GAP)

    def _settled(self) -> bool:
        """Whether the focused widget and every node above it up to the app have taken
        all their messages (a key bubbles up that line; the binding that takes it acts
        in the same turn of the loop).
        """
        app = self._app
        try:
            nodes = app.focused.ancestors_with_self if app.focused else [app.screen, app]
        except ScreenStackError:  # the app is closing: nothing waits for these keys
            return True
        return all(node._message_queue.empty() for node in nodes)

    def _refill(self) -> None:
        """A new second's budget; a client that spent the whole of it
        :data:`FLOOD_SECONDS` seconds in a row is flooding, and dropped."""
        now = self._loop.time()
        if now >= self._budget_until:
            spent = self._budget == 0 and now - self._budget_until < 1.0
            self._flood_seconds = self._flood_seconds + 1 if spent else 0
            self._budget, self._budget_until = MAX_EVENTS_PER_SECOND, now + 1.0
            if self._flood_seconds >= FLOOD_SECONDS:
                log.warning("dropping a client that types flat out")
                self._input = False
                self.terminal.on_flood()
                self.terminal.dropped()

    def _backlog(self) -> int:
        """The app's waiting messages (Textual keeps no public count: its queue's); the
        keys held for their turn are bounded apart (:data:`MAX_HELD`)."""
        queue = getattr(self._app, "_message_queue", None)
        return queue.qsize() if queue is not None else 0

    def _throttle(self) -> None:
        """Pause the client's input once this second's budget is spent, while the app
        has a backlog or while what it sent is still being parsed; SSH flow control then
        holds the client back.
        """
        if (
            self._input
            and not self._paused
            and (self._budget == 0 or self._backlog() > QUEUE_HIGH or self._unparsed)
        ):
            self._paused = True
            self.terminal.channel.pause_reading()
            self._loop.call_later(0.02, self._in_context, self._resume_when_due)

    def _resume_when_due(self) -> None:
        self._refill()
        if not self._input:
            return  # dropped, or the app is leaving
        if self._budget == 0 or self._backlog() > QUEUE_LOW or self._unparsed:
            self._loop.call_later(0.02, self._in_context, self._resume_when_due)
            return
        self._paused = False
        self.terminal.channel.resume_reading()
