"""hsm simulate: encounter forecasts through the command line (issue 5)."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from hsm_tui.campaign.combat import HANDLERS, AddCombatants, AddZone
from hsm_tui.campaign.encounter import Combatant, Encounter
from hsm_tui.forecast.simulate import wound_steps
from hsm_tui.packs import Catalog, content_dirs, load
from hsm_tui.rules import Rank

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


STANDOFF = """
[[zone]]
name = "nest"
[[zone]]
name = "den"
[[band]]
between = ["nest", "den"]
band = "medium"
[[combatant]]
entry = "ruin-spider"
side = "spiders"
zone = "nest"
count = 3
[[combatant]]
entry = "xeno-hound"
side = "hounds"
zone = "den"
"""


def test_r_wound_2_minions_taken_out_count_as_wounds_taken() -> None:
    """The pirates are Minions: out by their first wound, never moving a wound marker.
    Their wounds per fight match their combatants out (a bleeding-out one aside).
    """
    result = _hsm("simulate", "--encounter", EXAMPLE, "--runs", "40", "--seed", "7", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    wounds, out = data["wounds_per_fight"]["pirates"], data["out_per_fight"]["pirates"]
    assert out > 1 and wounds == pytest.approx(out, rel=0.05)
    assert data["never_reach"] == []


def test_json_names_the_sides_that_never_reach_and_keeps_the_documented_keys(
    tmp_path: Path,
) -> None:
    path = tmp_path / "standoff.toml"
    path.write_text(STANDOFF)
    result = _hsm("simulate", "--encounter", str(path), "--runs", "3", "--seed", "1", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    documented = {"wins", "draws", "rounds", "wounds_per_fight", "out_per_fight", "runs", "seed"}
    assert documented <= set(data)
    assert data["draws"] == 1 and data["rounds"]["min"] == 30
    assert data["never_reach"] == [
        {"side": "spiders", "target": "hounds", "why": NO_SHORT_BAND},
        {"side": "hounds", "target": "spiders", "why": NO_SHORT_BAND},
    ]


NO_SHORT_BAND = "melee only, and no Short band leads there"


def test_r_combat_2_the_table_names_the_sides_that_never_reach(tmp_path: Path) -> None:
    path = tmp_path / "standoff.toml"
    path.write_text(STANDOFF)
    result = _hsm("simulate", "--encounter", str(path), "--runs", "3", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert f"! spiders can't reach hounds: {NO_SHORT_BAND}" in result.stdout


def _combatant(catalog: Catalog, entry: str, rank: Rank, **changes: object) -> Combatant:
    enc, rng = Encounter(zones=()), random.Random(0)
    kind = {Rank.HERO: "hero", Rank.MINION: "minion"}[rank]
    for command in (AddZone("z"), AddCombatants(kind, entry, "s", "z")):
        enc = HANDLERS[type(command)](enc, command, rng, catalog).encounter
    return dataclasses.replace(enc.combatants[0], **changes)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load(content_dirs([])).catalog


def test_r_wound_1_2_6_wound_steps_between_two_states(catalog: Catalog) -> None:
    raider = _combatant(catalog, "pirate-raider", Rank.MINION)
    assert wound_steps(raider, dataclasses.replace(raider, out=True)) == 1  # R-WOUND-2
    assert wound_steps(raider, raider) == 0
    hero = _combatant(catalog, "kestrel-vance", Rank.HERO)
    hurt = dataclasses.replace(hero, wounds=2)
    assert wound_steps(hero, hurt) == 2  # clean → −1 → −2 (R-WOUND-1)
    severe = dataclasses.replace(hurt, wounds=3, severe=1)
    assert wound_steps(hero, severe) == 3 and wound_steps(hurt, severe) == 1
    again = dataclasses.replace(severe, severe=2)  # a wound while severely wounded
    assert wound_steps(severe, again) == 1
    stunned = dataclasses.replace(hurt, nonlethal=3, unconscious=True)  # −2 lethal, then
    assert wound_steps(hurt, stunned) == 1  # one non-lethal step past it (R-WOUND-6)
    assert wound_steps(hero, dataclasses.replace(hero, nonlethal=2)) == 2
