"""``hsm serve --web``'s part in starting the table: its flags checked before anything
is read or listens, then the web server started beside the SSH one, on its seating. No
aiohttp at import: a missing one is said as ``hsm: error:``, not a traceback.
"""

from __future__ import annotations

import logging
import ssl
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..door import Door
from ..invites import Invites
from ..options import ServeError, ServeOptions
from ..players import SeatEntry
from ..seating import Seating
from .address import is_loopback, tls_context

if TYPE_CHECKING:
    from .server import WebServer

log = logging.getLogger(__name__)

PLAIN_HTTP = (
    "--web on {host} is plain HTTP: invites and sessions cross the network readable;"
    " for a LAN you trust or behind a TLS tunnel only (docs/shared-table.md, From a browser)"
)


def browsers_asked(options: ServeOptions) -> tuple[type[WebServer], ssl.SSLContext | None] | None:
    """``--web``'s server class and TLS context, None without ``--web``. Raises
    ServeError when aiohttp is missing or a certificate file cannot be used; a plain
    HTTP server others can reach gets a warning."""
    if options.web is None:
        return None
    try:
        from .server import WebServer
    except ModuleNotFoundError as err:
        if not (err.name or "").startswith("aiohttp"):
            raise
        raise ServeError("--web needs aiohttp: pip install 'hsm-tui[web]'") from None
    tls = None
    if options.web_cert is not None and options.web_key is not None:
        try:
            tls = tls_context(options.web_cert, options.web_key)
        except ValueError as err:
            raise ServeError(str(err)) from None
    elif not is_loopback(options.web[0]):
        note = PLAIN_HTTP.format(host=options.web[0])
        log.warning("%s", note)
        print(f"hsm: warning: {note}", file=sys.stderr, flush=True)
    return WebServer, tls


async def serve_browsers(
    options: ServeOptions,
    seating: Seating,
    seats: Callable[[], Sequence[SeatEntry]],
    invites: Invites,
    web: tuple[type[WebServer], ssl.SSLContext | None],
    door: Door,
) -> WebServer:
    """Start the web server on the SSH server's ``seating`` (SSH is already listening;
    the caller closes it if this raises), seating the players file's ``seats`` as they
    are when each browser comes, with the table's ``invites``, behind the SSH server's
    ``door`` (the limits count both ports' connections together)."""
    assert options.web is not None
    host, port = options.web
    server, tls = web
    browsers = server(
        seating, seats, invites, door=door, public_url=options.web_public_url, tls=tls
    )
    try:
        await browsers.start(host, port)
    except OSError as err:
        raise ServeError(f"cannot listen on {host}:{port} for --web: {err}") from None
    where = f"{browsers.host}:{browsers.port}"
    print(f"browsers join at {browsers.origin}/ (listening on {where})", flush=True)
    return browsers
