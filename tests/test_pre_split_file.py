"""A campaign file saved before the combat engine became a package still opens, and its
whole undo history replays to the very state it saved (issue 17: behaviour unchanged).

``tests/fixtures/pre-split-campaign.toml`` was written by the single-module engine: the
scripted fight (tests/campaign/test_scripted_fight.py), then 400 random commands of every
kind (attacks, suppressive fire, close in, actions, damage, conditions, re-rolls), saved
with a dive for cover waiting (R-ATK-5). Replaying every command with the file's dice and
comparing the result with the saved state means one changed die, log line or refusal
anywhere in the engine makes these tests fail.

Rules changed since (issue 18), so its history no longer leads to its saved state and
opening it keeps that state without undo. What can still be checked is how far the
history replays unchanged: every die and log line up to the first turn a changed rule
plays otherwise (a Panicked Minion is no longer Shaken too, §8), with each new re-roll
question (R-TASK-6: a Hero's Defense against suppressive fire, its Morale roll) answered
by keeping the roll.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hsm_tui.campaign.combat import PendingCombatRerolls, PendingDive, SpendCombatRerolls
from hsm_tui.persistence import session_file, store
from hsm_tui.rules import RulesError
from hsm_tui.table.session import Session
from hsm_tui.table.state import LogEntry
from tests.campaign import pack

FIXTURE = Path(__file__).parent / "fixtures" / "pre-split-campaign.toml"
KEPT = ": roll kept"  # the title of what follows a question answered by keeping the roll


def test_a_file_saved_before_the_split_opens_as_saved(tmp_path: Path) -> None:
    path = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, path)
    session = Session(content=pack())
    assert (
        store.load(session, path) == "undo history of 229 step(s), checked on the first undo"
    )  # read lazily
    assert isinstance(session.pending, PendingDive)
    assert session.encounter.active
    assert path.read_bytes() == FIXTURE.read_bytes()  # opening never rewrites the file
    saved = (session.encounter, session.log, session.pending)
    with pytest.raises(RulesError, match="no longer leads to the state it saved"):
        session.undo()  # the first undo replays the steps: they lead elsewhere now
    assert (session.encounter, session.log, session.pending) == saved  # the state stays
    assert not session.can_undo


def test_its_history_replays_unchanged_up_to_the_first_rule_issue_18_changed() -> None:
    """§5 Making an Attack (issue 18 #16): "The Fear on a target is given to an
    individual, or a unit": the bow's 2 Fear on the first hound goes to both hounds of its
    unit. Everything before that attack, the scripted fight's first 22 entries (set-up and
    initiative), replays as it was written.
    """
    data = store.read(FIXTURE)  # brought up to the format of the day
    saved = session_file.session_from(data)
    written = [(e.title, e.gm_lines) for e in saved.now.log]
    session = Session(content=pack())
    session.load_data({"seed": data["seed"], "state": data["undo"]["start"], "redo": []})
    kept: set[int] = set()
    for command in session_file.read_steps(saved.unread):
        pending = session.pending
        if isinstance(pending, PendingCombatRerolls) and type(command) is not SpendCombatRerolls:
            session.apply(SpendCombatRerolls(0, 0))
            kept.add(next(e.seq for e in session.log[::-1] if e.title.endswith(KEPT)))
        session.apply(command)
        replayed = _merged(session.log, kept)
        if replayed != written[: len(replayed)]:
            break
    first = next(i for i, (a, b) in enumerate(zip(replayed, written, strict=False)) if a != b)
    assert first == 22
    title = "Tamsin Reyes, veteran guide attacks Feral xeno-hound 1"
    assert replayed[first][0] == written[first][0] == title
    assert replayed[first][1][-1] == (
        "Feral xeno-hound 1 and the rest of its unit (2 in all) gain 2 Fear each (R-ATK-4)"
    )
    assert written[first][1][-1] == "Feral xeno-hound 1 gains 2 Fear (R-ATK-4)"


def _merged(log: tuple[LogEntry, ...], kept: set[int]) -> list[tuple[str, tuple[str, ...]]]:
    """The log with each entry the ``kept`` answers split in two joined again: the
    question's part, then the rest after "keeps the roll" (a Morale line the rest repeats
    counted once).
    """
    out: list[tuple[str, tuple[str, ...]]] = []
    for e in log:
        if e.seq not in kept:
            out.append((e.title, e.gm_lines))
            continue
        title, lines = out.pop()
        rest = e.gm_lines[1:]  # after "keeps the roll"
        if rest and rest[0].startswith(lines[-1]):
            lines = lines[:-1]
        out.append((title, lines + rest))
    return out
