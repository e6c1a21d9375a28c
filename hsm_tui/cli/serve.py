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
    number = int_at_least(1, 64)
    limit.add_argument(
        "--max-auth-tries",
        type=number,
        default=Limits.max_auth_tries,
        help="keys a login may try (%(default)s)",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until SIGTERM, Ctrl+C or the GM's quit."""
    from ..share.limits import Limits
    from ..share.serve import ServeOptions, run_serve

    limits = Limits(max_auth_tries=args.max_auth_tries)
    options = ServeOptions(
        args.campaign, args.host, args.port, args.players, args.headless,
        args.max_seats, tuple(args.content), limits,
    )  # fmt: skip
    return run_serve(options)
