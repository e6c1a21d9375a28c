"""The campaign (home) screen: party pools and wounds (R-CHAR-9, R-WOUND-7), roster,
scene notes — all by keys, all undoable.
"""

from __future__ import annotations

import pytest
from textual import events

from hsm_tui.campaign.party import SCENE_LIMIT, AddHero
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.campaign import CampaignScreen
from hsm_tui.ui.screens.notes_dialog import NotesArea, NotesDialog
from hsm_tui.ui.screens.picker import PickerScreen

SEED = 3


def _app(*heroes: str) -> HsmApp:
    """The app on a loaded session, with ``heroes`` (pack ids) already in the party."""
    session = Session(seed=SEED)
    session.load_content()
    for hero in heroes:
        session.apply(AddHero(hero))
    return HsmApp(session)


async def _open(pilot) -> None:
    pilot.app.push_screen(CampaignScreen())
    await pilot.pause()


async def test_r_char_9_add_a_hero_by_picking_and_grant_clues() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
        await pilot.press(*"kestrel", "enter")
        await pilot.pause()
        party = app.session.campaign.party
        assert [m.entry for m in party] == ["kestrel-vance"]
        await pilot.press("plus", "plus", "minus")
        await pilot.pause()
        assert app.session.campaign.member("kestrel-vance").clues == 1
        await pilot.press("minus", "minus")  # below 0 is refused, nothing changes
        await pilot.pause()
        assert app.session.campaign.member("kestrel-vance").clues == 0
        await pilot.press("u")
        await pilot.pause()
        assert app.session.campaign.member("kestrel-vance").clues == 1


async def test_roster_add_and_drop_and_scene_notes_are_kept_on_leaving() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("r")
        await pilot.pause()
        await pilot.press(*"raider", "enter")
        await pilot.pause()
        assert app.session.campaign.roster == (("minion", "pirate-raider"),)
        await pilot.press("tab")  # to the roster
        await pilot.press("d")
        await pilot.pause()
        assert app.session.campaign.roster == ()
        await pilot.press("e")  # the notes dialog
        await pilot.pause()
        assert isinstance(app.screen, NotesDialog)
        await pilot.press(*"Dusk at the dig")
        await pilot.press("escape")  # closing keeps the notes, as one undo step
        await pilot.pause()
        assert app.session.campaign.scene == "Dusk at the dig"
        assert "Dusk at the dig" in str(app.screen.query_one("#scene").render())
        await pilot.press("e", "escape")  # unchanged: nothing sent
        await pilot.pause()
        assert app.session.log[-1].title.startswith("Scene")
        await pilot.press("u")
        await pilot.pause()
        assert app.session.campaign.scene == ""


async def test_scene_notes_past_the_limit_keep_what_fits_and_count_the_room() -> None:
    """A paste that would pass the engine's limit keeps the characters that fit and drops
    only the rest; the count under the box says so; closing keeps the notes (a refused
    edit once lost them whole)."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("e")
        await pilot.pause()
        box = app.screen.query_one("#notes-box")
        assert box.border_subtitle == f"0 / {SCENE_LIMIT:,}"
        await pilot.press(*"Dusk. ")
        area = app.screen.query_one(NotesArea)
        area.post_message(events.Paste("x" * SCENE_LIMIT))
        await pilot.pause()
        assert len(area.text) == SCENE_LIMIT and area.text.startswith("Dusk. xxx")
        assert box.border_subtitle == f"{SCENE_LIMIT:,} / {SCENE_LIMIT:,} · full"
        assert any("6 not added" in n.message for n in app._notifications)
        await pilot.press("y")  # typed at the limit: refused, nothing lost
        await pilot.press("escape")
        await pilot.pause()
        assert app.session.campaign.scene == "Dusk. " + "x" * (SCENE_LIMIT - 6)


async def test_picker_escape_adds_nothing() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("a", "escape")
        await pilot.pause()
        assert app.session.campaign.party == ()
        assert isinstance(app.screen, CampaignScreen)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_campaign(snap_compare, size) -> None:
    from hsm_tui.campaign.party import AddToRoster, GrantClues, SetScene

    session = Session(seed=SEED)
    session.load_content()
    for command in (
        AddHero("kestrel-vance"),
        AddHero("roan-maddox"),
        GrantClues("roan-maddox", 2),
        AddToRoster("minion", "pirate-raider"),
        AddToRoster("sidekick", "veteran-guide"),
        SetScene("The dig site at dusk. The pirates' shuttle is due in ten minutes."),
    ):
        session.apply(command)

    async def show(pilot) -> None:
        pilot.app.push_screen(CampaignScreen())
        await pilot.pause()

    assert snap_compare(HsmApp(session), terminal_size=size, run_before=show)


async def test_the_app_opens_on_home_and_builds_its_session_after_the_first_frame() -> None:
    """Start-up (issue 6): home is the first screen; the engine, packs and Session load
    once the first frame is out, then home fills in; a key pressed before that still
    works because the Session is built on first use.
    """
    app = HsmApp(seed=SEED)
    assert not app.has_session
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, CampaignScreen)
        await pilot.pause()
        assert app.has_session
        party = app.screen.query_one("#party")
        assert "no heroes yet" in str(party.get_option_at_index(0).prompt)
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)


def test_the_seed_reaches_the_session_built_on_first_use() -> None:
    """``hsm --seed N`` replays: the lazily built Session has that seed's RNG."""
    assert HsmApp(seed=SEED).session.rng.getstate() == Session(seed=SEED).rng.getstate()


async def test_r_other_6_damage_and_the_chart_for_a_party_hero_between_fights() -> None:
    """W on home hurts the highlighted Hero (R-DMG-2: 13 vs Health 6 is 2 steps); F5 rolls
    the chart for a party Hero outside any encounter (R-WOUND-5) and home shows the result.
    """
    from hsm_tui.ui.screens.chart import ChartScreen
    from hsm_tui.ui.screens.damage_dialog import DamageDialog

    app = _app("kestrel-vance")
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("W")
        await pilot.pause()
        assert isinstance(app.screen, DamageDialog)
        await pilot.press("1", "3", "enter")
        await pilot.pause()
        assert app.session.campaign.member("kestrel-vance").wounds == 2
        party = app.screen.query_one("#party")
        assert "−2" in str(party.get_option_at_index(0).prompt)
        await pilot.press("W", "7")  # one more step would be past −2: the dialog warns
        await pilot.pause()
        preview = str(app.screen.query_one("#damage-preview").render())
        chart = "severely wounded (R-WOUND-1)\nEnter rolls the Severe Wound chart (R-WOUND-5)"
        assert preview.endswith(chart)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f5")
        await pilot.pause()
        assert isinstance(app.screen, ChartScreen)
        assert app.screen.hero().id == "party:kestrel-vance"
        await pilot.press("r")
        await pilot.pause()
        member = app.session.campaign.member("kestrel-vance")
        assert member.severe == 1 and len(member.chart) == 1
        await pilot.press("f8")
        await pilot.pause()
        name = {r.id: r.name for r in app.session.catalog.chart}[member.chart[0]]
        prompt = str(app.screen.query_one("#party").get_option_at_index(0).prompt)
        assert prompt.endswith(f"1 on the chart, last {name}")


async def test_r_other_6_damage_after_the_fight_ended_lands_on_the_heros_combatant() -> None:
    """Issue 19 #3: after E the Hero still stands in the encounter (the party takes its
    wounds from it); W on home hurts it there instead of promising and then refusing."""
    from hsm_tui.campaign.combat import AddCombatants, AddZone, EndCombat, StartCombat
    from hsm_tui.campaign.party import AddParty

    app = _app("kestrel-vance")
    session = app.session
    for command in (
        AddZone("dig"),
        AddParty("dig"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig"),
        StartCombat(),
        EndCombat(),
    ):
        session.apply(command)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("W")
        await pilot.pause()
        await pilot.press("1", "3", "enter")
        await pilot.pause()
        assert not [n for n in app._notifications if n.severity == "error"]
    assert session.party_now().member("kestrel-vance").wounds == 2


async def test_r_wound_7_new_adventure_asks_first() -> None:
    """N heals and refills every Hero at once (R-WOUND-7, R-CHAR-9): it asks; Esc keeps
    the adventure, y starts the next one.
    """
    from hsm_tui.ui.screens.decision_dialog import DecisionDialog

    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("N")  # no party yet: nothing to ask
        await pilot.pause()
        assert app.session.campaign.adventure == 1 and not isinstance(app.screen, DecisionDialog)
        app.session.apply(AddHero("kestrel-vance"))
        await pilot.press("N")
        await pilot.pause()
        assert isinstance(app.screen, DecisionDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert app.session.campaign.adventure == 1
        await pilot.press("N", "y")
        await pilot.pause()
        assert app.session.campaign.adventure == 2


async def test_the_hero_picker_lists_only_heroes_not_yet_in_the_party() -> None:
    app = _app("kestrel-vance")
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
        assert "kestrel-vance" not in [value for _, value in app.screen.choices]


async def test_x_removes_a_hero_and_says_how_to_bring_them_back() -> None:
    app = _app("kestrel-vance")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _open(pilot)
        await pilot.press("x")
        await pilot.pause()
        assert app.session.campaign.party == ()
        messages = [n.message for n in app._notifications]
        assert "Kestrel Vance leaves the party (u brings them back)" in messages
        await pilot.press("u")
        await pilot.pause()
        assert [m.entry for m in app.session.campaign.party] == ["kestrel-vance"]


async def test_s8_c_sets_the_conditions_a_hero_keeps_between_fights() -> None:
    """§8 Fatigued "goes away only when the character has at least one hour of
    uninterrupted rest": `c` on home offers only what a Hero keeps between fights (the
    engine's list), and the party row shows it (issue 18 #6).
    """
    from hsm_tui.ui.screens.conditions_dialog import ConditionsDialog

    app = _app("kestrel-vance")
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ConditionsDialog)
        assert list(app.screen.rows) == ["encumbered", "fatigued", "nauseated"]
        await pilot.press("down", "right", "enter")  # Fatigued on
        await pilot.pause()
        assert app.session.campaign.member("kestrel-vance").conditions == ("fatigued",)
        prompt = str(app.screen.query_one("#party").get_option_at_index(0).prompt)
        assert "· fatigued" in prompt


def test_home_takes_its_styles_from_the_app() -> None:
    """Home is Textual's default screen (it draws the first frame sooner), and Textual
    loads no screen CSS for that one: a CSS_PATH on it would apply only after F8."""
    from hsm_tui.ui.screens.campaign import CampaignScreen

    assert not CampaignScreen.CSS_PATH and not CampaignScreen.CSS
