"""``hsm serve [CAMPAIGN]``: share the table over SSH (docs/shared-table.md)."""

from __future__ import annotations

import argparse

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
    for flag, kind, metavar, default, text in (
        ("--max-auth-tries", number, "N", Limits.max_auth_tries, "keys a login may try"),
        ("--max-startups", _startups, "S:R:F", Limits.max_startups, "connections logging in"),
        ("--per-source-max-startups", number, "N", Limits.per_source, "the same, per address"),
        ("--login-grace-time", seconds, "SECONDS", Limits.login_grace, "to log in"),
        ("--unused-connection-timeout", seconds, "SECONDS", Limits.unused_timeout, "no session"),
        ("--max-sessions", number, "N", Limits.max_sessions, "sessions per connection"),
        ("--fd-reserve", int_at_least(8, 4096), "N", Limits.fd_reserve, "descriptors kept free"),
    ):
        shown = ":".join(map(str, default)) if isinstance(default, tuple) else f"{default:g}"
        limit.add_argument(
            flag, type=kind, metavar=metavar, default=default, help=f"{text} ({shown})"
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

    limits = Limits(
        args.max_auth_tries, args.max_startups, args.per_source_max_startups,
        args.login_grace_time, args.unused_connection_timeout, args.max_sessions,
        args.fd_reserve,
    )  # fmt: skip
    options = ServeOptions(
        args.campaign, args.host, args.port, args.players, args.headless,
        args.max_seats, tuple(args.content), limits,
    )  # fmt: skip
    return run_serve(options)
