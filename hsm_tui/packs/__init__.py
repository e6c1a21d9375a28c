"""TOML content packs: format, loader and catalog. Pure apart from reading files."""

from .loader import ENV_VAR, SHIPPED, LoadResult, content_dirs, load
from .model import KINDS, Catalog, Character, PackInfo, SevereWound, Weapon
from .problems import Code, Problem, Severity

__all__ = [
    "ENV_VAR",
    "KINDS",
    "SHIPPED",
    "Catalog",
    "Character",
    "Code",
    "LoadResult",
    "PackInfo",
    "Problem",
    "SevereWound",
    "Severity",
    "Weapon",
    "content_dirs",
    "load",
]
