"""What each seat may see: one pure projection of the session's state
for a seat, so a player's screens read only facts the player may know and a check
forgotten in a screen cannot leak a secret.

A player sees their own hero in full (sheet, pools, wounds), the party's names and
wounds, the zones and bands, the initiative order, whose turn it is (the GM's, while a
hidden group acts), and the combatants
the GM has revealed, each enemy's wounds as a word (unhurt, wounded, down), and its
conditions and countdowns (stunned for 2 more turns). Of the log
they see the public entries, dice and all, with the GM's numbers the engine marked in
them (:mod:`hsm_tui.rules.secret`: a GM roll's TN and odds, a Minion's Defense, Health,
Morale, Strength or Initiative) read as "hidden"; an entry the GM opened, whole. They
never see scene notes, the GM's notes on combatants (their own hero's too), the roster,
hidden combatants or entries about them (a hidden
attacker's attack on someone they see is noticed, its name unsaid:
:mod:`hsm_tui.table.visibility`), or any Minion's traits. A watcher sees what a player
without a hero sees. The GM sees it all.
"""

from __future__ import annotations

import bisect
import operator
from dataclasses import astuple, dataclass, replace

from ..campaign.combat import actor_name
from ..campaign.drafts import Draft, draft_of
from ..campaign.encounter import Combatant, Countdown, Encounter
from ..campaign.freeflow import Asked
from ..campaign.party import Campaign, PartyMember
from ..rules import Cover, Rank
from ..rules.combat import severely_wounded
from ..rules.secret import START as MARKED
from ..rules.secret import redact
from .seats import Role, Seat
from .state import Decision, LogEntry, UndoneEntry
from .visibility import (
    BUILDING,
    GM_ONLY,
    OPEN,
    RECORD,
    SHOWN_TO,
    TITLED,
    being_built,
    seen_by,
    seen_question,
)

BEHIND_THE_SCREEN = "the GM's"
"""Whose turn it is, to a player, while a hidden combatant acts: the GM rolls behind the
screen, as at a real table, and nothing names who acts."""

KEPT_UNDONE = 20
"""Undone entries the players' views keep: the recent ones, which a player may have read."""


@dataclass(frozen=True)
class SeenCombatant:
    """A combatant as a seat sees it: where it is and how it fares, not its numbers."""

    id: str
    name: str
    side: str
    zone: str
    cover: Cover
    hero: bool  # a Hero (or a Sidekick playing as one)
    state: str  # the wound marker for the party's Heroes; else unhurt, wounded or down
    conditions: tuple[str, ...]
    prone: bool
    acting: bool
    countdowns: tuple[Countdown, ...] = ()  # effects that end after some of its turns


@dataclass(frozen=True)
class SeenMember:
    """A party Hero as the table sees it: name and wounds."""

    entry: str
    name: str
    wounds: str
    dead: bool


@dataclass(frozen=True)
class TableView:
    """Everything one seat may see of the session now."""

    seat: Seat
    active: bool
    round: int
    turn: str  # whose turn, by name ("" outside a fight)
    waiting_for: str  # the issuer whose answer a decision needs ("" when none waits)
    zones: tuple[str, ...]
    bands: tuple[tuple[str, str, str], ...]
    order: tuple[str, ...]  # the initiative order, by name
    combatants: tuple[SeenCombatant, ...]
    party: tuple[SeenMember, ...]
    log: tuple[LogEntry, ...]
    hero: Combatant | None = None  # the seat's own hero in the fight, in full
    member: PartyMember | None = None  # the seat's own hero in the campaign, in full
    scene: str = ""  # the GM's scene notes (the GM's view only)
    decision: Decision | None = None  # the question waiting for this seat's answer
    left: int | None = None  # actions the seat's hero has left; None: not its turn
    asked: tuple[Asked, ...] = ()  # rolls the GM asked of this seat's hero (the GM: all)
    draft: Draft | None = None  # the seat's hero's sheet while its player fills it in
    budget: int = 0  # the campaign's trait budget (a draft that makes its hero keeps to it)


def unhurt(c: Combatant) -> bool:
    """Standing with no wound and no non-lethal step: the one notion of "unhurt" that a
    player's word for an enemy and the GM's attack panel both show.
    """
    return c.standing and not (c.wounds or c.nonlethal)


def wound_word(c: Combatant) -> str:
    """How an enemy fares, in a word: its wound track is the GM's."""
    if not c.standing:
        return "down"
    return "unhurt" if unhurt(c) else "wounded"


def marker(wounds: int) -> str:
    """A Hero's wound marker (R-WOUND-1): clean, −1, −2, severe."""
    if severely_wounded(wounds):
        return "severe"
    return f"−{wounds}" if wounds else "clean"


def view_for(
    seat: Seat,
    enc: Encounter,
    campaign: Campaign,
    log: tuple[LogEntry, ...],
    waiting_for: str = "",
    pending: Decision | None = None,
    undone: tuple[LogEntry, ...] = (),
    table: TableLog | None = None,
    asked: tuple[Asked, ...] = (),
) -> TableView:
    """What ``seat`` may see of this state (see the module's docstring); the waiting
    decision only when it is this seat's to answer (the GM may answer any). ``table``:
    the session's :class:`TableLog`, so its seats share one projection of the log.
    """
    gm = seat.role is Role.GM
    party = {m.entry for m in campaign.party}
    private = not gm and being_built(enc)  # while it is built, the heroes alone are shown
    shown = [
        c
        for c in enc.combatants
        if gm or not (c.hidden or (private and not (c.player or c.entry in party)))
    ]
    acting = enc.turn.actor if enc.turn is not None else ""
    hidden_groups = {c.group for c in enc.combatants if c.hidden and not gm}
    order = tuple(actor_name(enc, r.actor) for r in enc.order if r.actor not in hidden_groups)
    turn = actor_name(enc, acting) if acting else ""
    if acting in hidden_groups:
        turn = BEHIND_THE_SCREEN
    mine = seat.combatant(enc)
    if mine is not None and not gm:  # whom it fights in melee: only foes it may see
        hidden = {c.id for c in enc.combatants if c.hidden}
        engaged = tuple(e for e in mine.engaged if e not in hidden)
        mine = replace(mine, engaged=engaged, note="")  # the GM's note is the GM's
    member = next((m for m in campaign.party if m.entry == seat.hero), None)
    return TableView(
        seat=seat,
        active=enc.active,
        round=enc.round,
        turn=turn,
        waiting_for=waiting_for,
        zones=() if private else enc.zones,
        bands=() if private else tuple((a, b, band.label) for a, b, band in enc.bands),
        order=order,
        combatants=tuple(_seen(c, gm or c.entry in party, c.group == acting) for c in shown),
        party=tuple(SeenMember(m.entry, m.name, marker(m.wounds), m.dead) for m in campaign.party),
        log=_log_for(seat, log, undone, table or TableLog()),
        hero=mine if not gm else None,
        member=member if not gm else None,
        scene=campaign.scene if gm else "",
        decision=(
            pending
            if gm
            else seen_question(pending, enc)
            if waiting_for == seat.issuer and waiting_for != ""
            else None
        ),
        left=enc.turn.left(mine.id) if mine and enc.turn and mine.group == acting else None,
        asked=tuple(a for a in asked if gm or seat.plays(enc, a.task.who)),
        draft=None if gm else draft_of(campaign.drafts, seat.hero),
        budget=campaign.budget,
    )


def _seen(c: Combatant, known: bool, acting: bool) -> SeenCombatant:
    hero = Rank.HERO in (c.rank, c.plays_as)
    state = marker(c.wounds) if known and hero else wound_word(c)
    if known and hero and not c.standing:
        state = "dead" if c.out else "unconscious"
    return SeenCombatant(
        c.id,
        c.name,
        c.side,
        c.zone,
        c.cover,
        hero,
        state,
        c.conditions,
        c.prone,
        acting,
        c.countdowns,
    )


class TableLog:
    """The log as every seat but the GM's reads it, kept by the session: worked out once
    per change for all of them (twenty players, one projection) and, as the log grows,
    only for its new entries: a long campaign's change costs its own entries, not the
    whole log's.

    Each seat numbers its log in its own sequence (1, 2, 3 … with no gap), so the numbers
    never show where a hidden entry stands or how many there are.
    """

    def __init__(self) -> None:
        self.log: tuple[LogEntry, ...] = ()
        self.seen: list[LogEntry | None] = []  # per entry of the log: as a seat reads it
        self.opened: dict[int, LogEntry] = {}  # index: an entry opened to some seats
        self.shown: list[LogEntry] = []  # the seen entries, numbered in the seats' sequence
        self.gm_seqs: list[int] = []  # each shown entry's number in the GM's log
        self.counts: list[int] = [0]  # per index of the log: how many shown before it

    def read(self, log: tuple[LogEntry, ...], issuer: str) -> tuple[list[LogEntry], list[int]]:
        """The entries ``issuer`` may read, numbered for that seat, and their GM numbers."""
        if log is not self.log:
            kept = len(self.log) if len(log) >= len(self.log) else 0
            if kept and not all(map(operator.is_, self.log, log[:kept])):
                kept = 0  # an entry changed in place (re-rolls written into it), or undo
            self.seen[kept:] = map(_entry, log[kept:])
            self.opened = {i: e for i, e in self.opened.items() if i < kept}
            self.opened |= {
                kept + i: e for i, e in enumerate(log[kept:]) if SHOWN_TO in e.visibility
            }
            self.log = log
            del self.counts[kept + 1 :]
            del self.shown[self.counts[kept] :], self.gm_seqs[self.counts[kept] :]
            _number(self.seen[kept:], self.shown, self.gm_seqs, self.counts)
        mine = [i for i, e in self.opened.items() if issuer in seen_by(e.visibility)[1]]
        if not mine:
            return self.shown, self.gm_seqs
        seen = list(self.seen)  # opened to this seat: whole, numbers and all
        for i in mine:
            seen[i] = _whole(self.log[i])
        shown: list[LogEntry] = []
        gm_seqs: list[int] = []
        _number(seen, shown, gm_seqs, [])
        return shown, gm_seqs


def _number(
    seen: list[LogEntry | None], shown: list[LogEntry], gm_seqs: list[int], counts: list[int]
) -> None:
    """Append the entries a seat reads of ``seen`` to ``shown``, each numbered next in the
    seat's sequence; ``gm_seqs`` takes their GM numbers, ``counts`` the running count."""
    for entry in seen:
        if entry is not None:
            number = len(shown) + 1
            shown.append(entry if entry.seq == number else replace(entry, seq=number))
            gm_seqs.append(entry.seq)
        counts.append(len(shown))


def _log_for(
    seat: Seat, log: tuple[LogEntry, ...], undone: tuple[LogEntry, ...], table: TableLog
) -> tuple[LogEntry, ...]:
    """The entries ``seat`` may read; an undone one where it stood, before the entry that
    took its number."""
    if seat.role is Role.GM:
        return log
    shown, gm_seqs = table.read(log, seat.issuer)
    if not undone:
        return tuple(shown)
    merged = list(shown)
    for gm_seq, entry in sorted(
        ((e.seq, struck) for e in undone if (struck := _entry(UndoneEntry(*astuple(e))))),
        key=operator.itemgetter(0),
        reverse=True,
    ):  # where it stood: before the entry that took its place, with that entry's number
        at = bisect.bisect_left(gm_seqs, gm_seq)
        merged.insert(at, replace(entry, seq=at + 1))
    return tuple(merged)


def _entry(entry: LogEntry) -> LogEntry | None:
    """The entry as a player or watcher may read it: whole, with the GM's numbers in it
    hidden, or not at all.
    """
    base = seen_by(entry.visibility)[0]
    if base in (GM_ONLY, RECORD, BUILDING):
        return None
    if base == TITLED:
        return replace(entry, lines=())
    if not any(MARKED in line for line in (entry.title, *entry.lines)):
        return entry
    if base == OPEN:  # the GM showed it whole
        return _whole(entry)
    lines = tuple(shown for shown in map(redact, entry.lines) if shown.strip())
    return replace(entry, title=redact(entry.title), lines=lines)  # an undone entry stays one


def _whole(entry: LogEntry) -> LogEntry:
    """The entry as the GM reads it, to a seat it was opened to."""
    return replace(entry, title=entry.gm_title, lines=entry.gm_lines)
