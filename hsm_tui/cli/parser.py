"""What every subcommand's arguments share: a parser that exits 2 with one line, the
number types that refuse ``٣`` and ``1_0``, ``--content`` and the usage error.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

CONTENT_HELP = "also load packs from DIR (repeatable; see HSM_CONTENT_PATH)"


class UsageError(Exception):
    """Input the command cannot work with: exit 2 with this message."""


class Parser(argparse.ArgumentParser):
    """Bad input exits 2 with one line. ``fill`` adds a subcommand's own arguments when
    that subcommand is parsed: the app's start (``hsm``) builds no more than the names.
    """

    def __init__(
        self,
        *args: Any,
        fill: Callable[[argparse.ArgumentParser], None] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self._fill = fill

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if self._fill is not None:
            fill, self._fill = self._fill, None
            fill(self)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        fail(message)


def fail(message: str) -> NoReturn:
    """``hsm: error: …`` on stderr (the first line of ``message``), exit 2."""
    first_line = message.strip().splitlines()[0] if message.strip() else "invalid input"
    print(f"hsm: error: {first_line}", file=sys.stderr)
    raise SystemExit(2)


def whole(text: str) -> int:
    """A whole number written in ASCII digits (``int`` would also take ``٣`` and ``1_0``)."""
    if not re.fullmatch(r"[+-]?[0-9]{1,18}", text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    return int(text)


def int_at_least(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argument type: a :func:`whole` number from ``minimum`` to ``maximum``."""

    def convert(text: str) -> int:
        value = whole(text)
        if value < minimum or (maximum is not None and value > maximum):
            bound = f"from {minimum} to {maximum}" if maximum is not None else f"{minimum} or more"
            raise argparse.ArgumentTypeError(f"must be {bound}, got {value}")
        return value

    return convert


def trait_pair(text: str) -> tuple[str, int]:
    """An argument type: ``NAME=VALUE``, a trait and its value for a dice expression."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        return name.strip().lower(), int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None


def add_content(parser: argparse.ArgumentParser) -> None:
    """A subcommand's ``--content``, merged with the top-level one before it runs."""
    parser.add_argument(
        "--content",
        action="append",
        dest="content_sub",
        default=[],
        metavar="DIR",
        help=CONTENT_HELP,
    )


def add_seed(parser: argparse.ArgumentParser, help_text: str) -> None:
    """A subcommand's ``--seed``; SUPPRESS: without one, ``hsm --seed 5 …`` keeps the
    top-level seed."""
    parser.add_argument("--seed", type=whole, default=argparse.SUPPRESS, help=help_text)


def seed_of(args: argparse.Namespace) -> int:
    """The seed asked for, or a fresh one that the output reports (so it can be replayed)."""
    return args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)


def print_json(data: Any) -> None:
    """One JSON object on stdout (``json`` loads only for the commands that print it)."""
    import json

    print(json.dumps(data))
