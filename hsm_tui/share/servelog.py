"""``serve.log``: what goes wrong with a connection, who joined from where. It names the
players and their addresses, so it is the GM's alone (0600 in the 0700 config folder).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from .hostkey import keep_private

LOG_FILE = "serve.log"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_to(folder: Path) -> list[str]:
    """Send the server's log (INFO and up) to ``serve.log`` in ``folder``, made 0600 or
    taken to it; returns what was changed or could not be, one line each.
    """
    path = folder / LOG_FILE
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    except OSError as err:
        return [f"cannot write {path}: {err.strerror or err}; no log is kept"]
    note = keep_private(path, 0o600)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return [note] if note else []
