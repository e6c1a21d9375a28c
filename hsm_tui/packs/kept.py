"""The packs as last loaded, kept for the next start: loading them (TOML
parse, checks, the line index) is ~7 ms of the app's start, and they seldom change.

A kept load is used only when everything the load reads is as it was: the folders asked
for, the working folder (problems name files relative to it), each pack folder found
and the bytes of every ``.toml`` file in it, and the code that reads them (the sizes and
times of ``packs/``, ``rules/`` and ``persistence/safe_read.py``). Anything else, or a
kept file that cannot be read, loads afresh. It lives in the cache folder
(:func:`hsm_tui.persistence.cache.cache_dir`); only the last load is kept.
"""

from __future__ import annotations

import contextlib
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..persistence.cache import cache_dir
from ..persistence.safe_read import read_regular
from .loader import FILE_LIMIT, LoadResult, discover, load, real_path

FILE = "packs.pickle"
_CODE = Path(__file__).resolve().parents[1]
"""The package: the code a load runs is its ``packs/``, ``rules/`` and ``safe_read.py``."""


def load_kept(dirs: Sequence[str | Path]) -> LoadResult:
    """What :func:`hsm_tui.packs.load` gives for ``dirs``, from the kept load when
    nothing it reads has changed since.
    """
    key = _key(dirs)
    if key is None:
        return load(dirs)
    kept = cache_dir() / FILE
    try:
        kept_key, result = pickle.loads(kept.read_bytes())
        if kept_key == key and isinstance(result, LoadResult):
            return result
    except Exception:  # missing, damaged or foreign (any unpickling error): load afresh
        pass
    result = load(dirs)
    from ..persistence.atomic import replace_file  # a start that keeps: not every start

    with contextlib.suppress(OSError):  # not kept: the next start loads afresh
        kept.parent.mkdir(parents=True, exist_ok=True)
        replace_file(kept, pickle.dumps((key, result), pickle.HIGHEST_PROTOCOL), 0o600)
    return result


def _key(dirs: Sequence[str | Path]) -> tuple[Any, ...] | None:
    """Everything a load of ``dirs`` reads, or None when a file cannot be read (the load
    reports that itself).
    """
    try:
        found = discover([Path(d) for d in dirs], [])
        files = [
            (str(path), read_regular(path, FILE_LIMIT))
            for folder in found
            for path in sorted(folder.glob("*.toml"))
        ]
        sources = [*(_CODE / "packs").glob("*.py"), *(_CODE / "rules").glob("*.py")]
        code = sorted(
            (str(path), stat.st_mtime_ns, stat.st_size)
            for path in [*sources, _CODE / "persistence" / "safe_read.py"]
            for stat in [path.stat()]
        )
    except OSError:
        return None
    where = str(real_path(Path.cwd()))
    return (sys.version, where, [str(d) for d in dirs], [str(f) for f in found], files, code)
