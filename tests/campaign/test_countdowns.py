"""Effects that count down by their bearer's turns, §7 row 11 (Stunned for 1d6 turns)
played by the engine, and the GM's note on a combatant."""

from __future__ import annotations

import tomllib

import pytest
import tomli_w

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    EndCombat,
    EndTurn,
    Move,
    RollChart,
    SetCondition,
    SetCountdown,
    SetNote,
    SetPools,
    StartCombat,
    TakeAction,
)
from hsm_tui.campaign.encounter import Countdown
from hsm_tui.persistence import store
from hsm_tui.persistence.versions import VERSION
from hsm_tui.table.session import Session
from tests.campaign import edit, new_session, pack, play, refused, state
from tests.campaign.test_combat_engine import R1, R2, K, duel, last


def _round(s, *dice: int) -> None:  # type: ignore[no-untyped-def]
    """Kestrel's turn ends, then the raiders' (no dice at Fear 0): her next turn starts."""
    play(s, EndTurn())
    play(s, EndTurn(), *dice)


def test_s7_row_11_stunned_for_1d6_of_its_turns_then_the_engine_ends_it() -> None:
    """§7 row 11: "can only move 1d4 spaces for 1d6 turns" (imagination mode: out of
    cover 1 turn, in cover in 2): the chart rolls the 1d6 with the session's dice; the turn
    under way when it is set does not count; no Run while it lasts, no Move or Hide on
    its first turn; it ends at the end of its last turn, with a line in the log."""
    s = duel()  # Kestrel's turn
    play(s, RollChart(K, overflow=1), 1, 2, 10, 2)  # grip kept; d10 10 + 1 = 11; 1d6 2
    kestrel = s.encounter.get(K)
    assert kestrel.conditions == ("stunned",) and kestrel.prone
    assert kestrel.countdowns == (Countdown("stunned", 2, 2),)
    assert "marked stunned for its next 2 turns (1d6 [2] = 2)" in s.log[-1].lines[-1]
    refused(s, Move(K, "camp", run=True), r"Stunned: it moves only a little, no Run \(§7 row 11\)")
    play(s, Move(K, "trench"))  # the turn it was stunned in is not its first of them
    play(s, TakeAction(K, "stand"))

    _round(s)  # her first turn under it
    assert last(s) == (
        "Round 2: Kestrel Vance's turn",
        ("Kestrel Vance: stunned, turn 1 of 2 (its first: no Move, Run or Hide, §7 row 11)",),
    )
    first = "Stunned, its first turn of it: it stays where it is, in the open"
    refused(s, Move(K, "ridge"), first)  # back out of the trench
    refused(s, TakeAction(K, "hide", cover="light"), first)
    play(s, TakeAction(K, "aim"))  # what is not a move stays open to it

    _round(s)  # her second and last
    assert last(s)[1] == ("Kestrel Vance: stunned, its last turn of 2",)
    refused(s, Move(K, "ridge", run=True), "no Run")
    play(s, TakeAction(K, "hide", cover="light"))  # in cover on its second turn
    play(s, EndTurn())
    assert last(s, 2) == ("End of turn", ("Kestrel Vance: stunned ends after 2 turns",))
    assert s.encounter.get(K).conditions == () and s.encounter.get(K).countdowns == ()


def test_gm_countdown_of_its_own_words_ends_at_the_end_of_the_bearers_turn() -> None:
    """The GM's "burning 1 more round" on a raider, set on Kestrel's turn: it covers the
    raiders' next turn, is logged and undone like any command, and the GM may end it."""
    s = duel()
    s.apply(SetCountdown(R1, "  on   fire ", 1))
    assert s.encounter.get(R1).countdowns == (Countdown("on fire", 1, 1),)
    assert s.encounter.get(R1).conditions == ()  # not a §8 condition: a count alone
    assert last(s) == ("Pirate raider 1: on fire for its next 1 turn", ())
    play(s, EndTurn())
    assert "Pirate raider 1: on fire, its last turn of 1" in last(s)[1]
    play(s, EndTurn())
    assert "Pirate raider 1: on fire ends after 1 turn" in s.log[-2].lines
    assert s.encounter.get(R1).countdowns == ()

    s.undo()
    s.undo()
    s.apply(SetCountdown(R1, "On Fire", 2))  # the same effect, whatever its case: replaced
    assert s.encounter.get(R1).countdowns == (Countdown("On Fire", 2, 2),)
    s.apply(SetCountdown(R1, "on fire", 0))
    assert last(s) == ("Pirate raider 1: on fire ended by the GM", ())
    assert s.encounter.get(R1).countdowns == ()


@pytest.mark.parametrize(
    ("command", "match"),
    [
        (SetCountdown(K, "shaken", 2), "shaken is not timed: Fear ends it"),
        (SetCountdown(K, "Prone", 2), "prone is not timed: standing up ends it"),
        (SetCountdown(K, "dazed", 2), "dazed counts in numbers, not turns"),
        (SetCountdown(K, "stunned", 21), "0 .end it. to 20 turns, not 21"),
        (SetCountdown(K, "stunned", -1), "not -1"),
        (SetCountdown(K, "   ", 2), "name the effect"),
        (SetCountdown(K, "x" * 41, 2), "at most 40 characters"),
        (SetCountdown(K, "stunned", 0), "has no countdown of stunned"),
        (SetCountdown("nobody", "stunned", 1), "no combatant 'nobody'"),
        (SetNote(K, "x" * 201), "at most 200 characters, not 201"),
        (SetNote(K, ""), "Kestrel Vance has no note"),
    ],
)
def test_countdowns_and_notes_refuse_bad_input_with_the_reason(command, match) -> None:  # type: ignore[no-untyped-def]
    refused(duel(), command, match)


def test_s8_gm_clearing_a_timed_condition_ends_its_countdown_and_stunned_is_marked() -> None:
    s = duel()
    s.apply(SetCountdown(K, "Stunned", 3))  # a §8 condition: marked with it
    assert s.encounter.get(K).conditions == ("stunned",)
    s.apply(SetCondition(K, "stunned", 0))
    assert s.encounter.get(K).countdowns == ()


def test_r_combat_1_ending_the_fight_ends_every_countdown() -> None:
    s = duel()
    s.apply(SetCountdown(K, "stunned", 3))
    s.apply(SetCountdown(R2, "blinded", 2))
    play(s, EndCombat())
    assert last(s)[1][1:] == (
        "Kestrel Vance: stunned ends with it",
        "Pirate raider 2: blinded ends with it",
    )
    assert all(c.countdowns == () for c in s.encounter.combatants)
    assert s.encounter.get(K).conditions == ()


def test_a_turn_passed_unconscious_counts_for_its_countdowns() -> None:
    s = duel()
    s.apply(SetCountdown(K, "stunned", 1))
    edit(s, K, unconscious=True)
    play(s, EndTurn())  # the raiders act
    play(s, EndTurn())  # Kestrel's turn passes unplayed: the raiders again
    assert last(s)[1] == ("Kestrel Vance: stunned ends after 1 turn",)
    assert s.encounter.get(K).countdowns == ()


def test_gm_note_is_tidied_kept_undone_and_cleared() -> None:
    s = duel()
    before = state(s)
    s.apply(SetNote(R1, "  owes  Kestrel\na favour "))
    assert s.encounter.get(R1).note == "owes Kestrel a favour"
    assert last(s) == ("Pirate raider 1: note “owes Kestrel a favour”", ())
    refused(s, SetNote(R1, "owes Kestrel a favour"), "note is that already")
    s.undo()
    assert state(s).encounter == before.encounter
    s.apply(SetNote(R1, "x"))
    s.apply(SetNote(R1, ""))
    assert s.encounter.get(R1).note == "" and last(s)[0] == "Pirate raider 1: note cleared"


def test_notes_and_countdowns_round_trip_and_a_file_without_them_opens(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The new fields have defaults: a file written before them opens with no
    note and no countdown (no format step), and one that has them keeps them, undo too."""
    s = new_session(  # the session's own seeded dice: a file replays its history
        AddZone("ridge"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "ridge", count=2),
        SetPools(K, luck=0),
        StartCombat(),
        seed=3,
    )
    s.apply(SetNote(R1, "carries the vault key"))
    s.apply(SetCountdown(K, "stunned", 3))
    path = store.save(s, tmp_path / "timed.toml")
    loaded = Session(content=pack())
    store.load(loaded, path)
    assert loaded.encounter == s.encounter
    assert loaded.encounter.get(K).countdowns == (Countdown("stunned", 3, 3),)
    loaded.undo()
    assert loaded.encounter.get(K).countdowns == () and loaded.encounter.get(R1).note

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["format_version"] == VERSION and _drop_new_keys(data) == 6  # 3 combatants
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    before = Session(content=pack())
    store.load(before, path)
    assert all(c.note == "" and c.countdowns == () for c in before.encounter.combatants)


def _drop_new_keys(data: object) -> int:
    """Take ``note`` and ``countdowns`` out of every combatant's table, as a file saved
    before them has it; how many were taken."""
    dropped = 0
    if isinstance(data, dict):
        if "rank" in data:
            dropped += sum(data.pop(key, None) is not None for key in ("note", "countdowns"))
        dropped += sum(_drop_new_keys(value) for value in data.values())
    elif isinstance(data, list):
        dropped += sum(_drop_new_keys(item) for item in data)
    return dropped
