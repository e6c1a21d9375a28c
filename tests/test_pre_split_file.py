"""A campaign file saved before the combat engine became a package still opens, and its
whole undo history replays to the very state it saved (issue 17: behaviour unchanged).

``tests/fixtures/pre-split-campaign.toml`` was written by the single-module engine: the
scripted fight (tests/campaign/test_scripted_fight.py), then 400 random commands of every
kind (attacks, suppressive fire, close in, actions, damage, conditions, re-rolls), saved
with a dive for cover waiting (R-ATK-5). The first undo after opening replays every
command with the file's dice and compares the result with the saved state, so one
changed die, log line or refusal anywhere in the engine makes this test fail.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from hsm_tui.campaign.combat import PendingDive
from hsm_tui.persistence import store
from hsm_tui.session import Session
from tests.campaign import pack
from tests.test_persistence import unmarked

FIXTURE = Path(__file__).parent / "fixtures" / "pre-split-campaign.toml"


def test_a_file_saved_before_the_split_opens_and_replays_its_whole_history(
    tmp_path: Path,
) -> None:
    path = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, path)
    session = Session(content=pack())
    assert store.load(session, path) == "undo history kept (229 step(s))"
    assert isinstance(session.pending, PendingDive)
    assert session.encounter.active
    assert path.read_bytes() == FIXTURE.read_bytes()  # opening never rewrites the file
    saved = (session.encounter, unmarked(session.log), session.pending, session.rng.getstate())
    undone = session.undo()  # replays the 229 steps: refused if they lead elsewhere
    assert session.redo() == undone
    # replayed, the log is marked by today's rules (the file's was read as TITLED)
    replayed = (session.encounter, unmarked(session.log), session.pending)
    assert (*replayed, session.rng.getstate()) == saved
