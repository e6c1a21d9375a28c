"""``hsm content check|list``: every problem in the packs as ``path:line: severity:
message``, or the loaded entries."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .parser import Parser, add_content, print_json


def fill(parser: argparse.ArgumentParser) -> None:
    """``content``'s two commands and their arguments."""
    from ..packs.kinds import KINDS

    content = parser.add_subparsers(dest="content_command", required=True, parser_class=Parser)
    check = content.add_parser("check", help="report every problem in packs")
    check.add_argument("dirs", nargs="*", metavar="DIR", help="packs to check (default: all)")
    check.add_argument("--strict", action="store_true", help="warnings also fail (exit 1)")
    add_content(check)
    listing = content.add_parser("list", help="list loaded entries")
    listing.add_argument("kind", nargs="?", choices=list(KINDS.values()), help="only this kind")
    listing.add_argument("--json", action="store_true", help="print one JSON list")
    add_content(listing)


def run(args: argparse.Namespace) -> int:
    """Exit 1 when a checked pack has an error (or, ``--strict``, a warning)."""
    from ..packs import content_dirs, load

    checked = [Path(d) for d in getattr(args, "dirs", [])]
    result = load([*content_dirs(args.content), *checked])
    if args.content_command == "list":
        return _list(result.catalog, args)
    roots = [d.resolve() for d in checked]
    shown = [p for p in result.problems if _under(Path(p.path), roots)]
    for problem in shown:
        print(problem.format())
    errors = sum(p.is_error for p in shown)
    packs = [p for p in result.catalog.packs if _under(Path(p.path), roots)]
    print(
        f"checked {len(packs)} pack(s): {errors} error(s), {len(shown) - errors} warning(s)",
        file=sys.stderr,
    )
    return 1 if errors or (args.strict and shown) else 0


def _under(path: Path, roots: list[Path]) -> bool:
    """Whether ``path`` is in one of ``roots`` (all when none): a file that is a symlink
    (to ``/dev/zero``, say) counts where it lies, not where it points."""
    lies = path.parent.resolve() / path.name
    return not roots or any(p.is_relative_to(r) for r in roots for p in (path.resolve(), lies))


def _list(catalog: object, args: argparse.Namespace) -> int:
    from ..packs.kinds import KINDS

    rows = [
        {"kind": singular, "id": e.id, "name": e.name, "pack": e.source.pack}
        for singular, plural in KINDS.items()
        if args.kind in (None, plural)
        for e in catalog.kind(plural).values()  # type: ignore[attr-defined]
    ]
    if args.json:
        print_json(rows)
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table("kind", "id", "name", "pack", title="hsm content list")
    for row in rows:
        table.add_row(row["kind"], row["id"], row["name"], row["pack"])
    Console().print(table)
    return 0
