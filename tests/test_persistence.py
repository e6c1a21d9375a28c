"""Campaign files (hsm_tui/store.py, Session.to_data/load_data, hsm_tui/persistence/codec.py).

A campaign saved mid-combat must resume exactly: the state, the pending question (a dive
for cover R-ATK-5, a §7 chart choice on a 13, re-rolls R-TASK-6 / R-CHAR-9, a Sidekick's
rules R-CHAR-8), the queue of a Batch, the log, the dice and the undo and redo history.
A bad file is refused with its path and the line or key at fault, and changes nothing.

Every fight here rolls the Session's own seeded ``random.Random`` (a scripted RNG has no
state a file could hold); each seed was picked so that the question a test needs is
asked, and the test asserts that it is.
"""

from __future__ import annotations

import errno
import json
import os
import random
import re
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from hsm_tui import packs
from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    AnswerDive,
    Attack,
    ChooseChartRow,
    DecideSidekick,
    EndTurn,
    PendingChartChoice,
    PendingCombatRerolls,
    PendingDive,
    PendingSidekick,
    RollChart,
    SetBand,
    SetPools,
    SpendCombatRerolls,
    StartCombat,
    TakeAction,
)
from hsm_tui.campaign.encounter import Encounter
from hsm_tui.campaign.freeflow import PendingRerolls
from hsm_tui.campaign.party import AddHero, Campaign, NewAdventure, SetScene
from hsm_tui.cli import campaign as campaigns
from hsm_tui.persistence import codec, lines, reader, store
from hsm_tui.persistence.store import CampaignFileError, SavedCampaign
from hsm_tui.rules import Rank, RulesError, task_tn
from hsm_tui.table.session import Batch, Command, RollTask, Session, SpendRerolls
from hsm_tui.table.state import LogEntry
from tests.campaign import PACK_DIR, pack, refused, state
from tests.campaign import test_scripted_fight as scripted

K, R1, R2 = "kestrel-vance-1", "pirate-raider-1", "pirate-raider-2"
TN = task_tn([("Agility", 3), ("Senses", 2)])
SAVED_AT = datetime(2026, 3, 1, 20, 15, 30, 123456)
DIVERGED = (
    "the undo history the campaign file brought no longer leads to the state it saved (the"
    " packs or the file changed since): it is dropped"
)


# -- helpers ----------------------------------------------------------------------------
def duel(seed: int, luck: int = 0) -> Session:
    """Kestrel on the ridge against two pirate raiders in the dig (Medium); combat started."""
    session = Session(seed=seed, content=pack())
    for command in (
        AddZone("ridge"),
        AddZone("dig"),
        SetBand("ridge", "dig", "medium"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2),
        SetPools(K, luck=luck),
        StartCombat(),
    ):
        session.apply(command)
    return session


def everything(session: Session) -> tuple[Any, ...]:
    """All a load must reproduce (state() has encounter, log, pending, dice, history)."""
    return (state(session), session.queue, session.campaign, session.seed, session.can_redo)


def unmarked(log: tuple[LogEntry, ...]) -> tuple[LogEntry, ...]:
    """``log`` as the GM reads it, who sees what aside: a file of an older format reads
    its entries by the seat rules of its day (``visibility.TITLED``) until its history replays.
    """
    return tuple(replace(e, visibility="", lines=e.gm_lines) for e in log)


def as_played(session: Session) -> tuple[Any, ...]:
    """:func:`everything`, the log :func:`unmarked`: what an older file must reproduce."""
    played = state(session)
    return (replace(played, log=unmarked(played.log)), *everything(session)[1:])


def round_trip(session: Session, path: Path) -> Session:
    """Save ``session`` to ``path`` and open it in a fresh Session; both must be equal."""
    assert store.save(session, path, now=SAVED_AT) == path
    assert (session.file, session.unsaved) == (path, False)
    loaded = Session(content=pack())
    steps = len(session.history)
    assert store.load(loaded, path) == f"undo history of {steps} step(s), checked on the first undo"
    assert everything(loaded) == everything(session)
    assert loaded.rng.getstate() == session.rng.getstate()
    assert (loaded.file, loaded.unsaved) == (path, False)
    return loaded


def both(a: Session, b: Session, *commands: Command) -> None:
    """Apply the same commands to both sessions: the very same dice, the very same log."""
    for command in commands:
        a.apply(command)
        b.apply(command)
        assert everything(a) == everything(b), command


def undo_and_redo_in_step(a: Session, b: Session) -> None:
    """Undo both sessions to their first state one step at a time, then redo them all:
    they must agree at every step (the loaded one kept the whole history).
    """
    steps = 0
    while a.can_undo:
        assert a.undo() == b.undo()
        assert everything(a) == everything(b)
        steps += 1
    assert not b.can_undo and steps > 0
    while a.can_redo:
        assert a.redo() == b.redo()
        assert everything(a) == everything(b)
    assert not b.can_redo


# -- round trips mid-combat --------------------------------------------------------------
def test_r_atk_5_resumes_mid_combat_with_a_pending_dive(tmp_path: Path) -> None:
    """The scripted fight (three Heroes, a Sidekick played as a Hero, eight Minions) saved
    while Tamsin's arrow waits for the hound's dive answer (R-ATK-5); the loaded campaign
    answers it with the same dice, plays on identically, and undoes back to nothing.
    """
    session = Session(seed=scripted.SEED, content=pack())
    for command in scripted.SETUP:
        session.apply(command)
    first, *rest = scripted.STEPS[0].commands
    session.apply(first)
    assert isinstance(session.pending, PendingDive)

    loaded = round_trip(session, tmp_path / "fight.toml")
    assert loaded.pending.options == session.pending.options  # what the dialog offers
    both(session, loaded, *rest, EndTurn(), *scripted.STEPS[1].commands, EndTurn())
    assert loaded.log[-1].title == scripted.STEPS[2].title
    assert loaded.encounter.get(scripted.KV).conditions == ("pinned",)

    undo_and_redo_in_step(session, loaded)
    while loaded.can_undo:
        loaded.undo()
    fresh = Session(seed=scripted.SEED, content=pack())
    assert (loaded.encounter, loaded.log, loaded.history) == (Encounter(zones=()), (), [])
    assert loaded.rng.getstate() == fresh.rng.getstate()


def test_the_file_names_its_format_version_and_time_and_holds_the_dice(tmp_path: Path) -> None:
    session = duel(seed=1)
    path = store.save(session, tmp_path / "duel.toml", now=SAVED_AT)
    data = store.read(path)
    assert (data["format"], data["format_version"]) == ("hsm-tui campaign", 6)
    assert data["saved"] == SAVED_AT.replace(microsecond=0)
    version, internal, gauss = session.rng.getstate()
    assert data["state"]["rng_state"] == {"version": version, "internal": list(internal)}
    assert gauss is None
    assert data["seed"] == 1
    last = json.loads(data["undo"]["commands"].splitlines()[-1])
    assert last["_type"] == "StartCombat"
    assert not list(tmp_path.glob(".duel.toml.*"))  # the temporary file is gone


def test_unsaved_follows_the_saved_point_through_undo_and_redo(tmp_path: Path) -> None:
    session = Session(seed=2, content=pack())
    assert not session.unsaved  # a fresh start counts as saved
    session.apply(AddZone("ridge"))
    assert session.unsaved
    session.undo()
    assert not session.unsaved
    session.redo()
    session.apply(AddZone("dig"))
    loaded = round_trip(session, tmp_path / "c.toml")
    for s in (session, loaded):
        s.apply(AddZone("camp"))
        assert s.unsaved
        s.undo()
        assert not s.unsaved  # back at the saved point
        s.undo()
        assert s.unsaved  # before it: differs from the file
        s.redo()
        assert not s.unsaved


def test_r_wound_5_resumes_a_pending_chart_choice_on_a_13(tmp_path: Path) -> None:
    """§7 erratum: a chart total of 13 asks the GM which row; the question survives."""
    session = duel(seed=10)
    session.apply(RollChart(K, overflow=3))
    pending = session.pending
    assert isinstance(pending, PendingChartChoice) and pending.total == 13
    loaded = round_trip(session, tmp_path / "chart.toml")
    assert loaded.pending.options == pending.options
    both(session, loaded, ChooseChartRow("limb-injury"))
    assert loaded.encounter.get(K).chart == ("limb-injury",)
    undo_and_redo_in_step(session, loaded)


def test_r_task_6_r_char_9_resumes_combat_rerolls_then_the_dive_after_them(
    tmp_path: Path,
) -> None:
    """Kestrel (Luck 2) misses; the re-roll question is saved, answered after loading with
    the same dice, and the dive that follows (R-ATK-5) round-trips too (the second save
    replaces the first file).
    """
    session = duel(seed=0, luck=2)
    session.apply(Attack(K, R1, "assault-laser"))
    assert isinstance(session.pending, PendingCombatRerolls)
    path = tmp_path / "rerolls.toml"
    loaded = round_trip(session, path)
    assert loaded.pending.options == session.pending.options
    both(session, loaded, SpendCombatRerolls(1, 0))
    assert isinstance(loaded.pending, PendingDive)
    assert loaded.encounter.get(K).luck == 1

    again = round_trip(loaded, path)
    both(session, again, AnswerDive("none"))
    assert again.pending is None
    undo_and_redo_in_step(session, again)


def test_r_act_2_an_aim_in_the_history_saves_and_loads(tmp_path: Path) -> None:
    """TakeAction (Aim, Dodge, Reload …) was once missing from the Command union: such a
    campaign saved but could not be opened again (``unknown or missing type``).
    """
    session = duel(seed=0)
    assert session.encounter.turn.actor == K
    session.apply(TakeAction(K, "aim"))
    loaded = round_trip(session, tmp_path / "aim.toml")
    both(session, loaded, Attack(K, R1, "assault-laser"))
    assert K in loaded.encounter.turn.aim_used  # the Aim re-roll spent after loading
    undo_and_redo_in_step(session, loaded)


def test_r_char_8_resumes_the_sidekick_question_with_start_combat_queued(
    tmp_path: Path,
) -> None:
    session = Session(seed=5, content=pack())
    for command in (
        AddZone("ridge"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("sidekick", "veteran-guide", "heroes", "ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "ridge"),
        StartCombat(),
    ):
        session.apply(command)
    assert isinstance(session.pending, PendingSidekick)
    assert session.queue == (StartCombat(),)
    loaded = round_trip(session, tmp_path / "sidekick.toml")
    both(session, loaded, DecideSidekick("veteran-guide-1", "hero"))
    assert loaded.encounter.active and loaded.queue == ()
    undo_and_redo_in_step(session, loaded)


def test_r_task_6_resumes_a_free_flowing_task_with_pending_rerolls(tmp_path: Path) -> None:
    """A party Hero's task outside combat: 1 free re-roll plus her Luck 2 (R-CHAR-9)."""
    session = Session(seed=3, content=pack())
    session.apply(AddHero("kestrel-vance"))
    session.apply(RollTask(TN, Rank.HERO, rerolls=1, who="party:kestrel-vance"))
    pending = session.pending
    assert isinstance(pending, PendingRerolls) and pending.available == 3
    loaded = round_trip(session, tmp_path / "task.toml")
    assert loaded.pending.question == pending.question
    both(session, loaded, SpendRerolls(2, 1))  # 1 free + 2 Luck
    assert loaded.campaign.member("kestrel-vance").luck == 0
    assert "re-rolled 2 d10 + 1 Hero die (2 Luck)" in loaded.log[-1].lines[-1]
    undo_and_redo_in_step(session, loaded)


def test_resumes_a_batch_whose_rest_waits_in_the_queue(tmp_path: Path) -> None:
    """A Batch parks its later commands while the first waits for re-rolls (R-TASK-6)."""
    session = Session(seed=4, content=pack())
    batch = Batch((RollTask(TN, Rank.HERO, rerolls=1), AddZone("ridge"), AddZone("dig")))
    session.apply(batch)
    assert isinstance(session.pending, PendingRerolls)
    assert session.queue == batch.commands[1:]
    loaded = round_trip(session, tmp_path / "batch.toml")
    both(session, loaded, SpendRerolls(0, 0))
    assert (loaded.queue, loaded.encounter.zones) == ((), ("ridge", "dig"))
    loaded.undo()
    assert loaded.queue == batch.commands[1:]  # the answer undone: waiting again
    loaded.undo()
    assert (loaded.queue, loaded.pending, loaded.log) == ((), None, ())


def test_r_atk_5_resumes_a_minion_group_attack_waiting_on_a_dive(tmp_path: Path) -> None:
    """R-INIT-1: a Minion group's attacks are one Batch; the first hit asks Kestrel to dive
    and the second raider's attack waits in the queue, in the file too.
    """
    session = duel(seed=1)
    group = Batch((Attack(R1, K, "laser-pistol"), Attack(R2, K, "laser-pistol")))
    session.apply(group)
    assert isinstance(session.pending, PendingDive)
    assert session.queue == group.commands[1:]
    loaded = round_trip(session, tmp_path / "group.toml")
    both(session, loaded, AnswerDive("light"))
    assert loaded.queue == () and loaded.encounter.get(K).cover.label == "light"
    undo_and_redo_in_step(session, loaded)


def test_redo_steps_are_saved_and_redo_the_same_dice(tmp_path: Path) -> None:
    session = duel(seed=1)
    session.apply(EndTurn())
    session.apply(EndTurn())
    session.undo()
    session.undo()
    loaded = round_trip(session, tmp_path / "redo.toml")
    assert loaded.can_redo
    both_redo = [(session.redo(), loaded.redo()) for _ in range(2)]
    assert all(a == b for a, b in both_redo)
    assert everything(loaded) == everything(session)


def test_a_session_undone_to_its_start_saves_only_redo(tmp_path: Path) -> None:
    session = Session(seed=6, content=pack())
    session.apply(AddHero("kestrel-vance"))
    session.undo()
    loaded = round_trip(session, tmp_path / "undone.toml")
    assert not loaded.can_undo and loaded.can_redo
    loaded.redo()
    assert [m.entry for m in loaded.campaign.party] == ["kestrel-vance"]


# -- bad files ---------------------------------------------------------------------------
@pytest.fixture
def victim() -> Session:
    """A session with state, undo and redo, never saved: a bad file must not touch it."""
    session = Session(seed=8, content=pack())
    session.apply(AddHero("kestrel-vance"))
    session.apply(AddZone("ridge"))
    session.rename("Keep me")
    session.undo()
    return session


def untouched(session: Session, before: tuple[Any, ...]) -> None:
    """Nothing changed: state, file, unsaved, and the undo/redo history still works."""
    assert (everything(session), session.file, session.unsaved) == before
    session.redo()
    assert session.campaign.name == "Keep me"
    while session.can_undo:
        session.undo()
    assert everything(session)[0] == state(Session(seed=8, content=pack()))


@pytest.fixture
def good_file(tmp_path: Path) -> Path:
    """A valid campaign file: a duel with an undo history and a pending dive."""
    session = duel(seed=1)
    session.apply(Batch((Attack(R1, K, "laser-pistol"), Attack(R2, K, "laser-pistol"))))
    assert isinstance(session.pending, PendingDive)
    return store.save(session, tmp_path / "good.toml")


def _set(*keys: Any, to: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        for key in keys[:-1]:
            data = data[key]
        data[keys[-1]] = to

    return change


def _drop(*keys: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        for key in keys[:-1]:
            data = data[key]
        del data[keys[-1]]

    return change


def _rng(change: Callable[[list[int]], list[int]]) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        rng = data["state"]["rng_state"]
        rng["internal"] = change(list(rng["internal"]))

    return edit


COMBATANT = ("state", "encounter", "combatants", 0)
BAD_DATA = [
    pytest.param(
        _set("format", to="some other tool"),
        r"not an hsm-tui campaign \(key 'format' is not 'hsm-tui campaign'\)",
        id="wrong-format",
    ),
    pytest.param(_drop("format"), r"not an hsm-tui campaign", id="no-format"),
    pytest.param(
        _set("format_version", to=7),
        r"format_version 7 is newer than this hsm-tui reads \(6\): open it with a newer",
        id="newer-version",
    ),
    pytest.param(_set("format_version", to=0), r"key format_version is 0", id="version-0"),
    pytest.param(_set("format_version", to="1"), r"key format_version is '1'", id="version-text"),
    pytest.param(_set("redoo", to=[]), r"unknown key 'redoo' at the top", id="unknown-top-key"),
    pytest.param(
        _set(*COMBATANT, "rank", to="boss"),
        r"key state\.encounter\.combatants\[0\]\.rank: expected one of hero, sidekick, minion,"
        r" found 'boss'",
        id="deep-wrong-enum",
    ),
    pytest.param(
        _set("state", "encounter", "combatants", 1, "fear", to="lots"),
        r"key state\.encounter\.combatants\[1\]\.fear: expected a number, found 'lots'",
        id="deep-wrong-type",
    ),
    pytest.param(
        _set(*COMBATANT, "weapons", 0, "charges", to=2.5),
        r"key state\.encounter\.combatants\[0\]\.weapons\[0\]\.charges: expected a whole number",
        id="float-for-int",
    ),
    pytest.param(
        _set("state", "campaign", "adventure", to=True),
        r"key state\.campaign\.adventure: expected a number, found True",
        id="bool-for-int",
    ),
    pytest.param(
        _set(*COMBATANT, "mood", to="grim"),
        r"key state\.encounter\.combatants\[0\]\.mood: unknown key for Combatant",
        id="unknown-key",
    ),
    pytest.param(
        _drop(*COMBATANT, "name"),
        r"key state\.encounter\.combatants\[0\]\.name: missing",
        id="missing-key",
    ),
    pytest.param(
        _set("state", "log", to=[]),
        r"key state\.log: expected lines of JSON in ''' quotes, found \[\]",
        id="log-not-a-block",
    ),
    pytest.param(
        _set("undo", "commands", to=3),
        r"key undo\.commands: expected lines of JSON in ''' quotes, found 3",
        id="steps-not-a-block",
    ),
    pytest.param(
        _set("state", "pending", "_type", to="AddZone"),
        r"key state\.pending\._type: AddZone does not belong here",
        id="type-out-of-place",
    ),
    pytest.param(
        _set("state", "queue", 0, "_type", to="LogEntry"),
        r"key state\.queue\[0\]\._type: LogEntry does not belong here",
        id="queue-not-a-command",
    ),
    pytest.param(
        _set("redo", to=[{"_type": "AddZone"}]),
        r"key redo\[0\]\.name: missing",
        id="bad-redo",
    ),
    pytest.param(_set("undo", to=[]), r"key undo: expected a table", id="undo-not-a-table"),
    pytest.param(_drop("state"), r"key state: missing, or not a table", id="no-state"),
    pytest.param(_set("seed", to="abc"), r"key seed: expected a number", id="seed-text"),
    pytest.param(
        _rng(lambda internal: internal[:10]),
        r"key state\.rng_state: not a dice state this Python can use",
        id="rng-truncated",
    ),
    pytest.param(
        _rng(lambda internal: [-1, *internal[1:]]),
        r"key state\.rng_state: not a dice state this Python can use",
        id="rng-negative",
    ),
    pytest.param(
        _rng(lambda internal: [*internal[:-1], 999]),
        r"key state\.rng_state: not a dice state this Python can use",
        id="rng-position",
    ),
    pytest.param(
        _rng(lambda internal: [*internal[:5], "x", *internal[6:]]),
        r"key state\.rng_state\.internal\[5\]: expected a number, found 'x'",
        id="rng-item-text",
    ),
    pytest.param(
        _set("state", "rng_state", "version", to=1),
        r"key state\.rng_state: not a dice state",
        id="rng-version",
    ),
    pytest.param(
        _drop("state", "rng_state"),
        r"key state\.rng_state: missing, or not a table",
        id="rng-missing",
    ),
    pytest.param(
        _set("undo", "start", "rng_state", "internal", to=[1, 2, 3]),
        r"key undo\.start\.rng_state: not a dice state",
        id="undo-start-rng",
    ),
    pytest.param(
        _rng(lambda internal: [internal[0] + 2**40, *internal[1:]]),
        r"key state\.rng_state: not a dice state",  # setstate would cut it to 32 bits
        id="rng-word-too-wide",
    ),
    pytest.param(
        _set(*COMBATANT, "luck", to=-5),
        r"key state\.encounter\.combatants\[0\]\.luck: -5 is outside 0 to 99",
        id="luck-negative",  # a hand edit: refused at the door, not mid-roll on F2
    ),
    pytest.param(
        _set(*COMBATANT, "wounds", to=99),
        r"combatants\[0\]\.wounds: 99 is outside 0 to 3",
        id="wounds-99",
    ),
    pytest.param(
        _set("state", "rng_state", "gauss", to=10**400),
        r"key state\.rng_state\.gauss: the number 1000",
        id="rng-gauss-huge",
    ),
]


@pytest.mark.parametrize(("change", "message"), BAD_DATA)
def test_a_bad_value_is_refused_with_its_key_and_changes_nothing(
    victim: Session,
    good_file: Path,
    change: Callable[[dict[str, Any]], None],
    message: str,
) -> None:
    data = tomllib.loads(good_file.read_text(encoding="utf-8"))
    change(data)
    bad = good_file.with_name("bad.toml")
    bad.write_text(tomli_w.dumps(data), encoding="utf-8")
    before = (everything(victim), victim.file, victim.unsaved)
    with pytest.raises(CampaignFileError, match=message) as caught:
        store.load(victim, bad)
    assert str(caught.value).startswith(f"{bad}: ")
    untouched(victim, before)


BAD_BYTES = [
    pytest.param(
        b'format = "hsm-tui campaign"\nformat_version = 1\nseed = = 3\n',
        r"not valid TOML: .*line 3",
        id="malformed-toml",
    ),
    pytest.param(
        b'format = "hsm-tui \xff\xfe campaign"\n',
        r": not a text file \(not UTF-8 at line 1: byte 0xff\)$",
        id="not-utf8",
    ),
    pytest.param(b"", r": the file is empty \(not a campaign\)$", id="empty"),
    pytest.param(b"\n  \n", r": the file is empty", id="blank"),
    pytest.param(b"\x00\x01\x02binary", r"not valid TOML", id="binary"),
]


@pytest.mark.parametrize(("content", "message"), BAD_BYTES)
def test_a_file_that_is_not_a_campaign_is_refused_and_changes_nothing(
    victim: Session, tmp_path: Path, content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_bytes(content)
    before = (everything(victim), victim.file, victim.unsaved)
    with pytest.raises(CampaignFileError, match=message) as caught:
        store.load(victim, bad)
    assert str(bad) in str(caught.value)
    untouched(victim, before)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing.toml", r"cannot open .*missing\.toml: No such file or directory"),
        (".", r"cannot open .*: Is a directory"),
    ],
)
def test_a_missing_file_or_a_folder_is_refused(
    victim: Session, tmp_path: Path, name: str, message: str
) -> None:
    before = (everything(victim), victim.file, victim.unsaved)
    with pytest.raises(CampaignFileError, match=message):
        store.load(victim, tmp_path / name)
    untouched(victim, before)


LOG_ENTRY = {"_type": "LogEntry", "seq": 1, "issuer": "gm", "title": "x", "lines": []}
BAD_STEPS = [
    pytest.param(
        lambda step: {**step, "_type": "Teleport"},
        r"key undo\.commands\[0\]\._type: unknown or missing type 'Teleport'",
        id="unknown-type",
    ),
    pytest.param(
        lambda step: {k: v for k, v in step.items() if k != "_type"},
        r"key undo\.commands\[0\]\._type: unknown or missing type None",
        id="missing-type",
    ),
    pytest.param(
        lambda step: {"_type": "Batch", "commands": [step, LOG_ENTRY]},
        r"key undo\.commands\[0\]\.commands\[1\]\._type: LogEntry does not belong here",
        id="batch-holding-a-log-entry",
    ),
    pytest.param(
        lambda step: "{not json",
        r"key undo\.commands\[0\]: line 1 of the block is not JSON: Expecting property name"
        r" enclosed in double quotes \(column 2\)",
        id="not-json",
    ),
]


@pytest.mark.parametrize(("change", "message"), BAD_STEPS)
def test_a_bad_undo_step_is_named_by_check_and_on_the_first_undo_the_state_stays(
    good_file: Path, change: Callable[[dict[str, Any]], Any], message: str
) -> None:
    text = good_file.read_text(encoding="utf-8")
    first = text.split("commands = '''\n", 1)[1].split("\n", 1)[0]
    bad = change(json.loads(first))
    good_file.write_text(text.replace(first, bad if isinstance(bad, str) else lines.line(bad)))
    number = text[: text.index(first)].count("\n") + 1
    [problem] = campaigns.problems(good_file)
    assert re.fullmatch(f"{re.escape(str(good_file))}: line {number}, {message}", problem)

    session = Session(content=pack())
    assert store.load(session, good_file).startswith("undo history of")  # read on undo
    opened = (session.encounter, session.log, session.pending, session.can_redo)
    with pytest.raises(RulesError, match=re.escape(DIVERGED)):
        session.undo()
    assert (session.encounter, session.log, session.pending, session.can_redo) == opened
    assert not session.can_undo


# -- changed packs -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the replay gives another log: the raiders' name changed
        ('name = "Pirate raider"', 'name = "Void raider"'),
        # the replay is refused: AddCombatants names an entry the packs no longer have
        ('id = "pirate-raider"', 'id = "void-raider"'),
    ],
    ids=["replay-differs", "replay-refused"],
)
def test_changed_packs_load_the_state_and_drop_its_undo_history_on_the_first_undo(
    tmp_path: Path, old: str, new: str
) -> None:
    session = duel(seed=1)
    session.apply(EndTurn())
    session.undo()  # a redo step: it applies to the state as saved, and stays
    path = store.save(session, tmp_path / "c.toml")
    changed = tmp_path / "relic-worlds"
    shutil.copytree(PACK_DIR, changed)
    minions = changed / "minions.toml"
    text = minions.read_text(encoding="utf-8")
    assert old in text
    minions.write_text(text.replace(old, new, 1), encoding="utf-8")
    content = packs.load([changed])
    assert not content.errors, content.errors

    loaded = Session(content=content)
    assert store.load(loaded, path).startswith(
        "undo history of 7 step(s), checked on the first undo"
    )  # and names any entry gone
    assert state(loaded).encounter == session.encounter  # the state as saved
    assert (loaded.log, loaded.pending, loaded.campaign) == (
        session.log,
        session.pending,
        session.campaign,
    )
    assert loaded.rng.getstate() == session.rng.getstate()
    assert (loaded.file, loaded.unsaved) == (path, False)
    loaded.apply(AddZone("camp"))  # play goes on; what was done since the open undoes
    loaded.undo()
    assert loaded.encounter == session.encounter and loaded.can_undo
    with pytest.raises(RulesError, match=re.escape(DIVERGED)):
        loaded.undo()  # the file's steps are replayed now: they lead elsewhere, dropped
    assert loaded.encounter == session.encounter and loaded.log == session.log
    assert (loaded.can_undo, loaded.history) == (False, [])
    assert loaded.can_redo  # AddZone("camp")
    store.save(loaded, path)  # saved without the dropped steps
    reopened = Session(content=content)
    assert store.load(reopened, path).startswith(
        "undo history of 0 step(s), checked on the first undo"
    )


# -- writing -----------------------------------------------------------------------------
def test_save_makes_missing_folders(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "c.toml"
    session = Session(seed=1, content=pack())
    store.save(session, path)
    assert store.read(path)["seed"] == 1


def test_save_into_a_folder_that_cannot_exist_fails_cleanly(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    session = Session(seed=1, content=pack())
    session.apply(AddZone("ridge"))
    with pytest.raises(CampaignFileError, match=r"^cannot save .*blocker/c\.toml: "):
        store.save(session, blocker / "c.toml")
    assert (session.file, session.unsaved) == (None, True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker"]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write anywhere")
def test_save_into_a_read_only_folder_fails_cleanly(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(CampaignFileError, match="Permission denied"):
            store.save(Session(seed=1, content=pack()), folder / "c.toml")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o700)


def _failing_write(*_: Any, **__: Any) -> Any:
    raise OSError(errno.ENOSPC, "No space left on device")


def _unwritable(*_: Any, **__: Any) -> Any:
    raise ValueError("cannot write that")


class _FullDisk:
    """A file whose writes fail half-way (the real file is opened and closed)."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def __enter__(self) -> _FullDisk:
        return self

    def __exit__(self, *_: Any) -> None:
        self.real.close()

    def write(self, text: str) -> int:
        self.real.write(text[: len(text) // 2])
        self.real.flush()
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("failure", ["dumps", "write", "replace"])
def test_a_failed_save_keeps_the_old_file_and_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    session = duel(seed=1)
    path = store.save(session, tmp_path / "c.toml")
    old = path.read_bytes()
    saved_state = everything(session)
    session.apply(EndTurn())

    if failure == "dumps":
        monkeypatch.setattr(store.tomli_w, "dumps", _unwritable)
        message = "cannot write that"
    elif failure == "write":
        real_fdopen = os.fdopen
        monkeypatch.setattr(store.os, "fdopen", lambda *a, **k: _FullDisk(real_fdopen(*a, **k)))
        message = "No space left on device"
    else:
        monkeypatch.setattr(store.os, "replace", _failing_write)
        message = "No space left on device"
    with pytest.raises(CampaignFileError, match=rf"^cannot save {path}: .*{message}"):
        store.save(session, path)
    monkeypatch.undo()

    assert path.read_bytes() == old
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names in (["c.toml"], ["c.toml", "c.toml.bak1"])  # no temporary file left
    if len(names) == 2:
        assert (tmp_path / "c.toml.bak1").read_bytes() == old  # the backup is the old save
    assert (session.file, session.unsaved) == (path, True)
    loaded = Session(content=pack())
    store.load(loaded, path)
    assert everything(loaded) == saved_state


def test_a_state_toml_cannot_hold_is_refused_as_a_campaign_file_error(tmp_path: Path) -> None:
    session = Session(seed=1, content=pack())
    session.encounter = replace(session.encounter, zones=("ridge", None))  # type: ignore[arg-type]
    with pytest.raises(CampaignFileError, match=r"encounter\.zones\[1\]"):
        store.save(session, tmp_path / "c.toml")
    assert list(tmp_path.iterdir()) == []


# -- the recent-campaigns list -----------------------------------------------------------
def _saved_campaign(folder: Path, name: str, *commands: Command, mtime: float) -> Path:
    session = Session(seed=1, content=pack())
    session.rename(name)
    for command in commands:
        session.apply(command)
    path = store.save(session, folder / store.file_name(name), now=SAVED_AT)
    os.utime(path, (mtime, mtime))
    return path


def test_recent_lists_newest_first_with_summaries_and_unreadable_files(tmp_path: Path) -> None:
    relics = _saved_campaign(
        tmp_path,
        "Lost Relics",
        AddHero("kestrel-vance"),
        AddHero("mireille-ashdown"),
        NewAdventure(),
        mtime=1_000,
    )
    dust = _saved_campaign(
        tmp_path,
        "Dust Sea",
        AddZone("ridge"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "ridge"),
        SetPools(K, luck=0),
        StartCombat(),
        mtime=3_000,
    )
    broken = tmp_path / "broken.toml"
    broken.write_text("format = = 1\n", encoding="utf-8")
    os.utime(broken, (2_000, 2_000))
    (tmp_path / "notes.txt").write_text("not a campaign", encoding="utf-8")
    (tmp_path / "folder.toml").mkdir()  # a folder is not a campaign file

    first, second, third = store.recent(tmp_path)
    assert isinstance(first, SavedCampaign) and first.path == dust
    assert (first.name, first.in_combat, first.party, first.adventure) == (
        "Dust Sea",
        True,
        (),
        1,
    )
    assert isinstance(second, CampaignFileError)
    assert str(broken) in str(second) and "line 1" in str(second)
    assert third == SavedCampaign(
        relics,
        "Lost Relics",
        "2026-03-01 20:15:30",
        2,
        ("Kestrel Vance", "Mireille Ashdown"),
        False,
    )


def test_recent_reads_hsm_saves_and_copes_with_odd_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HSM_SAVES", str(tmp_path))
    assert store.saves_folder() == tmp_path
    odd = tmp_path / "odd.toml"
    odd.write_text(
        'format = "hsm-tui campaign"\nformat_version = 1\nstate = 3\n', encoding="utf-8"
    )  # readable at the top, nonsense below: listed as the error opening it would give
    [entry] = store.recent()
    assert isinstance(entry, CampaignFileError)
    assert str(entry) == f"{odd}: key state: missing, or not a table"
    assert store.recent(tmp_path / "nowhere") == []


@pytest.mark.parametrize("value", [None, ""])
def test_saves_folder_defaults_to_saves(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv("HSM_SAVES", raising=False)
    else:
        monkeypatch.setenv("HSM_SAVES", value)
    assert store.saves_folder() == Path("saves")


# -- file names and campaign names -------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "file"),
    [
        ("Lost Relics!", "lost-relics.toml"),
        ("  The   Dust\tSea  ", "the-dust-sea.toml"),
        ("Mars 2311", "mars-2311.toml"),
        ("../../etc/passwd", "etc-passwd.toml"),
        ("C:\\saves\\x", "c-saves-x.toml"),
        ("", "campaign.toml"),
        ("!!!", "campaign.toml"),
        ("Été à Paris", "été-à-paris.toml"),
    ],
)
def test_file_name_is_a_safe_slug(name: str, file: str) -> None:
    assert store.file_name(name) == file


@pytest.mark.parametrize("name", ["Été à Paris", "火星", "a/b\\c:d*e?f", "x" * 60])
def test_file_name_never_leaves_the_folder(name: str) -> None:
    file = store.file_name(name)
    assert re.fullmatch(r"[^\W_]+(-[^\W_]+)*\.toml", file), file  # letters of any script


@pytest.mark.parametrize(
    "name", ["", "   ", "\t\n", "x" * 61, "y " * 31], ids=["empty", "blank", "ws", "61", "long"]
)
def test_rename_campaign_refuses_empty_and_long_names(name: str) -> None:
    session = Session(seed=1, content=pack())
    with pytest.raises(RulesError, match="1 to 60 characters"):
        session.rename(name)
    assert session.campaign == Campaign() and not session.unsaved


def test_only_the_gm_renames_the_campaign() -> None:
    session = Session(seed=1, content=pack())
    with pytest.raises(RulesError, match="only the GM"):
        session.rename("Mine now", issuer="player:ana")


def test_rename_campaign_collapses_whitespace_and_holds_through_undo() -> None:
    """The name is the campaign's: undo never brings back a name the file no longer has."""
    session = Session(seed=1, content=pack())
    session.apply(AddHero("kestrel-vance"))
    session.rename("  The   Lost\tRelics\n")
    assert session.campaign.name == "The Lost Relics"
    assert session.unsaved and not any("renamed" in e.title for e in session.log)
    session.rename("a" * 30 + "   " + "b" * 29)  # 62 typed, 60 kept
    assert session.campaign.name == "a" * 30 + " " + "b" * 29
    session.rename("x" * 60)
    session.undo()  # takes back the Hero, not a name
    assert session.campaign == Campaign(name="x" * 60)
    assert not session.can_undo
    session.redo()
    assert session.campaign.name == "x" * 60 and session.campaign.party


def test_rename_campaign_mid_fight_even_while_a_question_waits(tmp_path: Path) -> None:
    """Naming the campaign (to save it) changes no fight: taken even while a dive waits
    (R-ATK-5), the question and the group's queued attack untouched; it saves with them.
    """
    session = duel(seed=1)
    encounter = session.encounter
    session.rename("Ambush")
    assert (session.campaign.name, session.encounter) == ("Ambush", encounter)
    session.apply(Batch((Attack(R1, K, "laser-pistol"), Attack(R2, K, "laser-pistol"))))
    pending, queue = session.pending, session.queue
    assert isinstance(pending, PendingDive) and queue
    session.rename("Ambush at the dig")
    assert (session.pending, session.queue) == (pending, queue)
    path = tmp_path / store.file_name(session.campaign.name)
    assert path.name == "ambush-at-the-dig.toml"
    loaded = round_trip(session, path)
    both(session, loaded, AnswerDive("none"))
    session.undo()
    assert (session.campaign.name, session.pending) == ("Ambush at the dig", pending)
    session.undo()  # back before the attacks: the name stays the campaign's
    assert (session.campaign.name, session.pending) == ("Ambush at the dig", None)


# -- a new campaign ----------------------------------------------------------------------
def test_new_campaign_resets_everything_but_the_packs(tmp_path: Path) -> None:
    session = Session(seed=1, content=pack())
    session.rename("Old")
    session.apply(AddHero("kestrel-vance"))
    session.apply(SetScene("the dig at dusk"))
    store.save(session, tmp_path / "old.toml")
    for command in (
        AddZone("ridge"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("sidekick", "veteran-guide", "heroes", "ridge"),
        StartCombat(),  # asks about the Sidekick (R-CHAR-8) and waits in the queue
    ):
        session.apply(command)
    session.undo()
    session.redo()
    session.apply(DecideSidekick("veteran-guide-1", "minion"))
    session.undo()
    assert session.pending and session.queue and session.can_redo
    content = session.content
    seen: list[Session] = []
    session.subscribe(lambda event: seen.append(event.session))

    session.new_campaign()
    assert seen == [session]
    assert session.content is content
    assert session.campaign == Campaign()
    assert session.encounter == Encounter(zones=())
    assert (session.log, session.pending, session.queue, session.history) == ((), None, (), [])
    assert (session.can_undo, session.can_redo, session.file, session.unsaved) == (
        False,
        False,
        None,
        False,
    )
    assert session.rng.getstate() == random.Random(session.seed).getstate()
    session.apply(AddHero("kestrel-vance"))  # the packs are still there
    assert session.unsaved
    assert store.load(Session(content=pack()), tmp_path / "old.toml")  # the old file stays


# -- the codec itself --------------------------------------------------------------------
class Mood(Enum):
    GRIM = "grim"
    CHEERFUL = "cheerful"


@dataclass(frozen=True)
class Leaf:
    n: int
    label: str = ""


@dataclass(frozen=True)
class Other:
    flag: bool = False


@dataclass(frozen=True)
class Root:
    mood: Mood
    leaf: Leaf
    maybe: Leaf | None = None
    either: Leaf | Other | None = None
    pair: tuple[int, str] = (0, "")
    one: tuple[int] = (0,)
    many: tuple[Leaf, ...] = ()
    ratio: float = 0.5
    count: int | str = 0
    anything: tuple[Any, ...] = ()


KNOWN = codec.registry(Root)


def test_codec_round_trips_through_toml_text() -> None:
    root = Root(
        Mood.CHEERFUL,
        Leaf(1, "a"),
        either=Other(True),
        pair=(2, "b"),
        one=(3,),
        many=(Leaf(4), Leaf(5, "c")),
        ratio=0.25,
        count="many",
        anything=(Leaf(6), Other()),
    )
    data = codec.to_data(root, Root)
    assert "maybe" not in data  # None is left out
    assert data["mood"] == "cheerful"
    assert "_type" not in data["leaf"] and "_type" not in data["many"][0]  # the hint says
    assert data["either"]["_type"] == "Other"  # a union: the class is named
    assert [item["_type"] for item in data["anything"]] == ["Leaf", "Other"]
    assert codec.from_data(tomllib.loads(tomli_w.dumps(data)), Root, KNOWN) == root


def test_codec_reads_leniently_where_it_is_safe() -> None:
    data = {"mood": "GRIM", "leaf": {"n": 1}, "ratio": 2, "count": 7}
    root = codec.from_data(data, Root, KNOWN)
    assert root == Root(Mood.GRIM, Leaf(1), ratio=2.0, count=7)
    assert isinstance(root.ratio, float)  # a whole number in a float field reads as a float


@pytest.mark.parametrize(
    ("change", "where", "problem"),
    [
        ({"one": [1, 2]}, "one", "expected 1 items, found 2"),  # tuple[int] is one item
        ({"pair": [1]}, "pair", "expected 2 items, found 1"),
        ({"pair": [1, 2]}, "pair[1]", "expected text, found 2"),
        ({"many": [{"n": 1}, {"n": "x"}]}, "many[1].n", "expected a number, found 'x'"),
        ({"either": {"n": 1}}, "either._type", "unknown or missing type None"),
        ({"either": {"_type": "Root"}}, "either._type", "Root does not belong here"),
        ({"either": 3}, "either", "expected a table, found 3"),
        ({"count": 1.5}, "count", "expected int or str, found 1.5"),
        ({"anything": [3]}, "anything[0]", "expected a table, found 3"),
        ({"mood": 1}, "mood", "expected one of grim, cheerful, found 1"),
        ({"leaf": {"n": 1, "x": 2}}, "leaf.x", "unknown key for Leaf"),
        ({"leaf": "n"}, "leaf", "expected a table, found 'n'"),
        ({"many": {"n": 1}}, "many", "expected a list, found {'n': 1}"),
    ],
)
def test_codec_names_the_key_at_fault(change: dict[str, Any], where: str, problem: str) -> None:
    data = {"mood": "grim", "leaf": {"n": 1}, **change}
    with pytest.raises(codec.DataError) as caught:
        codec.from_data(data, Root, KNOWN)
    assert (caught.value.where, caught.value.problem) == (where, problem)
    assert str(caught.value) == f"{where}: {problem}"


def test_codec_missing_key_and_top_level_errors() -> None:
    with pytest.raises(codec.DataError, match=r"^leaf: missing$"):
        codec.from_data({"mood": "grim"}, Root, KNOWN)
    with pytest.raises(codec.DataError, match=r"^top level: expected a table, found 3$"):
        codec.from_data(3, Root, KNOWN)


@pytest.mark.parametrize(
    ("root", "where", "problem"),
    [
        (Root(Mood.GRIM, Leaf(1), many=(Leaf(1), None)), "many[1]", "TOML cannot hold None"),  # type: ignore[arg-type]
        (Root(Mood.GRIM, Leaf(1), anything=({1},)), "anything[0]", "cannot save a set"),
        (Root(Mood.GRIM, Leaf(object())), "leaf.n", "cannot save a object"),  # type: ignore[arg-type]
    ],
)
def test_codec_to_data_names_the_key_it_cannot_write(root: Root, where: str, problem: str) -> None:
    with pytest.raises(codec.DataError, match=problem) as caught:
        codec.to_data(root, Root)
    assert caught.value.where == where


def test_codec_registry_refuses_two_classes_of_one_name() -> None:
    @dataclass(frozen=True)
    class Impostor:
        n: int

    Impostor.__name__ = "Leaf"
    with pytest.raises(TypeError, match="two dataclasses named Leaf"):
        codec.registry(Root, Impostor)
    assert set(KNOWN) == {"Root", "Leaf", "Other"}


# -- hostile files and saves that cannot be written ---------------------------------------
def test_a_file_nested_too_deeply_is_refused_and_listed_as_an_error(
    victim: Session, tmp_path: Path
) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    before = (everything(victim), victim.file, victim.unsaved)
    with pytest.raises(CampaignFileError, match="nested too deeply"):
        store.load(victim, deep)
    untouched(victim, before)
    [entry] = store.recent(tmp_path)
    assert isinstance(entry, CampaignFileError) and "deep.toml" in str(entry)


def test_text_that_is_not_valid_unicode_is_refused_at_save(tmp_path: Path) -> None:
    session = Session(seed=1, content=pack())
    session.apply(SetScene("a lone surrogate \udcff"))
    with pytest.raises(CampaignFileError, match=r"cannot save .*c\.toml: .*surrogate"):
        store.save(session, tmp_path / "c.toml")
    assert list(tmp_path.iterdir()) == [] and session.unsaved


def test_a_second_save_keeps_the_first_as_a_backup_with_the_same_mode(tmp_path: Path) -> None:
    session = Session(seed=1, content=pack())
    path = store.save(session, tmp_path / "c.toml")
    first = path.read_bytes()
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()  # not mkstemp's 0600
    path.chmod(0o640)
    session.apply(AddHero("kestrel-vance"))
    store.save(session, path)
    assert (tmp_path / "c.toml.bak1").read_bytes() == first
    assert path.stat().st_mode & 0o777 == 0o640
    assert [e.path.name for e in store.recent(tmp_path)] == ["c.toml"]  # not the backup


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_saving_through_a_symlink_replaces_the_file_it_points_at(tmp_path: Path) -> None:
    real = tmp_path / "elsewhere" / "real.toml"
    real.parent.mkdir()
    store.save(Session(seed=1, content=pack()), real)
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    session = Session(seed=2, content=pack())
    session.rename("Through the link")
    store.save(session, link)
    assert link.is_symlink()
    assert store.read(real)["state"]["campaign"]["name"] == "Through the link"
    assert session.file == link


def test_find_takes_a_path_or_a_bare_name_in_the_saves_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HSM_SAVES", str(tmp_path))
    path = store.save(Session(seed=1, content=pack()), tmp_path / "lost-relics.toml")
    assert store.find("lost-relics") == path
    assert store.find("lost-relics.toml") == path
    assert store.find(str(path)) == path
    assert store.find("nowhere") == Path("nowhere")  # then open says it is missing


def test_r_task_6_free_rerolls_are_bounded() -> None:
    """Exact odds grow with the re-roll count: a file's RollTask cannot ask for 3,000."""
    refused(Session(seed=1, content=pack()), RollTask(TN, Rank.HERO, rerolls=11), "0 to 10")


def test_only_the_gm_replaces_the_whole_campaign(tmp_path: Path) -> None:
    session = Session(seed=1, content=pack())
    data = session.to_data()
    with pytest.raises(RulesError, match="only the GM"):
        session.load_data(data, issuer="player:ana")
    with pytest.raises(RulesError, match="only the GM"):
        session.new_campaign(issuer="player:ana")


def test_a_party_hero_missing_from_the_packs_is_named_when_opened(tmp_path: Path) -> None:
    session = Session(seed=1, content=pack())
    session.apply(AddHero("kestrel-vance"))
    path = store.save(session, tmp_path / "c.toml")
    path.write_text(path.read_text().replace('"kestrel-vance"', '"nobody-here"'))
    loaded = Session(content=pack())
    answer = store.load(loaded, path)
    assert "Kestrel Vance: hero 'nobody-here' is not in the loaded packs" in answer


@pytest.mark.parametrize("block", ["state.log", "undo.commands", "undo.start.log"])
def test_a_bad_value_in_any_block_of_lines_names_its_line(tmp_path: Path, block: str) -> None:
    """Each block a save writes (reader._BLOCKS, which the key's pattern is made from) leads
    a bad entry's message to its line in the file."""
    path = tmp_path / "c.toml"
    path.write_text(
        "version = 3\n" + "".join(f"{o}{{}}\n{{}}\n'''\n" for o in reader._BLOCKS.values())
    )
    first = path.read_text().index(reader._BLOCKS[block]) + len(reader._BLOCKS[block])
    line = path.read_text().count("\n", 0, first) + 1 + 1  # the second entry: [1]
    message = store.problem(path, codec.DataError(f"{block}[1]", "bad"))
    assert message == f"{path}: line {line}, key {block}[1]: bad"
