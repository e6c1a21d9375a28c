"""Words at the table: a player's line to everyone or whisper to the GM, the GM's whisper
to one seat; a player's text is untrusted (bounded, one plain line, no marks or escapes)."""

from __future__ import annotations

import pytest

from hsm_tui.campaign.combat import SetCover
from hsm_tui.rules import RulesError
from hsm_tui.rules.errors import NotPermitted
from hsm_tui.table.logbook import to_markdown
from hsm_tui.table.seated import SeatedSession
from hsm_tui.table.seats import Role, Seat
from hsm_tui.table.state import Say
from hsm_tui.table.talk import MAX_IN_A_ROW, MAX_SAID
from tests.campaign.test_combat_engine import K, duel

KARA = Seat(Role.PLAYER, "kara", hero="kestrel-vance")
OTTO = Seat(Role.PLAYER, "otto", hero="roan-maddox")
WES = Seat(Role.WATCHER, "wes")


def table():
    s = duel()
    return s, SeatedSession(s, KARA), SeatedSession(s, OTTO), SeatedSession(s, WES)


def titles(s, seat: Seat) -> list[str]:
    return [e.title for e in s.view(seat).log]


def test_a_player_speaks_to_the_table_and_whispers_to_the_gm() -> None:
    s, kara, _otto, _wes = table()
    kara.apply(Say("Let's take the ridge"))
    kara.apply(Say("I palm the relic", to="gm"))
    said, whispered = "kara to the table: Let's take the ridge", "kara whispers to the GM: I palm"
    for seat in (KARA, OTTO, WES):
        assert said in titles(s, seat)
    assert any(t.startswith(whispered) for t in titles(s, KARA))
    assert any(t.startswith(whispered) for t in (e.title for e in s.log))  # the GM reads it
    assert not any(t.startswith(whispered) for t in titles(s, OTTO) + titles(s, WES))


def test_the_gm_whispers_to_one_seat_only() -> None:
    s, _kara, _otto, _wes = table()
    s.apply(Say("You hear breathing behind the door", to=KARA.issuer))
    heard = "GM whispers to kara: You hear breathing behind the door"
    assert heard in titles(s, KARA)
    assert heard not in titles(s, OTTO) and heard not in titles(s, WES)
    with pytest.raises(RulesError, match="no seat"):
        s.apply(Say("psst", to="player:nobody"))


def test_a_players_words_carry_no_mark_no_escape_and_no_override() -> None:
    s, kara, _otto, _wes = table()
    kara.apply(Say("\x1b[2J\x0ehidden\x1fsecret\x0f \u202eevil\u200b \x07ding\r\nnext"))
    title = s.log[-1].title
    assert title == "kara to the table: [2J hidden secret evil ding next"
    assert all(ch.isprintable() for ch in title)
    markdown = to_markdown(s.view(WES).log, "recap")
    assert "\x1b" not in markdown and "\u202e" not in markdown


def test_words_are_bounded_in_length_and_in_rate() -> None:
    s, kara, otto, wes = table()
    with pytest.raises(RulesError, match="nothing to say"):
        kara.apply(Say(" \t\x00 "))
    with pytest.raises(RulesError, match=f"{MAX_SAID} characters or fewer"):
        kara.apply(Say("a" * (MAX_SAID + 1)))
    for n in range(MAX_IN_A_ROW):
        kara.apply(Say(f"line {n}"))
    with pytest.raises(RulesError, match="let the game move on"):
        kara.apply(Say("one more"))
    otto.apply(Say("my turn to speak"))  # another seat may still talk
    for cover in ("light", "medium", "heavy"):
        s.apply(SetCover(K, cover))  # the game moves on
    kara.apply(Say("now I may"))
    with pytest.raises(NotPermitted, match="watching"):
        wes.apply(Say("hello"))
    with pytest.raises(NotPermitted, match="whisper to the GM only"):
        kara.apply(Say("psst", to=OTTO.issuer))
