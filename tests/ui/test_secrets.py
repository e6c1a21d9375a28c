"""The GM's keys for a shared session's secrets (issue 21), driven with Pilot: add a
group hidden from the players (F7 ``h``), reveal it (F4 ``V``), open a GM-only log
entry to every seat (F6 ``o``). What each seat then sees is the engine's (views.py).
"""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import OptionList

from hsm_tui.campaign.combat import AddCombatants, AddZone, AnswerDive, Attack, SetBand
from hsm_tui.campaign.party import SetScene
from hsm_tui.share.players import SeatEntry
from hsm_tui.table.seats import Role, Seat
from hsm_tui.table.session import Session
from hsm_tui.table.visibility import BUILDING, GM_ONLY, OPEN, PUBLIC
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.combat import CombatScreen
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.encounter_builder import EncounterBuilderScreen
from hsm_tui.ui.screens.log import LogScreen
from hsm_tui.ui.widgets.combatants import CombatantTable
from hsm_tui.ui.widgets.keybar import KeyBar
from hsm_tui.ui.widgets.pack_picker import PackPicker
from tests.campaign import play
from tests.campaign.test_combat_engine import R1, K, duel
from tests.ui.test_encounter_builder import _rows
from tests.ui.test_log_screen import _body

SEED = 7
RAIDER = "pirate-raider-1"


def _ambush() -> Session:
    """Kestrel on the ridge; three Pirate raiders hidden in the ruins (an ambush)."""
    session = Session(seed=SEED)
    session.load_content()
    for command in (
        AddZone("ridge"),
        AddZone("ruins"),
        SetBand("ridge", "ruins", "short"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "ruins", count=3, hidden=True),
    ):
        session.apply(command)
    return session


async def _keys(pilot: Pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


def _errors(app: HsmApp) -> list[str]:
    return [n.message for n in app._notifications if n.severity == "error"]


def _notes(app: HsmApp) -> list[str]:
    return [n.message for n in app._notifications]


# -- F7: h adds the next entries hidden ------------------------------------------------
async def test_h_adds_the_next_entries_hidden_until_pressed_again() -> None:
    session = Session(seed=SEED)
    session.load_content()
    session.apply(AddZone("ruins"))
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f7")
        assert isinstance(app.screen, EncounterBuilderScreen)
        picker = app.screen.query_one(PackPicker)
        assert picker.border_title == "Add (Enter)"
        await _keys(pilot, "h")
        assert picker.hidden and "hidden" in str(picker.border_title)
        assert "join hidden from the players" in _notes(app)[-1]
        await _keys(pilot, "slash", *"raider", "escape", "2", "enter")
        await _keys(pilot, "h")  # seen again: the next entry joins in the open
        assert not picker.hidden and picker.border_title == "Add (Enter)"
        await _keys(pilot, "slash", *"kestrel", "enter")
        hidden = {c.id: c.hidden for c in app.session.encounter.combatants}
        assert hidden == {
            "pirate-raider-1": True,
            "pirate-raider-2": True,
            "kestrel-vance-1": False,
        }
        rows = _rows(app, "#builder-roster")
        marked = [r.split()[0:3] for r in rows if "◌" in r]  # the name shortened at 80 columns
        assert marked == [["P.", "raid…", "1"], ["P.", "raid…", "2"]]
        assert any("Kestrel" in r and "◌" not in r for r in rows)
        await _keys(pilot, "right", "up")  # the encounter list: from Kestrel up to raider 2
        subtitle = str(app.screen.query_one("#builder-roster").border_subtitle)
        assert subtitle.startswith("Minion, hidden ◌")


# -- F4: the combat table marks them, V reveals the group -----------------------------
async def _on_a_raider(pilot: Pilot) -> CombatScreen:
    """F4, then ↓ from Kestrel to the first (hidden) raider."""
    await _keys(pilot, "f4", "down")
    screen = pilot.app.screen
    assert isinstance(screen, CombatScreen) and screen.selected == RAIDER
    return screen


async def test_combat_table_marks_hidden_combatants_in_name_and_conditions() -> None:
    app = HsmApp(_ambush())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _on_a_raider(pilot)
        table = screen.query_one(CombatantTable)
        assert str(table.get_cell(RAIDER, "Name")).rstrip().endswith("◌")
        assert str(table.get_cell(RAIDER, "Cond.")).strip() == "hidden"  # fits at 80 columns
        assert "◌" not in str(table.get_cell("kestrel-vance-1", "Name"))
        assert str(table.get_cell("kestrel-vance-1", "Cond.")).strip() == "–"


async def test_v_reveals_the_selected_group_and_the_engine_refuses_it_twice() -> None:
    app = HsmApp(_ambush())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _on_a_raider(pilot)
        await _keys(pilot, "V")
        assert not any(c.hidden for c in app.session.encounter.combatants)
        assert app.session.log[-1].title == (
            "Revealed: Pirate raider 1, Pirate raider 2, Pirate raider 3"
        )
        table = screen.query_one(CombatantTable)
        assert "◌" not in str(table.get_cell(RAIDER, "Name"))
        assert _errors(app) == []
        await _keys(pilot, "V")
        [refusal] = _errors(app)
        assert "is not hidden" in refusal


def test_snapshot_combat_with_a_hidden_group_80x24(snap_compare) -> None:
    """The ◌ after the hidden raiders' names and *hidden* in their Cond. column."""
    assert snap_compare(HsmApp(_ambush()), terminal_size=(80, 24), press=["f4", "down"])


# -- F6: GM-only entries are marked, o opens one to every seat ------------------------
def _keybar(app: HsmApp) -> str:
    return " ".join(str(app.screen.query_one(KeyBar).render()).split())


async def test_o_opens_the_newest_gm_only_entry_shown_to_every_seat() -> None:
    session = _ambush()
    session.apply(SetScene("The raiders wait behind the dig's spoil heaps"))
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f6")
        assert isinstance(app.screen, LogScreen)
        log = app.session.log
        assert [e.visibility for e in log] == [BUILDING] * 4 + [GM_ONLY] * 2
        body = _body(app)
        assert "#4 1 × Kestrel Vance join" in body  # set-up: the players' once it starts
        assert "#5 [GM only] 3 × Pirate raider join pirates in ruins" in body
        assert "#6 [GM only] Scene notes updated" in body
        assert "o Open to all" in _keybar(app)
        await _keys(pilot, "slash", *"raider", "enter", "o")  # the search picks #5
        assert app.session.log[5 - 1].visibility == OPEN
        assert app.session.log[6 - 1].visibility == GM_ONLY
        assert _notes(app)[-1] == (
            "Opened #5 to every seat: 3 × Pirate raider join pirates in ruins"
        )
        assert "#5 [open] 3 × Pirate raider join" in _body(app)
        assert "Open to all" not in _keybar(app)  # nothing GM-only left among the matches
        await _keys(pilot, "escape", "o")  # the whole log again: the newest, #6
        assert app.session.log[6 - 1].visibility == OPEN
        assert "#6 [open] Scene notes updated" in _body(app)
        assert "Open to all" not in _keybar(app)
        assert _errors(app) == []


async def test_o_opens_an_entry_whose_numbers_the_players_read_as_hidden() -> None:
    """Issue 21 §2: the GM reveals a roll: a Minion's Defense and Health, hidden from the
    players in its public entry (in italic here), are theirs to read once opened.
    """
    session = duel()
    play(session, Attack(K, R1, "assault-laser"), 1, 9, 9, 9, 9, 2)
    play(session, AnswerDive("none"), 9, 2)
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f6")
        defends = session.log[-1]
        assert defends.title == "Pirate raider 1 defends" and defends.visibility == PUBLIC
        assert "Dodge 5 → Defense 5: d10 9" in _body(app) and "o Open to all" in _keybar(app)
        await _keys(pilot, "o")
        assert session.log[-2].visibility == OPEN  # the opening is an entry of its own
        assert _notes(app)[-1] == f"Opened #{defends.seq} to every seat: {defends.title}"
        kara = session.view(Seat(Role.PLAYER, "kara", hero="kestrel-vance"))
        assert any("vs Health 4" in line for e in kara.log for line in e.lines)


class _Shared:
    """What F6 O reads of a shared table: its seats."""

    seats = (
        SeatEntry(Seat(Role.GM, "gm"), ()),
        SeatEntry(Seat(Role.PLAYER, "kara", hero="kestrel-vance"), ()),
        SeatEntry(Seat(Role.WATCHER, "wes"), ()),
    )


async def test_shift_o_opens_the_entry_to_the_seat_picked_from_the_engines_menu() -> None:
    """Issue 21 §2: F6 O lists the shared table's seats (no GM); the pick opens it."""
    app = HsmApp(_ambush())
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f6")
        assert "Open to a seat" not in _keybar(app)  # not shared: nobody to open it to
        app.sharing = _Shared()  # type: ignore[assignment]
        app.screen.refresh_bindings()
        await _keys(pilot, "O")
        assert isinstance(app.screen, DecisionDialog)
        text = " ".join(str(o.prompt) for o in app.screen.query_one(OptionList)._options)
        assert "kara (player, kestrel-vance)" in text and "wes (watcher)" in text
        assert "gm (" not in text
        await _keys(pilot, "1")
        assert app.session.log[5 - 1].visibility == f"{GM_ONLY};player:kara"
        assert "#5 [GM only · open to player:kara] 3 × Pirate raider join" in _body(app)
        assert _errors(app) == []


async def test_undoing_an_opened_entry_says_so() -> None:
    """The undo message names what was taken back (not "the re-rolls on …")."""
    app = HsmApp(_ambush())
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f6", "o", "f4", "u")
        assert app.session.log[5 - 1].visibility == GM_ONLY
        assert _notes(app)[-1] == (
            "Undone: Opened #5 to every seat: 3 × Pirate raider join pirates in ruins"
        )
