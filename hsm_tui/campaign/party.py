"""Campaign state between encounters: the party (with Luck and Clue pools and the wounds
they carry), the GM's roster of sidekicks and minions, and the scene notes.

Plain frozen data like the encounter, so campaign files save it and undo restores it.
Heroes carry their pools, wounds, severe wounds and chart results into an encounter and
back out of it when combat ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ..packs import Catalog, Character
from ..packs.model import SevereWound
from ..rules import Derived, Modifier, Rank, RulesError, Trait, Traits
from ..rules.combat import extra_action_penalty, wound_penalty
from . import drafts, making
from .conditions import moved_penalty, penalty, wound_marker
from .drafts import Draft, DraftCommand
from .encounter import MAX_POOL, Combatant, Encounter
from .making import MadeCharacter, MakingCommand
from .prepared import PreparedEncounter

GM = "gm"
PARTY = "party:"
"""Prefix of a party Hero's id when it is not in the encounter (``party:<hero id>``)."""
MAX_NAME = 60
"""A campaign name's length limit: it titles home and names the file."""


def campaign_name(text: str) -> str:
    """``text`` as a campaign name (runs of spaces made one), or a RulesError saying why
    it cannot be one; the name dialog checks as the GM types with the same rule.
    """
    name = " ".join(text.split())
    if not name or len(name) > MAX_NAME:
        raise RulesError(f"a campaign name is 1 to {MAX_NAME} characters")
    return name


@dataclass(frozen=True)
class PartyMember:
    entry: str  # the hero's pack id
    name: str
    luck: int
    clues: int = 0
    wounds: int = 0
    severe: int = 0
    chart: tuple[str, ...] = ()
    destroyed: tuple[str, ...] = ()  # pieces that no longer work (§7 row 6): weapon id, item
    dead: bool = False  # a chart row marked dead (§7): no new adventure brings it back
    conditions: tuple[str, ...] = ()  # the §8 markers it keeps between fights (LASTING)


@dataclass(frozen=True)
class Campaign:
    name: str = "New campaign"
    party: tuple[PartyMember, ...] = ()
    roster: tuple[tuple[str, str], ...] = ()  # (kind, pack id) the GM keeps at hand
    scene: str = ""
    adventure: int = 1
    made: tuple[MadeCharacter, ...] = ()  # the characters the campaign made itself
    budget: int = 0  # trait points a new character may spend (0: no budget)
    drafts: tuple[Draft, ...] = ()  # Heroes' sheets their players fill in
    prepared: tuple[PreparedEncounter, ...] = ()  # encounters kept ahead (the GM's alone)

    def member(self, entry: str) -> PartyMember:
        for m in self.party:
            if m.entry == entry:
                return m
        raise RulesError(f"no hero {entry!r} in the party")

    def with_member(self, member: PartyMember) -> Campaign:
        party = tuple(member if m.entry == member.entry else m for m in self.party)
        return replace(self, party=party)


# -- commands ------------------------------------------------------------------------
@dataclass(frozen=True)
class AddHero:
    entry: str
    issuer: str = GM


@dataclass(frozen=True)
class RemoveHero:
    entry: str
    issuer: str = GM


ROSTER_KINDS = ("sidekick", "minion")
"""What the roster holds: the party's Heroes are kept apart (``Campaign.party``)."""


@dataclass(frozen=True)
class AddToRoster:
    kind: str  # one of ROSTER_KINDS
    entry: str
    issuer: str = GM


@dataclass(frozen=True)
class RemoveFromRoster:
    kind: str
    entry: str
    issuer: str = GM


SCENE_LIMIT = 10_000
"""Characters of scene notes a campaign keeps: a few pages, the file stays small."""


@dataclass(frozen=True)
class SetScene:
    text: str
    issuer: str = GM


@dataclass(frozen=True)
class GrantClues:
    """R-CHAR-9 Interpretation: Clues start at 0 and the GM grants them."""

    entry: str
    count: int = 1
    issuer: str = GM


@dataclass(frozen=True)
class EditChart:
    """The GM's edit of a Hero's lasting Severe Wound chart results (§7: Scarred, a limb,
    sight or hearing, PTSD …): a row from a past adventure added, or one healed (a
    surgeon, a relic) taken off. ``add``: add ``row``; else take one of it off."""

    entry: str
    row: str
    add: bool
    issuer: str = GM


def addable(cat: Catalog) -> tuple[SevereWound, ...]:
    """The chart rows an edit may add: every one but a death (the chart's roll alone)."""
    return tuple(row for row in cat.chart if not row.dead)


def chart_edits(campaign: Campaign, entry: str, cat: Catalog) -> list[tuple[str, EditChart]]:
    """Every :class:`EditChart` the engine takes for ``entry`` now, each with its label:
    its rows taken off, then the rows it may add."""
    m = campaign.member(entry)
    names = {row.id: row.name for row in cat.chart}
    off = [
        (f"take off {names.get(r, r)}", EditChart(entry, r, add=False))
        for r in dict.fromkeys(m.chart)
    ]
    return off + [(f"add {row.name}", EditChart(entry, row.id, add=True)) for row in addable(cat)]


@dataclass(frozen=True)
class AddParty:
    """Every party Hero joins the encounter in ``zone`` as a player character."""

    zone: str
    side: str = "heroes"
    issuer: str = GM


@dataclass(frozen=True)
class NewAdventure:
    """Between adventures: each Hero heals 1 wound, severe ones remain (R-WOUND-7), and
    the Luck pool starts again at the Luck trait (R-CHAR-9).
    """

    issuer: str = GM


CampaignCommand = (
    AddHero
    | RemoveHero
    | AddToRoster
    | RemoveFromRoster
    | SetScene
    | GrantClues
    | NewAdventure
    | EditChart
    | MakingCommand
    | DraftCommand
)


def apply(
    campaign: Campaign, cmd: CampaignCommand, cat: Catalog
) -> tuple[Campaign, str, tuple[str, ...]]:
    """The new campaign, the log title and lines; a RulesError refuses the command."""
    if isinstance(cmd, MakingCommand):
        made, budget, title, lines = making.apply(campaign.made, campaign.budget, cmd, cat)
        names = {m.id: m.name for m in made if m.kind == "hero"}  # a Hero renamed
        party = tuple(replace(m, name=names.get(m.entry, m.name)) for m in campaign.party)
        return replace(campaign, made=made, budget=budget, party=party), title, lines
    if isinstance(cmd, DraftCommand):
        sheets = drafts.sheets_of((m.entry for m in campaign.party), campaign.made, cat)
        kept, grows, title = drafts.apply(campaign.drafts, sheets, campaign.budget, cmd, cat)
        campaign = replace(campaign, drafts=kept)
        if grows is None:
            return campaign, title, ()
        grown, _title, lines = apply(campaign, grows, cat)
        return grown, title, lines
    return (*_apply(campaign, cmd, cat), ())


def _apply(campaign: Campaign, cmd: CampaignCommand, cat: Catalog) -> tuple[Campaign, str]:
    if isinstance(cmd, AddHero):
        heroes = cat.kind("hero")
        if cmd.entry not in heroes:
            raise RulesError(f"no hero {cmd.entry!r} in the loaded packs")
        if any(m.entry == cmd.entry for m in campaign.party):
            raise RulesError(f"{heroes[cmd.entry].name} is already in the party")
        hero = heroes[cmd.entry]
        member = PartyMember(hero.id, hero.name, hero.traits.luck)
        return replace(campaign, party=(*campaign.party, member)), f"{hero.name} joins the party"
    if isinstance(cmd, RemoveHero):
        m = campaign.member(cmd.entry)
        party = tuple(x for x in campaign.party if x.entry != m.entry)
        kept = tuple(d for d in campaign.drafts if d.hero != m.entry)  # its draft goes too
        return replace(campaign, party=party, drafts=kept), f"{m.name} leaves the party"
    if isinstance(cmd, AddToRoster | RemoveFromRoster):
        if cmd.kind not in ROSTER_KINDS:
            raise RulesError("the roster holds sidekicks and minions")
        if cmd.entry not in cat.kind(cmd.kind):
            raise RulesError(f"no {cmd.kind} {cmd.entry!r} in the loaded packs")
        key = (cmd.kind, cmd.entry)
        name = cat.kind(cmd.kind)[cmd.entry].name
        if isinstance(cmd, AddToRoster):
            if key in campaign.roster:
                raise RulesError(f"{name} is already on the roster")
            return replace(campaign, roster=(*campaign.roster, key)), f"{name} on the roster"
        if key not in campaign.roster:
            raise RulesError(f"{name} is not on the roster")
        roster = tuple(k for k in campaign.roster if k != key)
        return replace(campaign, roster=roster), f"{name} off the roster"
    if isinstance(cmd, SetScene):
        if len(cmd.text) > SCENE_LIMIT:
            raise RulesError(f"scene notes are limited to {SCENE_LIMIT:,} characters")
        return replace(campaign, scene=cmd.text), "Scene notes updated"
    if isinstance(cmd, EditChart):
        m = campaign.member(cmd.entry)
        names = {row.id: row.name for row in cat.chart}
        if cmd.add:
            if cmd.row not in names:
                raise RulesError(f"no row {cmd.row!r} on the Severe Wound chart")
            if cmd.row not in {row.id for row in addable(cat)}:
                raise RulesError("a death is the chart's roll, not an edit")
            chart = (*m.chart, cmd.row)
        elif cmd.row in m.chart:
            at = len(m.chart) - 1 - m.chart[::-1].index(cmd.row)  # its latest
            chart = m.chart[:at] + m.chart[at + 1 :]
        else:
            raise RulesError(f"{m.name} has no {names.get(cmd.row, cmd.row)} to take off")
        done = "added" if cmd.add else "taken off"
        title = f"{m.name}: {names.get(cmd.row, cmd.row)} {done} (the GM's edit, §7)"
        return campaign.with_member(replace(m, chart=chart)), title
    if isinstance(cmd, GrantClues):
        m = campaign.member(cmd.entry)
        if not 0 <= m.clues + cmd.count <= MAX_POOL:
            raise RulesError(f"{m.name} would have {m.clues + cmd.count} Clues (0 to {MAX_POOL})")
        clues = m.clues + cmd.count
        return campaign.with_member(replace(m, clues=clues)), f"{m.name}: Clues {clues}"
    heroes = cat.kind("hero")
    party = tuple(
        replace(
            m,
            luck=heroes[m.entry].traits.luck if m.entry in heroes else m.luck,
            wounds=max(0, m.wounds - 1),  # one step; the severe wounds' scars remain
        )
        for m in campaign.party
    )
    title = f"Adventure {campaign.adventure + 1}: each Hero heals 1 wound, Luck refilled"
    return replace(campaign, party=party, adventure=campaign.adventure + 1), title


T = TypeVar("T", Combatant, PartyMember)
CARRIED = ("luck", "clues", "wounds", "severe", "chart", "destroyed")
"""What a party Hero carries into a fight and back out: pools, wounds, scars, and the
pieces of its equipment that no longer work (§7 row 6)."""
FOR_GOOD = {"maimed": Trait.CHARM}
"""§7 rows that take 1 off every later TN with a trait, from then on (content's chart:
Maimed, "−1 to every TN that involves Charm"). The rest are the GM's to apply: which
rolls are social (Scarred), use the hurt limb or sense (Limb injury, Sight or hearing)."""
LASTING = ("encumbered", "fatigued", "nauseated")
"""§8 conditions a party Hero keeps outside a fight, each until the GM clears it (Fatigued
"goes away only when the character has at least one hour of uninterrupted rest"; the book
gives Nauseated and Encumbered no end). Interpretation: the others are the fight's or
the scene's (Fear's, a grapple, bleeding, a painful wound "this encounter")."""


def _lasting(conditions: Iterable[str]) -> tuple[str, ...]:
    return tuple(m for m in conditions if m.partition(":")[0] in LASTING)


def _carry(source: Combatant | PartyMember, target: T, **more: object) -> T:
    """``target`` with ``source``'s pools, wounds and scars, and its lasting conditions in
    place of ``target``'s (a combatant keeps the fight's own, as a Clue granted mid-fight
    hands it back).
    """
    fight = () if isinstance(target, PartyMember) else target.conditions
    conditions = (*(m for m in fight if m not in _lasting(fight)), *_lasting(source.conditions))
    carried = {name: getattr(source, name) for name in CARRIED}
    return replace(target, **carried, conditions=tuple(sorted(conditions)), **more)


def in_encounter(enc: Encounter) -> set[str]:
    """Pack ids of the party Heroes playing in the encounter: only their own copies (player
    characters), never a villain made from the same entry.
    """
    return {c.entry for c in enc.combatants if c.player and c.rank is Rank.HERO}


def _member(c: Combatant, campaign: Campaign) -> PartyMember | None:
    """The party Hero a combatant plays: only the party's own copy (added as a player
    character), never another combatant made from the same pack entry (a villain twin).
    """
    if not c.player or c.rank is not Rank.HERO:
        return None
    return next((m for m in campaign.party if m.entry == c.entry), None)


def carried_in(c: Combatant, campaign: Campaign) -> Combatant:
    """A party Hero joining an encounter brings its pools and wounds."""
    m = _member(c, campaign)
    return c if m is None else _carry(m, c, out=c.out or m.dead)


def carried_into(enc: Encounter, campaign: Campaign, entries: Iterable[str]) -> Encounter:
    """The party Heroes ``entries`` (still in the encounter) take the campaign's state."""
    wanted = set(entries)
    for c in enc.combatants:
        if c.entry in wanted:
            enc = enc.with_combatant(carried_in(c, campaign))
    return enc


def through_encounter(
    campaign: Campaign, enc: Encounter, change: Callable[[Campaign], Campaign]
) -> tuple[Campaign, Encounter]:
    """Apply a campaign-side ``change`` (a Clue granted, a new adventure's healing, Luck
    spent on a free-flowing task) to party Heroes who are also in the encounter: their
    live state there is taken back first and the result handed to them again, so nothing
    is lost when the encounter later hands them back (end of combat, a cleared encounter).
    """
    members = {m.entry for m in campaign.party}
    changed = change(carried_out(campaign, enc))
    return changed, carried_into(enc, changed, members)


def carried_out(campaign: Campaign, enc: Encounter) -> Campaign:
    """When combat ends (or a Hero leaves it) the party keeps what the fight left: pools,
    wounds, scars.
    """
    for c in enc.combatants:
        m = _member(c, campaign)
        if m is not None:
            campaign = campaign.with_member(_carry(c, m, dead=m.dead or c.out))
    return campaign


def wounded_as(enc: Encounter, campaign: Campaign, entry: str, cat: Catalog) -> Combatant:
    """Whom a wound between fights (a fall, a trap: F8 W) lands on: the Hero's combatant
    while it stands in the encounter (set up, fighting, or after the fight ended: the
    party takes its wounds from it until the encounter is cleared), else its stand-in.
    """
    own = (c for c in enc.combatants if c.player and c.rank is Rank.HERO and c.entry == entry)
    return next(own, None) or stand_in(campaign, f"{PARTY}{entry}", cat)


def stand_in(campaign: Campaign, who: str, cat: Catalog) -> Combatant:
    """A party Hero outside the encounter as a combatant, so that a fall's damage or a
    Severe Wound chart roll in free-flowing play runs through the same rules as in a
    fight. Interpretation (R-WOUND-5): outside a fight nothing is tracked as held, so no
    Stamina roll to keep hold of a weapon is made; the GM narrates what is dropped.
    """
    m = campaign.member(who.removeprefix(PARTY))
    hero = cat.kind("hero").get(m.entry)
    if hero is None:
        raise RulesError(f"{m.name}'s pack entry {m.entry!r} is not in the loaded packs")
    bare = Combatant(who, m.name, "party", Rank.HERO, who, hero.traits, hero.ratings, "")
    return _carry(m, bare, player=True, size=hero.size, entry=m.entry, out=m.dead)


def from_stand_in(campaign: Campaign, c: Combatant) -> Campaign:
    """What a command did to a stand-in (wounds, severe wounds, chart rows, death) kept by
    the party. Interpretation: being knocked out or bleeding out (§7 rows 14–15) belongs to
    the scene, as at the end of a fight; the GM plays it out (a Medical roll on F2).
    """
    m = campaign.member(c.id.removeprefix(PARTY))
    return campaign.with_member(_carry(c, m, dead=m.dead or c.out))


@dataclass(frozen=True)
class Roller:
    """Who rolls a free-flowing task: what the task roller fills in for them."""

    who: str  # a combatant id or "party:<hero id>"
    name: str
    rank: Rank | None  # None: a Sidekick whose rules are not decided yet (R-CHAR-8)
    traits: Traits
    wound_penalty: int  # R-WOUND-3, Heroes only
    condition_penalty: int  # §8 (Shaken, Encumbered …)
    luck: int
    clues: int
    skills: tuple[tuple[str, int], ...] = ()  # R-CHAR-6: added to the traits
    talents: tuple[str, ...] = ()  # R-CHAR-5: +1 and one free re-roll when relevant
    advantages: tuple[str, ...] = ()  # R-CHAR-6: may grant a re-roll (R-TASK-6)
    conditions: tuple[str, ...] = ()  # §8: Nauseated and Fatigued change the roll itself
    actions: int = 2  # declared this turn when it is the roller's (R-ACT-3: beyond 2, −1 each)
    chart: tuple[str, ...] = ()  # §7 rows it carries, some for good (Maimed)
    moved: bool = False  # took a Move this turn, when the turn is the roller's (§7 row 13)

    @property
    def action_modifier(self) -> Modifier:
        """R-ACT-3: "every action that turn", a Task action's roll too, at −(N − 2)."""
        return Modifier(f"{self.actions} actions", extra_action_penalty(self.actions))

    @property
    def stamina(self) -> int:
        """Nauseated's d10 is rolled against Stamina − 1 (§8)."""
        return self.traits[Derived.STAMINA]

    def modifiers(self, traits: Sequence[Trait]) -> tuple[Modifier, ...]:
        """What the roller brings to a task with ``traits`` besides its wound marker (which
        the GM's task roller lets the GM change): §8 conditions, R-ACT-3's extra actions,
        §7's lasting rows. One list for the GM's F2 and a player's own task.
        """
        return (
            Modifier("conditions", self.condition_penalty),
            self.action_modifier,
            *self.lasting(traits),
            *moved_penalty(self.chart, self.conditions, self.moved),
        )

    def lasting(self, traits: Iterable[Trait]) -> tuple[Modifier, ...]:
        """§7 rows that mark every later roll of a trait: what a task with ``traits`` takes."""
        used = set(traits)
        return tuple(
            Modifier(row, -1)
            for row, trait in FOR_GOOD.items()
            if row in self.chart and trait in used
        )


def _sheet(entry: Character | None) -> dict[str, tuple[Any, ...]]:
    """A roller's skills, Talents and Advantages as its pack entry lists them (a combatant
    whose entry is no longer loaded brings none).
    """
    if entry is None:
        return {}
    return {"skills": entry.skills, "talents": entry.talents, "advantages": entry.advantages}


def rollers(campaign: Campaign, enc: Encounter, cat: Catalog) -> tuple[Roller, ...]:
    """Everyone who can roll a task now: the party, then the encounter's standing combatants
    (a party Hero in the encounter appears once, as the combatant).
    """
    out: list[Roller] = []
    present = in_encounter(enc)
    heroes = cat.kind("hero")
    for m in campaign.party:
        if m.entry in present or m.entry not in heroes or m.dead:
            continue
        hero = heroes[m.entry]
        out.append(
            Roller(
                f"{PARTY}{m.entry}",
                m.name,
                Rank.HERO,
                hero.traits,
                wound_penalty(m.wounds),
                penalty(m),
                m.luck,
                m.clues,
                **_sheet(hero),
                conditions=m.conditions,
                chart=m.chart,
            )
        )
    turn = enc.turn
    for c in enc.combatants:
        if not c.standing:
            continue
        rank = c.plays_as or (None if c.rank is Rank.SIDEKICK else c.rank)
        entry = next(
            (
                cat.kind(k).get(c.entry)
                for k in ("hero", "sidekick", "minion")
                if c.entry in cat.kind(k)
            ),
            None,
        )
        out.append(
            Roller(
                c.id,
                c.name,
                rank,
                c.traits,
                wound_marker(c),
                penalty(c),
                c.luck,
                c.clues,
                **_sheet(entry),
                conditions=c.conditions,
                actions=turn.declared if turn is not None and turn.actor == c.group else 2,
                chart=c.chart,
                moved=turn is not None and turn.moved(c.id),
            )
        )
    return tuple(out)


def wound_book(enc: Encounter, campaign: Campaign) -> dict[str, tuple[int, int]]:
    """Each Hero's wound marker and chart rows, by the name F5 lists it under: the
    encounter's Heroes (and Sidekicks playing as Heroes), then the party's outside it.
    """
    book = {
        c.id: (c.wounds, len(c.chart)) for c in enc.combatants if Rank.HERO in (c.rank, c.plays_as)
    }
    present = in_encounter(enc)
    for m in campaign.party:
        if m.entry not in present:
            book[PARTY + m.entry] = (m.wounds, len(m.chart))
    return book


def last_wounded(states: Sequence[tuple[Encounter, Campaign]]) -> str | None:
    """The Hero the newest wound fell on in ``states`` (oldest first): its wound marker or
    chart rows grew from one state to the next (R-WOUND-1, §7), in the fight or between
    fights. None when no Hero was wounded: F5 then keeps its choice.
    """
    for before, after in zip(reversed(states[:-1]), reversed(states[1:]), strict=True):
        if before[0] is after[0] and before[1] is after[1]:
            continue
        was = wound_book(*before)
        for who, (wounds, rows) in wound_book(*after).items():
            if who in was and (wounds > was[who][0] or rows > was[who][1]):
                return who
    return None
