"""The ``hsm odds`` / ``hsm roll`` contract, run as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest


def hsm(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hsm_tui", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def hsm_json(*args: str) -> dict:
    result = hsm(*args, "--json")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def total(dist: dict[str, str]) -> Fraction:
    return sum((Fraction(p) for p in dist.values()), Fraction(0))


# --- hsm odds task ------------------------------------------------------------------


def test_r_task_7_odds_task_tn_6_is_three_fifths():
    data = hsm_json("odds", "task", "--tn", "6")
    assert data["success"] == "3/5"
    assert data["rank"] == "hero"  # default
    assert data["rerolls"] == 0  # default
    assert data["fortune"] == "1/6"


def test_r_task_6_odds_task_minion_with_a_reroll():
    data = hsm_json("odds", "task", "--tn", "6", "--rank", "minion", "--rerolls", "1")
    assert data["success"] == "21/25"


@pytest.mark.parametrize(("tn", "success"), [("0", "1/12"), ("-4", "1/60"), ("-5", "0/1")])
def test_r_task_4_odds_task_below_one(tn, success):
    assert hsm_json("odds", "task", f"--tn={tn}")["success"] == success


# --- hsm odds attack ----------------------------------------------------------------


def test_r_atk_2_odds_attack_hits_map():
    data = hsm_json("odds", "attack", "--tn", "5", "--dice", "3")
    assert set(data["hits"]) == {"0", "1", "2", "3"}
    assert data["hits"]["3"] == "1/8"
    assert total(data["hits"]) == 1
    assert data["rank"] == "hero"


@pytest.mark.parametrize("rank", ["hero", "minion"])
def test_r_atk_2_odds_attack_with_rerolls_sums_to_one(rank):
    data = hsm_json("odds", "attack", "--tn", "0", "--dice", "4", "--rank", rank, "--rerolls", "2")
    assert len(data["hits"]) == 5
    assert total(data["hits"]) == 1


# --- hsm odds defense ---------------------------------------------------------------


def test_r_atk_6_odds_defense_through_map():
    data = hsm_json("odds", "defense", "--hits", "2", "--dodge", "5")
    assert data["cover"] == "none"  # default
    assert data["defense"] == 5
    assert data["through"] == {"0": "1/4", "1": "1/2", "2": "1/4"}
    assert total(data["through"]) == 1


@pytest.mark.parametrize(("cover", "defense"), [("light", 6), ("medium", 7), ("heavy", 8)])
def test_r_atk_6_cover_adds_to_defense(cover, defense):
    data = hsm_json("odds", "defense", "--hits", "3", "--dodge", "5", "--cover", cover)
    assert data["defense"] == defense
    assert total(data["through"]) == 1


def test_r_atk_6_defense_10_stops_everything():
    data = hsm_json("odds", "defense", "--hits", "2", "--dodge", "7", "--cover", "heavy")
    assert Fraction(data["through"]["0"]) == 1


# --- hsm odds wounds ----------------------------------------------------------------


def test_r_dmg_2_odds_wounds_steps():
    data = hsm_json("odds", "wounds", "--damage", "1d6", "--health", "2")
    assert data["steps"] == {"0": "1/3", "1": "1/3", "2": "1/6", "3+": "1/6"}


def test_r_dmg_2_odds_wounds_sum_to_one_with_a_trait():
    data = hsm_json(
        "odds", "wounds", "--damage", "strdie+2d6", "--health", "4", "--trait", "strength=3"
    )
    assert list(data["steps"]) == ["0", "1", "2", "3+"]
    assert total(data["steps"]) == 1


# --- hsm roll -----------------------------------------------------------------------


def test_roll_same_seed_same_dice():
    a = hsm_json("roll", "3d6!+2", "--seed", "11")
    b = hsm_json("roll", "3d6!+2", "--seed", "11")
    assert a == b
    assert a["seed"] == 11
    assert len(a["dice"]) == 3
    assert a["total"] == sum(d["value"] for d in a["dice"]) + 2
    assert all(d["sides"] == 6 and sum(d["rolls"]) == d["value"] for d in a["dice"])


def test_roll_without_seed_reports_the_seed_it_used():
    a = hsm_json("roll", "4d10")
    b = hsm_json("roll", "4d10", "--seed", str(a["seed"]))
    assert (a["total"], a["dice"]) == (b["total"], b["dice"])


def test_roll_top_level_seed_is_honoured():
    assert hsm_json("--seed", "5", "roll", "5d10") == hsm_json("roll", "5d10", "--seed", "5")


def test_roll_with_traits():
    assert hsm_json("roll", "1+Agility", "--trait", "agility=3")["total"] == 4
    assert hsm_json("roll", "charm", "--trait", "Appearance=2")["total"] == 2


# --- readable output ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (("odds", "task", "--tn", "6"), ["3/5", "60.00"]),
        (("odds", "attack", "--tn", "5", "--dice", "2"), ["1/4", "25.00"]),
        (("odds", "defense", "--hits", "1", "--dodge", "4"), ["3/5", "60.00"]),
        (("odds", "wounds", "--damage", "1d6", "--health", "2"), ["1/3", "33.33", "3+"]),
        (("roll", "2d6+1", "--seed", "3"), ["2d6", "=", "(seed 3)"]),
    ],
)
def test_readable_output_without_json(args, shown):
    result = hsm(*args)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    for text in shown:
        assert text in result.stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(result.stdout)


# --- bad input: exit 2, one line on stderr ----------------------------------------------


BAD = {
    "tn not a number": ("odds", "task", "--tn", "six"),
    "tn not whole": ("odds", "task", "--tn", "6.5"),
    "missing tn": ("odds", "task"),
    "missing dice": ("odds", "attack", "--tn", "5"),
    "negative dice": ("odds", "attack", "--tn", "5", "--dice", "-1"),
    "zero dice": ("odds", "attack", "--tn", "5", "--dice", "0"),
    "dice not a number": ("odds", "attack", "--tn", "5", "--dice", "x"),
    "negative rerolls": ("odds", "task", "--tn", "5", "--rerolls", "-1"),
    "sidekick rank": ("odds", "task", "--tn", "5", "--rank", "sidekick"),
    "unknown cover": ("odds", "defense", "--hits", "2", "--dodge", "3", "--cover", "huge"),
    "zero hits": ("odds", "defense", "--hits", "0", "--dodge", "3"),
    "negative dodge": ("odds", "defense", "--hits", "2", "--dodge", "-1"),
    "missing dodge": ("odds", "defense", "--hits", "2"),
    "missing health": ("odds", "wounds", "--damage", "2d6"),
    "zero health": ("odds", "wounds", "--damage", "2d6", "--health", "0"),
    "malformed damage": ("odds", "wounds", "--damage", "2d6+*3", "--health", "3"),
    "subtracted dice": ("odds", "wounds", "--damage", "1d6-1d4", "--health", "3"),
    "unresolved damage trait": ("odds", "wounds", "--damage", "1d6+agility", "--health", "3"),
    "missing odds kind": ("odds",),
    "unknown odds kind": ("odds", "luck"),
    "malformed roll": ("roll", "2d6+*3"),
    "missing sides": ("roll", "2d"),
    "empty roll": ("roll", ""),
    "zero dice roll": ("roll", "0d6"),
    "two numbers": ("roll", "3 4"),
    "unknown name": ("roll", "1+agilty"),
    "unknown trait value": ("roll", "1+agility"),
    "bad trait pair": ("roll", "d6", "--trait", "strength"),
    "strength beyond the table": ("roll", "strdie", "--trait", "strength=9"),
    "seed not a number": ("roll", "d6", "--seed", "abc"),
    "missing expression": ("roll",),
    "unknown command": ("fly",),
}


@pytest.mark.parametrize("args", list(BAD.values()), ids=list(BAD))
@pytest.mark.parametrize("as_json", [False, True], ids=["table", "json"])
def test_bad_input_exits_2_with_one_error_line(args, as_json):
    result = hsm(*args, *(["--json"] if as_json and args[0] != "fly" else []))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("hsm: error: ")
    assert len(lines[0]) > len("hsm: error: ")


def test_error_names_the_problem():
    assert "--tn" in hsm("odds", "task", "--tn", "six").stderr
    assert "position 5" in hsm("roll", "2d6+*3").stderr
    assert "did you mean 'agility'" in hsm("roll", "1+agilty").stderr
    assert "agility" in hsm("roll", "1+agility").stderr
    assert "huge" in hsm("odds", "defense", "--hits", "2", "--dodge", "3", "--cover", "huge").stderr


# --- review findings: hostile input never hangs or prints a traceback ---------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["roll", "9" * 5000],
        ["roll", "9" * 5000 + "d6"],
        ["roll", "d" + "9" * 5000],
        ["odds", "wounds", "--damage", "10d2-10000", "--health", "100"],
        ["odds", "wounds", "--damage", "1d2-10000-10000-10000-10000-10000", "--health", "5"],
        ["odds", "task", "--tn", "٣"],
        ["odds", "task", "--tn", "1_0"],
        ["roll", "２d6"],
    ],
)
def test_hostile_input_is_one_error_line(argv):
    result = subprocess.run(
        [sys.executable, "-m", "hsm_tui", *argv], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hsm: error: ")
    assert len(lines[0]) < 300


def test_content_before_and_after_the_subcommand_both_count(tmp_path):
    for name in ("a", "b"):
        pack = tmp_path / name
        pack.mkdir()
        (pack / "pack.toml").write_text(f'[pack]\nid = "{name}"\nname = "N"\nversion = "1"\n')
    argv = ["--content", str(tmp_path / "a"), "content", "list", "--content", str(tmp_path / "b")]
    result = subprocess.run(
        [sys.executable, "-m", "hsm_tui", *argv, "--json"], capture_output=True, text=True
    )
    assert result.returncode == 0
    check = subprocess.run(
        [
            sys.executable,
            "-m",
            "hsm_tui",
            "content",
            "check",
            str(tmp_path / "a"),
            str(tmp_path / "b"),
        ],
        capture_output=True,
        text=True,
    )
    assert "checked 2 pack(s)" in check.stderr


# --- hsm play [CAMPAIGN] -------------------------------------------------------------


def test_play_refuses_a_bad_campaign_file_before_the_app_starts(tmp_path):
    missing = hsm("play", str(tmp_path / "nope.toml"))
    assert missing.returncode == 2
    assert missing.stderr.startswith("hsm: error: cannot open ") and "nope.toml" in missing.stderr
    broken = tmp_path / "broken.toml"
    broken.write_text('format = "hsm-tui campaign"\nformat_version = 1\nseed = "x"\n')
    result = hsm("play", str(broken))
    assert result.returncode == 2
    assert result.stderr == f"hsm: error: {broken}: key seed: expected a number, found 'x'\n"


def test_play_opens_a_campaign_file(tmp_path, monkeypatch):
    from hsm_tui.campaign.party import AddHero
    from hsm_tui.cli import main
    from hsm_tui.persistence import store
    from hsm_tui.table.session import Session
    from hsm_tui.ui.app import HsmApp

    saved = Session(seed=4)
    saved.load_content()
    saved.apply(AddHero("kestrel-vance"))
    saved.rename("Night at the dig")
    path = store.save(saved, tmp_path / "night.toml")
    opened: list[Session] = []
    monkeypatch.setattr(HsmApp, "run", lambda app: opened.append(app.session))
    assert main(["play", str(path)]) == 0
    (session,) = opened
    assert session.campaign == saved.campaign and session.file == path
    assert session.can_undo and not session.unsaved


def test_play_finds_a_bare_campaign_name_in_the_saves_folder_and_refuses_seed(
    tmp_path, monkeypatch
):
    from hsm_tui.cli import main
    from hsm_tui.persistence import store
    from hsm_tui.table.session import Session
    from hsm_tui.ui.app import HsmApp

    monkeypatch.setenv("HSM_SAVES", str(tmp_path))
    path = store.save(Session(seed=4), tmp_path / "night.toml")
    opened: list[Session] = []
    monkeypatch.setattr(HsmApp, "run", lambda app: opened.append(app.session))
    assert main(["play", "night"]) == 0
    assert opened[0].file == path
    result = hsm("--seed", "3", "play", str(path))
    assert result.returncode == 2
    assert "--seed does not mix with a campaign" in result.stderr


def test_play_refused_leaves_the_garbage_collector_on(tmp_path, monkeypatch, capsys):
    """``hsm`` holds the collector off until its app has loaded the engine; an app that
    never starts (a bad campaign file, a refused --seed) must not leave it off."""
    import gc

    from hsm_tui.cli import main

    bad = tmp_path / "bad.toml"
    bad.write_text("not = [toml")
    for argv in (["play", str(bad)], ["--seed", "3", "play", str(bad)]):
        with pytest.raises(SystemExit):
            main(argv)
        assert gc.isenabled(), argv


def test_a_reader_that_stops_early_gets_no_traceback():
    """``hsm content list | head -1``: the pipe closes before the output is all written."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # closed before hsm writes: its first write meets a broken pipe
    try:
        done = subprocess.run(
            [sys.executable, "-m", "hsm_tui", "content", "list", "--json"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert done.returncode == 1
    assert done.stderr == ""


def test_the_app_losing_its_output_says_so():
    """A broken pipe under ``hsm play`` (or ``serve``) is no reader stopping early: the
    table stopped, so one error line says why, never a traceback."""
    script = (
        "import sys, hsm_tui.ui.app as app\n"
        "def lost(**_): raise BrokenPipeError\n"
        "app.run_app = lost\n"
        "from hsm_tui.cli import main\n"
        "sys.exit(main(['play']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert done.stderr == "hsm: error: the terminal's output closed (broken pipe)\n"
