"""Campaign files: the whole session (party, roster, scene, fight, pending question, log,
dice state, undo and redo) in one TOML file, so a campaign resumes mid-combat exactly.

Writing goes to a temporary file in the same folder, then replaces the old one, so a
crash or a full disk never leaves half a campaign behind. Reading checks everything
before the session changes; a bad file is refused with its path and the line or key
at fault (:class:`CampaignFileError`).
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w

from .codec import DataError

if TYPE_CHECKING:
    from .session import Session

FORMAT = "hsm-tui campaign"
VERSION = 1
SUFFIX = ".toml"


class CampaignFileError(Exception):
    """A campaign file that cannot be written or read, said for the GM."""


def saves_folder() -> Path:
    """Where campaigns are kept: ``HSM_SAVES``, else ``saves/`` in the working folder."""
    return Path(os.environ.get("HSM_SAVES") or "saves")


def file_name(campaign_name: str) -> str:
    """A campaign's file name from its name: ``Lost Relics!`` → ``lost-relics.toml``."""
    slug = re.sub(r"[^a-z0-9]+", "-", campaign_name.lower()).strip("-")
    return f"{slug or 'campaign'}{SUFFIX}"


def save(session: Session, path: Path, now: datetime | None = None) -> Path:
    """Write the session to ``path`` (atomically); from then on it is the session's file."""
    stamp = (now or datetime.now()).replace(microsecond=0)
    data = {"format": FORMAT, "version": VERSION, "saved": stamp, **session.to_data()}
    try:
        text = tomli_w.dumps(data)
    except (TypeError, ValueError, DataError) as err:  # a state the codec cannot write
        raise CampaignFileError(f"cannot save {path}: {err}") from None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as err:
        raise CampaignFileError(f"cannot save {path}: {err.strerror or err}") from None
    session.mark_saved(path)
    return path


def read(path: Path) -> dict[str, Any]:
    """The checked top of a campaign file (format and version); the rest is checked
    by :meth:`Session.load_data`.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CampaignFileError(f"{path}: not a text file") from None
    except OSError as err:
        raise CampaignFileError(f"cannot open {path}: {err.strerror or err}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise CampaignFileError(f"{path}: not valid TOML: {err}") from None
    if data.get("format") != FORMAT:
        raise CampaignFileError(f"{path}: not an hsm-tui campaign (key 'format' is not {FORMAT!r})")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version > VERSION:
        raise CampaignFileError(
            f"{path}: campaign file version {version!r}; this hsm-tui reads version {VERSION}"
        )
    return data


def load(session: Session, path: Path) -> str:
    """Replace the session with the campaign in ``path``; the answer says what of the
    undo history came along. A bad file changes nothing.
    """
    data = read(path)
    body = {k: v for k, v in data.items() if k not in ("format", "version", "saved")}
    try:
        answer = session.load_data(body)
    except DataError as err:
        raise CampaignFileError(f"{path}: key {err.where}: {err.problem}") from None
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
    state = data.get("state")
    campaign = state.get("campaign", {}) if isinstance(state, dict) else {}
    campaign = campaign if isinstance(campaign, dict) else {}
    party = campaign.get("party", [])
    names = tuple(
        str(m.get("name", "?"))
        for m in (party if isinstance(party, list) else [])
        if isinstance(m, dict)
    )
    encounter = state.get("encounter", {}) if isinstance(state, dict) else {}
    return SavedCampaign(
        path,
        str(campaign.get("name", "New campaign")),
        str(data.get("saved", "?")),
        adventure if isinstance(adventure := campaign.get("adventure", 1), int) else 1,
        names,
        bool(isinstance(encounter, dict) and encounter.get("active")),
    )
