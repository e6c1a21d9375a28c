"""Autosave files: the session written beside its campaign after every change (the app
debounces it, ``ui/autosave.py``), so a crash, a closed terminal or a dropped SSH
connection loses at most the last two seconds of play.

``<folder>/.autosave/<name>.toml`` for the campaign file ``<folder>/<name>.toml``, or
``<saves>/.autosave/unnamed-<stamp>.toml`` before the campaign's first save. It is a
campaign file like any other (written atomically, without backups), so anything that
opens a campaign opens it. One that is newer than its campaign file is offered for
recovery; discarding it keeps it as ``<name>.toml.discarded``; a normal save removes it.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from . import store
from .snapshot import SessionData, session_data

FOLDER = ".autosave"
UNNAMED = "unnamed-"
DISCARDED = ".discarded"


def path_for(file: Path | None, stamp: str, saves: Path | None = None) -> Path:
    """The autosave of the campaign ``file`` (None: not saved yet, named by ``stamp``)."""
    if file is not None:
        return file.parent / FOLDER / file.name
    return (saves or store.saves_folder()) / FOLDER / f"{UNNAMED}{stamp}{store.SUFFIX}"


def campaign_of(auto: Path) -> Path | None:
    """The campaign file an autosave belongs to (None: an unnamed session's)."""
    if auto.name.startswith(UNNAMED):
        return None
    return auto.parent.parent / auto.name


def write(frozen: SessionData, path: Path, now: datetime | None = None) -> None:
    """Write the autosave (any thread: ``frozen`` is immutable); CampaignFileError."""
    store.write(store.encode(lambda: session_data(frozen), path, now), path, backups=False)


def newer(auto: Path) -> bool:
    """Whether the autosave ``auto`` holds play its campaign file does not: it exists
    and is newer than the file (or the file is gone, or there never was one).
    """
    mine = store.mtime(auto)
    if mine is None:
        return False
    campaign = campaign_of(auto)
    theirs = store.mtime(campaign) if campaign is not None else None
    return theirs is None or mine > theirs


def recoverable(saves: Path | None = None) -> list[Path]:
    """The autosaves in the saves folder newer than their campaign file, newest first."""
    folder = (saves or store.saves_folder()) / FOLDER
    try:
        found = [p for p in folder.glob(f"*{store.SUFFIX}") if newer(p)]
    except OSError:
        return []
    return sorted(found, key=lambda p: store.mtime(p) or 0.0, reverse=True)


def discard(auto: Path) -> Path:
    """Set the autosave aside as ``<name>.toml.discarded`` (kept, never offered again)."""
    kept = auto.with_name(auto.name + DISCARDED)
    os.replace(auto, kept)
    return kept


def remove(auto: Path | None) -> None:
    """Remove an autosave whose play a normal save now holds."""
    if auto is not None:
        auto.unlink(missing_ok=True)
