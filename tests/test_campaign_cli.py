"""``hsm campaign new|check|list|export`` (issue 20, item 4): a fixed contract. Exit 0 when
all is well, 1 for a campaign that exists (``new``) or a file with problems (``check``,
one line each naming the file and the key or line), 2 with one ``hsm: error:`` line for
bad input. ``check`` never changes the file it reads, whatever the file holds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
import tomli_w

from hsm_tui.campaign.party import AddHero, NewAdventure
from hsm_tui.cli import main
from hsm_tui.persistence import store
from hsm_tui.rules import Rank
from hsm_tui.table.session import RollTask, Session
from tests.campaign import pack
from tests.test_persistence import TN, duel

SAVED_AT = datetime(2026, 3, 1, 20, 15, 30)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``hsm *args`` in this process: exit code, stdout, stderr."""
    try:
        code = main(list(args))
    except SystemExit as exit_:
        code = exit_.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err: str) -> str:
    """The single ``hsm: error:`` line bad input prints."""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("hsm: error: "), err
    return lines[0]


def saved_duel(path: Path, name: str = "Dust Sea") -> Path:
    session = duel(seed=1)
    session.rename(name)
    return store.save(session, path, now=SAVED_AT)


# -- new ---------------------------------------------------------------------------------
def test_new_writes_name_toml_in_the_saves_folder_and_refuses_to_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saves = tmp_path / "saves"
    code, out, _ = run(capsys, "campaign", "new", "lost-relics", "--saves", str(saves))
    path = saves / "lost-relics.toml"
    assert (code, out) == (0, f"{path}\n")
    assert store.read(path)["header"]["name"] == "lost-relics"
    before = path.read_bytes()
    code, out, err = run(capsys, "campaign", "new", "lost-relics", "--saves", str(saves))
    assert (code, out) == (1, "")
    assert err == f"hsm: {path} already exists: not overwritten\n"
    assert path.read_bytes() == before


def test_new_keeps_a_plain_name_and_slugs_any_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HSM_SAVES", str(tmp_path))
    assert run(capsys, "campaign", "new", "MyCamp")[:2] == (0, f"{tmp_path / 'MyCamp.toml'}\n")
    code, out, _ = run(capsys, "campaign", "new", "Lost Relics!")
    assert (code, out) == (0, f"{tmp_path / 'lost-relics.toml'}\n")
    session = Session(content=pack())
    store.load(session, tmp_path / "lost-relics.toml")
    assert session.campaign.name == "Lost Relics!"


def test_new_defaults_to_a_saves_folder_in_the_working_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saves").mkdir(exist_ok=True)  # hsm saves here, not in the data folder
    monkeypatch.delenv("HSM_SAVES", raising=False)
    assert run(capsys, "campaign", "new", "x")[:2] == (0, "saves/x.toml\n")
    assert (tmp_path / "saves" / "x.toml").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new", "   "], "a campaign name is 1 to 60 characters"),
        (["new", "x" * 61], "a campaign name is 1 to 60 characters"),
        (["new", "x", "--saves", "{file}"], "is not a folder"),
        (["new"], "the following arguments are required: NAME"),
        (["list", "--saves", "{file}"], "is not a folder"),
        (["check"], "the following arguments are required: FILE"),
        (["export", "{missing}"], "cannot open"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        ([], "the following arguments are required: {new,check,list,export}"),
    ],
)
def test_bad_input_exits_2_with_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    a_file = tmp_path / "f.txt"
    a_file.write_text("not a folder")
    filled = [a.format(file=a_file, missing=tmp_path / "missing.toml") for a in args]
    code, out, err = run(capsys, "campaign", *filled)
    assert (code, out) == (2, "")
    assert message in one_error(err)


# -- check -------------------------------------------------------------------------------
def test_check_a_good_file_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = saved_duel(tmp_path / "duel.toml")
    assert run(capsys, "campaign", "check", str(path)) == (
        0,
        "",
        "checked 1 file(s): 0 problem(s)\n",
    )


def _good(tmp_path: Path) -> bytes:
    return saved_duel(tmp_path / "good.toml").read_bytes()


def _edited(tmp_path: Path, **top: object) -> bytes:
    import tomllib

    data = tomllib.loads(_good(tmp_path).decode())
    data.update(top)
    return tomli_w.dumps(data).encode()


CORRUPT = {
    "empty": (lambda _: b"", "{f}: the file is empty (not a campaign)"),
    "blank": (lambda _: b"  \n\n", "{f}: the file is empty (not a campaign)"),
    "truncated": (
        lambda t: _good(t)[:700],
        "{f}: not valid TOML: ",
    ),
    "not-toml": (
        lambda _: b"<html>hello</html>\n",
        "{f}: not valid TOML: Invalid statement (at line 1, column 1)",
    ),
    "utf-16": (
        lambda t: _good(t).decode().encode("utf-16"),
        "{f}: UTF-16 text; a campaign file is UTF-8",
    ),
    "latin-1": (
        lambda _: 'format = "caf\xe9"\n'.encode("latin-1"),
        "{f}: not a text file (not UTF-8 at line 1: byte 0xe9)",
    ),
    "other-toml": (
        lambda _: b'title = "a pack"\n',
        "{f}: not an hsm-tui campaign (key 'format' is not 'hsm-tui campaign')",
    ),
    "future-version": (
        lambda t: _edited(t, format_version=9),
        "{f}: format_version 9 is newer than this hsm-tui reads (6): open it with a newer hsm-tui",
    ),
    "version-text": (
        lambda t: _edited(t, format_version="2"),
        "{f}: key format_version is '2'; this hsm-tui reads versions 1 to 6",
    ),
    "wrong-typed-seed": (lambda t: _edited(t, seed="x"), "{f}: key seed: expected a number"),
    "wrong-typed-header": (
        lambda t: _edited(t, header={"name": 3}),
        "{f}: key header.name: missing, or not a str",
    ),
    "stale-header": (
        lambda t: _edited(
            t, header={"name": "Other", "party": [], "adventure": 1, "in_combat": True}
        ),
        "{f}: key header: does not match the campaign in state (edited by hand?)",
    ),
}


@pytest.mark.parametrize("kind", list(CORRUPT))
def test_check_names_each_problem_and_never_changes_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    make, expected = CORRUPT[kind]
    path = tmp_path / "bad.toml"
    path.write_bytes(make(tmp_path))
    os.utime(path, (1_000, 1_000))
    before = (path.read_bytes(), path.stat().st_mtime, sorted(os.listdir(tmp_path)))
    code, out, err = run(capsys, "campaign", "check", str(path))
    assert code == 1
    [line] = out.splitlines()
    assert line.startswith(expected.format(f=path)), line
    assert err == "checked 1 file(s): 1 problem(s)\n"
    assert (path.read_bytes(), path.stat().st_mtime, sorted(os.listdir(tmp_path))) == before


def test_check_several_files_one_line_per_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = saved_duel(tmp_path / "good.toml")
    empty = tmp_path / "empty.toml"
    empty.write_bytes(b"")
    missing = tmp_path / "missing.toml"
    code, out, err = run(capsys, "campaign", "check", str(good), str(empty), str(missing))
    assert code == 1
    assert out.splitlines() == [
        f"{empty}: the file is empty (not a campaign)",
        f"cannot open {missing}: No such file or directory",
    ]
    assert err == "checked 3 file(s): 2 problem(s)\n"


def test_check_names_the_key_of_a_bad_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _good(tmp_path).decode().replace('rank = "minion"', 'rank = "boss"', 1)
    path = tmp_path / "boss.toml"
    path.write_text(text)
    code, out, _ = run(capsys, "campaign", "check", str(path))
    assert code == 1
    assert out == (
        f"{path}: key state.encounter.combatants[1].rank: expected one of hero, sidekick,"
        " minion, found 'boss'\n"
    )


# -- list --------------------------------------------------------------------------------
def _campaign(folder: Path, name: str, *commands: object, mtime: int) -> Path:
    session = Session(seed=3, content=pack())
    session.rename(name)
    for command in commands:
        session.apply(command)  # type: ignore[arg-type]
    path = store.save(session, folder / store.file_name(name), now=SAVED_AT)
    os.utime(path, (mtime, mtime))
    return path


def test_list_json_newest_first_with_errors_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    relics = _campaign(tmp_path, "Lost Relics", AddHero("kestrel-vance"), NewAdventure(), mtime=1)
    dust = saved_duel(tmp_path / "dust-sea.toml")
    os.utime(dust, (3, 3))
    broken = tmp_path / "broken.toml"
    broken.write_text("format = = 1\n")
    os.utime(broken, (2, 2))
    code, out, err = run(capsys, "campaign", "list", "--saves", str(tmp_path), "--json")
    assert (code, err) == (0, "")
    first, second, third = json.loads(out)
    assert first == {
        "file": str(dust),
        "name": "Dust Sea",
        "party": [],
        "adventure": 1,
        "in_combat": True,
        "saved": "2026-03-01 20:15:30",
    }
    assert second["file"] == str(broken) and "line 1" in second["error"]
    assert third == {
        "file": str(relics),
        "name": "Lost Relics",
        "party": ["Kestrel Vance"],
        "adventure": 2,
        "in_combat": False,
        "saved": "2026-03-01 20:15:30",
    }


def test_list_as_a_table_and_of_an_empty_or_missing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _campaign(tmp_path, "Lost Relics", AddHero("kestrel-vance"), mtime=1)
    (tmp_path / "bad.toml").write_text("")
    os.utime(tmp_path / "bad.toml", (0, 0))
    code, out, _ = run(capsys, "campaign", "list", "--saves", str(tmp_path))
    assert code == 0
    assert out.splitlines() == [
        "Lost Relics · Kestrel Vance · adventure 1 · not in combat · saved 2026-03-01 20:15:30"
        f" · {tmp_path / 'lost-relics.toml'}",
        f"⚠ {tmp_path / 'bad.toml'}: the file is empty (not a campaign)",
    ]
    missing = str(tmp_path / "nowhere")
    assert run(capsys, "campaign", "list", "--saves", missing, "--json") == (0, "[]\n", "")


# -- export ------------------------------------------------------------------------------
def _with_a_story(path: Path) -> Path:
    session = Session(seed=5, content=pack())
    session.rename("Lost *Relics*")
    session.apply(AddHero("kestrel-vance"))
    session.apply(RollTask(TN, Rank.HERO, who="party:kestrel-vance"))
    return store.save(session, path, now=SAVED_AT)


def test_export_prints_the_log_as_markdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _with_a_story(tmp_path / "story.toml")
    code, out, err = run(capsys, "campaign", "export", str(path), "--markdown")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:3] == [
        r"# Lost \*Relics\*",
        "",
        "Adventure 1 · party: Kestrel Vance · saved 2026-03-01 20:15:30",
    ]
    titles = [line for line in lines if line.startswith("## ")]
    assert titles[0].startswith("## #1 ") and len(titles) == 2
    assert any(line.startswith("- ") for line in lines)


def test_export_out_writes_the_file_and_a_bad_campaign_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _with_a_story(tmp_path / "story.toml")
    out_path = tmp_path / "story.md"
    assert run(capsys, "campaign", "export", str(path), "--out", str(out_path)) == (0, "", "")
    assert out_path.read_text().startswith(r"# Lost \*Relics\*")
    code, _, err = run(capsys, "campaign", "export", str(path), "--out", str(path / "x.md"))
    assert code == 2
    assert one_error(err) == f"hsm: error: cannot write {path / 'x.md'}: Not a directory"
    bad = tmp_path / "bad.toml"
    bad.write_text("")
    code, _, err = run(capsys, "campaign", "export", str(bad))
    assert code == 2
    assert one_error(err) == f"hsm: error: {bad}: the file is empty (not a campaign)"


# -- the real command --------------------------------------------------------------------
def test_the_contract_through_a_subprocess(tmp_path: Path) -> None:
    def hsm(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "hsm_tui", "campaign", *args],
            capture_output=True,
            text=True,
            timeout=60,
        )

    made = hsm("new", "night-run", "--saves", str(tmp_path))
    assert (made.returncode, made.stdout) == (0, f"{tmp_path / 'night-run.toml'}\n")
    assert hsm("new", "night-run", "--saves", str(tmp_path)).returncode == 1
    assert hsm("check", str(tmp_path / "night-run.toml")).returncode == 0
    (tmp_path / "bad.toml").write_text("[")
    bad = hsm("check", str(tmp_path / "bad.toml"))
    assert bad.returncode == 1 and bad.stdout.startswith(f"{tmp_path / 'bad.toml'}: not valid")
    listed = hsm("list", "--saves", str(tmp_path), "--json")
    assert [row.get("name") for row in json.loads(listed.stdout)] == [None, "night-run"]
    assert hsm("export", str(tmp_path / "night-run.toml")).stdout.startswith("# night-run\n")
    wrong = hsm("list", "--bogus")
    assert wrong.returncode == 2 and wrong.stderr.startswith("hsm: error: ")
