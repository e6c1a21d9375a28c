"""The door of ``hsm serve``: which TCP connections may try to log in, how long they have
to, how many sessions a logged-in one may open, and how long it may stay without one
(sshd's ``MaxStartups``, ``PerSourceMaxStartups``, ``LoginGraceTime``, ``MaxSessions``,
``UnusedConnectionTimeout``, ``PerSourcePenalties``), within the file descriptors the
process may spare for them. One door serves both ports: an SSH connection and a browser's
are counted together, so a flood on one port cannot starve the other of descriptors.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from .limits import Limits, refusal_chance

log = logging.getLogger(__name__)


Close = Callable[[str], None]
"""How to close one connection, told why (an SSH disconnect says it; a socket just ends)."""


@dataclass
class _Visit:
    """One connection: from where, how to close it, logged in or not, its open sessions,
    its timer (the login grace, then the wait for a session)."""

    host: str
    peer: str
    close: Close
    logged_in: bool = False
    sessions: int = 0
    timer: asyncio.TimerHandle | None = None


class Door:
    """Counts the connections in and decides who else may come; see the module."""

    def __init__(self, limits: Limits, rng: random.Random | None = None) -> None:
        self.limits = limits
        self._rng = rng or random.Random()
        self._visits: dict[Hashable, _Visit] = {}
        self._waiting: Counter[str] = Counter()  # host → connections not logged in yet
        self._penalties: dict[str, float] = {}  # host → turned away until (loop time)
        self.room: int | None = None
        """Connections the descriptors leave room for (None: no limit known)."""

    def open(self) -> None:
        """Measure the room: the descriptor limit (``ulimit -n``) less those open now and
        the reserve. Called as each server listens (the last measure counts them all)."""
        soft, held = descriptor_limit(), open_descriptors()
        if soft is None or held is None:
            return
        self.room = max(soft - held - self.limits.fd_reserve, 0)
        log.info("room for %d connections (ulimit -n %d, %d open)", self.room, soft, held)

    def admit(self, conn: Hashable, host: str, peer: str, close: Close) -> bool:
        """Whether ``conn`` from ``host`` may try to log in; if not, the log says why. If
        so, ``close`` ends it when it overstays (``login_grace``, ``unused_timeout``)."""
        waiting = self._waiting.total()
        penalty = self._penalties.get(host, 0.0) - asyncio.get_running_loop().time()
        if penalty > 0:
            why = f"{host} flooded; turned away {penalty:.0f} s more (--flood-penalty)"
        elif self.room is not None and len(self._visits) >= self.room:
            why = f"no descriptors to spare ({len(self._visits)} connections, --fd-reserve)"
        elif self._waiting[host] >= self.limits.per_source:
            why = f"{self._waiting[host]} from {host} logging in (--per-source-max-startups)"
        elif self._rng.random() < refusal_chance(waiting, *self.limits.max_startups):
            why = f"{waiting} connections logging in (--max-startups)"
        else:
            visit = self._visits[conn] = _Visit(host, peer, close)
            self._waiting[host] += 1
            grace = self.limits.login_grace
            self._expire(conn, visit, grace, f"did not log in within {grace:g} s")
            return True
        log.info("%s turned away: %s", peer, why)
        return False

    def logged_in(self, conn: Hashable) -> None:
        """``conn`` logged in (over HTTP: a request of its was answered): it leaves the
        count of those logging in, and, with no session open, its wait for one starts
        (again: a browser's kept-alive connection is idle from its last request on)."""
        visit = self._visits.get(conn)
        if visit is None:
            return
        if not visit.logged_in:
            visit.logged_in = True
            self._waiting[visit.host] -= 1
        if not visit.sessions:
            self._wait(conn, visit)

    def session_opened(self, conn: Hashable) -> bool:
        """Whether ``conn`` may open one more session (it then stops waiting)."""
        visit = self._visits.get(conn)
        if visit is None or visit.sessions >= self.limits.max_sessions:
            return False
        visit.sessions += 1
        if visit.timer is not None:
            visit.timer.cancel()
            visit.timer = None
        return True

    def session_closed(self, conn: Hashable) -> None:
        """One of ``conn``'s sessions closed; with none left, its wait starts again."""
        visit = self._visits.get(conn)
        if visit is not None and visit.sessions > 0:
            visit.sessions -= 1
            if not visit.sessions:
                self._wait(conn, visit)

    def penalise(self, conn: Hashable) -> None:
        """``conn`` flooded: its address is turned away for ``flood_penalty`` seconds."""
        visit = self._visits.get(conn)
        if visit is not None:
            now = asyncio.get_running_loop().time()
            self._penalties = {h: t for h, t in self._penalties.items() if t > now}
            self._penalties[visit.host] = now + self.limits.flood_penalty

    def left(self, conn: Hashable) -> None:
        """``conn`` closed, however it went."""
        visit = self._visits.pop(conn, None)
        if visit is None:
            return
        if not visit.logged_in:
            self._waiting[visit.host] -= 1
            if not self._waiting[visit.host]:
                del self._waiting[visit.host]
        if visit.timer is not None:
            visit.timer.cancel()

    def _wait(self, conn: Hashable, visit: _Visit) -> None:
        """Close ``conn`` if it opens no session within ``unused_timeout`` seconds."""
        wait = self.limits.unused_timeout
        self._expire(conn, visit, wait, f"opened no session in {wait:g} s")

    def _expire(self, conn: Hashable, visit: _Visit, seconds: float, why: str) -> None:
        """Close ``conn`` in ``seconds`` (saying ``why``), unless its timer is reset first."""
        if visit.timer is not None:
            visit.timer.cancel()
        visit.timer = asyncio.get_running_loop().call_later(seconds, self._timed_out, conn, why)

    def _timed_out(self, conn: Hashable, why: str) -> None:
        visit = self._visits[conn]
        visit.timer = None
        log.info("%s %s; disconnected", visit.peer, why)
        visit.close(why)


def descriptor_limit() -> int | None:
    """The soft limit on open file descriptors (``ulimit -n``), None if there is none."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to keep clear of
        return None
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def open_descriptors() -> int | None:
    """How many file descriptors this process holds, None where it cannot be told."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder))
        except OSError:
            continue
    return None
