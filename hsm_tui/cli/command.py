"""The ``hsm`` command's tree and its entry point. Each subcommand is a module of this
package with ``fill(parser)`` (its own arguments) and ``run(args) -> exit code``; only the
one parsed is imported, so ``hsm`` builds no more than the names before the app starts.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from importlib import import_module
from types import ModuleType

from .. import __version__
from .parser import CONTENT_HELP, Parser, UsageError, fail, whole

SUBCOMMANDS = {
    "play": "start the app (the default)",
    "odds": "exact odds of a roll",
    "content": "check and list content packs",
    "simulate": "forecast an encounter by playing it many times",
    "serve": "share the table over SSH (docs/shared-table.md)",
    "campaign": "create, check, list and export campaign files",
    "roll": "roll a dice expression",
}


def _module(name: str) -> ModuleType:
    return import_module(f".{name}", __package__)


def build_parser() -> argparse.ArgumentParser:
    """The whole command tree; kept in one place so ``--help`` documents the contract."""
    parser = Parser(prog="hsm", description="Game-master tool for Heroes, Sidekicks & Minions.")
    parser.add_argument("--version", action="version", version=f"hsm-tui {__version__}")
    parser.add_argument("--seed", type=whole, help="seed the session's dice (replayable)")
    parser.add_argument("--content", action="append", default=[], metavar="DIR", help=CONTENT_HELP)
    sub = parser.add_subparsers(dest="command", parser_class=Parser)
    for name, help_text in SUBCOMMANDS.items():
        sub.add_parser(name, help=help_text, fill=lambda p, name=name: _module(name).fill(p))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``hsm`` console script and ``python -m hsm_tui``. A reader
    that stops early (``hsm content list | head``) ends a report quietly, exit 1; the app
    or the server losing its output says so, as the table it served has stopped.
    """
    args = build_parser().parse_args(argv)
    try:
        return _command(args)
    except BrokenPipeError:
        # stdout points at nothing now: Python's own flush at exit would fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        if args.command in (None, "play", "serve"):
            with contextlib.suppress(OSError):  # the terminal may be gone with it
                print("hsm: error: the terminal's output closed (broken pipe)", file=sys.stderr)
        return 1


def _command(args: argparse.Namespace) -> int:
    from ..rules.errors import DiceSyntaxError, RulesError, UnknownTraitError

    args.content = [*args.content, *getattr(args, "content_sub", [])]
    try:
        return _module(args.command or "play").run(args)
    except UsageError as exc:
        fail(str(exc))
    except DiceSyntaxError as exc:
        fail(exc.short)
    except UnknownTraitError as exc:
        fail(f"{exc}; pass --trait NAME=VALUE")
    except RulesError as exc:
        fail(str(exc))
