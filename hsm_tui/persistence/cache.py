"""Where hsm keeps files between starts: the packs as last loaded
(:mod:`hsm_tui.packs.kept`), so that a start with unchanged packs skips reading them."""

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
