"""Campaign files you can trust for months (issue 20, items 2 and 3 and the reliability
run): versions migrate step by step, backups rotate, a crashed save's temporary files are
cleaned, a kill -9 mid-save never leaves a torn file, and hostile files (a symlink to
``/dev/zero``, a FIFO, a huge file, duplicate ids, a huge declared action count) are
refused with a message instead of a crash or a hang, in saves and in content packs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from datetime import datetime
from pathlib import Path

import pytest
import tomli_w

from hsm_tui.campaign.combat import DeclareActions, EndTurn
from hsm_tui.campaign.freeflow import RollTask
from hsm_tui.campaign.party import AddHero
from hsm_tui.persistence import atomic, autosave, reader, store, unfinished, versions
from hsm_tui.persistence.store import CampaignFileError
from hsm_tui.rules import Rank, task_tn
from hsm_tui.table.session import Session
from hsm_tui.table.visibility import TITLED
from tests.campaign import pack, refused
from tests.test_persistence import as_played, duel, everything

FIXTURES = Path(__file__).parent / "fixtures" / "versions"
SAVED_AT = datetime(2026, 3, 1, 20, 15, 30)


def hsm(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hsm_tui", *args], capture_output=True, text=True, timeout=timeout
    )


# -- versions ----------------------------------------------------------------------------
def test_every_older_version_has_a_step_up_to_the_current_one() -> None:
    assert sorted(versions.STEPS) == list(range(1, versions.VERSION))
    assert store.VERSION == versions.VERSION == 6


def test_version_1_to_2_adds_the_header_from_the_state() -> None:
    data = tomllib.loads((FIXTURES / "v1.toml").read_text(encoding="utf-8"))
    assert data["format_version"] == 1 and "header" not in data
    migrated = versions.STEPS[1](data)
    assert migrated["header"] == {
        "name": "Dust Sea",
        "party": [],
        "adventure": 1,
        "in_combat": True,
    }
    assert {k: v for k, v in migrated.items() if k != "header"} == data  # nothing else changed
    assert data["format_version"] == 1  # the data read is not changed in place


def test_a_version_1_file_opens_lists_checks_and_saves_as_version_3(tmp_path: Path) -> None:
    path = tmp_path / "dust-sea.toml"
    shutil.copy(FIXTURES / "v1.toml", path)
    session = Session(content=pack())
    assert store.load(session, path).startswith("undo history of")
    assert as_played(session) == as_played(_duel_named("Dust Sea"))
    [entry] = store.recent(tmp_path)
    assert isinstance(entry, store.SavedCampaign) and entry.name == "Dust Sea" and entry.in_combat
    assert hsm("campaign", "check", str(path)).returncode == 0
    store.save(session, path)
    assert tomllib.loads(path.read_text())["format_version"] == versions.VERSION
    assert (tmp_path / "dust-sea.toml.bak1").read_bytes() == (FIXTURES / "v1.toml").read_bytes()


ODD = "Kestrel's '''odd''' trick \x7f"
"""A task label a TOML literal string cannot hold as it is: the v2 fixture rolled it."""


def _v2_session() -> Session:
    """The session ``fixtures/versions/v2.toml`` holds, played again."""
    session = _duel_named("Dust Sea")
    session.apply(RollTask(task_tn([("Agility", 3), ("Senses", 2)]), Rank.MINION, ODD))
    session.apply(EndTurn())
    session.apply(EndTurn())
    session.undo()
    return session


def test_version_2_to_3_puts_each_log_entry_and_undo_step_on_a_line_as_it_was() -> None:
    data = tomllib.loads((FIXTURES / "v2.toml").read_text(encoding="utf-8"))
    assert data["format_version"] == 2
    migrated = versions.STEPS[2](data)
    for table, key in ((("state",), "log"), (("undo",), "commands"), (("undo", "start"), "log")):
        old, new = data, migrated
        for name in table:
            old, new = old[name], new[name]
        titled = [  # version 2's lines never marked the GM's numbers (visibility.TITLED)
            {**e, "visibility": TITLED} if key == "log" and e["lines"] else e for e in old[key]
        ]
        assert [json.loads(line) for line in new[key].splitlines()] == titled
        assert {k: v for k, v in new.items() if k not in (key, "start")} == {
            k: v for k, v in old.items() if k not in (key, "start")
        }  # nothing else changed
    assert {k: v for k, v in migrated.items() if k not in ("state", "undo")} == {
        k: v for k, v in data.items() if k not in ("state", "undo")
    }
    assert "'" not in migrated["state"]["log"] and "\x7f" not in migrated["state"]["log"]
    assert data["state"]["log"][0] == {  # the data read is not changed in place
        "seq": 1,
        "issuer": "gm",
        "title": "Zone ridge",
        "lines": [],
        "visibility": "public",
    }


def test_a_version_2_file_opens_with_its_undo_history_and_saves_as_version_3(
    tmp_path: Path,
) -> None:
    path = tmp_path / "dust-sea.toml"
    shutil.copy(FIXTURES / "v2.toml", path)
    assert hsm("campaign", "check", str(path)).returncode == 0
    session = Session(content=pack())
    assert store.load(session, path) == "undo history of 9 step(s), checked on the first undo"
    played = _v2_session()
    assert as_played(session) == as_played(played)
    assert any(ODD in e.title for e in session.log)
    # its lines cannot tell the GM's numbers: the players read those entries by title
    assert {e.visibility for e in session.log if e.lines} == {TITLED}
    store.save(session, path)
    text = path.read_text(encoding="utf-8")
    assert tomllib.loads(text)["format_version"] == versions.VERSION
    assert '\nlog = \'\'\'\n[1, "gm", "Zone ridge", [], "public"]\n' in text
    again = Session(content=pack())
    store.load(again, path)
    assert as_played(again) == as_played(played)
    while played.can_undo:  # the undo history replays from the migrated steps
        assert again.undo() == played.undo()
        assert everything(again) == everything(played)
    assert again.redo() == played.redo()
    assert everything(again) == everything(played)


def _duel_named(name: str) -> Session:
    session = duel(seed=1)
    session.rename(name)
    return session


def test_a_header_is_garbled_as_a_version_2_file_the_list_falls_back_to_reading_it(
    tmp_path: Path,
) -> None:
    path = store.save(_duel_named("Dust Sea"), tmp_path / "d.toml", now=SAVED_AT)
    text = path.read_text().replace("[header]\n", "[header]\nname = [\n", 1)
    path.write_text(text)
    [entry] = store.recent(tmp_path)
    assert isinstance(entry, CampaignFileError) and "not valid TOML" in str(entry)


# -- backups -----------------------------------------------------------------------------
def test_the_last_three_saves_are_kept_and_an_old_bak_is_left_alone(tmp_path: Path) -> None:
    session = Session(seed=1, content=pack())
    path = tmp_path / "c.toml"
    legacy = tmp_path / "c.toml.bak"
    legacy.write_bytes(b"an older hsm-tui's backup")
    saves = []
    for name in ("one", "two", "three", "four", "five"):
        session.rename(name)
        store.save(session, path)
        saves.append(path.read_bytes())
    assert [(tmp_path / f"c.toml.bak{n}").read_bytes() for n in (1, 2, 3)] == saves[3::-1][:3]
    assert not (tmp_path / "c.toml.bak4").exists()
    assert legacy.read_bytes() == b"an older hsm-tui's backup"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "c.toml",
        "c.toml.bak",
        "c.toml.bak1",
        "c.toml.bak2",
        "c.toml.bak3",
    ]
    assert [e.path.name for e in store.recent(tmp_path)] == ["c.toml"]
    loaded = Session(content=pack())
    store.load(loaded, tmp_path / "c.toml.bak2")  # a backup opens as any campaign file
    assert loaded.campaign.name == "three"


# -- temporary files left by a crash -------------------------------------------------------
DEAD = 999_999_999  # above any pid_max: no such process


def _leftovers(folder: Path) -> dict[str, Path]:
    stale_old = folder / ".c.toml.abcd1234"
    fresh_old = folder / ".c.toml.wxyz9876"
    files = {
        "dead": folder / f".c.toml.{DEAD}.k2j3h4.tmp",
        "dead-backup": folder / f".c.toml.{DEAD}.q9w8e7.tmp",
        "mine": folder / f".c.toml.{os.getpid()}.zzzzzz.tmp",
        "running": folder / f".c.toml.{os.getppid()}.yyyyyy.tmp",
        "stale-old": stale_old,
        "fresh-old": fresh_old,
        "other-campaign": folder / f".d.toml.{DEAD}.aaaaaa.tmp",
    }
    for path in files.values():
        path.write_bytes(b"half a save")
    os.utime(stale_old, (time.time() - 3600,) * 2)
    return files


@pytest.mark.parametrize("step", ["save", "open"])
def test_the_next_save_or_open_removes_temporary_files_a_crash_left(
    tmp_path: Path, step: str
) -> None:
    session = Session(seed=1, content=pack())
    path = store.save(session, tmp_path / "c.toml")
    files = _leftovers(tmp_path)
    assert hsm("campaign", "check", str(path)).returncode == 0  # check only reads
    assert all(p.exists() for p in files.values())
    if step == "save":
        store.save(session, path)
    else:
        store.load(Session(content=pack()), path)
    gone = {name for name, p in files.items() if not p.exists()}
    assert gone == {"dead", "dead-backup", "stale-old"}


KILLED_SAVER = """
import sys, time
from pathlib import Path
from hsm_tui.campaign.party import AddHero, RemoveHero
from hsm_tui.persistence import autosave, store
from hsm_tui.table.session import Session
from tests.campaign import pack

session = Session(seed=1, content=pack())
path = Path(sys.argv[1])
print("ready", flush=True)
while True:
    session.rename("a" * 60 if session.campaign.name != "a" * 60 else "b")
    if sys.argv[2] == "save":
        store.save(session, path)
    else:
        autosave.write(session.frozen(), path)
"""


VERSIONS = ("New campaign", "a" * 60, "b")
"""The campaign names the killed saver writes: a file holding another was lost."""


def kill_mid_save(path: Path, mode: str, delay: float) -> None:
    """Start a process saving ``path`` over and over (``mode``: save or autosave, each
    save another version) and kill -9 it ``delay`` seconds after it is ready.
    """
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_SAVER, str(path), mode],
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert child.stdout is not None and child.stdout.readline() == b"ready\n"
    time.sleep(delay)
    child.kill()
    child.wait()
    child.stdout.close()


def after_kill(path: Path) -> str:
    """What a kill left: "" when ``path`` opens whole as one of :data:`VERSIONS` and every
    backup reads; "torn" when one does not open; "lost" when it holds another campaign.
    """
    session = Session(content=pack())
    try:
        store.load(session, path)
        for n in (1, 2, 3):
            backup = path.with_name(f"{path.name}.bak{n}")
            if backup.exists():
                store.read(backup)  # never torn nor empty
    except CampaignFileError:
        return "torn"
    return "" if session.campaign.name in VERSIONS else "lost"


@pytest.mark.parametrize("mode", ["save", "autosave"])
def test_kill_9_during_save_leaves_the_old_or_the_new_file_and_the_next_save_cleans_up(
    tmp_path: Path, mode: str
) -> None:
    path = tmp_path / "c.toml"
    store.save(Session(seed=1, content=pack()), path)
    for trial in range(12):  # bench/files.py runs 200
        kill_mid_save(path, mode, 0.05 + 0.03 * trial)
        assert after_kill(path) == ""  # opens it: removes all but a whole save not in place
        assert set(_temporary(tmp_path)) == set(unfinished.found(path))
    for _ in range(2):  # the first makes the file newer than any save left; the next cleans
        autosave.write(Session(seed=1, content=pack()).frozen(), path)
    assert not _temporary(tmp_path)


def _temporary(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.endswith(".tmp")]


# -- hostile files -----------------------------------------------------------------------
def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _zero(path: Path) -> Path:
    path.symlink_to("/dev/zero")
    return path


@pytest.mark.parametrize("make", [_fifo, _zero], ids=["fifo", "symlink-to-dev-zero"])
def test_a_save_that_is_not_a_regular_file_is_refused_at_once(tmp_path: Path, make) -> None:
    path = make(tmp_path / "evil.toml")
    message = f"cannot open {path}: not a regular file (a device, a pipe or a socket): not read"
    with pytest.raises(CampaignFileError) as caught:
        store.load(Session(), path)
    assert str(caught.value) == message
    [entry] = store.recent(tmp_path)
    assert str(entry) == message
    checked = hsm("campaign", "check", str(path))
    assert (checked.returncode, checked.stdout) == (1, f"{message}\n")
    played = hsm("play", str(path))
    assert (played.returncode, played.stderr) == (2, f"hsm: error: {message}\n")


def test_a_save_larger_than_the_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.save(Session(seed=1), tmp_path / "c.toml")
    monkeypatch.setattr(reader, "LIMIT", 1000)
    with pytest.raises(CampaignFileError, match=r"c\.toml: larger than 1000 bytes: not read$"):
        store.read(path)


@pytest.mark.parametrize("make", [_fifo, _zero], ids=["fifo", "symlink-to-dev-zero"])
def test_a_pack_file_that_is_not_a_regular_file_is_named_by_content_check(
    tmp_path: Path, make
) -> None:
    folder = tmp_path / "evil"
    folder.mkdir()
    (folder / "pack.toml").write_text('[pack]\nid = "evil"\nname = "Evil"\nversion = "1"\n')
    make(folder / "weapons.toml")
    checked = hsm("content", "check", str(folder))
    assert checked.returncode == 1
    assert checked.stdout == (
        f"{folder / 'weapons.toml'}:0: error: cannot read: not a regular file (a device, a pipe"
        " or a socket): not read\n"
    )
    make(folder / "x")
    (folder / "pack.toml").unlink()
    make(folder / "pack.toml")
    checked = hsm("content", "check", str(folder))
    assert checked.returncode == 1 and "pack.toml:0: error: cannot read: not a regular" in (
        checked.stdout
    )


def _tampered(tmp_path: Path, change, part: str = "encounter") -> Path:
    path = store.save(duel(seed=1), tmp_path / "c.toml")
    data = tomllib.loads(path.read_text())
    change(data["state"][part] if part else data["state"])
    path.write_text(tomli_w.dumps(data))
    return path


KESTREL = {"entry": "kestrel-vance", "name": "Kestrel Vance", "luck": 1}


TWINS = [
    pytest.param(
        lambda s: s["encounter"]["combatants"][2].update(id="pirate-raider-1"),
        "state.encounter.combatants[2].id: 'pirate-raider-1' is already the id of another"
        " combatant",
        id="combatant-id",
    ),
    pytest.param(
        lambda s: s["encounter"].update(zones=["ridge", "dig", "ridge"]),
        "state.encounter.zones[2]: 'ridge' is already the name of a zone",
        id="zone",
    ),
    pytest.param(
        lambda s: s["encounter"]["bands"].append(["dig", "ridge", "long"]),
        "state.encounter.bands[1]: dig ↔ ridge already has a band",
        id="band",
    ),
    pytest.param(
        lambda s: s["encounter"]["combatants"][0]["weapons"][1].update(id="assault-laser"),
        "state.encounter.combatants[0].weapons[1].id: 'assault-laser' is already one of its"
        " weapons",
        id="weapon",
    ),
    pytest.param(
        lambda s: s["encounter"]["combatants"][1].update(group="kestrel-vance-1"),
        "state.encounter.combatants[1].group: 'kestrel-vance-1' is the id of another"
        " combatant, not a group",
        id="group-is-a-combatant",
    ),
    pytest.param(
        lambda s: s["encounter"]["order"].append(s["encounter"]["order"][0]),
        "state.encounter.order[2].actor: 'pirate-raider@pirates' already has its initiative",
        id="initiative",
    ),
    pytest.param(
        lambda s: s["campaign"].update(party=[KESTREL, KESTREL]),
        "state.campaign.party[1].entry: 'kestrel-vance' is already in the party",
        id="party",
    ),
    pytest.param(
        lambda s: s["campaign"].update(roster=[["minion", "pirate-raider"]] * 2),
        "state.campaign.roster[1]: minion 'pirate-raider' is already on the roster",
        id="roster",
    ),
]


@pytest.mark.parametrize(("change", "message"), TWINS)
def test_twins_are_refused_with_the_key_by_open_and_check(
    tmp_path: Path, change, message: str
) -> None:
    path = _tampered(tmp_path, change, part="")
    with pytest.raises(CampaignFileError) as caught:
        store.load(Session(content=pack()), path)
    assert str(caught.value) == f"{path}: key {message}"
    checked = hsm("campaign", "check", str(path))
    assert (checked.returncode, checked.stdout) == (1, f"{path}: key {message}\n")


def test_log_entries_out_of_order_are_refused_with_the_line_and_key(tmp_path: Path) -> None:
    path = store.save(duel(seed=1), tmp_path / "c.toml")
    text = path.read_text(encoding="utf-8")
    number = text[: text.index('[3, "gm"')].count("\n") + 1
    path.write_text(text.replace('[3, "gm"', '[2, "gm"', 1), encoding="utf-8")
    with pytest.raises(CampaignFileError) as caught:
        store.load(Session(content=pack()), path)
    assert str(caught.value) == (
        f"{path}: line {number}, key state.log[2].seq: 2 is out of order: entries are numbered"
        " 1, 2, 3 …; expected 3"
    )


def test_a_huge_declared_action_count_is_refused_in_a_file_and_by_the_engine(
    tmp_path: Path,
) -> None:
    def huge(encounter: dict) -> None:
        encounter["turn"]["declared"] = 10**9

    path = _tampered(tmp_path, huge)
    with pytest.raises(CampaignFileError) as caught:
        store.load(Session(content=pack()), path)
    assert str(caught.value) == (
        f"{path}: key state.encounter.turn.declared: 1000000000 is outside 0 to 9"
    )
    session = duel(seed=1)
    while session.encounter.turn is not None and "kestrel" not in session.encounter.turn.actor:
        session.apply(EndTurn())
    refused(session, DeclareActions(10), "declare at most 9 actions")
    session.apply(DeclareActions(9))
    assert session.encounter.turn.declared == 9


def test_party_heroes_still_round_trip(tmp_path: Path) -> None:
    session = Session(seed=2, content=pack())
    session.apply(AddHero("kestrel-vance"))
    path = store.save(session, tmp_path / "p.toml")
    assert store.read(path)["header"]["party"] == ["Kestrel Vance"]
    assert atomic.clean_stale(path) == []


# -- two hsm processes on one campaign -----------------------------------------------------
def test_a_save_never_reports_success_over_a_file_another_program_replaced(
    tmp_path: Path,
) -> None:
    path = store.save(Session(seed=1, content=pack()), tmp_path / "c.toml")
    mine, theirs = Session(content=pack()), Session(content=pack())
    store.load(mine, path)
    store.load(theirs, path)
    theirs.apply(AddHero("kestrel-vance"))
    store.save(theirs, path)
    their_file = path.read_bytes()
    mine.rename("Mine")
    with pytest.raises(CampaignFileError) as caught:
        store.save(mine, path)
    assert str(caught.value) == (
        f"not saved: {path} was changed by another program since it was opened or saved here;"
        " save under another name (Save campaign as…), or open it again"
    )
    assert path.read_bytes() == their_file and mine.unsaved
    store.save(mine, tmp_path / "mine.toml")  # saving as another name is always possible
    store.load(mine, path)  # or open it again, and go on from their save
    mine.rename("Mine")
    store.save(mine, path)
    assert store.read(path)["header"] == {
        "name": "Mine",
        "party": ["Kestrel Vance"],
        "adventure": 1,
        "in_combat": False,
    }


RIVAL_SAVER = """
import sys
from pathlib import Path
from hsm_tui.persistence import store
from hsm_tui.table.session import Session
from tests.campaign import pack

path, me = Path(sys.argv[1]), sys.argv[2]
session = Session(content=pack())
store.load(session, path)
saved = refused = 0
for i in range(80):
    session.rename(f"{me} {i}")
    try:
        store.save(session, path)
        saved += 1
    except store.CampaignFileError as err:
        assert "changed by another program" in str(err), err
        refused += 1
        store.load(session, path)
print(saved, refused)
"""


def test_two_processes_saving_one_campaign_lose_nothing_silently(tmp_path: Path) -> None:
    path = store.save(Session(seed=1, content=pack()), tmp_path / "c.toml")
    root = Path(__file__).resolve().parents[1]
    rivals = [
        subprocess.Popen(
            [sys.executable, "-c", RIVAL_SAVER, str(path), name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=root,
        )
        for name in ("left", "right")
    ]
    results = [rival.communicate(timeout=120) for rival in rivals]
    for rival, (out, err) in zip(rivals, results, strict=True):
        assert rival.returncode == 0, err  # no "same file" error, no torn read
        saved, refused = map(int, out.split())
        assert saved + refused == 80 and saved > 0
    store.read(path)
    for n in (1, 2, 3):
        store.read(tmp_path / f"c.toml.bak{n}")  # never empty, never torn
