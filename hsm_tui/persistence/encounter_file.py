"""The encounter file (TOML, documented in docs/command-line.md): zones, the bands between them, and
the combatants by pack id, count, side, zone, cover, a Sidekick's rules, the party's own
Heroes and who is hidden. Read and checked here into a prepared encounter
(:mod:`hsm_tui.campaign.prepared`), every problem named with its file and line; written
from one (F7's export); the combat screen loads it as set-up commands (``L``), and a
forecast plays it (:mod:`hsm_tui.forecast.simulate`) through :class:`EncounterSpec`.
"""

from __future__ import annotations

import random
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from ..campaign.combat import HANDLERS
from ..campaign.combat.setup import band_named, cover_named
from ..campaign.encounter import Encounter
from ..campaign.prepared import PreparedEncounter, PreparedRow, prepared_from
from ..campaign.staging import SetupProblem, setup_commands
from ..packs import Catalog
from ..packs.toml_lines import LineIndex
from ..rules import Cover, Rank, RulesError
from . import atomic
from .safe_read import MB, read_regular

LIMIT = MB
"""The largest encounter file read: a few hundred lines are a big one."""
UNDECIDED = "undecided"
"""``plays_as`` of a Sidekick whose rules the GM decides when the fight starts (a forecast,
as the builder's, plays it as a Hero)."""


@dataclass(frozen=True)
class EncounterSpec:
    """An encounter as a forecast plays it: rows of plain values, Sidekicks decided."""

    name: str
    zones: tuple[str, ...]
    bands: tuple[tuple[str, str, str], ...]
    combatants: tuple[dict[str, Any], ...]


def read_encounter(path: Path, catalog: Catalog) -> EncounterSpec:
    """An encounter file as a forecast plays it: two sides at least, or a RulesError."""
    prep = read_prepared(path, catalog)
    if len(prep.sides) < 2:
        raise RulesError(f"{path}: combatants must stand on at least two sides")
    return spec_of(prep)


def read_prepared(path: Path, catalog: Catalog) -> PreparedEncounter:
    """Read and check an encounter file: each problem is a RulesError with the file and
    the line at fault (``saves/bridge.toml:12: …``), never a traceback."""
    try:
        text = read_regular(path, LIMIT).decode("utf-8")
    except OSError as exc:
        raise RulesError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise RulesError(f"{path}: not an encounter file (not UTF-8 text)") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        why = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise RulesError(f"{path}:{at.group(1) if at else 1}: not valid TOML: {why}") from None
    except RecursionError:
        raise RulesError(f"{path}: not valid TOML: nested too deeply") from None
    lines = LineIndex(text)

    def problem(where: tuple[str | int, ...], why: str) -> RulesError:
        line = lines.line(where)
        return RulesError(f"{path}:{line}: {why}" if line else f"{path}: {why}")

    prep = _parsed(data, path.stem, catalog, problem)
    try:
        setup_commands(prep, catalog)
    except SetupProblem as err:
        raise problem(err.where, str(err)) from None
    return prep


def _parsed(data: dict[str, Any], stem: str, catalog: Catalog, problem: Any) -> PreparedEncounter:
    """The file's tables as a prepared encounter, each value's type checked where it is."""
    head = _table(data, "encounter", problem)
    name = head.get("name", stem)
    if not isinstance(name, str) or not name.strip():
        raise problem(("encounter", "name"), "[encounter] name is text")
    zones = []
    for i, zone in enumerate(_tables(data, "zone", problem)):
        if not isinstance(zone.get("name"), str) or not zone["name"].strip():
            raise problem(("zone", i), f"zone #{i + 1} needs a name (text)")
        zones.append(zone["name"])
    if not zones:
        raise problem(("zone",), "[[zone]] entries need a name (at least one zone)")
    bands = []
    for i, band in enumerate(_tables(data, "band", problem)):
        between = band.get("between")
        if not (
            isinstance(between, list)
            and len(between) == 2
            and all(isinstance(z, str) for z in between)
            and isinstance(band.get("band"), str)
        ):
            raise problem(("band", i), f'band #{i + 1} needs between = ["zone", "zone"] and band')
        try:
            bands.append((between[0], between[1], band_named(band["band"])))
        except RulesError as err:
            raise problem(("band", i, "band"), f"band #{i + 1}: {err}") from None
    rows = [
        _row(entry, i, catalog, problem)
        for i, entry in enumerate(_tables(data, "combatant", problem))
    ]
    policy = _table(data, "dive_policy", problem)
    if not all(isinstance(v, str) for v in policy.values()):
        raise problem(("dive_policy",), 'each [dive_policy] line is side = "stay" (text)')
    return PreparedEncounter(
        name.strip(), tuple(zones), tuple(bands), tuple(rows), tuple(policy.items())
    )


def _table(data: dict[str, Any], key: str, problem: Any) -> dict[str, Any]:
    table = data.get(key, {})
    if not isinstance(table, dict):
        raise problem((key,), f"[{key}] is a table")
    return table


def _tables(data: dict[str, Any], key: str, problem: Any) -> list[dict[str, Any]]:
    items = data.get(key, [])
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise problem((key,), f"{key} entries are [[{key}]] tables")
    return items


def _row(entry: dict[str, Any], i: int, catalog: Catalog, problem: Any) -> PreparedRow:
    """One ``[[combatant]]``: its kind found in the packs, its values' types checked."""
    at = ("combatant", i)
    if not all(isinstance(entry.get(k), str) for k in ("entry", "side", "zone")):
        raise problem(at, f"combatant #{i + 1} needs entry, side and zone (text)")
    kind = next(
        (k for k in ("hero", "sidekick", "minion") if entry["entry"] in catalog.kind(k)), ""
    )
    if not kind:
        why = f"no hero, sidekick or minion {entry['entry']!r} in the loaded packs"
        raise problem((*at, "entry"), f"combatant #{i + 1}: {why}")
    checks = {"count": int, "cover": str, "plays_as": str, "party": bool, "hidden": bool}
    for key, kind_of in checks.items():
        if key in entry and (type(entry[key]) is not kind_of):
            raise problem((*at, key), f"combatant #{i + 1}: {key} is {kind_of.__name__}")
    plays_as = entry.get("plays_as", Rank.HERO.value if kind == "sidekick" else None)
    if plays_as not in (None, UNDECIDED, Rank.HERO.value, Rank.MINION.value):
        raise problem(
            (*at, "plays_as"), f"combatant #{i + 1}: plays_as is hero, minion or {UNDECIDED}"
        )
    try:
        cover = cover_named(entry.get("cover", "none"))
    except RulesError as err:
        raise problem((*at, "cover"), f"combatant #{i + 1}: {err}") from None
    return PreparedRow(
        kind,
        entry["entry"],
        entry["side"],
        entry["zone"],
        entry.get("count", 1),
        cover,
        None if plays_as in (None, UNDECIDED) else Rank(plays_as),
        entry.get("party", False),
        entry.get("hidden", False),
    )


def encounter_text(prep: PreparedEncounter) -> str:
    """``prep`` as an encounter file that :func:`read_prepared` reads back as it is."""
    data: dict[str, Any] = {
        "encounter": {"name": prep.name},
        "zone": [{"name": z} for z in prep.zones],
        "band": [{"between": [a, b], "band": band.label} for a, b, band in prep.bands],
        "combatant": [_row_table(row, forecast=False) for row in prep.rows],
    }
    if prep.dive_policy:
        data["dive_policy"] = dict(prep.dive_policy)
    note = (
        "# An encounter prepared in hsm-tui: F7 P imports it; hsm simulate --encounter plays it.\n"
    )
    return note + tomli_w.dumps({k: v for k, v in data.items() if v})


def write_encounter(prep: PreparedEncounter, path: Path) -> Path:
    """Write ``prep`` as an encounter file at ``path`` (whole or not at all; its folder made
    when there is none); OSError if the folder cannot take it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.replace_file(path, encounter_text(prep).encode("utf-8"), 0o644)
    return path


def spec_of(prep: PreparedEncounter) -> EncounterSpec:
    """``prep`` as a forecast plays it: an undecided Sidekick as a Hero (the file's
    default), the party's Heroes from their pack entries."""
    combatants = tuple(_row_table(row, forecast=True) for row in prep.rows)
    bands = tuple((a, b, band.label) for a, b, band in prep.bands)
    return EncounterSpec(prep.name, prep.zones, bands, combatants)


def _row_table(row: PreparedRow, forecast: bool) -> dict[str, Any]:
    """A row as a ``[[combatant]]`` table, or (``forecast``) as a spec's row: its kind and
    count always, an undecided Sidekick as a Hero."""
    item: dict[str, Any] = {"kind": row.kind} if forecast else {}
    item |= {"entry": row.entry, "side": row.side, "zone": row.zone}
    if forecast or row.count != 1:
        item["count"] = row.count
    if row.cover is not Cover.NONE:
        item["cover"] = row.cover.label
    if row.kind == "sidekick":
        decided = row.plays_as or (Rank.HERO if forecast else None)
        item["plays_as"] = decided.value if decided else UNDECIDED
    return item | {k: True for k in ("party", "hidden") if getattr(row, k)}


def prepared_of(spec: EncounterSpec) -> PreparedEncounter:
    """A spec's rows as a prepared encounter's (a value the engine refuses is its to say)."""
    rows = tuple(
        PreparedRow(
            c["kind"],
            c["entry"],
            c["side"],
            c["zone"],
            int(c.get("count", 1)),
            cover_named(c.get("cover", "none")),
            Rank(c.get("plays_as", "hero")) if c["kind"] == "sidekick" else None,
            bool(c.get("party")),
            bool(c.get("hidden")),
        )
        for c in spec.combatants
    )
    bands = tuple((a, b, band_named(band)) for a, b, band in spec.bands)
    return PreparedEncounter(spec.name, spec.zones, bands, rows)


def encounter_commands(spec: EncounterSpec, catalog: Catalog) -> list[Any]:
    """The set-up commands the spec describes (zones, bands, combatants, cover, Sidekick
    rules), without StartCombat: a Session applies them as one Batch to start play.
    """
    return list(setup_commands(prepared_of(spec), catalog)[0])


def encounter_spec(enc: Encounter, name: str = "Encounter builder") -> EncounterSpec:
    """The session's encounter as a forecast spec: combatants grouped by entry, side, zone,
    cover and rules; an undecided Sidekick is forecast as a Hero (the file format's default).
    """
    return spec_of(prepared_from(enc, name))


def prepare(spec: EncounterSpec, catalog: Catalog) -> Encounter:
    """The encounter the file describes, before combat starts. Set-up rolls nothing, so
    one is built per forecast and every fight starts from it
    (:func:`hsm_tui.forecast.simulate.setup`).
    """
    enc, rng = Encounter(zones=()), random.Random(0)
    for command in encounter_commands(spec, catalog):
        enc = HANDLERS[type(command)](enc, command, rng, catalog).encounter
    return enc
