"""Package namespaces whose names load from their modules on first use (PEP 562)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(package: str, home: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports ``home[name]`` when ``name``
    is first read, and keeps the value so later reads are plain attribute lookups.

    Why: importing one module of a package runs the package's ``__init__``; with eager
    re-exports that pulled in the whole engine, and the app's first frame waited for it.
    """

    def __getattr__(name: str) -> Any:
        try:
            module = home[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
