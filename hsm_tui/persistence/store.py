"""Campaign files: the whole session (party, roster, scene, fight, pending question, log,
dice state, undo and redo) in one TOML file, so a campaign resumes mid-combat exactly.

Writing goes to a temporary file in the same folder, then replaces the old one, so a
crash, a full disk or a power cut never leaves half a campaign behind; the last three
saves stay beside it (``<name>.toml.bak1`` newest … ``.bak3``). Reading is
:mod:`.reader`'s (its names are here too, for callers that know only this module); a
session changes only once everything in the file is checked.
"""

from __future__ import annotations

import os
import re
import secrets
import tomllib
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w

from ..campaign.encounter import Encounter
from ..campaign.party import Campaign
from . import collector, lock, reader, unfinished, versions
from .atomic import (
    FileId,
    clean_stale,
    file_id,
    folder_held,
    keep_copy,
    move_into_place,
    replace_file,
)
from .codec import DataError, from_data
from .errors import CampaignFileError
from .lines import Block
from .reader import END, FORMAT, META_KEYS, VERSION, check_header, problem, read
from .safe_read import amount, read_head

if TYPE_CHECKING:
    from ..table.session import Session

SUFFIX = ".toml"
BACKUP = ".bak"
"""Backups are ``<name>.toml.bak1`` (the save before this one) to ``.bak3``; a single
``<name>.toml.bak`` left by an older hsm-tui is left alone (it still opens as a path)."""
BACKUPS = 3
HEAD = 64 * 1024
"""How much of a file the open list reads for its header."""


def saves_folder() -> Path:
    """Where campaigns are kept: ``HSM_SAVES``; else ``saves/`` in the working folder when
    there is one (a checkout has it, and so may a GM's campaign folder); else the user's
    data folder (``~/.local/share/hsm-tui/saves`` on Linux), so that an installed ``hsm``
    run from anywhere keeps its campaigns in one place.
    """
    if named := os.environ.get("HSM_SAVES"):
        return Path(named)
    here = Path("saves")
    if here.is_dir():
        return here
    from platformdirs import user_data_path

    return user_data_path("hsm-tui", appauthor=False) / "saves"


def find(name: str) -> Path:
    """A campaign file as the GM names it: a path, or a bare name in the saves folder
    (``lost-relics`` → ``saves/lost-relics.toml``).
    """
    path = Path(name)
    if path.exists() or path.parent != Path("."):
        return path
    for candidate in (saves_folder() / name, saves_folder() / f"{name}{SUFFIX}"):
        if candidate.exists():
            return candidate
    return path


def file_name(campaign_name: str) -> str:
    """A campaign's file name from its name: ``Lost Relics!`` → ``lost-relics.toml``;
    letters of any script stay (``Été à Paris`` → ``été-à-paris.toml``).
    """
    slug = re.sub(r"[\W_]+", "-", campaign_name.lower()).strip("-")
    return f"{slug or 'campaign'}{SUFFIX}"


def save(session: Session, path: Path, now: datetime | None = None) -> Path:
    """Write the session to ``path`` and make it the session's file (see :func:`_save`)."""
    with collector.paused():
        return _save(session, path, now)


def _save(session: Session, path: Path, now: datetime | None) -> Path:
    """Write the session to ``path`` and make it the session's file.

    The text goes to a temporary file in the same folder, is flushed to disk, and only
    then replaces the old file, which becomes ``<name>.toml.bak1`` (the older backups
    move up to ``.bak3``): a crash, a full disk or a power cut leaves the old campaign
    whole. Temporary files a crashed save left are removed first.
    """
    mine = session.file is not None and session.file.resolve() == path.resolve()
    other = lock.unit_key(path)
    if other is not None:
        raise CampaignFileError(
            f"not saved: another hsm-tui holds {path} now ({other}); save under another name"
        )
    seen = _SEEN.get(id(session))
    expected = seen[1] if mine and seen is not None and seen[0] == path.resolve() else None
    written = write(encode(session.to_data, path, now), path, backups=True, expected=expected)
    _saw(session, path, written)
    session.mark_saved(path)
    return path


_SEEN: dict[int, tuple[Path, FileId | None]] = {}
"""Which file each session (by ``id``) last opened or saved, and which file that was
(:func:`file_id`): a save over it checks it is still that one. An entry goes with its
session."""


def _saw(session: Session, path: Path, seen: FileId | None) -> None:
    if id(session) not in _SEEN:
        weakref.finalize(session, _SEEN.pop, id(session), None)
    _SEEN[id(session)] = (path.resolve(), seen)


def encode(body: Callable[[], dict[str, Any]], path: Path, now: datetime | None = None) -> bytes:
    """A campaign file's bytes: the format, version, time and header, then ``body()``
    (a session's data, as ``Session.to_data`` gives it)."""
    stamp = (now or datetime.now()).replace(microsecond=0)
    try:
        session = body()
        data = {"format": FORMAT, "format_version": VERSION, "saved": stamp}
        data["header"] = versions.header(session.get("state"))
        data.update(session)
        return b"".join([*_toml(data), f"\n{END}".encode()])
    except (TypeError, ValueError, DataError) as err:  # a state TOML or UTF-8 cannot hold
        raise CampaignFileError(f"cannot save {path}: {err}") from None


def _toml(data: dict[str, Any]) -> list[bytes]:
    """``data`` as TOML in pieces of UTF-8, each :class:`~.lines.Block` as a literal string
    (tomli_w would write it as one line of escapes, which tomllib reads a character at a
    time). Each block goes in under a random stand-in no value can hold by chance; its
    bytes are a piece as they are, for the file to be put together once (a long
    campaign's blocks are most of its file, and each pass over them took 0.1 s).
    """
    blocks: dict[str, Block] = {}
    nonce = secrets.token_hex(16)

    def marked(value: Any) -> Any:
        if isinstance(value, Block):
            stand_in = f"{nonce}-{len(blocks)}"
            blocks[f'"{stand_in}"'] = value
            return stand_in
        if isinstance(value, dict):
            return {k: marked(v) for k, v in value.items()}
        return value

    text = tomli_w.dumps(marked(data))
    pieces, at = [], 0
    for where, stand_in in sorted((text.index(s), s) for s in blocks):
        pieces += [text[at:where].encode(), b"'''\n", blocks[stand_in].data, b"'''"]
        at = where + len(stand_in)
    pieces.append(text[at:].encode())
    return pieces


def write(
    text: bytes, path: Path, *, backups: bool, expected: FileId | None = None
) -> FileId | None:
    """Put ``text`` in place as ``path`` atomically (keeping the last saves as backups
    if ``backups``), first removing temporary files a crashed writer left there (but a
    whole save newer than the file, :mod:`.unfinished`, which is offered on open); the
    answer is the new file's :func:`file_id`. Text larger than open reads is refused
    before anything is written. ``expected``: the file must still be that
    one (the session's last open or save), or another program replaced it and nothing
    is written: CampaignFileError, never a silent loss of the other's save.
    """
    target = path.resolve()  # through a symlink: the file it points at is replaced
    if len(text) > reader.LIMIT:
        raise CampaignFileError(
            f"not saved: {path} would be {amount(len(text))}, more than the"
            f" {amount(reader.LIMIT)} a campaign file may be to open; the file is left as it"
            " was (export the log, then start the next adventure as a new campaign)"
        )
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with folder_held(target.parent):
            if expected is not None and file_id(target) != expected:
                raise CampaignFileError(
                    f"not saved: {path} was changed by another program since it was opened or"
                    " saved here; save under another name (Save campaign as…), or open it again"
                )
            mode = target.stat().st_mode & 0o777 if target.exists() else default_mode()
            clean_stale(target, keep=unfinished.keeper(target))
            replace_file(target, text, mode, before=lambda: _backup(target) if backups else None)
            return file_id(target)
    except OSError as err:
        raise CampaignFileError(f"cannot save {path}: {err.strerror or err}") from None


def default_mode() -> int:
    """A new file's permissions as the umask would give them (mkstemp makes it 0600)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def backup(target: Path, n: int) -> Path:
    """The ``n``-th newest backup of ``target`` (1 to :data:`BACKUPS`)."""
    return target.with_name(f"{target.name}{BACKUP}{n}")


def _backup(target: Path) -> None:
    """Keep the file about to be replaced as ``.bak1``, the older ones moving up to
    ``.bak3``. Every step is a rename (atomic) followed by a flush of the folder: a backup
    name always holds a whole file, after a power cut too.
    """
    if not target.exists():
        return
    for n in range(BACKUPS - 1, 0, -1):
        if backup(target, n).exists():
            move_into_place(backup(target, n), backup(target, n + 1))
    keep_copy(target, backup(target, 1))


def load(session: Session, path: Path, *, mark: bool = True) -> str:
    """Replace the session with the campaign in ``path``; the answer says what of the
    undo history came along. A bad file changes nothing. ``mark``: ``path`` becomes the
    session's file, saved as it is (not for an autosave: its campaign stays unsaved).
    """
    with collector.paused():
        return _load(session, path, mark)


def _load(session: Session, path: Path, mark: bool) -> str:
    opened = file_id(path)
    data = read(path, as_bytes=True)
    clean_stale(path.resolve(), keep=unfinished.keeper(path.resolve()))
    body = {k: v for k, v in data.items() if k not in META_KEYS}
    try:
        answer = session.load_data(body)
    except DataError as err:
        raise CampaignFileError(problem(path, err)) from None
    except RecursionError:
        raise CampaignFileError(f"{path}: not a campaign: nested too deeply") from None
    if mark:
        session.mark_saved(path)
        _saw(session, path, opened)
    return answer


@dataclass(frozen=True)
class SavedCampaign:
    """One line of the recent-campaigns list."""

    path: Path
    name: str
    saved: str
    adventure: int
    party: tuple[str, ...]
    in_combat: bool


PLAYERS_FILE = "players.toml"
"""The shared table's seats and keys (``hsm serve``), kept beside the campaigns by
default: a file of the saves folder that is not a campaign."""


def recent(folder: Path | None = None) -> list[SavedCampaign | CampaignFileError]:
    """The campaign files in ``folder``, newest first; a file that cannot be read is
    listed as its error (so the GM sees it, rather than it silently vanishing). The
    players file is not a campaign and is not listed.
    """
    folder = folder or saves_folder()
    try:
        paths = [p for p in folder.glob(f"*{SUFFIX}") if p.name != PLAYERS_FILE and not p.is_dir()]
    except OSError:
        return []
    out: list[SavedCampaign | CampaignFileError] = []
    for path in sorted(paths, key=lambda p: mtime(p) or 0.0, reverse=True):
        try:
            out.append(_from_header(path) or _summary(path, read(path)))
        except CampaignFileError as err:
            err.path = path
            out.append(err)
    return out


_TABLE = re.compile(r"^\[", re.MULTILINE)


def _from_header(path: Path) -> SavedCampaign | None:
    """The list line from the file's first lines (its header, written before the
    session); ``None`` when they do not hold one of this version (the file is then read
    whole, as it is opened).
    """
    try:
        raw = read_head(path, HEAD)
        text = raw[: raw.rfind(b"\n") + 1].decode("utf-8")
        start = text.index("\n[header]\n") + 1
        end = _TABLE.search(text, start + 1)
        if end is None:
            return None
        data = tomllib.loads(text[: end.start()])
    except (OSError, ValueError):
        return None
    if data.get("format") != FORMAT or data.get("format_version") != VERSION:
        return None
    head = data.get("header")
    check_header(path, head)
    saved = str(data.get("saved", "?"))
    party = tuple(head["party"])
    return SavedCampaign(path, head["name"], saved, head["adventure"], party, head["in_combat"])


def mtime(path: Path) -> float | None:
    """When ``path`` was last written; None when it cannot be read (gone meanwhile)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def _summary(path: Path, data: dict[str, Any]) -> SavedCampaign:
    """The list line, read by the codec like the whole file would be: a file whose
    campaign or fight cannot be read is listed as its error."""
    state = data.get("state")
    try:
        if not isinstance(state, dict):
            raise DataError("state", "missing, or not a table")
        campaign = from_data(state.get("campaign", {}), Campaign, {}, "state.campaign")
        encounter = from_data(state.get("encounter"), Encounter, {}, "state.encounter")
    except DataError as err:
        raise CampaignFileError(f"{path}: key {err.where}: {err.problem}") from None
    party = tuple(m.name for m in campaign.party)
    saved = str(data.get("saved", "?"))
    return SavedCampaign(path, campaign.name, saved, campaign.adventure, party, encounter.active)
