"""Invites to the shared table from a browser (a fixed contract with the web server):
the GM makes an invite for a seat; the player's browser trades its link's token, or
the code the GM read aloud, for a session cookie once; the GM may revoke a seat's
browser sessions.

Pure: no I/O, time and randomness are injected. Only sha256 digests of tokens, codes
and cookies are kept, so what this object holds gives away no token and no session if
it leaks (a log, a crash dump); a code's ~40 bits could be searched from its digest, but
only within its 15 minutes and its single use. A browser is told a specific reason for a
refusal, because the player can only act on it by asking the GM for a new invite or
retyping the code.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

INVITE_TTL = 15 * 60
"""Seconds an invite lasts: long enough to send it and open it, short enough that a
link found later in a chat opens nothing."""

SESSION_TTL = 12 * 3600
"""Seconds a browser's session lasts: an evening's play, not the week after."""

TOKEN_BYTES = 16
"""The link's token: 128 random bits, beyond guessing even with no rate limit."""

COOKIE_BYTES = 32
"""A session cookie: 256 random bits."""

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""A code's characters: no 0/O nor 1/I/L, which look alike when read or heard."""

CODE_LENGTH = 8
"""A code read aloud: 8 characters of 31, ~40 bits; with an invite's 15 minutes and
the join limit per address, beyond guessing."""


@dataclass(frozen=True)
class Invite:
    """An invite for ``user``'s seat: the link's ``token``, the ``code`` (``ABCD-EFGH``)
    to type instead, and when it stops working (``clock()`` time)."""

    user: str
    token: str
    code: str
    expires_at: float


class InviteRefused(Exception):
    """An invite that opens no session, or that cannot be made; ``str(err)`` is the line
    shown to whoever asked (the browser, or the GM)."""


def link(origin: str, invite: Invite) -> str:
    """The invite's link at the table's public ``origin``: the token rides in the
    fragment, which a browser never sends to a server nor in a Referer."""
    return f"{origin.rstrip('/')}/#invite={invite.token}"


@dataclass
class _Pending:
    """What is kept of an invite: its seat, its end, and why it no longer works once it
    does not (a used or replaced invite is told apart from an unknown one)."""

    user: str
    expires_at: float
    ended: str = ""


@dataclass(frozen=True)
class _Session:
    user: str
    expires_at: float


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def _clock_time(at: float) -> str:
    return time.strftime("%H:%M", time.localtime(at))


def normal_code(text: str) -> str | None:
    """``text`` as a code (upper case, no dash or spaces) if it is shaped like one, else
    None: a code is typed case-insensitively, with or without its dash."""
    code = "".join(text.split()).replace("-", "").upper()
    return code if len(code) == CODE_LENGTH else None


def _unknown(code: str | None) -> str:
    """Why a secret that names no invite is refused, said for what it looks like."""
    if code is None:
        return (
            "this invite link is not known here (it may be from before the table"
            " restarted): ask the GM for a new one"
        )
    if any(c not in CODE_ALPHABET for c in code):
        return "a code is 8 letters and digits like ABCD-EFGH, with no 0, 1, I, L or O"
    return "no invite has this code: check it or ask the GM"


class Invites:
    """The pending invites and live browser sessions of one table (see the module)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.time,
        randbytes: Callable[[int], bytes] = secrets.token_bytes,
    ) -> None:
        self._clock = clock
        self._randbytes = randbytes
        self._invites: dict[bytes, _Pending] = {}  # digest of a token or a code → invite
        self._latest: dict[str, _Pending] = {}  # user → their newest invite
        self._sessions: dict[bytes, _Session] = {}  # digest of a cookie → session
        self._listeners: list[Callable[[str], None]] = []

    def make(self, user: str) -> Invite:
        """A new invite for ``user``'s seat; an earlier unused one of theirs stops
        working (the GM gave a new one: the old link may have gone astray)."""
        self._forget_old()
        now = self._clock()
        old = self._latest.get(user)
        if old is not None and not old.ended:
            old.ended = "this invite was replaced by a newer one: use the newest the GM gave you"
        pending = self._latest[user] = _Pending(user, now + INVITE_TTL)
        token = self._urlsafe(TOKEN_BYTES)
        code = self._new_code()
        self._invites[_digest(token)] = self._invites[_digest(code)] = pending
        return Invite(user, token, f"{code[:4]}-{code[4:]}", pending.expires_at)

    def trade(self, secret: str) -> tuple[str, str]:
        """The user and a new session cookie for an invite's token or code; the invite
        is then used up (its token and its code both). Raises InviteRefused saying why.
        """
        self._forget_old()
        code = normal_code(secret)
        pending = self._invites.get(_digest(code or secret.strip()))
        if pending is None:
            raise InviteRefused(_unknown(code))
        if pending.ended:
            raise InviteRefused(pending.ended)
        if self._clock() >= pending.expires_at:
            at = _clock_time(pending.expires_at)
            raise InviteRefused(f"this invite expired at {at}: ask the GM for a new one")
        pending.ended = "this invite was already used: ask the GM for a new one"
        cookie = self._urlsafe(COOKIE_BYTES)
        self._sessions[_digest(cookie)] = _Session(pending.user, self._clock() + SESSION_TTL)
        return pending.user, cookie

    def user_of(self, cookie: str | None) -> str | None:
        """The user of a live session ``cookie``, else None (none, unknown, expired or
        revoked)."""
        if cookie is None:
            return None
        session = self._sessions.get(_digest(cookie))
        if session is None or self._clock() >= session.expires_at:
            return None
        return session.user

    def revoke(self, user: str) -> int:
        """End ``user``'s browser sessions and pending invite, and tell the listeners
        (the web server closes that seat's open pages); how many sessions ended."""
        ended = [d for d, s in self._sessions.items() if s.user == user]
        for digest in ended:
            del self._sessions[digest]
        pending = self._latest.get(user)
        if pending is not None and not pending.ended:
            pending.ended = "the GM revoked this invite: ask the GM for a new one"
        for callback in list(self._listeners):
            try:
                callback(user)
            except Exception:
                log.exception("a revoke listener failed; it is dropped")
                self._listeners.remove(callback)
        return len(ended)

    def on_revoke(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call ``callback(user)`` on every revoke; returns the function that stops it.
        A callback that raises is logged and dropped."""
        self._listeners.append(callback)

        def unsubscribe() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return unsubscribe

    def _urlsafe(self, size: int) -> str:
        return base64.urlsafe_b64encode(self._randbytes(size)).rstrip(b"=").decode()

    def _new_code(self) -> str:
        """A code no kept invite has, drawn without bias: bytes past the last whole
        multiple of the alphabet's size are drawn again."""
        size = len(CODE_ALPHABET)
        limit = 256 - 256 % size
        while True:
            chars: list[str] = []
            while len(chars) < CODE_LENGTH:
                drawn = self._randbytes(CODE_LENGTH)
                chars += [CODE_ALPHABET[b % size] for b in drawn if b < limit]
            code = "".join(chars[:CODE_LENGTH])
            if _digest(code) not in self._invites:
                return code

    def _forget_old(self) -> None:
        """Drop invites a session's time past their end (a refusal then says "unknown"
        rather than "expired") and ended sessions: what is kept stays small."""
        now = self._clock()
        for digest in [d for d, p in self._invites.items() if now >= p.expires_at + SESSION_TTL]:
            del self._invites[digest]
        for user in [u for u, p in self._latest.items() if now >= p.expires_at + SESSION_TTL]:
            del self._latest[user]
        for digest in [d for d, s in self._sessions.items() if now >= s.expires_at]:
            del self._sessions[digest]


class JoinLimiter:
    """How often one address may ask to join: a sliding minute per address, so a
    script cannot try codes faster than a person types them."""

    WINDOW = 60.0
    """Seconds over which an address's asks are counted."""

    def __init__(self, per_minute: int = 10, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._asks: dict[str, list[float]] = {}  # source → its allowed asks, oldest first
        self._pruned = clock()

    def allow(self, address: str) -> bool:
        """Whether ``address`` may ask now: False once its source (the address; an IPv6
        address's /64, which one host may hold whole) asked ``per_minute`` times in the
        last minute (a refused ask is not counted)."""
        now = self._clock()
        since = now - self.WINDOW
        if self._pruned <= since:  # once a window: a flood of new addresses costs O(1) each
            self._pruned = now
            self._asks = {a: asks for a, asks in self._asks.items() if asks[-1] > since}
        key = source(address)
        asks = [t for t in self._asks.get(key, []) if t > since]
        if len(asks) >= self.per_minute:
            self._asks[key] = asks
            return False
        self._asks[key] = [*asks, now]
        return True


def source(address: str) -> str:
    """Who an address counts as for :class:`JoinLimiter`: itself, or an IPv6 address's
    /64 network (a host is given a whole /64)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
