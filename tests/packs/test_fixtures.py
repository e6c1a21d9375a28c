"""One malformed pack per defect (``fixtures/NN-defect/``): the exact problem it must give.

Every fixture is the same tiny valid pack (weapons ``zap-pistol`` and ``shock-stick``,
minions ``grunt`` and ``lookout``) with exactly one defect; a fixture that needs two packs
is a folder of packs. For each the test checks every problem reported (file, line,
severity, code, entry id, key and a piece of the message) and which entries still load.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from hsm_tui.packs import Code, Problem, Severity, load

FIXTURES = Path(__file__).parent / "fixtures"
E, W = Severity.ERROR, Severity.WARNING

KINDS = ("weapons", "minions", "sidekicks", "heroes")
WEAPONS = ("shock-stick", "zap-pistol")
MINIONS = ("grunt", "lookout")


@dataclass(frozen=True)
class P:
    """An expected problem; ``where`` is ``file:line``, the file relative to the fixture."""

    where: str
    severity: Severity
    code: Code
    entry: str | None
    key: str | None
    says: str | tuple[str, ...]  # piece(s) of the message

    @property
    def file(self) -> str:
        return self.where.rpartition(":")[0]

    @property
    def line(self) -> int:
        return int(self.where.rpartition(":")[2])


@dataclass(frozen=True)
class Case:
    problems: tuple[P, ...]
    weapons: tuple[str, ...] = WEAPONS
    minions: tuple[str, ...] = MINIONS
    sidekicks: tuple[str, ...] = ()
    heroes: tuple[str, ...] = ()
    chart: tuple[str, ...] = ()
    pack_ids: tuple[str, ...] | None = None  # None: not checked
    extra: dict[str, object] = field(default_factory=dict)  # "weapon-id.attr": value


def case(*problems: P, **loaded: object) -> Case:
    return Case(problems, **loaded)  # type: ignore[arg-type]


# fmt: off
CASES: dict[str, Case] = {
    # -- files that do not parse: the whole file is left out -------------------------------
    "01-toml-syntax-error": case(
        P("minions.toml:9", E, Code.SYNTAX, None, None, "Invalid value (column 8)"),
        minions=(),
    ),
    "02-invalid-utf8": case(
        P("minions.toml:9", E, Code.SYNTAX, None, None, "not UTF-8 text: byte 0xff at column 13"),
        minions=(),
    ),
    "03-truncated-file": case(
        P("minions.toml:10", E, Code.SYNTAX, None, None, "at end of document"),
        minions=(),
    ),
    "39-nul-byte": case(
        P("minions.toml:9", E, Code.SYNTAX, None, None, "Illegal character '\\x00' (column 13)"),
        minions=(),
    ),
    # -- wrong types and ranges: the entry is left out -------------------------------------
    "04-wrong-type-string-for-int": case(
        P("weapons.toml:9", E, Code.TYPE, "zap-pistol", "power",
          "expected a whole number, got text"),
        weapons=("shock-stick",),
    ),
    "05-wrong-type-table-for-list": case(
        P("minions.toml:11", E, Code.TYPE, "lookout", "tags", "expected a list, got a table"),
        minions=("grunt",),
    ),
    "06-wrong-type-int-for-text": case(
        P("weapons.toml:9", E, Code.TYPE, "zap-pistol", "text",
          "expected text, got a whole number"),
        weapons=("shock-stick",),
    ),
    "07-trait-out-of-range": case(
        P("minions.toml:10", E, Code.RANGE, "lookout", "traits.strength", "from 1 to 4, got 5"),
        minions=("grunt",),
    ),
    "08-negative-rating": case(
        P("minions.toml:11", E, Code.RANGE, "lookout", "ratings.pistols", "from 0 to 99, got -1"),
        minions=("grunt",),
    ),
    "44-equipment-negative-enc": case(
        P("sidekicks.toml:7", E, Code.RANGE, "porter", "equipment.enc",
          "item 2: must be at least 0"),
    ),
    # -- unknown keys, tables and files ----------------------------------------------------
    "09-unknown-key-in-entry": case(
        P("weapons.toml:9", W, Code.UNKNOWN_KEY, "zap-pistol", "two_handd",
          "unknown key (did you mean 'two_handed'?)"),
    ),
    "10-unknown-key-in-traits": case(
        P("minions.toml:10", W, Code.UNKNOWN_KEY, "lookout", "traits.speed", "unknown key"),
    ),
    "11-misspelled-array-table": case(
        P("minions.toml:7", E, Code.UNKNOWN_KEY, None, None,
          "unknown table 'minions': its entries are not loaded (did you mean 'minion'?)"),
        minions=("grunt",),
    ),
    "12-entry-in-wrong-file": case(
        P("weapons.toml:18", E, Code.UNKNOWN_KEY, None, None,
          "minion entries belong in minions.toml"),
    ),
    "34-unknown-file-name": case(
        P("weapon.toml:0", W, Code.UNKNOWN_KEY, None, None,
          "unknown file, not loaded (did you mean 'weapons.toml'?)"),
    ),
    "38-single-table-not-array": case(
        P("heroes.toml:1", E, Code.TYPE, None, None, "write [[hero]]"),
    ),
    # -- required keys ---------------------------------------------------------------------
    "35-missing-required-key": case(
        P("weapons.toml:1", E, Code.MISSING_KEY, "zap-pistol", "damage", "required key is missing"),
        weapons=("shock-stick",),
    ),
    "36-ranged-weapon-without-attacks": case(
        P("weapons.toml:1", E, Code.MISSING_KEY, "zap-pistol", "attacks",
          "a ranged weapon needs attacks"),
        weapons=("shock-stick",),
    ),
    # -- ids and references ----------------------------------------------------------------
    "37-entry-id-not-kebab-case": case(
        P("weapons.toml:2", E, Code.ID, "Zap Pistol", "id", "'Zap Pistol' is not a kebab-case id"),
        weapons=("shock-stick",),
    ),
    "13-duplicate-id-in-pack": case(
        P("weapons.toml:19", E, Code.DUPLICATE, "zap-pistol", "id",
          ("duplicate id: already defined in ", "/13-duplicate-id-in-pack/weapons.toml:1")),
        extra={"zap-pistol.name": "Zap pistol"},  # the first one wins
    ),
    "14-duplicate-id-across-packs": case(
        P("beta/weapons.toml:2", E, Code.DUPLICATE, "zap-pistol", "id",
          ("duplicate id: already defined in ",
           "/14-duplicate-id-across-packs/alpha/weapons.toml:1")),
        extra={"zap-pistol.name": "Zap pistol", "zap-pistol.source.pack": "alpha"},
    ),
    "15-dangling-weapon-reference": case(
        P("minions.toml:5", E, Code.REFERENCE, "grunt", "weapons",
          "no weapon 'shock-stik' (did you mean 'shock-stick'?)"),
        minions=("lookout",),
    ),
    "16-reference-without-pack-prefix": case(
        P("user/minions.toml:5", E, Code.REFERENCE, "grunt", "weapons",
          "weapon 'shock-stick' is in pack 'base': write 'base:shock-stick'"),
        minions=(),
    ),
    "17-reference-to-pack-not-required": case(
        P("user/minions.toml:5", E, Code.REFERENCE, "grunt", "weapons",
          "weapon 'base:shock-stick' is in pack 'base', which is not in this pack's requires"),
        minions=(),
    ),
    "18-qualified-reference-ok": case(  # positive control
        minions=("grunt",), pack_ids=("base", "user"), extra={"grunt.weapons": ("shock-stick",)},
    ),
    "41-reference-to-left-out-weapon": case(
        P("minions.toml:5", E, Code.REFERENCE, "grunt", "weapons",
          "weapon 'shock-stick' was left out because of its own errors"),
        P("weapons.toml:15", E, Code.DICE, "shock-stick", "damage",
          "expected the number of sides after 'd' at position 2 in '1d'"),
        weapons=("zap-pistol",), minions=("lookout",),
    ),
    # -- dice, ranges, effects, suppression ------------------------------------------------
    "19-bad-dice-expression": case(
        P("weapons.toml:7", E, Code.DICE, "zap-pistol", "damage",
          "unexpected '*' at position 5 in '2d6+*3'"),
        weapons=("shock-stick",),
    ),
    "20-bad-attacks-expression": case(
        P("weapons.toml:6", E, Code.DICE, "zap-pistol", "attacks",
          "unknown name 'agilty' (did you mean 'agility'?) at position 3"),
        weapons=("shock-stick",),
    ),
    "21-unknown-range": case(
        P("weapons.toml:8", E, Code.VALUE, "zap-pistol", "range",
          "got 'meduim' (did you mean 'medium'?)"),
        weapons=("shock-stick",),
    ),
    "22-unknown-effect-kind": case(
        P("weapons.toml:9", E, Code.VALUE, "zap-pistol", "special.effect",
          "got 'extra-shot' (did you mean 'extra-shots'?)"),
        weapons=("shock-stick",),
    ),
    "23-effect-missing-value": case(
        P("weapons.toml:9", E, Code.MISSING_KEY, "zap-pistol", "fortune",
          "effect 'tn' needs value"),
        weapons=("shock-stick",),
    ),
    "24-special-with-special4": case(
        P("weapons.toml:9", E, Code.VALUE, "zap-pistol", "special",
          "use special (4 and 5) or special4/special5, not both"),
        weapons=("shock-stick",),
    ),
    "25-bad-suppression": case(
        P("weapons.toml:10", E, Code.VALUE, "zap-pistol", "suppression",
          "expected \"N/dM\" such as \"10/d4\", got '10-d4'"),
        weapons=("shock-stick",),
    ),
    # -- pack.toml and requires ------------------------------------------------------------
    "26-missing-pack-toml": case(
        P("pack.toml:0", E, Code.MISSING_PACK, None, None, "missing pack.toml"),
        weapons=(), minions=(), pack_ids=(),
    ),
    "27-pack-toml-without-pack-table": case(
        P("pack.toml:0", E, Code.MISSING_KEY, None, None, "needs a [pack] table"),
        P("pack.toml:1", W, Code.UNKNOWN_KEY, None, None,
          "unknown table 'pak' (did you mean 'pack'?)"),
        weapons=(), minions=(), pack_ids=(),
    ),
    "28-pack-id-not-kebab-case": case(
        P("pack.toml:2", E, Code.ID, "Fixture_Pack", "id", "'Fixture_Pack' is not a kebab-case id"),
        weapons=(), minions=(), pack_ids=(),
    ),
    "45-pack-toml-without-id": case(  # used to raise TypeError in the message label
        P("pack.toml:1", E, Code.MISSING_KEY, None, "id", "pack: id: required key is missing"),
        weapons=(), minions=(), pack_ids=(),
    ),
    "40-duplicate-pack-id": case(
        P("b/pack.toml:2", E, Code.DUPLICATE, None, "id",
          ("pack 'fixture' is already loaded from ", "/40-duplicate-pack-id/a")),
        pack_ids=("fixture",),  # b's spare-stick is not loaded
    ),
    "29-requires-missing-pack": case(
        P("pack.toml:5", E, Code.REQUIRES, None, "requires",
          "pack 'fixture' requires 'relic-world', which is not loaded"),
        pack_ids=("fixture",),
    ),
    "30-requires-cycle": case(
        P("alpha/pack.toml:5", E, Code.CYCLE, None, "requires",
          "requires cycle: alpha → beta → alpha"),
        P("beta/pack.toml:5", E, Code.CYCLE, None, "requires",
          "requires cycle: alpha → beta → alpha"),
        pack_ids=("alpha", "beta"),  # both still load
    ),
    # -- Severe Wound chart ----------------------------------------------------------------
    "31-chart-gap": case(
        P("charts.toml:11", W, Code.CHART, "dead", "min", "no chart entry covers 6"),
        chart=("scarred", "dead"),
    ),
    "32-chart-max-below-min": case(
        P("charts.toml:19", E, Code.RANGE, "oops", "max", "max 7 is below min 8"),
        chart=("scarred", "dead"),
    ),
    "42-chart-overlap": case(
        P("charts.toml:11", W, Code.CHART, "ptsd", "min", "overlaps the entry before it at 4"),
        chart=("scarred", "ptsd", "dead"),
    ),
    "43-chart-last-entry-closed": case(
        P("charts.toml:11", W, Code.CHART, "dead", "min",
          "leave out max on the last entry: totals of 10+ find no result"),
        chart=("scarred", "dead"),
    ),
    "46-chart-unknown-condition": case(
        P("charts.toml:13", E, Code.VALUE, "sore", "condition",
          "expected one of stunned, bleeding, painful, dying, got 'panful'"
          " (did you mean 'painful'?)"),
        # the row is left out, so its total is a gap in the chart that loads
        P("charts.toml:19", W, Code.CHART, "dead", "min", "no chart entry covers 6"),
        chart=("scarred", "dead"),
    ),
    "47-chart-turns-without-condition": case(
        P("charts.toml:13", E, Code.MISSING_KEY, "dazed", "turns",
          "says how long the row's condition lasts: name the condition"),
        P("charts.toml:19", W, Code.CHART, "dead", "min", "no chart entry covers 6"),
        chart=("scarred", "dead"),
    ),
    # -- rules -----------------------------------------------------------------------------
    "33-hero-talents-not-luck": case(
        P("heroes.toml:5", W, Code.RULES, "ace", "talents",
          "as many Talents as its Luck (2), found 1"),
        heroes=("ace",),
    ),
}
# fmt: on


def test_every_fixture_folder_has_a_case_and_every_case_a_folder():
    folders = {p.name for p in FIXTURES.iterdir() if p.is_dir()}
    assert folders == set(CASES)
    assert len(folders) >= 25


def _relative(problem: Problem, root: Path) -> str:
    return Path(problem.path).resolve().relative_to(root.resolve()).as_posix()


@pytest.mark.parametrize("name", sorted(CASES))
def test_fixture_reports_exactly_its_problem(name: str):
    root, expected = FIXTURES / name, CASES[name]
    result = load([root])
    got = [
        (_relative(p, root), p.line, p.severity, p.code, p.entry, p.key) for p in result.problems
    ]
    want = [(p.file, p.line, p.severity, p.code, p.entry, p.key) for p in expected.problems]
    assert sorted(got, key=repr) == sorted(want, key=repr), "\n".join(
        p.format() for p in result.problems
    )
    for want_problem in expected.problems:
        (match,) = [
            p
            for p in result.problems
            if (_relative(p, root), p.line, p.code)
            == (want_problem.file, want_problem.line, want_problem.code)
        ]
        says = want_problem.says
        for piece in (says,) if isinstance(says, str) else says:
            assert piece in match.message
        # the printed form keeps the file and line a GM can jump to
        assert match.format().startswith(f"{match.path}:{match.line}: {match.severity.value}: ")
        if match.entry is not None:
            assert repr(match.entry) in match.message  # the message names the entry
        if match.key is not None and match.entry is not None:
            assert f"{match.key}: " in match.message  # … and the key


@pytest.mark.parametrize("name", sorted(CASES))
def test_fixture_leaves_out_exactly_the_broken_entries(name: str):
    expected = CASES[name]
    catalog = load([FIXTURES / name]).catalog
    for kind in KINDS:
        assert sorted(catalog.kind(kind)) == sorted(getattr(expected, kind)), kind
    assert [row.id for row in catalog.chart] == list(expected.chart)
    if expected.pack_ids is not None:
        assert sorted(p.id for p in catalog.packs) == sorted(expected.pack_ids)
    entries = {**catalog.weapons, **catalog.minions, **catalog.sidekicks, **catalog.heroes}
    for dotted, value in expected.extra.items():
        entry_id, *attrs = dotted.split(".")
        obj: object = entries[entry_id]
        for attr in attrs:
            obj = getattr(obj, attr)
        assert obj == value, dotted


def test_errors_property_keeps_only_errors():
    result = load([FIXTURES / "27-pack-toml-without-pack-table"])
    assert [p.code for p in result.errors] == [Code.MISSING_KEY]
    assert len(result.problems) == 2
