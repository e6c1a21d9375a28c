"""Saves that did not finish moving into place: a save is written whole to a temporary
file beside the campaign, then renamed over it. A process killed (or a machine that lost
power) between the two leaves the new campaign whole in ``.<name>.toml.<pid>.….tmp``;
such a file is kept and offered like an autosave, never removed as a crash's leftover.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from . import reader
from .atomic import move_into_place, orphans
from .errors import CampaignFileError
from .safe_read import read_tail

DISCARDED = ".discarded"
_NAME = re.compile(r"\.(.+\.toml)\.\d+\.[a-z0-9_]+\.tmp")


def campaign_of(tmp: Path) -> Path | None:
    """The campaign file a temporary file was to become (None: not one of those)."""
    match = _NAME.fullmatch(tmp.name)
    return tmp.parent / match[1] if match else None


def whole(tmp: Path) -> bool:
    """Whether ``tmp`` holds a whole campaign: it ends as every save ends, and opens."""
    try:
        if read_tail(tmp, len(reader.END)) != reader.END.encode():
            return False
        reader.read(tmp)
    except (OSError, CampaignFileError):
        return False
    return True


def newer(tmp: Path, file: Path) -> bool:
    """Whether ``tmp`` was written after ``file`` (or ``file`` is gone)."""
    try:
        mine = tmp.stat().st_mtime_ns
    except OSError:
        return False
    try:
        return mine > file.stat().st_mtime_ns
    except OSError:
        return True


def keeper(file: Path) -> Callable[[Path], bool]:
    """What a clean-up beside ``file`` keeps: a whole campaign written after it."""
    return lambda tmp: newer(tmp, file) and whole(tmp)


def found(file: Path) -> list[Path]:
    """The saves of ``file`` that did not finish moving into place and hold play it does
    not (whole, and newer than it), newest first."""
    target = file.resolve()
    keep = keeper(target)
    kept = [tmp for tmp in orphans(target) if keep(tmp)]
    return sorted(kept, key=lambda tmp: tmp.stat().st_mtime_ns, reverse=True)


def discard(tmp: Path) -> Path:
    """Set ``tmp`` aside, in sight (``c.toml.<pid>.….tmp.discarded``): never offered again."""
    kept = tmp.with_name(tmp.name.lstrip(".") + DISCARDED)
    move_into_place(tmp, kept)
    return kept
