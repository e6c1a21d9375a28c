"""Memory over reconnects, with a real client and /proc: a seat that logs in and out over
and over leaves nothing of its apps behind in the server.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from .conftest import Table, until


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS in /proc/self/status")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc")
async def test_thirty_logins_and_logouts_leave_nothing_behind(table: Table):
    async def visit() -> None:
        kara = await table.join("kara")
        await kara.shows("seat kara")
        kara.conn.close()
        await kara.ended()
        table.conns.remove(kara.conn)  # the test keeps no client and no app (the fixture
        table.built.clear()  # would): only what the server keeps is measured
        await until(lambda: not table.server.connections, lambda: "kara still seated")

    for _ in range(20):  # caches fill, the allocator grows to what a visit needs
        await visit()
    gc.collect()
    objects, rss = len(gc.get_objects()), rss_kib()
    for _ in range(30):
        await visit()
    gc.collect()
    grown = len(gc.get_objects()) - objects
    assert grown < 1000  # each visit left its app's hundreds of render objects behind
    assert rss_kib() - rss < 2048
