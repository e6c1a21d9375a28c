"""The pack loader: the shipped catalog, derived traits, folder discovery and order, LineIndex."""

from __future__ import annotations

import os
import textwrap
import tomllib
from pathlib import Path

import pytest

from hsm_tui.packs import ENV_VAR, SHIPPED, Code, Severity, content_dirs, load
from hsm_tui.packs.toml_lines import LineIndex
from hsm_tui.rules import Derived, RangeBand, Rank, Rating, Trait
from hsm_tui.rules.effects import EffectKind, Trigger

RELIC = SHIPPED / "relic-worlds"
TRAITS = "{ strength = 2, agility = 2, knowledge = 2, savvy = 2, senses = 2, charm = 2, luck = 2 }"


@pytest.fixture(scope="module")
def shipped():
    return load([SHIPPED])


@pytest.fixture(scope="module")
def catalog(shipped):
    return shipped.catalog


def write_pack(folder: Path, pack_id: str, files: dict[str, str] | None = None, **head: str):
    """A pack folder: ``pack.toml`` for ``pack_id`` plus the given files (dedented)."""
    folder.mkdir(parents=True, exist_ok=True)
    extra = "".join(f"{k} = {v}\n" for k, v in head.items())
    (folder / "pack.toml").write_text(
        f'[pack]\nid = "{pack_id}"\nname = "{pack_id}"\nversion = "1"\n{extra}', encoding="utf-8"
    )
    for name, body in (files or {}).items():
        (folder / name).write_text(textwrap.dedent(body), encoding="utf-8")
    return folder


def weapon(wid: str, name: str | None = None, extra: str = "") -> str:
    return textwrap.dedent(f"""
        [[weapon]]
        id = "{wid}"
        name = "{name or wid}"
        kind = "melee"
        skill = "agile"
        damage = "1d6"
        range = "melee"
        """) + textwrap.dedent(extra)


def chart(*rows: tuple[str, int, int | None]) -> str:
    out = []
    for rid, low, high in rows:
        top = "" if high is None else f"max = {high}\n"
        out.append(
            f'[[severe_wound]]\nid = "{rid}"\nname = "{rid}"\nmin = {low}\n{top}text = "-"\n'
        )
    return "\n".join(out)


# -- the shipped pack ---------------------------------------------------------------------


def test_shipped_pack_loads_without_a_single_problem(shipped):
    assert shipped.problems == ()
    assert [p.id for p in shipped.catalog.packs] == ["relic-worlds"]


def test_default_content_dirs_load_the_shipped_pack_without_problems():
    result = load(content_dirs((), env={}))
    assert result.problems == ()
    assert result.catalog.packs[0].id == "relic-worlds"


def test_shipped_pack_info(catalog):
    (info,) = catalog.packs
    assert (info.id, info.name, info.version, info.requires) == (
        "relic-worlds",
        "Relic Worlds starter pack",
        "1.0.0",
        (),
    )
    assert Path(info.path).resolve() == RELIC.resolve()


def test_shipped_catalog_sizes(catalog):
    # counts as the pack's commit message states them (six cards + 13 more weapons …)
    assert len(catalog.weapons) == 19
    assert len(catalog.minions) == 11
    assert len(catalog.sidekicks) == 4
    assert len(catalog.heroes) == 4
    assert catalog.kind("weapons") is catalog.weapons
    assert {c.rank for c in catalog.minions.values()} == {Rank.MINION}
    assert {c.rank for c in catalog.sidekicks.values()} == {Rank.SIDEKICK}
    assert {c.rank for c in catalog.heroes.values()} == {Rank.HERO}


def _effects(weapon, trigger: Trigger) -> list[tuple]:
    return [
        (e.kind, e.value, str(e.dice) if e.dice else None, e.condition, e.targets)
        for e in weapon.effects_on(trigger)
    ]


S4, S5, F, M = Trigger.SPECIAL_4, Trigger.SPECIAL_5, Trigger.FORTUNE, Trigger.MISFORTUNE
K = EffectKind

# content/README.md, "How the six rulebook cards are expressed": card → face → effect
CARD_EFFECTS = {
    "assault-laser": {
        S4: [(K.TARGET_DEFENSE, -1, None, None, None)],
        S5: [(K.REROLL_LOWEST, None, None, None, None)],
        F: [(K.EXTRA_SHOTS, None, "1d4", None, None)],
        M: [(K.ONE_HIT_COUNTS, None, None, None, None)],
    },
    "laser-pistol": {
        S4: [(K.EXTRA_SHOTS, 1, None, None, None)],
        S5: [(K.EXTRA_SHOTS, 1, None, None, None)],
        F: [(K.RECHARGE, 1, None, None, None)],
        M: [(K.EXTRA_CHARGE, 1, None, None, None)],
    },
    "sonic-relik": {
        S4: [(K.CONDITION, None, None, "stunned", None)],
        S5: [(K.CONDITION, None, None, "stunned", None)],
        F: [(K.FEAR, None, "1d4", None, "all-targets")],
        M: [(K.NARRATIVE, None, None, None, None)],
    },
    "whip": {
        S4: [(K.FEAR, None, "1d4", None, "enemies-nearby")],
        S5: [(K.FEAR, None, "1d4", None, "enemies-nearby")],
        F: [(K.CONDITION, None, None, "grappled", None)],
        M: [(K.STUCK, 1, None, None, None)],
    },
    "dagger": {
        S4: [(K.CONDITION, None, None, "bleeding", None)],
        S5: [(K.DAMAGE, 1, None, None, None)],
        F: [(K.TN, 1, None, None, None)],
        M: [(K.STUCK, 1, None, None, None)],
    },
    "bow": {
        S4: [(K.CALLED_SHOT, None, None, None, None)],
        S5: [(K.CALLED_SHOT, None, None, None, None)],
        F: [(K.CONDITION, None, None, "bleeding", None)],
        M: [(K.NARRATIVE, None, None, None, None)],
    },
}

# (attacks, damage, range, power, recharge, suppression) as RULES.md §10 prints them
CARD_NUMBERS = {
    "assault-laser": ("5", "1d6", RangeBand.LONG, 20, True, "10/d8"),
    "laser-pistol": ("1+agility", "2d6", RangeBand.MEDIUM, 10, True, "10/d4"),
    "sonic-relik": ("1", "1d4", RangeBand.MEDIUM, 10, False, None),
    "whip": ("1", "1d4", RangeBand.MELEE, None, True, None),
    "dagger": (None, "1d6+strdie", RangeBand.MELEE, None, True, None),
    "bow": ("agility", "1d6", RangeBand.MEDIUM, None, True, None),
}


@pytest.mark.parametrize("wid", list(CARD_NUMBERS))
def test_rulebook_card_numbers(catalog, wid):
    w = catalog.weapons[wid]
    attacks, damage, band, power, recharge, suppression = CARD_NUMBERS[wid]
    assert (str(w.attacks) if w.attacks else None) == attacks
    assert str(w.damage) == damage
    assert w.range is band
    assert w.power == power
    assert w.recharge is recharge
    assert (str(w.suppression) if w.suppression else None) == suppression
    assert w.source.pack == "relic-worlds"


@pytest.mark.parametrize("wid", list(CARD_EFFECTS))
def test_rulebook_card_effects_follow_the_readme_card_table(catalog, wid):
    w = catalog.weapons[wid]
    for trigger in Trigger:
        assert _effects(w, trigger) == CARD_EFFECTS[wid][trigger], trigger


def test_card_table_says_who_applies_each_effect(catalog):
    gm = {
        (wid, t)
        for wid in CARD_EFFECTS
        for t in Trigger
        for e in catalog.weapons[wid].effects_on(t)
        if not e.kind.automated
    }
    # README: Sonic Relik misfortune (narrative), Bow special (called shot), Bow misfortune
    assert gm == {("sonic-relik", M), ("bow", S4), ("bow", S5), ("bow", M)}


def test_rulebook_card_extras(catalog):
    relik = catalog.weapons["sonic-relik"]
    assert [str(d) for d in relik.damage_options] == ["1d4", "1d6", "1d8", "1d10", "1d12"]
    assert relik.area == "cone" and "Stamina" in relik.text
    whip = catalog.weapons["whip"]
    assert whip.nonlethal and "Squeeze" in whip.text and "Yank" in whip.text
    dagger = catalog.weapons["dagger"]
    assert str(dagger.thrown_damage) == "1d6+strength"
    assert dagger.attacks is None  # melee: by fighting style (R-ATK-1)
    assert catalog.weapons["laser-pistol"].skill is Rating.PISTOLS
    assert catalog.weapons["assault-laser"].skill is Rating.RIFLES
    assert {catalog.weapons[w].kind for w in CARD_NUMBERS} == {"ranged", "melee"}


def test_weapon_defaults(catalog):
    bow = catalog.weapons["bow"]
    assert (bow.recharge, bow.charge_per_shot, bow.nonlethal, bow.two_handed, bow.reload) == (
        True,
        1,
        False,
        False,
        False,
    )
    assert bow.area is None and bow.thrown_damage is None and bow.damage_options == ()
    long_laser = catalog.weapons["long-laser"]
    assert long_laser.charge_per_shot == 2 and long_laser.two_handed
    assert long_laser.range is RangeBand.EXTRA_LONG
    slug = catalog.weapons["slug-rifle"]
    assert slug.reload and not slug.recharge


def test_severe_wound_chart(catalog):
    assert catalog.chart_pack == "relic-worlds"
    assert len(catalog.chart) == 16
    for total in range(1, 61):
        assert catalog.chart_rows(total), total
    assert catalog.chart_rows(0) == ()
    assert {r.id for r in catalog.chart_rows(13)} == {"painful-wound", "limb-injury"}
    (dead,) = catalog.chart_rows(40)
    assert dead.id == "dead" and dead.dead and dead.max is None and dead.min == 22
    (scarred,) = catalog.chart_rows(1)
    assert (scarred.id, scarred.min, scarred.max) == ("scarred", 1, 5)
    assert [r.id for r in catalog.chart_rows(15)] == ["bleeding-out"]
    assert catalog.chart_rows(15)[0].unconscious
    assert all(len(catalog.chart_rows(t)) == 1 for t in range(1, 61) if t != 13)


def test_s7_row_11_stunned_lasts_1d6_turns_and_turns_is_plain_dice(catalog, tmp_path):
    (stunned,) = catalog.chart_rows(11)
    assert (stunned.condition, str(stunned.turns)) == ("stunned", "1d6")
    rows = (
        '[[severe_wound]]\nid = "a"\nname = "a"\nmin = 1\ncondition = "stunned"\n'
        'turns = "1+agility"\ntext = "-"\n'
    )
    problems = load([write_pack(tmp_path / "p", "p", {"charts.toml": rows})]).problems
    assert [p.message for p in problems] == [
        "severe_wound 'a': turns: dice and numbers only, not 1+agility"
    ]


def test_derived_traits_follow_r_char_3(catalog):
    everyone = [*catalog.minions.values(), *catalog.sidekicks.values(), *catalog.heroes.values()]
    for c in everyone:
        t = c.traits
        formula = {
            Derived.HEALTH: t.strength * 2,
            Derived.STAMINA: t.strength * 2,
            Derived.MORALE: t.savvy + t.luck,
            Derived.DODGE: t.senses + t.agility,
            Derived.INITIATIVE: t.senses + t.savvy + t.agility,
            Derived.ATHLETICS: t.strength + t.agility,
            Derived.LEARNING: t.knowledge + t.savvy,
        }
        overrides = dict(t.overrides)
        assert c.derived() == {d: overrides.get(d, v) for d, v in formula.items()}, c.id
    with_overrides = {c.id for c in everyone if c.traits.overrides}
    assert "cultist-zealot" in with_overrides
    assert "corporate-trooper" not in with_overrides


def test_corporate_trooper_and_zealot_override(catalog):
    trooper = catalog.minions["corporate-trooper"].derived()
    assert trooper == {
        Derived.HEALTH: 4,
        Derived.STAMINA: 4,
        Derived.MORALE: 3,
        Derived.DODGE: 4,
        Derived.INITIATIVE: 6,
        Derived.ATHLETICS: 4,
        Derived.LEARNING: 3,
    }
    zealot = catalog.minions["cultist-zealot"]
    assert zealot.derived()[Derived.MORALE] == 6  # derived = { morale = 6 }
    assert zealot.traits.savvy + zealot.traits.luck == 2  # the formula would give 2
    assert zealot.derived()[Derived.HEALTH] == zealot.traits.strength * 2  # the rest: formula


def test_derived_overrides_and_appearance_alias(tmp_path):
    write_pack(
        tmp_path / "p",
        "p",
        {
            "minions.toml": """
                [[minion]]
                id = "tank"
                name = "Tank"
                derived = { health = 12, initiative = 0 }
                ratings = { power = 9 }
                size = 1
                [minion.traits]
                strength = 4
                agility = 1
                knowledge = 1
                savvy = 1
                senses = 1
                appearance = 3
                luck = 1
                """
        },
    )
    result = load([tmp_path / "p"])
    assert result.problems == ()
    tank = result.catalog.minions["tank"]
    assert tank.traits[Trait.CHARM] == 3
    assert tank.derived()[Derived.HEALTH] == 12
    assert tank.derived()[Derived.INITIATIVE] == 0
    assert tank.derived()[Derived.STAMINA] == 8  # not overridden: Strength × 2
    assert tank.ratings.power == 9 and tank.ratings.pistols == 0
    assert tank.size == 1 and tank.weapons == () and tank.tags == ()


def test_condition_effect_takes_a_value_for_dazed(tmp_path):
    # content/README.md: condition … `value` for Dazed (n)
    write_pack(
        tmp_path / "p",
        "p",
        {
            "weapons.toml": weapon(
                "sap",
                extra='fortune = { effect = "condition", condition = "dazed", value = 2 }\n',
            )
        },
    )
    result = load([tmp_path / "p"])
    assert result.problems == ()
    (dazed,) = result.catalog.weapons["sap"].effects_on(Trigger.FORTUNE)
    assert (dazed.condition, dazed.value) == ("dazed", 2)


def test_effect_list_on_one_face_and_line_of_a_bad_element(tmp_path):
    body = weapon(
        "saw",
        extra="""
        misfortune = [
            { effect = "stuck", actions = 2 },
            { effect = "fear", value = 1, targets = "self" },
        ]
        """,
    )
    write_pack(tmp_path / "p", "p", {"weapons.toml": body})
    (problem,) = load([tmp_path / "p"]).problems
    bad_line = body.splitlines().index('    { effect = "fear", value = 1, targets = "self" },') + 1
    assert (problem.line, problem.code, problem.key) == (bad_line, Code.VALUE, "misfortune.targets")
    assert "item 2" in problem.message
    body = body.replace('targets = "self"', 'targets = "all-targets"')
    write_pack(tmp_path / "q", "q", {"weapons.toml": body.replace('"saw"', '"saw2"')})
    result = load([tmp_path / "q"])
    assert result.problems == ()
    kinds = [e.kind for e in result.catalog.weapons["saw2"].effects_on(Trigger.MISFORTUNE)]
    assert kinds == [EffectKind.STUCK, EffectKind.FEAR]


# -- where content comes from --------------------------------------------------------------


def test_content_dirs_order_shipped_then_env_then_extra():
    env = {ENV_VAR: os.pathsep.join(["env-a", "", "  ", "env-b"])}
    assert content_dirs(["cli-a", Path("cli-b")], env=env) == [
        SHIPPED,
        Path("env-a"),
        Path("env-b"),
        Path("cli-a"),
        Path("cli-b"),
    ]
    assert content_dirs((), env={}) == [SHIPPED]
    assert content_dirs(["x"], env={ENV_VAR: ""}) == [SHIPPED, Path("x")]


def test_content_dirs_reads_os_environ_by_default(monkeypatch):
    monkeypatch.setenv(ENV_VAR, "from-env")
    assert content_dirs() == [SHIPPED, Path("from-env")]
    monkeypatch.delenv(ENV_VAR)
    assert content_dirs() == [SHIPPED]


def test_load_order_env_before_content_first_id_wins_last_chart_wins(tmp_path):
    env_pack = write_pack(
        tmp_path / "env-pack",
        "env-pack",
        {"weapons.toml": weapon("blaster", "Env blaster"), "charts.toml": chart(("all", 1, None))},
    )
    cli_pack = write_pack(
        tmp_path / "cli-pack",
        "cli-pack",
        {
            "weapons.toml": weapon("blaster", "Cli blaster") + weapon("cannon"),
            "charts.toml": chart(("low", 1, 10), ("high", 11, None)),
        },
    )
    result = load(content_dirs([cli_pack], env={ENV_VAR: str(env_pack)}))
    assert [p.id for p in result.catalog.packs] == ["relic-worlds", "env-pack", "cli-pack"]
    assert result.catalog.weapons["blaster"].name == "Env blaster"
    assert result.catalog.weapons["cannon"].source.pack == "cli-pack"
    (dup,) = result.problems
    assert (dup.code, dup.entry, Path(dup.path).parent) == (Code.DUPLICATE, "blaster", cli_pack)
    # the chart of the last pack that has one replaces the others whole
    assert result.catalog.chart_pack == "cli-pack"
    assert [r.id for r in result.catalog.chart] == ["low", "high"]


def test_user_chart_may_reuse_the_shipped_row_ids(tmp_path):
    # content/README.md: copy the shipped pack as a starting point; a user pack can replace
    # the shipped chart whole. Rows reusing "scarred"/"dead" must not be duplicates.
    user = write_pack(
        tmp_path / "user", "user", {"charts.toml": chart(("scarred", 1, 11), ("dead", 12, None))}
    )
    result = load(content_dirs([user], env={}))
    assert result.problems == ()
    assert result.catalog.chart_pack == "user"
    assert [(r.id, r.min, r.max) for r in result.catalog.chart] == [
        ("scarred", 1, 11),
        ("dead", 12, None),
    ]


def test_chart_row_ids_are_still_unique_within_a_pack(tmp_path):
    body = chart(("a", 1, 5), ("a", 6, None))
    write_pack(tmp_path / "p", "p", {"charts.toml": body})
    problems = load([tmp_path / "p"]).problems
    assert [(p.code, p.entry, p.line) for p in problems if p.is_error] == [(Code.DUPLICATE, "a", 9)]


def test_the_same_folder_given_twice_loads_once(tmp_path):
    pack = write_pack(tmp_path / "p", "p", {"weapons.toml": weapon("club")})
    other_spelling = tmp_path / "p" / ".." / "p"
    link = tmp_path / "link"
    link.symlink_to(pack, target_is_directory=True)
    result = load([pack, pack, other_spelling, link, tmp_path])
    assert result.problems == ()
    assert [p.id for p in result.catalog.packs] == ["p"]
    assert list(result.catalog.weapons) == ["club"]


def test_shipped_folder_given_again_as_content_is_not_a_duplicate():
    result = load(content_dirs([SHIPPED, RELIC], env={ENV_VAR: str(RELIC)}))
    assert result.problems == ()
    assert len(result.catalog.packs) == 1


def test_a_folder_of_packs_loads_each_sub_pack(tmp_path):
    write_pack(tmp_path / "packs" / "one", "one", {"weapons.toml": weapon("axe")})
    write_pack(tmp_path / "packs" / "two", "two", {"weapons.toml": weapon("mace")})
    (tmp_path / "packs" / "notes").mkdir()  # no pack.toml: not a pack, ignored
    (tmp_path / "packs" / "README.txt").write_text("not a pack")
    result = load([tmp_path / "packs"])
    assert result.problems == ()
    assert sorted(p.id for p in result.catalog.packs) == ["one", "two"]
    assert {w.id: w.source.pack for w in result.catalog.weapons.values()} == {
        "axe": "one",
        "mace": "two",
    }


def test_a_folder_without_any_pack_is_reported(tmp_path):
    (tmp_path / "empty").mkdir()
    (problem,) = load([tmp_path / "empty"]).problems
    assert problem.code is Code.MISSING_PACK and problem.severity is Severity.ERROR
    assert Path(problem.path) == tmp_path / "empty" / "pack.toml"


def test_a_missing_folder_is_reported_not_raised(tmp_path):
    (problem,) = load([tmp_path / "nowhere"]).problems
    assert (problem.code, problem.line, problem.message) == (Code.IO, 0, "no such folder")


def test_requires_orders_packs_before_their_users(tmp_path):
    write_pack(
        tmp_path / "a-user",
        "a-user",
        {
            "minions.toml": f"""
                [[minion]]
                id = "thug"
                name = "Thug"
                traits = {TRAITS}
                weapons = ["z-base:club"]
                """
        },
        requires='["z-base"]',
    )
    write_pack(tmp_path / "z-base", "z-base", {"weapons.toml": weapon("club")})
    result = load([tmp_path])
    assert result.problems == ()
    assert [p.id for p in result.catalog.packs] == ["z-base", "a-user"]
    assert result.catalog.minions["thug"].weapons == ("club",)


def test_problems_are_sorted_by_file_and_line(tmp_path):
    write_pack(
        tmp_path / "p",
        "p",
        {
            "weapons.toml": weapon("b-gun", extra="powr = 1\n")
            + weapon("a-gun", extra="rnge = 1\n"),
            "minions.toml": "[[minions]]\n",
        },
    )
    problems = load([tmp_path / "p"]).problems
    keys = [(p.path, p.line) for p in problems]
    assert keys == sorted(keys) and len(keys) == 3


# -- LineIndex ------------------------------------------------------------------------------

DOC = '''\
title = "top"                      # 1
[pack]                             # 2
id = "x"                           # 3
[[weapon]]                         # 4
id = "a"                           # 5
special = { effect = "tn", value = 1 }
text = """
fake = "not a key"
[[weapon]]
"""
note = \'\'\'
id = "nope" \'\'\'
[[weapon]]                         # 13
id = "b"                           # 14
damage_options = [
    "1d4",                         # 16
    # a comment line
    "1d6", "1d8",                  # 18
]
equipment = [
  { name = "Rope", enc = 1 },      # 21
  { name = "Lamp", enc = 2 },      # 22
]
[weapon.extra]                     # 24
deep = 1                           # 25
[[weapon.shots]]                   # 26
n = 1                              # 27
[[weapon.shots]]                   # 28
n = 2                              # 29
[[weapon]]                         # 30
traits.strength = 3                # 31
"quoted.key" = 4                   # 32
'''


@pytest.fixture(scope="module")
def index():
    tomllib.loads(DOC)  # the index assumes valid TOML: make sure the sample is
    return LineIndex(DOC)


@pytest.mark.parametrize(
    ("path", "line"),
    [
        (("title",), 1),
        (("pack",), 2),
        (("pack", "id"), 3),
        (("weapon",), 4),  # the first header of an array of tables
        (("weapon", 0), 4),
        (("weapon", 0, "id"), 5),
        (("weapon", 0, "special"), 6),
        (("weapon", 0, "special", "effect"), 6),  # inline-table keys
        (("weapon", 0, "special", "value"), 6),
        (("weapon", 0, "text"), 7),
        (("weapon", 0, "note"), 11),
        (("weapon", 1), 13),  # not 9: "[[weapon]]" inside the string is text
        (("weapon", 1, "id"), 14),
        (("weapon", 1, "damage_options"), 15),
        (("weapon", 1, "damage_options", 0), 16),  # multi-line array elements
        (("weapon", 1, "damage_options", 1), 18),
        (("weapon", 1, "damage_options", 2), 18),
        (("weapon", 1, "equipment", 0), 21),
        (("weapon", 1, "equipment", 1, "enc"), 22),
        (("weapon", 1, "extra"), 24),
        (("weapon", 1, "extra", "deep"), 25),
        (("weapon", 1, "shots", 0), 26),  # nested [[a.b]] arrays
        (("weapon", 1, "shots", 0, "n"), 27),
        (("weapon", 1, "shots", 1), 28),
        (("weapon", 1, "shots", 1, "n"), 29),
        (("weapon", 2), 30),
        (("weapon", 2, "traits", "strength"), 31),  # dotted key
        (("weapon", 2, "quoted.key"), 32),
    ],
)
def test_line_index_maps_keys_headers_and_elements(index, path, line):
    assert index.line(path) == line


def test_line_index_ignores_key_like_text_in_multiline_strings(index):
    assert ("weapon", 0, "fake") not in index.lines
    assert ("weapon", 0, "id") in index.lines and index.lines[("weapon", 0, "id")] == 5
    assert ("weapon", 3) not in index.lines  # exactly three [[weapon]] headers


def test_line_index_falls_back_to_the_nearest_parent(index):
    assert index.line(("weapon", 1, "missing")) == 13  # an absent key: the entry header
    assert index.line(("weapon", 1, "equipment", 1, "location")) == 22
    assert index.line(("nothing",)) == 0
    assert index.line(()) == 0


def test_line_index_of_a_truncated_text_keeps_what_it_read():
    text = '[[minion]]\nid = "a"\ntraits = { strength = 2, agi'
    index = LineIndex(text)  # never raises
    assert index.line(("minion", 0, "id")) == 2
    assert index.line(("minion", 0, "traits", "strength")) == 3


def test_line_index_of_the_shipped_weapons_matches_the_text():
    text = (RELIC / "weapons.toml").read_text(encoding="utf-8")
    lines = text.splitlines()
    index = LineIndex(text)
    data = tomllib.loads(text)
    for i, entry in enumerate(data["weapon"]):
        assert lines[index.line(("weapon", i)) - 1] == "[[weapon]]"
        for key in entry:
            assert lines[index.line(("weapon", i, key)) - 1].startswith(f"{key} ="), (i, key)


def test_entry_lines_from_the_quick_header_scan_match_the_full_index() -> None:
    """Source.line comes from a cheap [[kind]] scan; the full index must agree."""
    from hsm_tui.packs.schema import ENTRY_FILES

    pack = Path("content/relic-worlds")
    for name, kind in ENTRY_FILES.items():
        text = (pack / name).read_text(encoding="utf-8")
        quick = LineIndex(text).array_headers(kind)
        full = LineIndex(text)
        assert quick == [full.line((kind, i)) for i in range(len(quick))], name


def test_header_lookalike_inside_a_string_falls_back_to_the_full_index(tmp_path: Path) -> None:
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "pack.toml").write_text('[pack]\nid = "p"\nname = "P"\nversion = "1"\n')
    (pack / "weapons.toml").write_text(
        '[[weapon]]\nid = "a"\nname = "A"\nkind = "melee"\nskill = "agile"\n'
        'damage = "1d4"\nrange = "melee"\ntext = """\n[[weapon]]\n"""\n'
        '\n[[weapon]]\nid = "b"\nname = "B"\nkind = "melee"\nskill = "agile"\n'
        'damage = "1d4"\nrange = "melee"\n'
    )
    catalog = load([pack]).catalog
    assert catalog.weapons["a"].source.line == 1
    assert catalog.weapons["b"].source.line == 12


def test_a_rating_past_play_s_reach_is_refused_with_file_and_line(tmp_path):
    write_pack(
        tmp_path / "p",
        "p",
        {
            "minions.toml": """
                [[minion]]
                id = "titan"
                name = "Titan"
                ratings = { power = 999999999999 }
                traits.strength = 4
                traits.agility = 1
                traits.knowledge = 1
                traits.savvy = 1
                traits.senses = 1
                traits.charm = 1
                traits.luck = 1
                """
        },
    )
    [problem] = load([tmp_path / "p"]).problems
    assert (Path(problem.path).name, problem.line, problem.key) == (
        "minions.toml",
        5,
        "ratings.power",
    )
    assert problem.message.endswith("must be from 0 to 99, got 999999999999")
