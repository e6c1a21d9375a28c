"""Encounters prepared ahead (issue 36 item 21): kept by name in the campaign, loaded into
the builder when the party gets there and again for a rematch, written to and read from
encounter files, never seen by the players. Set-up is R-COMBAT-2's zones and bands and
R-CHAR-8's Sidekick rules; the party's Heroes bring their wounds and pools (R-WOUND-1,
R-CHAR-9).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    ClearEncounter,
    EndCombat,
    SetBand,
    SetCover,
    SetDivePolicy,
    StartCombat,
)
from hsm_tui.campaign.party import AddHero, AddParty, GrantClues, RemoveHero
from hsm_tui.campaign.prepared import (
    MAX_NAME,
    DropEncounter,
    KeepEncounter,
    LoadEncounter,
    prepared_from,
)
from hsm_tui.campaign.staging import load_refusal
from hsm_tui.persistence import store, versions
from hsm_tui.persistence.encounter_file import (
    read_encounter,
    read_prepared,
    write_encounter,
)
from hsm_tui.rules import Cover, Rank, RulesError
from hsm_tui.rules.errors import NotPermitted
from hsm_tui.table.seated import SeatedSession
from hsm_tui.table.seats import Role, Seat
from hsm_tui.table.session import Session
from hsm_tui.table.visibility import GM_ONLY
from tests.campaign import pack

KARA = Seat(Role.PLAYER, "kara", hero="kestrel-vance")
FIXTURES = Path(__file__).parent / "fixtures" / "versions"
SECRET = "Ambush at the Salt Bridge"


def _built(seed: int = 3) -> Session:
    """A party of two and the builder's encounter: a bridge, the party on it, raiders
    hidden below, an undecided Sidekick, light cover, a dive policy."""
    s = Session(seed=seed, content=pack())
    s.apply(AddHero("kestrel-vance"))
    s.apply(AddHero("roan-maddox"))
    s.apply(AddZone("bridge"))
    s.apply(AddZone("gully"))
    s.apply(SetBand("bridge", "gully", "short"))
    s.apply(AddParty("bridge"))
    s.apply(AddCombatants("minion", "pirate-raider", "pirates", "gully", 3, hidden=True))
    s.apply(AddCombatants("sidekick", "veteran-guide", "pirates", "gully"))
    s.apply(SetCover("pirate-raider-1", "light"))
    s.apply(SetDivePolicy("pirates", "light"))
    return s


def _lineup(s: Session) -> list[tuple[str, str, str, Cover, bool, bool, Rank | None]]:
    return [
        (c.entry, c.side, c.zone, c.cover, c.player, c.hidden, c.plays_as)
        for c in s.encounter.combatants
    ]


def test_r_combat_2_a_kept_encounter_loads_again_as_built_and_stays_for_a_rematch() -> None:
    s = _built()
    built, policy = _lineup(s), s.encounter.dive_policy
    s.apply(KeepEncounter(SECRET))
    assert [p.name for p in s.campaign.prepared] == [SECRET]
    s.apply(StartCombat())  # R-CHAR-8: the undecided Sidekick is asked at the start
    assert s.pending is not None
    s.undo()
    s.apply(LoadEncounter(" ambush at the salt BRIDGE "))  # its name, whatever the case
    assert _lineup(s) == built and s.encounter.dive_policy == policy
    assert s.encounter.zones == ("bridge", "gully") and not s.encounter.active
    s.apply(LoadEncounter(SECRET))  # a rematch: it is still prepared
    assert _lineup(s) == built and [p.name for p in s.campaign.prepared] == [SECRET]


def test_keeping_loading_and_dropping_are_each_one_undo_step_in_the_gms_log() -> None:
    s = _built()
    before = s.encounter
    for command in (KeepEncounter(SECRET), LoadEncounter(SECRET), DropEncounter(SECRET)):
        s.apply(command)
        assert any(SECRET in e.title and e.visibility == GM_ONLY for e in s.log[-20:])
    assert s.campaign.prepared == ()
    s.undo()  # the drop
    assert [p.name for p in s.campaign.prepared] == [SECRET]
    s.undo()  # the load
    assert s.encounter == before
    s.undo()  # the keep
    assert s.campaign.prepared == ()


def test_r_combat_1_a_load_is_refused_while_a_fight_is_on_and_the_fight_stays() -> None:
    s = _built()
    s.apply(KeepEncounter(SECRET))
    s.apply(AddCombatants("sidekick", "veteran-guide", "heroes", "bridge"))
    s.apply(StartCombat())
    asked = s.pending  # R-CHAR-8: the Sidekicks' rules are asked at the start
    s.apply(KeepEncounter("While asked"))  # the GM's lists are taken while a question waits
    assert s.pending is asked and len(s.campaign.prepared) == 2
    while s.pending is not None:
        s.apply(s.pending.options[0].command)
    fight = s.encounter
    with pytest.raises(RulesError, match="combat is under way: end it first"):
        s.apply(LoadEncounter(SECRET))
    assert s.encounter == fight
    why = load_refusal(s.campaign.prepared[0], s.encounter, s.catalog)
    assert why.startswith("combat is under way")  # the same reason the F7 list shows
    s.apply(EndCombat())
    s.apply(LoadEncounter(SECRET))  # after the fight: a rematch
    assert not s.encounter.active and len(s.encounter.combatants) == 6


def test_r_char_9_the_party_joins_a_loaded_encounter_as_it_is_now() -> None:
    """Party rows stand for the party's own Heroes: pools and wounds come from the campaign
    as it is at the load, and a Hero who left the party since is left out, said in the log."""
    s = _built()
    s.apply(KeepEncounter(SECRET))
    s.apply(ClearEncounter())
    s.apply(GrantClues("kestrel-vance", 2))
    s.apply(LoadEncounter(SECRET))
    kestrel = next(c for c in s.encounter.combatants if c.entry == "kestrel-vance")
    assert kestrel.player and kestrel.clues == 2
    s.apply(RemoveHero("roan-maddox"))
    s.apply(LoadEncounter(SECRET))
    assert "roan-maddox" not in {c.entry for c in s.encounter.combatants}
    loaded = next(e for e in reversed(s.log) if e.title.startswith("Prepared encounter"))
    assert loaded.lines == ("Captain Roan Maddox is not in the party now: left out",)


def test_names_are_checked_and_a_kept_name_is_replaced_only_when_asked() -> None:
    s = _built()
    with pytest.raises(RulesError, match=f"1 to {MAX_NAME} characters"):
        s.apply(KeepEncounter("   "))
    s.apply(KeepEncounter(SECRET))
    with pytest.raises(RulesError, match="is prepared already: replace it"):
        s.apply(KeepEncounter(SECRET.upper()))
    s.apply(AddCombatants("minion", "pirate-raider", "pirates", "gully", 2))
    s.apply(KeepEncounter(SECRET, replace=True))
    assert len(s.campaign.prepared) == 1 and s.campaign.prepared[0].size == 8
    with pytest.raises(RulesError, match="no prepared encounter 'Other'"):
        s.apply(LoadEncounter("Other"))
    empty = Session(seed=1, content=pack())
    with pytest.raises(RulesError, match="nothing to keep"):
        empty.apply(KeepEncounter("Nothing"))


def test_players_never_see_the_prepared_encounters_nor_may_they_keep_one() -> None:
    s = _built()
    kara = SeatedSession(s, KARA)
    for command in (KeepEncounter(SECRET), LoadEncounter(SECRET), KeepEncounter("Second")):
        s.apply(command)
        assert SECRET not in repr(kara.view()) and "Second" not in repr(kara.view())
    s.apply(DropEncounter("Second"))
    s.undo()
    s.apply(StartCombat())  # the set-up becomes theirs to read; the names never do
    assert SECRET not in repr(kara.view()) and "Second" not in repr(kara.view())
    with pytest.raises(NotPermitted, match="only the GM may"):
        kara.apply(KeepEncounter("Mine"))


def test_a_version_5_campaign_opens_without_prepared_encounters_and_saves_as_6(
    tmp_path: Path,
) -> None:
    path = tmp_path / "salt-flats.toml"
    shutil.copy(FIXTURES / "v5.toml", path)
    assert tomllib.loads(path.read_text())["format_version"] == 5
    s = Session(content=pack())
    store.load(s, path)
    assert s.campaign.name == "Salt Flats" and s.campaign.prepared == ()
    assert s.encounter.dive_policy == (("pirates", "light"),)
    s.apply(KeepEncounter("Salt flats"))
    store.save(s, path)
    assert tomllib.loads(path.read_text())["format_version"] == versions.VERSION == 6
    check = [sys.executable, "-m", "hsm_tui", "campaign", "check", str(path)]
    done = subprocess.run(check, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    again = Session(content=pack())
    store.load(again, path)
    assert again.campaign.prepared == s.campaign.prepared
    again.undo()  # the keep, replayed from the file's undo steps
    assert again.campaign.prepared == ()


def test_an_exported_encounter_file_reads_back_as_it_was_and_simulate_plays_it(
    tmp_path: Path,
) -> None:
    s = _built()
    prep = prepared_from(s.encounter, SECRET)
    path = write_encounter(prep, tmp_path / "bridge.toml")
    assert read_prepared(path, s.catalog) == prep  # hidden, party, undecided, dive policy
    spec = read_encounter(path, s.catalog)  # a forecast plays the undecided as a Hero
    assert [c.get("plays_as") for c in spec.combatants if c["kind"] == "sidekick"] == ["hero"]
    run = [sys.executable, "-m", "hsm_tui", "simulate", "--encounter", str(path), "--runs", "4"]
    done = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[[zone]]\nname = 'a'\n\n[[zone]]\nname = \n", ":5: not valid TOML: Invalid value"),
        ("[[zone]]\nname = 'a'\n[[combatant]]\nentry = 'nobody'\n", ":3: combatant #1 needs"),
        (
            "[[zone]]\nname = 'a'\n[[combatant]]\nentry = 'pirate-raider'\nside = 's'\n"
            "zone = 'a'\ncount = 'two'\n",
            ":7: combatant #1: count is int",
        ),
        (
            "[[zone]]\nname = 'a'\n\n[[combatant]]\nentry = 'pirate-raider'\nside = 's'\n"
            "zone = 'b'\n",
            ":4: combatant #1: no zone 'b'",
        ),
        (
            "[[zone]]\nname = 'a'\n[[combatant]]\nentry = 'pirate-raider'\nside = 's'\n"
            "zone = 'a'\ncount = 99\n",
            ":3: combatant #1: add 1 to 40 at a time",
        ),
        ("[[zone]]\nname = 'a'\n[dive_policy]\ns = 'sideways'\n", ":3: dive policy #1"),
    ],
)
def test_a_bad_encounter_file_is_named_with_its_line(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RulesError) as refused:
        read_prepared(path, pack().catalog)
    assert str(refused.value).startswith(f"{path}:") and says in str(refused.value)


def test_an_encounter_file_that_is_no_file_is_refused_with_a_message(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="cannot read"):
        read_prepared(tmp_path, pack().catalog)  # a folder
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe")
    with pytest.raises(RulesError, match="not UTF-8"):
        read_prepared(tmp_path / "bin.toml", pack().catalog)
