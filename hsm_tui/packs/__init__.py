"""TOML content packs: format, loader and catalog. Pure apart from reading files.

Names load from their module on first use (``hsm_tui.lazy``).
"""

from __future__ import annotations

from ..lazy import lazy_names

_HOME = {
    "Catalog": "model",
    "Character": "model",
    "Code": "problems",
    "content_dirs": "loader",
    "ENV_VAR": "loader",
    "KINDS": "kinds",
    "load": "loader",
    "LoadResult": "loader",
    "PackInfo": "model",
    "Problem": "problems",
    "SevereWound": "model",
    "Severity": "problems",
    "SHIPPED": "loader",
    "Weapon": "model",
}
"""Each public name and the module that defines it."""

__all__ = sorted(_HOME)

__getattr__ = lazy_names(__name__, _HOME)
