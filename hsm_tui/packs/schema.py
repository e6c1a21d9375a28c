"""The pack format, kind by kind (documented for authors in ``content/README.md``)."""

from __future__ import annotations

import re
from typing import Any

from ..rules import CombatRatings, Derived, RangeBand, Rank, Rating, Trait, Traits
from ..rules.effects import (
    CHART_CONDITIONS,
    CONDITION_TARGETS,
    EFFECT_CONDITIONS,
    FEAR_TARGETS,
    Effect,
    EffectKind,
    Trigger,
)
from ..rules.models import MAX_RATING, TRAIT_ALIASES, TRAIT_MAX, TRAIT_MIN
from .fields import (
    EntryReader,
    Field,
    FieldError,
    Warn,
    boolean,
    choice,
    count_or_dice,
    dice,
    kebab_id,
    list_of,
    raise_all,
    reference,
    table,
    text,
    type_name,
    whole,
)
from .model import Character, EquipmentItem, SevereWound, Source, Suppression, Weapon
from .problems import Code, Severity

#: File name → the array-of-tables name it holds.
ENTRY_FILES = {
    "weapons.toml": "weapon",
    "minions.toml": "minion",
    "sidekicks.toml": "sidekick",
    "heroes.toml": "hero",
    "charts.toml": "severe_wound",
}

WEAPON_KINDS = ("ranged", "melee", "thrown")
RANGES = tuple(b.label for b in RangeBand if b is not RangeBand.BEYOND)

# -- effects -------------------------------------------------------------------------
_AMOUNT = {"value": whole(), "dice": dice}
_EFFECT_PARAMS: dict[EffectKind, dict[str, Any]] = {
    EffectKind.EXTRA_SHOTS: {"count": whole(1), "dice": dice},
    EffectKind.REROLL_LOWEST: {},
    EffectKind.TARGET_DEFENSE: {"value": whole()},
    EffectKind.TN: {"value": whole()},
    EffectKind.DAMAGE: _AMOUNT,
    EffectKind.ONE_HIT_COUNTS: {},
    EffectKind.RECHARGE: {"value": whole(1)},
    EffectKind.EXTRA_CHARGE: {"value": whole(1)},
    EffectKind.FEAR: {**_AMOUNT, "targets": choice(FEAR_TARGETS)},
    EffectKind.CONDITION: {
        "condition": choice(EFFECT_CONDITIONS),
        "target": choice(CONDITION_TARGETS),
        "value": whole(1),  # Dazed (n)
    },
    EffectKind.STUCK: {"actions": whole(1)},
    EffectKind.CALLED_SHOT: {},
    EffectKind.NARRATIVE: {},
}
#: Each kind needs one of these parameters (kinds not listed need none).
_EFFECT_NEEDS: dict[EffectKind, tuple[str, ...]] = {
    EffectKind.EXTRA_SHOTS: ("count", "dice"),
    EffectKind.TARGET_DEFENSE: ("value",),
    EffectKind.TN: ("value",),
    EffectKind.DAMAGE: ("value", "dice"),
    EffectKind.FEAR: ("value", "dice"),
    EffectKind.CONDITION: ("condition",),
    EffectKind.NARRATIVE: ("text",),
}


def effect(value: Any, warn: Warn) -> Effect:
    """One effect table: ``{ effect = "tn", value = 1, text = "…" }``."""
    if not isinstance(value, dict):
        raise FieldError(
            Code.TYPE,
            f'expected a table such as {{ effect = "tn", value = 1 }}, got {type_name(value)}',
        )
    if "effect" not in value:
        raise FieldError(Code.MISSING_KEY, "an effect needs effect = <kind>")
    try:
        kind = EffectKind(choice(k.value for k in EffectKind)(value["effect"], warn))
    except FieldError as exc:
        raise FieldError(exc.code, exc.message, ("effect",)) from None
    params = table({"effect": text, "text": text, **_EFFECT_PARAMS[kind]})(value, warn)
    needs = _EFFECT_NEEDS.get(kind, ())
    if needs and not any(k in params for k in needs):
        raise FieldError(Code.MISSING_KEY, f"effect {kind.value!r} needs {' or '.join(needs)}")
    number = params.get("count", params.get("value", params.get("actions")))
    if kind in (EffectKind.RECHARGE, EffectKind.EXTRA_CHARGE, EffectKind.STUCK) and number is None:
        number = 1
    return Effect(
        kind,
        value=number,
        dice=params.get("dice"),
        condition=params.get("condition"),
        targets=params.get("targets", params.get("target")),
        text=params.get("text", ""),
    )


def effects(value: Any, warn: Warn) -> tuple[Effect, ...]:
    """An effect table, or a list of them."""
    if isinstance(value, list):
        return list_of(effect)(value, warn)
    return (effect(value, warn),)


def suppression(value: Any, _warn: Warn) -> Suppression:
    if not isinstance(value, str):
        raise FieldError(Code.TYPE, f'expected text such as "10/d4", got {type_name(value)}')
    match = re.fullmatch(r"\s*(\d+)\s*/\s*[dD](\d+)\s*", value)
    if not match:
        raise FieldError(Code.VALUE, f'expected "N/dM" such as "10/d4", got {value!r}')
    n, sides = int(match[1]), int(match[2])
    if n < 1 or sides < 2:
        raise FieldError(
            Code.RANGE, f"needs at least 1 charge and a die of 2+ sides, got {value!r}"
        )
    return Suppression(n, sides)


# -- weapons -------------------------------------------------------------------------
WEAPON_FIELDS: dict[str, Field] = {
    "id": Field(kebab_id, required=True),
    "name": Field(text, required=True),
    "kind": Field(choice(WEAPON_KINDS), required=True),
    "skill": Field(choice(r.value for r in Rating), required=True),
    "attacks": Field(count_or_dice),
    "damage": Field(dice, required=True),
    "damage_options": Field(list_of(dice), default=()),
    "thrown_damage": Field(dice),
    "range": Field(choice(RANGES), required=True),
    "power": Field(whole(1)),
    "recharge": Field(boolean, default=True),
    "charge_per_shot": Field(whole(0), default=1),
    "suppression": Field(suppression),
    "nonlethal": Field(boolean, default=False),
    "two_handed": Field(boolean, default=False),
    "area": Field(choice(["cone", "blast"])),
    "reload": Field(boolean, default=False),
    "text": Field(text, default=""),
    "special": Field(effects, default=()),
    **{t.value: Field(effects, default=()) for t in Trigger},
}


#: Keys turned into something other than a same-named Weapon field.
_WEAPON_SPECIAL_KEYS = ("skill", "range", "special", *(t.value for t in Trigger))


def build_weapon(reader: EntryReader, source: Source) -> Weapon | None:
    v = reader.read(WEAPON_FIELDS)
    if v["kind"] in ("ranged", "thrown") and "attacks" not in reader.data:
        reader.report(
            Code.MISSING_KEY, f"a {v['kind']} weapon needs attacks (its rate of fire)", ("attacks",)
        )
    if v["special"] and (v["special4"] or v["special5"]):
        reader.report(
            Code.VALUE, "use special (4 and 5) or special4/special5, not both", ("special",)
        )
    if reader.failed:
        return None
    triggers = {t: v[t.value] for t in Trigger}
    if v["special"]:
        triggers[Trigger.SPECIAL_4] = triggers[Trigger.SPECIAL_5] = v["special"]
    plain = {k: v[k] for k in WEAPON_FIELDS if k not in _WEAPON_SPECIAL_KEYS}
    return Weapon(
        **plain,
        skill=Rating(v["skill"]),
        range=RangeBand[v["range"].upper().replace("-", "_")],
        source=source,
        effects=tuple((t, e) for t, e in triggers.items() if e),
    )


# -- characters ----------------------------------------------------------------------
_TRAIT = whole(TRAIT_MIN, TRAIT_MAX)
TRAITS = table(
    {t.value: _TRAIT for t in Trait},
    [t.value for t in Trait],
    {a: t.value for a, t in TRAIT_ALIASES.items()},
)
RATINGS = table({r.value: whole(0, MAX_RATING) for r in Rating})
DERIVED = table({d.value: whole(0) for d in Derived})
EQUIPMENT = table({"name": text, "enc": whole(0), "location": text}, ["name"])


def skills(value: Any, warn: Warn) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, dict):
        raise FieldError(
            Code.TYPE, f"expected a table such as {{ stealth = 2 }}, got {type_name(value)}"
        )
    out, errors = [], []
    for name, level in value.items():
        try:
            out.append((name, whole(0, 6)(level, warn)))
        except FieldError as exc:
            errors.append(FieldError(exc.code, exc.message, (name,)))
    raise_all(errors, warn)
    return tuple(out)


CHARACTER_FIELDS: dict[str, Field] = {
    "id": Field(kebab_id, required=True),
    "name": Field(text, required=True),
    "traits": Field(TRAITS, required=True),
    "ratings": Field(RATINGS, default={}),
    "derived": Field(DERIVED, default={}),
    "weapons": Field(list_of(reference), default=()),
    "size": Field(whole(-5, 5), default=0),
    "text": Field(text, default=""),
    "tags": Field(list_of(text), default=()),
}
SIDEKICK_FIELDS: dict[str, Field] = {
    **CHARACTER_FIELDS,
    "skills": Field(skills, default=()),
    "talents": Field(list_of(text), default=()),
    "advantages": Field(list_of(text), default=()),
    "drawbacks": Field(list_of(text), default=()),
    "equipment": Field(list_of(EQUIPMENT), default=()),
    "encumbrance": Field(whole(0)),
    "storage": Field(whole(0)),
}
HERO_FIELDS: dict[str, Field] = {
    **SIDEKICK_FIELDS,
    "player": Field(text, default=""),
    "career": Field(text, default=""),
    "motivation": Field(text, default=""),
}
CHARACTER_KINDS = {
    "minion": (Rank.MINION, CHARACTER_FIELDS),
    "sidekick": (Rank.SIDEKICK, SIDEKICK_FIELDS),
    "hero": (Rank.HERO, HERO_FIELDS),
}


def build_character(reader: EntryReader, source: Source) -> Character | None:
    rank, fields = CHARACTER_KINDS[reader.kind]
    v = reader.read(fields)
    if reader.failed:
        return None
    traits = Traits(
        **v["traits"], overrides=tuple((Derived(k), n) for k, n in v["derived"].items())
    )
    if rank is Rank.HERO and len(v["talents"]) != traits.luck:
        reader.report(
            Code.RULES,
            f"a Hero has as many Talents as its Luck ({traits.luck}),"
            f" found {len(v['talents'])} (R-CHAR-5)",
            ("talents",),
            Severity.WARNING,
        )
    extra = {k: v[k] for k in fields if k not in CHARACTER_FIELDS}
    if "equipment" in extra:
        extra["equipment"] = tuple(EquipmentItem(**item) for item in extra["equipment"])
    return Character(
        id=v["id"],
        name=v["name"],
        rank=rank,
        traits=traits,
        ratings=CombatRatings(**v["ratings"]),
        weapons=v["weapons"],
        source=source,
        size=v["size"],
        text=v["text"],
        tags=v["tags"],
        **extra,
    )


# -- Severe Wound chart --------------------------------------------------------------
CHART_FIELDS: dict[str, Field] = {
    "id": Field(kebab_id, required=True),
    "name": Field(text, required=True),
    "min": Field(whole(1), required=True),
    "max": Field(whole(1)),
    "text": Field(text, required=True),
    "unconscious": Field(boolean, default=False),
    "dead": Field(boolean, default=False),
    "condition": Field(choice(CHART_CONDITIONS)),
    "out_of_cover": Field(boolean, default=False),
    "destroys_equipment": Field(boolean, default=False),
    "turns": Field(dice),
}


def build_severe_wound(reader: EntryReader, source: Source) -> SevereWound | None:
    v = reader.read(CHART_FIELDS)
    if v["min"] is not None and v["max"] is not None and v["max"] < v["min"]:
        reader.report(Code.RANGE, f"max {v['max']} is below min {v['min']}", ("max",))
    turns = v["turns"]
    if turns is not None and turns.references:
        reader.report(Code.DICE, f"dice and numbers only, not {turns}", ("turns",))
    if turns is not None and v["condition"] is None:
        why = "says how long the row's condition lasts: name the condition"
        reader.report(Code.MISSING_KEY, why, ("turns",))
    if reader.failed:
        return None
    return SevereWound(
        id=v["id"],
        name=v["name"],
        min=v["min"],
        max=v["max"],
        text=v["text"],
        source=source,
        unconscious=v["unconscious"],
        dead=v["dead"],
        condition=v["condition"],
        out_of_cover=v["out_of_cover"],
        destroys_equipment=v["destroys_equipment"],
        turns=v["turns"],
    )


BUILDERS = {
    "weapon": build_weapon,
    "minion": build_character,
    "sidekick": build_character,
    "hero": build_character,
    "severe_wound": build_severe_wound,
}
