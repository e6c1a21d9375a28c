"""Reading a file someone else may have made: only a regular file, and only up to a size
limit. A save that is a symlink to ``/dev/zero`` would otherwise fill memory, and a FIFO
would hang the reader with nothing drawn; both are refused with an ``OSError`` that says
why (its ``strerror`` is the reader's words).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MB = 1024 * 1024
CHUNK = MB


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file (symlinks followed) of at most
    ``limit`` bytes; otherwise ``OSError``. Opening never blocks (a FIFO is refused).
    """
    data = _read(path, limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {_size(limit)}: not read", str(path))
    return data


def read_head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of the regular file ``path`` (all of it if shorter)."""
    return _read(path, size)


def _read(path: Path, most: int) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            problem = "not a regular file (a device, a pipe or a socket): not read"
            raise OSError(errno.EINVAL, problem, str(path))
        chunks: list[bytes] = []
        total = 0
        while total < most and (chunk := os.read(fd, min(CHUNK, most - total))):
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _size(limit: int) -> str:
    return f"{limit // MB} MB" if limit >= MB else f"{limit} bytes"
