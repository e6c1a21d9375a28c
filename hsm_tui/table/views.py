"""What each seat may see: one pure projection of the session's state
for a seat, so a player's screens read only facts the player may know and a check
forgotten in a screen cannot leak a secret.

A player sees their own hero in full (sheet, pools, wounds), the party's names and
wounds, the zones and bands, the initiative order, whose turn it is, and the combatants
the GM has revealed, each enemy's wounds as a word (unhurt, wounded, down). Of the log
they see the public entries, dice and all, with the GM's numbers the engine marked in
them (:mod:`hsm_tui.rules.secret`: a GM roll's TN and odds, a Minion's Defense, Health,
Morale, Strength or Initiative) read as "hidden"; an entry the GM opened, whole. They
never see scene notes, the roster, hidden combatants or entries about them, or any
Minion's traits. A watcher sees what a player without a hero sees. The GM sees it all.
"""

from __future__ import annotations

import bisect
import operator
import re
from dataclasses import astuple, dataclass, is_dataclass, replace

from ..campaign.combat import (
    AddCombatants,
    ClearEncounter,
    RemoveCombatant,
    Reveal,
    StartCombat,
    actor_name,
    log_step,
)
from ..campaign.encounter import Combatant, Encounter
from ..campaign.freeflow import Asked, RollGroup, RollOpposed, RollTask
from ..campaign.party import AddToRoster, Campaign, PartyMember, RemoveFromRoster, SetScene
from ..rules import Cover, Rank, RulesError
from ..rules.combat import severely_wounded
from ..rules.secret import START as MARKED
from ..rules.secret import plain, redact, secret
from .seats import Role, Seat
from .state import GM, Command, Decision, LogEntry, UndoneEntry

PUBLIC = "public"
"""A log entry every seat sees (its lines as :func:`view_for` allows)."""
GM_ONLY = "gm"
"""A log entry only the GM sees: about a hidden combatant, or the GM's own notes."""
OPEN = "open"
"""A log entry the GM opened to every seat, lines and all."""
TITLED = "title"
"""A public entry of a campaign saved before the engine marked the GM's numbers in its
lines (file format 2 and older): the other seats read its title alone, as they did then."""
RECORD = "record"
"""The GM's record of the table itself (an entry opened to a seat): no seat reads it, and
there is nothing in it to open. Its title names the GM's numbers, which no seat shares."""
BUILDING = "building"
"""A set-up step of an encounter never started: the GM's while it is built, every seat's
once the fight starts (:func:`started`); the players do not watch the ambush being laid."""
VISIBILITIES = (PUBLIC, GM_ONLY, OPEN, TITLED, RECORD, BUILDING)
"""Every visibility a log entry may have (then, after :data:`SHOWN_TO`, seats)."""
SHOWN_TO = ";"
"""After a visibility, the seats the GM opened the entry to: ``gm;player:kara``."""

BY_ENTRY = "by entry"
"""Not a visibility: :func:`entry_visibility`'s answer when each entry a command writes
is judged on its own (:func:`entry_seen`): a fight's start or a turn passing while a
hidden group is in it, whose entries are public but for the lines naming that group."""

KEPT_UNDONE = 20
"""Undone entries the players' views keep: the recent ones, which a player may have read."""

GM_NOTES = (SetScene, AddToRoster, RemoveFromRoster)
"""Commands whose log entries are the GM's alone (notes, the roster)."""
SECRET_ROLLS = (RollTask, RollOpposed, RollGroup)
"""Rolls the GM may mark hidden before rolling (F2 ``h``): then their entries are the GM's."""


def entry_visibility(
    command: Command,
    before: Encounter | None = None,
    after: Encounter | None = None,
    pending: Decision | None = None,
) -> str:
    """Who may see the log entries ``command`` writes: the GM alone when they are about a
    combatant hidden from the players (named by the command or the decision it answers,
    or taking the turn, before or after it) or are the GM's notes; a set-up step of an
    encounter being built is :data:`BUILDING` (every seat's once the fight starts).
    """
    if isinstance(command, GM_NOTES) or (isinstance(command, SECRET_ROLLS) and command.hidden):
        return GM_ONLY
    if before is None or after is None:
        return PUBLIC
    building = being_built(before) and log_step(command, before.active) == "setup"
    public = BUILDING if building else PUBLIC
    if isinstance(command, Reveal):
        return public
    # only Reveal unhides (above) and only a removal drops someone: else ``after`` holds
    # every combatant hidden before, and one scan of it answers (this runs per command)
    hidden = [c for c in after.combatants if c.hidden]
    if isinstance(command, RemoveCombatant | ClearEncounter):
        hidden += [c for c in before.combatants if c.hidden]
    if not hidden:
        return public
    if isinstance(command, AddCombatants):
        return GM_ONLY  # a hidden arrival is the news itself
    if isinstance(command, StartCombat):
        return BY_ENTRY  # the initiative is public, but for the hidden groups' lines
    named = _words(command) | _words(pending)
    if any(c.id in named for c in hidden):
        return GM_ONLY
    turns = {enc.turn.actor for enc in (before, after) if enc.turn is not None}
    if any(c.group in turns for c in hidden):
        return BY_ENTRY  # a hidden group's turn passing: the next turn's start is public
    return public


_ORDINAL = re.compile(r"^\d+\. ")


def entry_seen(
    title: str, lines: tuple[str, ...], before: Encounter, after: Encounter
) -> tuple[str, tuple[str, ...]]:
    """Who may see one entry of a :data:`BY_ENTRY` command, and its lines: the GM alone
    when its title names a hidden combatant or group; else every seat, each line naming
    one read by the GM alone, and the lines' ordinals too (a list's "2." would tell a
    player that something came first).
    """
    names = {
        name
        for enc in (before, after)
        for c in enc.combatants
        if c.hidden
        for name in (c.id, c.name, actor_name(enc, c.group))
    }
    if not names:
        return PUBLIC, lines
    hidden = re.compile("|".join(map(re.escape, sorted(names, key=len, reverse=True))))
    if hidden.search(plain(title)):
        return GM_ONLY, lines
    kept = [
        secret(plain(line), instead="") if hidden.search(plain(line)) else line for line in lines
    ]
    if len(kept) != sum(line == k for line, k in zip(lines, kept, strict=True)):
        kept = [_ORDINAL.sub(lambda m: secret(m[0], instead=""), line) for line in kept]
    return PUBLIC, tuple(kept)


def being_built(enc: Encounter) -> bool:
    """Whether ``enc`` is still being built: never started (a fight ended keeps its round)."""
    return not enc.active and enc.round == 0


def started(log: tuple[LogEntry, ...]) -> tuple[LogEntry, ...]:
    """The log as the fight starts: the set-up steps built in private are every seat's."""
    return tuple(replace(e, visibility=PUBLIC) if e.visibility == BUILDING else e for e in log)


def gms_question(pending: Decision, enc: Encounter, log: tuple[LogEntry, ...]) -> bool:
    """Whether the waiting question stays the GM's, whoever it is for: it names a
    combatant the players may not see yet, or it is about a roll the GM made in secret.
    """
    seq = getattr(pending, "log_seq", 0)
    if 0 < seq <= len(log) and log[seq - 1].visibility == GM_ONLY:
        return True
    hidden = {c.id for c in enc.combatants if c.hidden}
    return bool(hidden) and not hidden.isdisjoint(_words(pending))


def _words(record: object) -> set[str]:
    """Every text a command or decision holds, nested records included: the ids of the
    combatants it is about are among them.
    """
    if not is_dataclass(record):
        return set()
    found: set[str] = set()
    for value in vars(record).values():
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            found |= {item} if isinstance(item, str) else _words(item)
    return found


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
    mine = seat.combatant(enc)
    if mine is not None and not gm:  # whom it fights in melee: only foes it may see
        hidden = {c.id for c in enc.combatants if c.hidden}
        mine = replace(mine, engaged=tuple(e for e in mine.engaged if e not in hidden))
    member = next((m for m in campaign.party if m.entry == seat.hero), None)
    return TableView(
        seat=seat,
        active=enc.active,
        round=enc.round,
        turn="" if acting in hidden_groups or not acting else actor_name(enc, acting),
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
        decision=pending if gm or (waiting_for == seat.issuer and waiting_for != "") else None,
        left=enc.turn.left(mine.id) if mine and enc.turn and mine.group == acting else None,
        asked=tuple(a for a in asked if gm or seat.plays(enc, a.task.who)),
    )


def _seen(c: Combatant, known: bool, acting: bool) -> SeenCombatant:
    hero = Rank.HERO in (c.rank, c.plays_as)
    state = marker(c.wounds) if known and hero else wound_word(c)
    if known and hero and not c.standing:
        state = "dead" if c.out else "unconscious"
    return SeenCombatant(
        c.id, c.name, c.side, c.zone, c.cover, hero, state, c.conditions, c.prone, acting
    )


def seen_by(visibility: str) -> tuple[str, tuple[str, ...]]:
    """An entry's visibility for every seat, and the seats it was opened to besides."""
    base, _, seats = visibility.partition(SHOWN_TO)
    return base, tuple(seat for seat in seats.split(",") if seat)


def keeps_secrets(entry: LogEntry) -> bool:
    """Whether the players read less of ``entry`` than the GM does (all of it hidden, or
    numbers in it): what the GM may open (F6 ``o``, :class:`OpenEntry`).
    """
    base = seen_by(entry.visibility)[0]
    if base in (OPEN, RECORD, BUILDING):  # a set-up step opens by itself at the start
        return False
    if base == TITLED:
        return bool(entry.lines)
    return base == GM_ONLY or any(MARKED in line for line in entry.lines)


def opening(log: tuple[LogEntry, ...], seq: int, to: str = "") -> tuple[LogEntry, str]:
    """:class:`OpenEntry`: the entry it opens and the visibility it then has, open to
    every seat or to one more (``to``, a seat's issuer); else why not.
    """
    if not 1 <= seq <= len(log):
        raise RulesError(f"no log entry {seq}")
    entry = log[seq - 1]
    base, seats = seen_by(entry.visibility)
    if base == OPEN:
        raise RulesError(f"log entry {seq} is already open to everyone")
    if not to:
        return entry, OPEN
    if to == GM or not keeps_secrets(entry):
        raise RulesError(f"log entry {seq} keeps nothing from {to}")
    if to in seats:
        raise RulesError(f"log entry {seq} is already open to {to}")
    return entry, f"{base}{SHOWN_TO}{','.join((*seats, to))}"


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
            seen[i] = replace(self.log[i], lines=self.log[i].gm_lines)
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
    if not any(MARKED in line for line in entry.lines):
        return entry
    if base == OPEN:  # the GM showed it whole
        return replace(entry, lines=entry.gm_lines)
    lines = tuple(shown for shown in map(redact, entry.lines) if shown.strip())
    return replace(entry, lines=lines)  # an undone entry stays one
