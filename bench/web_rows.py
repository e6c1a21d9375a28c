"""bench/web.py's figures and the table it prints: each over WebSocket beside the same over
SSH, the ratio, and the target (the SSH bench's, and "a browser seat costs what an SSH
seat does": at most :data:`WEB_RATIO` times the SSH figure)."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench.ssh_clients import KEYS, ROUNDS
from bench.ssh_rows import (
    CHANGE_TARGET_MS,
    FIRST_TARGET_MS,
    MEMORY_TARGET_MB,
    PLAYERS,
    _percentile,
)

WEB_RATIO = 1.25
"""A browser seat's propagation median and memory at most this many times an SSH seat's."""


@dataclass
class Side:
    """One way in's measurements (seconds, KiB)."""

    first: list[float] = field(default_factory=list)
    """From the start of connecting (SSH) or of the ``/join`` POST (web) to the first frame."""
    opened: list[float] = field(default_factory=list)
    """From the session's opening (SSH) or the WebSocket's connect (web)."""
    change: list[float] = field(default_factory=list)
    missed: int = 0
    keys: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)
    """The server's RSS growth at each extra player's join (KiB)."""


@dataclass(frozen=True)
class Row:
    """A figure, how to take it from a Side, its unit, and its targets (None: none)."""

    name: str
    figure: Callable[[Side], float]
    unit: str = "ms"
    limit: float | None = None
    ratio: float | None = None

    @property
    def target(self) -> str:
        said = [f"≤ {self.limit:g} {self.unit}"] if self.limit is not None else []
        return ", ".join(said + ([f"≤ {self.ratio:g}× ssh"] if self.ratio else []))

    def verdict(self, web: float, ssh: float) -> str:
        """web's result, then ssh's against the absolute limit; blank without a target."""
        if self.limit is None and self.ratio is None:
            return ""
        web_ok = self.limit is None or web <= self.limit
        if self.ratio is not None:
            web_ok = web_ok and ssh > 0 and web / ssh <= self.ratio
        ssh_ok = self.limit is None or ssh <= self.limit
        return f"{'ok' if web_ok else 'over'}/{'ok' if ssh_ok else 'over'}"


def _ms(values: Sequence[float], q: float | None = None) -> float:
    return 1000 * (statistics.median(values) if q is None else _percentile(values, q))


def _per_player_mb(side: Side) -> float:
    return sum(side.rss) / len(side.rss) / 1024


def rows(runs: int) -> list[Row]:
    return [
        Row(f"first frame from connect / POST /join, median of {runs}", lambda s: _ms(s.first),
            limit=FIRST_TARGET_MS),
        Row("  … from the session / WebSocket opening, median", lambda s: _ms(s.opened)),
        Row("GM key → screen (palette), p50", lambda s: _ms(s.keys)),
        Row("GM key → screen (palette), p95", lambda s: _ms(s.keys, 0.95)),
        Row(f"GM change → {PLAYERS} players, median", lambda s: _ms(s.change),
            limit=CHANGE_TARGET_MS[0], ratio=WEB_RATIO),
        Row(f"GM change → {PLAYERS} players, p90", lambda s: _ms(s.change, 0.9),
            limit=CHANGE_TARGET_MS[1]),
        Row("memory per extra player (server RSS)", _per_player_mb, unit="MB",
            limit=MEMORY_TARGET_MB, ratio=WEB_RATIO),
    ]  # fmt: skip


def _value(value: float, unit: str) -> str:
    return f"{value:.2f} {unit}" if unit == "MB" else f"{value:.1f} {unit}"


def report(runs: int, web: Side, ssh: Side, rss_kind: str) -> None:
    """Print the table; the result column is web's verdict, then ssh's (``ok/ok``)."""
    print(
        f"\n{'figure (80×24 clients)':<56}{'web':>10}{'ssh':>10}{'web/ssh':>9}"
        f"{'target':>22}{'web/ssh':>10}"
    )
    print("-" * 117)
    for row in rows(runs):
        a, b = row.figure(web), row.figure(ssh)
        ratio = f"{a / b:.2f}×" if b > 0 else "—"
        print(
            f"{row.name:<56}{_value(a, row.unit):>10}{_value(b, row.unit):>10}{ratio:>9}"
            f"{row.target:>22}{row.verdict(a, b):>10}"
        )
    for name, side in (("web", web), ("ssh", ssh)):
        print(
            f"{name}: {len(side.change)} change samples ({PLAYERS} players a change)"
            + (f", {side.missed} never shown" if side.missed else "")
            + f"; {len(side.keys)} GM keys timed (of {(len(KEYS) - 1) * ROUNDS});"
            f" {rss_kind} growth over {len(side.rss)} joins,"
            f" {sum(side.rss) / 1024:.1f} MB in all"
        )
