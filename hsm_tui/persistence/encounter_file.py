"""The encounter file (TOML, documented in docs/command-line.md): zones, the bands between them, and
the combatants by pack id, count, side, zone, cover and a Sidekick's rules. Read and
checked here; the combat screen loads it as set-up commands (``L``), the builder
describes its encounter in it, and a forecast plays it (:mod:`hsm_tui.forecast.simulate`).
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..campaign.combat import (
    HANDLERS,
    AddCombatants,
    AddZone,
    DecideSidekick,
    SetBand,
    SetCover,
)
from ..campaign.encounter import Encounter
from ..packs import Catalog
from ..rules import Cover, Rank, RulesError


@dataclass(frozen=True)
class EncounterSpec:
    """A parsed encounter file."""

    name: str
    zones: tuple[str, ...]
    bands: tuple[tuple[str, str, str], ...]
    combatants: tuple[dict[str, Any], ...]


def read_encounter(path: Path, catalog: Catalog) -> EncounterSpec:
    """Read and check an encounter file; every problem is a RulesError naming the key."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RulesError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except (ValueError, RecursionError) as exc:
        raise RulesError(f"{path}: not valid TOML: {exc}") from None
    head = data.get("encounter", {})
    zones = tuple(z.get("name", "") for z in data.get("zone", []) if isinstance(z, dict))
    if not zones or not all(isinstance(z, str) and z for z in zones):
        raise RulesError(f"{path}: [[zone]] entries need a name (at least one zone)")
    bands = []
    for i, band in enumerate(data.get("band", []), start=1):
        between = band.get("between") if isinstance(band, dict) else None
        if not (
            isinstance(between, list) and len(between) == 2 and isinstance(band.get("band"), str)
        ):
            raise RulesError(
                f'{path}: band #{i} needs between = ["zone", "zone"] and band = "short"'
            )
        bands.append((between[0], between[1], band["band"]))
    combatants = []
    for i, entry in enumerate(data.get("combatant", []), start=1):
        if not isinstance(entry, dict) or not all(
            isinstance(entry.get(k), str) for k in ("entry", "side", "zone")
        ):
            raise RulesError(f"{path}: combatant #{i} needs entry, side and zone (text)")
        combatants.append({"kind": _kind_of(entry["entry"], catalog, path, i), **entry})
    if len({c["side"] for c in combatants}) < 2:
        raise RulesError(f"{path}: combatants must stand on at least two sides")
    return EncounterSpec(str(head.get("name", path.stem)), zones, tuple(bands), tuple(combatants))


def _kind_of(entry: str, catalog: Catalog, path: Path, index: int) -> str:
    for kind in ("hero", "sidekick", "minion"):
        if entry in catalog.kind(kind):
            return kind
    raise RulesError(
        f"{path}: combatant #{index}: no hero, sidekick or minion {entry!r} in the loaded packs"
    )


def encounter_commands(spec: EncounterSpec, catalog: Catalog) -> list[Any]:
    """The set-up commands the file describes (zones, bands, combatants, cover, Sidekick
    rules), without StartCombat: a Session applies them as one Batch to start play.
    """
    enc, commands = Encounter(zones=()), []
    rng = random.Random(0)  # set-up commands roll nothing before combat starts

    def run(command: Any) -> None:
        nonlocal enc
        enc = HANDLERS[type(command)](enc, command, rng, catalog).encounter
        commands.append(command)

    for zone in spec.zones:
        run(AddZone(zone))
    for a, b, band in spec.bands:
        run(SetBand(a, b, band))
    for c in spec.combatants:
        before = {x.id for x in enc.combatants}
        run(AddCombatants(c["kind"], c["entry"], c["side"], c["zone"], int(c.get("count", 1))))
        for added in (x for x in enc.combatants if x.id not in before):
            if "cover" in c:
                run(SetCover(added.id, c["cover"]))
            if c["kind"] == "sidekick":
                run(DecideSidekick(added.id, c.get("plays_as", "hero")))
    return commands


def encounter_spec(enc: Encounter, name: str = "Encounter builder") -> EncounterSpec:
    """The session's encounter as a forecast spec: combatants grouped by entry, side, zone,
    cover and rules; an undecided Sidekick is forecast as a Hero (the file format's default).
    """
    groups: dict[tuple[str, str, str, str, Cover, str | None], int] = {}
    for c in enc.combatants:
        plays_as = None
        if c.rank is Rank.SIDEKICK:
            plays_as = c.plays_as.value if c.plays_as else Rank.HERO.value
        key = (c.rank.value, c.entry, c.side, c.zone, c.cover, plays_as)
        groups[key] = groups.get(key, 0) + 1
    combatants = []
    for (kind, entry, side, zone, cover, plays_as), count in groups.items():
        row: dict[str, Any] = {"kind": kind, "entry": entry, "side": side, "zone": zone}
        row["count"] = count
        if cover is not Cover.NONE:
            row["cover"] = cover.label
        if plays_as is not None:
            row["plays_as"] = plays_as
        combatants.append(row)
    bands = tuple((a, b, band.label) for a, b, band in enc.bands)
    return EncounterSpec(name, enc.zones, bands, tuple(combatants))


def prepare(spec: EncounterSpec, catalog: Catalog) -> Encounter:
    """The encounter the file describes, before combat starts. Set-up rolls nothing, so
    one is built per forecast and every fight starts from it
    (:func:`hsm_tui.forecast.simulate.setup`).
    """
    enc, rng = Encounter(zones=()), random.Random(0)
    for command in encounter_commands(spec, catalog):
        enc = HANDLERS[type(command)](enc, command, rng, catalog).encounter
    return enc
