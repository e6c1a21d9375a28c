"""The players file of a shared session (a fixed contract): who may join the GM's
game, in which seat, with which keys.

```toml
[[seat]]
user = "kara"                 # the SSH user name the client logs in as
role = "player"               # gm, player or watcher
hero = "kestrel-vance"        # a party hero's id (players only)
keys = ["ssh-ed25519 AAAAC3Nz… kara@laptop"]   # optional
```

A seat without keys is opened only by an invite from a browser (``hsm serve --web``):
a player with no SSH key still has a seat, and the GM's invite names it.

Every problem is collected, each naming the file, the line and the key at fault; a bad
file is refused as a whole (a seat half read could let the wrong person in).
"""

from __future__ import annotations

import base64
import binascii
import re
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh
import tomli_w

from ..packs.toml_lines import LineIndex
from ..persistence.atomic import keep_copy, replace_file
from ..persistence.codec import parse_toml
from ..table.seats import Role, Seat

MAX_BYTES = 1 << 20
"""A players file is a few lines per seat: anything past a MiB is not one."""

USER = re.compile(r"[a-z_][a-z0-9_.-]{0,31}")
"""An SSH user name as OpenSSH clients send it (lower case, as `ssh kara@host`)."""

KEY_TYPES = (
    "ssh-ed25519",
    "ssh-rsa",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ssh-ed25519@openssh.com",
    "sk-ecdsa-sha2-nistp256@openssh.com",
)
"""The public key types a seat may use (OpenSSH's ``*.pub`` lines)."""

SEAT_KEYS = ("user", "role", "hero", "keys")


@dataclass(frozen=True)
class SeatEntry:
    """One seat of the players file: the seat and the public keys that open it (none:
    only an invite does)."""

    seat: Seat
    keys: tuple[str, ...]


class PlayersFileError(ValueError):
    """A players file that cannot be used; the message lists every problem, one a line."""


def read_players(path: Path, party: Iterable[str] | None = None) -> tuple[SeatEntry, ...]:
    """The seats in ``path``. ``party``: the party heroes' ids a player's hero must be
    one of (None: not checked, as when no campaign is open yet).
    """
    data, lines = _load(path)
    problems: list[str] = []

    def problem(where: Where, text: str) -> None:
        key = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in where)
        key = key.replace(".[", "[")
        problems.append(f"{path}:{lines.line(where)}: key {key}: {text}")

    for key in sorted(set(data) - {"seat"}):
        problem((key,), "unknown key (a players file holds [[seat]] tables)")
    seats = data.get("seat", [])
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        problem(("seat",), "expected [[seat]] tables")
        seats = []
    heroes = None if party is None else set(party)
    found: list[SeatEntry] = []
    owners: dict[str, str] = {}
    for i, table in enumerate(seats):
        entry, wrong = _seat(table, ("seat", i), heroes)
        for where, text in wrong:
            problem(where, text)
        if entry is None:
            continue
        if any(e.seat.user == entry.seat.user for e in found):
            problem(("seat", i, "user"), f"{entry.seat.user!r} has a seat already")
            continue
        for k, key in enumerate(entry.keys):
            blob = key.split()[1]
            if blob in owners:
                text = f"this key opens {owners[blob]!r}'s seat already: a key decides one seat"
                problem(("seat", i, "keys", k), text)
            owners.setdefault(blob, entry.seat.user)
        found.append(entry)
    if problems:
        raise PlayersFileError("\n".join(problems))
    return tuple(found)


def add_key(
    seats: Sequence[SeatEntry], user: str, role: str, hero: str, key: str
) -> tuple[SeatEntry, ...]:
    """``seats`` with ``key`` added: to ``user``'s seat if there is one (its role and
    hero stay), else on a new seat; checked as the file's own seats are. Raises
    PlayersFileError with what is wrong.
    """
    old = next((e for e in seats if e.seat.user == user), None)
    if old is not None:
        role, hero = old.seat.role.value, old.seat.hero
    table = {"user": user, "role": role, "keys": [*(old.keys if old else ()), key.strip()]}
    if hero:
        table["hero"] = hero
    entry, wrong = _seat(table, (), None)
    if entry is None:
        raise PlayersFileError("; ".join(f"{'.'.join(map(str, w))}: {t}" for w, t in wrong))
    blob = key.split()[1]
    owner = next((e.seat.user for e in seats for k in e.keys if k.split()[1] == blob), None)
    if owner is not None:
        raise PlayersFileError(f"this key opens {owner!r}'s seat already: a key decides one seat")
    return tuple(entry if e is old else e for e in seats) + (() if old else (entry,))


def write_players(path: Path, seats: Sequence[SeatEntry]) -> None:
    """Write ``seats`` as the players file, replaced whole (comments are not kept; the
    old file stays beside it as ``<name>.bak``). Raises PlayersFileError."""
    data = {
        "seat": [
            {"user": e.seat.user, "role": e.seat.role.value}
            | ({"hero": e.seat.hero} if e.seat.hero else {})
            | ({"keys": list(e.keys)} if e.keys else {})
            for e in seats
        ]
    }
    target = path.resolve()
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o644

    def backup() -> None:
        if target.exists():
            keep_copy(target, target.with_name(f"{target.name}.bak"))

    try:
        replace_file(target, tomli_w.dumps(data).encode(), mode, backup)
    except OSError as err:
        raise PlayersFileError(f"cannot write {path}: {err.strerror or err}") from None


def _load(path: Path) -> tuple[dict[str, Any], LineIndex]:
    """The parsed file and its line index; only a regular file, and not a huge one."""
    try:
        info = path.stat()
    except OSError as err:
        raise PlayersFileError(f"{path}: cannot open: {err.strerror or err}") from None
    if not stat.S_ISREG(info.st_mode):
        raise PlayersFileError(f"{path}: not a regular file")
    if info.st_size > MAX_BYTES:
        raise PlayersFileError(f"{path}: {info.st_size} bytes is too large for a players file")
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise PlayersFileError(f"{path}: cannot read: {err.strerror or err}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise PlayersFileError(f"{path}:{line}: not UTF-8 text") from None
    try:
        data = parse_toml(text, "a players file")
    except ValueError as err:
        raise PlayersFileError(f"{path}: {err}") from None
    return data, LineIndex(text)


Where = tuple[str | int, ...]


def _seat(
    table: dict[str, Any], where: Where, heroes: set[str] | None
) -> tuple[SeatEntry | None, list[tuple[Where, str]]]:
    """One [[seat]] table, or None and what is wrong with it."""
    wrong: list[tuple[Where, str]] = []
    for key in sorted(set(table) - set(SEAT_KEYS)):
        wrong.append(((*where, key), f"unknown key (a seat has {', '.join(SEAT_KEYS)})"))
    user, role, hero = table.get("user"), table.get("role"), table.get("hero", "")
    if not isinstance(user, str) or not USER.fullmatch(user):
        text = f"expected an SSH user name (a–z, 0–9, . _ -), not {user!r}"
        wrong.append(((*where, "user"), text))
    roles = [r.value for r in Role]
    if role not in roles:
        wrong.append(((*where, "role"), f"expected one of {', '.join(roles)}, not {role!r}"))
    if role == Role.PLAYER and not (isinstance(hero, str) and hero):
        wrong.append(((*where, "hero"), "a player's seat names the party hero they play"))
    elif role != Role.PLAYER and hero:
        wrong.append(((*where, "hero"), f"only a player plays a hero (this seat is {role!r})"))
    elif heroes is not None and hero and hero not in heroes:
        text = f"{hero!r} is not in the party ({', '.join(sorted(heroes)) or 'nobody yet'})"
        wrong.append(((*where, "hero"), text))
    keys = table.get("keys", [])
    if not isinstance(keys, list):
        text = "expected a list of OpenSSH public key lines (or no keys: invites only)"
        wrong.append(((*where, "keys"), text))
        keys = []
    wrong += [((*where, "keys", k), why) for k, key in enumerate(keys) if (why := key_problem(key))]
    if wrong:
        return None, wrong
    return SeatEntry(Seat(Role(role), user, hero), tuple(keys)), []  # type: ignore[arg-type]


def key_problem(line: Any) -> str:
    """Why ``line`` is not an OpenSSH public key line (``type base64 [comment]``), "" if
    it is one: its type is known, the key inside names the same type and is whole (a line
    cut short would open no seat, and nobody would be told why).
    """
    if not isinstance(line, str):
        return f"expected a public key line, not {line!r}"
    parts = line.split()
    if len(parts) < 2 or parts[0] not in KEY_TYPES:
        return f"expected 'TYPE KEY [comment]' with TYPE one of {', '.join(KEY_TYPES[:3])} …"
    named = f"the key {' '.join(parts[2:])!r}" if parts[2:] else "the key (no comment)"
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        return f"{named} is not base64"
    size = int.from_bytes(blob[:4], "big")
    if blob[4 : 4 + size] != parts[0].encode():
        return f"{named} is not a {parts[0]} key inside (a damaged or mixed-up line)"
    try:
        asyncssh.import_public_key(f"{parts[0]} {parts[1]}")
    except (asyncssh.KeyImportError, ValueError):
        return f"{named} is damaged (cut short or changed): copy the whole line of its .pub again"
    return ""
