"""Who reads each log entry, and what a player may hold of a waiting question: the GM
alone (a hidden combatant, the GM's notes, a secret roll), every seat (with the GM's
numbers hidden in its lines), or every seat but for a name (a hidden attacker noticed,
not named). Decided once, as the entry is written; :mod:`hsm_tui.table.views` projects
the log for each seat by it.
"""

from __future__ import annotations

import operator
import re
from dataclasses import fields, is_dataclass, replace
from typing import Any

from ..campaign.combat import (
    AddCombatants,
    ClearEncounter,
    RemoveCombatant,
    Reveal,
    SetDivePolicy,
    SetNote,
    StartCombat,
    actor_name,
    log_step,
)
from ..campaign.drafts import KeepDraft
from ..campaign.encounter import Encounter
from ..campaign.freeflow import RollGroup, RollOpposed, RollTask
from ..campaign.party import AddToRoster, RemoveFromRoster, SetScene
from ..campaign.prepared import DropEncounter, KeepEncounter, LoadEncounter
from ..rules import RulesError
from ..rules.secret import START as MARKED
from ..rules.secret import plain, secret
from .state import GM, Command, Decision, LogEntry

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
NOTICED = "noticed"
"""Not a visibility: :func:`entry_visibility`'s answer for a hidden combatant's attack on
someone the players see. The heroes notice the attack, not who made it: each entry is
judged as for :data:`BY_ENTRY`, but a title naming the attacker is every seat's, the
attacker in it read as :func:`unseen` (where the shot came from), not the GM's alone."""
GM_NOTES = (
    SetScene,
    AddToRoster,
    RemoveFromRoster,
    SetDivePolicy,
    SetNote,
    KeepEncounter,
    DropEncounter,
    LoadEncounter,
)
"""Commands whose log entries are the GM's alone (notes, the roster, a side's dive policy,
the GM's note on a combatant, the encounters prepared ahead: the players never learn what
waits for them)."""
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
    if isinstance(command, KeepDraft) and not command.send:
        return GM_ONLY  # a draft kept as it goes: the GM's record, not the table's news
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
        return NOTICED if _noticed(command, pending, {c.id for c in hidden}) else GM_ONLY
    turns = {enc.turn.actor for enc in (before, after) if enc.turn is not None}
    if any(c.group in turns for c in hidden):
        return BY_ENTRY  # a hidden group's turn passing: the next turn's start is public
    return public


_ORDINAL = re.compile(r"^\d+\. ")


def _noticed(command: object, pending: object, hidden: set[str]) -> bool:
    """Whether ``command`` (or the question it answers) is a hidden combatant's attack on
    someone the players see: an attack, a suppressive fire or a cone, as it is made or
    while it waits for its target's dive, re-rolls or chart row.
    """
    paused = (getattr(pending, "attack", None), getattr(pending, "resume", None))
    for made in (command, pending, *paused):
        if getattr(made, "attacker", None) in hidden:
            targets = (getattr(made, "target", ""), *getattr(made, "targets", ()))
            if any(t and t not in hidden for t in (*targets, *getattr(made, "queue", ()))):
                return True
    return False


def _hidden_names(*encounters: Encounter) -> dict[str, str]:
    """Every name and id of a hidden combatant or group, each with the zone it is in."""
    return {
        name: c.zone
        for enc in encounters
        for c in enc.combatants
        if c.hidden
        for name in (c.id, c.name, actor_name(enc, c.group))
    }


def _naming(names: dict[str, str]) -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, sorted(names, key=len, reverse=True))))


def unseen(zone: str, first: bool = False) -> str:
    """A hidden attacker as the heroes notice it: where the attack came from, no name."""
    place = zone.removeprefix("the ")
    return f"{'S' if first else 's'}omeone unseen in the {place}"


def entry_seen(
    title: str,
    lines: tuple[str, ...],
    before: Encounter,
    after: Encounter,
    noticed: bool = False,
) -> tuple[str, str, tuple[str, ...]]:
    """Who may see one entry of a :data:`BY_ENTRY` or :data:`NOTICED` command, its title
    and its lines: the GM alone when its title names a hidden combatant or group, unless
    the entry is ``noticed`` (then the players read :func:`unseen` for the name); else
    every seat, each line naming one read by the GM alone, and the lines' ordinals too
    (a list's "2." would tell a player that something came first).
    """
    names = _hidden_names(before, after)
    if not names:
        return PUBLIC, title, lines
    hidden = _naming(names)
    if hidden.search(plain(title)):
        if not noticed:
            return GM_ONLY, title, lines
        title = hidden.sub(
            lambda m: secret(m[0], instead=unseen(names[m[0]], first=m.start() == 0)),
            plain(title),
        )
    kept = [
        secret(plain(line), instead="") if hidden.search(plain(line)) else line for line in lines
    ]
    if len(kept) != sum(line == k for line, k in zip(lines, kept, strict=True)):
        kept = [_ORDINAL.sub(lambda m: secret(m[0], instead=""), line) for line in kept]
    return PUBLIC, title, tuple(kept)


def being_built(enc: Encounter) -> bool:
    """Whether ``enc`` is still being built: never started (a fight ended keeps its round)."""
    return not enc.active and enc.round == 0


def started(log: tuple[LogEntry, ...]) -> tuple[LogEntry, ...]:
    """The log as the fight starts: the set-up steps built in private are every seat's."""
    return tuple(replace(e, visibility=PUBLIC) if e.visibility == BUILDING else e for e in log)


def gms_question(pending: Decision, enc: Encounter, log: tuple[LogEntry, ...]) -> bool:
    """Whether the waiting question stays the GM's, whoever it is for: it names a
    combatant the players may not see yet (but for a hidden attacker's, which its target's
    player answers: :func:`seen_question`), or it is about a roll the GM made in secret.
    """
    seq = getattr(pending, "log_seq", 0)
    if 0 < seq <= len(log) and log[seq - 1].visibility == GM_ONLY:
        return True
    hidden = {c.id for c in enc.combatants if c.hidden}
    if not hidden or hidden.isdisjoint(_words(pending)):
        return False
    return not _noticed(None, pending, hidden)


def seen_question(pending: Decision | None, enc: Encounter) -> Decision | None:
    """The waiting question as a player may hold it: every text in it that names a
    hidden combatant (a hidden attacker's, in its target's dive or re-roll question) with
    :func:`unseen` in the name's place; any other question as it is (the same object).
    """
    names = _hidden_names(enc)
    if pending is None or not names:
        return pending
    hidden = _naming(names)
    if not any(hidden.search(word) for word in _words(pending)):
        return pending

    def scrub(value: Any) -> Any:
        """``value`` with the hidden names unsaid, or itself when it says none."""
        if isinstance(value, str):
            if not hidden.search(value):
                return value
            return hidden.sub(lambda m: unseen(names[m[0]], m.start() == 0), value)
        if isinstance(value, tuple):
            items = tuple(map(scrub, value))
            return value if all(map(operator.is_, items, value)) else items
        if not is_dataclass(value) or isinstance(value, type):
            return value
        kept = {f.name: getattr(value, f.name) for f in fields(value) if f.init}
        changes = {name: new for name, old in kept.items() if (new := scrub(old)) is not old}
        return replace(value, **changes) if changes else value

    return scrub(pending)  # type: ignore[no-any-return]


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
    return base == GM_ONLY or any(MARKED in line for line in (entry.title, *entry.lines))


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
