"""Campaign files: the whole session (party, roster, scene, fight, pending question, log,
dice state, undo and redo) in one TOML file, so a campaign resumes mid-combat exactly.

Writing goes to a temporary file in the same folder, then replaces the old one, so a
crash or a full disk never leaves half a campaign behind. Reading checks everything
before the session changes; a bad file is refused with its path and the line or key
at fault (:class:`CampaignFileError`).
"""

from __future__ import annotations

import gc
import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w

from ..campaign.encounter import Encounter
from ..campaign.party import Campaign
from .atomic import replace_file
from .codec import DataError, from_data, parse_toml

if TYPE_CHECKING:
    from ..session import Session

FORMAT = "hsm-tui campaign"
VERSION = 1
SUFFIX = ".toml"
BACKUP = ".bak"
TOP_KEYS = ("format", "format_version", "saved", "seed", "state", "undo", "redo")
"""The keys a campaign file's top level holds; any other is a mistake worth naming."""


class CampaignFileError(Exception):
    """A campaign file that cannot be written or read, said for the GM."""


def saves_folder() -> Path:
    """Where campaigns are kept: ``HSM_SAVES``, else ``saves/`` in the working folder."""
    return Path(os.environ.get("HSM_SAVES") or "saves")


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


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector held off while a campaign is written or read. Both
    make tens of thousands of records at once, and each burst would set off full
    collections over the whole session, undo history included: on a 10,000-entry
    campaign those cost more than the work itself. Any cyclic garbage left is
    collected afterwards, as usual.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def save(session: Session, path: Path, now: datetime | None = None) -> Path:
    """Write the session to ``path`` and make it the session's file (see :func:`_save`)."""
    with _collector_paused():
        return _save(session, path, now)


def _save(session: Session, path: Path, now: datetime | None) -> Path:
    """Write the session to ``path`` and make it the session's file.

    The text goes to a temporary file in the same folder, is flushed to disk, and only
    then replaces the old file, which stays beside it as ``<name>.toml.bak``: a crash,
    a full disk or a power cut leaves the old campaign whole.
    """
    stamp = (now or datetime.now()).replace(microsecond=0)
    try:
        data = {"format": FORMAT, "format_version": VERSION, "saved": stamp}
        data.update(session.to_data())
        text = tomli_w.dumps(data).encode("utf-8")
    except (TypeError, ValueError, DataError) as err:  # a state TOML or UTF-8 cannot hold
        raise CampaignFileError(f"cannot save {path}: {err}") from None
    target = path.resolve()  # through a symlink: the file it points at is replaced
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        mode = target.stat().st_mode & 0o777 if target.exists() else _default_mode()
        replace_file(target, text, mode, before=lambda: _backup(target))
    except OSError as err:
        raise CampaignFileError(f"cannot save {path}: {err.strerror or err}") from None
    session.mark_saved(path)
    return path


def _default_mode() -> int:
    """A new file's permissions as the umask would give them (mkstemp makes it 0600)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _backup(target: Path) -> None:
    """Keep the file about to be replaced as ``<name>.bak`` (a hard link: no copy)."""
    if not target.exists():
        return
    backup = target.with_name(target.name + BACKUP)
    backup.unlink(missing_ok=True)
    try:
        os.link(target, backup)
    except OSError:  # a file system without hard links: copy instead
        shutil.copy2(target, backup)


def read(path: Path) -> dict[str, Any]:
    """The checked top of a campaign file (format, version, keys); the rest is checked
    by :meth:`Session.load_data`.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CampaignFileError(f"{path}: not a text file") from None
    except OSError as err:
        raise CampaignFileError(f"cannot open {path}: {err.strerror or err}") from None
    if not text.strip():
        raise CampaignFileError(f"{path}: the file is empty (not a campaign)")
    try:
        data = parse_toml(text, "a campaign")
    except ValueError as err:
        raise CampaignFileError(f"{path}: {err}") from None
    if data.get("format") != FORMAT:
        raise CampaignFileError(f"{path}: not an hsm-tui campaign (key 'format' is not {FORMAT!r})")
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
        raise CampaignFileError(
            f"{path}: key format_version is {version!r}; this hsm-tui reads version {VERSION}"
        )
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        raise CampaignFileError(f"{path}: unknown key {unknown[0]!r} at the top of the file")
    return data


def load(session: Session, path: Path) -> str:
    """Replace the session with the campaign in ``path``; the answer says what of the
    undo history came along. A bad file changes nothing.
    """
    with _collector_paused():
        return _load(session, path)


def _load(session: Session, path: Path) -> str:
    data = read(path)
    body = {k: v for k, v in data.items() if k not in ("format", "format_version", "saved")}
    try:
        answer = session.load_data(body)
    except DataError as err:
        raise CampaignFileError(f"{path}: key {err.where}: {err.problem}") from None
    except RecursionError:
        raise CampaignFileError(f"{path}: not a campaign: nested too deeply") from None
    session.mark_saved(path)
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


def recent(folder: Path | None = None) -> list[SavedCampaign | CampaignFileError]:
    """The campaign files in ``folder``, newest first; a file that cannot be read is
    listed as its error (so the GM sees it, rather than it silently vanishing).
    """
    folder = folder or saves_folder()
    try:
        paths = [p for p in folder.glob(f"*{SUFFIX}") if p.is_file()]
    except OSError:
        return []
    out: list[SavedCampaign | CampaignFileError] = []
    for path in sorted(paths, key=_mtime, reverse=True):
        try:
            out.append(_summary(path, read(path)))
        except CampaignFileError as err:
            out.append(err)
    return out


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


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
