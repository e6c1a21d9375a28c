"""What a campaign names that the loaded packs no longer have (packs changed since the
save, or a hand edit: a Severe Wound chart row misspelt). Nothing is dropped: each stays
as saved, with a placeholder where it is shown (a roster line "(missing)", a sheet's
weapon "not in the loaded packs"), and opening the campaign says which, so the GM can
put the pack back or replace them.
"""

from __future__ import annotations

from ..packs import Catalog
from .encounter import Combatant, Encounter
from .making import check
from .party import Campaign, PartyMember

KINDS = ("hero", "sidekick", "minion")


def missing_entries(campaign: Campaign, enc: Encounter, catalog: Catalog) -> list[str]:
    """One line per entry the packs lack: the campaign's own characters that no longer
    check (a pack they take weapons from changed, or a hand-edited file), party Heroes,
    the roster, the encounter's combatants and the weapons they carry (each named once)."""
    lines = []
    for made in campaign.made:
        _character, problems = check(made, catalog)
        errors = [p.message for p in problems if p.is_error]
        if errors:
            lines.append(f"{errors[0]} (the campaign's {made.kind}, kept as saved: F8 g mends it)")
    own = {m.id for m in campaign.made}
    lines += [
        f"{m.name}: hero {m.entry!r} is not in the loaded packs (it cannot join a fight)"
        for m in campaign.party
        if m.entry not in catalog.kind("hero") and m.entry not in own
    ]
    lines += [
        f"roster: {kind} {entry!r} is not in the loaded packs (kept, marked missing)"
        for kind, entry in campaign.roster
        if entry not in catalog.kind(kind)
    ]
    known = {e for kind in KINDS for e in catalog.kind(kind)}
    lines += [
        f"{c.name}: entry {c.entry!r} is not in the loaded packs (it fights as saved)"
        for c in enc.combatants
        if c.entry and c.entry not in known
    ]
    weapons: dict[str, list[str]] = {}
    for c in enc.combatants:
        for w in c.weapons:
            if w.id not in catalog.weapons:
                weapons.setdefault(w.id, []).append(c.name)
    lines += [
        f"weapon {wid!r} is not in the loaded packs ({', '.join(names)} cannot use it)"
        for wid, names in weapons.items()
    ]
    lines += [
        f"{who}: Severe Wound chart row {row!r} is not in the loaded packs (kept as saved)"
        for _, who, row in unknown_rows(campaign, enc, catalog)
    ]
    return lines


def unknown_rows(
    campaign: Campaign, enc: Encounter, catalog: Catalog
) -> list[tuple[str, str, str]]:
    """Each Severe Wound chart row (§7) a party Hero or a combatant carries that the packs'
    chart lacks, as (its key in the state, whose it is, the row): the chart is the packs',
    so only a campaign opened on them can tell."""
    rows = {row.id for row in catalog.chart}
    carriers: list[tuple[str, PartyMember | Combatant]] = [
        *((f"campaign.party[{i}]", m) for i, m in enumerate(campaign.party)),
        *((f"encounter.combatants[{i}]", c) for i, c in enumerate(enc.combatants)),
    ]
    return [
        (f"{key}.chart[{j}]", who.name, row)
        for key, who in carriers
        for j, row in enumerate(who.chart)
        if row not in rows
    ]
