"""Encounters prepared ahead: a GM preps three or four for an evening, keeps them in the
campaign by name, and loads one when the party gets there (and again for a rematch).

A prepared encounter is the builder's encounter as an encounter file describes it (zones,
bands, combatants by pack entry, count, side, zone and cover), so it is set up again from
the packs as they are when it is loaded; its party rows stand for the party's own Heroes,
who bring their wounds and pools then. Plain frozen data, kept by the campaign file.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..rules import Cover, RangeBand, Rank, RulesError
from .encounter import Encounter

GM = "gm"
MAX_PREPARED = 40
"""Prepared encounters a campaign keeps: an evening's few, and a season's, never a file
that grows without end."""
MAX_NAME = 60
"""A prepared encounter's name: one line of the F7 list."""


@dataclass(frozen=True)
class PreparedRow:
    """``count`` combatants of one pack entry (an encounter file's ``[[combatant]]``).
    ``party``: the party's own Hero of that entry (a player character when loaded);
    ``plays_as`` None: a Sidekick whose rules are decided when the fight starts.
    """

    kind: str
    entry: str
    side: str
    zone: str
    count: int = 1
    cover: Cover = Cover.NONE
    plays_as: Rank | None = None
    party: bool = False
    hidden: bool = False


@dataclass(frozen=True)
class PreparedEncounter:
    """An encounter kept ahead by name: the place, who is there, each side's dive policy."""

    name: str
    zones: tuple[str, ...]
    bands: tuple[tuple[str, str, RangeBand], ...] = ()
    rows: tuple[PreparedRow, ...] = ()
    dive_policy: tuple[tuple[str, str], ...] = ()

    @property
    def size(self) -> int:
        """How many combatants it sets up (the party's Heroes counted as they were kept)."""
        return sum(r.count for r in self.rows)

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.side for r in self.rows))


@dataclass(frozen=True)
class KeepEncounter:
    """Keep ``encounter`` as ``name`` (None: the builder's encounter as it is now); a name
    already kept is refused unless ``replace``."""

    name: str
    encounter: PreparedEncounter | None = None
    replace: bool = False
    issuer: str = GM


@dataclass(frozen=True)
class DropEncounter:
    name: str
    issuer: str = GM


@dataclass(frozen=True)
class LoadEncounter:
    """Set up the prepared encounter ``name`` in the builder, in place of the one there
    (not while a fight is on); it stays prepared, for a rematch."""

    name: str
    issuer: str = GM


PreparedCommand = KeepEncounter | DropEncounter | LoadEncounter


def prepared_name(text: str) -> str:
    """``text`` as a prepared encounter's name (runs of spaces made one), or why not: the
    name dialog checks as the GM types with this rule."""
    name = " ".join(text.split())
    if not name or len(name) > MAX_NAME:
        raise RulesError(f"a prepared encounter's name is 1 to {MAX_NAME} characters")
    return name


def named(prepared: Iterable[PreparedEncounter], name: str) -> PreparedEncounter:
    """The prepared encounter ``name`` means, whatever its case and spaces."""
    wanted = " ".join(name.split()).casefold()
    kept = tuple(prepared)
    for prep in kept:
        if prep.name.casefold() == wanted:
            return prep
    names = ", ".join(p.name for p in kept) or "none yet"
    raise RulesError(f"no prepared encounter {name.strip()!r} (prepared: {names})")


def prepared_from(enc: Encounter, name: str) -> PreparedEncounter:
    """``enc`` as a prepared encounter: its combatants grouped by entry, side, zone, cover,
    rules, party and hidden, in the order they were added; wounds and turns are the fight's,
    not the preparation's, so a fight's encounter kept afterwards is a fresh rematch.
    """
    groups: dict[PreparedRow, int] = {}
    for c in enc.combatants:
        plays_as = c.plays_as if c.rank is Rank.SIDEKICK else None
        party = c.player and c.rank is Rank.HERO
        row = PreparedRow(
            c.rank.value, c.entry, c.side, c.zone, 1, c.cover, plays_as, party, c.hidden
        )
        groups[row] = groups.get(row, 0) + 1
    rows = tuple(replace(row, count=n) for row, n in groups.items())
    return PreparedEncounter(name, enc.zones, enc.bands, rows, enc.dive_policy)


def kept(
    prepared: tuple[PreparedEncounter, ...], prep: PreparedEncounter, over: bool
) -> tuple[PreparedEncounter, ...]:
    """The list with ``prep`` kept: in its old place when it replaces one of its name, else
    last. A name already kept, or one too many, is refused with what to do instead."""
    name = prepared_name(prep.name)
    prep = replace(prep, name=name)
    if not prep.zones:
        raise RulesError("nothing to keep: add a zone (z) and who is there first")
    at = next((i for i, p in enumerate(prepared) if p.name.casefold() == name.casefold()), None)
    if at is None:
        if len(prepared) >= MAX_PREPARED:
            raise RulesError(f"{MAX_PREPARED} encounters are prepared already: drop one (x)")
        return (*prepared, prep)
    if not over:
        raise RulesError(f"{prepared[at].name!r} is prepared already: replace it, or pick a name")
    return (*prepared[:at], prep, *prepared[at + 1 :])


def dropped(prepared: tuple[PreparedEncounter, ...], name: str) -> tuple[PreparedEncounter, ...]:
    gone = named(prepared, name)
    return tuple(p for p in prepared if p is not gone)
