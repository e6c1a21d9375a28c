"""The commands that drive a fight, as plain frozen data: a view builds one, the session
applies it, and a campaign file keeps it (the codec finds each class by its name, so a
class keeps its name wherever it lives).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ...rules.models import record

GM = "gm"


# -- commands ------------------------------------------------------------------------
class Kind(StrEnum):
    """What joins an encounter from the packs (R-CHAR-1)."""

    HERO = "hero"
    """A Hero: rolls the Hero die, has Luck and Clues, wound track −1, −2, severe."""
    SIDEKICK = "sidekick"
    """A Sidekick: plays as a Hero or a Minion, the GM decides when it first matters."""
    MINION = "minion"
    """A Minion: same-type Minions share one initiative roll; out at the first wound."""


class Hand(StrEnum):
    """R-ATK-11: the hand an attack uses when a combatant fights with two weapons."""

    ONE = ""
    """One weapon: no two-weapon penalty."""
    MAIN = "main"
    """The main hand: −2; the off hand may follow in the same action."""
    OFF = "off"
    """The off hand: −3, right after a main-hand attack or suppressive fire (R-ATK-16),
    with no action of its own."""


class Reaction(StrEnum):
    """When an attack is made: on the attacker's turn, or out of it with no action spent."""

    NONE = ""
    """On its own turn, spending an Attack action (R-ACT-1)."""
    STANDBY = "standby"
    """From Standby, when someone comes within Short (R-ACT-2)."""
    ZONE_OF_CONTROL = "zone-of-control"
    """A Hero stopping someone passing within Melee, once per turn (R-OTHER-4)."""


class Location(StrEnum):
    """R-ATK-10: where a called shot aims."""

    NONE = ""
    """No called shot, or one at another spot ("Heroes can aim at specific areas": a
    hand, a weapon, a device): the penalty alone; what a hit there does is the GM's call
    (the rulebook gives effects for the head and the limbs only)."""
    HEAD = "head"
    """The head: each hit through adds a d8 to its damage."""
    LIMB = "limb"
    """A limb: Stamina minus the damage, or the limb is useless."""


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

    kind: Kind
    entry: str
    side: str
    zone: str
    count: int = 1
    player: bool = False
    hidden: bool = False  # hidden from the players until revealed (an ambush)
    issuer: str = GM


@dataclass(frozen=True)
class Reveal:
    """Show the players a hidden combatant, and the rest of its group with it."""

    combatant: str
    issuer: str = GM


@dataclass(frozen=True)
class SetCover:
    combatant: str
    cover: str
    issuer: str = GM


@dataclass(frozen=True)
class Place:
    """Set-up: the GM puts a combatant in another zone before the fight (during one, a
    Move takes it there, R-ACT-2).
    """

    combatant: str
    zone: str
    issuer: str = GM


@dataclass(frozen=True)
class SetDestroyed:
    """§7 row 6 by the GM's hand: a carried piece (a weapon's id, an item's name) marked
    destroyed (it no longer works) or working again.
    """

    combatant: str
    item: str
    destroyed: bool = True
    issuer: str = GM


@dataclass(frozen=True)
class SetPools:
    """R-CHAR-9: the GM grants Clues or sets what is left of a Hero's Luck pool."""

    combatant: str
    luck: int | None = None
    clues: int | None = None
    issuer: str = GM


@dataclass(frozen=True)
class SetFear:
    """The GM sets a combatant's Fear tokens; ``unit``: every standing figure of its Minion
    unit, which holds its Fear as one (R-ATK-4); otherwise this figure alone (a split).
    """

    combatant: str
    fear: int
    unit: bool = True
    issuer: str = GM


@dataclass(frozen=True)
class SetDivePolicy:
    """How ``side``'s Minions answer a dive question (``DIVE_POLICIES``): the GM decides
    once instead of at every hit."""

    side: str
    policy: str
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
class SetNote:
    """The GM's own words about a combatant ("" clears them): a reminder only the GM
    reads, never a rule."""

    combatant: str
    text: str
    issuer: str = GM


@dataclass(frozen=True)
class SetCountdown:
    """An effect on a combatant for its next ``turns`` turns (0 ends it): a §8 condition
    such as ``stunned``, marked with it, or the GM's own words; the engine ends it."""

    combatant: str
    effect: str
    turns: int
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


@record
class Attack:
    attacker: str
    target: str
    weapon: str
    style: str | None = None  # wild, power, agile for melee
    called_shot: bool = False
    modifier: int = 0
    shots: int | None = None  # fewer than the rate of fire, e.g. to save charges
    rerolls: int = 0  # free re-rolls granted for this roll: Talent, Advantage (R-TASK-6)
    location: Location = Location.NONE  # a called shot's head (+d8 damage) or limb
    hand: Hand = Hand.ONE  # two weapons: main (−2), then off (−3) in the same action
    throw: bool = False  # throw the weapon: Agile rating, Short range (R-ATK-1 Throw)
    damage_choice: int | None = None  # which of the card's damage options (Sonic Relik)
    grapple: bool = False  # an unarmed Agile attack to grab (R-ATK-17)
    reaction: Reaction = Reaction.NONE  # out of turn, no action spent
    or_nearest: bool = False  # a group's attack: the target down by then, the nearest enemy
    club: bool = False  # a gun swung as a club in melee (R-ATK-12)
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
class SonicBlast:
    """The Sonic Relik's cone (a weapon with ``area = "cone"`` and damage options): spend
    ``charges`` at the die ``damage_choice`` picks; each of ``targets`` (those the GM
    rules can hear) rolls Stamina or takes the die once per charge.
    """

    attacker: str
    weapon: str
    charges: int
    damage_choice: int
    targets: tuple[str, ...]
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
    cover: str = ""  # hide: the cover the GM places it in (light, medium, heavy)
    issuer: str = GM


@record
class AnswerDive:
    cover: str  # "none" to stay put, else the cover dived into
    issuer: str = GM
    unit: bool = False  # the target's whole Minion unit dives with it (R-ATK-5)


@record
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


@record
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
    | Reveal
    | SetCover
    | Place
    | SetPools
    | SetDestroyed
    | SetFear
    | SetCondition
    | SetNote
    | SetCountdown
    | SetDivePolicy
    | DecideSidekick
    | StartCombat
    | DeclareActions
    | Move
    | CloseIn
    | Attack
    | Suppress
    | SonicBlast
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

SET_UP = (
    AddZone, SetBand, AddCombatants, Reveal, SetCover, Place, SetPools, SetCondition,
    SetNote, SetCountdown, DecideSidekick, RemoveCombatant,
)  # fmt: skip
"""Commands that build an encounter when it is not under way (the builder's steps)."""


def log_step(command: CombatCommand, active: bool) -> str | None:
    """Where a command's log entries stand in the story of a fight (``active``: the fight
    was under way), so an export can fold the set-up and cut out one fight: ``setup``,
    ``start`` (initiative rolled), ``end``, or None for everything else.
    """
    if isinstance(command, StartCombat):
        return "start"
    if isinstance(command, EndCombat):
        return "end"
    return "setup" if not active and isinstance(command, SET_UP) else None


def set_up_subject(command: CombatCommand) -> str:
    """What a set-up step sets, as ``kind who`` (``band dig|ruins``, ``cover kestrel-1``),
    "" for a step that adds: a later step of the same set-up with the same subject
    replaces it, and ``leaves who`` drops what was set for who, so an export shows the
    set-up as it stood when the fight started (``logbook.as_set_up``), not each click.
    """
    if isinstance(command, SetBand):
        zones = sorted(zone.strip().casefold() for zone in (command.a, command.b))
        return f"band {'|'.join(zones)}"
    if isinstance(command, SetCondition):
        return f"{command.condition.strip().lower()} {command.combatant}"
    if isinstance(command, SetCountdown):
        return f"countdown {' '.join(command.effect.split()).lower()} {command.combatant}"
    kind = _SUBJECTS.get(type(command))
    return f"{kind} {command.combatant}" if kind else ""  # type: ignore[attr-defined]


_SUBJECTS: dict[type, str] = {
    SetCover: "cover", Place: "zone", SetPools: "pools", DecideSidekick: "rules",
    SetNote: "note", RemoveCombatant: "leaves",
}  # fmt: skip
"""The set-up steps about one combatant, by what each sets (``set_up_subject``)."""
