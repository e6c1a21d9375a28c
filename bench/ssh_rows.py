"""bench/ssh.py's figures and the table it prints, each beside its target."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.ssh_clients import KEYS, ROUNDS
from bench.ssh_door import (
    FLOOD_RATE,
    LOGIN_NOFILE,
    LOGIN_TARGET_MS,
    PLAYERS_HOST,
    SILENT_LOGIN,
    SILENT_TYPING,
)

PLAYERS = 20
"""Players connected while the GM changes something; memory compares 1 with 1 + this."""
FIRST_TARGET_MS = 150.0
CHANGE_TARGET_MS = (60.0, 100.0)  # median, p90
CHANGE_RATIO = 3.0
"""A change's median on hsm's screens at most this many times hello-world's."""
MEMORY_TARGET_MB = 1.0
RECONNECTS, RECONNECT_TARGET_MB = 30, 2.0
FRAME_MS = 1000 / 60
"""A flood's allowance."""


@dataclass
class Figures:
    """One game's measurements (seconds, KiB)."""

    first: list[float] = field(default_factory=list)
    opened: list[float] = field(default_factory=list)
    change: list[float] = field(default_factory=list)
    last: list[float] = field(default_factory=list)
    """Per change, the time until the last of the players saw it."""
    apply: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    """Per change, the server loop's CPU time until every player saw it."""
    missed: int = 0
    keys: list[float] = field(default_factory=list)
    """The GM's key → screen, idle."""
    flooded: list[float] = field(default_factory=list)
    """The same under a resize flood."""
    flood: tuple[int, int] = (0, 0)
    """Window changes sent, and how often the flooder was dropped."""
    change_flooded: list[float] = field(default_factory=list)
    """A GM change on each player's screen while another player floods keys."""
    key_flood: int = 0
    """Keys the flooding player sent (a byte each)."""
    silent: list[float] = field(default_factory=list)
    """The GM's key → screen while :data:`SILENT_TYPING` silent connections are held."""
    held: tuple[int, int] = (0, 0)
    """Silent connections the server still held: while the GM typed, while one logged in."""
    login: tuple[float | None, int] = (None, 0)
    """A player's login to first frame under :data:`SILENT_LOGIN` silent connections and
    ``ulimit -n`` :data:`LOGIN_NOFILE` (ms, None: never), and the tries it took."""
    rss: dict[str, int] = field(default_factory=dict)
    rss_kind: str = ""
    profile: str = ""


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _per_extra_mb(figures: Figures) -> float:
    return (figures.rss[str(PLAYERS + 1)] - figures.rss["1"]) / PLAYERS / 1024


def _growth_mb(figures: Figures) -> float:
    return (figures.rss["after"] - figures.rss["before"]) / 1024


def _value(value: float, unit: str) -> str:
    return f"{value:.2f} {unit}" if unit == "MB" else f"{value:.1f} {unit}"


def report(runs: int, changes: int, hsm: Figures, hello: Figures) -> None:
    def ms(values: Sequence[float], q: float | None = None) -> float:
        value = statistics.median(values) if q is None else _percentile(values, q)
        return value * 1000

    rows: list[tuple[str, float, float, str, str, float | None]] = [
        (f"first frame from connect, median of {runs}", *(ms(f.first) for f in (hsm, hello)),
         "ms", f"≤ {FIRST_TARGET_MS:.0f} ms", FIRST_TARGET_MS),
        ("  … from the session's opening, median", *(ms(f.opened) for f in (hsm, hello)),
         "ms", "", None),
        (f"GM change → {PLAYERS} players, median", *(ms(f.change) for f in (hsm, hello)),
         "ms", f"≤ {CHANGE_TARGET_MS[0]:.0f} ms, {CHANGE_RATIO:.0f}×", CHANGE_TARGET_MS[0]),
        (f"GM change → {PLAYERS} players, p90", *(ms(f.change, 0.9) for f in (hsm, hello)),
         "ms", f"≤ {CHANGE_TARGET_MS[1]:.0f} ms", CHANGE_TARGET_MS[1]),
        (f"GM change → {PLAYERS} players, p90, key flood",
         *(ms(f.change_flooded, 0.9) for f in (hsm, hello)),
         "ms", "≤ +1 frame", ms(hsm.change, 0.9) + FRAME_MS),
        (f"  … the last of the {PLAYERS} to see it, median", *(ms(f.last) for f in (hsm, hello)),
         "ms", "", None),
        ("  … of which apply (server), median", *(ms(f.apply) for f in (hsm, hello)),
         "ms", "", None),
        ("  … server CPU until all saw it, median", *(ms(f.cpu) for f in (hsm, hello)),
         "ms", "", None),
        (f"memory per extra player ({hsm.rss_kind})", *map(_per_extra_mb, (hsm, hello)),
         "MB", f"≤ {MEMORY_TARGET_MB:.0f} MB", MEMORY_TARGET_MB),
        (f"RSS growth over {RECONNECTS} reconnects", *map(_growth_mb, (hsm, hello)),
         "MB", f"≤ {RECONNECT_TARGET_MB:.0f} MB", RECONNECT_TARGET_MB),
        ("GM key → screen p95, idle", *(ms(f.keys, 0.95) for f in (hsm, hello)), "ms", "", None),
        ("GM key → screen p95, resize flood", *(ms(f.flooded, 0.95) for f in (hsm, hello)),
         "ms", "≤ +1 frame", ms(hsm.keys, 0.95) + FRAME_MS),
        (f"GM key → screen p95, {SILENT_TYPING} silent",
         *(ms(f.silent, 0.95) for f in (hsm, hello)),
         "ms", "≤ +1 frame", ms(hsm.keys, 0.95) + FRAME_MS),
        (f"login, {SILENT_LOGIN} silent, ulimit -n {LOGIN_NOFILE}",
         *(f.login[0] if f.login[0] is not None else float("inf") for f in (hsm, hello)),
         "ms", f"≤ {LOGIN_TARGET_MS:.0f} ms", LOGIN_TARGET_MS),
    ]  # fmt: skip
    print(
        f"\n{'figure (80×24 clients)':<42}{'hsm':>10}{'hello':>10}{'hsm/hello':>11}"
        f"{'target':>13}{'result':>8}"
    )
    print("-" * 94)
    ratio_limits = {rows[2][0]: CHANGE_RATIO}
    for name, a, b, unit, target, limit in rows:
        within = limit is not None and a <= limit
        if name in ratio_limits:
            within = within and b > 0 and a / b <= ratio_limits[name]
        verdict = "" if limit is None else ("ok" if within else "over")
        ratio = f"{a / b:.2f}×" if b > 0 else "—"
        print(
            f"{name:<42}{_value(a, unit):>10}{_value(b, unit):>10}{ratio:>11}"
            f"{target:>13}{verdict:>8}"
        )
    for name, figures in (("hsm", hsm), ("hello", hello)):
        rss = figures.rss
        print(
            f"{name} server {figures.rss_kind}: {rss['idle'] / 1024:.1f} MB idle (GM's app only),"
            f" {rss['1'] / 1024:.1f} MB with 1 player,"
            f" {rss[str(PLAYERS + 1)] / 1024:.1f} MB with {PLAYERS + 1};"
            f" {len(figures.change)} change samples ({changes} changes × {PLAYERS} players)"
            + (f", {figures.missed} never shown" if figures.missed else "")
        )
        print(
            f"{name} flood: {figures.flood[0]} window changes sent, the flooder dropped"
            f" {figures.flood[1]} times; GM keys timed {len(figures.keys)} idle,"
            f" {len(figures.flooded)} flooded (of {(len(KEYS) - 1) * ROUNDS} each); a player"
            f" flooded {figures.key_flood} keys ({FLOOD_RATE} a second)"
        )
        print(
            f"{name} silent connections still held by the server: {figures.held[0]} of"
            f" {SILENT_TYPING} while the GM typed, {figures.held[1]} of {SILENT_LOGIN} at the"
            f" login (from {PLAYERS_HOST}, {figures.login[1]} tries)"
        )
