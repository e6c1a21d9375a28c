"""Encounter state as plain, frozen data (R-COMBAT-2 imagination mode).

Positions are named zones with a GM-set range band between each pair; inside one zone
combatants are at Short range unless engaged in melee. Every value is a dataclass of
plain values so that undo snapshots share structure and campaign files can save it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from operator import itemgetter
from typing import Any, NoReturn, TypeVar

from ..rules import CombatRatings, Cover, RangeBand, Rank, RulesError, Traits
from ..rules.combat import InitiativeRoll
from ..rules.models import fields_setter, once, record

T = TypeVar("T")


def evolve(record: T, **changes: Any) -> T:
    """``dataclasses.replace`` for these plain frozen records, about 5× faster (no
    ``__init__`` to run: they validate nothing), which keeps a forecast of 1,000 fights
    fast. A misspelt field is still an error.
    """
    fields = record.__dict__
    merged = fields | changes
    if len(merged) != len(fields):  # a name it does not have: cheaper than a subset test
        _no_such_field(record, changes)
    cls = type(record)  # in Python 3.11 quicker than ``__class__``, a descriptor
    cached, set_fields = _KEPT[cls]
    if cached:  # most records keep no worked-out values: no loop set up for them
        for name, of in cached:  # worked out from the old fields
            if of is None or not of.isdisjoint(changes):
                merged.pop(name, None)
    new = _new(cls)
    set_fields(new, merged)
    return new


def _no_such_field(record: object, changes: dict[str, Any]) -> NoReturn:
    unknown = sorted(changes.keys() - record.__dict__.keys())
    raise TypeError(f"{type(record).__name__} has no field {unknown}")


_new = object.__new__
_Setter = Callable[[object, dict[str, Any]], None]
_Kept = tuple[tuple[tuple[str, frozenset[str] | None], ...], _Setter]


class _KeptByClass(dict[type, _Kept]):
    """What :func:`evolve` keeps of each record class, worked out on its first copy (a
    ``__missing__``: the look-up is one subscript, no ``get`` call and test).
    """

    def __missing__(self, cls: type) -> _Kept:
        """``cls``'s :class:`once` values (kept in ``__dict__`` beside its fields), each
        with the fields it is worked out from (None: any), which a copy with other ones
        drops; and the setter of its ``__dict__``, which a copy's fields go through more
        cheaply than ``object.__setattr__`` (no look-up by name).
        """
        names = tuple(
            (n, v.of) for k in cls.__mro__ for n, v in vars(k).items() if isinstance(v, once)
        )
        kept = self[cls] = names, fields_setter(cls)
        return kept


_KEPT = _KeptByClass()


_SIDEKICK, _SHORT, _MELEE = Rank.SIDEKICK, RangeBand.SHORT, RangeBand.MELEE
"""Enum members as plain names where a forecast reads them hundreds of times a fight:
Python 3.11 reads a class attribute of an Enum some five times slower, as its metaclass
defines ``__getattr__`` (the engine's other hot modules do the same)."""

MAX_POOL = 99
MAX_DECLARED = 9
"""The most actions a turn may declare (R-ACT-3: each beyond 2 costs −1 on every one)."""
"""The most Luck or Clues anyone holds (R-CHAR-9): what the GM's tools set and files keep."""


@record
class WeaponState:
    """A carried weapon and its charges (R-ATK-3); ``None`` charges: no power track."""

    id: str
    charges: int | None = None
    power: int | None = None  # the most charges it holds
    recharge: bool = True
    fired: bool = False  # fired this turn: no recharge at its end
    stuck: int = 0  # actions (Interact) still needed to free it (card "stuck" effect)
    dropped: bool = False  # dropped or thrown (R-WOUND-5, R-ATK-1 Throw): Interact picks it up


@record
class Countdown:
    """An effect that ends by itself after some of its bearer's turns: a chart row's
    Stunned for 1d6 turns, the GM's "stunned 2 more rounds" (:mod:`..countdowns`)."""

    effect: str  # a §8 condition marked with it ("stunned"), or the GM's own words
    left: int  # its bearer's turns still to start under it (0: the last is under way)
    of: int  # the turns it was set for: none has started yet while ``left == of``


@record
class Combatant:
    id: str
    name: str
    side: str
    rank: Rank
    group: str  # initiative group: same-type Minions share one (R-INIT-1)
    traits: Traits
    ratings: CombatRatings
    zone: str
    weapons: tuple[WeaponState, ...] = ()
    plays_as: Rank | None = None  # a Sidekick's rules for this encounter (R-CHAR-8)
    player: bool = False
    size: int = 0
    cover: Cover = Cover.NONE
    engaged: tuple[str, ...] = ()  # ids it is in melee with
    fear: int = 0
    wounds: int = 0  # Heroes: 0 clean, 1 (−1), 2 (−2), 3 severely wounded
    nonlethal: int = 0
    severe: int = 0  # severe wounds in its lifetime (§7 modifier)
    chart: tuple[str, ...] = ()  # Severe Wound chart rows suffered, oldest first (§7)
    destroyed: tuple[str, ...] = ()  # pieces that no longer work (§7 row 6): weapon id, item
    out: bool = False  # Minion taken out (R-WOUND-2)
    unconscious: bool = False
    prone: bool = False
    lose_actions: int = 0  # actions lost on its next turn (R-WOUND-4, R-ATK-5)
    conditions: tuple[str, ...] = ()  # §8 markers: shaken, panicked, pinned, stunned, …
    luck: int = 0
    clues: int = 0
    entry: str = ""  # the pack entry it was made from
    lose_why: tuple[str, ...] = ()  # the cause of each lost action: "wound" or "dive"
    hidden: bool = False  # not yet revealed to the players (a hidden ambush)
    note: str = ""  # the GM's own words about it: never shown to a player
    countdowns: tuple[Countdown, ...] = ()  # effects that end after some of its turns

    @property
    def rules_rank(self) -> Rank:
        """Hero or Minion rules; a Sidekick must have been decided (R-CHAR-8)."""
        if self.rank is _SIDEKICK:
            if self.plays_as is None:
                raise RulesError(
                    f"{self.name}: decide first whether this Sidekick plays as a Hero or a Minion"
                )
            return self.plays_as
        return self.rank

    @property
    def standing(self) -> bool:
        return not (self.out or self.unconscious)

    def weapon(self, weapon_id: str) -> WeaponState:
        for weapon in self.weapons:
            if weapon.id == weapon_id:
                return weapon
        raise RulesError(f"{self.name} does not carry {weapon_id!r}")


@record
class Turn:
    """The turn in progress (R-ACT-1/3). A group's Minions act on one turn, each with
    its own two actions, so actions spent and lost are kept per combatant.
    """

    actor: str  # a group id (several Minions act together) or a combatant id
    declared: int = 2
    used: tuple[tuple[str, str], ...] = ()  # (combatant id, action)
    lost: tuple[tuple[str, int], ...] = ()  # (combatant id, actions lost this turn)
    wild: tuple[str, ...] = ()  # made a Wild attack: no Dodge, Aim, Standby, Interact
    aim_used: tuple[str, ...] = ()  # spent the Aim re-roll this turn (R-ACT-2)
    restricted: tuple[str, ...] = ()  # Confused and failed: only Run and/or Hide (§8)
    offhand: tuple[str, ...] = ()  # main hand or suppressive fire: the off hand may follow
    main_weapons: tuple[tuple[str, str], ...] = ()  # (id, weapon) of it: the off hand uses another
    reactions: tuple[str, ...] = ()  # Heroes who used their zone of control this turn
    suppressed: tuple[str, ...] = ()  # fired suppressive fire: no other with it (R-ATK-16)
    movers: tuple[str, ...] = ()  # moved to another zone this turn (§7 row 13 after it)
    lost_why: tuple[tuple[str, str], ...] = ()  # (combatant id, what took its actions)

    def records(self) -> Iterator[tuple[str, tuple[str, ...]]]:
        """Each record the turn keeps per combatant (every field but the actor and the
        actions declared, its id first in a pair: ``used`` holds (id, action)), by field
        name, as the ids it names: what a file must name and a combatant leaving takes
        along, whatever record a later rule adds."""
        for name, records in self.__dict__.items():
            if type(records) is tuple and not name.startswith("_"):
                yield name, tuple([r[0] if type(r) is tuple else r for r in records])

    def without(self, cid: str) -> Turn:
        """This turn with no record of ``cid`` (it left the encounter)."""
        changes = {
            name: tuple([r for r, who in zip(getattr(self, name), ids, strict=True) if who != cid])
            for name, ids in self.records()
            if cid in ids
        }
        return evolve(self, **changes) if changes else self

    def used_by(self, cid: str) -> tuple[str, ...]:
        return tuple([action for who, action in self.used if who == cid])  # a list: quicker

    def moved(self, cid: str) -> bool:
        """``cid`` moved this turn (a Move lost to a failed Pinned roll did not)."""
        return cid in self.movers

    def left(self, cid: str) -> int:
        """Actions ``cid`` has left this turn (its last ``lost`` entry counts): plain
        loops, as every action spent asks it."""
        lost = used = 0
        for who, n in self.lost:
            if who == cid:
                lost = n
        for who, _ in self.used:
            if who == cid:
                used += 1
        left = self.declared - lost - used
        return left if left > 0 else 0

    def spent(self, cid: str, action: str) -> Turn:
        """This turn with ``action`` spent by ``cid``, kept once made: a turn nothing was
        lost on is one record for every fight of a forecast (turn_start's ``_fresh_turn``),
        so each turn it leads to is made once, not at every action (~55 a fight).
        """
        key = (cid, action)
        after = self._spent.get(key)
        if after is None:
            after = self._spent[key] = evolve(self, used=(*self.used, key))
        return after

    @once
    def _spent(self) -> dict[tuple[str, str], Turn]:
        """The turns :meth:`spent` made from this one (a copy with other fields drops it)."""
        return {}


DIVE_POLICIES = ("ask", "stay", "light", "medium", "heavy")
"""A side's standing answer for its Minions' dives (R-ATK-5): ask each time, stay put, or
dive into that cover (the best the GM rules is within Short range) when it is better than
theirs; else they stay put. A Hero's player is always asked."""


@record
class Encounter:
    zones: tuple[str, ...]
    bands: tuple[tuple[str, str, RangeBand], ...] = ()
    combatants: tuple[Combatant, ...] = ()
    round: int = 0
    order: tuple[InitiativeRoll, ...] = ()
    turn_index: int = -1
    turn: Turn | None = None
    active: bool = False
    surprise: tuple[str, ...] = ()  # actors still to act in the surprise round (R-INIT-3)
    dive_policy: tuple[tuple[str, str], ...] = ()  # side → its Minions' answer (DIVE_POLICIES)

    # -- lookups ---------------------------------------------------------------------
    def get(self, cid: str) -> Combatant:
        try:  # no test on the way: a forecast looks up some 500 combatants a fight
            return self.combatants[self._where[cid]]
        except KeyError:
            raise RulesError(f"no combatant {cid!r} in this encounter") from None

    @once.depends("combatants")
    def _where(self) -> dict[str, int]:
        """Each combatant's place in ``combatants``: built once for a line-up and handed on
        by :meth:`with_combatants` and :func:`evolve`, as a forecast looks up some 1,400
        combatants a fight. ``evolve`` drops it when it changes the combatants.
        """
        return {c.id: i for i, c in enumerate(self.combatants)}

    def zone_named(self, name: str) -> str:
        """The zone ``name`` means, spelt as it was added: a GM who typed "Ridge" and
        later "ridge " means one zone, so names match whatever their case and spaces.
        """
        wanted = name.strip().casefold()
        for zone in self.zones:
            if zone.casefold() == wanted:
                return zone
        raise RulesError(f"no zone {name.strip()!r} (zones: {', '.join(self.zones) or 'none yet'})")

    def zone_band(self, a: str, b: str) -> RangeBand:
        """The GM-set band between two zones; inside one zone, Short."""
        if a == b:
            return _SHORT
        for x, y, band in self.bands:
            if (x == a and y == b) or (x == b and y == a):  # no sets built: asked per attack
                return band
        raise RulesError(f"no range band set between {a!r} and {b!r}")

    def band(self, a: Combatant, b: Combatant) -> RangeBand:
        """R-COMBAT-2: the band between two combatants, always known."""
        return self.band_from(b.id in a.engaged, a.zone, b.zone)

    def band_from(self, engaged: bool, here: str, there: str) -> RangeBand:
        """:meth:`band` from what it reads of the two: engaged (Melee), or their zones'
        band. The forecast's policy prices places, each standing for the figures there.
        """
        return _MELEE if engaged else self.zone_band(here, there)

    def in_melee_with(self, c: Combatant) -> tuple[Combatant, ...]:
        """The standing opponents ``c`` is engaged with: the fallen no longer fight, though
        the engagement stays on record until someone moves away (R-OTHER-5).
        """
        if not c.engaged:  # ``standing`` inlined below: every melee blow asks (flanking)
            return ()
        return tuple([o for o in map(self.get, c.engaged) if not (o.out or o.unconscious)])

    def fallen_sides(self) -> tuple[str, ...]:
        """Sides with nobody left standing: the fight is decided there, though ending it
        is the GM's call (R-COMBAT-1).
        """
        standing = {c.side for c in self.combatants if c.standing}
        return tuple(s for s in dict.fromkeys(c.side for c in self.combatants) if s not in standing)

    def members(self, actor: str) -> tuple[Combatant, ...]:
        """Combatants acting on ``actor``'s turn (a group, or one combatant)."""
        # ``whole_group`` and ``standing`` inlined: a forecast asks this a few hundred times a fight
        pick = self._groups.get(actor)
        if pick is None:
            return ()
        group = pick(self.combatants)
        for c in group:  # a plain loop: mostly everyone stands, and the group is the answer
            if c.out or c.unconscious:
                return tuple([c for c in group if not (c.out or c.unconscious)])
        return group

    def whole_group(self, actor: str) -> tuple[Combatant, ...]:
        """Everyone in ``actor``'s turn, standing or not, in table order (by the index)."""
        pick = self._groups.get(actor)
        return () if pick is None else pick(self.combatants)

    @once.depends("combatants")
    def _groups(self) -> dict[str, _Pick]:
        """Each initiative group's members picked out of ``combatants`` in one step (a
        combatant keeps its group): kept, like the id index, by :meth:`with_combatants`.
        A forecast picks some 250 groups a fight.
        """
        groups: dict[str, list[int]] = {}
        for i, c in enumerate(self.combatants):
            groups.setdefault(c.group, []).append(i)
        return {group: _picker(places) for group, places in groups.items()}

    # -- edits -----------------------------------------------------------------------
    def with_combatant(self, combatant: Combatant) -> Encounter:
        """The encounter with ``combatant`` in place of the one with its id."""
        return self.with_combatants(combatant)

    def with_combatants(self, *changed: Combatant, **also: Any) -> Encounter:
        """The encounter with each of ``changed`` in place of the one with its id (the last
        of the same id wins): one copy for a whole unit's Fear or dive, or a turn's end.
        ``also``: fields no index is worked out from, set in the same copy (a turn's start
        sets its members, its turn and its place at once). The indexes are kept while
        nobody moves or changes group; nothing to change: ``self``.
        """
        if changed:
            where, combatants = self._where, list(self.combatants)  # a list edited in place
            regrouped = False
            for combatant in changed:
                i = where.get(combatant.id)
                if i is None:
                    raise RulesError(f"no combatant {combatant.id!r} in this encounter")
                if combatants[i].group != combatant.group:
                    regrouped = True
                combatants[i] = combatant
            if regrouped:  # the group index no longer holds: evolve works it out anew
                return evolve(self, combatants=tuple(combatants), **also)
            also["combatants"] = tuple(combatants)
        elif not also:
            return self
        fields = self.__dict__ | also
        if len(fields) != len(self.__dict__):
            _no_such_field(self, also)
        new = _new(Encounter)  # evolve without its checks: the indexes are handed on
        _set_fields(new, fields)
        return new

    def with_turn(self, turn: Turn | None) -> Encounter:
        """The encounter with ``turn`` in place: every action spent, Aim or Wild attack
        marks the turn, a few dozen times a fight in a forecast."""
        return self.with_combatants(turn=turn)

    def with_band(self, a: str, b: str, band: RangeBand) -> Encounter:
        a, b = self.zone_named(a), self.zone_named(b)
        if a == b:
            raise RulesError("a zone is at Short range from itself; pick two zones")
        kept = tuple(t for t in self.bands if {t[0], t[1]} != {a, b})
        return evolve(self, bands=(*kept, (a, b, band)))


_Pick = Callable[[tuple[Combatant, ...]], tuple[Combatant, ...]]


def _picker(places: list[int]) -> _Pick:
    """What picks the combatants at ``places`` (in order, at least one) out of a line-up,
    as a tuple: a slice when they stand together, as a group's members are added."""
    first, last = places[0], places[-1]
    if last - first + 1 == len(places):
        return itemgetter(slice(first, last + 1))
    return itemgetter(*places)  # two or more places: a tuple


_set_fields = fields_setter(Encounter)
