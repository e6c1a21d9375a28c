"""Data sanity of the shipped Relic Worlds pack: what a GM relies on at the table.

Read from the raw TOML as well as through the loader, so an entry the loader quietly
left out would still be caught here.
"""

from __future__ import annotations

import tomllib
from collections import Counter

import pytest

from hsm_tui.packs import SHIPPED, load
from hsm_tui.rules import RangeBand

RELIC = SHIPPED / "relic-worlds"
KINDS = {"minion": "minions.toml", "sidekick": "sidekicks.toml", "hero": "heroes.toml"}


def raw(file: str, kind: str) -> list[dict]:
    return tomllib.loads((RELIC / file).read_text(encoding="utf-8"))[kind]


@pytest.fixture(scope="module")
def catalog():
    result = load([RELIC])
    assert result.problems == ()
    return result.catalog


RAW_WEAPONS = raw("weapons.toml", "weapon")
WEAPON_IDS = {w["id"] for w in RAW_WEAPONS}
RAW_CHARACTERS = [(kind, c) for kind, file in KINDS.items() for c in raw(file, kind)]


def test_every_raw_entry_is_loaded(catalog):
    assert set(catalog.weapons) == WEAPON_IDS
    plural = {"minion": "minions", "sidekick": "sidekicks", "hero": "heroes"}
    for kind, file in KINDS.items():
        assert set(catalog.kind(plural[kind])) == {c["id"] for c in raw(file, kind)}
    assert {r.id for r in catalog.chart} == {r["id"] for r in raw("charts.toml", "severe_wound")}


def test_ids_are_unique_per_kind():
    for ids in (
        [w["id"] for w in RAW_WEAPONS],
        [c["id"] for _, c in RAW_CHARACTERS],
        [r["id"] for r in raw("charts.toml", "severe_wound")],
    ):
        assert [i for i, n in Counter(ids).items() if n > 1] == []


@pytest.mark.parametrize(
    ("kind", "entry"), RAW_CHARACTERS, ids=lambda x: x if isinstance(x, str) else x["id"]
)
def test_characters_reference_only_existing_weapons(kind, entry):
    assert entry.get("weapons"), f"{kind} {entry['id']} carries no weapon"
    assert set(entry["weapons"]) <= WEAPON_IDS


@pytest.mark.parametrize("hero", raw("heroes.toml", "hero"), ids=lambda h: h["id"])
def test_hero_talents_equal_luck(hero):
    # R-CHAR-5: a Hero picks as many Talents as its Luck
    assert len(hero["talents"]) == hero["traits"]["luck"]


def test_heroes_carry_less_than_their_encumbrance(catalog):
    # heroes.toml: "Every hero's carried equipment stays below its Encumbrance."
    for hero in catalog.heroes.values():
        assert sum(item.enc for item in hero.equipment) <= hero.encumbrance, hero.id


def test_weapons_a_character_carries_are_in_its_equipment(catalog):
    for c in [*catalog.sidekicks.values(), *catalog.heroes.values()]:
        carried = {item.name for item in c.equipment}
        for wid in c.weapons:
            assert catalog.weapons[wid].name in carried, (c.id, wid)


def test_sidekick_and_hero_ratings_follow_the_pack_convention(catalog):
    # heroes.toml / sidekicks.toml: Pistols = Agility + Senses + Pistols skill, …
    for c in [*catalog.sidekicks.values(), *catalog.heroes.values()]:
        t, r, skill = c.traits, c.ratings, dict(c.skills)
        assert r.pistols == t.agility + t.senses + skill.get("pistols", 0), c.id
        assert r.rifles == t.agility + t.senses + skill.get("rifles", 0), c.id
        assert r.vehicle == t.agility + t.senses + skill.get("vehicle", 0), c.id
        assert r.wild == t.strength + t.agility, c.id
        assert r.power == t.strength * 2, c.id
        assert r.agile >= t.agility * 2, c.id


def test_every_character_can_use_one_of_its_weapons(catalog):
    everyone = [*catalog.minions.values(), *catalog.sidekicks.values(), *catalog.heroes.values()]
    for c in everyone:
        ratings = [c.ratings[catalog.weapons[w].skill] for w in c.weapons]
        assert max(ratings) > 0, c.id


def test_charged_weapons_can_fire(catalog):
    for w in catalog.weapons.values():
        if w.power is not None:
            assert w.charge_per_shot <= w.power, w.id
            if w.suppression:
                assert w.suppression.charges <= w.power, w.id
        if w.kind in ("ranged", "thrown"):
            assert w.attacks is not None, w.id


# RULES.md §10, "Weapon cards in the rulebook": kind, damage, range, power, suppression
RULEBOOK_CARDS = {
    "Assault Laser": ("ranged", "1d6", RangeBand.LONG, 20, "10/d8"),
    "Laser Pistol": ("ranged", "2d6", RangeBand.MEDIUM, 10, "10/d4"),
    "Sonic Relik": ("ranged", "1d4", RangeBand.MEDIUM, 10, None),  # picks d4…d12
    "Whip": ("melee", "1d4", RangeBand.MELEE, None, None),
    "Dagger": ("melee", "1d6+strdie", RangeBand.MELEE, None, None),
    "Bow": ("ranged", "1d6", RangeBand.MEDIUM, None, None),
}


@pytest.mark.parametrize("card", list(RULEBOOK_CARDS))
def test_rulebook_card_is_present_as_printed(catalog, card):
    (weapon,) = [w for w in catalog.weapons.values() if w.name == card]
    kind, damage, band, power, suppression = RULEBOOK_CARDS[card]
    assert weapon.kind == kind
    assert str(weapon.damage) == damage
    assert weapon.range is band
    assert weapon.power == power
    assert (str(weapon.suppression) if weapon.suppression else None) == suppression
    assert weapon.source.pack == "relic-worlds"


def test_rulebook_card_details(catalog):
    w = catalog.weapons
    assert not w["sonic-relik"].recharge  # "10, no recharge"
    assert [str(d) for d in w["sonic-relik"].damage_options] == [
        f"1d{n}" for n in (4, 6, 8, 10, 12)
    ]
    assert w["whip"].nonlethal  # "1d4 non-lethal"
    assert str(w["dagger"].thrown_damage) == "1d6+strength"  # "thrown 1d6+Strength"
    assert [str(w[x].attacks) for x in ("assault-laser", "laser-pistol", "sonic-relik")] == [
        "5",
        "1+agility",
        "1",
    ]
    assert str(w["whip"].attacks) == "1" and str(w["bow"].attacks) == "agility"
    # the six cards are the first six entries of weapons.toml
    assert [x["name"] for x in RAW_WEAPONS[:6]] == list(RULEBOOK_CARDS)


def test_chart_matches_rules_section_7(catalog):
    rows = {r.id: r for r in catalog.chart}
    spans = [(r.min, r.max) for r in catalog.chart]
    assert spans[:5] == [(1, 5), (6, 6), (7, 10), (11, 11), (12, 12)]
    assert spans[5:7] == [(13, 13), (13, 13)]
    assert spans[7:] == [(n, n) for n in range(14, 22)] + [(22, None)]
    unconscious = {r.min for r in catalog.chart if r.unconscious}
    assert unconscious == set(range(15, 22))
    assert [r.id for r in catalog.chart if r.dead] == ["dead"]
    assert rows["painful-wound"].text and rows["limb-injury"].text
