"""A campaign file saved before the combat engine became a package still opens, and its
whole undo history replays to the very state it saved (issue 17: behaviour unchanged).

``tests/fixtures/pre-split-campaign.toml`` was written by the single-module engine: the
scripted fight (tests/campaign/test_scripted_fight.py), then 400 random commands of every
kind (attacks, suppressive fire, close in, actions, damage, conditions, re-rolls), saved
with a dive for cover waiting (R-ATK-5). Replaying every command with the file's dice and
comparing the result with the saved state means one changed die, log line or refusal
anywhere in the engine makes these tests fail.

One change is the rules' (issue 18 #4, R-ATK-16 with R-TASK-6): a Hero hit by
suppressive fire is now asked whether to spend Luck or Clues on its Defense roll, so the
history stops at its 94th command (Kestrel Vance, Luck 5) until the question is answered.
Opening the file then keeps the saved state without undo; answered "keep the roll", the
same 229 commands still replay to exactly the saved fight.
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from hsm_tui.campaign.combat import PendingCombatRerolls, PendingDive, SpendCombatRerolls
from hsm_tui.persistence import snapshot, store
from hsm_tui.session import Session
from tests.campaign import pack

FIXTURE = Path(__file__).parent / "fixtures" / "pre-split-campaign.toml"
CONE = 115  # the log entry of the suppressive fire that now asks Kestrel Vance


def test_a_file_saved_before_the_split_opens_as_saved(tmp_path: Path) -> None:
    path = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, path)
    session = Session(content=pack())
    assert store.load(session, path).startswith("its undo history no longer leads")
    assert isinstance(session.pending, PendingDive)
    assert session.encounter.active
    assert path.read_bytes() == FIXTURE.read_bytes()  # opening never rewrites the file


def test_its_whole_history_replays_to_the_saved_state_once_the_cone_is_answered() -> None:
    """R-ATK-16 / R-TASK-6 (issue 18 #4): the one new question, answered by keeping the
    roll, splits one log entry in two; every die, every other entry and the whole saved
    state come out as the single-module engine wrote them.
    """
    data = tomllib.loads(FIXTURE.read_text())
    saved = snapshot.session_from(data)
    session = Session(content=pack())
    session.load_data({"seed": data["seed"], "state": data["undo"]["start"], "redo": []})
    asked = []
    for command in saved.commands:
        pending = session.pending
        if isinstance(pending, PendingCombatRerolls) and type(command) is not SpendCombatRerolls:
            asked.append(pending.question)
            session.apply(SpendCombatRerolls(0, 0))
        session.apply(command)
    assert asked == [
        "Kestrel Vance's Defense roll: Defense 6: d10 7 → 1 of 1 through, 0 avoided"
        " · Hero die 2 · blank. Spend re-rolls? (free 0, Luck 5, Clues 2)"
    ]
    now = saved.now
    assert (session.encounter, session.campaign, session.pending) == (
        now.encounter,
        now.campaign,
        now.pending,
    )
    assert session.rng.getstate() == now.rng_state
    replayed = [(e.title, e.lines) for e in session.log]
    written = [(e.title, e.lines) for e in now.log]
    assert replayed[:CONE] + replayed[CONE + 2 :] == written[:CONE] + written[CONE + 1 :]
    cone, rest = replayed[CONE : CONE + 2]
    assert rest[0] == f"{cone[0]}: roll kept"
    assert (cone[0], cone[1] + rest[1][1:]) == written[CONE]  # after "keeps the roll"
