"""Characters made in the app: a Hero, Sidekick or Minion the campaign keeps itself,
built by the book's sheet (R-CHAR-1..7) and checked by the very code that checks a
pack's entry (:func:`hsm_tui.packs.schema.build_character`), so a character the builder
accepts is one ``hsm content check`` passes once exported.

Readings where the book gives no number (README "How the rules are read"):

- **Combat ratings** (R-CHAR-4) follow the shipped pack's convention unless set by hand:
  Pistols, Rifles and Vehicle = Agility + Senses + that skill; Wild = Strength + Agility;
  Power = Strength × 2; Agile = Agility × 2.
- **Encumbrance** defaults to 6 + Strength × 2 (the pack's convention); Storage Space is
  the GM's number (where the character lives).
- **A creation budget** of trait points is the GM's choice (none by default): the sum of
  the seven primary traits may not pass it when a character is made; growing a character
  later is not held to it (experience, not creation).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from typing import Any

import tomli_w

from ..packs.fields import EntryReader, did_you_mean
from ..packs.model import Catalog, Character, EquipmentItem, Source
from ..packs.problems import Code, Problem
from ..packs.schema import CHARACTER_KINDS, build_character
from ..packs.toml_lines import LineIndex
from ..rules import Derived, Rating, RulesError, Trait, Traits
from ..rules.models import TRAIT_MAX, TRAIT_MIN

GM = "gm"
KINDS = tuple(CHARACTER_KINDS)
"""What the builder makes: hero, sidekick, minion (the pack's kinds)."""
HOME = "campaign"
"""The pack name a made character's source gives: the campaign keeps it, not a pack."""

BOOK_SKILLS = (
    "alien-civilizations", "alien-cultures", "appraisal", "biology-anatomy", "climbing",
    "diplomacy", "driving", "geology", "history", "languages-symbology", "lock-picking",
    "observation", "pistols", "rifles", "stealth", "survival", "vehicle", "xeno-linguistics",
)  # fmt: skip
"""The rulebook's Skills section (and the shooting skills its ratings use), as pack keys."""

FORMULAS = {
    Derived.HEALTH: "Strength × 2",
    Derived.STAMINA: "Strength × 2",
    Derived.MORALE: "Savvy + Luck",
    Derived.DODGE: "Senses + Agility",
    Derived.INITIATIVE: "Senses + Savvy + Agility",
    Derived.ATHLETICS: "Strength + Agility",
    Derived.LEARNING: "Knowledge + Savvy",
}
"""R-CHAR-3 as the sheet prints it (the values are :class:`Traits`')."""

MAX_TEXT = 400
"""The longest name, career, motivation, Talent, Advantage or item a builder field takes."""


@dataclass(frozen=True)
class MadeCharacter:
    """A character as the campaign keeps it: the sheet's fields, the pack entry's shape.
    ``traits`` in the book's order (Strength, Agility, Knowledge, Savvy, Senses, Charm,
    Luck); ``ratings`` only those set by hand (the rest follow :func:`ratings_of`).
    """

    kind: str
    id: str
    name: str
    traits: tuple[int, ...] = (2, 2, 2, 2, 2, 2, 2)
    player: str = ""
    career: str = ""
    motivation: str = ""
    skills: tuple[tuple[str, int], ...] = ()
    talents: tuple[str, ...] = ()
    advantages: tuple[str, ...] = ()
    drawbacks: tuple[str, ...] = ()
    equipment: tuple[EquipmentItem, ...] = ()
    weapons: tuple[str, ...] = ()
    ratings: tuple[tuple[str, int], ...] = ()
    encumbrance: int | None = None
    storage: int | None = None
    size: int = 0
    text: str = ""

    def trait(self, which: Trait) -> int:
        return self.traits[list(Trait).index(which)]


@dataclass(frozen=True)
class MakeCharacter:
    """Keep ``made`` in the campaign: a new character (its id not taken), or, with
    ``grows``, a change to one the campaign or a pack has (a Hero grown between
    adventures: a pack's Hero grown becomes the campaign's own, its id kept); ``note``
    says why (the XP the GM awarded)."""

    made: MadeCharacter
    note: str = ""
    grows: bool = False
    issuer: str = GM


@dataclass(frozen=True)
class SetTraitBudget:
    """The trait points a new character may spend (0: no budget, the book gives none)."""

    points: int
    issuer: str = GM


MakingCommand = MakeCharacter | SetTraitBudget
BUDGETS = (0, *range(len(Trait) * TRAIT_MIN, len(Trait) * TRAIT_MAX + 1))
"""Every trait budget a campaign may set: none, or from all 1s to all 4s."""


def kebab(name: str) -> str:
    """An id made from a name, as pack ids are written (``Ada Quill`` → ``ada-quill``)."""
    words = re.findall(r"[a-z0-9]+", name.lower())
    return "-".join(words).lstrip("0123456789-") or "character"


def free_id(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3`` … the first not ``taken``."""
    n = 1
    found = wanted
    while found in taken:
        n += 1
        found = f"{wanted}-{n}"
    return found


def ratings_of(made: MadeCharacter) -> dict[str, int]:
    """R-CHAR-4 by the convention in the module's docstring, then those set by hand."""
    t = dict(zip((x.value for x in Trait), made.traits, strict=False))
    skill = dict(made.skills)
    shooting = t["agility"] + t["senses"]
    return {
        "pistols": shooting + skill.get("pistols", 0),
        "rifles": shooting + skill.get("rifles", 0),
        "vehicle": shooting + skill.get("vehicle", 0),
        "wild": t["strength"] + t["agility"],
        "power": t["strength"] * 2,
        "agile": t["agility"] * 2,
    } | dict(made.ratings)


def encumbrance_of(made: MadeCharacter) -> int:
    """The Encumbrance number: the sheet's own, else 6 + Strength × 2."""
    if made.encumbrance is not None:
        return made.encumbrance
    return 6 + made.trait(Trait.STRENGTH) * 2


def carried(made: MadeCharacter) -> int:
    return sum(item.enc for item in made.equipment)


def encumbered(made: MadeCharacter) -> bool:
    """R-CHAR-7: carrying more than the Encumbrance number."""
    return carried(made) > encumbrance_of(made)


def points_left(made: MadeCharacter, budget: int) -> int | None:
    """Trait points left of ``budget`` (None: no budget)."""
    return budget - sum(made.traits) if budget else None


def derived_lines(made: MadeCharacter) -> list[str]:
    """Each derived trait as the book writes it: "Dodge = Senses + Agility = 6"."""
    traits = _traits(made)
    return [f"{d.value.title()} = {FORMULAS[d]} = {traits.derived(d)}" for d in Derived]


def _traits(made: MadeCharacter) -> Traits:
    bounded = (min(max(n, TRAIT_MIN), TRAIT_MAX) for n in made.traits)
    return Traits(*bounded)  # bounds are the check's to report; this only shows


def entry_table(made: MadeCharacter) -> dict[str, Any]:
    """``made`` as its pack entry (``[[hero]]``, ``[[sidekick]]``, ``[[minion]]``): what
    an export writes and what the pack's own check reads."""
    fields = CHARACTER_KINDS[made.kind][1]
    table: dict[str, Any] = {
        "id": made.id,
        "name": made.name,
        "player": made.player,
        "career": made.career,
        "motivation": made.motivation,
        "traits": dict(zip((t.value for t in Trait), made.traits, strict=False)),
        "skills": dict(made.skills),
        "ratings": ratings_of(made),
        "talents": list(made.talents),
        "advantages": list(made.advantages),
        "drawbacks": list(made.drawbacks),
        "equipment": [_item(i) for i in made.equipment],
        "encumbrance": encumbrance_of(made) if made.equipment or made.encumbrance else None,
        "storage": made.storage,
        "weapons": list(made.weapons),
        "size": made.size,
        "text": made.text,
    }
    return {k: v for k, v in table.items() if k in fields and v not in (None, "", [], {}, 0)}


def _item(item: EquipmentItem) -> dict[str, Any]:
    where = {"location": item.location} if item.location else {}
    return {"name": item.name, "enc": item.enc} | where


def check(made: MadeCharacter, catalog: Catalog) -> tuple[Character | None, list[Problem]]:
    """The character as the packs' own check reads it, and every problem it finds (the
    key at fault in each), its weapons looked up in the loaded packs."""
    if made.kind not in KINDS:
        raise RulesError(f"no kind {made.kind!r}: make a hero, sidekick or minion")
    table = entry_table(made)
    text = tomli_w.dumps({made.kind: [table]})
    problems: list[Problem] = []
    reader = EntryReader(HOME, LineIndex(text), made.kind, (made.kind, 0), table, problems)
    character = build_character(reader, Source(HOME, HOME, 1))
    if len(made.traits) != len(Trait):
        reader.report(Code.VALUE, f"needs {len(Trait)} primary traits", ("traits",))
    for key, value in _texts(made):
        if len(value) > MAX_TEXT:
            reader.report(Code.RANGE, f"at most {MAX_TEXT} characters, got {len(value)}", key)
    for i, weapon in enumerate(made.weapons):
        if weapon not in catalog.weapons:
            message = f"no weapon {weapon!r}{did_you_mean(weapon, catalog.weapons)}"
            reader.report(Code.REFERENCE, message, ("weapons", i))
    if reader.failed:
        return None, problems
    return character, problems


def _texts(made: MadeCharacter) -> Iterable[tuple[tuple[str | int, ...], str]]:
    """Each one-line text of the sheet, with its key."""
    for key in ("name", "player", "career", "motivation"):
        yield (key,), getattr(made, key)
    for key in ("talents", "advantages", "drawbacks"):
        for i, value in enumerate(getattr(made, key)):
            yield (key, i), value
    for i, item in enumerate(made.equipment):
        yield ("equipment", i, "name"), item.name
        yield ("equipment", i, "location"), item.location


FILES = {"hero": "heroes.toml", "sidekick": "sidekicks.toml", "minion": "minions.toml"}
"""The pack file each kind's entries go in."""


def pack_files(
    made: Iterable[MadeCharacter], catalog: Catalog, pack: str, name: str
) -> dict[str, str]:
    """A pack of ``made`` (file name → TOML text), which ``hsm content check`` passes
    beside the packs its weapons come from (named in ``requires``, each reference as
    ``pack:weapon``)."""
    tables: dict[str, list[dict[str, Any]]] = {}
    needs: set[str] = set()
    for m in made:
        table = entry_table(m)
        homes = [catalog.weapons[w].source.pack for w in m.weapons]
        table["weapons"] = [f"{home}:{w}" for home, w in zip(homes, m.weapons, strict=True)]
        needs.update(homes)
        tables.setdefault(m.kind, []).append({k: v for k, v in table.items() if v != []})
    info = {"id": pack, "name": name, "version": "1.0.0", "requires": sorted(needs - {pack})}
    files = {"pack.toml": tomli_w.dumps({"pack": info})}
    for kind, entries in tables.items():
        files[FILES[kind]] = tomli_w.dumps({kind: entries})
    return files


def from_entry(entry: Character, kind: str) -> MadeCharacter:
    """A pack's entry as a made character, to copy and change (or import) in the builder."""
    t = entry.traits
    derived = ratings_of(MadeCharacter(kind, entry.id, entry.name, _values(t), skills=entry.skills))
    ratings = {r.value: entry.ratings[r] for r in Rating}
    by_hand = tuple((r, n) for r, n in ratings.items() if derived[r] != n)
    same = {
        f.name: getattr(entry, f.name)
        for f in fields(MadeCharacter)
        if f.name not in ("kind", "traits", "ratings") and hasattr(entry, f.name)
    }  # the pack entry's fields of the same name and meaning
    return MadeCharacter(kind=kind, traits=_values(t), ratings=by_hand, **same)


def _values(traits: Traits) -> tuple[int, ...]:
    return tuple(traits[t] for t in Trait)


def with_made(catalog: Catalog, made: Iterable[MadeCharacter]) -> Catalog:
    """The loaded packs and the campaign's own characters, one catalog for the engine
    (a made character that no longer checks, after a pack changed, is left out: the
    campaign's check names it)."""
    kinds: dict[str, dict[str, Character]] = {}
    for m in made:
        character, _problems = check(m, catalog)
        if character is not None:
            kinds.setdefault(m.kind, {})[m.id] = character
    if not kinds:
        return catalog
    return replace(
        catalog,
        heroes=catalog.heroes | kinds.get("hero", {}),
        sidekicks=catalog.sidekicks | kinds.get("sidekick", {}),
        minions=catalog.minions | kinds.get("minion", {}),
    )


def apply(
    made: tuple[MadeCharacter, ...], budget: int, cmd: MakingCommand, catalog: Catalog
) -> tuple[tuple[MadeCharacter, ...], int, str, tuple[str, ...]]:
    """The campaign's made characters and trait budget with ``cmd`` applied, its log
    title and lines; else RulesError. ``catalog``: the loaded packs and ``made``.
    """
    if isinstance(cmd, SetTraitBudget):
        if cmd.points not in BUDGETS:
            raise RulesError(f"a budget of 0 (none) or {BUDGETS[1]} to {BUDGETS[-1]} trait points")
        title = f"Trait budget: {cmd.points} points" if cmd.points else "No trait budget"
        return made, cmd.points, title, ()
    new = cmd.made
    _character, problems = check(new, catalog)
    errors = [p for p in problems if p.is_error]
    if errors:
        raise RulesError(_said(errors[0]))
    if len(cmd.note) > MAX_TEXT:
        raise RulesError(f"a note of at most {MAX_TEXT} characters")
    mine = next((m for m in made if (m.kind, m.id) == (new.kind, new.id)), None)
    listed = catalog.kind(new.kind).get(new.id)
    old = mine or (from_entry(listed, new.kind) if listed is not None else None)  # type: ignore[arg-type]
    note = f" ({cmd.note})" if cmd.note else ""
    if not cmd.grows:
        if old is not None:
            raise RulesError(f"the id {new.id!r} is taken by {old.name}: pick another")
        left = points_left(new, budget)
        if left is not None and left < 0:
            raise RulesError(f"{sum(new.traits)} trait points: the budget is {budget}")
        return (*made, new), budget, f"Made: {new.name} ({new.kind}){note}", ()
    if old is None:
        raise RulesError(f"no {new.kind} {new.id!r} to grow")
    changes = tuple(changed(old, new))
    if not changes:
        raise RulesError(f"{new.name}: nothing changed")
    kept = tuple(new if m is mine else m for m in made) if mine else (*made, new)
    return kept, budget, f"{old.name} grows{note}", changes


def _said(problem: Problem) -> str:
    """A problem as the builder's refusal reads it (the key, then what is wrong)."""
    return problem.message.split(": ", 1)[1] if ": " in problem.message else problem.message


def changed(old: MadeCharacter, new: MadeCharacter) -> Iterable[str]:
    """What a change did, a line per field: "Strength 2 → 3", "+ Talent Sharpshooter"."""
    for trait, a, b in zip(Trait, old.traits, new.traits, strict=False):
        if a != b:
            yield f"{trait.value.title()} {a} → {b}"
    yield from _pairs(dict(old.skills), dict(new.skills))
    yield from _pairs(dict(old.ratings), dict(new.ratings))
    for name in ("talents", "advantages", "drawbacks", "weapons"):
        label = name[:-1].title()
        yield from (f"+ {label} {x}" for x in getattr(new, name) if x not in getattr(old, name))
        yield from (f"− {label} {x}" for x in getattr(old, name) if x not in getattr(new, name))
    yield from (f"+ carries {i.name}" for i in new.equipment if i not in old.equipment)
    yield from (f"− carries {i.name}" for i in old.equipment if i not in new.equipment)
    for f in fields(MadeCharacter):
        if f.name in _LISTED:
            continue
        a, b = getattr(old, f.name), getattr(new, f.name)
        if a != b:
            yield f"{f.name.title()}: {_shown(a)} → {_shown(b)}"


_LISTED = frozenset(
    {"traits", "skills", "ratings", "talents", "advantages", "drawbacks", "weapons", "equipment"}
)
"""The fields :func:`changed` tells item by item."""


def _pairs(old: dict[str, int], new: dict[str, int]) -> Iterable[str]:
    """A skill's or a rating's number, old → new (— where there is none)."""
    for key in dict.fromkeys([*old, *new]):
        a, b = old.get(key), new.get(key)
        if a != b:
            yield f"{key.replace('-', ' ').title()} {_shown(a)} → {_shown(b)}"


def _shown(value: object) -> str:
    return "—" if value in (None, "") else str(value)
