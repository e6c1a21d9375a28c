"""What a loaded pack gives the app: plain, frozen catalog entries."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import CombatRatings, Derived, Expression, RangeBand, Rank, Rating, Traits
from ..rules.effects import Effect, Trigger
from .kinds import KINDS


@dataclass(frozen=True)
class Source:
    """Where an entry was written, for messages and the browser."""

    pack: str
    path: str
    line: int


@dataclass(frozen=True)
class PackInfo:
    id: str
    name: str
    version: str
    requires: tuple[str, ...]
    description: str
    author: str
    path: str


@dataclass(frozen=True)
class Suppression:
    """``N/dM`` (R-ATK-16): N charges, dM Fear die."""

    charges: int
    die: int

    def __str__(self) -> str:
        return f"{self.charges}/d{self.die}"


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    kind: str
    skill: Rating
    attacks: Expression | None  # None: by fighting style (melee, R-ATK-1)
    damage: Expression
    range: RangeBand
    source: Source
    damage_options: tuple[Expression, ...] = ()
    thrown_damage: Expression | None = None
    power: int | None = None
    recharge: bool = True
    charge_per_shot: int = 1
    suppression: Suppression | None = None
    nonlethal: bool = False
    two_handed: bool = False
    area: str | None = None
    reload: bool = False
    text: str = ""
    effects: tuple[tuple[Trigger, tuple[Effect, ...]], ...] = ()

    def effects_on(self, trigger: Trigger) -> tuple[Effect, ...]:
        """The card's effects for one face (a few rows: scanned, no dict built per attack)."""
        for face, effects in self.effects:
            if face is trigger:
                return effects
        return ()

    @property
    def qualified_id(self) -> str:
        return f"{self.source.pack}:{self.id}"


@dataclass(frozen=True)
class EquipmentItem:
    name: str
    enc: int = 0
    location: str = ""


@dataclass(frozen=True)
class Character:
    """A minion type, sidekick or pre-made hero as the pack defines it."""

    id: str
    name: str
    rank: Rank
    traits: Traits
    ratings: CombatRatings
    weapons: tuple[str, ...]  # weapon ids, resolved (unique per kind across packs)
    source: Source
    size: int = 0
    text: str = ""
    tags: tuple[str, ...] = ()
    skills: tuple[tuple[str, int], ...] = ()
    talents: tuple[str, ...] = ()
    advantages: tuple[str, ...] = ()
    drawbacks: tuple[str, ...] = ()
    equipment: tuple[EquipmentItem, ...] = ()
    encumbrance: int | None = None
    storage: int | None = None
    player: str = ""  # who plays a Hero (the sheet's "Name (player)")
    career: str = ""
    motivation: str = ""

    def derived(self) -> dict[Derived, int]:
        return {d: self.traits[d] for d in Derived}

    @property
    def qualified_id(self) -> str:
        return f"{self.source.pack}:{self.id}"


@dataclass(frozen=True)
class SevereWound:
    """One row of the Severe Wound chart (§7); ``max`` None means "and above"."""

    id: str
    name: str
    min: int
    max: int | None
    text: str
    source: Source
    unconscious: bool = False
    dead: bool = False
    condition: str | None = None  # marked on the Hero for the encounter (painful, …)
    out_of_cover: bool = False  # the Hero is thrown out of its cover (§7 "Rolls a ways")
    destroys_equipment: bool = False  # a carried piece picked at random stops working (§7)
    turns: Expression | None = None  # the condition lasts this many of its turns (rolled)

    def covers(self, total: int) -> bool:
        return total >= self.min and (self.max is None or total <= self.max)

    @property
    def span(self) -> str:
        """``1–5``, ``13`` or ``22+``: the totals the row covers, as the rulebook prints them."""
        if self.max is None:
            return f"{self.min}+"
        return str(self.min) if self.max == self.min else f"{self.min}–{self.max}"

    @property
    def mark(self) -> str:
        """`` (unconscious)`` or `` (dead)`` after the name, in words (never by colour
        alone); a row named Dead needs no "(dead)".
        """
        if self.dead:
            return "" if self.name.strip().lower() == "dead" else " (dead)"
        return " (unconscious)" if self.unconscious else ""


@dataclass(frozen=True)
class Catalog:
    """Everything loaded, keyed by entry id (unique across packs)."""

    packs: tuple[PackInfo, ...] = ()
    weapons: dict[str, Weapon] = field(default_factory=dict)
    minions: dict[str, Character] = field(default_factory=dict)
    sidekicks: dict[str, Character] = field(default_factory=dict)
    heroes: dict[str, Character] = field(default_factory=dict)
    chart: tuple[SevereWound, ...] = ()
    chart_pack: str | None = None

    def kind(self, name: str) -> dict[str, Weapon] | dict[str, Character]:
        """Entries of one kind, named either way (``minion`` or ``minions``)."""
        plural = KINDS.get(name, name)
        return {
            "weapons": self.weapons,
            "minions": self.minions,
            "sidekicks": self.sidekicks,
            "heroes": self.heroes,
        }[plural]

    def chart_rows(self, total: int) -> tuple[SevereWound, ...]:
        """Every chart entry for ``total`` (two on the rulebook's 13: the GM picks)."""
        return tuple(row for row in self.chart if row.covers(total))
