"""``hsm serve [CAMPAIGN]``: share the table over SSH and, with ``--web``, with browsers
(docs/shared-table.md)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from .parser import fail, int_at_least


def fill(serve: argparse.ArgumentParser) -> None:
    """``serve``'s own arguments."""
    serve.add_argument("campaign", nargs="?", help="campaign file or name in the saves folder")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int_at_least(0, 65535), default=2222, help="(2222)")
    serve.add_argument("--players", help="players file (players.toml beside the campaign)")
    serve.add_argument("--headless", action="store_true", help="no app in this terminal")
    serve.add_argument("--max-seats", type=int_at_least(1, 64), default=8, help="(8)")
    from ..share.web.address import WEB_HOST, WEB_PORT, public_origin, web_address

    web = serve.add_argument_group("browsers (docs/shared-table.md, From a browser)")
    web.add_argument(
        "--web", nargs="?", const=(WEB_HOST, WEB_PORT), type=_checked(web_address),
        metavar="[HOST:]PORT", help=f"also serve browsers with invites ({WEB_HOST}:{WEB_PORT})",
    )  # fmt: skip
    web.add_argument(
        "--web-public-url", type=_checked(public_origin), metavar="URL",
        help="the origin players open, behind a tunnel or proxy (http://HOST:PORT as bound)",
    )  # fmt: skip
    web.add_argument("--web-cert", metavar="FILE", help="TLS certificate, PEM (with --web-key)")
    web.add_argument("--web-key", metavar="FILE", help="its private key, PEM (with --web-cert)")
    from ..share.limits import Limits, startups

    limit = serve.add_argument_group("limits (docs/shared-table.md, Security)")
    number, seconds = int_at_least(1, 64), int_at_least(1, 3600)
    for flag, field, kind, metavar, text in (
        ("--max-auth-tries", "max_auth_tries", number, "N", "keys a login may try"),
        ("--max-startups", "max_startups", _checked(startups), "S:R:F", "connections logging in"),
        ("--per-source-max-startups", "per_source", number, "N", "the same, per address"),
        ("--login-grace-time", "login_grace", seconds, "SECONDS", "to log in"),
        ("--unused-connection-timeout", "unused_timeout", seconds, "SECONDS", "no session"),
        ("--max-sessions", "max_sessions", number, "N", "sessions per connection"),
        ("--flood-penalty", "flood_penalty", seconds, "SECONDS", "a flooder waits"),
        ("--fd-reserve", "fd_reserve", int_at_least(8, 4096), "N", "descriptors kept free"),
    ):
        default = getattr(Limits, field)
        shown = ":".join(map(str, default)) if isinstance(default, tuple) else f"{default:g}"
        limit.add_argument(
            flag, dest=field, type=kind, metavar=metavar, default=default, help=f"{text} ({shown})"
        )


def _checked(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argument type: ``parse``, its ValueError made the one-line usage error."""

    def convert(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return convert


def run(args: argparse.Namespace) -> int:
    """Serve until SIGTERM, Ctrl+C or the GM's quit."""
    from ..share.limits import Limits
    from ..share.serve import ServeOptions, run_serve

    if (args.web_cert is None) != (args.web_key is None):
        fail("--web-cert and --web-key go together: the certificate and its private key")
    if args.web is None and (args.web_public_url or args.web_cert):
        fail("--web-public-url, --web-cert and --web-key need --web")
    limits = Limits(**{field.name: getattr(args, field.name) for field in fields(Limits)})
    options = ServeOptions(
        args.campaign, args.host, args.port, args.players, args.headless,
        args.max_seats, tuple(args.content), limits,
        args.web, args.web_public_url, args.web_cert, args.web_key,
    )  # fmt: skip
    return run_serve(options)
