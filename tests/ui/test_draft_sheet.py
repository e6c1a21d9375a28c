"""A Hero's draft sheet at 80×24 and 120×40 (R-CHAR-1..7): the GM hands it over with F8
``D`` and reads it live, the player fills it in on the builder's form, every refusal the
engine's; the GM returns it with a note or approves it.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual.widgets import Input, OptionList, Static

from hsm_tui.campaign.drafts import KeepDraft, OpenDraft
from hsm_tui.campaign.making import SetTraitBudget
from hsm_tui.campaign.party import AddHero
from hsm_tui.table.seated import SeatedSession
from hsm_tui.table.seats import Role, Seat
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.player.app import PlayerApp
from hsm_tui.ui.player.draft import DraftSheet
from hsm_tui.ui.screens.campaign import CampaignScreen
from hsm_tui.ui.screens.draft_review import DraftReview

SIZES = [(80, 24), (120, 40)]
KARA = Seat(Role.PLAYER, "kara", hero="kestrel-vance")


def _session(draft: bool = True) -> Session:
    session = Session(seed=3)
    session.load_content()
    session.apply(AddHero("kestrel-vance"))
    if draft:
        session.apply(OpenDraft("kestrel-vance", makes=True))
    return session


def _text(screen: object, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", SIZES)
async def test_r_char_1_f8_d_hands_the_sheet_over_then_reads_it_live(size) -> None:
    session = _session(draft=False)
    kara = SeatedSession(session, KARA)
    app = HsmApp(session)
    async with app.run_test(size=size) as pilot:
        app.push_screen(CampaignScreen())
        await pilot.pause()
        await pilot.press("D")  # not a draft yet: to make or to grow
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        assert session.campaign.drafts[0].makes
        row = app.screen.query_one("#party", OptionList).get_option_at_index(0).prompt
        assert "draft with its player" in str(row)
        await pilot.press("D")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, DraftReview)
        assert "with its player · to make" in _text(review, "#draft-text")
        typed = session.campaign.drafts[0].sheet
        kara.sketch(replace(typed, career="Smuggler"))
        await pilot.pause()
        shown = _text(review, "#draft-text")
        assert "being typed now" in shown and "Career: Mercenary → Smuggler" in shown
        await pilot.press("a")  # nothing kept yet: the draft approves as it was kept
        await pilot.pause()
        assert session.log[-1].title == "Kestrel Vance's draft approved: nothing changed"
        assert not isinstance(app.screen, DraftReview)  # the draft ended: back home


async def test_the_gm_returns_a_sent_draft_with_a_note() -> None:
    session = _session()
    kara = SeatedSession(session, KARA)
    kara.apply(KeepDraft(session.campaign.drafts[0].sheet, send=True))
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(DraftReview("kestrel-vance"))
        await pilot.pause()
        assert "sent for approval" in _text(app.screen, "#draft-text")
        await pilot.press("r")
        await pilot.pause()
        await pilot.press(*"a Motivation of your own", "enter")
        await pilot.pause()
        assert session.campaign.drafts[0].note == "a Motivation of your own"
        assert "returned: a Motivation of your own" in _text(app.screen, "#draft-text")
        await pilot.press("c")  # withdrawn: the Hero stays, the screen closes
        await pilot.pause()
        assert session.campaign.drafts == () and not isinstance(app.screen, DraftReview)


@pytest.mark.parametrize("size", SIZES)
async def test_a_players_refusals_are_the_engines_and_esc_keeps_what_was_typed(size) -> None:
    session = _session()
    session.apply(SetTraitBudget(14))
    app = PlayerApp(SeatedSession(session, KARA))
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.press("b")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DraftSheet)
        assert "Trait points 16 of 14: -2 left" in _text(screen, "#character-sheet")
        await pilot.press("enter")  # over the budget: not sent, the engine says why
        await pilot.pause()
        assert not session.campaign.drafts[0].sent and isinstance(app.screen, DraftSheet)
        said = " ".join(n.message for n in app._notifications)
        assert "16 trait points: the budget is 14" in said
        weapons = screen.query_one("#character-weapons", Input)
        weapons.focus()
        weapons.value = "laser-pistl"
        await pilot.pause()
        assert weapons.has_class("-invalid")
        assert "did you mean 'laser-pistol'" in _text(screen, "#character-sheet")
        await pilot.press("escape")  # kept with its problems: a draft is work in progress
        await pilot.pause()
        assert session.campaign.drafts[0].sheet.weapons == ("laser-pistl",)
        assert not isinstance(app.screen, DraftSheet)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_players_draft_sheet(snap_compare, size) -> None:
    session = _session()

    async def open_it(pilot) -> None:
        await pilot.press("b")
        await pilot.pause()
        pilot.app.screen.query_one("#character-strength").focus()  # no cursor to blink
        await pilot.pause()

    app = PlayerApp(SeatedSession(session, KARA))
    assert snap_compare(app, terminal_size=size, run_before=open_it)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_gms_draft_review(snap_compare, size) -> None:
    session = _session()
    kara = SeatedSession(session, KARA)
    sheet = session.campaign.drafts[0].sheet
    kara.apply(KeepDraft(replace(sheet, traits=(4, 3, 1, 2, 3, 2, 2), career="Smuggler")))
    kara.sketch(replace(sheet, traits=(4, 3, 1, 2, 3, 2, 2), career="Smuggler", talents=()))

    async def open_it(pilot) -> None:
        pilot.app.push_screen(DraftReview("kestrel-vance"))
        await pilot.pause()

    assert snap_compare(HsmApp(session), terminal_size=size, run_before=open_it)
