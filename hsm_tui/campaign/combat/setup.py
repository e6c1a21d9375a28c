"""Setting the scene: zones and the bands between them, who joins the encounter (late
arrivals roll initiative), cover, Luck and Clues, conditions, a Sidekick's rules, who
leaves, and clearing the encounter for the next fight.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...packs import Catalog, Character
from ...rules import Cover, Derived, RangeBand, Rank, RulesError
from ...rules.combat import InitiativeRoll, initiative_key
from ...rules.secret import secret
from ..conditions import check_condition, with_condition
from ..countdowns import without_countdown
from ..encounter import MAX_POOL, Combatant, Encounter, evolve
from ..party import LASTING
from .commands import (
    AddCombatants,
    AddZone,
    ApplyDamage,
    ClearEncounter,
    CombatCommand,
    DecideSidekick,
    Kind,
    Place,
    RemoveCombatant,
    Reveal,
    SetBand,
    SetCondition,
    SetCover,
    SetPools,
)
from .gear import weapon_state
from .outcome import LogLines, Outcome
from .spots import ON_THE_WAY, vacated, without_spots


# -- helpers -------------------------------------------------------------------------
def band_named(name: str) -> RangeBand:
    try:
        return RangeBand[name.strip().upper().replace("-", "_")]
    except KeyError:
        bands = ", ".join(b.label for b in RangeBand)
        raise RulesError(f"unknown range band {name!r} (one of {bands})") from None


def cover_named(name: str) -> Cover:
    try:
        return Cover[name.strip().upper()]
    except KeyError:
        raise RulesError(f"unknown cover {name!r} (none, light, medium, heavy)") from None


def _entry(catalog: Catalog, kind: str, entry: str) -> Character:
    if kind not in tuple(Kind):
        raise RulesError(f"unknown kind {kind!r} (minion, sidekick or hero)")
    table = catalog.kind(kind)
    if entry not in table:
        raise RulesError(f"no {kind} {entry!r} in the loaded packs")
    return table[entry]  # type: ignore[return-value]


def _numbered(name: str, cid: str, count: int) -> str:
    """``Pirate raider 2`` when several of one entry join at once."""
    return name if count == 1 else f"{name} {cid.rsplit('-', 1)[1]}"


def _unique_id(encounter: Encounter, base: str) -> str:
    taken = {c.id for c in encounter.combatants}
    n = 1
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


# -- handlers ------------------------------------------------------------------------
MAX_ZONE_NAME = 24
"""The longest name a GM gives a zone: it heads a row of the board and F7's lists, and
a spot on the way holds two of them (``dig pit → landing pad (medium)``)."""


def zone_name_refusal(zones: Sequence[str], name: str) -> str:
    """Why a new zone may not take ``name``, "" if it may: a name is needed, short enough
    to read on the board, without the arrow that marks the engine's spots on the way, and
    one that matches a zone whatever its case and spaces is that zone
    (``Encounter.zone_named``).
    """
    wanted = name.strip().casefold()
    if not wanted:
        return "a zone needs a name"
    if len(wanted) > MAX_ZONE_NAME:
        return f"a zone name is at most {MAX_ZONE_NAME} characters (this one has {len(wanted)})"
    if ON_THE_WAY.strip() in wanted:
        return "→ marks a spot on the way, which the engine names: pick another name"
    same = next((zone for zone in zones if zone.casefold() == wanted), None)
    return f"zone {same!r} already exists" if same is not None else ""


def add_zone(enc: Encounter, cmd: AddZone, _rng: random.Random, _cat: Catalog) -> Outcome:
    name = cmd.name.strip()
    refusal = zone_name_refusal(enc.zones, name)
    if refusal:
        raise RulesError(refusal)
    return Outcome(evolve(enc, zones=(*enc.zones, name)), (LogLines(f"Zone {name}", ()),))


def set_band(enc: Encounter, cmd: SetBand, _rng: random.Random, _cat: Catalog) -> Outcome:
    band, a, b = band_named(cmd.band), enc.zone_named(cmd.a), enc.zone_named(cmd.b)
    return Outcome(enc.with_band(a, b, band), (LogLines(f"{a} ↔ {b}: {band.label}", ()),))


def add_combatants(enc: Encounter, cmd: AddCombatants, rng: random.Random, cat: Catalog) -> Outcome:
    """Put pack entries into a zone; during combat they roll initiative and join the order."""
    cmd = evolve(cmd, zone=enc.zone_named(cmd.zone))
    if not 1 <= cmd.count <= 40:
        raise RulesError(f"add 1 to 40 at a time, not {cmd.count}")
    entry = _entry(cat, cmd.kind, cmd.entry)
    group = f"{entry.id}@{cmd.side}" if entry.rank is Rank.MINION else None
    acting = {r.actor for r in enc.order}
    n = 2
    while group is not None and enc.active and group in acting:  # a new group, not a merge
        group, n = f"{entry.id}@{cmd.side}+{n}", n + 1
    added = []
    for _ in range(cmd.count):
        cid = _unique_id(evolve(enc, combatants=(*enc.combatants, *added)), entry.id)
        added.append(
            Combatant(
                id=cid,
                name=_numbered(entry.name, cid, cmd.count),
                side=cmd.side,
                rank=entry.rank,
                group=group or cid,
                traits=entry.traits,
                ratings=entry.ratings,
                zone=cmd.zone,
                weapons=tuple(weapon_state(cat.weapons[w]) for w in entry.weapons),
                player=cmd.player,
                size=entry.size,
                luck=entry.traits.luck if entry.rank is Rank.HERO else 0,
                entry=entry.id,
                hidden=cmd.hidden,
            )
        )
    enc = evolve(enc, combatants=(*enc.combatants, *added))
    lines: tuple[str, ...] = ()
    if enc.active:
        enc, lines = _join_initiative(enc, added, rng)
    return Outcome(
        enc, (LogLines(f"{cmd.count} × {entry.name} join {cmd.side} in {cmd.zone}", lines),)
    )


def _join_initiative(
    enc: Encounter, added: list[Combatant], rng: random.Random
) -> tuple[Encounter, tuple[str, ...]]:
    """R-INIT-1 for late arrivals: each new group rolls d10 + Initiative and takes its place
    by R-INIT-2 ("Heroes first, Sidekicks second, Minions third", then the player), after
    anyone equal in all of those; a slot already passed this round first acts next round.
    """
    order, index, lines = list(enc.order), enc.turn_index, []
    for c in {c.group: c for c in added}.values():
        roll = InitiativeRoll(
            c.group, c.side, c.rank, c.player, c.traits[Derived.INITIATIVE], rng.randint(1, 10)
        )
        after = initiative_key(roll)
        slot = next((i for i, r in enumerate(order) if initiative_key(r) > after), len(order))
        order.insert(slot, roll)
        if slot <= index:
            index += 1
        when = "this round" if slot > index else "from next round"
        gms = not c.player  # a Minion's Initiative is the GM's
        total = f"{secret(roll.rating, gms)} = {secret(roll.total, gms)}"
        lines.append(f"initiative d10 {roll.d10} + {total}: acts {when}")
    return evolve(enc, order=tuple(order), turn_index=index), tuple(lines)


def reveal(enc: Encounter, cmd: Reveal, _rng: random.Random, _cat: Catalog) -> Outcome:
    """The GM shows the players a hidden combatant and the rest of its group."""
    c = enc.get(cmd.combatant)
    group = [m for m in enc.combatants if m.group == c.group and m.hidden]
    if not group:
        raise RulesError(f"{c.name} is not hidden from the players")
    for m in group:
        enc = enc.with_combatant(evolve(m, hidden=False))
    names = ", ".join(m.name for m in group)
    return Outcome(enc, (LogLines(f"Revealed: {names}", ()),))


def next_cover(cover: Cover) -> Cover:
    """The cover one key press steps to: none → light → medium → heavy → none (R-ATK-6)."""
    return Cover((int(cover) + 1) % len(Cover))


def set_cover(enc: Encounter, cmd: SetCover, _rng: random.Random, _cat: Catalog) -> Outcome:
    c = enc.get(cmd.combatant)
    cover = cover_named(cmd.cover)
    return Outcome(
        enc.with_combatant(evolve(c, cover=cover)),
        (LogLines(f"{c.name}: {cover.label} cover", ()),),
    )


def place_refusal(enc: Encounter, cmd: Place) -> str:
    """Why the combatant cannot be placed there now, "" if it can: set-up only, since in a
    fight the way to another zone is a Move (R-ACT-2); a menu marks it before the pick.
    """
    c, zone = enc.get(cmd.combatant), enc.zone_named(cmd.zone)
    if enc.active:
        return f"the fight is on: {c.name} moves (m) to another zone (R-ACT-2)"
    return f"{c.name} is already in {zone}" if zone == c.zone else ""


def place(enc: Encounter, cmd: Place, _rng: random.Random, _cat: Catalog) -> Outcome:
    """The new zone's cover is the GM's to set (``c``), so it starts out of cover."""
    refusal = place_refusal(enc, cmd)
    if refusal:
        raise RulesError(refusal)
    c, zone = enc.get(cmd.combatant), enc.zone_named(cmd.zone)
    placed = enc.with_combatant(evolve(c, zone=zone, cover=Cover.NONE))
    placed, gone = vacated(placed, c.zone)
    return Outcome(placed, (LogLines(f"{c.name} is placed in {zone}", gone),))


def pools_refusal(c: Combatant) -> str:
    """Why ``c`` has no Luck or Clues to set (R-CHAR-9), "" if it has: a view asks before
    it opens the editor."""
    if c.rules_rank is not Rank.HERO:
        return f"{c.name} plays as a Minion: no Luck or Clues (R-CHAR-9)"
    return ""


def set_pools(enc: Encounter, cmd: SetPools, _rng: random.Random, _cat: Catalog) -> Outcome:
    c = enc.get(cmd.combatant)
    refusal = pools_refusal(c)
    if refusal:
        raise RulesError(refusal)
    luck = c.luck if cmd.luck is None else cmd.luck
    clues = c.clues if cmd.clues is None else cmd.clues
    if not (0 <= luck <= MAX_POOL and 0 <= clues <= MAX_POOL):
        raise RulesError(f"Luck and Clues are 0 to {MAX_POOL}")
    return Outcome(
        enc.with_combatant(evolve(c, luck=luck, clues=clues)),
        (LogLines(f"{c.name}: Luck {luck}, Clues {clues} (R-CHAR-9)", ()),),
    )


def set_condition(enc: Encounter, cmd: SetCondition, _rng: random.Random, _cat: Catalog) -> Outcome:
    c = enc.get(cmd.combatant)
    name = cmd.condition.strip().lower()
    if name in ("prone", "unconscious"):
        if cmd.level not in (0, 1):
            raise RulesError(f"{name} is 1 (set) or 0 (clear)")
        if name == "unconscious" and c.out:
            raise RulesError(f"{c.name} is out of the fight (taken out or dead)")
        changed = evolve(c, **{name: bool(cmd.level)})
        text = name if cmd.level else f"no longer {name}"
    else:
        info = check_condition(name, cmd.level)
        changed = with_condition(c, name, cmd.level)
        if not cmd.level:  # a timed mark cleared by hand: its countdown goes with it
            changed = without_countdown(changed, name)
        text = (
            f"{name}{f' {cmd.level}' if info.leveled else ''}: {info.text}"
            if cmd.level
            else f"no longer {name}"
        )
    if changed == c:
        raise RulesError(
            f"{c.name} is already {text.removeprefix('no longer ')}"
            if cmd.level
            else f"{c.name} is not {name}"
        )
    return Outcome(enc.with_combatant(changed), (LogLines(f"{c.name}: {text} (§8)", ()),))


def outside_fight(command: CombatCommand) -> None:
    """Refuse what a party Hero outside the encounter cannot take: a non-lethal wound (its
    marker is kept in a fight, R-WOUND-6) or a §8 condition of a fight (between fights a
    Hero keeps only :data:`~..party.LASTING`).
    """
    if isinstance(command, ApplyDamage) and command.nonlethal:
        raise RulesError(
            "non-lethal wounds are kept in a fight: put the party in the encounter (F7 p)"
        )
    if isinstance(command, SetCondition) and command.condition.strip().lower() not in LASTING:
        raise RulesError(
            f"outside a fight a Hero keeps only {', '.join(LASTING)} (§8):"
            f" {command.condition} belongs to a fight"
        )


def decide_sidekick(
    enc: Encounter, cmd: DecideSidekick, _rng: random.Random, _cat: Catalog
) -> Outcome:
    c = enc.get(cmd.combatant)
    if c.rank is not Rank.SIDEKICK:
        raise RulesError(f"{c.name} is not a Sidekick")
    if c.plays_as is not None:
        raise RulesError(
            f"{c.name} already plays as a {c.plays_as.value} until the encounter ends (R-CHAR-8)"
        )
    rank = {"hero": Rank.HERO, "minion": Rank.MINION}.get(cmd.rank.lower())
    if rank is None:
        raise RulesError("a Sidekick plays as a hero or a minion")
    luck = c.traits.luck if rank is Rank.HERO else 0
    return Outcome(
        enc.with_combatant(evolve(c, plays_as=rank, luck=luck)),
        (LogLines(f"{c.name} plays as a {rank.value} this encounter (R-CHAR-8)", ()),),
    )


def remove_combatant(
    enc: Encounter, cmd: RemoveCombatant, _rng: random.Random, _cat: Catalog
) -> Outcome:
    c = enc.get(cmd.combatant)
    if enc.turn is not None and c.group == enc.turn.actor:
        raise RulesError(f"{c.name} is acting now: end its turn first")
    others = tuple(
        evolve(o, engaged=tuple(e for e in o.engaged if e != c.id)) if c.id in o.engaged else o
        for o in enc.combatants
        if o.id != c.id
    )
    order, index = enc.order, enc.turn_index
    if not any(o.group == c.group for o in others):  # the group's initiative slot goes
        slot = next((i for i, r in enumerate(order) if r.actor == c.group), None)
        if slot is not None:
            order = (*order[:slot], *order[slot + 1 :])
            index -= int(slot < index)
    turn = None if enc.turn is None else enc.turn.without(c.id)  # a Hero who reacted, say
    enc, gone = vacated(
        evolve(enc, combatants=others, order=order, turn_index=index, turn=turn), c.zone
    )
    return Outcome(enc, (LogLines(f"{c.name} leaves the encounter", gone),))


def clear_encounter(
    enc: Encounter, cmd: ClearEncounter, _rng: random.Random, _cat: Catalog
) -> Outcome:
    """A new encounter (R-COMBAT-1: only in free-flowing mode); the party's wounds, Luck
    and scars live in the campaign, which the session updates as for EndCombat.
    """
    if enc.active:
        raise RulesError("combat is under way: end it first, then start a new encounter")
    scene = without_spots(enc)  # the spots on the way were the fight's, not the scene's
    fresh = (
        Encounter(zones=scene.zones, bands=scene.bands) if cmd.keep_zones else Encounter(zones=())
    )
    if fresh == enc:
        raise RulesError("the encounter is already empty")
    place = "zones and bands kept" if cmd.keep_zones else "zones and bands cleared"
    gone = f"{len(enc.combatants)} combatant(s) removed"
    return Outcome(fresh, (LogLines("New encounter", (gone, place)),))
