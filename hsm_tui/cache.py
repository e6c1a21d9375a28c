"""Where hsm keeps files between starts (issue 22): the compiled dataclass code
(:mod:`hsm_tui.dataclass_code`) and the packs as last loaded (:mod:`hsm_tui.packs.kept`).
Its own module so that both find it without importing each other.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "HSM_CACHE_DIR"


def cache_dir() -> Path:
    """``HSM_CACHE_DIR``, else ``$XDG_CACHE_HOME/hsm-tui``, else ``~/.cache/hsm-tui``."""
    if folder := os.environ.get(ENV_VAR):
        return Path(folder)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "hsm-tui"
