"""The players' side of the shared table, through a real SSH client and pyte: what a
group meets on its first evening, each seat's screen read as the player sees it.
"""

from __future__ import annotations

import asyncio

import pytest

from hsm_tui.campaign.freeflow import PendingRerolls, SpendRerolls
from hsm_tui.table.session import Session
from tests.share.conftest import fight, until


@pytest.mark.parametrize("size", [(60, 20), (79, 24), (80, 23), (0, 0)])
async def test_below_80x24_a_player_is_asked_to_enlarge_the_window(game, size) -> None:
    """Item 5 of the first evening: the request is drawn (a 0×0 PTY is taken as 20×10),
    and the table comes back when the window grows."""
    table = await game(fight())
    kara = await table.join("kara", size)
    if 0 in size:  # the server draws 20×10; let the emulator hold what it draws
        kara.screen.resize(10, 20)
    await kara.shows("Please enlarge")
    kara.resize(80, 24)
    await kara.shows("YOUR TURN")


def _history(session: Session) -> list[str]:
    return [type(c).__name__ for c in session.history]


async def _karas_reroll_question(game, session: Session):
    """Kara rolls a task and fails it: her re-roll question opens on her screen."""
    table = await game(session)
    kara = await table.join("kara")
    await kara.shows("YOUR TURN")
    kara.send(b"t")
    await kara.shows("a task (R-TASK-1)")
    kara.send(b"\r\r")  # the roll, and an impatient second Enter in the same burst
    await kara.shows("Re-rolls for")
    return table, kara


async def test_r_task_6_the_enter_that_rolls_never_also_answers_the_reroll_question(game):
    session = fight(seed=0)
    _table, kara = await _karas_reroll_question(game, session)
    await asyncio.sleep(0.5)  # time for the second Enter to reach the dialog: it must not
    assert isinstance(session.pending, PendingRerolls) and "Re-rolls for" in kara.text
    assert _history(session)[-1] == "RollTask"  # the second Enter spent nothing
    kara.send(b"k")  # a key typed once the question is on her screen answers it
    await until(lambda: _history(session)[-1] == "SpendRerolls", lambda: kara.text)
    assert session.history[-1].issuer == "player:kara"


async def test_a_question_answered_for_the_player_closes_their_dialog(game) -> None:
    session = fight(seed=0)
    _table, kara = await _karas_reroll_question(game, session)
    question = session.pending
    session.apply(SpendRerolls(0, 0), answering=question)  # the GM answers for her
    await kara.shows("That question no longer waits")
    await until(lambda: "Re-rolls for" not in kara.text, lambda: kara.text)
    kara.send(b"\r")  # her Enter now opens nothing, and answers nothing
    await kara.shows("no question waits for you")
    assert _history(session)[-2:] == ["RollTask", "SpendRerolls"]
    assert session.history[-1].issuer == "gm"


async def test_a_waiting_question_opens_again_when_the_player_comes_back(game) -> None:
    session = fight(seed=0)
    table, _kara = await _karas_reroll_question(game, session)
    table.conns[-1].abort()  # her network drops with the question open
    await until(lambda: not table.server.connections, lambda: "still connected")
    back = await table.join("kara")
    await back.shows("Re-rolls for")  # asked again without a key
    back.send(b"k")
    await until(lambda: _history(session)[-1] == "SpendRerolls", lambda: back.text)


async def test_r_init_1_a_player_sees_the_initiative_order_without_hidden_groups(game) -> None:
    session = fight(seed=0)
    table = await game(session)
    kara = await table.join("kara")
    await kara.shows("Range bands")  # the party's pane is drawn, the order above the bands
    pane = [line.split("││")[-1] for line in kara.text.splitlines() if "││" in line]
    at = next(i for i, line in enumerate(pane) if "Initiative" in line)
    assert [line.strip(" │") for line in pane[at + 1 : at + 3]] == [
        "▶ Kestrel Vance",  # her turn, marked
        "Pirate raider ×2",
    ]
    await kara.shows("Pirate raider ×2")
    assert "Cultist" not in kara.text and "zealot" not in kara.text
    kara.send(b"l")  # her log: the initiative entry, without the hidden group's line
    await kara.shows("Initiative (R-INIT-1/2)")
    assert "Cultist" not in kara.text


GM_KEYS = [(b"u", "u is the GM's key"), (b"\x1bOQ", "f2 is the GM's")]  # u, F2


@pytest.mark.parametrize(("key", "says"), GM_KEYS)
async def test_a_gm_key_on_a_players_screen_says_why_it_does_nothing(game, key, says) -> None:
    table = await game(fight(seed=0))
    kara = await table.join("kara")
    await kara.shows("YOUR TURN")
    kara.send(key)
    await kara.shows("Not on your screen")
    assert says in " ".join(line.strip(" ▌▐") for line in kara.text.splitlines())


async def test_a_watchers_key_bar_offers_only_what_a_watcher_does(game) -> None:
    session = fight(seed=0)
    table = await game(session)
    wes = await table.join("wes")
    await wes.shows("Log")
    bar = wes.text.splitlines()[-1]
    assert "Help" in bar and "Attack" not in bar and "Move" not in bar
    wes.send(b"a")
    await wes.shows("wes is watching")
    assert type(session.history[-1]).__name__ == "StartCombat"


async def test_a_dialogs_key_bar_is_the_players_last_line_not_mid_screen(game) -> None:
    table = await game(fight(seed=0))
    kara = await table.join("kara")
    await kara.shows("YOUR TURN")
    bar = kara.text.splitlines()[-1]
    assert all(key in bar for key in ("l Log", "Help", "q Leave"))  # kept at 80 columns
    kara.send(b"v")
    await kara.shows("pgdn Page down")
    lines = kara.text.splitlines()
    assert "pgdn Page down" in lines[-1]
    assert sum("Help" in line for line in lines) == 1  # one key bar, the dialog's
