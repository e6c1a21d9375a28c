"""Characters as plain, frozen data: ranks, traits, derived traits, combat ratings.

Everything here is a value object so that campaign state can round-trip through TOML;
nothing holds behaviour beyond the arithmetic the rulebook defines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from enum import Enum, IntEnum
from typing import Any, Generic, TypeVar, dataclass_transform, overload

from .errors import RulesError

_V = TypeVar("_V")


class once(Generic[_V]):
    """``functools.cached_property`` without its lock (Python 3.11 takes one on every
    first read): a frozen record's value worked out on first use and kept in its
    ``__dict__``. The engine reads a few of these per die rolled in a forecast. A copy
    made with other fields (``evolve``) works it out again, or only when one of the
    fields it is ``of`` changed (:meth:`depends`).
    """

    def __init__(self, func: Callable[[Any], _V], of: frozenset[str] | None = None) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__
        self.of = of

    @classmethod
    def depends(cls, *fields: str) -> Callable[[Callable[[Any], _V]], once[_V]]:
        """``once`` for a value worked out from ``fields`` alone."""
        return lambda func: cls(func, frozenset(fields))

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> once[_V]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _V: ...
    def __get__(self, instance: object | None, owner: type | None = None) -> _V | once[_V]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


def without_hash(value: object) -> dict[str, object]:
    """``__getstate__`` for a frozen record that keeps its hash (``_hash``, a :class:`once`):
    pickled without it, as a str hashes otherwise in another process (a forecast's
    worker), where equal records must hash alike too.
    """
    return {name: kept for name, kept in value.__dict__.items() if name != "_hash"}


_R = TypeVar("_R", bound=type)


def fields_setter(cls: type) -> Callable[[object, dict[str, Any]], None]:
    """The ``__set__`` of the ``__dict__`` descriptor an instance of ``cls`` keeps its
    fields behind: a record's fields go in through it (:func:`record`, ``evolve``) more
    cheaply than through ``object.__setattr__``, which looks it up by name each time.
    """
    for k in cls.__mro__:
        where = vars(k).get("__dict__")
        if where is not None and hasattr(where, "__set__"):
            return where.__set__  # type: ignore[no-any-return]
    raise TypeError(f"{cls.__name__} keeps no __dict__")


@dataclass_transform(frozen_default=True)
def record(cls: _R) -> _R:
    """``@dataclass(frozen=True)`` for the records a forecast makes thousands of per fight
    (rolls, plans, outcomes): the same class, but ``__init__`` fills ``__dict__`` in one
    step instead of one ``object.__setattr__`` per field, about 3× faster for a dozen
    fields. Nothing else changes (a class with ``__post_init__`` keeps the dataclass one).
    """
    made = dataclass(frozen=True)(cls)
    if hasattr(made, "__post_init__"):
        return made
    defaults: dict[str, Any] = {"_set": fields_setter(made)}
    params, values = [], []
    for f in fields(made):
        if f.default_factory is not MISSING or not f.init or f.kw_only:
            return made
        if f.default is MISSING:
            params.append(f.name)
        else:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        values.append(f"{f.name!r}: {f.name}")
    source = f"def __init__(self, {', '.join(params)}):\n"
    source += f"    _set(self, {{{', '.join(values)}}})\n"
    exec(source, defaults)  # as dataclass writes its own __init__
    init = defaults["__init__"]
    init.__qualname__ = f"{made.__qualname__}.__init__"
    made.__init__ = init
    return made


MAX_FREE_REROLLS = 10
"""Free re-rolls granted for one roll (a Talent, an Advantage, Aim): the book names a few;
the exact odds grow with the count, so the engine refuses more than this (R-TASK-6). It
lives with the models, not the re-roll code, so the command line reads it without
loading the dice and odds code at start-up.
"""


class Rank(Enum):
    """R-CHAR-1. Sidekicks are played as one of the other two (R-CHAR-8)."""

    HERO = "hero"
    SIDEKICK = "sidekick"
    MINION = "minion"


class Trait(Enum):
    """R-CHAR-2: the seven primary traits, each 1–4."""

    STRENGTH = "strength"
    AGILITY = "agility"
    KNOWLEDGE = "knowledge"
    SAVVY = "savvy"
    SENSES = "senses"
    CHARM = "charm"
    LUCK = "luck"


class Derived(Enum):
    """R-CHAR-3: traits computed from the primary ones."""

    HEALTH = "health"
    STAMINA = "stamina"
    MORALE = "morale"
    DODGE = "dodge"
    INITIATIVE = "initiative"
    ATHLETICS = "athletics"
    LEARNING = "learning"


class Rating(Enum):
    """R-CHAR-4: the Shooting and Fighting ratings printed on a sheet."""

    PISTOLS = "pistols"
    RIFLES = "rifles"
    VEHICLE = "vehicle"
    WILD = "wild"
    POWER = "power"
    AGILE = "agile"


class Cover(IntEnum):
    """R-ATK-6: abstract cover adds its value to Defense."""

    NONE = 0
    LIGHT = 1
    MEDIUM = 2
    HEAVY = 3

    @property
    def label(self) -> str:
        return self._name_.lower()  # _name_: a plain attribute, quicker than ``name``


class RangeBand(IntEnum):
    """R-COMBAT-2: the abstract range bands of imagination mode, nearest first."""

    MELEE = 0
    SHORT = 1
    MEDIUM = 2
    LONG = 3
    EXTRA_LONG = 4
    BEYOND = 5

    @property
    def label(self) -> str:
        return self._name_.lower().replace("_", "-")  # _name_: quicker than ``name``


class Difficulty(IntEnum):
    """R-TASK-1: named difficulties; the GM may go beyond heavy with a plain number."""

    NONE = 0
    LIGHT = 1
    MEDIUM = 2
    HEAVY = 3


TRAIT_MIN, TRAIT_MAX = 1, 4
MAX_RATING = 99
"""The highest combat rating a sheet may print (the shipped packs reach 20): a bound, so
a pack's or a file's 10^12 is refused where it is written, not mid-roll."""

#: Aliases a sheet or pack may use for a trait (the sheet prints "Appearance" for Charm).
TRAIT_ALIASES: dict[str, Trait] = {"appearance": Trait.CHARM}


def parse_trait(name: str) -> Trait | Derived | Rating:
    """Look up any trait, derived trait or rating by (case-insensitive) name."""
    key = name.strip().lower()
    if key in TRAIT_ALIASES:
        return TRAIT_ALIASES[key]
    for enum in (Trait, Derived, Rating):
        try:
            return enum(key)
        except ValueError:
            continue
    raise RulesError(f"unknown trait {name!r}")


def _check_whole(obj: object, names: type[Enum], low: int, high: int | None, what: str) -> None:
    """Each field named by ``names`` must be a whole number (not a bool) in range."""
    for name in names:
        value = getattr(obj, name.value)
        if type(value) is not int or value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"≥ {low}"
            raise RulesError(f"{name.value}{what} must be a whole number {bound}, got {value!r}")


@dataclass(frozen=True)
class Traits:
    """The seven primary traits (R-CHAR-2) and the derived ones (R-CHAR-3).

    ``overrides`` lets a sheet print a derived value that differs from the formula (a
    pack may do so deliberately); the formula is the default.
    """

    strength: int = 2
    agility: int = 2
    knowledge: int = 2
    savvy: int = 2
    senses: int = 2
    charm: int = 2
    luck: int = 2
    overrides: tuple[tuple[Derived, int], ...] = field(default=())

    def __post_init__(self) -> None:
        _check_whole(self, Trait, TRAIT_MIN, TRAIT_MAX, "")

    def __hash__(self) -> int:
        return self._hash

    @once  # frozen: the rate of fire and damage caches look a character up by it
    def _hash(self) -> int:  # as the dataclass's own works it out on every lookup
        s = self
        return hash(
            (s.strength, s.agility, s.knowledge, s.savvy, s.senses, s.charm, s.luck, s.overrides)
        )

    __getstate__ = without_hash

    def __getitem__(self, key: Trait | Derived) -> int:
        # by the name (``_value_``, a plain attribute): an Enum hashes in Python, a str
        # keeps its hash, and an attack reads a few traits
        return self._values[key._value_]

    def derived(self, which: Derived) -> int:
        """R-CHAR-3. Initiative is not clamped to 8 (see the Interpretation there)."""
        return self._table[which]

    @once
    def _table(self) -> dict[Trait | Derived, int]:
        """Every primary and derived value, computed once (traits never change)."""
        s = self
        table: dict[Trait | Derived, int] = {t: getattr(s, t.value) for t in Trait}
        table.update(
            {
                Derived.HEALTH: s.strength * 2,
                Derived.STAMINA: s.strength * 2,
                Derived.MORALE: s.savvy + s.luck,
                Derived.DODGE: s.senses + s.agility,
                Derived.INITIATIVE: s.senses + s.savvy + s.agility,
                Derived.ATHLETICS: s.strength + s.agility,
                Derived.LEARNING: s.knowledge + s.savvy,
            }
        )
        table.update(dict(self.overrides))
        return table

    def as_values(self) -> dict[str, int]:
        """Every primary and derived trait by name, for expression evaluation (a copy)."""
        return dict(self._values)

    @once
    def _values(self) -> dict[str, int]:
        return {key.value: value for key, value in self._table.items()}


@dataclass(frozen=True)
class CombatRatings:
    """R-CHAR-4: the sheet's Shooting and Fighting ratings (skills already included)."""

    pistols: int = 0
    rifles: int = 0
    vehicle: int = 0
    wild: int = 0
    power: int = 0
    agile: int = 0

    def __post_init__(self) -> None:
        _check_whole(self, Rating, 0, MAX_RATING, " rating")

    def __getitem__(self, rating: Rating) -> int:
        return getattr(self, rating._value_)  # quicker than ``value`` (a descriptor)
