"""``serve.log``: what goes wrong with a connection, who joined from where. It names the
players and their addresses, so it is the GM's alone (0600 in the 0700 config folder);
and a flood of connections must not fill the GM's disk, so it is rotated and a burst of
lines from one source is written as one line that counts them.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from logging.handlers import RotatingFileHandler
from pathlib import Path

from .hostkey import keep_private

LOG_FILE = "serve.log"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MAX_BYTES, BACKUPS = 1 << 20, 3
"""``serve.log`` is started afresh past a MiB, the last three kept (``serve.log.1`` …):
4 MiB at most, weeks of evenings."""
WINDOW, BURST = 10.0, 50
"""Lines one logger may write in a window of seconds; the rest are counted, and the count
written when the window ends (a busy evening of eight seats writes a few)."""
TRACED = 256
"""Messages whose traceback is remembered: the same failure again is written without it."""


class ServeLog(RotatingFileHandler):
    """The log file: rotated, each file 0600; at most ``burst`` lines per logger in each
    ``window`` seconds, and one traceback per message.
    """

    def __init__(
        self,
        path: Path,
        max_bytes: int = MAX_BYTES,
        backups: int = BACKUPS,
        window: float = WINDOW,
        burst: int = BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        _make_private(path)
        super().__init__(path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8")
        self.rotator = _rotate
        self.setFormatter(logging.Formatter(FORMAT))
        self.window, self.burst, self.clock = window, burst, clock
        self._windows: dict[str, list[float]] = {}  # logger → [start, written, held back]
        self._traced: dict[tuple[str, str], None] = {}

    def emit(self, record: logging.LogRecord) -> None:
        """Write ``record`` unless its logger has written its burst in this window."""
        now = self.clock()
        self._end_windows(now)
        counts = self._windows.setdefault(record.name, [now, 0, 0])
        if counts[1] >= self.burst:
            counts[2] += 1
            return
        counts[1] += 1
        super().emit(self._traced_once(record))

    def close(self) -> None:
        """Write what is still held back, then close."""
        self.acquire()
        try:
            self._end_windows(float("inf"))
        finally:
            self.release()
        super().close()

    def _end_windows(self, now: float) -> None:
        """Write the count of each ended window that held lines back."""
        for name, (start, _, held) in list(self._windows.items()):
            if now - start < self.window:
                continue
            del self._windows[name]
            if held:
                line = f"{held:.0f} more lines from {name} not written (more than {self.burst}"
                line += f" in {self.window:g} s)"
                note = logging.LogRecord(name, logging.WARNING, __file__, 0, line, None, None)
                super().emit(note)

    def _traced_once(self, record: logging.LogRecord) -> logging.LogRecord:
        """``record``, or a copy without its traceback if its message had one already."""
        if not (record.exc_info or record.exc_text):
            return record
        key = (record.name, str(record.msg))
        if key not in self._traced:
            self._traced[key] = None
            if len(self._traced) > TRACED:
                del self._traced[next(iter(self._traced))]
            return record
        quiet = logging.makeLogRecord(record.__dict__)
        quiet.exc_info = quiet.exc_text = None
        quiet.msg = f"{record.msg} (traceback as written before)"
        return quiet


def log_to(folder: Path) -> list[str]:
    """Send the server's log (INFO and up; asyncssh's own WARNING and up, since ours says
    who comes and goes) to ``serve.log`` in ``folder``; returns what was changed or could
    not be, one line each.
    """
    path = folder / LOG_FILE
    try:
        note = _make_private(path)
        handler = ServeLog(path)
    except OSError as err:
        return [f"cannot write {path}: {err.strerror or err}; no log is kept"]
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    return [note] if note else []


def _make_private(path: Path) -> str:
    """Make ``path`` 0600 if it is not there, else take it to 0600; what was changed."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    return keep_private(path, 0o600)


def _rotate(source: str, dest: str) -> None:
    """The rotation of ``serve.log``: it becomes ``dest``, and a new one is made 0600
    before the handler opens it (it would be made with the umask's mode)."""
    os.replace(source, dest)
    _make_private(Path(source))
