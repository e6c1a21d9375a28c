"""``hsm content check`` / ``hsm content list``, run as a real subprocess (the contract).

check: one ``path:line: error|warning: message`` line per problem on stdout, a summary on
stderr, exit 1 on any error (on any problem with ``--strict``). list: ``--json`` prints one
JSON list of objects with at least id, name, pack (and kind).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hsm_tui.packs import ENV_VAR, load

from .test_fixtures import CASES, FIXTURES

MAIN = Path(__file__).resolve().parents[2]
LINE = re.compile(r"^[^:]+:\d+: (error|warning): .+$")
TRAITS = "{ strength = 3, agility = 2, knowledge = 1, savvy = 1, senses = 2, charm = 1, luck = 1 }"
SUMMARY = re.compile(r"^checked (\d+) pack\(s\): (\d+) error\(s\), (\d+) warning\(s\)$")


def hsm(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, ENV_VAR: "", **(env or {})}
    result = subprocess.run(
        [sys.executable, "-m", "hsm_tui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=MAIN,
        env=environ,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


def summary(result: subprocess.CompletedProcess[str]) -> tuple[int, int, int]:
    (line,) = result.stderr.strip().splitlines()
    match = SUMMARY.match(line)
    assert match, line
    return int(match[1]), int(match[2]), int(match[3])


def user_pack(folder: Path, pack_id: str = "my-pack") -> Path:
    folder.mkdir(parents=True)
    (folder / "pack.toml").write_text(
        f'[pack]\nid = "{pack_id}"\nname = "Mine"\nversion = "0.1"\nrequires = ["relic-worlds"]\n'
    )
    (folder / "minions.toml").write_text(
        textwrap.dedent(f"""\
            [[minion]]
            id = "dock-thug"
            name = "Dock thug"
            traits = {TRAITS}
            weapons = ["relic-worlds:stun-baton"]
            """)
    )
    return folder


# -- check ------------------------------------------------------------------------------------


def test_check_of_the_shipped_pack_is_clean():
    result = hsm("content", "check")
    assert result.returncode == 0
    assert result.stdout == ""
    assert summary(result) == (1, 0, 0)


def test_check_of_the_shipped_pack_folder_given_explicitly():
    result = hsm("content", "check", "content/relic-worlds")
    assert (result.returncode, result.stdout) == (0, "")
    assert summary(result) == (1, 0, 0)


@pytest.mark.parametrize("name", sorted(CASES))
def test_check_prints_one_line_per_problem(name):
    expected = CASES[name].problems
    result = hsm("content", "check", f"tests/packs/fixtures/{name}")
    lines = result.stdout.splitlines()
    assert all(LINE.match(line) for line in lines), lines
    assert len(lines) == len(expected)
    errors = sum(p.severity.value == "error" for p in expected)
    assert summary(result)[1:] == (errors, len(expected) - errors)
    assert result.returncode == (1 if errors else 0)
    # each line starts with the path and line of the problem, as load() reports it
    own = load([FIXTURES / name]).problems
    assert sorted(line.split(": ")[0] for line in lines) == sorted(
        f"{p.path}:{p.line}" for p in own
    )
    for line in lines:
        path = line.split(":")[0]
        assert Path(MAIN / path).resolve().is_relative_to((FIXTURES / name).resolve())


def test_check_line_format_of_a_syntax_error():
    result = hsm("content", "check", "tests/packs/fixtures/01-toml-syntax-error")
    assert result.stdout == (
        "tests/packs/fixtures/01-toml-syntax-error/minions.toml:9: error: "
        "TOML syntax: Invalid value (column 8)\n"
    )
    assert result.returncode == 1


def test_warnings_alone_exit_0_and_1_with_strict():
    folder = "tests/packs/fixtures/09-unknown-key-in-entry"
    relaxed = hsm("content", "check", folder)
    assert relaxed.returncode == 0
    assert relaxed.stdout.splitlines() == [
        f"{folder}/weapons.toml:9: warning: weapon 'zap-pistol': two_handd: unknown key"
        " (did you mean 'two_handed'?)"
    ]
    strict = hsm("content", "check", folder, "--strict")
    assert strict.returncode == 1
    assert strict.stdout == relaxed.stdout
    assert hsm("content", "check", "--strict").returncode == 0  # the shipped pack: no warning


def test_check_of_several_folders_reports_each():
    result = hsm(
        "content",
        "check",
        "tests/packs/fixtures/04-wrong-type-string-for-int",
        "tests/packs/fixtures/21-unknown-range",
    )
    # both fixtures are pack "fixture": the second is a duplicate pack and not read
    assert result.returncode == 1
    assert len(result.stdout.splitlines()) == 2
    assert "pack 'fixture' is already loaded from" in result.stdout


def test_check_of_a_missing_folder():
    result = hsm("content", "check", "no/such/folder")
    assert result.returncode == 1
    assert result.stdout == "no/such/folder:0: error: no such folder\n"


def test_check_without_dirs_covers_packs_from_the_environment(tmp_path):
    broken = tmp_path / "broken"
    user_pack(broken)
    (broken / "weapons.toml").write_text('[[weapon]]\nid = "x"\n')
    result = hsm("content", "check", env={ENV_VAR: str(broken)})
    assert result.returncode == 1
    assert all(line.startswith(str(broken)) for line in result.stdout.splitlines())
    assert summary(result)[0] == 2  # the shipped pack and the user pack


# -- list -------------------------------------------------------------------------------------


def test_list_json_has_id_name_pack_and_kind():
    result = hsm("content", "list", "--json")
    assert result.returncode == 0 and result.stderr == ""
    rows = json.loads(result.stdout)
    assert isinstance(rows, list) and rows
    for row in rows:
        assert isinstance(row, dict)
        assert {"id", "name", "pack", "kind"} <= set(row)
        assert all(isinstance(row[k], str) and row[k] for k in ("id", "name", "pack", "kind"))
    kinds = {row["kind"] for row in rows}
    assert kinds == {"weapon", "minion", "sidekick", "hero"}
    catalog = load([MAIN / "content"]).catalog
    assert len(rows) == sum(
        len(catalog.kind(k)) for k in ("weapons", "minions", "sidekicks", "heroes")
    )
    assert {"assault-laser", "laser-pistol", "sonic-relik", "whip", "dagger", "bow"} <= {
        row["id"] for row in rows if row["kind"] == "weapon"
    }


def test_list_minions():
    as_json = json.loads(hsm("content", "list", "minions", "--json").stdout)
    assert as_json and {row["kind"] for row in as_json} == {"minion"}
    assert {row["pack"] for row in as_json} == {"relic-worlds"}
    table = hsm("content", "list", "minions")
    assert table.returncode == 0
    for row in as_json:
        assert row["id"] in table.stdout
    assert "laser-pistol" not in table.stdout


def test_list_of_an_unknown_kind_is_a_usage_error():
    result = hsm("content", "list", "dragons")
    assert result.returncode == 2
    assert result.stderr.startswith("hsm: error: ")


@pytest.mark.parametrize("where", ["subcommand", "top-level", "environment", "parent-folder"])
def test_a_user_pack_appears_in_list(tmp_path, where):
    folder = user_pack(tmp_path / "packs" / "my-pack")
    if where == "subcommand":
        result = hsm("content", "list", "minions", "--json", "--content", str(folder))
    elif where == "top-level":
        result = hsm("--content", str(folder), "content", "list", "minions", "--json")
    elif where == "environment":
        result = hsm("content", "list", "minions", "--json", env={ENV_VAR: str(folder)})
    else:  # a folder of packs
        result = hsm("content", "list", "minions", "--json", "--content", str(folder.parent))
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert {"kind": "minion", "id": "dock-thug", "name": "Dock thug", "pack": "my-pack"} in rows
    assert any(row["pack"] == "relic-worlds" for row in rows)  # the shipped ones stay


def test_check_of_a_user_pack_given_by_content_is_clean(tmp_path):
    folder = user_pack(tmp_path / "my-pack")
    result = hsm("content", "check", "--content", str(folder))
    assert (result.returncode, result.stdout) == (0, "")
    assert summary(result) == (2, 0, 0)


def test_environment_path_lists_several_folders(tmp_path):
    one = user_pack(tmp_path / "one", "pack-one")
    two = tmp_path / "two"
    two.mkdir()
    (two / "pack.toml").write_text('[pack]\nid = "pack-two"\nname = "Two"\nversion = "1"\n')
    (two / "weapons.toml").write_text(
        '[[weapon]]\nid = "pipe"\nname = "Pipe"\nkind = "melee"\nskill = "power"\n'
        'damage = "1d6"\nrange = "melee"\n'
    )
    env = {ENV_VAR: os.pathsep.join([str(one), str(two)])}
    rows = json.loads(hsm("content", "list", "--json", env=env).stdout)
    packs = {row["id"]: row["pack"] for row in rows}
    assert packs["dock-thug"] == "pack-one" and packs["pipe"] == "pack-two"
