"""hsm simulate: encounter forecasts through the command line (issue 5)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = "content/encounters/dig-site-ambush.toml"


def _hsm(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hsm_tui", *argv], capture_output=True, text=True, timeout=120
    )


def test_forecast_json_shape_and_sums() -> None:
    result = _hsm("simulate", "--encounter", EXAMPLE, "--runs", "30", "--seed", "7", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["runs"] == 30 and data["seed"] == 7
    assert set(data["wins"]) == {"expedition", "pirates"}
    assert abs(sum(data["wins"].values()) + data["draws"] - 1) < 1e-9
    assert 1 <= data["rounds"]["min"] <= data["rounds"]["mean"] <= data["rounds"]["max"] <= 30
    assert set(data["out_per_fight"]) == {"expedition", "pirates"}


def test_same_seed_same_forecast_whatever_the_jobs() -> None:
    base = ["simulate", "--encounter", EXAMPLE, "--runs", "120", "--seed", "3", "--json"]
    one = _hsm(*base, "--jobs", "1")
    two = _hsm(*base, "--jobs", "2")
    assert one.returncode == two.returncode == 0
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_table_output() -> None:
    result = _hsm("simulate", "--encounter", EXAMPLE, "--runs", "10", "--seed", "1")
    assert result.returncode == 0 and "wins" in result.stdout and "rounds:" in result.stdout


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[[zone]]\nname = 'a'\n", "at least two sides"),
        ("not = [toml", "not valid TOML"),
        (
            "[[zone]]\nname = 'a'\n[[combatant]]\nentry = 'nobody'\nside = 's'\nzone = 'a'\n",
            "no hero, sidekick or minion 'nobody'",
        ),
        ("[[zone]]\nname = 'a'\n[[band]]\nbetween = ['a']\nband = 'short'\n", "band #1 needs"),
    ],
)
def test_bad_encounter_files_are_one_error_line(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "enc.toml"
    path.write_text(text)
    result = _hsm("simulate", "--encounter", str(path), "--runs", "5")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hsm: error: ") and says in lines[0]


def test_missing_encounter_file() -> None:
    result = _hsm("simulate", "--encounter", "/no/such/file.toml")
    assert result.returncode == 2 and "cannot read" in result.stderr
