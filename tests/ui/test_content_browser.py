"""Content browser: every shipped entry browsable, search, cards, problems panel."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import OptionList, Static

from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.content_browser import TABS as KINDS
from hsm_tui.ui.screens.content_browser import ContentBrowserScreen

SEED = 7


def _card_text(app: HsmApp) -> str:
    body = app.screen.query_one("#content-card-body", Static)
    console = Console(width=120, file=io.StringIO(), record=True)
    console.print(body.content)
    return console.export_text()


async def _open(pilot) -> ContentBrowserScreen:
    await pilot.press("f3")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, ContentBrowserScreen)
    return screen


async def _pick_kind(pilot, kind: str) -> None:
    pilot.app.screen.query_one("#content-kinds", OptionList).highlighted = KINDS.index(kind)
    await pilot.pause()


async def test_every_shipped_entry_has_a_card() -> None:
    app = HsmApp(Session(seed=SEED))
    async with app.run_test(size=(120, 40)) as pilot:
        await _open(pilot)
        catalog = app.content.catalog
        for kind in ("weapons", "minions", "sidekicks", "heroes"):
            await _pick_kind(pilot, kind)
            entries = app.screen.query_one("#content-entries", OptionList)
            assert entries.option_count == len(catalog.kind(kind))
            for index, entry in enumerate(catalog.kind(kind).values()):
                entries.highlighted = index
                await pilot.pause()
                assert entry.name.split(",")[0] in _card_text(app)


async def test_r_char_3_minion_sheet_shows_derived_traits() -> None:
    app = HsmApp(Session(seed=SEED))
    async with app.run_test(size=(120, 40)) as pilot:
        await _open(pilot)
        await _pick_kind(pilot, "minions")
        trooper = next(iter(app.content.catalog.minions.values()))
        text = _card_text(app)
        health = trooper.traits.strength * 2
        assert "Hlt" in text and "Ini" in text and str(health) in text


async def test_search_filters_the_current_kind() -> None:
    app = HsmApp(Session(seed=SEED))
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)  # weapons are shown first
        await pilot.press("slash", *"laser")
        await pilot.pause()
        entries = app.screen.query_one("#content-entries", OptionList)
        names = [str(entries.get_option_at_index(i).prompt) for i in range(entries.option_count)]
        assert names and all("Laser" in n or "laser" in n.lower() for n in names[:2])
        assert "Whip" not in names
        await pilot.press("enter")  # Enter leaves the box and keeps the filter
        await pilot.pause()
        assert app.screen.focused is entries and entries.option_count == len(names)
        await pilot.press("escape")  # Esc drops it: every weapon is listed again
        await pilot.pause()
        assert app.screen.focused is entries
        assert entries.option_count > len(names)
        assert app.screen.query_one("#content-search").value == ""


def _names(app: HsmApp) -> list[str]:
    entries = app.screen.query_one("#content-entries", OptionList)
    return [str(entries.get_option_at_index(i).prompt) for i in range(entries.option_count)]


@pytest.mark.parametrize(
    ("kind", "words", "found"),
    [
        ("sidekicks", "expense account", "Imelda Varga, corporate liaison"),  # an Advantage
        ("sidekicks", "tracking", "Tamsin Reyes, veteran guide"),  # a Talent
        ("sidekicks", "lock-picking", "Dace Kettridge, pirate first mate"),  # a Skill
        ("sidekicks", "greedy", "Dace Kettridge, pirate first mate"),  # a Drawback
        ("heroes", "lucky devil", "Captain Roan Maddox"),
    ],
)
async def test_search_finds_a_character_by_what_its_sheet_lists(
    kind: str, words: str, found: str
) -> None:
    """An Advantage or Talent recalled in play finds whoever has it, and the help says
    what the search covers.
    """
    app = HsmApp(Session(seed=SEED))
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await _pick_kind(pilot, kind)
        await pilot.press("slash", *words, "enter")
        await pilot.pause()
        assert _names(app) == [found]
        await pilot.press("f1")
        await pilot.pause()
        help_text = app.screen.screen_help
        assert "skills, talents, advantages and drawbacks" in help_text


async def test_weapon_card_shows_hero_die_effects_and_who_applies_them() -> None:
    app = HsmApp(Session(seed=SEED))
    async with app.run_test(size=(120, 40)) as pilot:
        await _open(pilot)
        await pilot.press("slash", *"bow", "enter")
        await pilot.pause()
        text = _card_text(app)
        assert "called shot [GM]" in text  # R-TASK-5 Special: the GM adjudicates
        assert "★ 6" in text and "✗ 1" in text


async def test_chart_marks_both_13s() -> None:
    app = HsmApp(Session(seed=SEED))
    async with app.run_test(size=(120, 40)) as pilot:
        await _open(pilot)
        await _pick_kind(pilot, "chart")
        text = _card_text(app)
        assert text.count("13") >= 2 and "22+" in text


async def test_broken_user_pack_is_listed_not_fatal(tmp_path: Path) -> None:
    pack = tmp_path / "broken"
    pack.mkdir()
    (pack / "pack.toml").write_text('[pack]\nid = "broken"\nname = "B"\nversion = "1"\n')
    (pack / "minions.toml").write_text('[[minion]]\nid = "x"\nname = "X"\ntraits = 3\n')
    app = HsmApp(Session(seed=SEED), content=[pack])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _open(pilot)
        await _pick_kind(pilot, "problems")
        text = _card_text(app)
        assert "minions.toml:4" in text and "traits" in text
        assert "x" not in app.content.catalog.minions


@pytest.mark.parametrize(("size", "kind"), [((80, 24), "weapons"), ((120, 40), "minions")])
def test_snapshot_content_browser(snap_compare, size, kind) -> None:
    async def show(pilot) -> None:
        await pilot.press("f3")
        await pilot.pause()
        await _pick_kind(pilot, kind)

    assert snap_compare(HsmApp(Session(seed=SEED)), terminal_size=size, run_before=show)


def test_snapshot_severe_wound_chart(snap_compare) -> None:
    async def show(pilot) -> None:
        await pilot.press("f3")
        await pilot.pause()
        await _pick_kind(pilot, "chart")

    assert snap_compare(HsmApp(Session(seed=SEED)), terminal_size=(80, 24), run_before=show)
