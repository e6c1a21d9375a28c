"""Compiled dataclass methods kept from one run to the next (issue 22: start-up).

``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``
(and for a frozen one ``__setattr__``, ``__delattr__``) as source text and compiles it at
every import: some 830 small compiles, about 45 ms of the app's start (most of what the
engine's import costs, and part of Textual's before the first frame). The text is the
same from run to run, so the code compiled from it is kept, as Python keeps a module's
bytecode, in one file per interpreter under :func:`hsm_tui.cache.cache_dir`; the next
start runs it without compiling.

The hook is the name ``exec`` in the ``dataclasses`` module, the one call there that
compiles: it runs exactly what dataclasses would have compiled, with the same flags, so
every class comes out the same. A missing, unreadable or foreign file only means
compiling as before. Each module's methods are decoded when that module first builds a
dataclass, and a module's entry holds what its last run compiled (no stale growth).
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import dataclasses
import marshal
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any

from .cache import cache_dir

_file: Path | None = None
_kept: dict[str, bytes] = {}
"""Per module, its ``{source: code}`` as read from the file (still marshalled)."""
_codes: dict[str, dict[str, CodeType]] = {}
"""Per module, the kept code decoded (on the module's first dataclass)."""
_used: dict[str, dict[str, CodeType]] = {}
"""Per module, the code this run ran: what the file keeps for it next time."""
_compiled = False
"""Whether this run compiled anything (then :func:`save` writes the file)."""


def install() -> None:
    """From now on dataclasses run kept code where they can (idempotent); the file is
    written at exit, or earlier by :func:`save`.
    """
    global _file
    if _file is not None:
        return
    tag = f"{sys.implementation.cache_tag}-{MAGIC_NUMBER.hex()}"
    _file = cache_dir() / f"dataclass-code-{tag}.marshal"
    try:
        kept = marshal.loads(_file.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        kept = None
    if isinstance(kept, dict):
        _kept.update(kept)
    dataclasses.exec = _exec  # type: ignore[attr-defined]
    atexit.register(save)


def _exec(source: Any, globals: dict[str, Any] | None = None, locals: Any = None) -> None:
    """``exec`` as dataclasses calls it, with the code kept for ``source`` if any."""
    global _compiled
    if not isinstance(source, str):
        builtins.exec(source, globals, locals)
        return
    module = str((globals or {}).get("__name__", ""))
    codes = _codes.get(module)
    if codes is None:
        codes = _codes[module] = _decode(_kept.get(module))
    code = codes.get(source)
    if code is None:
        # dont_inherit: compiled as in dataclasses, without this module's __future__ flags
        code = compile(source, "<string>", "exec", dont_inherit=True)
        _compiled = True
    _used.setdefault(module, {})[source] = code
    builtins.exec(code, globals, locals)


def _decode(data: bytes | None) -> dict[str, CodeType]:
    if data is None:
        return {}
    try:
        codes = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return {}
    return codes if isinstance(codes, dict) else {}


def save() -> None:
    """Write the file when this run compiled anything; a folder that cannot be written
    is no error (the next start compiles again).
    """
    global _compiled
    if _file is None or not _compiled:
        return
    _compiled = False
    for module, codes in _used.items():
        _kept[module] = marshal.dumps(codes)
    from .persistence.atomic import replace_file  # whole or not at all, whoever else writes

    with contextlib.suppress(OSError):
        _file.parent.mkdir(parents=True, exist_ok=True)
        replace_file(_file, marshal.dumps(_kept), 0o600)
