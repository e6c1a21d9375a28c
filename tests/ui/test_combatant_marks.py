"""Issue 19 #8: the 80-column Cond. column shows the most pressing marks first, in three
letters, and says how many more there are, instead of ``prone…`` hiding a Pinned one.
"""

from __future__ import annotations

from dataclasses import replace

from hsm_tui.ui.widgets.combatants import condition_text, short_conditions
from tests.campaign.test_combat_engine import K, duel


def test_pinned_shows_before_prone_and_the_rest_are_counted() -> None:
    kestrel = duel().encounter.get(K)
    marked = replace(kestrel, prone=True, conditions=("shaken", "pinned", "dazed:2"))
    assert condition_text(marked, False) == "prone,shaken,pinned,dazed:2"
    assert short_conditions(marked, False, 6) == "PIN+3"
    assert short_conditions(marked, True, 12) == "PINshkdaz2+2"
    assert short_conditions(replace(kestrel, prone=True), False, 6) == "prn"
    assert short_conditions(kestrel, False, 6) == "–"
