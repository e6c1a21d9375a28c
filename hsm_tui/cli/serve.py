"""``hsm serve [CAMPAIGN]``: share the table over SSH (docs/shared-table.md)."""

from __future__ import annotations

import argparse
from dataclasses import fields

from .parser import int_at_least


def fill(serve: argparse.ArgumentParser) -> None:
    """``serve``'s own arguments."""
    serve.add_argument("campaign", nargs="?", help="campaign file or name in the saves folder")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int_at_least(0, 65535), default=2222, help="(2222)")
    serve.add_argument("--players", help="players file (players.toml beside the campaign)")
    serve.add_argument("--headless", action="store_true", help="no app in this terminal")
    serve.add_argument("--max-seats", type=int_at_least(1, 64), default=8, help="(8)")
    from ..share.limits import Limits

    limit = serve.add_argument_group("limits (docs/shared-table.md, Security)")
    number, seconds = int_at_least(1, 64), int_at_least(1, 3600)
    for flag, field, kind, metavar, text in (
        ("--max-auth-tries", "max_auth_tries", number, "N", "keys a login may try"),
        ("--max-startups", "max_startups", _startups, "S:R:F", "connections logging in"),
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


def _startups(text: str) -> tuple[int, int, int]:
    """``--max-startups``'s type: sshd's ``START:RATE:FULL``."""
    from ..share.limits import startups

    try:
        return startups(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def run(args: argparse.Namespace) -> int:
    """Serve until SIGTERM, Ctrl+C or the GM's quit."""
    from ..share.limits import Limits
    from ..share.serve import ServeOptions, run_serve

    limits = Limits(**{field.name: getattr(args, field.name) for field in fields(Limits)})
    options = ServeOptions(
        args.campaign, args.host, args.port, args.players, args.headless,
        args.max_seats, tuple(args.content), limits,
    )  # fmt: skip
    return run_serve(options)
