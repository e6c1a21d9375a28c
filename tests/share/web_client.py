"""A browser for the web server's tests: an aiohttp client with its own cookie jar that
joins with an invite and reads its WebSocket's frames into a terminal emulator (pyte), as
xterm.js would show them; and the web server beside the SSH one, on one seating.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pyte

from hsm_tui.share.invites import Invites
from hsm_tui.share.serve import Table as Game
from hsm_tui.share.web.server import WebServer

from .conftest import Table, until


@dataclass
class Web:
    """The SSH table, the game served on it, and the web server on the same seating."""

    table: Table
    game: Game
    server: WebServer
    invites: Invites
    browsers: list[Browser] = field(default_factory=list)

    def browser(self) -> Browser:
        browser = Browser(self.server)
        self.browsers.append(browser)
        return browser

    async def joined(self, user: str, size: tuple[int, int] = (100, 30)) -> Browser:
        """A browser that opened ``user``'s invite link and sits at the table."""
        browser = self.browser()
        status, _ = await browser.join(self.invites.make(user).token)
        assert status == 200
        await browser.open(*size)
        return browser


class Browser:
    """One browser tab: its cookies, its socket, the screen it shows, every binary frame
    and the ``bye`` it was told."""

    def __init__(self, server: WebServer) -> None:
        self.server = server
        self.url = f"{'https' if server.tls else 'http'}://127.0.0.1:{server.port}"
        self.http = aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True),
            connector=aiohttp.TCPConnector(ssl=False),  # the test's self-signed certificate
        )
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.screen = pyte.Screen(80, 24)
        self._stream = pyte.ByteStream(self.screen)
        self.frames: list[bytes] = []
        self.bye: str | None = None
        self._reader: asyncio.Task[None] | None = None

    async def join(self, secret: Any) -> tuple[int, dict[str, Any]]:
        """POST /join with ``secret``; the status and the JSON answer."""
        async with self.http.post(f"{self.url}/join", json={"secret": secret}) as response:
            return response.status, await response.json()

    async def get(self, path: str, **options: Any) -> aiohttp.ClientResponse:
        async with self.http.get(f"{self.url}{path}", **options) as response:
            await response.read()
            return response

    async def open(self, cols: int = 100, rows: int = 30, origin: str | None = None) -> None:
        """Open the table's socket as the page does (its own origin unless told)."""
        self.screen.resize(rows, cols)
        self.ws = await self.http.ws_connect(
            f"{self.url}/ws?cols={cols}&rows={rows}",
            origin=origin or self.server.origin,
            max_msg_size=0,
        )
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type is aiohttp.WSMsgType.BINARY:
                self.frames.append(message.data)
                self._stream.feed(message.data)
            elif message.type is aiohttp.WSMsgType.TEXT:
                self.bye = json.loads(message.data)["bye"]

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def shows(self, text: str, timeout: float = 10) -> None:
        await until(lambda: text in self.text, lambda: f"{text!r} not on\n{self.text}", timeout)

    async def send(self, data: bytes) -> None:
        assert self.ws is not None
        await self.ws.send_bytes(data)

    async def ended(self, timeout: float = 10) -> int | None:
        """Wait for the server to close the socket; its close code."""
        assert self.ws is not None and self._reader is not None
        await asyncio.wait_for(self._reader, timeout)
        return self.ws.close_code

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
        await self.http.close()


class Clock:
    """The invites' clock, moved by the test."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, PEM files in ``folder`` (made with
    cryptography, which asyncssh is built on)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file
