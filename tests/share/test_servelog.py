"""``serve.log`` under a flood: rotated with every file the GM's alone, a burst from one
logger written as one line that counts it, one traceback per message.
"""

from __future__ import annotations

import logging
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from hsm_tui.share.servelog import ServeLog, log_to


def still() -> float:
    """A clock that stands still: every line falls in one window."""
    return 100.0


@pytest.fixture
def logger() -> Iterator[logging.Logger]:
    log = logging.getLogger("hsm_test_flood")
    log.propagate = False
    yield log
    for handler in log.handlers:
        handler.close()
        log.removeHandler(handler)


def failure() -> BaseException:
    try:
        raise OSError(24, "Too many open files")
    except OSError as err:
        return err


def test_a_flood_of_one_failure_is_one_traceback_and_a_count(tmp_path: Path, logger) -> None:
    now = [100.0]
    handler = ServeLog(tmp_path / "serve.log", window=10, burst=5, clock=lambda: now[0])
    logger.addHandler(handler)
    for _ in range(1000):
        logger.error("socket.accept() out of system resource", exc_info=failure())
    now[0] += 10
    logger.warning("the flood is over")
    text = (tmp_path / "serve.log").read_text()
    assert text.count("Traceback") == 1
    assert text.count("socket.accept() out of system resource") == 5
    assert text.count("(traceback as written before)") == 4
    assert "995 more lines from hsm_test_flood not written (more than 5 in 10 s)" in text
    assert text.rstrip().endswith("the flood is over")


def test_what_is_held_back_is_counted_on_close(tmp_path: Path, logger) -> None:
    handler = ServeLog(tmp_path / "serve.log", window=10, burst=2, clock=still)
    logger.addHandler(handler)
    for n in range(7):
        logger.warning("refused %d", n)
    handler.close()
    lines = (tmp_path / "serve.log").read_text().splitlines()
    assert [line.split(": ", 1)[1] for line in lines] == [
        "refused 0",
        "refused 1",
        "5 more lines from hsm_test_flood not written (more than 2 in 10 s)",
    ]


def test_the_log_is_rotated_and_each_file_is_the_gms_alone(tmp_path: Path, logger) -> None:
    path = tmp_path / "serve.log"
    logger.addHandler(ServeLog(path, max_bytes=2000, backups=2, burst=10_000, clock=still))
    for n in range(500):
        logger.warning("kara left (connection %d)", n)
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["serve.log", "serve.log.1", "serve.log.2"]
    for file in files:
        assert stat.S_IMODE(file.stat().st_mode) == 0o600
        assert file.stat().st_size <= 2000
    assert "(connection 499)" in path.read_text()


def test_log_to_keeps_asyncssh_to_its_warnings(tmp_path: Path) -> None:
    root, asyncssh_log = logging.getLogger(), logging.getLogger("asyncssh")
    before = root.handlers[:], root.level, asyncssh_log.level
    try:
        assert log_to(tmp_path) == []
        logging.getLogger("asyncssh").info("[conn=1] Accepted SSH client connection")
        logging.getLogger("hsm_tui.share.server").info("kara joined from 127.0.0.1:5 as player")
        logging.getLogger("asyncssh").warning("[conn=2] something worth the GM's eyes")
    finally:
        for handler in set(root.handlers) - set(before[0]):
            handler.close()
            root.removeHandler(handler)
        root.setLevel(before[1])
        asyncssh_log.setLevel(before[2])
    text = (tmp_path / "serve.log").read_text()
    assert "Accepted SSH client connection" not in text
    assert "kara joined" in text and "worth the GM's eyes" in text
    assert stat.S_IMODE((tmp_path / "serve.log").stat().st_mode) == 0o600
