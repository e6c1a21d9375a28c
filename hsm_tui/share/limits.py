"""How much of the server one client, or all of them together, may take: OpenSSH's sshd
limits (their names in brackets), each a flag of ``hsm serve`` with the same default.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """The limits a :class:`~hsm_tui.share.server.TableServer` holds every client to."""

    max_auth_tries: int = 6
    """Keys one connection may offer (``MaxAuthTries``): a player's public key is public,
    so unlimited tries would let anyone confirm user names at full speed."""
    max_startups: tuple[int, int, int] = (10, 30, 100)
    """Connections not logged in yet (``MaxStartups`` start:rate:full): from ``start`` on,
    a new one is turned away with a chance of ``rate`` %, growing to 100 % at ``full``;
    silent connections then cannot hold every slot a player needs to log in."""
    per_source: int = 5
    """Connections not logged in yet from one address (``PerSourceMaxStartups``): one
    machine flooding the door leaves it open to the others."""
    login_grace: float = 30.0
    """Seconds a connection has to log in (``LoginGraceTime``)."""
    unused_timeout: float = 30.0
    """Seconds a logged-in connection may stay with no session open
    (``UnusedConnectionTimeout``): else it would hold a descriptor for good."""
    max_sessions: int = 4
    """Sessions open at once on one connection (``MaxSessions``); a seat needs one."""
    flood_penalty: float = 30.0
    """Seconds an address that flooded (a seat dropped for it) is turned away
    (``PerSourcePenalties``): else it logs in again at once, and a login and its first
    frame cost the server far more than the requests it was dropped for."""
    fd_reserve: int = 64
    """File descriptors kept free of connections, so that the autosave, the GM's save and
    the log never fail for lack of one (new connections are turned away first)."""


def refusal_chance(waiting: int, start: int, rate: int, full: int) -> float:
    """The chance a new connection is turned away while ``waiting`` others have not
    logged in yet, as sshd's ``MaxStartups start:rate:full`` sets it: none below
    ``start``, ``rate`` % at it, growing linearly to all at ``full``.
    """
    if waiting < start:
        return 0.0
    if waiting >= full:
        return 1.0
    return (rate + (100 - rate) * (waiting - start) / (full - start)) / 100


def startups(text: str) -> tuple[int, int, int]:
    """``START:RATE:FULL`` (or one number, start and full alike) as sshd reads it; raises
    ValueError saying what is wrong."""
    parts = text.split(":")
    if len(parts) == 1:
        parts = [parts[0], "100", parts[0]]
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        raise ValueError(f"expected START:RATE:FULL (as 10:30:100), not {text!r}")
    start, rate, full = map(int, parts)
    if not (1 <= start <= full and 1 <= rate <= 100):
        raise ValueError(f"expected 1 <= START <= FULL and RATE from 1 to 100, not {text!r}")
    return start, rate, full
