"""The combat engine: commands that advance an :class:`Encounter` (RULES.md §3–§8).

Each handler takes the encounter, the command, the session's RNG and the catalog, and
returns an :class:`Outcome`: the new encounter, explained log entries, and possibly a
pending decision the UI must answer (nothing blocks inside the engine). A command the
rules forbid raises RulesError before anything changes.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Generic, TypeVar

from ..packs import Catalog, Character, SevereWound, Weapon
from ..packs.model import Suppression
from ..rules import (
    Cover,
    Derived,
    Modifier,
    RangeBand,
    Rank,
    Rating,
    RulesError,
    TargetNumber,
    Trait,
    attack_odds,
    defense_odds,
    roll_attack,
    roll_damage,
    roll_defense,
)
from ..rules.combat import (
    FIGHTING_STYLES,
    AttackSituation,
    InitiativeRoll,
    WoundResult,
    apply_wound_steps,
    attack_dice,
    attack_tn,
    initiative_order,
    max_actions,
    severe_wound_modifier,
)
from ..rules.dice import parse
from ..rules.dice import roll as roll_expression
from ..rules.effects import Effect, EffectKind, Trigger
from ..rules.odds import PoolOdds, percent, suggest_split, wound_odds
from ..rules.tasks import (
    HeroFace,
    PoolRoll,
    card_reroll,
    paid_text,
    pay_rerolls,
    reroll,
    suggested_rerolls,
    wound_steps,
)
from .conditions import (
    CONDITIONS,
    ENGINE_MARKS,
    bleed_out,
    check_condition,
    level,
    nausea,
    panic_check,
    penalty,
    start_of_turn,
    trait_roll,
    with_condition,
    wound_marker,
)
from .encounter import MAX_POOL, Combatant, Encounter, Turn, WeaponState, evolve

GM = "gm"


@dataclass(frozen=True)
class LogLines:
    title: str
    lines: tuple[str, ...]


Answer = TypeVar("Answer")


@dataclass(frozen=True)
class Option(Generic[Answer]):
    """One answer to a question: a key a view may bind, its label, and what picking it
    gives (the engine's decisions give a command; a view's own questions may give any value).
    """

    key: str
    label: str
    command: Answer


@dataclass(frozen=True)
class PendingDive:
    """R-ATK-5: the target of a ranged attack may dive for cover before Defense."""

    attack: AttackState
    question: str
    cover: Cover = Cover.NONE  # the target's cover now: it may only dive to better

    @property
    def options(self) -> tuple[Option, ...]:
        better = [c for c in Cover if c > self.cover]
        return (
            Option("n", "stay put (no dive)", AnswerDive("none")),
            *(
                Option(str(int(c)), f"dive into {c.label} cover", AnswerDive(c.label))
                for c in better
            ),
        )


@dataclass(frozen=True)
class PendingChartChoice:
    """§7 erratum: on a 13 the GM picks one of the two rows."""

    target: str
    total: int
    rows: tuple[str, ...]
    question: str
    resume: AttackState | None = None  # the hits still to resolve after the pick
    next_hit: int = 1
    names: tuple[str, ...] = ()  # each row's name and effect, for the GM to choose by

    @property
    def options(self) -> tuple[Option, ...]:
        names = self.names or self.rows
        return (
            *(
                Option(str(i), n, ChooseChartRow(r))
                for i, (r, n) in enumerate(zip(self.rows, names, strict=True), 1)
            ),
            Option("r", "roll for it (50/50)", ChooseChartRow("random")),
        )


@dataclass(frozen=True)
class PendingSidekick:
    """R-CHAR-8: the first time mechanics touch a Sidekick, the GM picks its rules."""

    combatant: str
    question: str

    @property
    def options(self) -> tuple[Option, ...]:
        return (
            Option("h", "plays as a Hero", DecideSidekick(self.combatant, "hero")),
            Option("m", "plays as a Minion", DecideSidekick(self.combatant, "minion")),
        )


@dataclass(frozen=True)
class PendingCombatRerolls:
    """R-TASK-6 / R-CHAR-9 in combat: a Hero with Luck or Clues decides after seeing its
    attack (or Defense) roll how many re-rolls to spend, free ones (Aim, Dodge, granted
    Talents) first; all are rolled at once. The attack then goes on from ``stage``.
    """

    roller: str
    roll: PoolRoll
    free: int
    luck: int
    clues: int
    stage: str  # "attack" or "defense"
    attack: AttackState
    tn: int
    title: str
    question: str

    @property
    def available(self) -> int:
        """Every re-roll the roller may spend now: free ones, then Luck and Clues."""
        return self.free + self.luck + self.clues

    @property
    def suggested(self) -> tuple[int, int]:
        """The split the dialog opens on: the free re-rolls and, after a miss, one paid one
        (``suggested_rerolls``), placed where they help most (R-TASK-6).
        """
        if self.stage == "defense":  # a Defense roll's "successes" are the hits through
            missed = self.roll.successes > 0
        else:
            missed = self.roll.successes < self.roll.dice
        count = suggested_rerolls(self.free, self.luck + self.clues, missed)
        return suggest_split(self.roll, count)

    @property
    def options(self) -> tuple[Option, ...]:
        keep = Option(
            "k",
            "keep the roll" + (f" (free re-rolls unused: {self.free})" if self.free else ""),
            SpendCombatRerolls(0, 0),
        )
        spend = []
        for n in range(1, min(9, self.free + self.luck + self.clues) + 1):
            d10, hero = suggest_split(self.roll, n)
            paid = max(0, n - self.free)
            luck = min(paid, self.luck)
            cost = [f"{self.free if n > self.free else n} free" if self.free else ""]
            cost += [
                f"{luck} Luck" if luck else "",
                f"{paid - luck} Clue(s)" if paid - luck else "",
            ]
            label = f"{n} re-roll(s): {d10} d10, {hero} Hero die — " + ", ".join(
                c for c in cost if c
            )
            spend.append(Option(str(n), label, SpendCombatRerolls(d10, hero, clues=paid - luck)))
        return (keep, *spend)


Pending = PendingDive | PendingChartChoice | PendingSidekick | PendingCombatRerolls


@dataclass(frozen=True)
class Outcome:
    encounter: Encounter
    log: tuple[LogLines, ...] = ()
    pending: Pending | None = None


# -- commands ------------------------------------------------------------------------
@dataclass(frozen=True)
class AddZone:
    name: str
    issuer: str = GM


@dataclass(frozen=True)
class SetBand:
    a: str
    b: str
    band: str  # melee, short, medium, long, extra-long, beyond
    issuer: str = GM


@dataclass(frozen=True)
class AddCombatants:
    """Put ``count`` of a pack's minion / sidekick / hero into a zone on a side."""

    kind: str  # minion, sidekick, hero
    entry: str
    side: str
    zone: str
    count: int = 1
    player: bool = False
    issuer: str = GM


@dataclass(frozen=True)
class SetCover:
    combatant: str
    cover: str
    issuer: str = GM


@dataclass(frozen=True)
class SetPools:
    """R-CHAR-9: the GM grants Clues or sets what is left of a Hero's Luck pool."""

    combatant: str
    luck: int | None = None
    clues: int | None = None
    issuer: str = GM


@dataclass(frozen=True)
class SetCondition:
    """§8: the GM puts a condition on a combatant (``level`` 0 clears it). ``prone`` and
    ``unconscious`` set those states (a revived Hero: unconscious 0).
    """

    combatant: str
    condition: str
    level: int = 1
    issuer: str = GM


@dataclass(frozen=True)
class DecideSidekick:
    combatant: str
    rank: str  # hero or minion
    issuer: str = GM


@dataclass(frozen=True)
class StartCombat:
    """R-INIT-1..3: roll initiative. ``surprise``: combatants waiting for an unaware enemy
    act in a free surprise round first; ``bonus``: (combatant, n) added to its group's
    roll (Senses for one who knows where the enemy waits, Senses + 1 holding a gun on
    someone, or the GM's temporary rating for the ambushed as a difference).
    """

    surprise: tuple[str, ...] = ()
    bonus: tuple[tuple[str, int], ...] = ()
    issuer: str = GM


@dataclass(frozen=True)
class DeclareActions:
    count: int
    issuer: str = GM


@dataclass(frozen=True)
class Move:
    """R-ACT-2: Move (half a band) or Move+Run (one band) to another zone."""

    combatant: str
    zone: str
    run: bool = False
    issuer: str = GM


@dataclass(frozen=True)
class CloseIn:
    """R-ACT-2 imagination mode, toward a zone farther than Short: Move+Run one band
    closer, to a spot on the way (a zone the engine adds, see :func:`close_in`).
    """

    combatant: str
    toward: str
    issuer: str = GM


@dataclass(frozen=True)
class Attack:
    attacker: str
    target: str
    weapon: str
    style: str | None = None  # wild, power, agile for melee
    called_shot: bool = False
    modifier: int = 0
    shots: int | None = None  # fewer than the rate of fire, e.g. to save charges
    rerolls: int = 0  # free re-rolls granted for this roll: Talent, Advantage (R-TASK-6)
    location: str = ""  # a called shot's "head" (+d8 damage) or "limb" (R-ATK-10)
    hand: str = ""  # two weapons: "main" (−2), then "off" (−3) in the same action (R-ATK-11)
    throw: bool = False  # throw the weapon: Agile rating, Short range (R-ATK-1 Throw)
    damage_choice: int | None = None  # which of the card's damage options (Sonic Relik)
    grapple: bool = False  # an unarmed Agile attack to grab (R-ATK-17)
    reaction: str = ""  # "standby" or "zone-of-control": out of turn, no action spent
    or_nearest: bool = False  # a group's attack: the target down by then, the nearest enemy
    issuer: str = GM


@dataclass(frozen=True)
class Suppress:
    """R-ATK-16 suppressive fire at up to N targets in the weapon's range; those in
    ``dive`` dive for cover (safe, Prone) and the others roll Defense + cover + 2.
    """

    attacker: str
    weapon: str
    targets: tuple[str, ...]
    dive: tuple[str, ...] = ()
    issuer: str = GM


@dataclass(frozen=True)
class TakeAction:
    """A one-combatant action without an attack roll: one of :data:`ACTIONS` (aim, dodge,
    full-defense, reload, stand, standby, interact, hide, task, draw, holster, drop, misc,
    break-free); ``weapon`` names the weapon reloaded, freed, picked up or dropped.
    """

    combatant: str
    action: str
    weapon: str | None = None
    bonus: int = 0  # break-free: Escape Artist (−1 if the grappler was hit), by the GM
    issuer: str = GM


@dataclass(frozen=True)
class AnswerDive:
    cover: str  # "none" to stay put, else the cover dived into
    issuer: str = GM


@dataclass(frozen=True)
class SpendCombatRerolls:
    """Answer PendingCombatRerolls: ``d10`` + ``hero`` re-rolls; free ones are used first,
    then ``clues`` of the rest come from Clues and the remainder from Luck (R-CHAR-9).
    """

    d10: int
    hero: int
    clues: int = 0
    issuer: str = GM


@dataclass(frozen=True)
class ChooseChartRow:
    row: str
    issuer: str = GM


@dataclass(frozen=True)
class ApplyDamage:
    """Damage the GM rolled outside an attack (a fall R-OTHER-6, a blast, a trap): wound
    steps against Health (or Stamina when non-lethal) as for a hit (R-DMG-2, R-WOUND).
    """

    combatant: str
    damage: int
    nonlethal: bool = False
    issuer: str = GM


@dataclass(frozen=True)
class RemoveCombatant:
    """Someone leaves the encounter (fled, or added by mistake); its group's place in the
    initiative goes when its last member leaves.
    """

    combatant: str
    issuer: str = GM


@dataclass(frozen=True)
class RollChart:
    """R-WOUND-5 / §7 outside an attack (a fall, a blast the GM resolved by hand)."""

    combatant: str
    overflow: int = 0  # how far the wound's damage went past Health
    issuer: str = GM


@dataclass(frozen=True)
class EndTurn:
    issuer: str = GM


@dataclass(frozen=True)
class EndCombat:
    issuer: str = GM


@dataclass(frozen=True)
class ClearEncounter:
    """Empty the encounter for the next fight. The zones and bands stay unless
    ``keep_zones`` is False, since a GM often fights again in the same place.
    """

    keep_zones: bool = True
    issuer: str = GM


CombatCommand = (
    AddZone
    | SetBand
    | AddCombatants
    | SetCover
    | SetPools
    | SetCondition
    | DecideSidekick
    | StartCombat
    | DeclareActions
    | Move
    | CloseIn
    | Attack
    | Suppress
    | TakeAction
    | AnswerDive
    | ChooseChartRow
    | SpendCombatRerolls
    | RollChart
    | ApplyDamage
    | RemoveCombatant
    | EndTurn
    | EndCombat
    | ClearEncounter
)


@dataclass(frozen=True)
class AttackState:
    """An attack paused for a decision: everything needed to finish it."""

    attacker: str
    target: str
    weapon: str
    hits: int
    defense_mod: int = 0
    damage_bonus: int = 0
    style: str | None = None
    fear_before: int = 0  # the target's Fear before this attack (R-FEAR-2: 2× Morale)
    damage: str = ""  # the damage rolled instead of the card's (thrown, an option, grapple)
    location: str = ""  # called shot at the head or a limb (R-ATK-10)
    grapple: bool = False  # hits grab instead of wounding (R-ATK-17)
    spill: str = ""  # an ally in the melee who takes one hit (R-ATK-13)
    reaction: str = ""  # zone of control: a hit slows the mover (R-OTHER-4)
    thrown: bool = False  # a melee weapon thrown: a ranged attack (R-ATK-1 Throw)
    queue: tuple[str, ...] = ()  # further targets hit by the same suppressive fire


# -- helpers -------------------------------------------------------------------------
def _band(name: str) -> RangeBand:
    try:
        return RangeBand[name.strip().upper().replace("-", "_")]
    except KeyError:
        bands = ", ".join(b.label for b in RangeBand)
        raise RulesError(f"unknown range band {name!r} (one of {bands})") from None


def _cover(name: str) -> Cover:
    try:
        return Cover[name.strip().upper()]
    except KeyError:
        raise RulesError(f"unknown cover {name!r} (none, light, medium, heavy)") from None


def _entry(catalog: Catalog, kind: str, entry: str) -> Character:
    if kind not in ("minion", "sidekick", "hero"):
        raise RulesError(f"unknown kind {kind!r} (minion, sidekick or hero)")
    table = catalog.kind(kind)
    if entry not in table:
        raise RulesError(f"no {kind} {entry!r} in the loaded packs")
    return table[entry]  # type: ignore[return-value]


def _weapon_state(weapon: Weapon) -> WeaponState:
    return WeaponState(weapon.id, weapon.power, weapon.power, weapon.recharge)


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
def add_zone(enc: Encounter, cmd: AddZone, _rng: random.Random, _cat: Catalog) -> Outcome:
    name = cmd.name.strip()
    if not name:
        raise RulesError("a zone needs a name")
    if any(zone.casefold() == name.casefold() for zone in enc.zones):
        raise RulesError(f"zone {enc.zone_named(name)!r} already exists")
    return Outcome(evolve(enc, zones=(*enc.zones, name)), (LogLines(f"Zone {name}", ()),))


def set_band(enc: Encounter, cmd: SetBand, _rng: random.Random, _cat: Catalog) -> Outcome:
    band, a, b = _band(cmd.band), enc.zone_named(cmd.a), enc.zone_named(cmd.b)
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
                weapons=tuple(_weapon_state(cat.weapons[w]) for w in entry.weapons),
                player=cmd.player,
                size=entry.size,
                luck=entry.traits.luck if entry.rank is Rank.HERO else 0,
                entry=entry.id,
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
    after any equal totals; a slot already passed this round first acts next round.
    """
    order, index, lines = list(enc.order), enc.turn_index, []
    for c in {c.group: c for c in added}.values():
        rank = c.plays_as or c.rank
        roll = InitiativeRoll(
            c.group, c.side, rank, c.player, c.traits[Derived.INITIATIVE], rng.randint(1, 10)
        )
        slot = next((i for i, r in enumerate(order) if r.total < roll.total), len(order))
        order.insert(slot, roll)
        if slot <= index:
            index += 1
        when = "this round" if slot > index else "from next round"
        lines.append(f"initiative d10 {roll.d10} + {roll.rating} = {roll.total}: acts {when}")
    return evolve(enc, order=tuple(order), turn_index=index), tuple(lines)


def set_cover(enc: Encounter, cmd: SetCover, _rng: random.Random, _cat: Catalog) -> Outcome:
    c = enc.get(cmd.combatant)
    cover = _cover(cmd.cover)
    return Outcome(
        enc.with_combatant(evolve(c, cover=cover)),
        (LogLines(f"{c.name}: {cover.label} cover", ()),),
    )


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


def start_combat(enc: Encounter, cmd: StartCombat, rng: random.Random, _cat: Catalog) -> Outcome:
    """R-INIT-1: every Hero alone, each group of same-type Minions once: d10 + Initiative."""
    if enc.active:
        raise RulesError("combat is already under way")
    undecided = [c for c in enc.combatants if c.rank is Rank.SIDEKICK and c.plays_as is None]
    if undecided:
        c = undecided[0]
        return Outcome(enc, (), PendingSidekick(c.id, f"Does {c.name} play as a Hero or a Minion?"))
    sides = {c.side for c in enc.combatants if c.standing}
    if len(sides) < 2:
        raise RulesError("combat needs standing combatants on at least two sides")
    bonus: dict[str, int] = {}
    for cid, n in cmd.bonus:
        group = enc.get(cid).group
        bonus[group] = bonus.get(group, 0) + n
    surprise = tuple(dict.fromkeys(enc.get(cid).group for cid in cmd.surprise))
    rolls, seen = [], set()
    for c in enc.combatants:
        if c.group in seen or not c.standing:
            continue
        seen.add(c.group)
        rating = c.traits[Derived.INITIATIVE] + bonus.get(c.group, 0)
        rolls.append(
            InitiativeRoll(c.group, c.side, c.rules_rank, c.player, rating, rng.randint(1, 10))
        )
    order = tuple(initiative_order(rolls, rng))
    lines = tuple(
        f"{i + 1}. {actor_name(enc, r.actor)}: d10 {r.d10}"
        f" + Initiative {r.rating - bonus.get(r.actor, 0)}"
        + (f" ({bonus[r.actor]:+d} R-INIT-3)" if bonus.get(r.actor) else "")
        + f" = {r.total}"
        + (f" (tie re-roll {r.tiebreak[0]})" if r.tiebreak else "")
        for i, r in enumerate(order)
    )
    ranked = tuple(r.actor for r in order if r.actor in surprise)  # surprise in that order
    started = evolve(
        enc,
        active=True,
        round=0 if ranked else 1,
        order=order,
        turn_index=-1,
        turn=None,
        surprise=ranked,
    )
    first = _begin_next_turn(started, rng)
    return Outcome(
        first.encounter, (LogLines("Initiative (R-INIT-1/2)", lines), *first.log), first.pending
    )


def actor_name(enc: Encounter, actor: str, *, tally: bool = False) -> str:
    """A turn-taker's name: the combatant, or a group as ``Pirate raider ×3`` (its standing
    members; all of them once none stands). With ``tally`` a group counts every member
    and shows how many stand when some are down: ``Pirate raider ×2/3`` (initiative list).
    """
    everyone = [c for c in enc.combatants if c.group == actor]
    standing = [c for c in everyone if c.standing]
    members = everyone if tally else (standing or everyone)
    if len(members) > 1:
        head, _, tail = members[0].name.rpartition(" ")
        down = tally and len(standing) < len(members)
        count = f"{len(standing)}/{len(members)}" if down else str(len(members))
        return f"{head if tail.isdigit() else members[0].name} ×{count}"
    return members[0].name if members else actor


def _unplayed_turn(enc: Encounter, actor: str) -> tuple[Encounter, list[str]]:
    """A turn nobody in it can play still ends: a Hero bleeding out unconscious takes
    its Health marker (§7 row 15).
    """
    lines = []
    for c in enc.combatants:
        if c.group == actor:
            c, line = bleed_out(c)
            if line:
                enc, lines = enc.with_combatant(c), [*lines, line]
    return enc, lines


def _begin_next_turn(enc: Encounter, rng: random.Random) -> Outcome:
    """Advance to the next actor with someone standing; start-of-turn Fear (R-FEAR-1).
    The surprise round's actors go first (R-INIT-3), then round 1 in initiative order.
    """
    while enc.surprise and not enc.members(enc.surprise[0]):
        enc = evolve(enc, surprise=enc.surprise[1:])
    passed: list[str] = []  # turns that pass unplayed, nobody in them standing
    if enc.surprise:
        actor, index, round_ = enc.surprise[0], enc.turn_index, 0
        enc = evolve(enc, surprise=enc.surprise[1:])
    else:
        index, round_ = enc.turn_index, max(enc.round, 1)
        for _ in range(len(enc.order) + 1):
            index += 1
            if index >= len(enc.order):
                index, round_ = 0, round_ + 1
            if enc.members(enc.order[index].actor):
                break
            enc, bled = _unplayed_turn(enc, enc.order[index].actor)
            passed += bled
        else:
            raise RulesError("nobody is left standing to act")
        actor = enc.order[index].actor
    enc = evolve(enc, turn_index=index, round=round_)
    lines: list[str] = passed
    lost: list[tuple[str, int]] = []
    lost_why: list[tuple[str, str]] = []
    restricted: list[str] = []
    for member in enc.members(actor):
        if set(ENGINE_MARKS) & set(member.conditions):  # Dodge, full defense last until now
            kept = tuple(m for m in member.conditions if m not in ENGINE_MARKS)
            member = evolve(member, conditions=kept)
        member, note = _fear_check(member, rng)
        if note:
            lines.append(note)
        start = start_of_turn(member, rng)
        member = start.combatant
        lines += [f"{member.name}: {line}" for line in start.lines]
        if start.restricted:
            restricted.append(member.id)
        shaken = "shaken" in member.conditions
        member_lost = member.lose_actions + shaken + start.lost
        if member_lost:
            why = "; ".join(
                (
                    *carried_losses(member),
                    *(["Shaken: −1 action (§8)"] if shaken else []),
                    *([f"Dazed {start.lost}: {_minus(start.lost)} (§8)"] if start.lost else []),
                )
            )
            lost.append((member.id, member_lost))
            lost_why.append((member.id, why))
            lines.append(f"{member.name} loses {_actions(member_lost)} — {why}")
        if member.lose_actions or member.lose_why:
            member = evolve(member, lose_actions=0, lose_why=())
        if member is not enc.get(member.id):
            enc = enc.with_combatant(member)
    enc = evolve(
        enc,
        turn=Turn(actor, lost=tuple(lost), restricted=tuple(restricted), lost_why=tuple(lost_why)),
    )
    when = f"Round {round_}" if round_ else "Surprise round (R-INIT-3)"
    title = f"{when}: {actor_name(enc, actor)}'s turn"
    return Outcome(enc, (LogLines(title, tuple(lines)),))


def _fear_check(c: Combatant, rng: random.Random) -> tuple[Combatant, str]:
    """R-FEAR-1/2/3 at the start of a turn, then one Fear token is removed."""
    morale = c.traits[Derived.MORALE]
    notes = []
    conditions = set(c.conditions)
    fear = c.fear
    if "shaken" in conditions and fear < morale:  # R-FEAR-3
        conditions.discard("shaken")
        notes.append("no longer Shaken")
    if fear >= morale:
        mark = "panicked" if "shaken" in conditions else "shaken"  # R-FEAR-2
        if c.rules_rank is Rank.MINION:
            shaken = True
            notes.append(f"Fear {fear} ≥ Morale {morale}: {mark.title()}")
        else:
            # R-WOUND-3 and §8: the wound marker and condition penalties apply too
            roll, ok, line = trait_roll(c, morale, "Morale", rng)
            shaken = not ok
            notes.append(line)
            if shaken and mark == "panicked":
                notes.append("Shaken again: Panicked (R-FEAR-2)")
            if roll.face is HeroFace.FORTUNE:
                fear = max(0, fear - 1)
            elif roll.face is HeroFace.MISFORTUNE:
                fear += 1
        if shaken:
            conditions.add(mark)
    fear = max(0, fear - 1)
    note = f"{c.name}: " + "; ".join(notes) if notes else ""
    marks = tuple(sorted(conditions))
    if (fear, marks) == (c.fear, c.conditions):
        return c, note
    return evolve(c, fear=fear, conditions=marks), note


def _actions(n: int) -> str:
    return f"{n} action{'s' if n != 1 else ''}"


def _minus(n: int) -> str:
    return f"−{_actions(n)}"


def _lose(c: Combatant, n: int, cause: str) -> Combatant:
    """``c`` losing ``n`` actions on its next turn, and why: ``"wound"`` (R-WOUND-4) or
    ``"dive"`` (R-ATK-5), so that turn can say what took them.
    """
    if n <= 0:
        return c
    return evolve(c, lose_actions=c.lose_actions + n, lose_why=(*c.lose_why, *[cause] * n))


def carried_losses(c: Combatant) -> tuple[str, ...]:
    """What ``c`` will lose at the start of its next turn from wounds and dives, one phrase
    per cause in the rules' words (Shaken and Dazed are settled at that turn's start).
    """
    causes = c.lose_why[: c.lose_actions]
    items = []
    wounds = causes.count("wound")
    if wounds:
        items.append(f"{wounds} wound{'s' if wounds != 1 else ''}: {_minus(wounds)} (R-WOUND-4)")
    dives = causes.count("dive")
    if dives:
        items.append(f"dived for cover: {_minus(dives)} (R-ATK-5)")
    rest = c.lose_actions - len(causes)  # counted without a cause (an edited combatant)
    if rest > 0:
        items.append(f"wounds or a dive: {_minus(rest)} (R-WOUND-4, R-ATK-5)")
    return tuple(items)


def _account(turn: Turn, cid: str) -> str:
    """Where a combatant's actions went this turn: ``used 1 (attack); lost 1 — Shaken: −1
    action (§8)``, so a refusal names the cause rather than only the count.
    """
    used = turn.used_by(cid)
    lost = dict(turn.lost).get(cid, 0)
    parts = [f"used {len(used)} ({', '.join(used)})"] if used else []
    if lost:
        why = dict(turn.lost_why).get(cid, "")
        parts.append(f"lost {lost}" + (f" — {why}" if why else ""))
    return "; ".join(parts)


def declare_actions(
    enc: Encounter, cmd: DeclareActions, _rng: random.Random, _cat: Catalog
) -> Outcome:
    """R-ACT-3: Heroes declare more than 2 actions at the start of the turn."""
    turn = _turn(enc)
    if turn.used:
        raise RulesError("extra actions are declared at the start of the turn, before acting")
    members = enc.members(turn.actor)
    cap = max_actions(members[0].rules_rank)
    if cmd.count < 2 or (cap is not None and cmd.count > cap):
        raise RulesError(
            f"{members[0].name} takes exactly 2 actions (Minions cannot add more, R-ACT-1)"
            if cap
            else "declare 2 or more actions"
        )
    return Outcome(
        evolve(enc, turn=evolve(turn, declared=cmd.count)),
        (
            LogLines(
                f"{members[0].name} declares {cmd.count} actions:"
                f" each at −{cmd.count - 2} (R-ACT-3)",
                (),
            ),
        ),
    )


def _turn(enc: Encounter) -> Turn:
    if not enc.active or enc.turn is None:
        raise RulesError("no turn is under way: start combat first")
    return enc.turn


def _spend(
    enc: Encounter, actor: Combatant, action: str, *, cost: int = 1, what: str = ""
) -> Encounter:
    """R-ACT-1: spend one action of the current turn; no action twice. ``cost`` checks,
    before the first of them is spent, that an action taking ``cost`` actions (``what``)
    fits in what is left; the caller spends the others.
    """
    turn = _turn(enc)
    if actor.group != turn.actor:
        raise RulesError(f"it is not {actor.name}'s turn")
    if not actor.standing:
        raise RulesError(f"{actor.name} cannot act (taken out or unconscious)")
    if "panicked" in actor.conditions and action not in ("move", "run", "hide"):
        raise RulesError(f"{actor.name} is Panicked: only Move, Run or Hide (§8)")
    if actor.id in turn.restricted and action not in ("move", "run", "hide"):
        raise RulesError(f"{actor.name} is Confused and failed its roll: only Run or Hide (§8)")
    if action in turn.used_by(actor.id):
        raise RulesError(f"{actor.name} already took {action} this turn: no action twice (R-ACT-1)")
    left = turn.left(actor.id)
    if left <= 0:
        lost = dict(turn.lost).get(actor.id, 0)
        because = f": {_account(turn, actor.id)}" if lost else ""
        raise RulesError(f"{actor.name} has no actions left this turn{because}")
    if left < cost:
        account = _account(turn, actor.id)
        raise RulesError(
            f"{what or action} takes {cost} actions, but {actor.name} has only {left} left"
            f" this turn" + (f": {account}" if account else "")
        )
    if actor.id in turn.wild and action in ("dodge", "aim", "standby", "interact"):
        raise RulesError(f"after a Wild attack {actor.name} cannot {action} this turn (R-ATK-1)")
    return evolve(enc, turn=evolve(turn, used=(*turn.used, (actor.id, action))))


def _pinned(c: Combatant, what: str, rng: random.Random) -> tuple[bool, LogLines] | None:
    """§8 Pinned: a Morale roll before acting in the open; failure loses the action."""
    if not level(c, "pinned"):
        return None
    _, ok, line = trait_roll(c, c.traits[Derived.MORALE], "Pinned: Morale", rng)
    verdict = "it goes ahead" if ok else f"fails: the {what} is lost (§8)"
    return ok, LogLines(f"{c.name} is Pinned", (f"{line}: {verdict}",))


def move(enc: Encounter, cmd: Move, rng: random.Random, _cat: Catalog) -> Outcome:
    """R-ACT-2 imagination mode: Move reaches a zone at Melee band; Move+Run one band
    (a zone at Short). Farther zones take more turns: move through a zone on the way.
    """
    c, cmd = enc.get(cmd.combatant), evolve(cmd, zone=enc.zone_named(cmd.zone))
    enc = _spend_move(enc, c, cmd)
    held = _pinned(c, "move", rng)
    if held is not None and not held[0]:
        return Outcome(enc, (held[1],))
    moved = evolve(c, zone=cmd.zone, engaged=(), cover=Cover.NONE)
    enc = enc.with_combatant(moved)
    for other in enc.combatants:  # leaving melee ends the engagement both ways (R-OTHER-5)
        if c.id in other.engaged:
            enc = enc.with_combatant(
                evolve(other, engaged=tuple(e for e in other.engaged if e != c.id))
            )
    verb = "moves and runs" if cmd.run else "moves"
    return Outcome(enc, (LogLines(f"{c.name} {verb} to {cmd.zone} (out of cover)", ()),))


def close_in(enc: Encounter, cmd: CloseIn, rng: random.Random, cat: Catalog) -> Outcome:
    """R-ACT-2 says Move+Run is "one full band closer": toward a zone farther than Short
    the mover runs to a spot one band along the way, which becomes a zone of its own
    (``A → X (medium)``; others who close in the same way join it).

    **Interpretation** (imagination mode has no map): the spot is Short from where the
    mover was and one band nearer X; from every other zone it is as far as the mover's
    old zone was, within what the bands to X allow (the triangle of the two). The log
    lists them; F7 ``b`` changes any the scene says otherwise.
    """
    c = enc.get(cmd.combatant)
    toward = enc.zone_named(cmd.toward)
    if toward == c.zone:
        raise RulesError(f"{c.name} is already in {toward}")
    band = enc.zone_band(c.zone, toward)
    if band <= _reach(True):
        raise RulesError(f"{toward} is {band.label} from {c.zone}: move there (m) instead")
    nearer = RangeBand(band - 1)
    origin = c.zone.split(" → ", 1)[0]  # a spot on the way already: name the next one alike
    spot, lines = f"{origin} → {toward} ({nearer.label})", []
    if spot not in enc.zones:
        enc, lines = _waypoint(enc, c.zone, toward, nearer, spot)
    moved = move(enc, Move(c.id, spot, run=True), rng, cat)
    head = LogLines(f"{c.name} closes in on {toward}: one band nearer (R-ACT-2)", tuple(lines))
    return Outcome(moved.encounter, (head, *moved.log))


def _waypoint(
    enc: Encounter, start: str, toward: str, nearer: RangeBand, spot: str
) -> tuple[Encounter, list[str]]:
    """Add the spot one band from ``start``, ``nearer`` to ``toward``, and its bands."""
    enc = evolve(enc, zones=(*enc.zones, spot))
    enc = enc.with_band(spot, start, RangeBand.SHORT).with_band(spot, toward, nearer)
    lines = [f"new zone {spot}: {RangeBand.SHORT.label} from {start}, {nearer.label} from {toward}"]
    for other in enc.zones:
        if other in (start, toward, spot):
            continue
        try:
            was, there = enc.zone_band(start, other), enc.zone_band(toward, other)
        except RulesError:
            continue  # a band not set stays unset: the fight asks for it when it matters
        low, high = abs(there - nearer), min(there + nearer, RangeBand.EXTRA_LONG)
        band = RangeBand(min(max(was, low), high))
        enc = enc.with_band(spot, other, band)
        lines.append(f"{spot} ↔ {other}: {band.label}")
    return enc, lines


def _spend_move(enc: Encounter, c: Combatant, cmd: Move) -> Encounter:
    """Check the move's distance (R-ACT-2, R-OTHER-4) and spend Move, and Run with it:
    both actions must be left before either is spent (R-ACT-1).
    """
    if cmd.zone == c.zone:
        raise RulesError(f"{c.name} is already in {c.zone}")
    band = enc.zone_band(c.zone, cmd.zone)
    if band > _reach(cmd.run):
        how = "Move+Run covers one band" if cmd.run else "a Move covers half a band; add Run"
        raise RulesError(f"{cmd.zone} is {band.label} from {c.zone}: {how} per turn (R-ACT-2)")
    if cmd.run and "slowed" in c.conditions:
        raise RulesError(f"{c.name} was stopped in passing: only a Move this turn (R-OTHER-4)")
    enc = _spend(enc, c, "move", cost=1 + cmd.run, what="Move + Run (R-ACT-2)")
    return _spend(enc, c, "run") if cmd.run else enc


def move_refusal(enc: Encounter, cmd: Move) -> str:
    """Why the move cannot be made now, "" if it can (distance R-ACT-2, R-OTHER-4; its
    turn and the actions it has left, R-ACT-1), so a menu says so before the pick.
    Changes nothing.
    """
    try:
        _spend_move(enc, enc.get(cmd.combatant), evolve(cmd, zone=enc.zone_named(cmd.zone)))
    except RulesError as refused:
        return str(refused)
    return ""


def _reach(run: bool) -> RangeBand:
    """R-ACT-2 imagination mode: a Move covers half a band (a zone at Melee band), Move+Run
    one band (a zone at Short).
    """
    return RangeBand.SHORT if run else RangeBand.MELEE


@dataclass(frozen=True)
class Route:
    """What it takes a combatant to reach another zone this turn (R-ACT-2): ``move`` is
    the command that gets there or, out of reach, the one the engine refuses with why.

    ``reachable`` is about distance alone; ``left`` (the mover's actions left, None when
    it is not its turn) and ``why`` (the engine's refusal now, R-ACT-1) say whether the
    move can be made now: ``possible``.
    """

    move: Move
    band: RangeBand | None  # None: no band set between the two zones
    reachable: bool
    left: int | None = None
    why: str = ""  # "" when the move can be made now (or is out of reach anyway)

    @property
    def actions(self) -> int:
        """What the move costs: Move 1, Move + Run 2 (R-ACT-2)."""
        return 2 if self.move.run else 1

    @property
    def possible(self) -> bool:
        """Within reach, and the engine would take the move now."""
        return self.reachable and not self.why

    @property
    def cost(self) -> str:
        """A short label for a menu: the price, or why it cannot be paid now."""
        if self.band is None:
            return NO_BAND
        if not self.reachable:
            return TOO_FAR
        what, need = ("Move + Run" if self.move.run else "Move"), self.actions
        if self.left is not None and self.left < need:
            have = "none left" if self.left == 0 else f"only {self.left} left"
            return f"{what} needs {_actions(need)}, {have}"
        if self.why:
            return f"not now: {self.why}"
        return f"{what}, {_actions(need)}"


NO_BAND = "no band set yet (F7 b sets one)"
TOO_FAR = "too far for one turn: close in a band at a time (m offers it)"
"""A band farther than Short is crossed a band a turn (R-ACT-2): :class:`CloseIn` runs to
a spot on the way, a zone of its own."""


def routes(enc: Encounter, combatant: str) -> tuple[Route, ...]:
    """Every other zone and what reaches it this turn: a Move one at Melee band, Move+Run
    one at Short unless a zone of control slowed the mover (R-OTHER-4); farther zones
    take more turns, through a zone on the way. A route in reach says too whether the
    mover can take it now: the actions it has left (R-ACT-1; Move + Run needs 2) and
    any other refusal, in the engine's words.
    """
    c = enc.get(combatant)
    turn = enc.turn if enc.active else None
    left = turn.left(c.id) if turn is not None and c.group == turn.actor else None
    found = []
    for zone in enc.zones:
        if zone == c.zone:
            continue
        try:
            band = enc.zone_band(c.zone, zone)
        except RulesError:
            found.append(Route(Move(c.id, zone), None, False, left))
            continue
        run = band > _reach(False)
        slowed = run and "slowed" in c.conditions
        reachable = band <= _reach(True) and not slowed
        step = Move(c.id, zone, run)
        why = move_refusal(enc, step) if reachable else ""
        found.append(Route(step, band, reachable, left, why))
    return tuple(found)


@dataclass(frozen=True)
class AttackPlan:
    """An attack worked out before any die is rolled: what the screens show as a preview
    and what :func:`attack` then rolls, so the two can never disagree.
    """

    attacker: Combatant
    target: Combatant
    weapon: Weapon
    state: WeaponState
    style: Rating
    melee: bool
    band: RangeBand
    dice: int
    cost: int
    tn: TargetNumber
    damage: str = ""  # overrides the card's damage (thrown, a damage option, grapple)
    free: int = 0  # free re-rolls on the attack roll: Aim (R-ACT-2) and the GM's (R-TASK-6)
    location: str = ""  # a called shot's "head" adds a d8 to each hit's damage (R-ATK-10)

    @property
    def rank(self) -> Rank:
        return self.attacker.rules_rank

    @property
    def hits(self) -> PoolOdds:
        """R-ATK-2: the exact distribution of hits before Defense, the free re-rolls spent
        on missed dice (R-TASK-6), as the roll will offer them.
        """
        return attack_odds(self.tn.value, self.dice, self.rank, self.free)

    def defense(self, enc: Encounter) -> int:
        """R-ATK-6 Defense the target would roll against now (see :func:`_defense`)."""
        return _defense(enc, self.target, self.melee, 0).value

    def _defense_text(self, enc: Encounter) -> str:
        """``5``, or how it was built when more than Dodge goes in (``Dodge 5 − wound 1 = 4``)."""
        defense = _defense(enc, self.target, self.melee, 0)
        return defense.explain() if len(defense.parts) > 1 else str(defense.value)

    def through(self, enc: Encounter) -> tuple[Fraction, ...]:
        """Exact distribution of hits through Defense (index = hits through)."""
        defense, rank = self.defense(enc), self.target.rules_rank
        marks = self.target.conditions  # free re-rolls: Dodge, a Parry in melee (R-ATK-9)
        dodge = int("dodging" in marks) + int(self.melee and "parry" in marks)
        out = [self.hits.successes[0]] + [Fraction(0)] * self.dice
        for hits, p in enumerate(self.hits.successes[1:], start=1):
            if p:
                for k, q in enumerate(defense_odds(hits, defense, rank, dodge).successes):
                    out[k] += p * q
        return tuple(out)

    def wounds(self) -> dict[str, Fraction]:
        """R-DMG-2: wound steps from one hit through (before card damage bonuses)."""
        expr = parse(_damage_expr(self.weapon, self.style.value, self.damage, self.location))
        resolved = expr.resolve(self.attacker.traits.as_values())
        return wound_odds(resolved, _health(self.target, self.weapon))

    def preview(self, enc: Encounter) -> tuple[str, ...]:
        """The lines a GM reads before rolling: TN breakdown and exact odds."""
        through = self.through(enc)
        wounds = self.wounds()
        hurt = Fraction(1) - wounds["0"]
        return (
            f"{self.weapon.name} ({self.style.value}, {self.dice} d10) at {self.target.name},"
            f" {self.band.label} range",
            f"TN {self.tn.explain()}",
            f"≥1 hit {percent(self.hits.success)} · expected {float(self.hits.expected):.2f}"
            + (f" (with {self.free} free re-roll(s))" if self.free else ""),
            f"Defense {self._defense_text(enc)}: ≥1 through {percent(1 - through[0])}"
            f" · expected {float(sum(k * p for k, p in enumerate(through))):.2f}",
            f"each hit through wounds {percent(hurt)}",
            *(_PINNED_FIRST if level(self.attacker, "pinned") else ()),
        )


_PINNED_FIRST = ("Pinned (§8): a Morale roll comes first; if it fails, the attack is lost",)


def plan_attack(enc: Encounter, cmd: Attack, cat: Catalog) -> AttackPlan:
    """Every check and number of an attack, without spending the action or rolling."""
    attacker, target = enc.get(cmd.attacker), enc.get(cmd.target)
    if not target.standing:
        raise RulesError(f"{target.name} is already out of the fight")
    if attacker.id == target.id:
        raise RulesError("a combatant cannot attack itself")
    _ = target.rules_rank  # R-CHAR-8: a Sidekick's rules are decided before it defends
    fire, style, damage = _armed(enc, attacker, cmd, cat)
    weapon, state = fire.weapon, fire.state
    melee = weapon.kind == "melee"  # a thrown weapon uses Agile but is not melee (R-ATK-1)
    band = enc.band(attacker.id, target.id)
    if melee and attacker.zone != target.zone:
        raise RulesError(
            f"{target.name} is {band.label} away: melee needs the same zone (Move first)"
        )
    if melee:  # closing in within the zone: the blow lands at Melee range (R-COMBAT-3)
        band = RangeBand.MELEE
    if cmd.called_shot and attacker.rules_rank is not Rank.HERO:
        raise RulesError(f"{attacker.name}: called shots are for Heroes (R-ATK-10)")
    if cmd.location not in ("", "head", "limb") or (cmd.location and not cmd.called_shot):
        raise RulesError("a called shot aims at the head or a limb (R-ATK-10)")
    extra = _hand_modifiers(enc, attacker, weapon, cmd)
    if cmd.grapple and target.id in attacker.engaged and "grappled" in target.conditions:
        extra.append(Modifier("grappling it", 1))
    dice = fire.rate
    if cmd.reaction == "zone-of-control" and attacker.zone != target.zone:
        raise RulesError("zone of control stops someone passing within Melee (same zone)")
    if cmd.shots is not None:
        if not 1 <= cmd.shots <= dice:
            raise RulesError(f"{weapon.name} fires 1 to {dice} shot(s) here, not {cmd.shots}")
        dice = cmd.shots
    cost = dice * weapon.charge_per_shot if state.charges is not None else 0
    if state.charges is not None and state.charges < cost:
        if not fire.paid:
            raise RulesError(
                f"{weapon.name} has {state.charges} charge(s), not enough for one shot"
                f" (R-ATK-3): {fire.refill}"
            )
        raise RulesError(
            f"{weapon.name} has {state.charges} charge(s),"
            f" needs {cost} for {dice} shot(s) (R-ATK-3): it can fire {fire.paid}"
        )
    engaged_shooting = weapon.skill if (not melee and _fighting(enc, attacker)) else None
    situation = AttackSituation(
        wound_penalty=wound_marker(attacker),
        condition_penalty=penalty(attacker),
        actions_declared=enc.turn.declared if enc.turn is not None else 2,
        called_shot=cmd.called_shot,
        melee=melee,
        shooting_in_melee=engaged_shooting
        if engaged_shooting in (Rating.PISTOLS, Rating.RIFLES)
        else None,
        size_difference=target.size - attacker.size,
        other=cmd.modifier,
    )
    tn = attack_tn(style.value.title(), attacker.ratings[style], weapon.range, band, situation)
    tn = tn.plus(*extra) if extra else tn
    free = int(_aim_ready(enc.turn, attacker.id)) + cmd.rerolls
    return AttackPlan(
        attacker,
        target,
        weapon,
        state,
        style,
        melee,
        band,
        dice,
        cost,
        tn,
        damage,
        free,
        cmd.location,
    )


def _aim_ready(turn: Turn | None, cid: str) -> bool:
    """R-ACT-2 Aim: taken this turn and its free re-roll not yet used on an attack."""
    return turn is not None and "aim" in turn.used_by(cid) and cid not in turn.aim_used


FISTS = "fists"


@dataclass(frozen=True)
class Firepower:
    """R-ATK-2/3: the most shots an attack fires (the weapon's rate of fire or the style's
    attack count) and how many of them the weapon's charges pay for now.
    """

    weapon: Weapon  # as this attack uses it (thrown: Agile, Short range)
    state: WeaponState
    rate: int

    @property
    def paid(self) -> int:
        """Shots the charges pay for: all of them for a weapon without charges."""
        per_shot = self.weapon.charge_per_shot
        if self.state.charges is None or not per_shot:
            return self.rate
        return min(self.rate, self.state.charges // per_shot)

    @property
    def shots(self) -> int | None:
        """The ``Attack.shots`` that fires what it can: None is the full rate (so too for
        an empty weapon, which cannot fire at all: the plan says how it gets charges back).
        """
        return self.paid if 0 < self.paid < self.rate else None

    @property
    def refill(self) -> str:
        """How the weapon gets charges back, for a GM facing an empty one."""
        if self.weapon.reload:
            return "reloading refills it (2 actions, R-ACT-5)"
        if self.state.recharge:
            return (
                "it regains 1 charge at the end of each turn it does not fire;"
                " no action recharges it sooner"
            )
        return "it does not recharge, so it stays empty for this fight"


def _armed(
    enc: Encounter, attacker: Combatant, cmd: Attack, cat: Catalog
) -> tuple[Firepower, Rating, str]:
    """The weapon as the attack uses it (fists for a grapple, thrown, a damage option),
    its rating and its rate of fire; refuses a weapon it cannot use now.
    """
    if cmd.grapple:  # R-ATK-17: no weapon, the Agile rating, fists' damage
        state = next((w for w in attacker.weapons if w.id == FISTS), WeaponState(FISTS))
    else:
        state = attacker.weapon(cmd.weapon)
    weapon = cat.weapons.get(state.id)
    if weapon is None:
        raise RulesError(f"weapon {state.id!r} is not in the loaded packs")
    if state.dropped:
        raise RulesError(f"{attacker.name} no longer holds {weapon.name}: Interact to pick it up")
    if state.stuck:
        raise RulesError(f"{weapon.name} is stuck: Interact to free it ({state.stuck} action(s))")
    turn = enc.turn
    if turn is not None and attacker.id in turn.suppressed and state.fired:
        raise RulesError(f"{weapon.name} laid down suppressive fire this turn (R-ATK-16)")
    damage = ""
    if cmd.throw:
        if weapon.kind != "thrown" and weapon.thrown_damage is None:
            raise RulesError(f"{weapon.name} is not a throwing weapon (R-ATK-1)")
        weapon = evolve(weapon, kind="thrown", skill=Rating.AGILE, range=RangeBand.SHORT)
        damage = weapon.thrown_damage.source if weapon.thrown_damage else ""
    if cmd.damage_choice is not None:
        options = weapon.damage_options
        if not 0 <= cmd.damage_choice < len(options):
            raise RulesError(f"{weapon.name} has {len(options)} damage option(s)")
        damage = options[cmd.damage_choice].source
    style = Rating.AGILE if cmd.grapple else weapon_style(weapon, cmd.style)
    dice = attack_dice(style, attacker.traits, weapon.attacks)
    if cmd.throw and weapon.attacks is None:
        dice = 1  # one blade leaves the hand: the Agile rating, one attack die
    return Firepower(weapon, state, dice), style, damage


def firepower(enc: Encounter, cmd: Attack, cat: Catalog) -> Firepower:
    """The attack's rate of fire and the shots its charges pay for, whatever its target
    and the shots it asks for (so the shot keys work while the aim is refused).
    """
    return _armed(enc, enc.get(cmd.attacker), cmd, cat)[0]


def within_charges(enc: Encounter, cmd: Attack, cat: Catalog) -> Attack:
    """``cmd`` firing as many shots as its charges pay for, at most its rate of fire
    (R-ATK-3): where an aim starts and what each member of a group attack fires.
    """
    return replace(cmd, shots=firepower(enc, cmd, cat).shots)


def action_refusal(enc: Encounter, cmd: Attack) -> str:
    """Why the attack's action cannot be taken now, "" if it can (its turn, an action
    left, no attack twice: R-ACT-1; or a reaction's own rule), so a preview says so
    before the roll rather than on it. Changes nothing.
    """
    try:
        _take_attack_action(enc, enc.get(cmd.attacker), cmd)
    except RulesError as refused:
        return str(refused)
    return ""


def nearest_enemies(enc: Encounter, attacker: Combatant) -> list[Combatant]:
    """Standing enemies, nearest band first (R-COMBAT-2), its own zone first, then table
    order: whom a GM means by "the nearest" (zones with no band set come last).
    """

    def distance(c: Combatant) -> tuple[int, bool]:
        try:
            band = int(enc.band(attacker.id, c.id))
        except RulesError:
            band = len(RangeBand)
        return band, c.zone != attacker.zone

    enemies = [c for c in enc.combatants if c.side != attacker.side and c.standing]
    return sorted(enemies, key=distance)


def group_attack(enc: Encounter, target: str, cat: Catalog) -> tuple[Attack, ...]:
    """The acting group's attacks on ``target``: each member that has not attacked this
    turn fires its first weapon, as many shots as its charges pay for (R-ATK-2/3). A
    member fighting in melee with a melee weapon strikes its own opponent (R-OTHER-5),
    and one whose target is down by its turn takes the nearest enemy (``or_nearest``).
    The ones the rules refuse now go last, so a Batch (whose first command must apply)
    fires the others and logs why each of those is skipped.
    """
    turn = _turn(enc)
    attacks = []
    for member in enc.members(turn.actor):
        if not member.weapons or "attack" in turn.used_by(member.id):
            continue
        weapon = cat.weapons.get(member.weapons[0].id)
        foes = [f.id for f in enc.in_melee_with(member)]
        locked = weapon is not None and weapon.kind == "melee" and foes and target not in foes
        aim = Attack(
            member.id, foes[0] if locked else target, member.weapons[0].id, or_nearest=True
        )
        with contextlib.suppress(RulesError):  # a weapon it cannot use: the Batch says why
            aim = within_charges(enc, aim, cat)
        attacks.append(aim)

    def refused(aim: Attack) -> bool:
        try:
            plan_attack(enc, aim, cat)
        except RulesError:
            return True
        return bool(action_refusal(enc, aim))

    return tuple(sorted(attacks, key=refused))


def _retarget(enc: Encounter, cmd: Attack, cat: Catalog) -> tuple[Attack, tuple[str, ...]]:
    """A group member whose target fell earlier in the group's attack turns to the
    nearest standing enemy it can attack now, and the log says so; else ``cmd`` as is.
    """
    target = enc.get(cmd.target)
    if not cmd.or_nearest or target.standing:
        return cmd, ()
    attacker = enc.get(cmd.attacker)
    for enemy in nearest_enemies(enc, attacker):
        aim = evolve(cmd, target=enemy.id)
        try:
            plan_attack(enc, aim, cat)
        except RulesError:
            continue
        return aim, (f"{target.name} is down: {attacker.name} turns to {enemy.name}",)
    return cmd, ()


def _hand_modifiers(
    enc: Encounter, attacker: Combatant, weapon: Weapon, cmd: Attack
) -> list[Modifier]:
    """R-ATK-11 two one-handed weapons: −2 main hand, −3 off hand (the Ambidexterity and
    Two-weapon fighting Advantages are the GM's ``modifier``); two-handed pairs: GM call.
    """
    if not cmd.hand:
        return []
    if cmd.hand not in ("main", "off"):
        raise RulesError("a hand is main or off (R-ATK-11)")
    if weapon.two_handed:
        raise RulesError(f"{weapon.name} is two-handed: a pair of them is the GM's call")
    turn = enc.turn
    if cmd.hand == "off" and (turn is None or attacker.id not in turn.offhand):
        raise RulesError("the off hand attacks right after a main-hand attack (R-ATK-11)")
    return [Modifier(f"{cmd.hand} hand", -2 if cmd.hand == "main" else -3)]


def attack(enc: Encounter, cmd: Attack, rng: random.Random, cat: Catalog) -> Outcome:
    """§5: declare, build the TN, roll the attack dice, Fear per hit, then Defense."""
    cmd, turned = _retarget(enc, cmd, cat)
    plan = plan_attack(enc, cmd, cat)
    enc = _take_attack_action(enc, plan.attacker, cmd)
    held = _pinned(plan.attacker, "attack", rng)
    if held is not None and not held[0]:
        return Outcome(enc, (held[1],))
    before = [*turned, *(held[1].lines if held is not None else ())]
    sick, note = nausea(plan.attacker, rng)
    tn = plan.tn.plus(Modifier("nausea", sick)) if sick else plan.tn
    before += [note] if note else []
    attacker, target = enc.get(plan.attacker.id), plan.target  # a reaction may have changed it
    weapon, state = plan.weapon, plan.state
    style, melee, band, dice, cost, rank = (
        plan.style,
        plan.melee,
        plan.band,
        plan.dice,
        plan.cost,
        plan.rank,
    )
    odds = attack_odds(tn.value, dice, rank, plan.free)
    roll = roll_attack(rng, tn.value, dice, rank)
    turn = _turn(enc)
    aim = int(_aim_ready(turn, attacker.id))
    if aim:  # R-ACT-2 Aim: one free re-roll on this attack
        enc = evolve(enc, turn=evolve(turn, aim_used=(*turn.aim_used, attacker.id)))
    state = evolve(
        state,
        charges=None if state.charges is None else state.charges - cost,
        fired=True,
        dropped=cmd.throw,  # a thrown weapon lies where it landed (R-ATK-1 Throw)
    )
    attacker = evolve(
        attacker, weapons=tuple(state if w.id == state.id else w for w in attacker.weapons)
    )
    if melee:
        attacker = evolve(attacker, engaged=tuple(dict.fromkeys((*attacker.engaged, target.id))))
        target = evolve(target, engaged=tuple(dict.fromkeys((*target.engaged, attacker.id))))
    enc = enc.with_combatant(attacker).with_combatant(target)
    if style is Rating.WILD:
        enc = evolve(enc, turn=evolve(_turn(enc), wild=(*_turn(enc).wild, attacker.id)))
    lines = [
        f"{weapon.name} ({style.value}, {dice} d10) at {target.name}, {band.label} range",
        *before,
        f"TN {tn.explain()}",
        f"odds: ≥1 hit {percent(odds.success)} · expected {float(odds.expected):.2f} hits",
    ]
    title = f"{attacker.name} attacks {target.name}"
    paused = AttackState(
        attacker.id,
        target.id,
        weapon.id,
        roll.successes,
        style=style.value,
        fear_before=target.fear,
        damage=plan.damage,
        location=cmd.location,
        grapple=cmd.grapple,
        reaction=cmd.reaction,
        thrown=cmd.throw,
    )
    free = aim + cmd.rerolls
    ask = _ask_rerolls(attacker, roll, free, "attack", paused, tn.value, title)
    if ask is not None:
        lines.append(f"roll {roll.explain()}")
        return Outcome(enc, (LogLines(title, tuple(lines)),), ask)
    if free:  # no pool to spend: the free re-rolls go as the odds policy would (R-TASK-6)
        d10, hero = suggest_split(roll, free)
        roll = reroll(roll, rng, d10, hero)
        lines.append(f"roll {roll.explain()}")
        lines.append(_free_line(aim, cmd.rerolls, d10, hero))
    else:
        lines.append(f"roll {roll.explain()}")
    return _resolve_attack(enc, paused, roll, tn.value, title, lines, rng, cat)


def _take_attack_action(enc: Encounter, attacker: Combatant, cmd: Attack) -> Encounter:
    """Spend the Attack action, or none for an off-hand attack and a reaction."""
    turn = _turn(enc)
    if not attacker.standing:
        raise RulesError(f"{attacker.name} cannot act (taken out or unconscious)")
    if cmd.reaction == "standby":  # R-ACT-2 Standby: act when someone comes within Short
        if "standby" not in attacker.conditions:
            raise RulesError(f"{attacker.name} is not on Standby")
        kept = tuple(m for m in attacker.conditions if m != "standby")
        return enc.with_combatant(evolve(attacker, conditions=kept))
    if cmd.reaction == "zone-of-control":  # R-OTHER-4: a Hero, once per turn
        if attacker.rules_rank is not Rank.HERO:
            raise RulesError("zone of control is for Heroes (R-OTHER-4)")
        if attacker.id in turn.reactions:
            raise RulesError(f"{attacker.name} already stopped someone this turn (R-OTHER-4)")
        if attacker.group == turn.actor:
            raise RulesError("zone of control stops an opponent passing by on its turn")
        return evolve(enc, turn=evolve(turn, reactions=(*turn.reactions, attacker.id)))
    if cmd.reaction:
        raise RulesError("a reaction is standby or zone-of-control")
    if cmd.hand == "off":  # the same action as the main-hand attack (R-ATK-11)
        kept = tuple(c for c in turn.offhand if c != attacker.id)
        return evolve(enc, turn=evolve(turn, offhand=kept))
    enc = _spend(enc, attacker, "attack")
    if cmd.hand == "main":
        turn = _turn(enc)
        enc = evolve(enc, turn=evolve(turn, offhand=(*turn.offhand, attacker.id)))
    return enc


def _ask_rerolls(
    roller: Combatant,
    roll: PoolRoll,
    free: int,
    stage: str,
    state: AttackState,
    tn: int,
    title: str,
) -> PendingCombatRerolls | None:
    """Ask only a Hero with Luck or Clues left, and only when a re-roll could help."""
    if roller.rules_rank is not Rank.HERO or not (roller.luck or roller.clues):
        return None
    if (roll.successes == roll.dice) if stage == "attack" else not roll.successes:
        return None  # every die already as good as it gets for the roller
    what = "attack" if stage == "attack" else "Defense"
    question = (
        f"{roller.name}'s {what} roll: {roll.explain()}. Spend re-rolls?"
        f" (free {free}, Luck {roller.luck}, Clues {roller.clues})"
    )
    return PendingCombatRerolls(
        roller.id, roll, free, roller.luck, roller.clues, stage, state, tn, title, question
    )


def spend_combat_rerolls(
    enc: Encounter,
    cmd: SpendCombatRerolls,
    pending: PendingCombatRerolls,
    rng: random.Random,
    cat: Catalog,
) -> Outcome:
    """R-TASK-6: roll every chosen re-roll at once, pay Luck/Clues, then finish the attack."""
    roller = enc.get(pending.roller)
    total = cmd.d10 + cmd.hero
    if min(cmd.d10, cmd.hero) < 0:
        raise RulesError("re-roll counts cannot be negative")
    luck, clues = pay_rerolls(total, pending.free, roller.luck, roller.clues, cmd.clues)
    lines = []
    roll = pending.roll
    if total:
        roll = reroll(roll, rng, cmd.d10, cmd.hero)
        enc = enc.with_combatant(
            evolve(roller, luck=roller.luck - luck, clues=roller.clues - clues)
        )
        lines.append(
            f"re-rolls ({paid_text(min(total, pending.free), luck, clues)}): {roll.explain()}"
        )
    else:
        lines.append("keeps the roll")
    if pending.stage == "attack":
        title = f"{pending.title}: {'re-rolls' if total else 'roll kept'}"  # the rest of it
        return _resolve_attack(enc, pending.attack, roll, pending.tn, title, lines, rng, cat)
    state = evolve(pending.attack, hits=roll.successes)
    return _damage(enc, state, rng, cat, lines, first=1)


def _free_line(aim: int, granted: int, d10: int, hero: int) -> str:
    sources = [*(["Aim"] if aim else []), *([f"{granted} granted"] if granted else [])]
    return f"{' + '.join(sources)}: {d10 + hero} free re-roll(s) ({d10} d10, {hero} Hero die)"


def _resolve_attack(
    enc: Encounter,
    state: AttackState,
    roll: PoolRoll,
    tn: int,
    title: str,
    lines: list[str],
    rng: random.Random,
    cat: Catalog,
) -> Outcome:
    """After the attack roll (and its re-rolls): card effects, Fear per hit, dive, Defense."""
    weapon, melee = cat.weapons[state.weapon], _is_melee(cat, state)
    target = enc.get(state.target)
    hits, effects = roll.successes, _face_effects(weapon, roll)
    pending_attack = evolve(state, hits=hits)
    enc, pending_attack, more = _apply_effects(enc, pending_attack, effects, rng, tn, roll)
    lines += more
    hits = pending_attack.hits
    target = enc.get(target.id)
    ally = _ally_in_melee(enc, state, target) if roll.face is HeroFace.MISFORTUNE else None
    if hits and not melee and ally is not None:  # R-ATK-13: one hit goes to the ally
        hits -= 1
        pending_attack = evolve(pending_attack, hits=hits, spill=ally.id)
        if not hits:
            return _spill(Outcome(enc, (LogLines(title, tuple(lines)),)), pending_attack, rng, cat)
    if hits:  # R-ATK-4: a Fear token per hit, before Defense
        enc = enc.with_combatant(evolve(target, fear=target.fear + hits))
        lines.append(f"{target.name} gains {hits} Fear (R-ATK-4)")
    if not hits:  # card Fear on a miss can still pin or panic (R-ATK-8, R-FEAR-2)
        target, end_lines = _after_attack(enc.get(target.id), pending_attack)
        enc = enc.with_combatant(target)
        return Outcome(enc, (LogLines(title, (*lines, "no hit", *end_lines)),))
    if not melee and target.cover < Cover.HEAVY:
        question = (
            f"{target.name} is hit {hits}×{' in the open' if target.cover is Cover.NONE else ''}:"
            " dive for cover within Short range? (it goes Prone and loses 1 action next turn)"
        )
        return Outcome(
            enc,
            (LogLines(title, tuple(lines)),),
            PendingDive(pending_attack, question, target.cover),
        )
    finished = _defend_and_damage(enc, pending_attack, rng, cat)
    return Outcome(
        finished.encounter, (LogLines(title, tuple(lines)), *finished.log), finished.pending
    )


@dataclass(frozen=True)
class SuppressTarget:
    """One combatant as suppressive fire would meet it (R-ATK-16): its band, the Defense
    it rolls against, whether it dives, and why the cone cannot hold it.
    """

    combatant: Combatant
    band: RangeBand | None  # None: no band set between the zones, or not an enemy
    tn: TargetNumber  # Defense + 2: a Defense die above it is a hit
    reason: str = ""  # the refusal naming it (out of range, no band, no enemy); "" if it may
    dives: bool = False  # dives for cover instead of rolling Defense (R-ATK-5)

    @property
    def eligible(self) -> bool:
        return not self.reason

    @property
    def band_label(self) -> str:
        return "no band" if self.band is None else self.band.label

    @property
    def fear_less(self) -> int:
        """How much less of the Fear die it gains: 0 at Short (or Melee), 1 at Medium, …"""
        return 0 if self.band is None else max(0, self.band - RangeBand.SHORT)

    def fear(self, die: int) -> int:
        """Fear tokens it gains when the shooter's Fear die shows ``die``."""
        return max(0, die - self.fear_less)

    @property
    def hit(self) -> Fraction:
        """Exact chance the fire hits it (1d4 damage, 1 more Fear): none for a diver, else
        its one Defense d10 showing more than Defense. Needs a decided Sidekick (R-CHAR-8).
        """
        if self.dives:
            return Fraction(0)
        return defense_odds(1, self.defense, self.combatant.rules_rank).success

    @property
    def defense(self) -> int:
        return self.tn.value

    @property
    def defense_text(self) -> str:
        return f"{self.combatant.name}: {self.tn.terms()}"

    @property
    def dive_text(self) -> str:
        return f"{self.combatant.name} dives for cover: safe, Prone, loses 1 action (R-ATK-5)"


@dataclass(frozen=True)
class SuppressPlan:
    """Suppressive fire worked out before any die is rolled (R-ATK-16): the standing
    enemies the cone could hold, the cone the command names with exact odds, and why the
    command would be refused. :func:`suppress` rolls this plan, so the two never disagree.
    """

    shooter: Combatant
    weapon: Weapon
    state: WeaponState
    candidates: tuple[SuppressTarget, ...]  # standing enemies, nearest band first, none diving
    cone: tuple[SuppressTarget, ...]  # the command's targets in its order, once each
    refusal: str = ""  # what RulesError the command meets; "" when it may fire

    @property
    def rating(self) -> Suppression:
        assert self.weapon.suppression is not None  # plan_suppress refuses a weapon without
        return self.weapon.suppression

    def check(self) -> None:
        """Raise the refusal, if any, before anything changes."""
        if self.refusal:
            raise RulesError(self.refusal)

    def fear_odds(self, target: SuppressTarget) -> tuple[Fraction, ...]:
        """Exact distribution of the Fear tokens ``target`` gains (index = tokens)."""
        sides = self.rating.die
        odds = [Fraction(0)] * (sides + 1)
        for face in range(1, sides + 1):
            odds[target.fear(face)] += Fraction(1, sides)
        return tuple(odds)

    @property
    def any_hit(self) -> Fraction:
        """Exact chance at least one target in the cone is hit (one Defense roll each)."""
        miss = Fraction(1)
        for target in self.cone:
            miss *= 1 - target.hit
        return 1 - miss

    @property
    def headline(self) -> str:
        return f"{self.weapon.name}: suppressive fire {self.rating} at {len(self.cone)} target(s)"

    def forecast(self, target: SuppressTarget) -> str:
        """A dialog row's odds in a few words: ``hit 30.0% · Fear 0–7``."""
        try:
            hit = percent(target.hit)
        except RulesError:  # an undecided Sidekick (R-CHAR-8): the GM decides first
            hit = "?"
        return f"hit {hit} · Fear {target.fear(1)}–{target.fear(self.rating.die)}"

    def preview(self) -> tuple[str, ...]:
        """The lines a GM reads before firing: each target's Defense (or dive) and chance
        of a hit, the Fear die by band, and the chance that any target is hit.
        """
        if self.refusal:
            return self.headline, f"cannot fire: {self.refusal}"
        lines = [self.headline]
        for t in self.cone:
            lines.append(
                t.dive_text
                if t.dives
                else f"{t.defense_text} = {t.defense}: hit {percent(t.hit)}"
                " (1d4 damage, 1 more Fear)"
            )
        die = self.rating.die
        for t in self.cone:
            expected = sum(k * p for k, p in enumerate(self.fear_odds(t)))
            less = f" − {t.fear_less}" if t.fear_less else ""
            lines.append(
                f"{t.combatant.name} ({t.band_label}) gains d{die}{less} Fear:"
                f" {t.fear(1)}–{t.fear(die)}, expected {float(expected):.2f}"
            )
        expected = float(sum(t.hit for t in self.cone))
        lines.append(f"≥1 target hit {percent(self.any_hit)} · expected {expected:.2f}")
        return tuple(lines)


def plan_suppress(enc: Encounter, cmd: Suppress, cat: Catalog) -> SuppressPlan:
    """Every check and number of suppressive fire (R-ATK-16), without spending the action
    or rolling. Raises RulesError only for a weapon that cannot lay any down; every other
    refusal is the plan's ``refusal``, so an empty cone still lists the candidates.
    """
    shooter = enc.get(cmd.attacker)
    state = shooter.weapon(cmd.weapon)
    weapon = cat.weapons.get(state.id)
    if weapon is None or weapon.suppression is None:
        raise RulesError(f"{weapon.name if weapon else cmd.weapon} has no Suppression rating")

    def aimed(c: Combatant) -> SuppressTarget:
        return _suppress_target(enc, shooter, weapon, c)

    def nearest(t: SuppressTarget) -> tuple[int, bool]:  # R-COMBAT-2, own zone first
        return len(RangeBand) if t.band is None else t.band, t.combatant.zone != shooter.zone

    enemies = [aimed(c) for c in enc.combatants if c.side != shooter.side and c.standing]
    candidates = tuple(sorted(enemies, key=nearest))
    known = {t.combatant.id: t for t in candidates}
    cone = tuple(
        evolve(known.get(tid) or aimed(enc.get(tid)), dives=tid in cmd.dive)
        for tid in dict.fromkeys(cmd.targets)
    )
    plan = SuppressPlan(shooter, weapon, state, candidates, cone)
    return evolve(plan, refusal=_suppress_refusal(enc, plan, cmd.dive))


def _suppress_target(
    enc: Encounter, shooter: Combatant, weapon: Weapon, c: Combatant
) -> SuppressTarget:
    try:
        band, reason = enc.band(shooter.id, c.id), ""
    except RulesError as no_band:
        band, reason = None, str(no_band)
    if not c.standing or c.side == shooter.side:
        band, reason = None, f"{c.name} is not a standing enemy"
    elif band is not None and band > weapon.range:
        reason = f"{c.name} is beyond {weapon.name}'s {weapon.range.label} range"
    defense = _defense(enc, c, False, 0).plus(Modifier("suppressive fire", 2))
    return SuppressTarget(c, band, defense, reason)


def _suppress_refusal(enc: Encounter, plan: SuppressPlan, dive: Sequence[str]) -> str:
    """The first rule the fire breaks, in the order the GM would meet them ("" if none)."""
    shooter, weapon, state, n = plan.shooter, plan.weapon, plan.state, plan.rating.charges
    if state.dropped or state.stuck:
        return f"{shooter.name} cannot fire {weapon.name} now (dropped or stuck)"
    if state.charges is not None and state.charges < n:
        return f"{weapon.name} needs {n} charges for suppressive fire, has {state.charges}"
    if not 1 <= len(plan.cone) <= n:
        return f"suppressive fire covers 1 to {n} targets, not {len(plan.cone)}"
    if not set(dive) <= {t.combatant.id for t in plan.cone}:
        return "only targets in the cone may dive for cover"
    blocked = next((t.reason for t in plan.cone if t.reason), "")
    if blocked:
        return blocked
    for t in plan.cone:  # R-CHAR-8: no Defense roll before its rules are decided (a dive is)
        try:
            _ = t.dives or t.combatant.rules_rank
        except RulesError as undecided:
            return str(undecided)
    try:
        turn = _turn(enc)
    except RulesError as idle:
        return str(idle)
    if shooter.id in turn.suppressed:
        return "suppressive fire once per turn: the only such attack (R-ATK-16)"
    return ""


def suppress(enc: Encounter, cmd: Suppress, rng: random.Random, cat: Catalog) -> Outcome:
    """R-ATK-16, rolled from :func:`plan_suppress`. Interpretation (RULES.md): a Defense die
    above Defense + cover + 2 is a hit: 1d4 damage and 1 more Fear; then every target gains
    the Fear die at Short (and Melee), one fewer at Medium, two fewer at Long, three fewer
    at Extra-long.
    """
    plan = plan_suppress(enc, cmd, cat)
    plan.check()
    shooter, weapon, state, rating = plan.shooter, plan.weapon, plan.state, plan.rating
    enc = _spend(enc, shooter, "attack")
    turn = _turn(enc)
    enc = evolve(enc, turn=evolve(turn, suppressed=(*turn.suppressed, shooter.id)))
    charges = None if state.charges is None else state.charges - rating.charges
    spent = evolve(state, charges=charges, fired=True)
    enc = enc.with_combatant(_with_weapon(enc.get(shooter.id), spent))
    lines = [plan.headline]
    fear_before = {aim.combatant.id: enc.get(aim.combatant.id).fear for aim in plan.cone}
    hit: list[str] = []
    for aim in plan.cone:
        t = enc.get(aim.combatant.id)
        if aim.dives:
            cover = max(t.cover, Cover.LIGHT)
            t = _lose(evolve(t, cover=cover, prone=True), 1, "dive")
            lines.append(aim.dive_text)
        else:
            droll = roll_defense(rng, 1, aim.defense, t.rules_rank)
            lines.append(f"{aim.defense_text} → {droll.explain()}")
            if droll.successes:
                hit.append(t.id)
        enc = enc.with_combatant(t)
    die = rng.randint(1, rating.die)
    lines.append(f"Fear die d{rating.die}: {die}")
    for aim in plan.cone:
        tid = aim.combatant.id
        t = enc.get(tid)
        gained = aim.fear(die)
        t = evolve(t, fear=t.fear + gained)
        lines.append(f"{t.name} ({aim.band_label}) gains {gained} Fear")
        t, more = _after_attack(
            t, AttackState(shooter.id, tid, weapon.id, 0, fear_before=fear_before[tid])
        )
        lines += more
        enc = enc.with_combatant(t)
    head = LogLines(f"{shooter.name} lays down suppressive fire (R-ATK-16)", tuple(lines))
    if not hit:
        return Outcome(enc, (head,))
    first = AttackState(
        shooter.id,
        hit[0],
        weapon.id,
        1,
        damage="1d4",
        queue=tuple(hit[1:]),
        fear_before=fear_before[hit[0]],
    )
    rest = _damage(enc, first, rng, cat, [], first=1)
    return Outcome(rest.encounter, (head, *rest.log), rest.pending)


def weapon_style(weapon: Weapon, asked: str | None = None) -> Rating:
    """The rating an attack uses: the shooting skill, or a fighting style for melee."""
    if weapon.kind != "melee":
        if asked and asked != weapon.skill.value:
            raise RulesError(
                f"{weapon.name} is a {weapon.kind} weapon: it uses {weapon.skill.value}"
            )
        return weapon.skill
    name = asked or (weapon.skill.value if weapon.skill in FIGHTING_STYLES else "agile")
    try:
        style = Rating(name)
    except ValueError:
        raise RulesError(f"unknown fighting style {name!r} (wild, power or agile)") from None
    if style not in FIGHTING_STYLES:
        raise RulesError(f"melee uses a fighting style: wild, power or agile, not {name!r}")
    return style


def _fighting(enc: Encounter, c: Combatant) -> int:
    """How many standing opponents ``c`` is engaged with (the fallen no longer fight)."""
    return len(enc.in_melee_with(c))


def _face_effects(weapon: Weapon, roll: PoolRoll) -> tuple[tuple[Trigger, Effect], ...]:
    trigger = {
        HeroFace.SPECIAL_4: Trigger.SPECIAL_4,
        HeroFace.SPECIAL_5: Trigger.SPECIAL_5,
        HeroFace.FORTUNE: Trigger.FORTUNE,
        HeroFace.MISFORTUNE: Trigger.MISFORTUNE,
    }.get(roll.face)  # type: ignore[arg-type]
    return tuple((trigger, e) for e in weapon.effects_on(trigger)) if trigger else ()


def _apply_effects(
    enc: Encounter,
    state: AttackState,
    effects: tuple[tuple[Trigger, Effect], ...],
    rng: random.Random,
    tn: int,
    roll: PoolRoll,
) -> tuple[Encounter, AttackState, list[str]]:
    """Apply the card's effects for the Hero-die face (content/README.md effect table)."""
    lines = []
    for trigger, effect in effects:
        text = f"{trigger.value}: {effect.describe()}"
        kind = effect.kind
        amount = effect.value or 0
        if effect.dice is not None:
            amount = _roll_amount(effect, rng)
            text += f" (rolled {amount})"
        if kind is EffectKind.EXTRA_SHOTS:
            extra = roll_attack(
                rng,
                tn,
                max(1, amount),
                roll.rank if roll.rank is not Rank.SIDEKICK else Rank.MINION,
            )
            state = evolve(state, hits=state.hits + extra.successes)
            text += f": {extra.explain()}"
        elif kind is EffectKind.REROLL_LOWEST:
            # on the dice as they stand after the Luck/Talent/Aim re-rolls (card_reroll)
            again = card_reroll(roll, rng)
            state = evolve(state, hits=state.hits + again.successes - roll.successes)
            roll = again  # a later effect of the same face sees the re-rolled dice
            text += f": {again.explain()}"
        elif kind is EffectKind.ONE_HIT_COUNTS:
            state = evolve(state, hits=min(state.hits, 1))
        elif kind is EffectKind.TARGET_DEFENSE:
            state = evolve(state, defense_mod=state.defense_mod + amount)
        elif kind is EffectKind.DAMAGE:
            state = evolve(state, damage_bonus=state.damage_bonus + amount)
        elif kind is EffectKind.TN:
            recount = sum(roll.die_counts(d) or (d != 10 and d <= tn + amount) for d in roll.kept)
            state = evolve(state, hits=max(state.hits, recount))
        elif kind in (EffectKind.RECHARGE, EffectKind.EXTRA_CHARGE):
            enc = _charge(enc, state, amount if kind is EffectKind.RECHARGE else -amount)
        elif kind is EffectKind.FEAR and effect.targets != "enemies-nearby":
            target = enc.get(state.target)
            enc = enc.with_combatant(evolve(target, fear=target.fear + amount))
        elif kind is EffectKind.CONDITION:
            who = enc.get(state.attacker if effect.targets == "self" else state.target)
            mark = effect.condition or "condition"
            marked = evolve(who, prone=True) if mark == "prone" else with_condition(who, mark)
            enc = enc.with_combatant(marked)
        elif kind is EffectKind.STUCK:  # the weapon needs Interact action(s) to free it
            enc = _weapon_edit(enc, state.attacker, state.weapon, stuck=effect.value or 1)
        else:
            text += " — for the GM"
        lines.append(text)
    return enc, state, lines


def _weapon_edit(enc: Encounter, cid: str, weapon: str, **changes: object) -> Encounter:
    c = enc.get(cid)
    weapons = tuple(evolve(w, **changes) if w.id == weapon else w for w in c.weapons)  # type: ignore[arg-type]
    return enc.with_combatant(evolve(c, weapons=weapons))


def _roll_amount(effect: Effect, rng: random.Random) -> int:
    return roll_expression(effect.dice, rng).total  # type: ignore[arg-type]


def _charge(enc: Encounter, state: AttackState, delta: int) -> Encounter:
    attacker = enc.get(state.attacker)
    weapons = []
    for w in attacker.weapons:
        if w.id == state.weapon and w.charges is not None:
            top = w.power if w.power is not None else w.charges + max(delta, 0)
            w = evolve(w, charges=max(0, min(top, w.charges + delta)))
        weapons.append(w)
    return enc.with_combatant(evolve(attacker, weapons=tuple(weapons)))


def answer_dive(
    enc: Encounter, cmd: AnswerDive, pending: PendingDive, rng: random.Random, cat: Catalog
) -> Outcome:
    """R-ATK-5: diving takes the cover, goes Prone and loses 1 action next turn."""
    target = enc.get(pending.attack.target)
    cover = _cover(cmd.cover)
    lines = []
    if cover is not Cover.NONE:
        if cover <= target.cover:
            raise RulesError(
                f"{target.name} is already in {target.cover.label} cover:"
                " dive only to better cover (R-ATK-5)"
            )
        target = _lose(evolve(target, cover=cover, prone=True), 1, "dive")
        enc = enc.with_combatant(target)
        lines.append(
            f"{target.name} dives into {cover.label} cover:"
            " Prone, loses 1 action next turn (R-ATK-5)"
        )
    else:
        lines.append(f"{target.name} stays put and defends (R-ATK-5: no dive)")
    finished = _defend_and_damage(enc, pending.attack, rng, cat)
    head = (LogLines("Dive for cover", tuple(lines)),) if lines else ()
    return Outcome(finished.encounter, (*head, *finished.log), finished.pending)


def _defend_and_damage(
    enc: Encounter, state: AttackState, rng: random.Random, cat: Catalog
) -> Outcome:
    """R-ATK-6 Defense (with R-ATK-14 flanking in melee), then the hits that got through."""
    target = enc.get(state.target)
    melee = _is_melee(cat, state)
    defense = _defense(enc, target, melee, state.defense_mod)
    droll = roll_defense(rng, state.hits, defense.value, target.rules_rank)
    head = f"{defense.terms()} → "
    # free Defense re-rolls: Dodge (R-ACT-2) and, in melee, a Parry source (R-ATK-9)
    free = int("dodging" in target.conditions) + int(melee and "parry" in target.conditions)
    title = f"{target.name} defends"
    ask = _ask_rerolls(target, droll, free, "defense", state, defense, title)
    if ask is not None:
        return Outcome(enc, (LogLines(title, (head + droll.explain(),)),), ask)
    if free and droll.successes:  # spent to stop the most hits
        d10, hero = suggest_split(droll, free)
        droll = reroll(droll, rng, d10, hero)
    line = head + droll.explain()
    return _damage(enc, evolve(state, hits=droll.successes), rng, cat, [line], first=1)


def _defense(enc: Encounter, target: Combatant, melee: bool, card_mod: int) -> TargetNumber:
    """R-ATK-6 Defense = Dodge + cover, and what adds to it (R-TASK-1): a Hero's wound
    marker (R-WOUND-3: Dodge is a trait, and the marker is on all of them), §8 Shaken and
    Encumbered, R-ATK-14 flanking in melee, R-ACT-5 full defense and the attacker's card.
    """
    flank = -max(0, _fighting(enc, target) - 1) if melee else 0
    return TargetNumber((Modifier("Dodge", target.traits[Derived.DODGE]),)).plus(
        Modifier(f"{target.cover.label} cover", int(target.cover)),
        Modifier("wound", wound_marker(target)),
        Modifier("conditions", penalty(target)),
        Modifier("flanked", flank),
        Modifier("full defense", 2 if "full-defense" in target.conditions else 0),
        Modifier("card", card_mod),
    )


def _damage_expr(weapon: Weapon, style: str | None, damage: str, location: str) -> str:
    """One hit's damage: the card's (or the thrown / chosen one), R-ATK-1 Power adds the
    Strength die, R-ATK-10 a called shot at the head adds a d8.
    """
    expr = damage or weapon.damage.source
    if style == Rating.POWER.value:
        expr += "+strdie"
    return expr + "+1d8" if location == "head" else expr


def _damage(
    enc: Encounter,
    state: AttackState,
    rng: random.Random,
    cat: Catalog,
    lines: list[str],
    first: int,
) -> Outcome:
    """R-ATK-7 damage and Fear for each hit through (``state.hits``), R-DMG/R-WOUND, §7.
    A 13 on the chart pauses the attack with the remaining hits; the GM's pick resumes it.
    """
    attacker, target = enc.get(state.attacker), enc.get(state.target)
    weapon = cat.weapons[state.weapon]
    values = attacker.traits.as_values()
    for n in range(state.hits):
        if not target.standing:
            break
        expr = _damage_expr(weapon, state.style, state.damage, state.location)
        if state.grapple:  # R-ATK-17: compared with Strength instead of wounding
            target, line = _grab(target, attacker, roll_damage(rng, expr, 1, values).damage)
            lines.append(f"hit {first + n}: {line}")
            continue
        hit = roll_damage(rng, expr, _health(target, weapon), values)
        total = hit.damage + state.damage_bonus
        steps = wound_steps(total, hit.health)
        overflows = tuple(total - k * hit.health for k in range(1, steps + 1))
        result = apply_wound_steps(
            target.rules_rank,
            steps,
            overflows,
            target.wounds,
            target.nonlethal,
            not weapon.nonlethal,
        )
        # the card's bonus is part of the total the steps were counted from (R-DMG-2)
        bonus = f", {state.damage_bonus:+d} = {total}" if state.damage_bonus else ""
        track = "Stamina" if weapon.nonlethal else "Health"  # R-WOUND-6
        lines.append(
            f"hit {first + n}: damage {hit.roll.explain()}{bonus} vs {track} {hit.health}"
            f" → {steps} wound step{'s' if steps != 1 else ''} → {_wound_text(target, result)}"
        )
        target = evolve(
            target,
            wounds=result.wounds,
            nonlethal=result.nonlethal,
            out=target.out or result.taken_out,
            unconscious=target.unconscious or result.unconscious,
        )
        if target.rules_rank is Rank.HERO:  # R-WOUND-4: each wound costs an action
            target = _lose(target, result.steps_taken, "wound")
        if target.standing:  # R-ATK-7: one more Fear per hit through
            target = evolve(target, fear=target.fear + 1)
        if state.location == "limb" and target.standing and total > 0:
            target, line = _limb_check(target, total, rng)
            lines.append(line)
        if result.severe:
            target, chart_lines, pending = _severe_wound(target, result.overflow, rng, cat)
            lines += chart_lines
            if pending is not None:
                rest = evolve(state, hits=state.hits - n - 1)
                pending = evolve(pending, resume=rest, next_hit=first + n + 1)
                enc = enc.with_combatant(target)
                return Outcome(enc, (LogLines(f"{target.name} defends", tuple(lines)),), pending)
    stopped = "grappled" in target.conditions  # R-OTHER-4: a grapple stops it outright
    if state.reaction == "zone-of-control" and state.hits and target.standing and not stopped:
        target = with_condition(target, "slowed")
        lines.append(f"{target.name} is slowed: no Run this turn (R-OTHER-4)")
    target, end_lines = _after_attack(target, state)
    enc = enc.with_combatant(target)
    shown = (*lines, *end_lines)
    done = Outcome(enc, (LogLines(f"{target.name} defends", shown),) if shown else ())
    if state.spill:
        return _spill(done, state, rng, cat)
    if state.queue:  # R-ATK-16: the next target the suppressive fire hit
        nxt = evolve(state, target=state.queue[0], queue=state.queue[1:], hits=1)
        more = _damage(done.encounter, nxt, rng, cat, [], first=1)
        return Outcome(more.encounter, (*done.log, *more.log), more.pending)
    return done


def _is_melee(cat: Catalog, state: AttackState) -> bool:
    """A melee blow (flanking applies, no dive); a thrown or shot attack is ranged."""
    return cat.weapons[state.weapon].kind == "melee" and not state.thrown


def _ally_in_melee(enc: Encounter, state: AttackState, target: Combatant) -> Combatant | None:
    side = enc.get(state.attacker).side
    allies = (enc.get(e) for e in target.engaged)
    return next((a for a in allies if a.side == side and a.standing), None)


def _spill(done: Outcome, state: AttackState, rng: random.Random, cat: Catalog) -> Outcome:
    """R-ATK-13: the hit that went astray on a Misfortune strikes the ally in the melee
    (Fear per hit R-ATK-4; an ally locked in melee does not dive), then Defense and damage.
    """
    enc = done.encounter
    ally = enc.get(state.spill)
    if not ally.standing:
        return done
    enc = enc.with_combatant(evolve(ally, fear=ally.fear + 1))
    stray = evolve(state, target=ally.id, hits=1, spill="", fear_before=ally.fear)
    more = _defend_and_damage(enc, stray, rng, cat)
    head = LogLines(
        "Firing into melee (R-ATK-13)",
        (f"Misfortune: 1 hit goes to {ally.name}, who gains 1 Fear (R-ATK-4)",),
    )
    return Outcome(more.encounter, (*done.log, head, *more.log), more.pending)


def _limb_check(target: Combatant, damage: int, rng: random.Random) -> tuple[Combatant, str]:
    """R-ATK-10: a limb hit: Stamina minus the damage to keep using the limb."""
    base = target.traits[Derived.STAMINA] - damage
    _, ok, line = trait_roll(target, base, "Limb hit: Stamina − damage", rng)
    if ok:
        return target, f"{line}: keeps using the limb"
    return with_condition(target, "lamed"), f"{line}: the limb is useless (drops or falls)"


def _grab(target: Combatant, attacker: Combatant, damage: int) -> tuple[Combatant, str]:
    """R-ATK-17: the damage roll against the defender's Strength; above it, grappled."""
    strength = target.traits[Trait.STRENGTH]
    if damage <= strength or "grappled" in target.conditions:
        return target, f"grab {damage} vs Strength {strength}: breaks loose"
    grabbed = with_condition(target, "grappled")
    return grabbed, f"grab {damage} vs Strength {strength}: {target.name} is grappled (R-ATK-17)"


def _after_attack(target: Combatant, state: AttackState) -> tuple[Combatant, list[str]]:
    """R-ATK-8 Pinned in cover; R-FEAR-2 a Minion reaching 2× Morale in one action panics."""
    lines = []
    morale = target.traits[Derived.MORALE]
    marks = set(target.conditions)
    if target.standing and target.cover is not Cover.NONE and target.fear > morale:
        marks.add("pinned")
        lines.append(f"{target.name} is Pinned: Fear {target.fear} > Morale {morale} (R-ATK-8)")
    minion = target.rank is Rank.MINION or target.plays_as is Rank.MINION
    if minion and target.standing and state.fear_before < 2 * morale <= target.fear:
        marks.add("panicked")
        lines.append(
            f"{target.name} panics: Fear {target.fear} ≥ 2 × Morale in one action (R-FEAR-2)"
        )
    if marks == set(target.conditions):
        return target, lines
    return evolve(target, conditions=tuple(sorted(marks))), lines


def _health(target: Combatant, weapon: Weapon) -> int:
    """R-DMG-2 against Health; non-lethal damage against Stamina (R-WOUND-6)."""
    return target.traits[Derived.STAMINA if weapon.nonlethal else Derived.HEALTH]


def _wound_text(target: Combatant, result: WoundResult) -> str:
    if result.taken_out:
        return f"{target.name} is taken out (R-WOUND-2)"
    if not result.steps_taken:
        return "no wound"
    if result.unconscious:
        return "knocked unconscious (non-lethal past −2)"
    if result.severe:
        return "severely wounded (R-WOUND-1)"
    track = result.nonlethal if result.nonlethal > target.nonlethal else result.wounds
    return f"{result.steps_taken} wound step(s): now at −{track}"


@dataclass(frozen=True)
class RowOdds:
    """One chart row's exact chance; ``shared`` when its total also names another row
    (the erratum's 13): the chance is the total's, and the GM picks between them."""

    row: SevereWound
    chance: Fraction
    shared: bool


def chart_odds(chart: Sequence[SevereWound], modifier: int) -> tuple[RowOdds, ...]:
    """Exact odds of every row for d10 + ``modifier`` (a d10 is uniform: 1/10 a face).

    Rows that share a total are not split: each shows the whole chance of that total.
    """
    odds = []
    for row in chart:
        faces = [d for d in range(1, 11) if row.covers(d + modifier)]
        shared = any(
            other is not row and other.covers(d + modifier) for d in faces for other in chart
        )
        odds.append(RowOdds(row, Fraction(len(faces), 10), shared))
    return tuple(odds)


def _severe_wound(
    target: Combatant, overflow: int, rng: random.Random, cat: Catalog
) -> tuple[Combatant, list[str], Pending | None]:
    """R-WOUND-5 and §7: Prone, a Stamina roll to keep hold of the weapon in hand, then
    d10 + overflow + 2 × earlier severe wounds. Interpretation: the weapon in hand is the
    first carried one not dropped (fists cannot be dropped); others are stowed.
    """
    held = next((w for w in target.weapons if not w.dropped and w.id != FISTS), None)
    grip: list[str] = []
    if held is not None:
        name = cat.weapons[held.id].name if held.id in cat.weapons else held.id
        _, ok, line = trait_roll(target, target.traits[Derived.STAMINA], "Stamina", rng)
        grip.append(f"{line}: {'keeps hold of' if ok else 'drops'} {name} (R-WOUND-5)")
        if not ok:
            target = _with_weapon(target, evolve(held, dropped=True))
    d10 = rng.randint(1, 10)
    total = d10 + severe_wound_modifier(overflow, target.severe)
    rows = cat.chart_rows(total)
    line = (
        f"Severe Wound chart: d10 {d10} + {overflow} past Health"
        f" + 2×{target.severe} earlier = {total}"
    )
    target = evolve(target, prone=True, severe=target.severe + 1)
    if len(rows) > 1:
        question = f"{target.name} rolled {total} on the Severe Wound chart: which result?"
        return (
            target,
            [*grip, line],
            PendingChartChoice(
                target.id,
                total,
                tuple(r.id for r in rows),
                question,
                names=tuple(f"{r.name}: {r.text}" for r in rows),
            ),
        )
    if not rows:
        return target, [*grip, line, "no chart row covers that total: the GM decides"], None
    target, lines, _ = _apply_chart_row(target, rows[0], line)
    return target, [*grip, *lines], None


def _apply_chart_row(
    target: Combatant, row: SevereWound, line: str
) -> tuple[Combatant, list[str], None]:
    flags = row.mark
    target = evolve(
        target,
        unconscious=target.unconscious or row.unconscious,
        out=target.out or row.dead,
        chart=(*target.chart, row.id),
    )
    lines = [line, f"→ {row.name}{flags}: {row.text}"]
    if row.condition:  # what the row means at the table, marked for this encounter
        target = with_condition(target, row.condition)
        lines.append(f"{target.name} marked {row.condition}: {CONDITIONS[row.condition].text}")
    return target, lines, None


def choose_chart_row(
    enc: Encounter,
    cmd: ChooseChartRow,
    pending: PendingChartChoice,
    rng: random.Random,
    cat: Catalog,
) -> Outcome:
    """§7 erratum: the GM picks a row, or ``random`` rolls 50/50; the attack then goes on."""
    picked = rng.choice(pending.rows) if cmd.row == "random" else cmd.row
    if picked not in pending.rows:
        raise RulesError(f"pick one of {', '.join(pending.rows)}, or random")
    row = next(r for r in cat.chart if r.id == picked)
    how = "random pick" if cmd.row == "random" else "GM picks"
    target, lines, _ = _apply_chart_row(enc.get(pending.target), row, f"{how} on {pending.total}")
    enc = enc.with_combatant(target)
    head = LogLines(f"{target.name}: Severe Wound chart", tuple(lines))
    if pending.resume is None:
        return Outcome(enc, (head,))
    rest = _damage(enc, pending.resume, rng, cat, [], first=pending.next_hit)
    return Outcome(rest.encounter, (head, *rest.log), rest.pending)


def damage_outcome(c: Combatant, damage: int, nonlethal: bool) -> tuple[WoundResult, str]:
    """What ``damage`` from outside an attack does to ``c`` (R-DMG-2, R-WOUND), and the
    line that says so: the damage dialog shows it before Enter, the handler logs it.
    """
    if not 0 <= damage <= 999:
        raise RulesError(f"damage is 0 to 999, not {damage}")
    if not c.standing:
        raise RulesError(f"{c.name} is already out of the fight")
    track = "Stamina" if nonlethal else "Health"
    health = c.traits[Derived.STAMINA if nonlethal else Derived.HEALTH]
    steps = wound_steps(damage, health)
    overflows = tuple(damage - k * health for k in range(1, steps + 1))
    result = apply_wound_steps(c.rules_rank, steps, overflows, c.wounds, c.nonlethal, not nonlethal)
    return result, f"{damage} damage vs {track} {health} → {_wound_text(c, result)}"


def apply_damage(enc: Encounter, cmd: ApplyDamage, rng: random.Random, cat: Catalog) -> Outcome:
    c = enc.get(cmd.combatant)
    result, line = damage_outcome(c, cmd.damage, cmd.nonlethal)
    lines = [line]
    c = evolve(
        c,
        wounds=result.wounds,
        nonlethal=result.nonlethal,
        out=c.out or result.taken_out,
        unconscious=c.unconscious or result.unconscious,
    )
    if c.rules_rank is Rank.HERO:  # R-WOUND-4: each wound costs an action
        c = _lose(c, result.steps_taken, "wound")
    pending = None
    if result.severe:
        c, chart_lines, pending = _severe_wound(c, result.overflow, rng, cat)
        lines += chart_lines
    return Outcome(
        enc.with_combatant(c), (LogLines(f"{c.name} takes damage", tuple(lines)),), pending
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
    enc = evolve(enc, combatants=others, order=order, turn_index=index)
    return Outcome(enc, (LogLines(f"{c.name} leaves the encounter", ()),))


SEVERELY = 3
"""A Hero's wound marker once severely wounded: −1, −2, then severe (R-WOUND-1)."""


def roll_chart(enc: Encounter, cmd: RollChart, rng: random.Random, cat: Catalog) -> Outcome:
    """§7 for a Hero the GM names: d10 + overflow + 2 × earlier severe wounds."""
    c = enc.get(cmd.combatant)
    if c.rules_rank is not Rank.HERO:
        raise RulesError(f"{c.name} is taken out by a wound: the chart is for Heroes (R-WOUND-2)")
    if c.out:
        raise RulesError(f"{c.name} is dead (§7): no more rolls on the chart")
    if not 0 <= cmd.overflow <= 99:
        raise RulesError(f"overflow past Health is 0 to 99, not {cmd.overflow}")
    if not cat.chart:
        raise RulesError("no Severe Wound chart in the loaded packs")
    c = evolve(c, wounds=max(c.wounds, SEVERELY))  # a chart roll is a severe wound (R-WOUND-1)
    c, lines, pending = _severe_wound(c, cmd.overflow, rng, cat)
    return Outcome(
        enc.with_combatant(c), (LogLines(f"{c.name}: Severe Wound", tuple(lines)),), pending
    )


def end_turn(enc: Encounter, _cmd: EndTurn, rng: random.Random, _cat: Catalog) -> Outcome:
    """Weapons not fired recharge 1 (R-ATK-3); Shaken sheds 1 Fear (§8); next actor."""
    turn = _turn(enc)
    lines = []
    for member in enc.members(turn.actor):
        weapons = tuple(_recharged(w) for w in member.weapons)
        fear = member.fear - 1 if "shaken" in member.conditions and member.fear else member.fear
        calmer, note = panic_check(member, rng)
        calmer, bleeding = bleed_out(calmer)
        lines += [line for line in (note, bleeding) if line]
        changed = evolve(calmer, weapons=weapons, fear=fear)
        if changed != member:
            enc = enc.with_combatant(changed)
    for c in enc.combatants:  # R-OTHER-4: slowed for the rest of that turn only
        if "slowed" in c.conditions:
            enc = enc.with_combatant(with_condition(c, "slowed", 0))
    nxt = _begin_next_turn(enc, rng)
    head = (LogLines("End of turn", tuple(lines)),) if lines else ()
    return Outcome(nxt.encounter, (*head, *nxt.log), nxt.pending)


FIGHT_MARKS = ("shaken", "panicked", "pinned", "slowed")
"""Fear's conditions (and a zone of control's slowing): they last only as long as the fight."""

_MARKS = {"dodge": "dodging", "full-defense": "full-defense", "standby": "standby"}


@dataclass(frozen=True)
class ActionKind:
    """One TakeAction action: its cost in actions, a line for menus, whether it names
    a weapon (R-ACT-2/5/6; dropping is free).
    """

    cost: int
    hint: str
    weapon: bool = False


ACTIONS: dict[str, ActionKind] = {
    "aim": ActionKind(1, "a free re-roll on a later attack this turn"),
    "dodge": ActionKind(1, "may re-roll Defense until its next turn"),
    "full-defense": ActionKind(2, "Dodge +2 until its next turn (Heroes)"),
    "reload": ActionKind(2, "a weapon back to full charges", weapon=True),
    "stand": ActionKind(1, "up from Prone"),
    "standby": ActionKind(1, "attack when someone comes within Short"),
    "interact": ActionKind(1, "free a stuck weapon, pick one up, equipment", weapon=True),
    "hide": ActionKind(1, "the GM places it in cover"),
    "task": ActionKind(1, "then roll it in the task roller (F2)"),
    "draw": ActionKind(1, "a weapon", weapon=True),
    "holster": ActionKind(1, "put a weapon away", weapon=True),
    "drop": ActionKind(0, "what it holds (free)", weapon=True),
    "misc": ActionKind(1, "anything else the GM approves"),
    "break-free": ActionKind(1, "out of a grapple (R-ATK-17)"),
}


def take_action(enc: Encounter, cmd: TakeAction, rng: random.Random, cat: Catalog) -> Outcome:
    """Every action without an attack roll (R-ACT-2/5/6, R-ATK-17 breaking free)."""
    c = enc.get(cmd.combatant)
    action = cmd.action.strip().lower()
    if action not in ACTIONS:
        raise RulesError(f"unknown action {cmd.action!r} ({', '.join(ACTIONS)})")
    weapon = c.weapon(cmd.weapon) if cmd.weapon else None
    name = cat.weapons[weapon.id].name if weapon and weapon.id in cat.weapons else ""
    text = {
        "aim": f"{c.name} aims: 1 free re-roll on a later attack this turn (R-ACT-2)",
        "dodge": f"{c.name} dodges: may re-roll Defense until its next turn (R-ACT-2)",
        "full-defense": f"{c.name} goes into full defense: Dodge +2 until its next turn (R-ACT-5)",
        "stand": f"{c.name} stands up (R-ACT-6)",
        "standby": f"{c.name} stands by: may attack when someone comes within Short (R-ACT-2)",
        "interact": f"{c.name} interacts with equipment nearby (R-ACT-2)",
        "hide": f"{c.name} hides (the GM places it in cover)",
        "task": f"{c.name} spends an action on a task: roll it in the task roller (R-ACT-2)",
        "draw": f"{c.name} draws {name or 'a weapon'} (R-ACT-5)",
        "holster": f"{c.name} puts away {name or 'a weapon'} (R-ACT-5)",
        "drop": f"{c.name} drops {name or 'what it holds'} (a free action, R-ACT-5)",
        "misc": f"{c.name} does something the GM approves (R-ACT-2)",
    }.get(action, "")
    extra: list[str] = []
    if action == "stand" and not c.prone:
        raise RulesError(f"{c.name} is not Prone")
    if action == "full-defense" and c.rules_rank is not Rank.HERO:
        raise RulesError(f"{c.name}: full defense is for Heroes (R-ACT-5)")
    if action == "reload":
        if weapon is None or not cat.weapons[weapon.id].reload or weapon.power is None:
            raise RulesError(f"{name or 'that'} is not reloaded: it recharges or has no charges")
        text = f"{c.name} reloads {name}: {weapon.power} charges (R-ACT-5, 2 actions)"
    if action == "break-free" and "grappled" not in c.conditions:
        raise RulesError(f"{c.name} is not grappled")
    cost = ACTIONS[action].cost
    for n in range(cost):
        enc = (
            _spend(enc, c, action, cost=cost, what=f"{action} (R-ACT-5)")
            if n == 0
            else _spend(enc, c, f"{action} (second action)")
        )
    if action == "stand":
        c = evolve(c, prone=False)
    elif action == "reload" and weapon is not None:
        c = _with_weapon(c, evolve(weapon, charges=weapon.power))
    elif action in ("interact", "drop") and weapon is not None:
        c, text = _handle_weapon(c, weapon, name, action)
    elif action == "break-free":
        c, extra = _break_free(enc, c, cmd.bonus, rng)
        text = f"{c.name} tries to break free (R-ATK-17)"
    if action in _MARKS:
        c = evolve(c, conditions=tuple(sorted({*c.conditions, _MARKS[action]})))
    return Outcome(enc.with_combatant(c), (LogLines(text, tuple(extra)),))


def _with_weapon(c: Combatant, weapon: WeaponState) -> Combatant:
    return evolve(c, weapons=tuple(weapon if w.id == weapon.id else w for w in c.weapons))


def _handle_weapon(
    c: Combatant, weapon: WeaponState, name: str, action: str
) -> tuple[Combatant, str]:
    """Interact frees a stuck weapon one action at a time or picks a dropped one up."""
    if action == "drop":
        return _with_weapon(c, evolve(weapon, dropped=True)), f"{c.name} drops {name} (free)"
    if weapon.stuck:
        left = weapon.stuck - 1
        freed = _with_weapon(c, evolve(weapon, stuck=left))
        return freed, f"{c.name} works {name} free" + (f" ({left} more action(s))" if left else "")
    if weapon.dropped:
        return _with_weapon(c, evolve(weapon, dropped=False)), f"{c.name} picks up {name}"
    raise RulesError(f"{name} is neither stuck nor dropped")


def _break_free(
    enc: Encounter, c: Combatant, bonus: int, rng: random.Random
) -> tuple[Combatant, list[str]]:
    """R-ATK-17: d10 + Strength + Escape Artist (``bonus``) against the grappler's
    d10 + Strength × 2; higher breaks free. Interpretation: both roll a d10 and add.
    """
    holders = enc.in_melee_with(c)
    strength = max((h.traits[Trait.STRENGTH] for h in holders), default=0)
    mine, theirs = rng.randint(1, 10), rng.randint(1, 10)
    me = mine + c.traits[Trait.STRENGTH] + bonus
    them = theirs + 2 * strength
    line = f"d10 {mine} + Strength {c.traits[Trait.STRENGTH]}" + (f" {bonus:+d}" if bonus else "")
    line += f" = {me} vs grappler d10 {theirs} + 2 × Strength {strength} = {them}"
    if me > them:
        return with_condition(c, "grappled", 0), [line + ": free"]
    return c, [line + ": still held"]


def _recharged(w: WeaponState) -> WeaponState:
    """R-ATK-3: a weapon not fired this turn regains 1 charge, up to its power."""
    if w.fired:
        return evolve(w, fired=False)
    if w.recharge and w.charges is not None and w.power is not None and w.charges < w.power:
        return evolve(w, charges=w.charges + 1)
    return w


def end_combat(enc: Encounter, _cmd: EndCombat, _rng: random.Random, _cat: Catalog) -> Outcome:
    """Back to free-flowing mode (R-COMBAT-1); Sidekick choices end with the encounter, and
    so do actions still to be lost (R-WOUND-4, R-ATK-5: the next turn of this fight).

    Interpretation: Fear and what it brings (Shaken, Panicked, Pinned, R-FEAR, §8) and the
    actions' marks (Dodge, Full defense, Standby) belong to the fight and end with it; a
    fight started again in the same encounter begins calm. Wounds, Prone and the other
    conditions (bleeding, a painful wound …) stay for the GM to play out.
    """
    if not enc.active:
        raise RulesError("no combat to end")
    calmed = (*ENGINE_MARKS, *FIGHT_MARKS)
    combatants = tuple(
        evolve(
            c,
            plays_as=None,
            engaged=(),
            lose_actions=0,
            lose_why=(),
            fear=0,
            conditions=tuple(m for m in c.conditions if m.partition(":")[0] not in calmed),
        )
        for c in enc.combatants
    )
    return Outcome(
        evolve(enc, active=False, turn=None, order=(), turn_index=-1, combatants=combatants),
        (
            LogLines(
                f"Combat ends after {enc.round} round(s)",
                ("Fear, Shaken, Panicked, Pinned, Dodge, Full defense and Standby end with it",),
            ),
        ),
    )


def clear_encounter(
    enc: Encounter, cmd: ClearEncounter, _rng: random.Random, _cat: Catalog
) -> Outcome:
    """A new encounter (R-COMBAT-1: only in free-flowing mode); the party's wounds, Luck
    and scars live in the campaign, which the session updates as for EndCombat.
    """
    if enc.active:
        raise RulesError("combat is under way: end it first, then start a new encounter")
    fresh = Encounter(zones=enc.zones, bands=enc.bands) if cmd.keep_zones else Encounter(zones=())
    if fresh == enc:
        raise RulesError("the encounter is already empty")
    place = "zones and bands kept" if cmd.keep_zones else "zones and bands cleared"
    gone = f"{len(enc.combatants)} combatant(s) removed"
    return Outcome(fresh, (LogLines("New encounter", (gone, place)),))


HANDLERS = {
    AddZone: add_zone,
    CloseIn: close_in,
    SetBand: set_band,
    AddCombatants: add_combatants,
    SetCover: set_cover,
    SetPools: set_pools,
    SetCondition: set_condition,
    DecideSidekick: decide_sidekick,
    StartCombat: start_combat,
    DeclareActions: declare_actions,
    Move: move,
    Attack: attack,
    Suppress: suppress,
    TakeAction: take_action,
    RollChart: roll_chart,
    ApplyDamage: apply_damage,
    RemoveCombatant: remove_combatant,
    EndTurn: end_turn,
    EndCombat: end_combat,
    ClearEncounter: clear_encounter,
}
ANSWERS = {
    AnswerDive: (PendingDive, answer_dive),
    SpendCombatRerolls: (PendingCombatRerolls, spend_combat_rerolls),
    ChooseChartRow: (PendingChartChoice, choose_chart_row),
}
