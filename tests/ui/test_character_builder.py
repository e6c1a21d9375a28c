"""The character builder, driven by keys at 80×24 and 120×40 (R-CHAR-1..7): a GM builds
a Hero from home and it joins the party; grows it with a note; every refusal is the
engine's, shown beside the field at fault, and nothing typed is lost by one Esc.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from hsm_tui.campaign.party import AddHero
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.campaign import CampaignScreen
from hsm_tui.ui.screens.character_builder import CharacterBuilder
from hsm_tui.ui.widgets.stepper import Stepper

SIZES = [(80, 24), (120, 40)]


def _app(*heroes: str) -> HsmApp:
    session = Session(seed=3)
    session.load_content()
    for hero in heroes:
        session.apply(AddHero(hero))
    return HsmApp(session)


async def _on_home(pilot, key: str) -> object:
    """F8's screen, ``key`` pressed on it: the screen on top then."""
    pilot.app.push_screen(CampaignScreen())
    await pilot.pause()
    await pilot.press(key)
    await pilot.pause()
    return pilot.app.screen


async def _builder(pilot, key: str = "b") -> CharacterBuilder:
    screen = await _on_home(pilot, key)
    assert isinstance(screen, CharacterBuilder)
    return screen


def _sheet(screen: CharacterBuilder) -> str:
    return str(screen.query_one("#character-sheet", Static).render())


async def _type(pilot, field: str, text: str) -> None:
    box = pilot.app.screen.query_one(f"#character-{field}", Input)
    box.focus()
    box.value = ""
    await pilot.press(*text) if text else None
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
async def test_r_char_2_a_gm_builds_a_hero_who_joins_the_party(size) -> None:
    app = _app()
    async with app.run_test(size=size) as pilot:
        screen = await _builder(pilot)
        await _type(pilot, "name", "Ada Quill")
        assert screen.query_one("#character-id", Input).value == "ada-quill"  # follows the name
        agility = screen.query_one("#character-agility", Stepper)
        agility.focus()
        await pilot.press("right")  # 2 → 3
        await pilot.pause()
        assert "Dodge = Senses + Agility = 5" in _sheet(screen)  # R-CHAR-3, live
        await _type(pilot, "skills", "observation 2, rifles 1")
        assert "Rifles 6" in _sheet(screen)  # Agility 3 + Senses 2 + Rifles 1 (R-CHAR-4)
        await _type(pilot, "ratings", "agile 8")  # set by hand: the convention gives 6
        assert "Agile 8" in _sheet(screen)
        await _type(pilot, "talents", "Pathfinder")
        assert "⚠ talents: a Hero has as many Talents as its Luck (2), found 1" in _sheet(screen)
        await _type(pilot, "weapons", "assault-laser")
        await _type(pilot, "equipment", "Assault Laser 3 back; Crate 9 cart")
        assert "Carried 12 of 10 — Encumbered" in _sheet(screen)  # R-CHAR-7
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, CharacterBuilder)
        assert [m.name for m in app.session.campaign.party] == ["Ada Quill"]
        assert app.session.catalog.heroes["ada-quill"].ratings.rifles == 6
        assert app.session.catalog.heroes["ada-quill"].ratings.agile == 8
        app.session.undo()  # one step: made and joined together
        assert app.session.campaign.party == () and app.session.campaign.made == ()


async def test_a_refusal_is_the_engines_beside_the_field_and_enter_keeps_nothing() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _builder(pilot)
        await _type(pilot, "name", "Ada Quill")
        await _type(pilot, "weapons", "laser-pistl")
        assert "no weapon 'laser-pistl' (did you mean 'laser-pistol'?)" in _sheet(screen)
        assert screen.query_one("#character-weapons", Input).has_class("-invalid")
        await _type(pilot, "skills", "observation two")
        assert "a name and its number" in _sheet(screen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CharacterBuilder) and app.session.campaign.made == ()
        await pilot.press("escape")  # changed: the first Esc only warns
        await pilot.pause()
        assert isinstance(app.screen, CharacterBuilder)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, CharacterBuilder)


async def test_a_pack_hero_grows_with_a_note_and_the_log_says_what_changed() -> None:
    app = _app("kestrel-vance")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _builder(pilot, "g")
        skills = screen.query_one("#character-skills", Input).value
        assert skills.startswith("rifles 2, pistols 1")
        await _type(pilot, "skills", skills.replace("rifles 2", "rifles 3"))
        await _type(pilot, "note", "10 XP: the relic")
        await pilot.press("enter")
        await pilot.pause()
        entry = app.session.log[-1]
        assert entry.title == "Kestrel Vance grows (10 XP: the relic)"
        assert entry.lines == ("Rifles 2 → 3",)
        assert app.session.catalog.heroes["kestrel-vance"].ratings.rifles == 9


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_character_builder(snap_compare, size) -> None:
    async def fill(pilot) -> None:
        await _builder(pilot)
        await _type(pilot, "name", "Ada Quill")
        await _type(pilot, "career", "Scout")
        await _type(pilot, "skills", "observation 2, rifles 1")
        await _type(pilot, "weapons", "assault-laser")
        pilot.app.screen.query_one("#character-strength").focus()  # no text cursor to blink
        await pilot.pause()

    assert snap_compare(_app(), terminal_size=size, run_before=fill)


async def test_a_gm_copies_a_pack_minion_changes_it_and_the_fight_can_use_it() -> None:
    """F3 b: a one-off Minion from a pack's, by copying and changing it (R-CHAR-1)."""
    from textual.widgets import OptionList

    from hsm_tui.campaign.combat import AddCombatants, AddZone
    from hsm_tui.ui.screens.content_browser import TABS

    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        app.screen.query_one("#content-kinds", OptionList).highlighted = TABS.index("minions")
        await pilot.pause()
        entries = app.screen.query_one("#content-entries", OptionList)
        entries.focus()
        first = next(iter(app.session.catalog.minions.values()))
        await pilot.press("b")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CharacterBuilder)
        assert screen.query_one("#character-id", Input).value == f"{first.id}-copy"
        await _type(pilot, "name", "Scarred veteran")
        assert screen.query_one("#character-id", Input).value == f"{first.id}-copy"  # kept
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.log[-1].title == "Made: Scarred veteran (minion)"
        app.session.apply(AddZone("dig"))
        app.session.apply(AddCombatants("minion", f"{first.id}-copy", "foes", "dig"))
        assert app.session.encounter.combatants[-1].name == "Scarred veteran"


async def test_made_heroes_export_to_a_pack_and_import_into_another_campaign(
    tmp_path, monkeypatch
) -> None:
    """F8 X writes the campaign's characters as a pack that ``hsm content check`` passes;
    F8 I in another campaign opens one in the builder, and Enter makes it that party's."""
    import subprocess
    import sys

    from hsm_tui.campaign.making import MakeCharacter
    from hsm_tui.ui.screens.picker import PickerScreen
    from tests.test_making import ADA

    monkeypatch.setenv("HSM_SAVES", str(tmp_path))
    first = _app()
    first.session.rename("Long Reach")
    first.session.apply(MakeCharacter(ADA))
    async with first.run_test(size=(80, 24)) as pilot:
        await _on_home(pilot, "X")
    folder = tmp_path / "packs" / "long-reach"
    assert sorted(p.name for p in folder.iterdir()) == ["heroes.toml", "pack.toml"]
    check = [sys.executable, "-m", "hsm_tui", "content", "check", "--strict", str(folder)]
    done = subprocess.run(check, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    second = _app("kestrel-vance")
    async with second.run_test(size=(80, 24)) as pilot:
        assert isinstance(await _on_home(pilot, "I"), PickerScreen)
        await pilot.press(*"ada", "enter")
        await pilot.pause()
        assert isinstance(second.screen, CharacterBuilder)
        await pilot.press("enter")
        await pilot.pause()
    assert [m.name for m in second.session.campaign.party] == ["Kestrel Vance", "Ada Quill"]
    assert second.session.campaign.made[0].traits == ADA.traits


async def test_f7_makes_a_one_off_minion_and_adds_it_at_once() -> None:
    """F7 M: the highlighted entry copied, changed and kept; it is in the picker to add."""
    from hsm_tui.campaign.combat import AddZone
    from hsm_tui.ui.widgets.pack_picker import PackPicker

    app = _app()
    app.session.apply(AddZone("dig"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f7")
        await pilot.pause()
        picker = app.screen.query_one(PackPicker)
        picker.focus_list()
        await pilot.pause()
        entry = picker.entry
        assert entry is not None
        await pilot.press("M")
        await pilot.pause()
        assert isinstance(app.screen, CharacterBuilder)
        await _type(pilot, "name", "One-eyed boss")
        await pilot.press("enter")
        await pilot.pause()
        made = app.session.campaign.made[-1]
        assert made.name == "One-eyed boss" and made.id == f"{entry.id}-copy"
        picker = app.screen.query_one(PackPicker)
        assert any(e.id == made.id for e in picker.entries)


async def test_f8_r_takes_a_healed_chart_result_off_a_hero() -> None:
    from hsm_tui.campaign.party import EditChart
    from hsm_tui.ui.screens.decision_dialog import DecisionDialog

    app = _app("kestrel-vance")
    app.session.apply(EditChart("kestrel-vance", "scarred", add=True))
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(await _on_home(pilot, "R"), DecisionDialog)
        await pilot.press("1")  # the first: take off Scarred
        await pilot.pause()
        assert app.session.campaign.member("kestrel-vance").chart == ()


async def test_a_campaign_hero_that_no_longer_checks_is_named_on_open_and_mended_with_g(
    tmp_path,
) -> None:
    """A hand-edited file (Strength 9): opening says which field, F8 g opens the sheet and
    says it again, and keeping the mended sheet makes the Hero playable again."""
    from hsm_tui.campaign.making import MakeCharacter
    from hsm_tui.persistence import store
    from tests.test_making import ADA

    first = _app()
    first.session.apply(MakeCharacter(ADA))
    first.session.apply(AddHero("ada-quill"))
    path = store.save(first.session, tmp_path / "reach.toml")
    text = path.read_text()
    at = text.index("[[state.campaign.made]]")
    path.write_text(text[:at] + text[at:].replace("traits = [\n    2,", "traits = [\n    9,", 1))
    second = _app()
    said = store.load(second.session, path)
    assert "traits.strength: must be from 1 to 4, got 9" in said
    assert "ada-quill" not in second.session.catalog.heroes
    async with second.run_test(size=(80, 24)) as pilot:
        screen = await _builder(pilot, "g")
        assert any("got 9" in n.message for n in second._notifications)
        await _type(pilot, "note", "the file was mended")
        screen.query_one("#character-strength", Stepper).value = 2
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
    assert second.session.catalog.heroes["ada-quill"].traits.strength == 2
    assert "Strength 9 → 2" in second.session.log[-1].lines


async def test_a_new_character_opens_with_no_word_about_a_saved_sheet() -> None:
    """The blank form has no id yet: that is the form's to say beside the field, not a
    warning about a saved sheet (which is for a campaign character that no longer checks)."""
    app = _app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _builder(pilot)
        assert [n.title for n in app._notifications if n.title == "The saved sheet"] == []
