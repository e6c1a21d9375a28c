"""The free-flowing task roller driven through the real app with Pilot (R-TASK-1..7)."""

from __future__ import annotations

import pytest

from hsm_tui.rules import Rank, Trait
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.help import HelpScreen
from hsm_tui.ui.screens.reroll_dialog import RerollDialog
from hsm_tui.ui.screens.task_roller import TaskRollerScreen
from hsm_tui.ui.widgets.stepper import Stepper

SEED = 7


class _TasksFirst(HsmApp):
    """The app opened straight on the task roller (it starts on the campaign home)."""

    DEFAULT_MODE = "tasks"


def _app() -> HsmApp:
    return _TasksFirst(Session(seed=SEED))


def _odds_text(app: HsmApp) -> str:
    return str(app.screen.query_one("#task-odds").render())


def _status_text(app: HsmApp) -> str:
    """The held opposed side and group, and re-rolls waiting (under the odds)."""
    return str(app.screen.query_one("#task-status").render())


async def _focus(pilot, field: str) -> None:
    pilot.app.screen.query_one(f"#{field}", Stepper).focus()
    await pilot.pause()


async def test_r_task_1_tn_and_odds_update_as_fields_change() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, TaskRollerScreen)
        assert "TN 4" in _odds_text(app)  # Agility 2 + Senses 2
        await _focus(pilot, "score1")
        await pilot.press("4")  # Agility 4
        await _focus(pilot, "skill")
        await pilot.press("right", "right")  # skill 2
        await _focus(pilot, "difficulty")
        await pilot.press("right", "right", "right", "left")  # medium, not heavy
        await _focus(pilot, "wounds")
        await pilot.press("left")  # wound -1 adds (R-WOUND-3)
        await pilot.pause()
        text = _odds_text(app)
        assert "TN 5" in text  # 4 + 2 + 2 − 2 − 1
        assert "medium difficulty" in text and "wound 1" in text
        assert "50.0%" in text and "1/2" in text  # R-TASK-7: exact odds for TN 5


async def test_r_task_1_trait_doubled_when_second_trait_is_double() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one("#trait2", Stepper).value = None
        app.screen.query_one("#score1", Stepper).value = 3
        await pilot.pause()
        assert app.screen.build_tn().value == 6
        assert "Agility 3 + Agility 3" in _odds_text(app)


async def test_r_task_2_5_roll_key_logs_an_explained_result() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        [entry] = app.session.log
        assert entry.title == "Task (Hero)"
        assert entry.gm_lines[0].startswith("TN Agility 2 + Senses 2 = 4")
        assert "success 40.0% (2/5)" in entry.gm_lines[1]
        assert "Hero die" in entry.gm_lines[-1] and "TN 4" in entry.gm_lines[-1]
        log_text = "\n".join(str(line) for line in app.screen.query_one("#task-log").lines)
        assert "Task (Hero)" in log_text


async def test_r_task_4_minion_below_one_shows_zero_odds() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _focus(pilot, "rank")
        await pilot.press("right")
        await _focus(pilot, "mods")
        for _ in range(6):
            await pilot.press("left")
        await pilot.pause()
        assert app.screen.query_one("#rank", Stepper).value is Rank.MINION
        assert "0.0%" in _odds_text(app) and "★" not in _odds_text(app)


async def test_r_task_6_rerolls_spent_through_the_dialog() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _focus(pilot, "rerolls")
        await pilot.press("2", "r")
        await pilot.pause()
        pending = app.session.pending
        assert pending is not None and pending.available == 2
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, RerollDialog)
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.pending is None
        assert (
            app.session.log[-1]
            .lines[-1]
            .startswith(f"re-rolled {pending.suggested[0]} d10 + {pending.suggested[1]} Hero die")
        )


async def test_r_task_6_k_keeps_the_roll_and_notes_can_be_written_while_it_waits() -> None:
    """The question says "e, or k to keep": k on F2 keeps it. While it waits, the scene
    notes (not a roll) are still taken on home: nothing typed is thrown away.
    """
    app = _app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _focus(pilot, "rerolls")
        await pilot.press("2", "r")
        await pilot.pause()
        assert app.session.pending is not None
        await pilot.press("f8", "e", *"Night falls", "escape", "f2")
        await pilot.pause()
        assert app.session.campaign.scene == "Night falls"
        assert app.session.pending is not None  # the notes left the question waiting
        await pilot.press("k")
        await pilot.pause()
        assert app.session.pending is None
        assert app.session.log[-2].lines[-1] == "kept the first roll (no re-rolls spent)"
        await pilot.press("u")
        await pilot.pause()
        title = app.session.log[-2].title
        assert app._notifications  # the undo says what it took back, in a GM's words
        assert list(app._notifications)[-1].message == f"Undone: the re-rolls on {title}"


async def test_undo_restores_dice_and_redo_replays_them() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        first = app.session.log
        await pilot.press("u")
        await pilot.pause()
        assert app.session.log == ()
        await pilot.press("y")
        await pilot.pause()
        assert app.session.log == first  # same dice again
        await pilot.press("u", "r")
        await pilot.pause()
        assert app.session.log == first  # the RNG went back too


async def test_reroll_without_a_pending_roll_notifies_and_changes_nothing() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("e", "u", "y")
        await pilot.pause()
        assert isinstance(app.screen, TaskRollerScreen)
        assert app.session.log == ()


async def test_f1_opens_help_with_quick_reference() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Strength die" in app.screen.screen_help + app.screen.query_one("Markdown").source
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TaskRollerScreen)


async def test_two_views_of_one_session_stay_in_sync() -> None:
    session = Session(seed=SEED)
    a, b = _TasksFirst(session), _TasksFirst(session)
    async with a.run_test(size=(80, 24)) as pa, b.run_test(size=(80, 24)) as pb:
        await pa.press("r")
        await pa.pause()
        await pb.pause()
        lines = b.screen.query_one("#task-log").lines
        assert any("Task (Hero)" in str(line.text) for line in lines)


def test_trait_choices_cover_all_seven_traits() -> None:
    """R-CHAR-2: every primary trait can be picked."""
    app = _app()
    screen = TaskRollerScreen()
    assert app and screen
    from hsm_tui.ui.screens.task_roller import TRAIT_CHOICES as TRAITS

    assert [t for _, t in TRAITS] == list(Trait)


async def _roll_with_rerolls(pilot) -> None:
    pilot.app.screen.query_one("#rerolls", Stepper).value = 2
    pilot.app.screen.query_one("#skill", Stepper).value = ("skill", 1)
    await pilot.press("r", "r")
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_task_roller(snap_compare, size) -> None:
    assert snap_compare(_app(), terminal_size=size, run_before=_roll_with_rerolls)


def test_snapshot_reroll_dialog(snap_compare) -> None:
    async def open_dialog(pilot) -> None:
        await _roll_with_rerolls(pilot)
        await pilot.press("e")
        await pilot.pause()

    assert snap_compare(_app(), terminal_size=(80, 24), run_before=open_dialog)


async def test_r_task_6_help_inside_the_reroll_dialog() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _focus(pilot, "rerolls")
        await pilot.press("1", "r", "e", "f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Keep the first roll" in app.screen.screen_help.replace("keep", "Keep")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RerollDialog)


def _party_app() -> HsmApp:
    from hsm_tui.campaign.party import AddHero, GrantClues

    session = Session(seed=SEED)
    session.load_content()
    session.apply(AddHero("kestrel-vance"))
    session.apply(GrantClues("kestrel-vance", 1))
    return _TasksFirst(session)


async def test_r_char_9_who_fills_rank_scores_and_shows_luck_and_clues() -> None:
    app = _party_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _focus(pilot, "who")
        await pilot.press("right")  # Kestrel Vance
        await pilot.pause()
        screen = app.screen
        assert screen.query_one("#score1", Stepper).value == 3  # her Agility
        assert screen.query_one("#score2", Stepper).value == 3  # her Senses
        assert "Kestrel Vance: Luck 2 · Clues 1" in _odds_text(app)
        await pilot.press("r")
        await pilot.pause()
        assert app.session.log[-1].title == "Kestrel Vance: Task (Hero)"
        assert app.session.pending is not None  # her Luck and Clues can pay for re-rolls


async def test_r_wound_3_a_wounded_combatant_brings_its_wound_marker() -> None:
    from hsm_tui.campaign.combat import AddCombatants, AddZone
    from tests.campaign import edit

    session = Session(seed=SEED)
    session.load_content()
    session.apply(AddZone("ridge"))
    session.apply(AddCombatants("hero", "kestrel-vance", "heroes", "ridge"))
    edit(session, "kestrel-vance-1", wounds=1)
    app = _TasksFirst(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _focus(pilot, "who")
        await pilot.press("right")
        await pilot.pause()
        assert app.screen.query_one("#wounds", Stepper).value == -1
        assert "wound 1" in _odds_text(app)


async def test_opposed_and_group_tasks_by_keys() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")  # side A held
        await pilot.pause()
        assert "Opposed" in _status_text(app)
        await _focus(pilot, "rank")
        await pilot.press("right")  # side B is a Minion
        await pilot.press("o")
        await pilot.pause()
        entry = app.session.log[-1]
        assert entry.title == "Opposed task" and entry.lines[0].startswith("odds: Side A ")
        await pilot.press("g", "g", "n")  # two rollers, the group needs half
        await pilot.pause()
        assert "Group of 2 needs half" in _status_text(app)
        await pilot.press("G")
        await pilot.pause()
        assert app.session.log[-1].title == "Group task"
        assert app.session.log[-1].lines[0].startswith("needs half of 2")


async def test_r_task_1_a_new_roller_does_not_inherit_the_last_ones_skill_and_talent() -> None:
    """Switching Who resets Skill and Talent: they were the last roller's (a walkthrough
    found a Pirate raider rolling with Kestrel's Skill 2 and Talent)."""
    app = _party_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        screen.query_one("#skill", Stepper).value = ("skill", 2)
        screen.query_one("#talent", Stepper).value = "relevant"
        await _focus(pilot, "who")
        await pilot.press("right")  # Kestrel Vance
        await pilot.pause()
        assert screen.query_one("#skill", Stepper).value is None
        assert screen.query_one("#talent", Stepper).value == ""
        assert "Talent" not in str(_odds_text(app)).split("\n")[0]


def _frame_text(app: HsmApp) -> str:
    """The composed frame as text: what a GM actually sees (clipped lines are missing).
    Textual has no public call for it; ``render_update`` is what ``export_screenshot`` uses.
    """
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return "\n".join("".join(strip.text for strip in line) for line in update.strips)


async def test_r_char_5_a_talent_gives_one_free_reroll() -> None:
    """R-CHAR-5: a relevant Talent adds +1 to the TN **and** gives one re-roll (R-TASK-6):
    the odds count it, the roll offers it, and it is free (spent before Luck and Clues)."""
    from hsm_tui.rules import task_odds

    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _focus(pilot, "talent")
        await pilot.press("right")  # Talent: yes
        await pilot.pause()
        text = _odds_text(app)
        assert "TN 5" in text  # Agility 2 + Senses 2 + Talent 1
        assert "1 re-roll " in text  # R-TASK-7: the odds include the Talent's re-roll
        assert str(task_odds(5, Rank.HERO, 1).success) in text
        assert "free re-rolls: Talent 1" in text
        await pilot.press("r")
        await pilot.pause()
        pending = app.session.pending
        assert pending is not None and pending.available == 1 and pending.free == 1
        assert "with 1 re-roll(s)" in app.session.log[-1].lines[2]
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, RerollDialog)
        assert app.screen.pending.available == 1
        assert "Free 1, then Luck 0" in str(app.screen.query_one("#reroll-pools").render())
        await pilot.press("escape")
        await pilot.pause()
        await _focus(pilot, "rerolls")
        await pilot.press("2", "r")  # an Advantage and Aim as well: 3 free in all
        await pilot.pause()
        assert app.session.pending is not None and app.session.pending.free == 3
        assert "free re-rolls: Talent 1 + Re-rolls 2" in _odds_text(app)


async def test_r_char_5_talent_reroll_adds_to_a_heroes_luck_and_clues() -> None:
    app = _party_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _focus(pilot, "who")
        await pilot.press("right")  # Kestrel Vance: Luck 2, Clues 1
        await pilot.pause()
        await _focus(pilot, "talent")
        await pilot.press("right")
        await pilot.pause()
        assert "4 re-rolls" in _odds_text(app)  # Talent 1 + Luck 2 + Clues 1
        await pilot.press("r")
        await pilot.pause()
        pending = app.session.pending
        assert pending is not None and (pending.available, pending.free) == (4, 1)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_held_group_opposed_and_waiting_rerolls_stay_on_screen(size) -> None:
    """At 80×24 (DESIGN: the SSH case) and larger, a held group of four, a held opposed
    side and re-rolls waiting are all shown at once, next to the task's odds."""
    app = _party_app()
    async with app.run_test(size=size) as pilot:
        await _focus(pilot, "who")
        await pilot.press("right")  # Kestrel Vance: her skills take two lines
        await pilot.pause()
        await pilot.press("o", "g", "g", "g", "g", "r")
        await pilot.pause()
        frame = _frame_text(app)
        for seen in ("Opposed", "o rolls", "Group", "G rolls", "Re-rolls waiting", "TN 6"):
            assert seen in frame, seen
        assert "skills: Rifles 2" in frame and "exact success" in frame


async def test_focus_starts_on_who() -> None:
    """Who is the first field a GM picks: it fills rank, scores and wounds (R-CHAR-9)."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.focused is app.screen.query_one("#who", Stepper)


async def _hold_a_group(pilot) -> None:
    """The fullest F2: a Hero with her skill and Talent picked by name, her Advantages
    under the odds, a held side A, a held group of three and her roll waiting for re-rolls."""
    await pilot.press("right")  # focus starts on Who: Kestrel Vance
    await pilot.pause()
    pilot.app.screen.query_one("#skill", Stepper).value = ("Rifles", 2)
    pilot.app.screen.query_one("#talent", Stepper).value = "Firefights"
    await pilot.press("o", "g", "g", "g", "r")
    await pilot.pause()
    pilot.app.clear_notifications()  # the "Side A held" toast would cover the log
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_task_roller_group_held(snap_compare, size) -> None:
    assert snap_compare(_party_app(), terminal_size=size, run_before=_hold_a_group)


def _labels(app: HsmApp, field: str) -> list[str]:
    return [label for label, _ in app.screen.query_one(f"#{field}", Stepper).choices]


async def test_r_char_5_talent_offers_the_heroes_own_talents_by_name() -> None:
    """R-CHAR-5: Who's Talents are the choices; the TN names the one picked, and it still
    adds +1 and one free re-roll (R-TASK-6)."""
    app = _party_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert _labels(app, "talent") == ["no", "yes"]  # anyone: no sheet to name one from
        await _focus(pilot, "who")
        await pilot.press("right")  # Kestrel Vance
        await pilot.pause()
        assert _labels(app, "talent") == ["none", "Firefights", "Squad tactics"]
        await _focus(pilot, "talent")
        await pilot.press("right")
        await pilot.pause()
        text = _odds_text(app)
        assert "TN 7" in text and "Talent (Firefights) 1" in text  # Agility 3 + Senses 3 + 1
        assert "free re-rolls: Talent 1" in text
        await pilot.press("r")
        await pilot.pause()
        tn_line = app.session.log[-1].lines[0]
        assert tn_line.startswith("TN Agility 3 + Senses 3 + Talent (Firefights) 1 = 7")
        pending = app.session.pending
        assert pending is not None and pending.free == 1


async def test_r_char_5_a_long_talent_name_is_cut_in_the_field_but_whole_in_the_tn() -> None:
    from hsm_tui.campaign.party import AddHero

    session = Session(seed=SEED)
    session.load_content()
    session.apply(AddHero("oyelaran-sefu"))
    app = _TasksFirst(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right")  # focus starts on Who: Dr. Oyelaran Sefu
        await pilot.pause()
        assert _labels(app, "talent")[1:] == ["Ancient scrip…", "Ruin lore", "Careful excav…"]
        app.screen.query_one("#talent", Stepper).value = "Ancient scripts"
        await pilot.pause()
        assert "Talent (Ancient scripts) 1" in _odds_text(app).replace("\n", " ")
        assert "Ancient scrip… ▸" in _frame_text(app)  # the field's ▸ is still on screen
        assert "Alien-Civil… 2" in _labels(app, "skill")  # the number stays whole


@pytest.mark.parametrize("by", ["rank", "roller"])
async def test_r_char_5_a_minion_gets_no_talent(by: str) -> None:
    """R-CHAR-5/R-CHAR-8: Talents are a Hero's. With Minion rules the Talent field is shut
    ("— Heroes only", skipped by ↑ ↓): no +1, no free re-roll, even if yes was picked."""
    from hsm_tui.campaign.combat import AddCombatants, AddZone

    session = Session(seed=SEED)
    session.load_content()
    session.apply(AddZone("ridge"))
    session.apply(AddCombatants("minion", "pirate-raider", "pirates", "ridge"))
    app = _TasksFirst(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        talent = screen.query_one("#talent", Stepper)
        talent.value = "relevant"  # anyone, as a Hero: yes
        await pilot.pause()
        assert "Talent" in _odds_text(app)
        if by == "rank":
            screen.query_one("#rank", Stepper).value = Rank.MINION
        else:
            await pilot.press("right")  # focus starts on Who: the pirate raider
        await pilot.pause()
        assert screen.query_one("#rank", Stepper).value is Rank.MINION
        assert talent.disabled and _labels(app, "talent") == ["— Heroes only"]
        assert talent.value == "" and screen.free_rerolls == 0
        assert "Talent" not in _odds_text(app)
        await _focus(pilot, "skill")
        await pilot.press("down")
        assert app.focused is screen.query_one("#difficulty", Stepper)  # Talent skipped
        await pilot.press("r")
        await pilot.pause()
        assert "Talent" not in app.session.log[-1].lines[0]
        assert app.session.pending is None  # no free re-roll to spend
        if by == "roller":  # the raider's rank is its own (R-CHAR-1): it stays shut
            assert screen.query_one("#rank", Stepper).disabled
            return
        screen.query_one("#rank", Stepper).value = Rank.HERO  # Hero rules: the field opens
        await pilot.pause()
        assert not talent.disabled and _labels(app, "talent") == ["no", "yes"]


async def test_r_char_6_skill_offers_the_rollers_skills_and_a_bare_number() -> None:
    """R-CHAR-6: Who's skills by name and number, the TN names the one picked; a digit
    still picks a bare number for a skill the sheet does not list."""
    app = _party_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert _labels(app, "skill") == ["0", "1", "2", "3", "4", "5", "6"]  # anyone
        await _focus(pilot, "who")
        await pilot.press("right")  # Kestrel Vance
        await pilot.pause()
        labels = _labels(app, "skill")
        assert labels[:3] == ["none", "Rifles 2", "Pistols 1"]
        assert labels[-6:] == [f"{n} (unlisted)" for n in range(1, 7)]
        await _focus(pilot, "skill")
        await pilot.press("right")  # Rifles 2
        await pilot.pause()
        assert "TN 8" in _odds_text(app) and "Rifles 2" in _odds_text(app).split("\n\n")[0]
        await pilot.press("3")  # an unlisted skill at 3
        await pilot.pause()
        assert app.screen.query_one("#skill", Stepper).value == ("skill", 3)
        assert "TN 9" in _odds_text(app) and "skill 3" in _odds_text(app)


async def test_r_char_5_6_a_new_roller_brings_its_own_skills_and_talents() -> None:
    """Changing Who swaps the Skill and Talent choices for the new roller's, picked none."""
    from hsm_tui.campaign.party import AddHero

    app = _party_app()
    app.session.apply(AddHero("roan-maddox"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.press("right")  # focus starts on Who: Kestrel Vance
        await pilot.pause()
        screen.query_one("#skill", Stepper).value = ("Rifles", 2)
        screen.query_one("#talent", Stepper).value = "Firefights"
        await pilot.pause()
        await pilot.press("right")  # Captain Roan Maddox
        await pilot.pause()
        assert screen.roller is not None and screen.roller.name == "Captain Roan Maddox"
        assert screen.query_one("#skill", Stepper).value is None
        assert _labels(app, "skill")[1] == "Pistols 2"
        assert screen.query_one("#talent", Stepper).value == ""
        assert _labels(app, "talent") == [
            "none",
            "Boarding acti…",
            "Bluffing",
            "Starship pilo…",
            "Nose for trea…",
        ]
        assert "Rifles" not in _odds_text(app).split("\n\n")[0]
        await pilot.press("left", "left")  # back to anyone: numbers and no/yes again
        await pilot.pause()
        assert _labels(app, "talent") == ["no", "yes"] and _labels(app, "skill")[0] == "0"


async def test_r_char_6_r_task_6_advantages_shown_and_scrolled_into_view() -> None:
    """R-CHAR-6/R-TASK-6: the roller's Advantages (what may grant a re-roll) are under the
    odds. At 80×24 the TN and odds stay in sight; PgDn scrolls the rest into view."""
    app = _party_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right")  # focus starts on Who: Kestrel Vance
        await pilot.pause()
        text = _odds_text(app).replace("\n", " ")
        assert "advantages: Combat veteran: one re-roll on Morale rolls while under fire" in text
        assert "Quick-release magazine: the first of the two reload actions is free" in text
        frame = _frame_text(app)
        assert "TN 6" in frame and "exact success" in frame
        assert "is free" not in frame  # the last Advantage runs below the panel
        await pilot.press("pagedown")
        await pilot.pause()
        assert "is free" in _frame_text(app)
        await pilot.press("pageup")
        await pilot.pause()
        assert "TN 6" in _frame_text(app)
        assert app.focused is app.screen.query_one("#who", Stepper)  # focus stays put


async def test_a_refused_opposed_or_group_roll_keeps_what_the_gm_set_up() -> None:
    """Issue 19 #2: with re-rolls waiting, the second `o` was refused and side A silently
    dropped. The refusal now says why and side A (and a group's rollers) stay held.
    """
    from hsm_tui.rules import task_tn
    from hsm_tui.table.session import RollTask, SpendRerolls

    app = _app()
    session = app.session
    session.apply(RollTask(task_tn([("Agility", 3), ("Senses", 2)]), Rank.HERO, rerolls=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o", "o")  # hold side A, then roll: refused, a question waits
        await pilot.pause()
        assert any("answer the pending question first" in n.message for n in app._notifications)
        assert "Opposed" in _status_text(app)  # side A still held
        await pilot.press("g", "G")
        await pilot.pause()
        assert "Group of 1" in _status_text(app)  # the roller stays too
        session.apply(SpendRerolls(0, 0))
        await pilot.press("o")
        await pilot.pause()
        assert session.log[-1].title == "Opposed task"


async def test_h_rolls_in_secret_for_the_gm_alone() -> None:
    """Issue 21: F2 h marks the next rolls hidden; the entry is GM-only and says so."""
    from hsm_tui.table.visibility import GM_ONLY
    from hsm_tui.ui.app import HsmApp

    app = HsmApp(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        assert "Hidden roll" in str(app.screen.query_one("#task-status").render())
        await pilot.press("r")
        await pilot.pause()
    assert app.session.log[-1].visibility == GM_ONLY


async def test_r_task_1_p_asks_the_heros_player_and_h_keeps_the_difficulty() -> None:
    """F2 p: the task set here is asked of the roller's player; with h its TN is hidden;
    the status names whom the GM waits for; P asks every Hero (a group roll)."""
    app = _party_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        assert app.session.asked == ()  # nobody picked: nobody to ask
        await _focus(pilot, "who")
        await pilot.press("right", "h", "p")  # Kestrel Vance, hidden, asked
        await pilot.pause()
        (ask,) = app.session.asked
        assert ask.task.who == "party:kestrel-vance" and ask.task.tn_hidden
        assert "Asked: Kestrel Vance rolls Agility + Senses" in _status_text(app)
        await pilot.press("u", "P")  # taken back; then everyone rolls the same traits
        await pilot.pause()
        assert [a.task.who for a in app.session.asked] == ["party:kestrel-vance"]
        assert app.session.log[-1].title == "The GM asks for a roll: Agility + Senses"
