"""The encounter builder driven through the real app with Pilot, keys only (R-COMBAT-2).

The test encounter is the dig-site ambush in small: three zones with their bands, two
Heroes, three Pirate raiders on the ridge, some cover; then a forecast and the fight.
"""

from __future__ import annotations

import random

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from hsm_tui.campaign.combat import (
    HANDLERS,
    AddCombatants,
    AddZone,
    ApplyDamage,
    EndCombat,
    SetBand,
    SetCover,
    StartCombat,
)
from hsm_tui.campaign.encounter import Encounter
from hsm_tui.campaign.party import AddHero, AddToRoster
from hsm_tui.forecast import fight_pool
from hsm_tui.forecast.simulate import Forecast
from hsm_tui.persistence.encounter_file import encounter_commands, encounter_spec
from hsm_tui.rules import Cover, RangeBand, Rank
from hsm_tui.table.session import Batch, Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.combat import CombatScreen
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.encounter_builder import EncounterBuilderScreen
from hsm_tui.ui.screens.help import HelpScreen
from hsm_tui.ui.widgets import stepper as stepper_module
from hsm_tui.ui.widgets.forecast_panel import forecast_text
from hsm_tui.ui.widgets.keybar import KeyBar
from hsm_tui.ui.widgets.stepper import Stepper
from hsm_tui.ui.widgets.zone_panel import zone_problem

SEED = 7


def _app() -> HsmApp:
    session = Session(seed=SEED)
    session.load_content()
    return HsmApp(session)


async def _open(pilot: Pilot) -> EncounterBuilderScreen:
    screen = EncounterBuilderScreen()
    pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


async def _keys(pilot: Pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


def _text(app: HsmApp, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


def _errors(app: HsmApp) -> list[str]:
    return [n.message for n in app._notifications if n.severity == "error"]


async def _zones(pilot: Pilot) -> None:
    """Three zones, then the band of each pair (b on the highlighted pair)."""
    for name in ("ruins", "dig pit", "ridge"):
        await _keys(pilot, "z", *name, "enter")
    await _keys(pilot, "left")  # from the pack list to the bands
    await _keys(pilot, "b", "down", "b", "b", "down", "b")  # short, medium, short


async def _add(pilot: Pilot, search: str, *fields: str) -> None:
    """Search the packs and Enter adds at once; or Esc back to the list, the keys for
    count, side and zone, then Enter adds.
    """
    if fields:
        await _keys(pilot, "slash", *search, "escape", *fields, "enter")
    else:
        await _keys(pilot, "slash", *search, "enter")


def _rows(app: HsmApp, selector: str) -> list[str]:
    listing = app.screen.query_one(selector, OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


async def _dig_site(pilot: Pilot) -> None:
    """The whole encounter by keys: zones, bands, two Heroes, 3 raiders, cover."""
    await _zones(pilot)
    await _add(pilot, "kestrel", "tab", "tab", "n", *"expedition", "enter")  # Enter: Zone
    await _add(pilot, "roan", "tab", "tab", "tab", "right")  # side kept; zone: dig pit
    await _add(pilot, "raider", "3", "tab", "tab", "n", *"pirates", "tab", "right")
    await _keys(pilot, "right", "c")  # the encounter list: raider 3 (just added) → light
    await _keys(pilot, "up", "up", "up", "up", "c")  # Kestrel (the side heading is skipped)


def _set_up_dig_site(app: HsmApp) -> None:
    """The same encounter as :func:`_dig_site`, in one Batch (for tests about other keys)."""
    zones = ("ruins", "dig pit", "ridge")
    bands = (("ruins", "dig pit", "short"), ("ruins", "ridge", "medium"))
    app.session.apply(
        Batch(
            (
                *(AddZone(z) for z in zones),
                *(SetBand(a, b, band) for a, b, band in (*bands, ("dig pit", "ridge", "short"))),
                AddCombatants("hero", "kestrel-vance", "expedition", "ruins"),
                AddCombatants("hero", "roan-maddox", "expedition", "dig pit"),
                AddCombatants("minion", "pirate-raider", "pirates", "ridge", 3),
                SetCover("pirate-raider-3", "light"),
                SetCover("kestrel-vance-1", "light"),
            )
        )
    )


async def test_r_combat_2_dig_site_built_by_keys_only() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        await _dig_site(pilot)
        enc = app.session.encounter
        assert enc.zones == ("ruins", "dig pit", "ridge")
        assert [(a, b, band) for a, b, band in enc.bands] == [
            ("ruins", "dig pit", RangeBand.SHORT),
            ("ruins", "ridge", RangeBand.MEDIUM),
            ("dig pit", "ridge", RangeBand.SHORT),
        ]
        placed = [(c.id, c.side, c.zone, c.cover) for c in enc.combatants]
        assert placed == [
            ("kestrel-vance-1", "expedition", "ruins", Cover.LIGHT),
            ("roan-maddox-1", "expedition", "dig pit", Cover.NONE),
            ("pirate-raider-1", "pirates", "ridge", Cover.NONE),
            ("pirate-raider-2", "pirates", "ridge", Cover.NONE),
            ("pirate-raider-3", "pirates", "ridge", Cover.LIGHT),
        ]
        assert _errors(app) == []
        roster = screen.query_one("#builder-roster", OptionList)
        assert roster.border_title == "Encounter (5)"
        rows = [str(roster.get_option_at_index(i).prompt) for i in range(roster.option_count)]
        assert rows[0].startswith("expedition · 2") and rows[3].startswith("pirates · 3")
        assert "light" in rows[1] and "ruins" in rows[1]
        assert "short  ruins ↔ dig pit" in str(
            screen.query_one("#builder-bands", OptionList).get_option_at_index(0).prompt
        )
        assert "▸ ridge (3)" in _rows(app, "#builder-zone-list")
        batch = HsmApp(Session(seed=SEED, content=app.session.content))
        _set_up_dig_site(batch)
        assert batch.session.encounter == enc  # the keys sent exactly these commands


async def test_zone_name_is_checked_as_typed() -> None:
    """Empty or duplicate names: the reason beside the field, and the engine refuses."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "z")
        assert "✗ a zone needs a name" in _text(app, "#builder-zone-msg")
        await _keys(pilot, "enter")
        assert app.session.encounter.zones == ()
        assert "a zone needs a name" in _errors(app)
        await _keys(pilot, *"ruins")
        assert "Enter adds" in _text(app, "#builder-zone-msg")
        await _keys(pilot, "enter", "z", *"ruins")
        assert "✗ zone 'ruins' already exists" in _text(app, "#builder-zone-msg")
        assert app.screen.query_one("#builder-zone-name").has_class("-invalid")
        await _keys(pilot, "enter")
        assert app.session.encounter.zones == ("ruins",)
        assert "zone 'ruins' already exists" in _errors(app)
        await _keys(pilot, "escape")
        assert not app.screen.query_one("#builder-zone-name").display
        assert zone_problem("  ", ()) == "a zone needs a name"
        await _keys(pilot, "z", *("x" * 25))  # issue 36 #10: a name that squeezed the board
        assert "✗ a zone name is at most 24 characters (this one has 25)" in _text(
            app, "#builder-zone-msg"
        )
        await _keys(pilot, "enter")
        assert app.session.encounter.zones == ("ruins",)


async def test_count_stays_1_to_40_and_a_new_side_must_be_named() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "z", *"deck", "enter", "slash", *"raider", "escape", "tab")
        count = app.screen.query_one("#builder-count", Stepper)
        await _keys(pilot, "left", "minus", "0")
        assert count.value == 1
        await _keys(pilot, *["right"] * 45)
        assert count.value == 40
        await _keys(pilot, "tab", "n")  # Side: n asks for the new side's name
        side = app.screen.query_one("#builder-side-msg")
        assert side.display and "a side needs a name" in _text(app, "#builder-side-msg")
        await _keys(pilot, "enter")
        assert app.session.encounter.combatants == ()
        assert "a side needs a name" in _errors(app)
        await _keys(pilot, *"boarding party", "enter", "enter")
        assert not side.display
        assert len(app.session.encounter.combatants) == 40
        assert {c.side for c in app.session.encounter.combatants} == {"boarding party"}
        assert count.value == 1  # back to one after each add


async def test_side_defaults_by_kind_and_remembers_what_was_picked() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "z", *"deck", "enter")
        side = app.screen.query_one("#builder-side", Stepper)
        await _keys(pilot, "slash", *"kestrel")
        assert side.value == "heroes"
        await _keys(pilot, "ctrl+u", *"raider")
        assert side.value == "enemies"
        await _keys(pilot, "escape", "tab", "tab", "n", *"pirates", "enter", "enter")
        await _keys(pilot, "slash", "ctrl+u", *"guide")  # a Sidekick: the heroes' side
        assert side.value == "heroes"
        await _keys(pilot, "ctrl+u", *"boarder")
        assert side.value == "pirates"


async def test_no_zone_refuses_adding() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "enter", "p")
        assert app.session.encounter.combatants == ()
        assert _errors(app) == ["Add a zone first (z)"] * 2


async def test_u_undoes_the_last_add_only() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        _set_up_dig_site(app)
        await _keys(pilot, "escape")  # back to the pack list
        await _add(pilot, "boarder", "tab", "2")
        assert len(app.session.encounter.combatants) == 7
        await _keys(pilot, "u")
        enc = app.session.encounter
        assert [c.entry for c in enc.combatants][-1] == "pirate-raider"
        assert len(enc.combatants) == 5 and enc.get("kestrel-vance-1").cover is Cover.LIGHT
        roster = app.screen.query_one("#builder-roster", OptionList)
        assert roster.border_title == "Encounter (5)"


async def test_p_adds_the_whole_party_to_the_only_zone() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "p")  # no zone yet
        await _keys(pilot, "z", *"camp", "enter", "p")
        assert "no party Hero left to add (add heroes to the party first)" in _errors(app)
        for hero in ("kestrel-vance", "mireille-ashdown"):
            app.session.apply(AddHero(hero))
        await _keys(pilot, "p")
        party = [(c.entry, c.side, c.zone, c.player) for c in app.session.encounter.combatants]
        assert party == [
            ("kestrel-vance", "heroes", "camp", True),
            ("mireille-ashdown", "heroes", "camp", True),
        ]


async def test_r_char_8_d_decides_a_sidekick_before_combat() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "z", *"camp", "enter")
        await _add(pilot, "guide")
        assert "?" in str(
            app.screen.query_one("#builder-roster", OptionList).highlighted_option.prompt
        )
        await _keys(pilot, "d")
        assert isinstance(app.screen, DecisionDialog)
        await _keys(pilot, "m")
        assert app.session.encounter.get("veteran-guide-1").plays_as is Rank.MINION
        assert app.screen.query_one("#builder-roster").border_subtitle.startswith(
            "Sidekick as Minion"
        )
        await _keys(pilot, "d")  # decided for the whole encounter: the engine refuses
        assert any("already plays as a minion" in e for e in _errors(app))


async def _forecast(pilot: Pilot) -> None:
    """F, then wait for the forecast's worker and the redraw it brings."""
    await _keys(pilot, "F")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_forecast_runs_in_a_worker_and_shows_each_side() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        _set_up_dig_site(app)
        pool = fight_pool.shared()  # started on the builder's mount, under Textual's stderr
        assert (pool is not None) is (fight_pool.cores() > 1)
        await _forecast(pilot)
        assert fight_pool.shared() is pool  # the fights were played there, nothing failed
        assert screen.result is not None
        spec, result = screen.result
        assert spec == encounter_spec(app.session.encounter)
        assert result.runs == 200 and set(result.wins) == {"expedition", "pirates"}
        assert sum(result.wins.values()) + result.draws == pytest.approx(1.0)
        assert all(0 <= rate <= 1 for rate in result.wins.values())
        text = _text(app, "#builder-forecast-body")
        assert "expedition" in text and "pirates" in text and "200 fights, seed 7" in text
        assert not screen.query_one("#builder-progress").display
        assert screen.query_one("#builder-forecast").border_subtitle == ""
        await _keys(pilot, "c")  # the encounter changes: the old forecast is stale
        assert "stale" in screen.query_one("#builder-forecast").border_subtitle
        await _keys(pilot, "F", "F")  # a re-run replaces whatever ran before
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.result[0] == encounter_spec(app.session.encounter)
        assert screen.query_one("#builder-forecast").border_subtitle == ""


async def test_forecast_with_one_side_shows_the_reason() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        await _keys(pilot, "F")
        assert "no combatants yet" in _text(app, "#builder-forecast-body")
        await _keys(pilot, "z", *"camp", "enter")
        await _add(pilot, "kestrel")
        await _keys(pilot, "F")
        await app.workers.wait_for_complete()
        text = _text(app, "#builder-forecast-body")
        assert "✗ No forecast: combatants must stand on at least two sides" in text
        assert screen.result is None


async def test_closing_mid_forecast_never_waits_or_crashes() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        _set_up_dig_site(app)
        screen.action_forecast()  # what F does; pilot.press would wait for the worker
        assert screen.query_one("#builder-progress").display  # the UI goes on meanwhile
        assert "Playing 200 fights" in _text(app, "#builder-forecast-body")
    assert app.return_code in (None, 0)


async def test_spec_groups_combatants_and_keeps_cover_and_rules() -> None:
    """The spec the forecast plays sets up exactly the encounter built (groups, cover,
    a Sidekick's rules), so the forecast is of this fight and no other.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        _set_up_dig_site(app)
        await _keys(pilot, "escape")
        await _add(
            pilot, "guide", "tab", "tab", "left", "left", "tab", "right"
        )  # expedition, dig pit
        built = app.session.encounter
        spec = encounter_spec(built)
        assert [(c["entry"], c["count"], c.get("cover")) for c in spec.combatants] == [
            ("kestrel-vance", 1, "light"),
            ("roan-maddox", 1, None),
            ("pirate-raider", 2, None),
            ("pirate-raider", 1, "light"),
            ("veteran-guide", 1, None),
        ]
        assert spec.combatants[-1]["plays_as"] == "hero"  # undecided: the file default
        catalog = app.session.catalog
        enc, rng = Encounter(zones=()), random.Random(0)
        for command in encounter_commands(spec, catalog):
            enc = HANDLERS[type(command)](enc, command, rng, catalog).encounter
        assert enc.zones == built.zones and enc.bands == built.bands
        again = sorted((c.entry, c.side, c.zone, c.cover) for c in enc.combatants)
        assert again == sorted((c.entry, c.side, c.zone, c.cover) for c in built.combatants)


async def test_s_starts_combat_and_switches_to_the_combat_screen() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "z", *"camp", "enter")
        await _add(pilot, "kestrel")
        await _keys(pilot, "s")  # one side only: refused, the builder stays
        assert isinstance(app.screen, EncounterBuilderScreen)
        assert "combat needs standing combatants on at least two sides" in _errors(app)
        await _add(pilot, "raider", "tab", "3")
        await _keys(pilot, "s")
        assert app.session.encounter.active and app.session.encounter.round == 1
        assert isinstance(app.screen, CombatScreen)


async def test_s_with_an_undecided_sidekick_leaves_the_question_to_the_fight() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "z", *"camp", "enter")
        await _add(pilot, "guide")
        await _add(pilot, "raider")
        await _keys(pilot, "s")
        assert isinstance(app.screen, CombatScreen)
        assert app.session.pending is not None and not app.session.encounter.active
        assert "Waiting" in _text(app, "#combat-attack")


async def test_f1_help_and_the_key_bar_list_the_builder_keys() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        bar = str(app.screen.query_one(KeyBar).render())
        for key in ("z Zone", "p Party", "x Remove", "N New", "F Forecast", "s Start"):
            assert key in " ".join(bar.split()), bar
        await _keys(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        help_text = app.screen.screen_help
        assert "Encounter builder" in help_text and "forecast 200 fights" in help_text
        assert "| x · Delete | remove the highlighted combatant" in help_text
        assert "| N | new encounter" in help_text and "in the pack list too" in help_text
        assert "Enter adds the highlighted entry" in help_text
        assert "asks which zone" in help_text and "n names a new one" in help_text


async def test_n_clears_the_encounter_for_the_next_fight_and_asks_first() -> None:
    """R-COMBAT-1: never while combat runs; after it, the zones and bands stay by default."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        _set_up_dig_site(app)
        app.session.apply(StartCombat())
        await _keys(pilot, "N")
        assert isinstance(app.screen, EncounterBuilderScreen)  # refused at once, no question
        assert any("combat is under way: end it first" in e for e in _errors(app))
        app.session.apply(EndCombat())
        await _keys(pilot, "N")
        assert isinstance(app.screen, DecisionDialog)
        await _keys(pilot, "escape")  # keeps this encounter
        assert len(app.session.encounter.combatants) == 5
        await _keys(pilot, "N", "y")
        enc = app.session.encounter
        assert enc.combatants == () and enc.zones == ("ruins", "dig pit", "ridge")
        assert len(enc.bands) == 3 and not enc.active
        assert _rows(app, "#builder-roster") == ["No combatants yet"]
        assert app.session.log[-1].title == "New encounter"
        await _keys(pilot, "u")
        assert len(app.session.encounter.combatants) == 5
        await _keys(pilot, "N", "z")  # the zones and bands go too
        assert app.session.encounter == Encounter(zones=())


async def test_r_wound_2_taken_out_combatants_read_out_in_the_list() -> None:
    """After the fight (E) the builder still lists everyone: who is out says so, dimmed."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        _set_up_dig_site(app)
        app.session.apply(StartCombat())
        app.session.apply(ApplyDamage("pirate-raider-2", 5))  # Health 4: taken out
        app.session.apply(EndCombat())
        await pilot.pause()
        rows = _rows(app, "#builder-roster")
        assert rows[3].startswith("pirates · 3, 1 out")
        assert rows[5].rstrip().endswith("OUT") and "OUT" not in rows[4]
        roster = app.screen.query_one("#builder-roster", OptionList)
        assert roster.get_option_at_index(5).prompt.style == "dim"


async def test_b_and_the_arrows_reach_the_bands_and_the_zones() -> None:
    """R-COMBAT-2 bands set pair by pair from the pack list; the zones list picks where
    the next entry goes."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        for name in ("ruins", "dig pit", "ridge"):
            await _keys(pilot, "z", *name, "enter")
        await _keys(pilot, "b")  # from the pack list: the first pair, and the bands list
        assert screen.focused is screen.query_one("#builder-bands")
        await _keys(pilot, "down", "b", "b")
        bands = [(a, b, band) for a, b, band in app.session.encounter.bands]
        assert bands == [
            ("ruins", "dig pit", RangeBand.SHORT),
            ("ruins", "ridge", RangeBand.MEDIUM),
        ]
        zones = screen.query_one("#builder-zone-list")
        assert zones in screen.focus_chain  # Tab reaches it too
        await _keys(pilot, "left", "down", "down")  # bands → zones; the third zone
        assert screen.focused is zones
        assert screen.query_one("#builder-zone", Stepper).value == "ridge"
        assert "▸ ridge (0)" in _rows(app, "#builder-zone-list")
        await _keys(pilot, "right", "right")  # bands, then the pack list
        assert screen.focused is screen.query_one("#builder-entries")
        await _add(pilot, "raider")
        assert app.session.encounter.combatants[0].zone == "ridge"


async def test_x_and_delete_remove_the_highlighted_combatant() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        _set_up_dig_site(app)
        await _keys(pilot, "slash", "x", "delete", "escape")  # typed in the search: no removal
        assert len(app.session.encounter.combatants) == 5
        await _keys(pilot, "right", "down", "down")  # the encounter list: raider 1
        roster = app.screen.query_one("#builder-roster", OptionList)
        assert roster.highlighted_option.id == "pirate-raider-1"
        await _keys(pilot, "x")
        ids = [c.id for c in app.session.encounter.combatants]
        assert ids == ["kestrel-vance-1", "roan-maddox-1", "pirate-raider-2", "pirate-raider-3"]
        assert roster.highlighted_option.id == "pirate-raider-2"  # the next one, for x again
        await _keys(pilot, "delete")
        assert [c.id for c in app.session.encounter.combatants][2:] == ["pirate-raider-3"]
        assert app.session.log[-1].title == "Pirate raider 2 leaves the encounter"
        await _keys(pilot, "u")
        assert len(app.session.encounter.combatants) == 4


async def test_count_keys_work_in_the_pack_list() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "z", *"deck", "enter", "slash", *"raider", "escape", "3")
        count = app.screen.query_one("#builder-count", Stepper)
        assert count.value == 3
        await _keys(pilot, "plus", "plus", "minus")
        assert count.value == 4
        assert app.screen.focused is app.screen.query_one("#builder-entries")
        await _keys(pilot, "enter")
        assert len(app.session.encounter.combatants) == 4


async def test_counts_of_10_or_more_are_typed_in_the_pack_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Digits in quick succession build the Count (1 then 2 is 12), in the pack list as in
    the Count field; a pause longer than the type-ahead, or an add, starts a new number.
    The clock is a fake, so no test waits.
    """
    now = [1000.0]
    monkeypatch.setattr(stepper_module, "monotonic", lambda: now[0])
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "z", *"deck", "enter", "slash", *"trooper", "escape", "1", "2")
        count = app.screen.query_one("#builder-count", Stepper)
        assert count.value == 12
        await _keys(pilot, "enter", "3")  # back to 1 after the add: 3, not 13
        assert len(app.session.encounter.combatants) == 12 and count.value == 3
        now[0] += Stepper.TYPE_AHEAD_SECONDS + 0.5
        await _keys(pilot, "0")  # too late for 30, and 0 is no count: still 3
        assert count.value == 3
        await _keys(pilot, "tab", "4", "0")  # the Count field itself types alike
        assert app.screen.focused is count and count.value == 40


async def test_enter_in_the_search_adds_the_highlighted_entry() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "z", *"deck", "enter", "slash", *"troop", "enter")
        assert [c.entry for c in app.session.encounter.combatants] == ["corporate-trooper"]
        assert app.screen.focused is app.screen.query_one("#builder-entries")
        await _keys(pilot, "slash", *"zzz", "enter")  # no match: nothing to add
        assert len(app.session.encounter.combatants) == 1


async def test_p_asks_which_zone_the_party_starts_in() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        for hero in ("kestrel-vance", "mireille-ashdown"):
            app.session.apply(AddHero(hero))
        await _keys(pilot, "z", *"camp", "enter", "z", *"ridge", "enter")
        await _add(pilot, "raider", "tab", "tab", "tab", "right")  # raiders on the ridge
        assert app.screen.query_one("#builder-zone", Stepper).value == "ridge"
        await _keys(pilot, "p")
        assert isinstance(app.screen, DecisionDialog)
        assert _rows(app, "#decision-options") == ["1  camp: empty", "2  ridge: enemies (1)"]
        await _keys(pilot, "1")
        party = [(c.entry, c.zone) for c in app.session.encounter.combatants if c.player]
        assert party == [("kestrel-vance", "camp"), ("mireille-ashdown", "camp")]


async def test_side_is_picked_so_builder_keys_and_typos_make_no_new_side() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "z", *"deck", "enter")
        await _add(pilot, "raider", "tab", "tab", "n", *"pirates", "enter")
        await _keys(pilot, "slash", "ctrl+u", *"boarder", "escape", "tab", "tab")
        side = app.screen.query_one("#builder-side", Stepper)
        assert app.screen.focused is side and side.value == "pirates"
        await _keys(pilot, "p")  # builder keys, not a side's name
        assert "no party Hero left to add (add heroes to the party first)" in _errors(app)
        await _keys(pilot, "s")
        assert side.value == "pirates" and isinstance(app.screen, EncounterBuilderScreen)
        await _keys(pilot, "right", "right", "right", "n", *"abc", "escape")  # not added
        assert side.value == "enemies"  # → stops at the last side
        assert len(app.session.encounter.combatants) == 1
        await _keys(pilot, "tab", "tab", "n", *"Pirates")
        msg = app.screen.query_one("#builder-side-msg", Static)
        assert "✓ joins pirates" in _text(app, "#builder-side-msg")
        await _keys(pilot, "backspace")  # "Pirate": a typo shows as a new side
        assert "new side" in _text(app, "#builder-side-msg") and msg.has_class("-new")
        await _keys(pilot, "s", "enter", "enter")
        sides = [c.side for c in app.session.encounter.combatants]
        assert sides == ["pirates", "pirates"]  # one side: the case does not split it


async def _built_and_forecast(pilot: Pilot) -> None:
    await _open(pilot)
    _set_up_dig_site(pilot.app)
    await _keys(pilot, "F")
    await pilot.app.workers.wait_for_complete()
    await _keys(pilot, "escape", "slash", *"raider", "escape")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_encounter_builder(snap_compare, size) -> None:
    assert snap_compare(_app(), terminal_size=size, run_before=_built_and_forecast)


async def test_the_party_joins_its_own_side_not_the_last_one_picked_for_a_sidekick() -> None:
    """A Sidekick set on the enemies' side (a traitor) must not take the party with it."""
    from hsm_tui.campaign.party import AddHero

    app = _app()
    app.session.apply(AddHero("kestrel-vance"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        await _keys(pilot, "z", *"deck", "enter")
        screen.sides["sidekick"] = "enemies"  # the side field, last stepped on a Sidekick
        screen.sides["hero"] = "enemies"  # and on a villain Hero
        await _keys(pilot, "p")
        [kestrel] = app.session.encounter.combatants
        assert (kestrel.player, kestrel.side) == (True, "heroes")


async def test_a_sidekick_keeps_the_side_picked_for_sidekicks_not_a_heros() -> None:
    """The side is kept per kind: giving a Hero the expedition's side does not move the
    next Sidekick, added with one Enter from the search, off the side picked for it.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        _set_up_dig_site(app)  # sides in use: expedition, pirates (then heroes, enemies)
        await _keys(pilot, "escape")
        await _add(pilot, "first mate", "tab", "tab", "left")  # a traitor: pirates
        await _add(pilot, "mireille", "tab", "tab", "left", "left", "left")  # expedition
        await _add(pilot, "first mate")  # one Enter from the search
        added = [(c.entry, c.side) for c in app.session.encounter.combatants[5:]]
        assert added == [
            ("pirate-first-mate", "pirates"),
            ("mireille-ashdown", "expedition"),
            ("pirate-first-mate", "pirates"),
        ]
        await _add(pilot, "guide")  # a Sidekick: the side picked for Sidekicks, shown
        assert app.session.encounter.combatants[-1].side == "pirates"
        assert screen.query_one("#builder-side", Stepper).value == "pirates"
        await _keys(pilot, "slash", "ctrl+u", *"roan")  # a Hero: the Heroes' side again
        assert screen.query_one("#builder-side", Stepper).value == "expedition"
        assert screen.sides == {"hero": "expedition", "sidekick": "pirates", "minion": "enemies"}


async def test_right_stops_at_the_last_side_and_only_n_names_a_new_one() -> None:
    """→ past the last side stays there (Enter then adds to it): naming a new side takes
    an explicit n, and Esc leaves the side as it was.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        await _keys(pilot, "z", *"deck", "enter", "slash", *"raider", "escape", "tab", "tab")
        side = screen.query_one("#builder-side", Stepper)
        msg = screen.query_one("#builder-side-msg", Static)
        assert screen.focused is side and side.value == "enemies"
        assert msg.display and "n: name a new side" in _text(app, "#builder-side-msg")
        await _keys(pilot, "left", *["right"] * 5)
        assert side.value == "enemies"  # the last side: → stops, no text field
        assert not screen.query_one("#builder-side-row").display
        await _keys(pilot, "enter")
        assert [c.side for c in app.session.encounter.combatants] == ["enemies"]
        await _keys(pilot, "tab", "tab", "n", *"boarders", "escape")  # changed its mind
        assert side.value == "enemies" and side.display and not msg.display
        assert len(app.session.encounter.combatants) == 1
        await _keys(pilot, "tab", "tab", "n", *"boarders", "enter")
        assert len(app.session.encounter.combatants) == 1  # Enter on the name: the Zone next
        assert screen.focused is screen.query_one("#builder-zone")
        await _keys(pilot, "enter")
        assert [c.side for c in app.session.encounter.combatants] == ["enemies", "boarders"]
        assert side.value == "boarders"  # the new side is listed and kept for Minions
        assert [name for _, name in side.choices] == ["enemies", "boarders", "heroes"]


def _forecast_rows(app: HsmApp) -> dict[str, list[str]]:
    """The forecast table's rows by side: wins, wounds taken, out (as shown)."""
    lines = _text(app, "#builder-forecast-body").splitlines()
    return {line.split()[0]: line.split()[1:] for line in lines[1:] if "%" in line}


async def test_r_wound_2_forecast_counts_a_minion_taken_out_as_a_wound_taken() -> None:
    """The pirates are Minions: each one taken out took its one wound, so their wounds
    taken read about as many as their combatants out, never 0.0 beside 6.6 out.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        _set_up_dig_site(app)
        await _forecast(pilot)
        assert "wounds taken/fight" in _text(app, "#builder-forecast-body")
        _, result = screen.result
        assert result.out["pirates"] > 1
        assert result.wounds["pirates"] == pytest.approx(result.out["pirates"], rel=0.05)
        _, wounds, out = _forecast_rows(app)["pirates"]
        assert float(wounds) == pytest.approx(float(out), abs=0.2) and float(wounds) > 1


def _apart(app: HsmApp, first: tuple[str, str, int], second: tuple[str, str, int]) -> None:
    """Two sides of Minions (entry, side, count) in two zones a Medium band apart."""
    (a, side_a, n_a), (b, side_b, n_b) = first, second
    app.session.apply(
        Batch(
            (
                AddZone("nest"),
                AddZone("den"),
                SetBand("nest", "den", "medium"),
                AddCombatants("minion", a, side_a, "nest", n_a),
                AddCombatants("minion", b, side_b, "den", n_b),
            )
        )
    )


async def test_r_combat_2_forecast_says_why_when_no_side_can_reach_another() -> None:
    """Melee-only sides two zones apart with no Short band: no fights, the reason."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        _apart(app, ("ruin-spider", "spiders", 3), ("xeno-hound", "hounds", 2))
        await _keys(pilot, "F")
        assert not screen.query_one("#builder-progress").display  # nothing was played
        text = _text(app, "#builder-forecast-body")
        assert "✗ No forecast: no side can ever reach another" in text
        assert "spiders can't reach hounds: melee only" in text
        assert "hounds can't reach spiders: melee only" in text
        assert "wins" not in text and screen.result is None
        await _keys(pilot, "b", "b", "b")  # medium → long → extra-long → short
        await _keys(pilot, "F")  # a Short band: the spiders and hounds meet
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "can't reach" not in _text(app, "#builder-forecast-body")
        assert screen.result is not None and screen.result[1].draws < 1


async def test_r_combat_2_forecast_names_the_side_that_can_never_reach_the_other() -> None:
    """Drones shoot spiders across a Medium band; the spiders never get to them."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        _apart(app, ("ruin-spider", "spiders", 2), ("security-drone", "drones", 1))
        await _forecast(pilot)
        text = _text(app, "#builder-forecast-body")
        assert "wounds taken/fight" in text  # the table: the drones do fight
        assert "· spiders can't reach drones: melee only" in text
        assert "drones can't reach" not in text
        _, result = screen.result
        assert result.wins["spiders"] == 0 and result.wounds["drones"] == 0


def test_forecast_where_nobody_is_ever_hurt_says_so_instead_of_a_table() -> None:
    result = Forecast(
        runs=200,
        wins={"a": 0.0, "b": 0.0},
        draws=1.0,
        rounds={"mean": 30.0, "min": 30, "max": 30},
        wounds={"a": 0.0, "b": 0.0},
        out={"a": 0.0, "b": 0.0},
    )
    text = str(forecast_text(result, 7, 0))
    assert text.startswith("✗ Nobody was wounded or taken out in 200 fights")
    assert "wins" not in text and "draws 100.0%" in text


async def test_coming_back_puts_the_keys_in_the_pack_list_not_the_search() -> None:
    """F7 → F4 → F7, or a dialog closing: the search (focused on leaving) gives way to the
    pack list, its filter kept, so keys act again; another list keeps the focus it had.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f7")
        screen = app.screen
        assert isinstance(screen, EncounterBuilderScreen)
        search = screen.query_one("#builder-search", Input)
        entries = screen.query_one("#builder-entries", OptionList)
        await _keys(pilot, "slash", *"raider")
        assert screen.focused is search
        await _keys(pilot, "f4", "f7")
        assert app.screen is screen and screen.focused is entries
        assert search.value == "raider" and _rows(app, "#builder-entries") == ["M Pirate raider"]
        await _keys(pilot, "z", *"deck", "enter", "enter")  # z acts: a zone, then a raider
        assert [c.entry for c in app.session.encounter.combatants] == ["pirate-raider"]
        assert search.value == "raider"
        await _keys(pilot, "slash", "f1")  # help from the search, then closed
        assert isinstance(app.screen, HelpScreen)
        await _keys(pilot, "escape")
        assert app.screen is screen and screen.focused is entries
        await _keys(pilot, "right", "f4", "f7")  # from the encounter list: back to it
        assert screen.focused is screen.query_one("#builder-roster")


async def test_the_home_roster_comes_first_in_the_picker_marked_with_a_star() -> None:
    """The Sidekicks and Minions the GM put on the roster (home, r) lead the picker in the
    roster's order, each listed once; the highlight stays on the entry it was on.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f7", "down", "down", "down")
        assert _rows(app, "#builder-entries")[:4] == [
            "H Kestrel Vance",
            "H Dr. Oyelaran Sefu",
            "H Mireille Ashdown",
            "H Captain Roan Maddox",
        ]
        await _keys(pilot, "f8", "r", *"tamsin", "enter", "r", *"raider", "enter", "f7")
        assert app.session.campaign.roster == (
            ("sidekick", "veteran-guide"),
            ("minion", "pirate-raider"),
        )
        rows = _rows(app, "#builder-entries")
        assert rows[:3] == [
            "★ S Tamsin Reyes, veteran guide",
            "★ M Pirate raider",
            "H Kestrel Vance",
        ]
        assert len(rows) == len(set(rows)) == 19  # moved up, not listed twice
        assert [r for r in rows if "Pirate" in r] == ["★ M Pirate raider", "M Pirate boarder"]
        entries = app.screen.query_one("#builder-entries", OptionList)
        assert rows[entries.highlighted] == "H Captain Roan Maddox"  # where the GM left it
        assert app.screen.query_one("#builder-picker").border_subtitle == "★ roster · 19 of 19"
        await _keys(pilot, "z", *"ridge", "enter", "home", "down", "enter")
        assert [c.entry for c in app.session.encounter.combatants] == ["pirate-raider"]
        assert app.session.encounter.combatants[0].side == "enemies"
        await _keys(pilot, "slash", *"roster")
        assert _rows(app, "#builder-entries") == rows[:2]


def test_snapshot_picker_with_the_roster(snap_compare) -> None:
    """The roster's entries above the rule, the star named under the picker (80×24)."""
    app = _app()
    app.session.apply(AddToRoster("sidekick", "pirate-first-mate"))
    app.session.apply(AddToRoster("minion", "pirate-raider"))
    assert snap_compare(app, terminal_size=(80, 24), press=["f7"])


async def test_zone_name_check_is_the_engines_whatever_the_case() -> None:
    """Issue 17: typing ``Ruins`` beside a zone ``ruins`` showed "✓ Enter adds", then the
    engine refused Enter. The field now asks the engine, so both say the same.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _keys(pilot, "z", *"ruins", "enter", "z", *" Ruins")
        assert "✗ zone 'ruins' already exists" in _text(app, "#builder-zone-msg")
        await _keys(pilot, "enter")
        assert app.session.encounter.zones == ("ruins",)


async def test_issue_36_5_a_new_sides_name_leads_to_the_zone_before_anything_is_added() -> None:
    """Naming a new side added its combatants at once, in whatever zone the field showed:
    now Enter on the name goes to the Zone field, and Enter there adds them where the GM
    set it.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        await _keys(pilot, "z", *"deck", "enter", "z", *"hold", "enter")
        await _keys(pilot, "slash", *"raider", "escape", "tab", "tab", "n", *"boarders")
        assert "+ new side · Enter: zone" in _text(app, "#builder-side-msg")
        await _keys(pilot, "enter")
        assert app.session.encounter.combatants == ()
        zone = screen.query_one("#builder-zone", Stepper)
        assert screen.focused is zone and zone.value == "deck"
        await _keys(pilot, "right", "enter")
        added = [(c.side, c.zone) for c in app.session.encounter.combatants]
        assert added == [("boarders", "hold")]
