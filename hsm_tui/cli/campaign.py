"""``hsm campaign new|check|list|export``: campaign files from outside the app
(``export --sheets``: the party's character sheets, to print).

A **contract**, like ``hsm odds``: the commands, options and exit codes are
fixed. ``check`` exits 0 when every file opens and 1 with one line per problem, each
naming the file and the line or key at fault; it only reads (a file is never changed).
Bad input (an unusable name, folder or file to export) raises :class:`UsageError`,
which ``hsm`` prints as one ``hsm: error: …`` line and exits 2.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path
from typing import Any

from ..campaign.party import campaign_name
from ..persistence import collector, store, versions
from ..persistence.atomic import replace_file
from ..persistence.codec import DataError
from ..persistence.references import check_chart
from ..persistence.session_file import HistoryMisfit, SessionData, session_from
from ..rules.errors import RulesError
from ..table.logbook import escape, fights, to_markdown
from ..table.state import LogEntry
from .parser import UsageError


def fill(campaign: argparse.ArgumentParser) -> None:
    """``campaign``'s four commands and their arguments."""
    commands = campaign.add_subparsers(
        dest="campaign_command",
        metavar="{new,check,list,export}",
        required=True,
        parser_class=type(campaign),
    )
    saves_help = "the saves folder (default: $HSM_SAVES, else ./saves, else the user data folder)"
    new = commands.add_parser("new", help="write a new, empty campaign: DIR/NAME.toml")
    new.add_argument("name", metavar="NAME", help="the campaign's name (1 to 60 characters)")
    new.add_argument("--saves", metavar="DIR", help=saves_help)
    check = commands.add_parser("check", help="check campaign files (never changes them)")
    check.add_argument("files", nargs="+", metavar="FILE", help="campaign files")
    listing = commands.add_parser("list", help="the saved campaigns, newest first")
    listing.add_argument("--saves", metavar="DIR", help=saves_help)
    listing.add_argument("--json", action="store_true", help="print one JSON list")
    export = commands.add_parser(
        "export", help="the session log as a Markdown story, or the party's sheets"
    )
    export.add_argument("file", metavar="FILE", help="a campaign file")
    export.add_argument("--markdown", action="store_true", help="Markdown (the default)")
    export.add_argument("--out", metavar="PATH", help="write to PATH (default: stdout)")
    export.add_argument(
        "--fight", type=int, metavar="N", help="the log's Nth fight only: set-up, rounds, end"
    )
    export.add_argument(
        "--sheets", action="store_true", help="each party Hero's character sheet, to print"
    )


def run(args: argparse.Namespace) -> int:
    """Run ``hsm campaign <command>``; the exit code."""
    command = {"new": new, "check": check, "list": listing, "export": export}
    return command[args.campaign_command](args)


def _folder(args: argparse.Namespace) -> Path:
    folder = Path(args.saves) if args.saves else store.saves_folder()
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is not a folder")
    return folder


def new(args: argparse.Namespace) -> int:
    """Write an empty campaign named NAME as ``NAME.toml`` (a name that is not a plain
    file name, ``Lost Relics``, as the app would: ``lost-relics.toml``); exit 1 if the
    file already exists.
    """
    from ..table.session import Session

    stem = args.name.removesuffix(store.SUFFIX)
    try:
        name = campaign_name(stem)
    except RulesError as err:
        raise UsageError(str(err)) from None
    plain = re.fullmatch(r"\w[\w.-]*", stem)  # a file name as it is: NAME.toml
    path = _folder(args) / (f"{stem}{store.SUFFIX}" if plain else store.file_name(name))
    if path.exists() or path.is_symlink():
        print(f"hsm: {path} already exists: not overwritten", file=sys.stderr)
        return 1
    session = Session(seed=random.SystemRandom().randrange(2**32))
    session.rename(name)
    try:
        store.save(session, path)
    except store.CampaignFileError as err:
        raise UsageError(str(err)) from None
    print(path)
    return 0


def problems(path: Path) -> list[str]:
    """What is wrong with the campaign file ``path``, one line each (none: it plays):
    everything open checks, then the undo history replayed on the packs ``hsm play``
    loads, to the state the file saved. Only reads: the file and the folder are left
    exactly as they were.
    """
    try:
        data = store.read(path)
        body = {k: v for k, v in data.items() if k not in store.META_KEYS}
        with collector.paused():  # every entry read: tens of thousands of records at once
            saved = session_from(body, every_entry=True)
        if data["header"] != versions.header(data["state"]):
            return [f"{path}: key header: does not match the campaign in state (edited by hand?)"]
        misfit = _replayed(saved)  # opening leaves the steps to the first undo: check reads them
    except store.CampaignFileError as err:
        return [str(err)]
    except DataError as err:
        return [store.problem(path, err)]
    except RecursionError:
        return [f"{path}: not a campaign: nested too deeply"]
    if misfit is None:
        return []
    steps = len(saved.unread)
    if misfit.step >= steps and misfit.reason:  # a checkpoint that cannot be read
        return [f"{path}: key undo: the undo history does not fit: {misfit.reason}"]
    if misfit.step >= steps:
        return [
            f"{path}: key undo: the undo history replayed ends in a state other than the one"
            f" saved ({steps} step(s)); the first u would drop it"
        ]
    where = f"undo.commands[{misfit.step}]"
    why = f"step {misfit.step + 1} of {steps}: {misfit.reason}"
    text = f"the undo history stops fitting at {why}; the first u would drop it"
    return [store.problem(path, DataError(where, text))]


def _replayed(saved: SessionData) -> HistoryMisfit | None:
    """Where the undo history of a campaign read and checked stops fitting on the packs
    ``hsm play`` loads, if it does; first, DataError for a Severe Wound chart row a Hero
    or combatant carries that their chart lacks (the state and where the history starts).
    """
    from ..table.session import Session

    session = Session()
    session.load_content()
    for snap, where in ((saved.now, "state"), (saved.start, "undo.start")):
        check_chart(snap, session.catalog, where)
    try:
        session.check_history(saved)
    except HistoryMisfit as misfit:
        return misfit
    return None


def check(args: argparse.Namespace) -> int:
    """Print every problem; exit 1 if there is one."""
    found = [line for name in args.files for line in problems(Path(name))]
    for line in found:
        print(line)
    print(f"checked {len(args.files)} file(s): {len(found)} problem(s)", file=sys.stderr)
    return 1 if found else 0


def listing(args: argparse.Namespace) -> int:
    """The campaigns in the saves folder, newest first (unreadable ones as their error)."""
    rows: list[dict[str, Any]] = []
    for entry in store.recent(_folder(args)):
        if isinstance(entry, store.CampaignFileError):
            rows.append({"file": str(entry.path), "error": str(entry)})
            continue
        rows.append(
            {
                "file": str(entry.path),
                "name": entry.name,
                "party": list(entry.party),
                "adventure": entry.adventure,
                "in_combat": entry.in_combat,
                "saved": entry.saved,
            }
        )
    if args.json:
        import json

        print(json.dumps(rows))
        return 0
    for row in rows:  # one line each, to read or to grep
        if "error" in row:
            print(f"⚠ {row['error']}")
            continue
        fight = "in combat" if row["in_combat"] else "not in combat"
        party = ", ".join(row["party"]) or "no party yet"
        print(
            f"{row['name']} · {party} · adventure {row['adventure']} · {fight}"
            f" · saved {row['saved']} · {row['file']}"
        )
    return 0


def export(args: argparse.Namespace) -> int:
    """The session log as Markdown, on stdout or in ``--out`` (written atomically)."""
    path = store.find(args.file)
    found = problems(path)
    if found:
        raise UsageError(found[0])
    data = store.read(path)
    if args.sheets:
        return _write(args.out, sheets(path, data["header"]["name"]))
    log = session_from({k: v for k, v in data.items() if k not in store.META_KEYS}).now.log
    if args.fight is not None:  # one fight only
        found_fights = fights(log)
        if not 1 <= args.fight <= len(found_fights):
            raise UsageError(f"{path} holds {len(found_fights)} fight(s), no fight {args.fight}")
        log = found_fights[args.fight - 1]
    return _write(args.out, story(data["header"], str(data["saved"]), log))


def _write(where: str | None, text: str) -> int:
    """``text`` on stdout, or as the file ``where`` (written atomically)."""
    if where is None:
        sys.stdout.write(text)
        return 0
    out = Path(where)
    try:
        mode = out.stat().st_mode & 0o777 if out.exists() else store.default_mode()
        replace_file(out.resolve(), text.encode("utf-8"), mode)
    except OSError as err:
        raise UsageError(f"cannot write {out}: {err.strerror or err}") from None
    return 0


def sheets(path: Path, name: str) -> str:
    """Each party Hero's sheet as the campaign has it now (:mod:`sheet_text`), with the
    packs loaded and the campaign's own characters."""
    from ..campaign.sheet_text import sheet_markdown
    from ..table.session import Session

    session = Session()
    session.load_content()
    store.load(session, path)
    campaign, catalog = session.party_now(), session.catalog
    chart = {row.id: row.name for row in catalog.chart}
    found = [(catalog.heroes.get(m.entry), m) for m in campaign.party]
    parts = [sheet_markdown(hero, m, chart) for hero, m in found if hero is not None]
    missing = [m.name for hero, m in found if hero is None]
    if missing:
        raise UsageError(f"{path}: no sheet for {', '.join(missing)}: their pack is not loaded")
    body = "\n".join(parts) if parts else "No Hero in the party yet.\n"
    return f"# {escape(name)}: the party's sheets\n\n{body}"


def story(header: dict[str, Any], saved: str, log: tuple[LogEntry, ...]) -> str:
    """The log as the log screen exports it (``logbook.to_markdown``), titled with the
    campaign's name, and a line under the title: adventure, party, fight, saved at.
    """
    heading, _, rest = to_markdown(log, header["name"]).partition("\n\n")
    party = ", ".join(header["party"]) or "no party yet"
    fight = " · in combat" if header["in_combat"] else ""
    about = escape(f"Adventure {header['adventure']} · party: {party}{fight} · saved {saved}")
    return f"{heading}\n\n{about}\n\n{rest}"
