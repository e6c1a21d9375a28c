"""The ``hsm campaign`` command line's options (issue 20, a contract) and its usage
error: apart from :mod:`hsm_tui.campaigns`, which loads the engine and the file code, so
that building the parser (every ``hsm`` start) costs no more than argparse.
"""

from __future__ import annotations

import argparse
from typing import Any


class UsageError(Exception):
    """Input the command cannot work with: exit 2 with this message."""


def add_parser(sub: Any) -> None:
    """``hsm campaign …`` under ``sub`` (the top-level subparsers); its own arguments are
    added when it is parsed (``fill``, see ``hsm_tui.cli._Parser``)."""
    sub.add_parser("campaign", help="create, check, list and export campaign files", fill=_fill)


def _fill(campaign: argparse.ArgumentParser) -> None:
    commands = campaign.add_subparsers(
        dest="campaign_command",
        metavar="{new,check,list,export}",
        required=True,
        parser_class=type(campaign),
    )
    saves_help = "the saves folder (default: $HSM_SAVES, else saves/)"
    new = commands.add_parser("new", help="write a new, empty campaign: DIR/NAME.toml")
    new.add_argument("name", metavar="NAME", help="the campaign's name (1 to 60 characters)")
    new.add_argument("--saves", metavar="DIR", help=saves_help)
    check = commands.add_parser("check", help="check campaign files (never changes them)")
    check.add_argument("files", nargs="+", metavar="FILE", help="campaign files")
    listing = commands.add_parser("list", help="the saved campaigns, newest first")
    listing.add_argument("--saves", metavar="DIR", help=saves_help)
    listing.add_argument("--json", action="store_true", help="print one JSON list")
    export = commands.add_parser("export", help="the session log as a Markdown story")
    export.add_argument("file", metavar="FILE", help="a campaign file")
    export.add_argument("--markdown", action="store_true", help="Markdown (the default)")
    export.add_argument("--out", metavar="PATH", help="write to PATH (default: stdout)")
    export.add_argument(
        "--fight", type=int, metavar="N", help="the log's Nth fight only: set-up, rounds, end"
    )
