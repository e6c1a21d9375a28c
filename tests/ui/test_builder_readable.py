"""Issue 36 #16: F7 readable mid-fight at 80×24 and 120×40 with spots on the way (a
spot keeps where it leads, never ``ridge…`` or ``dig ↔ ridge →…``), and the initiative
says how many of a group remain (``×3/5``, never ``×…``).

Seed 7 with the shipped dig-site ambush (``tests.ui.test_combat_screen``): Kestrel Vance
closes in on the ridge (``m 2``: a spot ``ruins → ridge (short)``), Captain Roan Maddox
goes halfway toward the ridge from the dig pit.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from hsm_tui.campaign.combat import ApplyDamage, Move
from hsm_tui.ui.widgets.band_list import pair_text
from hsm_tui.ui.widgets.initiative import InitiativeList
from hsm_tui.ui.widgets.labels import fit, zone_text
from tests.ui.test_combat_screen import _app, _keys

SPOT, HALF = "ruins → ridge (short)", "dig pit → ridge (short, halfway)"


def test_a_groups_tally_and_a_spots_destination_survive_shortening() -> None:
    assert fit("Pirate raider ×3/5", 16) == "P. raider ×3/5"
    assert fit("Pirate raider ×5", 16) == "Pirate raider ×5"
    assert zone_text(HALF, 12) == "→ridge S½"
    assert pair_text("ridge", "ridge → dig (short)", 23) == ("ridge ↔ ridge→dig S", True)
    assert pair_text("dig", "ridge → dig (short)", 13) == ("dig ↔ →dig S", True)
    one, whole = pair_text("dig pit", SPOT, 15)
    assert (one, whole) == ("dig p… ↔ →rid S", False)  # what two lines, if room, avoid
    two, whole = pair_text("dig pit", SPOT, 15, room_below=True)
    assert (two, whole) == ("dig pit ↔\n       ruins→ridge S", True)


async def _spots(pilot: Pilot) -> None:
    """Kestrel closes in on the ridge; Roan goes halfway there; F7."""
    await _keys(pilot, "f4", "L", "s", "m", "2", "n")
    pilot.app.session.apply(Move("roan-maddox-1", "ridge"))
    await _keys(pilot, "f7")


def _rows(app, selector: str) -> list[str]:
    listing = app.screen.query_one(selector, OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


@pytest.mark.parametrize(
    ("size", "kestrel", "roan", "band"),
    [
        ((120, 40), "ruins→ridge S", "dig pit→ridge S½", "ruins ↔ ruins→ridge S"),
        ((80, 24), "→ridg S", "→rid S½", "ruins ↔ →rid S"),  # ten pairs in eight lines
    ],
)
async def test_issue_36_16_f7_names_where_each_spot_leads(
    size: tuple[int, int], kestrel: str, roan: str, band: str
) -> None:
    app = _app()
    async with app.run_test(size=size) as pilot:
        await _spots(pilot)
        roster = "\n".join(_rows(app, "#builder-roster"))
        assert "Kestrel" in roster and kestrel in roster and roan in roster
        assert "ruins…" not in roster and "ridge…" not in roster and "dig pit…" not in roster
        bands = _rows(app, "#builder-bands")
        assert not any(row.rstrip().endswith("→…") or "→ …" in row for row in bands)
        assert any(band in row for row in bands)
        zones = _rows(app, "#builder-zone-list")
        assert not any("…" in row for row in zones)


async def test_issue_36_16_the_initiative_says_how_many_of_a_group_remain() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f4", "L", "s")
        for raider in ("pirate-raider-1", "pirate-raider-2"):
            app.session.apply(ApplyDamage(raider, 20))  # a Minion's first wound: out
        await pilot.pause()
        order = str(app.screen.query_one(InitiativeList).render())
        assert "P. raider ×3/5" in order and "×…" not in order


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_builder_mid_fight_with_spots(snap_compare, size) -> None:
    assert snap_compare(_app(), terminal_size=size, run_before=_spots)
