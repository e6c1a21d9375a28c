"""The browser side of ``hsm serve --web``: an aiohttp server on the SSH server's loop
that serves the page, trades an invite for a session cookie, and seats a browser's
WebSocket at the same :class:`~hsm_tui.share.seating.Seating` as the SSH clients.

What it lets in: ``POST /join`` with an invite's token or code (at most
:data:`MAX_BODY` bytes, a few a minute per address), then ``/ws`` with that session's
cookie from a page of the table's own origin only, seated as the players file's seat
of that user, under the same ``max_seats`` and per-user cap as SSH. Every response
forbids framing, inline script and caching (:data:`HEADERS`). Every connection passes
the SSH server's :class:`~hsm_tui.share.door.Door` first (:mod:`.gate`).
"""

from __future__ import annotations

import json
import logging
import re
import ssl
from collections.abc import Callable, Sequence
from pathlib import Path

from aiohttp import web

from ...table.seats import Seat
from ..door import Door
from ..invites import SESSION_TTL, InviteRefused, Invites, JoinLimiter, normal_code
from ..limits import Limits
from ..players import SeatEntry
from ..seating import EXIT_TIMEOUT, Seating
from ..terminal import ClientTerminal
from .address import (
    WEB_HOST,
    WEB_PORT,
    bound_origin,
    origin_port,
    public_origin,
    same_host,
    same_origin,
    served_origins,
)
from .browser import ENV, MAX_MESSAGE, TERM, WebChannel, read_messages, size_asked
from .gate import Gate, Handler

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
"""The page and what it loads (index.html, its script, style and xterm.js)."""

COOKIE = "hsm_session_{port}"
"""The session cookie's name, by the public origin's port: a browser keeps cookies per
host, not per port, and two tables on one machine would otherwise end each other's."""
MAX_BODY = 4 << 10
"""Bytes in a join request: a secret is some 40."""

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
        " img-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self';"
        " frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    "Server": "hsm",
}
"""On every response: only the page's own files run, nothing frames it, no address (the
invite is in the fragment, which is never sent) leaks in a Referer, nothing is cached,
and no library version is told to whoever asks."""

REVOKED = "your browser session was ended by the GM"
NOT_SEATED = "hsm: {user} has no seat at this table now; ask the GM"
STATIC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
"""A file of the page: a plain name in the static folder, never a path."""


def error(status: int, why: str) -> web.Response:
    """A JSON refusal the page shows as it is."""
    return web.json_response({"error": why}, status=status)


def who(seat: Seat) -> dict[str, str]:
    """What the page is told of its seat."""
    return {"user": seat.user, "role": str(seat.role), "hero": seat.hero}


class WebServer:
    """Serves the table to browsers; see the module's docstring. ``seats`` gives the
    players file's seats as they are now (a seat removed since an invite opens nothing);
    ``door`` is the SSH server's, so both ports count as one (alone: a door of its own).
    """

    def __init__(
        self,
        seating: Seating,
        seats: Callable[[], Sequence[SeatEntry]],
        invites: Invites,
        *,
        door: Door | None = None,
        limiter: JoinLimiter | None = None,
        public_url: str | None = None,
        tls: ssl.SSLContext | None = None,
        static: Path = STATIC,
    ) -> None:
        self.seating = seating
        self._seats = seats
        self.invites = invites
        self.door = door or Door(Limits())
        self.limiter = limiter or JoinLimiter()
        self.tls = tls
        self.static = static
        self.origin = public_origin(public_url) if public_url else ""
        """The public origin: ``public_url``'s (``--web-public-url``), else the bound address's once
        started; the invite link starts with it and a page's ``Origin`` must be it."""
        self.host = ""
        self.port = 0
        self.cookie = COOKIE.format(port=WEB_PORT)
        """The session cookie's name (:data:`COOKIE`), set as the server starts."""
        self._hosts: tuple[str, ...] = ()
        self._open: dict[str, set[tuple[WebChannel, ClientTerminal]]] = {}
        self._runner: web.AppRunner | None = None
        self._gate = Gate(self.door, tls)
        self._unsubscribe: Callable[[], None] = lambda: None

    async def start(self, host: str = WEB_HOST, port: int = WEB_PORT) -> None:
        """Listen on ``host`` only (port 0: any free one); :attr:`host`, :attr:`port`
        and (without a public URL) :attr:`origin` are then the bound ones."""
        app = web.Application(
            client_max_size=MAX_BODY, middlewares=[self._gate.answered, self._own_host]
        )
        app.on_response_prepare.append(_secure)
        app.router.add_get("/", self._page)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_post("/join", self._join)
        app.router.add_get("/whoami", self._whoami)
        app.router.add_get("/ws", self._socket)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=EXIT_TIMEOUT)
        await self._runner.setup()
        assert self._runner.server is not None  # set up
        try:
            self.host, self.port = await self._gate.listen(self._runner.server, host, port)
        except OSError:
            await self._runner.cleanup()
            self._runner = None
            raise
        self.door.open()
        scheme = "https" if self.tls else "http"
        self.origin = self.origin or bound_origin(scheme, self.host, self.port)
        self._hosts = (self.origin, *served_origins(scheme, self.host, self.port))
        self.cookie = COOKIE.format(port=origin_port(self.origin))
        self._unsubscribe = self.invites.on_revoke(self._revoked)

    async def close(self) -> None:
        """Stop listening and close what is left open (the seating ends the seats)."""
        self._unsubscribe()
        self._gate.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _seat(self, user: str) -> Seat | None:
        return next((e.seat for e in self._seats() if e.seat.user == user), None)

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return self._file("index.html")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        return self._file(name) if STATIC_NAME.fullmatch(name) else error(404, "no such file")

    def _file(self, name: str) -> web.StreamResponse:
        path = self.static / name
        return web.FileResponse(path) if path.is_file() else error(404, "no such file")

    @web.middleware
    async def _own_host(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Only requests for this table's own address: see :func:`same_host`."""
        if not same_host(request.headers.get("Host"), self._hosts):
            log.info("web %s: a request for host %r refused", request.remote, request.host)
            return error(421, f"this server answers for {self.origin} only")
        return await handler(request)

    async def _join(self, request: web.Request) -> web.Response:
        """Trade an invite's secret for a session cookie (see the module's docstring).

        Joins are limited per address: a code counts before it is tried (a guess that
        hit must be refused too once over the limit), a link's token only when it is
        refused. A valid token always joins: it is beyond guessing, and players behind
        one tunnel share one address, which junk must not lock out."""
        address = request.remote or "?"
        secret = await _secret(request)
        if secret is None:
            return error(400, 'a join is JSON like {"secret": "ABCD-EFGH"}, at most 4 KiB')
        code = normal_code(secret) is not None
        if code and not self.limiter.allow(address):
            return self._too_many(address)
        try:
            user, cookie = self.invites.trade(secret)
        except InviteRefused as refused:
            if not code and not self.limiter.allow(address):
                return self._too_many(address)
            log.info("web %s: invite refused: %s", address, refused)
            return error(403, str(refused))
        seat = self._seat(user)
        if seat is None:
            return error(403, NOT_SEATED.format(user=user))
        log.info("web %s: an invite for %s was used", address, user)
        response = web.json_response(who(seat))
        response.set_cookie(
            self.cookie, cookie, max_age=SESSION_TTL, path="/",
            httponly=True, samesite="Strict", secure=self.origin.startswith("https:"),
        )  # fmt: skip
        return response

    def _too_many(self, address: str) -> web.Response:
        log.info("web %s: too many joins tried in a minute", address)
        return error(429, "too many tries from this address: wait a minute and try again")

    async def _whoami(self, request: web.Request) -> web.Response:
        user = self.invites.user_of(request.cookies.get(self.cookie))
        seat = self._seat(user) if user is not None else None
        return web.json_response(who(seat)) if seat is not None else error(401, "not joined")

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        """A joined page's terminal: refused before the upgrade without a live cookie or
        from another origin; after it (a ``bye`` and 4403) when not seated."""
        user = self.invites.user_of(request.cookies.get(self.cookie))
        if user is None:
            return error(403, "not joined: open the invite link again or type the code")
        origin = request.headers.get("Origin")
        if not same_origin(origin, self.origin):
            log.info("web %s: a page from %s refused", request.remote, origin)
            return error(403, f"this page is not from {self.origin}")
        if not self._gate.session_opened(request):
            return error(429, "this connection has all the sockets it may (--max-sessions)")
        try:
            return await self._play(request, user)
        finally:
            self._gate.session_closed(request)

    async def _play(self, request: web.Request, user: str) -> web.WebSocketResponse:
        """The socket of a page let in: seated, or told why not."""
        assert request.transport is not None  # a request being handled has its transport
        peer = self._gate.peer(request)
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, compress=False, heartbeat=30)
        await ws.prepare(request)
        channel = WebChannel(ws, request.transport)  # type: ignore[arg-type]
        seat = self._seat(user)
        why = NOT_SEATED.format(user=user) if seat is None else self.seating.refusal(seat)
        if seat is None or why:
            log.info("%s refused: %s", peer, why)
            channel.refuse(why)
            await channel.closed()
            return ws
        terminal = ClientTerminal(channel, TERM, size_asked(request.query), ENV)
        terminal.on_drop = channel.abort
        terminal.on_flood = lambda: self._gate.penalise(request)
        opened = (channel, terminal)
        self._open.setdefault(user, set()).add(opened)
        self.seating.sit(seat, peer, terminal)
        try:
            await read_messages(ws, terminal, peer)
        finally:
            self._open[user].discard(opened)
            if not self._open[user]:
                del self._open[user]
            if not terminal.closed:
                terminal.lost()  # the page went: its app exits
            await channel.closed()
        return ws

    def _revoked(self, user: str) -> None:
        """The GM revoked ``user``'s browser sessions: their open pages close now."""
        for channel, terminal in list(self._open.get(user, ())):
            terminal.lost()
            channel.refuse(REVOKED)


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    """The security headers, on every response (see :data:`HEADERS`)."""
    response.headers.update(HEADERS)


async def _secret(request: web.Request) -> str | None:
    """The secret of a join request's JSON body, None if the body is not one."""
    try:
        body = json.loads(await request.read())
    except (web.HTTPRequestEntityTooLarge, ValueError, RecursionError):  # RecursionError: [[[[…
        return None
    secret = body.get("secret") if isinstance(body, dict) else None
    return secret if isinstance(secret, str) and 0 < len(secret) <= 200 else None
