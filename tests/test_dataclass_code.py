"""The dataclass methods kept between starts (issue 22): the same classes come out, a
kept file is used instead of compiling, and a bad file only means compiling again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROBE = """
import dataclasses, json, sys
from hsm_tui import dataclass_code
dataclass_code.install()

@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int = 2
    def total(self) -> int:
        return self.x + self.y

p = Point(1)
try:
    p.x = 5
    frozen = False
except dataclasses.FrozenInstanceError:
    frozen = True
facts = {
    "repr": repr(p), "eq": p == Point(1, 2), "hash": hash(p) == hash(Point(1, 2)),
    "frozen": frozen, "init": str(Point.__init__.__annotations__),
    "total": p.total(), "compiled": dataclass_code._compiled,
}
dataclass_code.save()
print(json.dumps(facts))
"""


def _run(cache: Path, hook: bool = True) -> dict[str, object]:
    import json
    import os

    code = PROBE if hook else PROBE.replace("dataclass_code.install()", "")
    env = {**os.environ, "HSM_CACHE_DIR": str(cache)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_classes_come_out_as_without_the_cache_and_the_second_start_compiles_nothing(
    tmp_path: Path,
):
    plain = _run(tmp_path / "unused", hook=False)
    first = _run(tmp_path)
    second = _run(tmp_path)
    assert first["compiled"] and not second["compiled"]
    del plain["compiled"], first["compiled"], second["compiled"]
    assert plain == first == second
    assert plain["init"] == "{'x': <class 'int'>, 'y': <class 'int'>, 'return': None}"


def test_a_damaged_file_is_compiled_anew_and_replaced(tmp_path: Path):
    _run(tmp_path)
    (kept,) = tmp_path.glob("dataclass-code-*.marshal")
    kept.write_bytes(b"\x00 not marshal")
    assert _run(tmp_path)["compiled"]
    assert not _run(tmp_path)["compiled"]


def test_a_folder_that_cannot_be_written_is_no_error(tmp_path: Path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert _run(blocker / "below")["compiled"]  # a file where the folder would be
