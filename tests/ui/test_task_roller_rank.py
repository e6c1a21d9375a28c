"""F2 (task roller): a named roller's rank is its own, picking a trait changes only its
score, and undoing an opposed or group roll holds its tasks again.

Found by a GM walkthrough at 80×24: one → on Rank turned Kestrel Vance into a Minion (her
Hero die vanished, in opposed rolls too); picking another trait reset Rank to Hero; and
`u` after an opposed roll lost the held side A as well as the roll.
"""

from __future__ import annotations

from hsm_tui.campaign.combat import AddCombatants, AddZone
from hsm_tui.campaign.party import AddHero
from hsm_tui.rules import Rank, Trait
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.widgets.stepper import Stepper
from tests.ui.test_task_roller import _TasksFirst

SEED = 7


def _app(*sidekicks: str) -> HsmApp:
    """F2 with Kestrel Vance in the party and ``sidekicks`` in the encounter."""
    session = Session(seed=SEED)
    session.load_content()
    session.apply(AddHero("kestrel-vance"))
    if sidekicks:
        session.apply(AddZone("ridge"))
    for sidekick in sidekicks:
        session.apply(AddCombatants("sidekick", sidekick, "heroes", "ridge"))
    return _TasksFirst(session)


def _field(app: HsmApp, name: str) -> Stepper:
    return app.screen.query_one(f"#{name}", Stepper)


def _labels(app: HsmApp, name: str) -> list[str]:
    return [label for label, _ in _field(app, name).choices]


def _text(app: HsmApp, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


async def test_r_char_1_a_named_heros_rank_is_locked_and_anyone_is_free() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right")  # focus starts on Who: Kestrel Vance
        await pilot.pause()
        rank = _field(app, "rank")
        assert rank.disabled and _labels(app, "rank") == ["Hero (own)"]
        await pilot.press("down", "right")  # ↓ skips Rank: → changes Trait 1, not her rank
        await pilot.pause()
        assert app.focused is _field(app, "trait1") and rank.value is Rank.HERO
        await pilot.press("o", "o")  # her opposed roll against herself: both sides Heroes
        await pilot.pause()
        opposed = app.session.history[-1]
        assert (opposed.first.rank, opposed.second.rank) == (Rank.HERO, Rank.HERO)
        await pilot.press("up", "left")  # back on Who: anyone
        await pilot.pause()
        assert not rank.disabled and _labels(app, "rank") == ["Hero", "Minion"]


async def test_picking_another_trait_fills_its_score_and_keeps_the_rest() -> None:
    """The trait's score is the roller's; the GM's Wounds and the rank stay as set."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right")  # Kestrel Vance: Agility 3, unwounded
        _field(app, "wounds").value = -1  # the GM's call for this task
        _field(app, "trait1").focus()
        await pilot.pause()
        await pilot.press("right")
        await pilot.pause()
        chosen = _field(app, "trait1").value
        assert chosen is not Trait.AGILITY
        assert _field(app, "score1").value == app.screen.roller.traits[chosen]
        assert _field(app, "wounds").value == -1 and _field(app, "rank").value is Rank.HERO


async def test_r_char_8_an_undecided_sidekicks_first_roll_asks_for_its_rules() -> None:
    app = _app("veteran-guide")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right", "right")  # Who: the Veteran guide (after Kestrel)
        await pilot.pause()
        before = app.session.log
        assert not _field(app, "rank").disabled
        assert "Rank: asked at its first roll (R-CHAR-8)" in _text(app, "#task-odds")
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, DecisionDialog) and "Hero or a Minion" in app.screen.question
        await pilot.press("escape")  # not now: nothing rolled, nothing decided
        await pilot.pause()
        assert app.session.log == before
        await pilot.press("r", "m")  # plays as a Minion, then the roll goes on
        await pilot.pause()
        decided, rolled = app.session.log[len(before) :]
        assert "plays as a minion" in decided.title and rolled.title.endswith("Task (Minion)")
        assert _field(app, "rank").disabled and _labels(app, "rank") == ["Minion (own)"]


async def test_undo_of_an_opposed_roll_holds_side_a_again_and_redo_uses_it_up() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        before = app.session.log
        await pilot.press("right", "o", "left", "o")  # side A Kestrel, side B anyone
        await pilot.pause()
        rolled = app.session.log
        assert "Opposed" not in _text(app, "#task-status")
        await pilot.press("u")
        await pilot.pause()
        assert app.session.log == before
        assert "Opposed: Kestrel Vance (TN 6) waits" in _text(app, "#task-status")
        await pilot.press("y")
        await pilot.pause()
        assert app.session.log == rolled and "Opposed" not in _text(app, "#task-status")
        await pilot.press("u", "o")  # side A is held again: o rolls it once more
        await pilot.pause()
        assert app.session.log == rolled


async def test_undo_of_a_group_roll_holds_the_group_again() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g", "g", "n", "G")  # a group of two needing half, rolled
        await pilot.pause()
        assert "Group" not in _text(app, "#task-status")
        await pilot.press("u")
        await pilot.pause()
        assert "Group of 2 needs half" in _text(app, "#task-status")
