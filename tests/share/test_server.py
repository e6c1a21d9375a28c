"""The SSH server of ``hsm serve`` (issue 21 §4–6), with real clients: a key opens its
seat and nothing else gets in; only an interactive table with a PTY is offered; limits
hold; a client that drops, floods or sends junk harms no one else.
"""

from __future__ import annotations

import asyncio
import logging
import random

import asyncssh
import pytest

from hsm_tui.share.driver import LEAVE
from hsm_tui.share.server import INTERACTIVE_ONLY, Connection
from hsm_tui.table.seats import Role
from hsm_tui.ui.app import HsmApp

from .conftest import OLD_CLIENT, Probe, Table, offer, seat_entries, until


async def test_a_key_opens_the_seat_its_user_name_names(table: Table):
    changes: list[tuple[Connection, ...]] = []
    table.server.on_change(lambda: changes.append(table.server.connections))
    kara = await table.join("kara")
    await kara.shows("seat kara size 80x24")
    [(seat, connection, app)] = table.built
    assert (seat.role, seat.user, seat.hero) == (Role.PLAYER, "kara", "kestrel-vance")
    assert isinstance(app, Probe) and app.seat == seat
    assert table.server.connections == (connection,)
    assert connection.seat == seat and connection.size == (80, 24)
    assert connection.peer.startswith("127.0.0.1:") and connection.connected_at > 0
    assert changes == [(connection,)]


async def test_the_gm_seat_draws_the_home_screen_at_80x24(table: Table):
    gm = await table.join("gm")
    await gm.shows("Party")
    await gm.shows("hsm-tui — New campaign")
    [(seat, _, app)] = table.built
    assert isinstance(app, HsmApp) and app.seat == seat and seat.role is Role.GM
    assert app.size == (80, 24)
    assert "(no heroes yet: a adds one)" in gm.text


async def test_colours_follow_each_client_term(table: Table):
    rich, plain = await table.join("kara"), await table.join("wes", term="vt100")
    await rich.shows("seat kara")
    await plain.shows("seat wes")
    assert b"\x1b[38;5;" in rich.raw
    assert b"\x1b[38;5;" not in plain.raw and b"\x1b[38;2;" not in plain.raw


async def test_a_key_opens_no_other_seat_and_no_unknown_user(table: Table):
    with pytest.raises(asyncssh.PermissionDenied):
        await table.connect("kara", table.keys["wes"])
    with pytest.raises(asyncssh.PermissionDenied):
        await table.connect("mallory", table.keys["kara"])
    assert table.built == []


@pytest.mark.parametrize(("wrong", "in_"), [(5, True), (6, False), (7, False)])
async def test_at_most_six_keys_are_tried_on_one_connection(table: Table, wrong: int, in_: bool):
    others = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(wrong)]
    keys = [*others, table.keys["kara"]]
    if in_:
        await table.connect("kara", client_keys=keys)
        return
    with pytest.raises(asyncssh.PermissionDenied, match="too many authentication attempts"):
        await table.connect("kara", client_keys=keys)
    await table.connect("kara")  # a new connection has its own tries


@pytest.mark.parametrize(
    ("old", "offered", "named"),
    [
        (
            {"kex_algs": ["diffie-hellman-group14-sha1", "diffie-hellman-group1-sha1"]},
            {"kex": OLD_CLIENT["kex"]},
            "No matching key exchange algorithm",
        ),
        (
            {"encryption_algs": ["aes128-ctr"], "mac_algs": ["hmac-sha1", "hmac-md5"]},
            {"mac": OLD_CLIENT["mac"]},
            "No matching MAC algorithm",
        ),
        (
            {"encryption_algs": ["aes128-cbc", "3des-cbc"]},
            {"cipher": OLD_CLIENT["cipher"]},
            "No matching encryption algorithm",
        ),
        ({"server_host_key_algs": ["ssh-rsa"]}, {"host_key": "ssh-rsa"}, "server host key"),
    ],
    ids=["sha1-kex", "sha1-md5-mac", "cbc-cipher", "rsa-sha1-host-key"],
)
async def test_a_client_with_only_old_algorithms_is_refused_with_a_log_line(
    table: Table,
    caplog: pytest.LogCaptureFixture,
    old: dict[str, list[str]],
    offered: dict[str, str],
    named: str,
):
    with pytest.raises((asyncssh.KeyExchangeFailed, asyncssh.ConnectionLost)):
        await table.connect("kara", **old)
    with caplog.at_level(logging.WARNING, logger="hsm_tui.share"):
        said = await offer(table.server.port, **offered)
        await until(lambda: "no algorithm in common" in caplog.text, lambda: caplog.text)
    assert named.encode() in said  # the server's disconnect tells the client why
    assert "127.0.0.1:" in caplog.text and named in caplog.text


async def test_modern_clients_agree_on_modern_algorithms(table: Table, user_keys):
    rsa = asyncssh.generate_private_key("ssh-rsa", key_size=2048)
    table.server.set_seats(seat_entries({**user_keys, "kara": rsa}))
    conn = await table.connect("kara", rsa)  # an RSA key signs with SHA-2, and gets in
    assert conn.get_extra_info("send_cipher") == "chacha20-poly1305@openssh.com"
    ctr = await table.connect("kara", rsa, encryption_algs=["aes128-ctr"])
    assert ctr.get_extra_info("send_mac") == "hmac-sha2-256-etm@openssh.com"


SHA1_USER_SIGNATURES = (
    "asyncssh 2.24 gives a server no say over the hash of a user's RSA signature: "
    "signature_algs only fills server-sig-algs, and the key's own verify takes ssh-rsa"
)


@pytest.mark.parametrize(
    ("signs", "in_"),
    [
        ("rsa-sha2-256", True),
        pytest.param(
            "ssh-rsa", False, marks=pytest.mark.xfail(strict=True, reason=SHA1_USER_SIGNATURES)
        ),
    ],
)
async def test_an_rsa_key_signing_with_sha1_is_refused(
    table: Table, user_keys, caplog: pytest.LogCaptureFixture, signs: str, in_: bool
):
    rsa = asyncssh.generate_private_key("ssh-rsa", key_size=2048)
    table.server.set_seats(seat_entries({**user_keys, "kara": rsa}))
    if in_:
        await table.connect("kara", rsa, signature_algs=[signs])
        return
    refused = pytest.raises(asyncssh.PermissionDenied)
    with caplog.at_level(logging.INFO, logger="hsm_tui.share"), refused:
        await table.connect("kara", rsa, signature_algs=[signs])
    assert "ssh-rsa" in caplog.text and "SHA-1" in caplog.text


async def test_passwords_are_refused(table: Table):
    with pytest.raises(asyncssh.PermissionDenied):
        await table.connect("kara", password="kara", client_keys=None)


@pytest.mark.parametrize("pty", [None, "xterm"], ids=["plain", "with-pty"])
async def test_a_command_is_refused_with_one_line(table: Table, pty: str | None):
    conn = await table.connect("kara")
    result = await conn.run("ls", term_type=pty, encoding=None)
    assert result.exit_status == 1
    assert INTERACTIVE_ONLY.encode() in (result.stderr or b"") + (result.stdout or b"")
    assert table.built == []


async def test_a_session_without_a_pty_is_refused(table: Table):
    conn = await table.connect("kara")
    process = await conn.create_process(encoding=None)
    await process.wait_closed()
    assert process.exit_status == 1
    assert INTERACTIVE_ONLY.encode() in await process.stderr.read()


async def test_sftp_and_forwarding_are_refused(table: Table):
    conn = await table.connect("kara")
    with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
        await conn.start_sftp_client()
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_connection(asyncio.Protocol, "127.0.0.1", table.server.port)
    with pytest.raises(asyncssh.ChannelListenError):
        await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 1)
    assert table.built == []


async def test_seats_are_limited_overall_and_per_user(serve):
    table = await serve(max_seats=3, per_user=2)
    first, second = await table.join("kara"), await table.join("kara")
    third = await table.join("kara")
    await third.ended()
    assert third.process.exit_status == 1
    assert b"kara is connected 2 times already" in third.raw + await third.process.stderr.read()
    await table.join("wes")
    gm = await table.join("gm")
    await gm.ended()
    assert b"the table is full (3 connected)" in await gm.process.stderr.read()
    await first.shows("seat kara")
    await second.shows("seat kara")
    assert len(table.server.connections) == 3


async def test_a_window_change_reaches_the_app_and_the_gm_list(table: Table):
    kara = await table.join("kara")
    await kara.shows("size 80x24")
    kara.resize(100, 30)
    await kara.shows("size 100x30")
    await until(lambda: table.server.connections[0].size == (100, 30), lambda: "no resize")
    kara.resize(5000, 2)
    await until(lambda: table.server.connections[0].size == (500, 10), lambda: "not bounded")


async def test_a_lone_escape_is_an_escape_key(table: Table):
    kara = await table.join("kara")
    await kara.shows("key <>")
    kara.send(b"\x1b")
    await kara.shows("key <escape>")
    kara.send("é".encode()[:1])  # half a character waits for its other half
    kara.send("é".encode()[1:])
    await kara.shows("key <é>")


async def test_a_killed_client_leaves_the_others_playing(table: Table):
    kara, wes = await table.join("kara"), await table.join("wes")
    await kara.shows("seat kara")
    await wes.shows("seat wes")
    kara.conn.abort()  # as a killed ssh: no goodbye
    await until(lambda: len(table.server.connections) == 1, lambda: "kara still seated")
    assert table.server.left_at("kara") is not None and table.server.left_at("wes") is None
    wes.send(b"x")
    await wes.shows("key <x>")
    again = await table.join("kara")
    await again.shows("seat kara")


async def test_junk_and_floods_do_not_break_the_app(table: Table):
    kara, wes = await table.join("kara"), await table.join("wes")
    await kara.shows("seat kara")
    rng = random.Random(21)
    noise = bytes(b for b in rng.randbytes(10_000) if b not in b"!")
    kara.send(b"\xff\xfe\x1b[999;999R\x1b[<0;0;0M\x1b[48;9999;9999;1;1t\x1b[1;1:99999999u")
    kara.send(noise)
    kara.send(b"a" * 30_000)

    def z_arrived() -> bool:  # a z inside a flooded second may be dropped: send again
        kara.send(b"z")
        return "key <z>" in kara.text

    await until(z_arrived, lambda: kara.text, timeout=20)
    assert table.server.connections[0].size == (80, 24)
    wes.send(b"y")
    await wes.shows("key <y>")


async def test_an_app_that_fails_closes_its_own_connection_only(
    table: Table, caplog: pytest.LogCaptureFixture
):
    kara, wes = await table.join("kara"), await table.join("wes")
    await kara.shows("seat kara")
    with caplog.at_level(logging.ERROR, logger="hsm_tui.share"):
        kara.send(b"!")
        await kara.ended()
    assert kara.process.exit_status == 1
    assert "the probe was asked to fail" in caplog.text
    assert b"the probe was asked to fail" not in kara.raw  # a traceback is not for players
    wes.send(b"y")
    await wes.shows("key <y>")
    assert [c.seat.user for c in table.server.connections] == ["wes"]


async def test_an_app_that_cannot_be_built_is_logged(serve, caplog: pytest.LogCaptureFixture):
    table = await serve(lambda seat, connection: 1 / 0)
    with caplog.at_level(logging.ERROR, logger="hsm_tui.share"):
        kara = await table.join("kara")
        await kara.ended()
    assert kara.process.exit_status == 1
    assert "ZeroDivisionError" in caplog.text
    assert table.server.connections == ()


async def test_new_keys_apply_to_new_logins(table: Table, user_keys):
    kara = await table.join("kara")
    await kara.shows("seat kara")
    fresh = asyncssh.generate_private_key("ssh-ed25519")
    table.server.set_seats(seat_entries({**user_keys, "kara": fresh}))
    with pytest.raises(asyncssh.PermissionDenied):
        await table.connect("kara")
    await table.connect("kara", fresh)
    kara.send(b"k")
    await kara.shows("key <k>")  # the one already seated stays


async def test_listeners_hear_comings_and_goings_and_can_stop(table: Table):
    heard: list[int] = []
    stop = table.server.on_change(lambda: heard.append(len(table.server.connections)))
    table.server.on_change(lambda: 1 / 0)  # a failing listener is dropped, not fatal
    kara = await table.join("kara")
    await kara.shows("seat kara")
    kara.conn.close()
    await until(lambda: heard == [1, 0], lambda: f"heard {heard}")
    stop()
    await (await table.join("wes")).shows("seat wes")
    assert heard == [1, 0]


async def test_closing_the_server_restores_each_terminal(table: Table):
    kara = await table.join("kara")
    await kara.shows("seat kara")
    await table.server.close()
    await kara.ended()
    assert kara.process.exit_status == 0
    assert kara.raw.endswith("".join(LEAVE).encode())
    assert table.server.connections == ()
    with pytest.raises(OSError):
        await table.connect("wes")
