"""The GM's seat list (ctrl+t) at 80×24, driven with keys only: an invite shows its link
and code, a table not served to browsers names the flag, a revoke says how many browser
sessions ended, and a seat no key opens is marked "invite only"."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from hsm_tui.share.invites import InviteRefused
from hsm_tui.share.players import SeatEntry
from hsm_tui.share.serve import Table
from hsm_tui.table.seats import Role, Seat
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.seats_dialog import InviteDialog, SeatsDialog

from .game_table import game_table

ORIGIN = "http://127.0.0.1:8080"


@pytest.fixture
def table(user_keys, host_key) -> Table:
    return game_table(user_keys, host_key, Session(seed=1))


def screen_text(app: HsmApp) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def notices(app: HsmApp) -> str:
    return " | ".join(n.message for n in app._notifications)


async def seat_list(app: HsmApp, pilot: Pilot) -> None:
    await pilot.press("ctrl+t")
    await pilot.pause()
    assert isinstance(app.screen, SeatsDialog)


async def ask(pilot: Pilot, key: str, user: str) -> None:
    """From the seat list: ``key`` (i or r), the seat's user name typed, Enter."""
    await pilot.press(key)
    await pilot.pause()
    await pilot.press(*user, "enter")
    await pilot.pause()


def gm_app(table: Table) -> HsmApp:
    app = HsmApp(table.session)
    app.sharing = table
    return app


async def test_i_shows_an_invites_whole_link_and_code_at_80x24_and_c_copies_the_link(
    table: Table,
) -> None:
    table.web_url = ORIGIN
    app = gm_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await seat_list(app, pilot)
        await ask(pilot, "i", "kara")
        assert isinstance(app.screen, InviteDialog)
        lines = screen_text(app).splitlines()
        assert any("Invite for kara: works once, until" in line for line in lines)
        link = next(line for line in lines if f"{ORIGIN}/#invite=" in line)
        token = link.split("#invite=", 1)[1].split()[0]
        code = next(line for line in lines if "Code" in line).split("Code", 1)[1].split()[0]
        assert table.invites.trade(code)[0] == "kara"
        with pytest.raises(InviteRefused, match="already used"):
            table.invites.trade(token)  # the whole token, of the same invite as the code
        await pilot.press("c")
        assert app.clipboard == f"{ORIGIN}/#invite={token}"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SeatsDialog)


@pytest.mark.parametrize(
    ("web_url", "user", "said"),
    [
        (None, "kara", "this table is not served to browsers: start it with hsm serve --web"),
        (ORIGIN, "kra", "'kra' has no seat in the players file; its seats: gm, kara, otto, wes"),
    ],
    ids=["no-web-names-the-flag", "no-seat-names-the-seats"],
)
async def test_i_refused_says_why_and_makes_no_invite(
    table: Table, web_url: str | None, user: str, said: str
) -> None:
    table.web_url = web_url
    app = gm_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await seat_list(app, pilot)
        await ask(pilot, "i", user)
        assert isinstance(app.screen, SeatsDialog)
        assert said in notices(app)
        assert not table.invites._latest


async def test_r_revokes_a_seats_browser_sessions_and_says_how_many(table: Table) -> None:
    table.web_url = ORIGIN
    cookies = [table.invites.trade(table.invite("kara").token)[1] for _ in range(2)]
    pending = table.invite("kara")
    app = gm_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await seat_list(app, pilot)
        await ask(pilot, "r", "kara")
        assert "kara: 2 browser sessions ended" in notices(app)
        await ask(pilot, "r", "otto")
        assert "otto: 0 browser sessions ended" in notices(app)
    assert [table.invites.user_of(c) for c in cookies] == [None, None]
    with pytest.raises(InviteRefused, match="revoked"):
        table.invites.trade(pending.code)


async def test_esc_on_the_seat_prompt_makes_no_invite(table: Table) -> None:
    table.web_url = ORIGIN
    app = gm_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await seat_list(app, pilot)
        await pilot.press("i", "k", "escape")
        await pilot.pause()
        assert isinstance(app.screen, SeatsDialog)
        assert not table.invites._latest


async def test_a_seat_no_key_opens_is_marked_invite_only(table: Table) -> None:
    table.server.set_seats([*table.seats, SeatEntry(Seat(Role.PLAYER, "pip", "roan-maddox"), ())])
    app = gm_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await seat_list(app, pilot)
        lines = screen_text(app).splitlines()
        assert any("pip" in line and "invite only" in line for line in lines)
        assert not any("kara" in line and "invite only" in line for line in lines)
