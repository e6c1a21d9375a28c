"""A campaign file saved before the combat engine became a package still opens, and its
whole undo history replays to the very state it saved (issue 17: behaviour unchanged).

``tests/fixtures/pre-split-campaign.toml`` was written by the single-module engine: the
scripted fight (tests/campaign/test_scripted_fight.py), then 400 random commands of every
kind (attacks, suppressive fire, close in, actions, damage, conditions, re-rolls), saved
with a dive for cover waiting (R-ATK-5). Replaying every command with the file's dice and
comparing the result with the saved state means one changed die, log line or refusal
anywhere in the engine makes these tests fail.

Two changes are the rules' (issue 18 #4 and #14, R-TASK-6 "re-roll any roll"): a Hero
with Luck or Clues is now asked about re-rolls on its Defense roll against suppressive
fire and on its Morale roll at the start of a turn, so the history stops at the first
such roll until the question is answered. Opening the file then keeps the saved state
without undo; answered "keep the roll" each time, the same 229 commands still replay to
exactly the saved fight.
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from hsm_tui.campaign.combat import PendingCombatRerolls, PendingDive, SpendCombatRerolls
from hsm_tui.persistence import snapshot, store
from hsm_tui.session import Session
from hsm_tui.state import LogEntry
from tests.campaign import pack

FIXTURE = Path(__file__).parent / "fixtures" / "pre-split-campaign.toml"
KEPT = ": roll kept"  # the title of what follows a question answered by keeping the roll


def test_a_file_saved_before_the_split_opens_as_saved(tmp_path: Path) -> None:
    path = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, path)
    session = Session(content=pack())
    assert store.load(session, path).startswith("its undo history no longer leads")
    assert isinstance(session.pending, PendingDive)
    assert session.encounter.active
    assert path.read_bytes() == FIXTURE.read_bytes()  # opening never rewrites the file


def test_its_whole_history_replays_to_the_saved_state_once_each_question_is_answered() -> None:
    """R-TASK-6 (issue 18 #4, #14): each new question, answered by keeping the roll, splits
    one log entry in two; every die, every entry and the whole saved state come out as the
    single-module engine wrote them.
    """
    data = tomllib.loads(FIXTURE.read_text())
    saved = snapshot.session_from(data)
    session = Session(content=pack())
    session.load_data({"seed": data["seed"], "state": data["undo"]["start"], "redo": []})
    asked, kept = [], set()
    for command in saved.commands:
        pending = session.pending
        if isinstance(pending, PendingCombatRerolls) and type(command) is not SpendCombatRerolls:
            asked.append(pending.question.partition(":")[0])
            session.apply(SpendCombatRerolls(0, 0))
            kept.add(next(e.seq for e in session.log[::-1] if e.title.endswith(KEPT)))
        session.apply(command)
    assert asked.count("Kestrel Vance's Defense roll") == 1  # the cone (R-ATK-16)
    assert {q.partition("'s ")[2] for q in asked} == {"Defense roll", "Morale roll"}  # R-FEAR-1
    now = saved.now
    assert (session.encounter, session.campaign, session.pending) == (
        now.encounter,
        now.campaign,
        now.pending,
    )
    assert session.rng.getstate() == now.rng_state
    assert _merged(session.log, kept) == [(e.title, e.lines) for e in now.log]


def _merged(log: tuple[LogEntry, ...], kept: set[int]) -> list[tuple[str, tuple[str, ...]]]:
    """The log with each entry the ``kept`` answers split in two joined again: the
    question's part, then the rest after "keeps the roll" (a Morale line the rest repeats
    counted once).
    """
    out: list[tuple[str, tuple[str, ...]]] = []
    for e in log:
        if e.seq not in kept:
            out.append((e.title, e.lines))
            continue
        title, lines = out.pop()
        rest = e.lines[1:]  # after "keeps the roll"
        if rest and rest[0].startswith(lines[-1]):
            lines = lines[:-1]
        out.append((title, lines + rest))
    return out
