"""Invites to the shared table from a browser (the invites contract): a token or a code
traded once for a session cookie, within INVITE_TTL; a session lasts SESSION_TTL; only
digests are kept; one address may ask to join only so often.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import re
import time
from collections.abc import Callable

import pytest

from hsm_tui.share.invites import (
    CODE_ALPHABET,
    INVITE_TTL,
    SESSION_TTL,
    InviteRefused,
    Invites,
    JoinLimiter,
)
from hsm_tui.share.players import PlayersFileError
from hsm_tui.share.serve import Table as Game
from hsm_tui.table.session import Session

from .game_table import game_table

START = 1_800_000_000.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def counting_bytes() -> Callable[[int], bytes]:
    """Random bytes stood in for by a counter: each draw differs from the others."""
    counter = itertools.count(1)
    return lambda n: hashlib.sha256(str(next(counter)).encode()).digest()[:n].ljust(n, b"\x01")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def invites(clock: Clock) -> Invites:
    return Invites(clock=clock, randbytes=counting_bytes())


def test_an_invite_has_a_128_bit_url_safe_token_and_a_readable_code() -> None:
    invite = Invites().make("kara")
    assert invite.user == "kara"
    assert re.fullmatch(r"[A-Za-z0-9_-]+", invite.token)
    assert len(base64.urlsafe_b64decode(invite.token + "==")) >= 16
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", invite.code)
    assert not set(invite.code) & set("01OIL")


def test_the_code_alphabet_has_no_look_alikes() -> None:
    assert not set(CODE_ALPHABET) & set("01OIL")
    assert len(set(CODE_ALPHABET)) == len(CODE_ALPHABET) == 31


def test_an_invite_lasts_invite_ttl(invites: Invites) -> None:
    assert invites.make("kara").expires_at == START + INVITE_TTL == START + 15 * 60


def test_the_token_trades_for_the_user_and_a_session_cookie(invites: Invites) -> None:
    invite = invites.make("kara")
    user, cookie = invites.trade(invite.token)
    assert user == "kara"
    assert len(base64.urlsafe_b64decode(cookie + "=" * (-len(cookie) % 4))) == 32
    assert invites.user_of(cookie) == "kara"


@pytest.mark.parametrize("typed", ["{code}", "{lower}", "{bare}", " {spaced} ", "{lower_bare}"])
def test_the_code_is_typed_case_insensitive_dash_and_spaces_optional(
    invites: Invites, typed: str
) -> None:
    code = invites.make("kara").code
    bare = code.replace("-", "")
    secret = typed.format(
        code=code,
        lower=code.lower(),
        bare=bare,
        spaced=f"{bare[:4]} {bare[4:]}",
        lower_bare=bare.lower(),
    )
    assert invites.trade(secret)[0] == "kara"


def test_an_invite_is_single_use_token_and_code_together(invites: Invites) -> None:
    invite = invites.make("kara")
    invites.trade(invite.token)
    for secret in (invite.token, invite.code):
        with pytest.raises(InviteRefused) as err:
            invites.trade(secret)
        assert str(err.value) == "this invite was already used: ask the GM for a new one"


def test_using_the_code_uses_up_the_token(invites: Invites) -> None:
    invite = invites.make("kara")
    invites.trade(invite.code)
    with pytest.raises(InviteRefused, match="already used"):
        invites.trade(invite.token)


def test_an_invite_expires_after_invite_ttl_and_says_when(invites: Invites, clock: Clock) -> None:
    invite = invites.make("kara")
    clock.now += INVITE_TTL
    at = time.strftime("%H:%M", time.localtime(invite.expires_at))
    for secret in (invite.token, invite.code):
        with pytest.raises(InviteRefused) as err:
            invites.trade(secret)
        assert str(err.value) == f"this invite expired at {at}: ask the GM for a new one"


def test_an_invite_works_until_just_before_it_expires(invites: Invites, clock: Clock) -> None:
    invite = invites.make("kara")
    clock.now += INVITE_TTL - 1
    assert invites.trade(invite.code)[0] == "kara"


def test_a_newer_invite_for_a_user_replaces_the_older(invites: Invites) -> None:
    old = invites.make("kara")
    new = invites.make("kara")
    with pytest.raises(InviteRefused, match="replaced by a newer one"):
        invites.trade(old.token)
    assert invites.trade(new.code)[0] == "kara"


def test_invites_of_different_users_stand_side_by_side(invites: Invites) -> None:
    kara, otto = invites.make("kara"), invites.make("otto")
    assert invites.trade(otto.token)[0] == "otto"
    assert invites.trade(kara.token)[0] == "kara"


def test_an_unknown_code_is_refused_specifically(invites: Invites) -> None:
    invites.make("kara")
    with pytest.raises(InviteRefused) as err:
        invites.trade("ABCD-EFGH")
    assert str(err.value) == "no invite has this code: check it or ask the GM"


def test_a_code_with_a_look_alike_says_what_a_code_holds(invites: Invites) -> None:
    with pytest.raises(InviteRefused, match="no 0, 1, I, L or O"):
        invites.trade("ABCD-EF0H")


def test_an_unknown_link_token_is_refused_specifically(invites: Invites) -> None:
    with pytest.raises(InviteRefused, match=r"^this invite link is not known here"):
        invites.trade(Invites().make("kara").token)


def test_a_session_lasts_session_ttl(invites: Invites, clock: Clock) -> None:
    _, cookie = invites.trade(invites.make("kara").token)
    clock.now += SESSION_TTL - 1
    assert invites.user_of(cookie) == "kara"
    clock.now += 1
    assert invites.user_of(cookie) is None
    assert SESSION_TTL == 12 * 3600


def test_no_or_an_unknown_cookie_has_no_user(invites: Invites) -> None:
    invites.trade(invites.make("kara").token)
    assert invites.user_of(None) is None
    assert invites.user_of("") is None
    assert invites.user_of("not-a-cookie") is None


def test_revoke_ends_the_users_sessions_and_pending_invite(invites: Invites) -> None:
    cookies = [invites.trade(invites.make("kara").token)[1] for _ in range(2)]
    _, otto = invites.trade(invites.make("otto").token)
    pending = invites.make("kara")
    assert invites.revoke("kara") == 2
    assert [invites.user_of(c) for c in cookies] == [None, None]
    assert invites.user_of(otto) == "otto"
    with pytest.raises(InviteRefused, match="the GM revoked this invite"):
        invites.trade(pending.code)
    assert invites.revoke("kara") == 0


def test_revoke_tells_the_listeners_until_unsubscribed(invites: Invites) -> None:
    heard: list[str] = []
    unsubscribe = invites.on_revoke(heard.append)
    invites.revoke("kara")
    unsubscribe()
    invites.revoke("otto")
    assert heard == ["kara"]


def test_a_failing_revoke_listener_is_dropped_and_the_others_still_hear(
    invites: Invites,
) -> None:
    heard: list[str] = []

    def broken(user: str) -> None:
        raise RuntimeError("broken")

    invites.on_revoke(broken)
    invites.on_revoke(heard.append)
    _, cookie = invites.trade(invites.make("kara").token)
    assert invites.revoke("kara") == 1
    assert invites.revoke("kara") == 0
    assert heard == ["kara", "kara"]
    assert invites.user_of(cookie) is None


def test_only_digests_of_tokens_codes_and_cookies_are_kept(invites: Invites) -> None:
    invite = invites.make("kara")
    _, cookie = invites.trade(invites.make("otto").token)
    kept = repr(vars(invites))
    for secret in (invite.token, invite.code, invite.code.replace("-", ""), cookie):
        assert secret not in kept
    for secret in (invite.token, cookie):
        assert repr(hashlib.sha256(secret.encode()).digest()) in kept


def test_a_code_already_pending_is_not_given_again(clock: Clock) -> None:
    same = iter([b"\x00" * 16, b"\x00" * 8, b"\x01" * 16, b"\x00" * 8, b"\x02" * 8])
    invites = Invites(clock=clock, randbytes=lambda n: next(same))
    first, second = invites.make("kara"), invites.make("otto")
    assert first.code == "AAAA-AAAA" and second.code == "CCCC-CCCC"


def test_code_bytes_past_the_alphabets_last_multiple_are_drawn_again(clock: Clock) -> None:
    draws = iter([b"\x00" * 16, bytes([255, 248, 1, 2, 3, 4, 5, 6]), bytes([7, 8, 9])])
    invites = Invites(clock=clock, randbytes=lambda n: next(draws)[:n])
    assert invites.make("kara").code == "BCDE-FGHJ"


def test_old_invites_and_sessions_are_forgotten(invites: Invites, clock: Clock) -> None:
    invite = invites.make("kara")
    _, cookie = invites.trade(invites.make("otto").token)
    clock.now += INVITE_TTL + SESSION_TTL
    invites.make("wes")
    assert invites.user_of(cookie) is None
    with pytest.raises(InviteRefused, match="no invite has this code"):
        invites.trade(invite.code)
    assert not invites._sessions
    assert set(invites._latest) == {"wes"} and len(invites._invites) == 2


def test_join_limiter_refuses_an_address_past_per_minute_asks() -> None:
    clock = Clock(0.0)
    limiter = JoinLimiter(per_minute=3, clock=clock)
    assert [limiter.allow("10.0.0.1") for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("10.0.0.2")


def test_join_limiter_counts_a_sliding_minute() -> None:
    clock = Clock(0.0)
    limiter = JoinLimiter(per_minute=2, clock=clock)
    assert limiter.allow("a")
    clock.now = 30.0
    assert limiter.allow("a")
    assert not limiter.allow("a")
    clock.now = 60.0
    assert limiter.allow("a"), "the ask at 0 s has left the minute"
    assert not limiter.allow("a")
    clock.now = 90.0
    assert limiter.allow("a")


def test_join_limiter_defaults_to_ten_a_minute() -> None:
    limiter = JoinLimiter(clock=Clock(0.0))
    assert sum(limiter.allow("a") for _ in range(15)) == 10


def test_join_limiter_counts_an_ipv6_hosts_whole_64_as_one_source() -> None:
    """One host is given a /64: cycling through its addresses asks no faster."""
    limiter = JoinLimiter(per_minute=2, clock=Clock(0.0))
    asks = [limiter.allow(f"2001:db8:1:2::{n:x}") for n in range(1, 4)]
    assert asks == [True, True, False]
    assert limiter.allow("2001:db8:1:3::1"), "another /64 is another source"
    assert limiter.allow("::ffff:10.0.0.9") and limiter.allow("10.0.0.9")
    assert not limiter.allow("10.0.0.9"), "an IPv4-mapped address is its IPv4 address"


def test_join_limiter_forgets_quiet_sources_once_a_minute_not_at_every_ask() -> None:
    """Twenty thousand addresses asking once each leave nothing after a quiet minute,
    and the sources kept are swept once a window, not on every ask (which made each ask
    cost the whole table's loop in proportion to the addresses seen)."""
    clock = Clock(0.0)
    limiter = JoinLimiter(per_minute=2, clock=clock)
    for n in range(20_000):
        assert limiter.allow(f"10.{n >> 16}.{(n >> 8) & 255}.{n & 255}")
    assert len(limiter._asks) == 20_000
    clock.now = 30.0
    limiter.allow("10.200.0.1")
    assert len(limiter._asks) == 20_001, "no sweep within the window"
    clock.now = 61.0
    limiter.allow("10.200.0.2")
    assert set(limiter._asks) == {"10.200.0.1", "10.200.0.2"}


# -- the game's side: the GM's seat list makes and revokes invites through the Table --
@pytest.fixture
def table(user_keys, host_key) -> Game:
    return game_table(user_keys, host_key, Session())


def test_the_table_invites_only_when_served_to_browsers(table: Game) -> None:
    with pytest.raises(InviteRefused) as err:
        table.invite("kara")
    assert str(err.value) == "this table is not served to browsers: start it with hsm serve --web"


def test_the_tables_invite_opens_that_seat_by_its_link(table: Game) -> None:
    table.web_url = "http://127.0.0.1:8080"
    invite = table.invite("kara")
    url = table.link(invite)
    assert url == f"http://127.0.0.1:8080/#invite={invite.token}"
    assert table.invites.trade(url.split("#invite=", 1)[1])[0] == "kara"


def test_the_table_refuses_an_invite_for_a_user_with_no_seat(table: Game) -> None:
    table.web_url = "http://127.0.0.1:8080"
    with pytest.raises(PlayersFileError) as err:
        table.invite("kra")
    assert str(err.value) == "'kra' has no seat in the players file; its seats: gm, kara, otto, wes"
    with pytest.raises(PlayersFileError, match="'kra' has no seat"):
        table.revoke("kra")


def test_the_table_revokes_a_seats_browser_sessions(table: Game) -> None:
    table.web_url = "http://127.0.0.1:8080"
    _, cookie = table.invites.trade(table.invite("kara").code)
    assert table.revoke("kara") == 1
    assert table.invites.user_of(cookie) is None
