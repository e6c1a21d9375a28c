"""The Severe Wound chart screen: rows, exact §7 odds, marks, and the roll (Pilot)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from textual.widgets import DataTable, Static

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    DecideSidekick,
    PendingChartChoice,
    RollChart,
    chart_odds,
)
from hsm_tui.packs import Catalog
from hsm_tui.rules import Rank, task_tn
from hsm_tui.table.session import RollTask, Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.chart import ChartScreen
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.help import HelpScreen
from hsm_tui.ui.screens.reroll_dialog import RerollDialog
from hsm_tui.ui.widgets.stepper import Stepper
from tests.campaign import edit
from tests.ui.test_player_app import screen_text

SEED = 7
KESTREL = "kestrel-vance-1"


def _session(seed: int = SEED, *, heroes: bool = True, luck: int = 0) -> Session:
    """Kestrel with ``luck`` Luck: none by default, so her grip roll asks nothing and the
    chart rolls at once (the question on F5 has its own test)."""
    session = Session(seed=seed)
    session.load_content()
    session.apply(AddZone("ridge"))
    session.apply(AddCombatants("minion", "pirate-raider", "pirates", "ridge", count=2))
    if heroes:
        session.apply(AddCombatants("hero", "kestrel-vance", "heroes", "ridge"))
        session.apply(AddCombatants("sidekick", "veteran-guide", "heroes", "ridge"))
        edit(session, KESTREL, luck=luck)
    return session


async def _open(pilot) -> ChartScreen:
    await pilot.app.push_screen(ChartScreen())
    await pilot.pause()
    return pilot.app.screen


def _cells(app: HsmApp) -> dict[str, list[str]]:
    """Row id → the row's cells as text (mark, roll, chance, result, effect)."""
    table = app.screen.query_one("#chart-table", DataTable)
    return {str(key.value): [str(cell) for cell in table.get_row(key)] for key in table.rows}


def _text(app: HsmApp, widget: str) -> str:
    return str(app.screen.query_one(widget, Static).content)


def _cursor_row(app: HsmApp) -> str:
    table = app.screen.query_one("#chart-table", DataTable)
    return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)


def _seed_rolling_13(overflow: int) -> int:
    """A seed whose first chart roll for Kestrel lands on 13 (the erratum's two rows)."""
    for seed in range(1000):
        session = _session(seed)
        session.apply(RollChart(KESTREL, overflow))
        if isinstance(session.pending, PendingChartChoice):
            return seed
    raise AssertionError("no seed rolls 13")


def test_r_wound_5_exact_odds_of_each_row() -> None:
    """§7: d10 + modifier, each face 1/10; the two 13s each show the whole chance."""
    chart = Session(seed=SEED).load_content().catalog.chart
    plain = {o.row.id: o.chance for o in chart_odds(chart, 0)}
    assert plain["scarred"] == Fraction(1, 2) and plain["ptsd"] == Fraction(2, 5)
    assert plain["stunned"] == 0 and plain["dead"] == 0
    odds = {o.row.id: o for o in chart_odds(chart, 5)}  # totals 6 to 15
    assert odds["scarred"].chance == 0 and odds["ptsd"].chance == Fraction(2, 5)
    assert odds["painful-wound"].chance == odds["limb-injury"].chance == Fraction(1, 10)
    assert odds["painful-wound"].shared and odds["limb-injury"].shared
    assert not odds["stunned"].shared
    unshared = sum(o.chance for o in odds.values() if not o.shared)
    assert unshared + Fraction(1, 10) == 1  # the 13 is counted once, not split
    assert {o.row.id: o.chance for o in chart_odds(chart, 21)}["dead"] == 1


async def test_r_wound_5_both_13_rows_shown_in_pack_order() -> None:
    app = HsmApp(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        cells = _cells(app)
        assert list(cells) == [row.id for row in app.session.catalog.chart]
        assert [c[1] for c in cells.values()].count("13") == 2
        assert cells["scarred"][1:4] == ["1–5", "50.0%", "Scarred"]
        assert cells["bleeding-out"][3] == "Bleeding out (unconscious)"
        assert cells["dead"][1] == "22+" and cells["dead"][3] == "Dead"
        assert cells["ptsd"][4].startswith("Haunted by it.")  # effect, cut to fit with …
        assert "▶" not in "".join(c[0] for c in cells.values())


async def test_r_wound_5_modifier_counts_overflow_and_earlier_severe_wounds() -> None:
    session = _session()
    session.apply(RollChart(KESTREL, 2))  # Kestrel's first severe wound
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("plus", "plus", "plus")  # overflow 3
        await pilot.pause()
        formula = _text(app, "#chart-formula")
        assert formula.endswith(
            "Next roll: d10 + overflow 3 + 2 × 1 earlier severe = d10 + 5 → 6 to 15"
        )  # one line at 80 columns
        cells = _cells(app)
        assert cells["scarred"][2] == "—" and cells["ptsd"][2] == "40.0%"
        # one 13, two rows: its 10% is shown once, so the column adds up to 100%
        assert (cells["painful-wound"][2], cells["limb-injury"][2]) == (
            "10.0% GM picks",
            "〃 same roll",
        )
        assert cells["bleeding-out"][2] == "10.0%" and cells["random-drawback"][2] == "—"
        await pilot.press("minus")
        await pilot.pause()
        assert _cells(app)["random-drawback"][2] == "—" and _cells(app)["ptsd"][2] == "40.0%"
        assert "d10 + 4" in _text(app, "#chart-formula")


async def test_r_wound_5_marks_rows_already_suffered_newest_highlighted() -> None:
    session = _session()
    session.apply(RollChart(KESTREL, 0))
    session.apply(RollChart(KESTREL, 0))
    history = session.encounter.get(KESTREL).chart
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        cells = _cells(app)
        assert cells[history[-1]][0] == "▶"
        if history[0] != history[-1]:
            assert cells[history[0]][0] == "✓"
        assert _cursor_row(app) == history[-1]
        assert _text(app, "#chart-detail").startswith("▶ newest · ")
        assert _text(app, "#chart-result").startswith("▶ Kestrel Vance: ")


async def test_r_wound_5_the_result_line_is_the_chosen_heros_own_and_readable_at_80x24() -> None:
    """Kestrel rolled on the chart, Tamsin (a Sidekick playing as a Hero) did not: on her,
    F5 says she has no result yet and highlights no row of Kestrel's; once she has one,
    the line names her in full, painted on one line at 80×24."""
    session = _session()
    session.apply(RollChart(KESTREL, 0))
    session.apply(DecideSidekick("veteran-guide-1", "hero"))
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("h")
        await pilot.pause()
        assert (
            _text(app, "#chart-result")
            == "Tamsin Reyes, veteran guide: no Severe Wound chart result yet"
        )
        assert _cursor_row(app) == session.catalog.chart[0].id  # not Kestrel's newest
        assert not _text(app, "#chart-detail").startswith(("▶", "✓"))
        session.apply(RollChart("veteran-guide-1", 0))
        await pilot.pause()
        row = {r.id: r for r in session.catalog.chart}[
            session.encounter.get("veteran-guide-1").chart[-1]
        ]
        line = f"▶ Tamsin Reyes, veteran guide: {row.span} {row.name}{row.mark}"
        assert _text(app, "#chart-result") == line
        assert any(line in painted for painted in screen_text(app).splitlines())


async def test_r_char_8_sidekick_playing_as_hero_can_be_chosen_minions_never() -> None:
    session = _session()
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        stepper = screen.query_one("#chart-hero", Stepper)
        assert [cid for _, cid in stepper.choices] == [KESTREL]  # sidekick undecided
        session.apply(DecideSidekick("veteran-guide-1", "hero"))
        await pilot.pause()
        assert [cid for _, cid in stepper.choices] == [KESTREL, "veteran-guide-1"]
        await pilot.press("h")
        await pilot.pause()
        assert screen.hero() is not None and screen.hero().id == "veteran-guide-1"


async def test_no_hero_says_so_and_roll_only_warns() -> None:
    app = HsmApp(_session(heroes=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        assert _text(app, "#chart-formula").startswith("No Hero")
        log = app.session.log
        await pilot.press("r")
        await pilot.pause()
        assert app.session.log == log
        assert any("No Hero" in n.message for n in app._notifications)
        assert _cells(app)["scarred"][2] == "50.0%"  # plain d10 odds still shown


async def test_r_wound_5_roll_key_rolls_logs_and_highlights_the_result() -> None:
    app = HsmApp(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("r")
        await pilot.pause()
        if isinstance(app.screen, DecisionDialog):  # this seed rolled a 13
            await pilot.press("1")
            await pilot.pause()
        kestrel = app.session.encounter.get(KESTREL)
        assert kestrel.severe == 1 and len(kestrel.chart) == 1
        rolled = [line for e in app.session.log[-2:] for line in e.lines]
        assert any(line.startswith("Severe Wound chart: d10 ") for line in rolled)
        assert _cursor_row(app) == kestrel.chart[-1]
        assert _cells(app)[kestrel.chart[-1]][0] == "▶"
        await pilot.press("u")  # undo on this screen too, the die with it
        await pilot.pause()
        assert app.session.encounter.get(KESTREL).severe == 0


async def test_r_task_6_f5_asks_a_hero_with_luck_about_the_grip_roll_then_rolls() -> None:
    """R-WOUND-5 with R-TASK-6 on F5: a failed grip roll asks about Luck in the re-roll
    dialog; Esc leaves it waiting (r asks again), kept, the chart rolls."""
    app = HsmApp(_session(luck=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RerollDialog)  # seed 7: the grip's d10 fails
        assert app.session.encounter.get(KESTREL).chart == ()  # the chart waits for it
        await pilot.press("escape")
        await pilot.pause()
        assert "Waiting: Kestrel Vance's grip Stamina roll" in _text(app, "#chart-detail")
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("k")  # keeps the roll: drops the weapon; the chart is rolled
        await pilot.pause()
        if isinstance(app.screen, DecisionDialog):  # a 13
            await pilot.press("1")
            await pilot.pause()
        kestrel = app.session.encounter.get(KESTREL)
        assert app.session.pending is None and len(kestrel.chart) == 1
        assert kestrel.weapon("assault-laser").dropped
        assert app.session.log[-1].lines[-2].startswith("Severe Wound chart: d10 ")


async def test_r_wound_5_a_13_asks_which_row_in_the_decision_dialog() -> None:
    app = HsmApp(_session(_seed_rolling_13(5)))
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        for _ in range(5):
            await pilot.press("plus")
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, DecisionDialog)
        await pilot.press("escape")  # decide later: the pick stays pending
        await pilot.pause()
        assert isinstance(app.session.pending, PendingChartChoice)
        assert "Waiting:" in _text(app, "#chart-detail")
        await pilot.press("r")  # r answers the waiting pick, it does not roll again
        await pilot.pause()
        assert isinstance(app.screen, DecisionDialog)
        await pilot.press("2")
        await pilot.pause()
        assert isinstance(app.screen, ChartScreen) and app.session.pending is None
        assert app.session.encounter.get(KESTREL).chart == ("limb-injury",)
        assert _cursor_row(app) == "limb-injury"


async def test_refused_roll_shows_the_reason_and_changes_nothing() -> None:
    session = _session()
    tn = task_tn([("Agility", 2), ("Senses", 2)])
    session.apply(RollTask(tn, Rank.HERO, rerolls=1))  # re-rolls now pending
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("r")
        await pilot.pause()
        [note] = [n for n in app._notifications if n.severity == "error"]
        assert note.message.startswith("answer the pending question first")
        assert note.message.endswith(
            "(F2, then e re-rolls or k keeps it)"
        )  # asked on another screen
        assert app.session.encounter.get(KESTREL).severe == 0
        assert isinstance(app.screen, ChartScreen)


async def test_screen_unsubscribes_when_closed() -> None:
    session = _session()
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        count = len(session._subscribers)
        app.pop_screen()
        await pilot.pause()
        assert len(session._subscribers) == count - 1


async def test_f1_explains_the_modifier() -> None:
    app = HsmApp(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "d10 + overflow + 2 × earlier severe wounds" in app.screen.screen_help


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_chart_screen(snap_compare, size) -> None:
    session = _session()
    session.apply(RollChart(KESTREL, 2))

    async def show(pilot) -> None:
        await _open(pilot)
        await pilot.press("plus", "plus", "plus")
        await pilot.pause()

    assert snap_compare(HsmApp(session), terminal_size=size, run_before=show)


async def test_no_chart_in_the_packs_says_so() -> None:
    session = Session(seed=SEED)
    session.content = replace(session.load_content(), catalog=Catalog())
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        assert "No Severe Wound chart" in _text(app, "#chart-detail")
