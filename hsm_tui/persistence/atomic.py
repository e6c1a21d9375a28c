"""Files replaced whole: the new bytes go to a temporary file in the same folder, are
flushed to disk, and only then take the old file's name, so a crash, a full disk or a
power cut leaves either the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def replace_file(
    target: Path, data: bytes, mode: int, before: Callable[[], None] = lambda: None
) -> None:
    """Write ``data`` as ``target`` (permissions ``mode``); ``before`` runs just before
    the new file takes the name (to keep a backup of the old one). Raises OSError; the
    temporary file is then gone.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        before()
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
