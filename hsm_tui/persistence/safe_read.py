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
    ``limit`` bytes; otherwise ``OSError``. Opening never blocks (a FIFO is refused), and
    a file over the limit is refused by its size before a byte of it is read.
    """
    fd, size = _open(path)
    try:
        if size > limit:
            raise OSError(errno.EFBIG, f"larger than {amount(limit)}: not read", str(path))
        data = _read(fd, limit + 1, size + 1)
    finally:
        os.close(fd)
    if len(data) > limit:  # grown since the size was read
        raise OSError(errno.EFBIG, f"larger than {amount(limit)}: not read", str(path))
    return data


def read_head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of the regular file ``path`` (all of it if shorter)."""
    fd, _ = _open(path)
    try:
        return _read(fd, size)
    finally:
        os.close(fd)


def read_tail(path: Path, size: int) -> bytes:
    """The last ``size`` bytes of the regular file ``path`` (all of it if shorter)."""
    fd, total = _open(path)
    try:
        os.lseek(fd, max(0, total - size), os.SEEK_SET)
        return _read(fd, size)
    finally:
        os.close(fd)


def _open(path: Path) -> tuple[int, int]:
    """A descriptor of the regular file ``path`` and its size; OSError for anything else."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(st.st_mode):
            problem = "not a regular file (a device, a pipe or a socket): not read"
            raise OSError(errno.EINVAL, problem, str(path))
    except BaseException:
        os.close(fd)
        raise
    return fd, st.st_size


def _read(fd: int, most: int, first: int = CHUNK) -> bytes:
    """At most ``most`` bytes of ``fd``; ``first`` in one read (the size the file had,
    read at once: no second copy to join), then chunks, should it have grown."""
    chunks: list[bytes] = []
    total, size = 0, first
    while total < most and (chunk := os.read(fd, min(size, most - total))):
        chunks.append(chunk)
        total += len(chunk)
        size = CHUNK
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def amount(size: int) -> str:
    """A size in a reader's words: ``256 MB``, or ``1000 bytes`` under a megabyte."""
    return f"{size // MB} MB" if size >= MB else f"{size} bytes"
