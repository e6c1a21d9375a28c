"""The web port's side of the :class:`~hsm_tui.share.door.Door`: each TCP connection is
admitted (or aborted) by the door before aiohttp builds anything for it, as an SSH one
is, so the door's limits count both ports together. Until its first request is answered a
browser's connection is "logging in" (``login_grace`` to send it); from then on, with no
WebSocket open, it is idle (``unused_timeout``); its WebSocket is its session.

Only public APIs: the listener is asyncio's, TLS is ``loop.start_tls`` once the door said
yes, and each admitted connection's protocol is the one ``web.Server`` (an aiohttp
runner's ``server``) makes, wrapped so the door learns when the connection closes.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections.abc import Awaitable, Callable

from aiohttp import web

from ..door import Door

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Gate:
    """Listens for browsers and has the door admit each connection; see the module."""

    def __init__(self, door: Door, tls: ssl.SSLContext | None) -> None:
        self.door = door
        self._server: web.Server | None = None
        self._tls = tls
        self._guests: dict[asyncio.BaseTransport, _Guest] = {}
        self._handshakes: set[asyncio.Task[None]] = set()
        self._listener: asyncio.Server | None = None

    async def listen(self, server: web.Server, host: str, port: int) -> tuple[str, int]:
        """Listen on ``host``:``port`` (port 0: any free one), handing the connections the
        door admits to ``server`` (a set-up runner's); the address bound."""
        self._server = server
        loop = asyncio.get_running_loop()
        self._listener = await loop.create_server(lambda: _Guest(self), host, port)
        address = self._listener.sockets[0].getsockname()
        return str(address[0]), int(address[1])

    def close(self) -> None:
        """Stop listening and drop the connections still in their TLS handshake (the
        others are aiohttp's to close)."""
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        for task in self._handshakes:
            task.cancel()

    @web.middleware
    async def answered(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """aiohttp middleware: once a request is answered, its connection is logged in
        and idle (a WebSocket's is so when the socket has closed)."""
        try:
            return await handler(request)
        finally:
            if (guest := self._guest(request)) is not None:
                self.door.logged_in(guest)

    def session_opened(self, request: web.Request) -> bool:
        """``request``'s connection opens a WebSocket (a session): whether the door lets
        it (it is logged in from now: its request came whole)."""
        guest = self._guest(request)
        if guest is None:
            return False
        self.door.logged_in(guest)
        return self.door.session_opened(guest)

    def session_closed(self, request: web.Request) -> None:
        """``request``'s WebSocket closed."""
        if (guest := self._guest(request)) is not None:
            self.door.session_closed(guest)

    def penalise(self, request: web.Request) -> None:
        """``request``'s page flooded: its address is turned away for a while."""
        if (guest := self._guest(request)) is not None:
            self.door.penalise(guest)

    def peer(self, request: web.Request) -> str:
        """Who sent ``request``, as the log and the GM's seat list show a browser."""
        guest = self._guest(request)
        return guest.peer if guest is not None else "web ?"

    def _guest(self, request: web.Request) -> _Guest | None:
        return self._guests.get(request.transport) if request.transport else None

    def enter(self, guest: _Guest, transport: asyncio.BaseTransport) -> None:
        """``guest`` was admitted: aiohttp's protocol takes it over, after TLS if the port
        has it (the ClientHello waits, unread, until TLS reads it)."""
        if self._tls is None:
            self._begin(guest, transport)
            return
        assert isinstance(transport, asyncio.ReadTransport)
        transport.pause_reading()
        task = asyncio.ensure_future(self._secure(guest, transport))
        self._handshakes.add(task)
        task.add_done_callback(self._handshakes.discard)

    def left(self, guest: _Guest, transport: asyncio.BaseTransport | None) -> None:
        """``guest``'s connection closed, however it went."""
        self.door.left(guest)
        if transport is not None:
            self._guests.pop(transport, None)

    def _begin(self, guest: _Guest, transport: asyncio.BaseTransport) -> None:
        assert self._server is not None  # listening
        self._guests[transport] = guest
        guest.begin(transport, self._server())

    async def _secure(self, guest: _Guest, transport: asyncio.BaseTransport) -> None:
        """TLS on an admitted connection, within the login grace; then aiohttp's turn."""
        assert self._tls is not None
        loop = asyncio.get_running_loop()
        grace = self.door.limits.login_grace
        try:
            secured = await loop.start_tls(
                transport,  # type: ignore[arg-type]
                guest,
                self._tls,
                server_side=True,
                ssl_handshake_timeout=grace,
            )
        except (OSError, ssl.SSLError, TimeoutError) as err:
            log.info("%s: no TLS (%s); disconnected", guest.peer, err or type(err).__name__)
            transport.abort()
            return
        if secured is not None:  # None: the connection closed meanwhile
            self._begin(guest, secured)


class _Guest(asyncio.Protocol):
    """One browser's TCP connection: asks the door, then hands everything to the
    protocol aiohttp made for it (after TLS, if the port has it)."""

    def __init__(self, gate: Gate) -> None:
        self._gate = gate
        self._transport: asyncio.BaseTransport | None = None
        self._inner: asyncio.Protocol | None = None
        self._early = bytearray()  # read with the TLS handshake's end, before aiohttp's turn
        self.peer = "web ?"

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport
        host, port = transport.get_extra_info("peername", ("?", 0))[:2]
        self.peer = f"web [{host}]:{port}" if ":" in str(host) else f"web {host}:{port}"
        if self._gate.door.admit(self, str(host), self.peer, self.close):
            self._gate.enter(self, transport)
        else:
            transport.abort()

    def begin(self, transport: asyncio.BaseTransport, inner: asyncio.Protocol) -> None:
        """Hand the (secured) connection to ``inner``, a protocol of aiohttp's."""
        self._transport = transport
        self._inner = inner
        inner.connection_made(transport)
        if self._early:
            inner.data_received(bytes(self._early))
            self._early.clear()

    def close(self, why: str) -> None:
        """The door's way to end this connection (a browser is told nothing)."""
        if self._transport is not None:
            self._transport.abort()

    def data_received(self, data: bytes) -> None:
        if self._inner is not None:
            self._inner.data_received(data)
        else:
            self._early += data

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._inner is not None else None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._gate.left(self, self._transport)
        if self._inner is not None:
            self._inner.connection_lost(exc)
