"""The kept load (issue 22): the same result as a load, taken only while nothing the load
reads has changed; a damaged kept file only means loading afresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from hsm_tui.packs import SHIPPED, load
from hsm_tui.packs import kept as kept_module
from hsm_tui.packs.kept import FILE, load_kept

from .test_loader import weapon, write_pack


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("HSM_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every load that was not taken from the kept file."""
    done: list[object] = []

    def counted(dirs):
        done.append(dirs)
        return load(dirs)

    monkeypatch.setattr(kept_module, "load", counted)
    return done


def test_the_second_load_is_the_kept_one_and_the_same(cache: Path, loads: list[object]):
    first = load_kept([SHIPPED])
    second = load_kept([SHIPPED])
    assert first == second == load([SHIPPED])
    assert len(loads) == 1 and (cache / FILE).is_file()


def test_an_edited_pack_loads_afresh(tmp_path: Path, cache: Path, loads: list[object]):
    pack = write_pack(tmp_path / "mine", "mine", {"weapons.toml": weapon("club")})
    assert [w for w in load_kept([pack]).catalog.weapons] == ["club"]
    (pack / "weapons.toml").write_text(weapon("axe"), encoding="utf-8")  # the same size
    assert [w for w in load_kept([pack]).catalog.weapons] == ["axe"]
    (pack / "more.toml").write_text("", encoding="utf-8")  # a new file: a new warning
    assert any("more.toml" in p.path for p in load_kept([pack]).problems)
    assert len(loads) == 3


def test_other_folders_or_another_working_folder_load_afresh(
    tmp_path: Path, cache: Path, loads: list[object], monkeypatch: pytest.MonkeyPatch
):
    pack = write_pack(tmp_path / "mine", "mine", {"weapons.toml": weapon("club", extra="x = 1")})
    monkeypatch.chdir(tmp_path)
    here = load_kept([pack])
    assert load_kept([pack, tmp_path / "none"]).errors  # no such folder
    monkeypatch.chdir(pack)
    there = load_kept([pack])
    assert here.problems[0].path != there.problems[0].path  # said relative to the cwd
    assert len(loads) == 3


def test_a_damaged_kept_file_loads_afresh(cache: Path, loads: list[object]):
    load_kept([SHIPPED])
    (cache / FILE).write_bytes(b"not a pickle")
    assert load_kept([SHIPPED]) == load([SHIPPED])
    assert load_kept([SHIPPED]) == load([SHIPPED])
    assert len(loads) == 2
