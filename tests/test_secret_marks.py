"""Issue 21 §2: every number of the GM's that the engine writes into a log line is marked,
whatever rule wrote it. Simulated fights of the shipped example encounter (in which no
combatant is a player's, so every number is the GM's) go through every handler the
simulator reaches; read as a player reads it, no line about a combatant may give one of
its numbers away. A new log line that forgets :func:`hsm_tui.rules.secret.secret` fails
here.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import hsm_tui.forecast.simulate as sim
from hsm_tui.campaign.combat import Outcome
from hsm_tui.persistence.encounter_file import read_encounter
from hsm_tui.rules.secret import redact
from hsm_tui.table.session import Session

EXAMPLE = Path(__file__).parent.parent / "content" / "encounters" / "dig-site-ambush.toml"
NUMBER = re.compile(r"(Defense|Health|Stamina|Morale|Strength|Initiative|TN) [−-]?\d")
"""A combatant's number as a log line states it (a card's "target Defense −1" aside)."""
CARD = re.compile(r"^(special|fortune|misfortune)\d?: ")


def test_no_line_of_a_simulated_fight_gives_a_gm_number_away(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    outcomes: list[Outcome] = []

    def kept(handler: Any) -> Any:
        def handle(*args: Any) -> Outcome:
            outcome = handler(*args)
            outcomes.append(outcome)
            return outcome

        return handle

    for kind, handler in list(sim.HANDLERS.items()):
        monkeypatch.setitem(sim.HANDLERS, kind, kept(handler))
    for name in ("answer_dive", "choose_chart_row", "spend_combat_rerolls"):
        monkeypatch.setattr(sim, name, kept(getattr(sim, name)))
    session = Session()
    session.load_content()
    spec = read_encounter(EXAMPLE, session.catalog)
    for seed in range(12):
        sim.fight(spec, session.catalog, random.Random(seed))
    assert len(outcomes) > 1000
    given_away = set()
    for outcome in outcomes:
        names = tuple(c.name for c in outcome.encounter.combatants)
        assert not any(c.player for c in outcome.encounter.combatants)
        for entry in outcome.log:
            about = entry.title.startswith(names)
            for line in map(redact, entry.lines):
                said = line.lstrip("0123456789. ")
                if (about or said.startswith(names)) and not CARD.match(said):
                    given_away |= {line} if NUMBER.search(line) else set()
    assert sorted(given_away) == []
