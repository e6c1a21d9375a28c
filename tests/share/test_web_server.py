"""The browser side of ``hsm serve --web`` (issue 37): a real web server on 127.0.0.1
beside the SSH one, on one seating and one real game, and browsers (an aiohttp client
reading its frames into pyte) that join with an invite, as the page does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

import aiohttp
import pytest

from hsm_tui.share.invites import INVITE_TTL
from hsm_tui.share.web.address import tls_context
from hsm_tui.share.web.browser import LEFT, MAX_MESSAGE, REFUSED
from hsm_tui.share.web.server import HEADERS, REVOKED

from .conftest import HIDDEN_NAME, SECRET_NOTE, fight, until
from .web_client import Clock, self_signed


async def test_an_invite_link_seats_the_player_and_never_shows_the_gms_secrets(web) -> None:
    run = await web(fight())
    kara = run.browser()
    status, seat = await kara.join(run.invites.make("kara").token)
    assert (status, seat) == (200, {"user": "kara", "role": "player", "hero": "kestrel-vance"})
    await kara.open(120, 40)
    await kara.shows("YOUR TURN")
    assert "Pirate raider" in kara.text and "Kestrel" in kara.text
    [seated] = run.table.server.connections  # the GM's seat list shows a browser seat
    assert seated.seat.user == "kara" and seated.peer.startswith("web 127.0.0.1:")
    assert seated.size == (120, 40)
    sent = b"".join(kara.frames).decode(errors="replace")
    assert HIDDEN_NAME not in sent and SECRET_NOTE not in sent  # not even off-screen


async def test_the_join_cookie_is_http_only_strict_and_whoami_reads_it(web) -> None:
    run = await web(fight())
    kara = run.browser()
    assert (await kara.get("/whoami")).status == 401
    async with kara.http.post(
        f"{kara.url}/join", json={"secret": run.invites.make("kara").token}
    ) as response:
        cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"hsm_session_{run.server.port}=")
    for part in ("HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=43200"):
        assert part in cookie
    assert "Secure" not in cookie  # plain HTTP: a Secure cookie would never come back
    async with kara.http.get(f"{kara.url}/whoami") as response:
        assert (response.status, await response.json())[1]["user"] == "kara"


async def test_over_tls_the_origin_is_https_and_the_cookie_secure(web, tmp_path) -> None:
    run = await web(fight(), tls=tls_context(*map(str, self_signed(tmp_path))))
    assert run.server.origin == f"https://127.0.0.1:{run.server.port}"
    kara = run.browser()
    async with kara.http.post(
        f"{kara.url}/join", json={"secret": run.invites.make("kara").token}
    ) as response:
        assert "; Secure" in response.headers["Set-Cookie"]
    await kara.open()
    await kara.shows("Kestrel")


async def test_an_invite_is_single_use_expires_and_its_code_works_typed(web) -> None:
    clock = Clock()
    run = await web(fight(), clock=clock)
    invite = run.invites.make("kara")
    assert (await run.browser().join(invite.token))[0] == 200
    status, answer = await run.browser().join(invite.token)
    assert status == 403 and "already used" in answer["error"]
    late = run.invites.make("kara")
    clock.now += INVITE_TTL + 1
    status, answer = await run.browser().join(late.token)
    assert status == 403 and "expired" in answer["error"]
    typed = run.invites.make("kara").code.lower().replace("-", "")
    otto = run.browser()
    assert (await otto.join(typed))[0] == 200
    await otto.open()
    await otto.shows("Kestrel")


@pytest.mark.parametrize("body", [b"not json", b"[1]", b'{"secret": 5}', b"{" + b" " * 5000])
async def test_a_malformed_join_is_400_with_why(web, body: bytes) -> None:
    browser = (await web(fight())).browser()
    async with browser.http.post(f"{browser.url}/join", data=body) as response:
        assert response.status == 400
        assert "secret" in (await response.json())["error"]


async def test_joins_from_one_address_are_limited_per_minute_but_a_valid_link_joins(web) -> None:
    """Every refused join counts toward its address's minute, and past it a code is not
    even tried (a guess that hit is refused too); a valid link's token still joins:
    it cannot be guessed, and players behind one tunnel share one address."""
    run = await web(fight(), per_minute=3)
    browser = run.browser()
    assert [(await browser.join("WXYZ-WXYZ"))[0] for _ in range(4)] == [403, 403, 403, 429]
    assert (await browser.join(run.invites.make("kara").code))[0] == 429
    assert (await browser.join("x" * 22))[0] == 429, "a junk link counts too"
    assert (await browser.join(run.invites.make("kara").token))[0] == 200


async def test_deeply_nested_json_is_a_400_not_a_server_error(web) -> None:
    browser = (await web(fight())).browser()
    async with browser.http.post(f"{browser.url}/join", data=b"[" * 3000) as response:
        assert response.status == 400


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.2"])
async def test_a_request_for_another_host_is_refused_as_dns_rebinding_would_send(
    web, host: str
) -> None:
    """A page of another site whose name now points at this address sends its own name."""
    run = await web(fight())
    browser = run.browser()
    response = await browser.get("/", headers={"Host": host})
    assert response.status == 421
    for own in (f"127.0.0.1:{run.server.port}", f"localhost:{run.server.port}"):
        assert (await browser.get("/", headers={"Host": own})).status == 200


async def test_behind_an_https_tunnel_the_cookie_is_secure_and_named_by_its_port(web) -> None:
    run = await web(fight(), public_url="https://table.example.org")
    kara = run.browser()
    async with kara.http.post(
        f"{kara.url}/join", json={"secret": run.invites.make("kara").token}
    ) as response:
        cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("hsm_session_443=") and "; Secure" in cookie


async def test_the_socket_is_refused_before_the_upgrade_without_cookie_or_from_elsewhere(
    web,
) -> None:
    run = await web(fight())
    stranger = run.browser()
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await stranger.open()
    assert refused.value.status == 403
    kara = run.browser()
    await kara.join(run.invites.make("kara").token)
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await kara.open(origin="http://evil.example")
    assert refused.value.status == 403
    await kara.open(origin=f"http://localhost:{run.server.port}")  # the same host
    await kara.shows("Kestrel")


async def test_behind_a_tunnel_only_pages_from_the_public_url_are_let_in(web) -> None:
    run = await web(fight(), public_url="http://Table.example.org:80/")
    assert run.server.origin == "http://table.example.org"
    kara = run.browser()  # the tunnel's far end: plain HTTP here, so the cookie comes back
    await kara.join(run.invites.make("kara").token)
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await kara.open(origin=f"http://127.0.0.1:{run.server.port}")  # as bound: not it
    assert refused.value.status == 403
    await kara.open(origin="http://table.example.org:80")
    await kara.shows("Kestrel")


async def test_revoking_closes_the_players_open_pages_with_4403_and_a_bye(web) -> None:
    run = await web(fight())
    kara = await run.joined("kara")
    await kara.shows("Kestrel")
    assert run.invites.revoke("kara") == 1
    assert await kara.ended() == REFUSED
    assert kara.bye == REVOKED
    await until(lambda: not run.table.server.connections, lambda: "kara still seated")
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await kara.open()  # the cookie opens nothing any more


async def test_max_seats_counts_ssh_and_browser_seats_together(web) -> None:
    run = await web(fight(), max_seats=1)
    ssh = await run.table.join("kara", (100, 30))
    await ssh.shows("Kestrel")
    kara = await run.joined("kara")
    assert await kara.ended() == REFUSED
    assert kara.bye == "hsm: the table is full (1 connected); try again later"
    assert len(run.table.server.connections) == 1


async def test_a_message_over_64_kib_closes_the_socket_with_1009(web) -> None:
    run = await web(fight())
    kara = await run.joined("kara")
    await kara.shows("Kestrel")
    await kara.send(b"a" * (MAX_MESSAGE + 1024))
    assert await kara.ended() == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    await until(lambda: not run.table.server.connections, lambda: "kara still seated")


async def test_keys_and_resizes_reach_the_app_and_junk_text_is_ignored_logged_once(
    web, caplog: pytest.LogCaptureFixture
) -> None:
    run = await web(fight(seed=0))
    kara = await run.joined("kara", (100, 30))
    await kara.shows("YOUR TURN")
    assert kara.ws is not None
    with caplog.at_level(logging.INFO, logger="hsm_tui.share.web"):
        await kara.ws.send_str("not json")
        await kara.ws.send_str(json.dumps({"resize": "big"}))
        await kara.ws.send_str(json.dumps({"resize": [120, 40]}))
        await until(
            lambda: run.table.server.connections[0].size == (120, 40),
            lambda: str(run.table.server.connections),
        )
    assert caplog.text.count("not a resize") == 1
    await kara.send(b"a")
    await kara.shows("Attack (R-ATK-1)")


async def test_the_app_ending_closes_the_socket_with_1000_and_the_table_closing_says_why(
    web,
) -> None:
    run = await web(fight())
    leaving = await run.joined("kara")
    await leaving.shows("Kestrel")
    await leaving.send(b"q")  # the player leaves
    assert await leaving.ended() == 1000
    assert leaving.bye == LEFT
    await until(lambda: not run.table.server.connections, lambda: "kara still seated")
    kara = await run.joined("kara")
    await kara.shows("Kestrel")
    await run.table.server.close(lambda: "The GM closed the table: the campaign is saved.")
    assert await kara.ended() == 1000
    assert kara.bye == "The GM closed the table: the campaign is saved."


async def test_every_response_carries_the_security_headers(web) -> None:
    browser = (await web(fight())).browser()
    for path in ("/", "/static/missing.js", "/static/..%2Fserver.py", "/whoami", "/nowhere"):
        response = await browser.get(path)
        for name, value in HEADERS.items():
            assert response.headers.get(name) == value, (path, name)
    page = await browser.get("/")
    assert page.status == 200 and page.content_type == "text/html"
    assert (await browser.get("/static/..%2Fserver.py")).status == 404


async def test_each_frame_is_one_message_however_large(web) -> None:
    """The largest screen's first frame (500×200 cells) is past 64 KiB: it still comes as
    one binary message, which the page writes to xterm.js whole."""
    run = await web(fight())
    kara = await run.joined("kara", (500, 200))
    await kara.shows("YOUR TURN")
    assert max(map(len, kara.frames)) > 1 << 16
    assert run.table.server.connections[0].size == (500, 200)


async def test_a_browser_typing_flat_out_is_dropped_and_another_seat_plays_on(
    web, caplog: pytest.LogCaptureFixture
) -> None:
    """The SSH side's input limits hold for a browser: its keys are paced through the
    socket's transport and, sent flat out for seconds, drop it (the socket is cut)."""
    run = await web(fight(seed=0))
    flooder, kara = await run.joined("kara"), await run.joined("kara")
    await kara.shows("YOUR TURN")
    assert flooder.ws is not None

    async def flood() -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            while not flooder.ws.closed:
                await flooder.ws.send_bytes(b"x" * 4096)
                await asyncio.sleep(0.001)

    with caplog.at_level(logging.WARNING, logger="hsm_tui.share"):
        flooding = asyncio.create_task(flood())
        await kara.send(b"a")
        await kara.shows("Attack (R-ATK-1)")
        await flooder.ended(timeout=20)
        await flooding
    assert "dropping a client that types flat out" in caplog.text
    await until(lambda: len(run.table.server.connections) == 1, lambda: "the flooder stayed")
