"""One browser's seat at the table: its WebSocket as the terminal's channel, and the
messages it sends (keys, window sizes) handed to that terminal as an SSH session hands
its own. The limits are the terminal's and the driver's: the same pacing of input and
window changes, the same backlog after which a client is dropped.
"""

from __future__ import annotations

import asyncio
import json
import logging
import struct
from collections.abc import Mapping

from aiohttp import WSMsgType, web

from ..terminal import ClientTerminal

log = logging.getLogger(__name__)

TERM, ENV = "xterm-256color", {"COLORTERM": "truecolor"}
"""What xterm.js is: 256 colours and 24-bit colour, as a modern xterm."""

DEFAULT_SIZE = (80, 24)
"""The size of a page that did not say its own (``/ws?cols=C&rows=R``)."""

MAX_MESSAGE = 64 << 10
"""Bytes in one message from a browser: a key, a paste or a size is far less; a longer
one closes the socket (code 1009), as the SSH side's input limits drop a flooder."""

CLOSED, REFUSED = 1000, 4403
"""Close codes: the app ended or the table closed; refused (not seated, revoked)."""

LEFT = "you left the table"
FAILED = "hsm: your view of the table stopped on an error; the GM's serve.log says why"

_BINARY, _TEXT = 0x2, 0x1


def frame(opcode: int, payload: bytes) -> bytes:
    """One unmasked, unfragmented WebSocket frame (RFC 6455 §5.2), as a server sends."""
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", 0x80 | opcode, size)
    elif size < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 126, size)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 127, size)
    return head + payload


class WebChannel:
    """A browser's WebSocket as :class:`~hsm_tui.share.seating.Ending`: each frame the
    app writes goes straight to the socket's transport as one binary message (no queue
    and no task per frame: the driver writes synchronously, and with many seats a
    drained queue cost the loop several times more), and flow control is the transport's.
    """

    def __init__(self, ws: web.WebSocketResponse, transport: asyncio.Transport) -> None:
        self._ws = ws
        self._transport = transport
        self._closing: asyncio.Task[bool] | None = None

    def write(self, data: bytes) -> None:
        """One frame of the app's output; nothing once either side began to close."""
        if self._closing is None and not self._ws.closed and not self._transport.is_closing():
            self._transport.write(frame(_BINARY, data))  # never after a Close frame (RFC 6455)

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size()

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def end(self, status: int, line: str = "") -> None:
        """The app ended (or the table closed): the page reads ``line`` and the socket
        closes normally; a browser has no exit status, so a failed app says so."""
        self.close(CLOSED, line or (LEFT if status == 0 else FAILED))

    def refuse(self, line: str) -> None:
        """Not seated (table full, no seat, revoked): the page reads ``line``, code 4403."""
        self.close(REFUSED, line)

    def close(self, code: int, line: str) -> None:
        """Send ``{"bye": line}``, then close the socket with ``code``; once."""
        if self._closing is not None:
            return
        if not self._transport.is_closing():
            self._transport.write(frame(_TEXT, json.dumps({"bye": line}).encode()))
        self._closing = asyncio.ensure_future(self._ws.close(code=code))

    def abort(self) -> None:
        """Drop the client at once (it does not read, or it floods)."""
        self._transport.abort()

    async def closed(self) -> None:
        """Wait for the close :meth:`close` began, if it did."""
        if self._closing is not None:
            await self._closing


def size_asked(query: Mapping[str, str]) -> tuple[int, int]:
    """The page's size from ``?cols=C&rows=R``; :data:`DEFAULT_SIZE` for what is missing
    or not a number (the terminal bounds the rest)."""
    sizes = []
    for name, default in zip(("cols", "rows"), DEFAULT_SIZE, strict=True):
        text = query.get(name, "")
        sizes.append(int(text) if text.isascii() and text.isdigit() and len(text) < 6 else default)
    return sizes[0], sizes[1]


def resize_asked(data: str) -> tuple[int, int] | None:
    """The size in a ``{"resize": [cols, rows]}`` message, None for any other text."""
    try:
        message = json.loads(data)
    except ValueError:
        return None
    size = message.get("resize") if isinstance(message, dict) else None
    if (
        isinstance(size, list)
        and len(size) == 2
        and all(type(n) is int and 0 <= n < 100_000 for n in size)
    ):
        return size[0], size[1]
    return None


async def read_messages(ws: web.WebSocketResponse, terminal: ClientTerminal, peer: str) -> None:
    """Hand the page's messages to ``terminal`` until the socket closes: binary ones are
    keys, text ones window sizes; other text is ignored (said in the log once)."""
    told = False
    async for message in ws:
        if message.type is WSMsgType.BINARY:
            terminal.received(message.data)
        elif message.type is WSMsgType.TEXT and (size := resize_asked(message.data)):
            terminal.resized(*size)
        elif message.type is WSMsgType.TEXT and not told:
            told = True
            log.info("%s sent a text message that is not a resize; ignored", peer)
        elif message.type is WSMsgType.ERROR:
            log.info("%s closed: %s", peer, ws.exception())
            return
