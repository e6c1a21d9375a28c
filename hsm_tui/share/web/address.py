"""Where and how the browser table is reached: the ``--web`` address, its TLS context,
the public origin its pages come from, and whether a page's ``Origin`` is that one. No
aiohttp here: ``hsm serve`` checks its flags before the web server is imported.
"""

from __future__ import annotations

import ipaddress
import ssl
from urllib.parse import urlsplit

WEB_HOST, WEB_PORT = "127.0.0.1", 8022
"""``--web`` alone: this machine only, on the port next to SSH's habit of 2222."""

LOOPBACK_NAMES = {"localhost": "127.0.0.1"}
"""Names a browser may use for the same loopback address, for the origin check."""

DEFAULT_PORTS = {"http": 80, "https": 443}


def web_address(text: str) -> tuple[str, int]:
    """``--web``'s value: ``[HOST:]PORT`` (``[::1]:8022`` for an IPv6 host). Raises
    ValueError saying what is wrong."""
    host, sep, port = text.strip().rpartition(":")
    if not sep:
        host = WEB_HOST
    elif host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    elif ":" in host:
        raise ValueError(f"--web: an IPv6 host goes in brackets, as [::1]:8022; got {text!r}")
    if not port.isascii() or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--web takes [HOST:]PORT with a port from 0 to 65535, got {text!r}")
    if not host or any(c.isspace() or c in "/[]@" for c in host):
        raise ValueError(f"--web takes [HOST:]PORT, got {text!r}")
    return host, int(port)


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (no one else can reach it in plain HTTP)."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def public_origin(url: str) -> str:
    """``--web-public-url``'s origin (``scheme://host[:port]``, lower case), the address
    players' browsers use (a tunnel, a reverse proxy). Raises ValueError saying why not."""
    parts = urlsplit(url.strip())
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"--web-public-url needs http:// or https:// and a host, got {url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(
            f"--web-public-url is an origin like https://table.example.org, with no path,"
            f" got {url!r}"
        )
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"--web-public-url has a bad port: {url!r}") from None
    return bound_origin(parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme])


def bound_origin(scheme: str, host: str, port: int) -> str:
    """The origin of a server listening on ``host``:``port`` (the default port left out,
    as browsers send it)."""
    name = f"[{host}]" if ":" in host else host.lower()
    shown = "" if DEFAULT_PORTS.get(scheme) == port else f":{port}"
    return f"{scheme}://{name}{shown}"


def same_origin(sent: str | None, public: str) -> bool:
    """Whether a browser's ``Origin`` header is the table's public origin; ``localhost``
    and ``127.0.0.1`` are one host here (the GM trying the link on their own machine)."""
    if not sent:
        return False
    return _key(sent) == _key(public)


def served_origins(scheme: str, host: str, port: int) -> tuple[str, ...]:
    """The origins a request may name in ``Host`` besides the public one: the bound
    address, and for an unspecified one (``0.0.0.0``, ``::``) this machine's loopback
    too (a reverse proxy on this machine forwards to it)."""
    origins = [bound_origin(scheme, host, port)]
    try:
        unspecified = ipaddress.ip_address(host).is_unspecified
    except ValueError:
        unspecified = False
    if unspecified:
        origins.append(bound_origin(scheme, "127.0.0.1", port))
    return tuple(origins)


def origin_port(origin: str) -> int:
    """The port of an origin as :func:`bound_origin` writes it (a default one left out)."""
    parts = urlsplit(origin)
    return parts.port or DEFAULT_PORTS[parts.scheme]


def same_host(host: str | None, origins: tuple[str, ...]) -> bool:
    """Whether a request's ``Host`` header names one of ``origins``' host and port (the
    public one, the bound one; a port left out is the origin's scheme's): a page of
    another site that points its own name at this address (DNS rebinding) sends its own
    name, and is refused."""
    if not host:
        return False
    for origin in origins:
        own = _key(origin)
        sent = _key(f"{own[0]}://{host}") if own is not None else None
        if sent is not None and sent == own:
            return True
    return False


def _key(origin: str) -> tuple[str, str, int] | None:
    """An origin as (scheme, host, port) with loopback names made one; None if malformed."""
    parts = urlsplit(origin.strip())
    try:
        port = parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return None
    if parts.hostname is None or port is None:
        return None
    host = parts.hostname.lower()
    return parts.scheme, LOOPBACK_NAMES.get(host, host), port


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    """The server's TLS from ``--web-cert`` and ``--web-key`` (PEM files). Raises
    ValueError naming the file that cannot be used, and why."""
    for flag, path, marker in (
        ("--web-cert", cert, "-----BEGIN CERTIFICATE-----"),
        ("--web-key", key, "PRIVATE KEY-----"),
    ):
        try:
            with open(path, encoding="ascii", errors="replace") as file:
                text = file.read(1 << 20)
        except OSError as err:
            raise ValueError(f"{flag} {path}: {err.strerror or err}") from None
        if marker not in text:
            raise ValueError(f"{flag} {path}: not a PEM file with a {marker.strip('-')}")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert, key)
    except ssl.SSLError as err:
        why = err.reason or str(err)
        raise ValueError(f"--web-key {key} cannot serve --web-cert {cert} ({why})") from None
    return context
