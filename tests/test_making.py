"""Characters made in the app (R-CHAR-1..7): checked by the packs' own check, kept by the
campaign (undo, files), grown with a logged note, exported as a pack that
``hsm content check`` passes and that plays a fight.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hsm_tui.campaign.making import (
    FORMULAS,
    MadeCharacter,
    MakeCharacter,
    SetTraitBudget,
    check,
    derived_lines,
    encumbered,
    from_entry,
    pack_files,
    ratings_of,
    with_made,
)
from hsm_tui.campaign.party import AddHero
from hsm_tui.forecast.simulate import fight
from hsm_tui.packs import load
from hsm_tui.packs.loader import content_dirs
from hsm_tui.packs.model import EquipmentItem
from hsm_tui.persistence import store, versions
from hsm_tui.persistence.encounter_file import EncounterSpec, prepare
from hsm_tui.rules import Derived, RulesError, Trait, Traits
from hsm_tui.table.session import Session
from tests.campaign import pack

ADA = MadeCharacter(
    "hero",
    "ada-quill",
    "Ada Quill",
    (2, 3, 2, 2, 3, 1, 2),  # Str Agi Kno Sav Sen Cha Luck
    player="Sam",
    career="Scout",
    motivation="Map the Long Reach before the barony does",
    skills=(("observation", 2), ("rifles", 1)),
    talents=("Pathfinder", "Quick draw"),
    advantages=("Keen eyes: one re-roll on Observation",),
    drawbacks=("Restless",),
    equipment=(EquipmentItem("Assault Laser", 3, "back"), EquipmentItem("Rope", 1, "pack")),
    weapons=("assault-laser",),
    storage=10,
)


def refused(session: Session, command: object) -> str:
    try:
        session.apply(command)  # type: ignore[arg-type]
    except RulesError as err:
        return str(err)
    raise AssertionError(f"{command} must be refused")


def test_r_char_3_each_derived_trait_as_the_book_writes_it() -> None:
    """The sheet's formula text says what the engine computes, for every trait value."""
    names = {t.value.title(): t for t in Trait}
    for values in ((1, 1, 1, 1, 1, 1, 1), (4, 3, 2, 1, 4, 2, 3), (4, 4, 4, 4, 4, 4, 4)):
        traits = Traits(*values)
        for d, formula in FORMULAS.items():
            name, times, factor = formula.partition(" × ")
            if times:
                value = traits[names[name]] * int(factor)
            else:
                value = sum(traits[names[n]] for n in formula.split(" + "))
            assert value == traits.derived(d), (d, formula)
    lines = derived_lines(ADA)
    assert "Dodge = Senses + Agility = 6" in lines
    assert "Initiative = Senses + Savvy + Agility = 8" in lines
    assert len(lines) == len(Derived)


def test_r_char_4_ratings_follow_the_convention_unless_set_by_hand() -> None:
    assert ratings_of(ADA) == {
        "pistols": 6, "rifles": 7, "vehicle": 6, "wild": 5, "power": 4, "agile": 6,
    }  # fmt: skip
    assert ratings_of(replace(ADA, ratings=(("agile", 8),)))["agile"] == 8


def test_a_pack_hero_copied_checks_as_the_pack_entry_it_came_from() -> None:
    catalog = pack().catalog
    kestrel = catalog.heroes["kestrel-vance"]
    character, problems = check(from_entry(kestrel, "hero"), catalog)
    assert problems == [] and character is not None
    for key in ("traits", "ratings", "skills", "talents", "equipment", "weapons", "encumbrance"):
        assert getattr(character, key) == getattr(kestrel, key), key


def test_the_builder_is_refused_by_the_packs_own_check_with_the_key() -> None:
    catalog = pack().catalog
    bad = replace(ADA, traits=(5, 3, 2, 2, 3, 1, 2), weapons=("laser-pistl",))
    character, problems = check(bad, catalog)
    assert character is None
    said = [p.message for p in problems]
    assert any("traits.strength: must be from 1 to 4, got 5" in m for m in said), said
    assert any("no weapon 'laser-pistl' (did you mean 'laser-pistol'?)" in m for m in said), said
    _, problems = check(replace(ADA, talents=("Pathfinder",)), catalog)  # R-CHAR-5
    assert [p.is_error for p in problems] == [False]
    assert "as many Talents as its Luck (2), found 1" in problems[0].message
    _, problems = check(replace(ADA, career="x" * 401), catalog)
    assert any("career: at most 400 characters" in p.message for p in problems)


def test_r_char_7_encumbered_past_the_encumbrance_number() -> None:
    heavy = replace(ADA, equipment=(EquipmentItem("Crate", 11),))  # 6 + Strength 2 × 2 = 10
    assert encumbered(heavy) and not encumbered(ADA)


def test_a_made_hero_joins_the_party_and_the_campaign_keeps_it(tmp_path: Path) -> None:
    s = Session(seed=1, content=pack())
    s.apply(MakeCharacter(ADA))
    assert s.log[-1].title == "Made: Ada Quill (hero)"
    s.apply(AddHero("ada-quill"))
    assert [m.name for m in s.campaign.party] == ["Ada Quill"]
    path = store.save(s, tmp_path / "made.toml")
    opened = Session(content=pack())
    store.load(opened, path)
    assert opened.campaign.made == (ADA,) and opened.catalog.heroes["ada-quill"].name == "Ada Quill"
    opened.undo()
    opened.undo()
    assert opened.campaign.made == () and "ada-quill" not in opened.catalog.heroes


def test_a_hero_grows_with_a_note_and_each_change_logged() -> None:
    s = Session(seed=1, content=pack())
    s.apply(MakeCharacter(ADA))
    s.apply(AddHero("ada-quill"))
    grown = replace(
        ADA,
        name="Ada Quill-Mendez",
        traits=(3, 3, 2, 2, 3, 1, 2),
        skills=(("observation", 3), ("rifles", 1), ("stealth", 1)),
        talents=("Pathfinder", "Sharpshooter"),
    )
    s.apply(MakeCharacter(grown, note="10 XP: the relic recovered", grows=True))
    entry = s.log[-1]
    assert entry.title == "Ada Quill grows (10 XP: the relic recovered)"
    assert entry.lines == (
        "Strength 2 → 3",
        "Observation 2 → 3",
        "Stealth — → 1",
        "+ Talent Sharpshooter",
        "− Talent Quick draw",
        "Name: Ada Quill → Ada Quill-Mendez",
    )
    assert s.campaign.party[0].name == "Ada Quill-Mendez"
    assert refused(s, MakeCharacter(grown, grows=True)) == "Ada Quill-Mendez: nothing changed"
    said = refused(s, MakeCharacter(grown))
    assert said == "the id 'ada-quill' is taken by Ada Quill-Mendez: pick another"


def test_a_budget_holds_a_new_character_not_a_grown_one() -> None:
    s = Session(seed=1, content=pack())
    s.apply(SetTraitBudget(14))
    assert refused(s, MakeCharacter(ADA)) == "15 trait points: the budget is 14"
    s.apply(SetTraitBudget(15))
    s.apply(MakeCharacter(ADA))
    s.apply(MakeCharacter(replace(ADA, traits=(4, 3, 2, 2, 3, 1, 2)), grows=True))  # past it
    assert refused(s, SetTraitBudget(29)) == "a budget of 0 (none) or 7 to 28 trait points"


def test_a_pack_hero_grown_becomes_the_campaigns_own_under_its_id() -> None:
    s = Session(seed=1, content=pack())
    s.apply(AddHero("kestrel-vance"))
    said = refused(s, MakeCharacter(replace(ADA, id="kestrel-vance")))
    assert said == "the id 'kestrel-vance' is taken by Kestrel Vance: pick another"
    kestrel = from_entry(s.catalog.heroes["kestrel-vance"], "hero")
    rifles = dict(kestrel.skills) | {"rifles": 3}
    s.apply(MakeCharacter(replace(kestrel, skills=tuple(rifles.items())), grows=True))
    assert s.log[-1].title == "Kestrel Vance grows" and s.log[-1].lines == ("Rifles 2 → 3",)
    assert s.catalog.heroes["kestrel-vance"].ratings.rifles == 9  # the campaign's own now
    assert pack().catalog.heroes["kestrel-vance"].ratings.rifles == 8  # the pack is as it was
    assert refused(s, MakeCharacter(replace(ADA, id="nobody"), grows=True)) == (
        "no hero 'nobody' to grow"
    )


NAMES = st.text("abcdefghij ", min_size=1, max_size=20).filter(str.strip)
HEROES = st.builds(
    lambda traits, skills, talents, weapons, name: replace(
        ADA,
        name=name.strip(),
        traits=tuple(traits),
        skills=tuple(skills.items()),
        talents=tuple(f"Talent {i}" for i in range(traits[-1])),
        weapons=tuple(weapons),
        equipment=(),
    ),
    st.lists(st.integers(1, 4), min_size=7, max_size=7),
    st.dictionaries(st.sampled_from(["rifles", "pistols", "stealth"]), st.integers(0, 6)),
    st.booleans(),
    st.lists(st.sampled_from(["assault-laser", "laser-pistol", "dagger"]), max_size=2, unique=True),
    NAMES,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hero=HEROES)
def test_any_hero_the_builder_accepts_exports_to_a_pack_that_checks_and_plays(
    hero: MadeCharacter, tmp_path_factory
) -> None:
    catalog = pack().catalog
    character, problems = check(hero, catalog)
    assert character is not None and not [p for p in problems if p.is_error]
    folder = tmp_path_factory.mktemp("pack") / "our-party"
    folder.mkdir()
    for name, text in pack_files([hero], catalog, "our-party", "Our party").items():
        (folder / name).write_text(text)
    loaded = load([*content_dirs(), folder])
    assert loaded.problems == (), [p.format() for p in loaded.problems]
    assert loaded.catalog.heroes["ada-quill"].traits == character.traits
    merged = with_made(catalog, [hero])
    spec = EncounterSpec(
        "duel",
        ("ridge", "dig"),
        (("ridge", "dig", "short"),),
        (
            {"kind": "hero", "entry": "ada-quill", "side": "heroes", "zone": "ridge", "count": 1},
            {"kind": "minion", "entry": "pirate-raider", "side": "pirates", "zone": "dig"}
            | {"count": 2},
        ),
    )
    result = fight(spec, merged, random.Random(1), prepare(spec, merged))
    assert result.rounds >= 1


def test_a_version_4_campaign_opens_and_keeps_its_made_heroes_once_saved(tmp_path: Path) -> None:
    """Format 5 adds the campaign's own characters and budget: a version 4 file has none."""
    import shutil
    import subprocess
    import sys
    import tomllib

    path = tmp_path / "long-reach.toml"
    shutil.copy(Path(__file__).parent / "fixtures" / "versions" / "v4.toml", path)
    s = Session(content=pack())
    store.load(s, path)
    assert [m.name for m in s.campaign.party] == ["Kestrel Vance"]
    assert (s.campaign.made, s.campaign.budget) == ((), 0)
    s.apply(SetTraitBudget(16))
    s.apply(MakeCharacter(ADA))
    s.apply(AddHero("ada-quill"))
    store.save(s, path)
    assert tomllib.loads(path.read_text())["format_version"] == versions.VERSION
    check = [sys.executable, "-m", "hsm_tui", "campaign", "check", str(path)]
    done = subprocess.run(check, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    again = Session(content=pack())
    store.load(again, path)
    assert [m.name for m in again.campaign.party] == ["Kestrel Vance", "Ada Quill"]


def test_hsm_campaign_export_sheets_prints_each_party_heros_sheet(tmp_path: Path) -> None:
    """``hsm campaign export FILE --sheets``: the book's sheet, filled in as the campaign has
    each Hero now (R-CHAR-2..7, its wounds and pools), the campaign's own Heroes too."""
    import subprocess
    import sys

    from hsm_tui.campaign.party import GrantClues

    heavy = replace(ADA, equipment=(*ADA.equipment, EquipmentItem("Crate | of *tools*", 9, "cart")))
    s = Session(seed=1, content=pack())
    s.rename("Long Reach")
    s.apply(MakeCharacter(heavy))
    s.apply(AddHero("ada-quill"))
    s.apply(AddHero("kestrel-vance"))
    s.apply(GrantClues("kestrel-vance", 2))
    path = store.save(s, tmp_path / "long-reach.toml")
    out = tmp_path / "sheets.md"
    command = [sys.executable, "-m", "hsm_tui", "campaign", "export", str(path), "--sheets"]
    done = subprocess.run([*command, "--out", str(out)], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.startswith("# Long Reach: the party's sheets\n\n## Ada Quill\n")
    assert "**Player:** Sam" in text and "**Career:** Scout" in text
    assert "| Senses + Agility |" in text and "| 4 | 4 | 4 | 6 | 8 | 5 | 4 |" in text
    assert "| Crate \\| of \\*tools\\* | 9 | cart |" in text  # literal, not a new cell
    assert "Carried 13 of Encumbrance 10 · **Encumbered**" in text
    assert "## Kestrel Vance" in text and "Luck 2 · Clues 2" in text


def test_the_gm_edits_a_heros_lasting_chart_results() -> None:
    """§7: a row healed off, one from before the campaign added; each logged, undoable."""
    from hsm_tui.campaign.party import EditChart

    s = Session(seed=1, content=pack())
    s.apply(AddHero("kestrel-vance"))
    s.apply(EditChart("kestrel-vance", "scarred", add=True))
    s.apply(EditChart("kestrel-vance", "limb-injury", add=True))
    assert s.campaign.member("kestrel-vance").chart == ("scarred", "limb-injury")
    s.apply(EditChart("kestrel-vance", "scarred", add=False))
    assert s.log[-1].title == "Kestrel Vance: Scarred taken off (the GM's edit, §7)"
    assert s.campaign.member("kestrel-vance").chart == ("limb-injury",)
    said = refused(s, EditChart("kestrel-vance", "scarred", add=False))
    assert said == "Kestrel Vance has no Scarred to take off"
    assert refused(s, EditChart("kestrel-vance", "dead", add=True)) == (
        "a death is the chart's roll, not an edit"
    )
    s.undo()
    assert s.campaign.member("kestrel-vance").chart == ("scarred", "limb-injury")
