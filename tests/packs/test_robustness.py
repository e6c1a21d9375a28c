"""Hostile packs never crash the loader (review findings), and no error hides another."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hsm_tui.packs import Code, Severity, load

PACK = '[pack]\nid = "p"\nname = "P"\nversion = "1"\n'
MINION = (
    '[[minion]]\nid = "m"\nname = "M"\n'
    "traits = {{ strength = {s}, agility = {a}, knowledge = 1, savvy = 1, senses = 1,"
    " charm = 1, luck = 1 }}\n"
)


def _pack(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "pack.toml").write_text(PACK)
    for name, text in files.items():
        (folder / f"{name}.toml").write_text(text)
    return folder


def test_symlink_loop_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    folder = _pack(tmp_path)
    os.symlink(folder / "heroes.toml", folder / "heroes.toml")
    loop = tmp_path / "loop"
    os.symlink(loop, loop)
    result = load([folder, loop])
    assert any(p.code is Code.IO for p in result.problems)


def test_integer_too_long_to_convert(tmp_path: Path) -> None:
    folder = _pack(tmp_path, weapons='[[weapon]]\nid = "w"\npower = ' + "9" * 5000 + "\n")
    [problem] = [p for p in load([folder]).problems if p.code is Code.SYNTAX]
    assert problem.line == 3 and problem.path.endswith("weapons.toml")


def test_deeply_nested_tables(tmp_path: Path) -> None:
    folder = _pack(tmp_path, weapons="x = " + "{a = " * 2000 + "1" + "}" * 2000 + "\n")
    assert any(p.code is Code.SYNTAX for p in load([folder]).problems)


def test_attacks_out_of_range_is_one_line(tmp_path: Path) -> None:
    folder = _pack(
        tmp_path,
        weapons='[[weapon]]\nid = "w"\nname = "W"\nkind = "ranged"\nskill = "pistols"\n'
        'attacks = 20000\ndamage = "1d6"\nrange = "short"\n',
    )
    [problem] = load([folder]).problems
    assert problem.code is Code.RANGE and problem.line == 6 and "\n" not in problem.message


def test_every_bad_trait_is_reported(tmp_path: Path) -> None:
    folder = _pack(tmp_path, minions=MINION.format(s=9, a=0))
    keys = {p.key for p in load([folder]).problems if p.severity is Severity.ERROR}
    assert keys == {"traits.strength", "traits.agility"}


def test_an_error_does_not_hide_an_unknown_key_warning(tmp_path: Path) -> None:
    folder = _pack(
        tmp_path,
        sidekicks=MINION.format(s=2, a=2).replace("[[minion]]", "[[sidekick]]")
        + 'equipment = [{ name = "rope", enc = -1, locaton = "belt" }]\n',
    )
    found = {(p.code, p.key) for p in load([folder]).problems}
    assert (Code.RANGE, "equipment.enc") in found
    assert (Code.UNKNOWN_KEY, "equipment.locaton") in found


def test_escaped_quotes_in_multiline_strings_keep_later_lines(tmp_path: Path) -> None:
    folder = _pack(
        tmp_path,
        weapons='[[weapon]]\nid = "w"\nname = "W"\ntext = """say \\"""hi\\""" """\n'
        'kind = "ranged"\nskill = "pistols"\nattacks = 1\ndamage = "1d6"\nrange = "nowhere"\n',
    )
    [problem] = load([folder]).problems
    assert (problem.key, problem.line) == ("range", 9)


@pytest.mark.parametrize("target", ["a-file.toml"])
def test_a_file_given_as_a_pack_says_so(tmp_path: Path, target: str) -> None:
    path = tmp_path / target
    path.write_text("")
    [problem] = load([path]).problems
    assert problem.code is Code.IO and "not a folder" in problem.message
