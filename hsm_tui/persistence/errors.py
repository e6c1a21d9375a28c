"""The error of a campaign file, apart from the file code: ``hsm play`` catches it at
every start, and importing it must not load the engine that :mod:`.store` needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


class CampaignFileError(Exception):
    """A campaign file that cannot be written or read, said for the GM."""

    path: Path | None = None
    """The file, where a list of files names it (:func:`.store.recent`)."""
