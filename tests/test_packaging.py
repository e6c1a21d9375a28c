"""hsm-tui installs like a tool: the wheel holds the shipped packs, and an ``hsm`` installed
from it into a fresh environment checks its content and makes a campaign from an empty
folder, its saves in the user's data folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_listed_packages_are_every_package_folder():
    """pyproject lists the packages (so that content/ can be one of them): a new package
    folder missing from the list would be missing from every install."""
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "hsm_tui").rglob("__init__.py")
    }
    assert listed == found | {"hsm_tui.content"}


def test_saves_go_to_the_data_folder_outside_a_checkout(tmp_path, monkeypatch):
    from hsm_tui.persistence.store import saves_folder

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert saves_folder() == tmp_path / "data" / "hsm-tui" / "saves"
    (tmp_path / "saves").mkdir()
    assert saves_folder() == Path("saves")
    monkeypatch.setenv("HSM_SAVES", str(tmp_path / "elsewhere"))
    assert saves_folder() == tmp_path / "elsewhere"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding hsm-tui installed from a wheel built from this checkout; its
    dependencies are this environment's, seen through a ``.pth`` line (the network may
    not be there), which adds the folder but runs none of the ``.pth`` files in it, so
    this checkout's editable install stays out of sight."""
    root = tmp_path_factory.mktemp("install")
    source, wheels = root / "source", root / "wheels"
    skip = shutil.ignore_patterns("__pycache__")  # a copy: a build leaves build/ behind
    for folder in ("hsm_tui", "content"):
        shutil.copytree(ROOT / folder, source / folder, ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(wheels), str(source)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    env = root / "venv"
    venv.EnvBuilder(with_pip=False).create(env)
    ours = sysconfig.get_path("purelib")
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    theirs = subprocess.run(
        [str(env / "bin" / "python"), "-c", where], check=True, capture_output=True, text=True
    ).stdout.strip()
    (Path(theirs) / "dependencies.pth").write_text(ours + "\n")
    wheel = next(wheels.glob("hsm_tui-*.whl"))
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(env / "bin" / "python"), "install",
         "--no-deps", "--no-index", "-q", str(wheel)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    return env / "bin" / "hsm"


def _run(hsm: Path, folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("HSM_SAVES", "PYTHONPATH")} | {
        "XDG_DATA_HOME": str(folder / "data"),
        "HSM_CACHE_DIR": str(folder / "cache"),
    }
    return subprocess.run(
        [str(hsm), *args], cwd=folder, env=env, capture_output=True, text=True, timeout=120
    )


def test_an_installed_hsm_checks_its_shipped_content_from_an_empty_folder(installed, tmp_path):
    done = _run(installed, tmp_path, "content", "check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "checked 1 pack(s): 0 error(s), 0 warning(s)" in done.stderr
    listing = _run(installed, tmp_path, "content", "list", "weapons", "--json")
    assert '"pack": "relic-worlds"' in listing.stdout


def test_an_installed_hsm_makes_a_campaign_in_the_data_folder(installed, tmp_path):
    done = _run(installed, tmp_path, "campaign", "new", "Lost Relics")
    assert done.returncode == 0, done.stderr
    made = tmp_path / "data" / "hsm-tui" / "saves" / "lost-relics.toml"
    assert done.stdout.strip() == str(made) and made.is_file()
    assert list(tmp_path.iterdir()) == [tmp_path / "data"]  # nothing left in the folder
    listed = _run(installed, tmp_path, "campaign", "list")
    assert "Lost Relics" in listed.stdout


def test_an_installed_hsm_runs_its_own_code_and_says_its_version(installed, tmp_path):
    from hsm_tui import __version__

    done = _run(installed, tmp_path, "--version")
    assert done.stdout.strip() == f"hsm-tui {__version__}"
    where = subprocess.run(
        [str(installed.parent / "python"), "-c", "import hsm_tui; print(hsm_tui.__file__)"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert str(installed.parents[1]) in where.stdout  # the wheel's, not this checkout's
