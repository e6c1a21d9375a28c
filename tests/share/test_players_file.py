"""The players file (a fixed contract): [[seat]] tables with user, role, hero and keys
(optional: a seat without keys joins only by a browser invite); a bad file names the
file, the line and the key at fault, and is refused whole.
"""

from __future__ import annotations

import base64
import functools
import os
import re
from pathlib import Path

import asyncssh
import pytest

from hsm_tui.share.players import (
    PlayersFileError,
    add_key,
    key_problem,
    read_players,
    write_players,
)
from hsm_tui.table.seats import Role, Seat


def key(n: int, kind: str = "ssh-ed25519") -> str:
    """A well-formed OpenSSH public key line: an Ed25519 key's 32 bytes made up from
    ``n``, another kind's a real key made once for ``n``."""
    if kind != "ssh-ed25519":
        return f"{_real(n, kind)} user{n}@host"
    name = kind.encode()
    blob = len(name).to_bytes(4, "big") + name + (32).to_bytes(4, "big") + bytes([n]) * 32
    return f"{kind} {base64.b64encode(blob).decode()} user{n}@host"


@functools.cache
def _real(n: int, kind: str) -> str:
    return " ".join(asyncssh.generate_private_key(kind).export_public_key().decode().split()[:2])


def damaged(line: str, cut: int) -> str:
    """``line`` with its key's last ``cut`` bytes cut off (still base64), or with junk
    added for a negative ``cut``."""
    kind, blob, *comment = line.split()
    raw = base64.b64decode(blob)
    raw = raw[:-cut] if cut > 0 else raw + b"\0" * -cut
    return " ".join([kind, base64.b64encode(raw).decode(), *comment])


GOOD = f"""
[[seat]]
user = "gm"
role = "gm"
keys = ["{key(1)}"]

[[seat]]
user = "kara"
role = "player"
hero = "kestrel-vance"
keys = ["{key(2)}", "{key(3, "ssh-rsa")}"]

[[seat]]
user = "wes"
role = "watcher"
keys = ["{key(4)}"]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "players.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_file_gives_each_seat_and_its_keys(tmp_path: Path) -> None:
    seats = read_players(write(tmp_path, GOOD), party=["kestrel-vance", "roan-maddox"])
    assert [e.seat for e in seats] == [
        Seat(Role.GM, "gm"),
        Seat(Role.PLAYER, "kara", "kestrel-vance"),
        Seat(Role.WATCHER, "wes"),
    ]
    assert seats[1].keys == (key(2), key(3, "ssh-rsa"))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (('role = "watcher"', 'role = "spy"'), ":15: key seat[2].role: expected one of gm, player"),
        (('user = "kara"', 'user = "Kara Vance"'), ":8: key seat[1].user: expected an SSH user"),
        (('hero = "kestrel-vance"\n', ""), ":7: key seat[1].hero: a player's seat names"),
        (('user = "wes"', 'user = "kara"'), ":14: key seat[2].user: 'kara' has a seat already"),
        (('hero = "kestrel-vance"', 'hero = "zed"'), "key seat[1].hero: 'zed' is not in the party"),
        (('role = "gm"', 'role = "gm"\nhero = "x"'), "key seat[0].hero: only a player plays"),
        (('user = "wes"', 'shoe = 1\nuser = "wes"'), ":14: key seat[2].shoe: unknown key"),
    ],
)
def test_each_problem_names_the_file_line_and_key(
    tmp_path: Path, change: tuple[str, str], expected: str
) -> None:
    path = write(tmp_path, GOOD.replace(*change, 1))
    with pytest.raises(PlayersFileError) as refused:
        read_players(path, party=["kestrel-vance"])
    assert str(path) in str(refused.value) and expected in str(refused.value)


def test_one_key_opens_one_seat_only(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace(key(4), key(2)))
    with pytest.raises(PlayersFileError, match=r"seat\[2\]\.keys\[0\]: this key opens 'kara'"):
        read_players(path)


def test_every_problem_is_listed_not_just_the_first(tmp_path: Path) -> None:
    bad = GOOD.replace('role = "watcher"', 'role = "spy"').replace('user = "gm"', 'user = ""')
    with pytest.raises(PlayersFileError) as refused:
        read_players(write(tmp_path, bad))
    assert len(str(refused.value).splitlines()) == 2


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("ssh-ed25519", "expected 'TYPE KEY"),
        ("ssh-dss AAAA", "expected 'TYPE KEY"),
        ("ssh-ed25519 not*base64", "the key (no comment) is not base64"),
        (key(5, "ssh-rsa").replace("ssh-rsa ", "ssh-ed25519 ", 1), "not a ssh-ed25519 key"),
        (7, "expected a public key line"),
        ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 kara@laptop", "the key 'kara@laptop' is damaged"),
        (damaged(key(6), 3), "the key 'user6@host' is damaged"),
        (damaged(key(6), -3), "the key 'user6@host' is damaged"),
        (damaged(key(5, "ssh-rsa"), 9), "the key 'user5@host' is damaged"),
        (damaged(key(7, "ecdsa-sha2-nistp256"), 1), "the key 'user7@host' is damaged"),
    ],
    ids=[  # fixed names: the RSA and ECDSA keys are made anew in each test process
        "type-alone",
        "dss-short",
        "not-base64",
        "rsa-named-ed25519",
        "not-text",
        "ed25519-header-only",
        "ed25519-cut",
        "ed25519-padded",
        "rsa-cut",
        "ecdsa-cut",
    ],
)
def test_a_key_line_is_checked_before_any_client_connects(line: object, why: str) -> None:
    assert why in key_problem(line)
    for whole in (key(6), key(5, "ssh-rsa"), key(7, "ecdsa-sha2-nistp256")):
        assert key_problem(whole) == ""


def test_a_damaged_key_is_refused_with_its_file_line_and_comment(tmp_path: Path) -> None:
    cut = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 kara@laptop"
    path = write(tmp_path, GOOD.replace(f'"{key(2)}", ', f'"{key(2)}",\n  "{cut}",\n  '))
    with pytest.raises(PlayersFileError) as refused:
        read_players(path)
    assert str(refused.value) == (
        f"{path}:12: key seat[1].keys[1]: the key 'kara@laptop' is damaged (cut short or"
        " changed): copy the whole line of its .pub again"
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[[seat]\n", "not valid TOML"),
        (b"\xff\xfe[[seat]]", ":1: not UTF-8 text"),
        (b'seat = "everyone"', "key seat: expected [[seat]] tables"),
        (b"[server]\nport = 22", "key server: unknown key"),
    ],
)
def test_a_broken_file_is_refused_with_a_message_never_a_traceback(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "players.toml"
    path.write_bytes(content)
    with pytest.raises(PlayersFileError, match=re.escape(message)):
        read_players(path)


def test_only_a_regular_file_of_sane_size_is_read(tmp_path: Path) -> None:
    with pytest.raises(PlayersFileError, match="cannot open"):
        read_players(tmp_path / "missing.toml")
    with pytest.raises(PlayersFileError, match="not a regular file"):
        read_players(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(PlayersFileError, match="not a regular file"):
        read_players(fifo)  # would hang a reader that opened it
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"#" * (2 << 20))
    with pytest.raises(PlayersFileError, match="too large"):
        read_players(huge)


# -- a key pasted from the GM's seat list (the GM edits the file from the app) --
def test_a_pasted_key_adds_a_seat_or_a_key_and_is_written_back(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    seats = add_key(read_players(path), "otto", "player", "roan-maddox", key(9))
    seats = add_key(seats, "wes", "gm", "", key(10))  # a user's seat keeps its role
    write_players(path, seats)
    again = read_players(path)
    assert again == seats
    assert again[-1].seat == Seat(Role.PLAYER, "otto", "roan-maddox")
    wes = next(e for e in again if e.seat.user == "wes")
    assert wes.seat.role is Role.WATCHER and wes.keys == (key(4), key(10))
    assert (tmp_path / "players.toml.bak").read_text(encoding="utf-8") == GOOD


@pytest.mark.parametrize(
    ("user", "role", "hero", "line", "why"),
    [
        ("otto", "player", "", key(9), "a player's seat names the party hero"),
        ("otto", "captain", "", key(9), "expected one of gm, player, watcher"),
        ("Otto!", "watcher", "", key(9), "expected an SSH user name"),
        ("otto", "watcher", "", "ssh-ed25519 not-base64", "the key (no comment) is not base64"),
        ("otto", "watcher", "", damaged(key(9), 4), "the key 'user9@host' is damaged"),
        ("otto", "watcher", "", key(2), "opens 'kara''s seat already"),
    ],
)
def test_a_pasted_key_is_checked_as_the_file_is(
    tmp_path: Path, user: str, role: str, hero: str, line: str, why: str
) -> None:
    seats = read_players(write(tmp_path, GOOD))
    with pytest.raises(PlayersFileError, match=re.escape(why)):
        add_key(seats, user, role, hero, line)


# -- a seat without keys: opened only by a browser invite (hsm serve --web) --
NO_KEYS = """
[[seat]]
user = "gm"
role = "gm"
keys = []

[[seat]]
user = "kara"
role = "player"
hero = "kestrel-vance"
"""


def test_a_seat_without_keys_loads_for_invites_only(tmp_path: Path) -> None:
    seats = read_players(write(tmp_path, NO_KEYS), party=["kestrel-vance"])
    assert [(e.seat, e.keys) for e in seats] == [
        (Seat(Role.GM, "gm"), ()),
        (Seat(Role.PLAYER, "kara", "kestrel-vance"), ()),
    ]


def test_keys_that_are_not_a_list_are_still_refused(tmp_path: Path) -> None:
    path = write(tmp_path, NO_KEYS.replace("keys = []", f'keys = "{key(1)}"'))
    with pytest.raises(PlayersFileError) as refused:
        read_players(path)
    assert str(refused.value) == (
        f"{path}:5: key seat[0].keys: expected a list of OpenSSH public key lines"
        " (or no keys: invites only)"
    )


def test_a_damaged_key_on_a_seat_is_refused_as_before(tmp_path: Path) -> None:
    path = write(tmp_path, NO_KEYS.replace("keys = []", f'keys = ["{damaged(key(1), 3)}"]'))
    with pytest.raises(PlayersFileError, match=re.escape("the key 'user1@host' is damaged")):
        read_players(path)


def test_a_key_added_to_a_seat_without_keys_opens_it(tmp_path: Path) -> None:
    path = write(tmp_path, NO_KEYS)
    seats = add_key(read_players(path), "kara", "watcher", "", key(2))
    write_players(path, seats)
    kara = read_players(path)[1]
    assert kara.seat == Seat(Role.PLAYER, "kara", "kestrel-vance") and kara.keys == (key(2),)


def test_a_seat_without_keys_is_written_without_a_keys_line(tmp_path: Path) -> None:
    path = write(tmp_path, NO_KEYS)
    seats = read_players(path)
    write_players(path, seats)
    assert "keys" not in path.read_text(encoding="utf-8")
    assert read_players(path) == seats
