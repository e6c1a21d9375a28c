"""What a session holds and takes, as plain data: the commands a view may send (one
union, so a campaign file can name any of them), the log entries, the decision a command
may leave waiting, and the snapshot of everything a command may change (undo, files).
"""

from __future__ import annotations

import collections
import itertools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from ..campaign.combat import (
    AnswerDive,
    ChooseChartRow,
    CombatCommand,
    DecideSidekick,
    Pending,
    PendingChartChoice,
    PendingCombatRerolls,
    PendingDive,
    PendingSidekick,
    SpendCombatRerolls,
)
from ..campaign.drafts import KeepDraft
from ..campaign.encounter import Encounter
from ..campaign.freeflow import (
    Asked,
    AskRoll,
    PendingRerolls,
    RollGroup,
    RollOpposed,
    RollTask,
    SpendRerolls,
)
from ..campaign.party import (
    AddParty,
    AddToRoster,
    Campaign,
    CampaignCommand,
    RemoveFromRoster,
    SetScene,
)
from ..campaign.prepared import DropEncounter, KeepEncounter, PreparedCommand
from ..rules.models import fields_setter, record
from ..rules.secret import plain

GM = "gm"


Step = str | None
"""Where a log entry stands in a fight's story: ``setup``, ``start``, ``end`` or None."""


@record
class LogEntry:
    """One explained event: who, what, and the lines that show how it came out. A
    :func:`~hsm_tui.rules.models.record`: a long campaign's file makes 50,000 of them,
    most of them read only when something asks for them (:func:`read_later`).
    """

    seq: int
    issuer: str
    title: str
    lines: tuple[str, ...]  # the GM's numbers marked in them (rules.secret)
    visibility: str = "public"
    step: Step = field(default=None, compare=False)
    """``setup``, ``start`` or ``end`` of a fight (``log_step``): an export folds and cuts by
    it. Not compared: a file saved before entries had it replays to the same state."""
    sets: str = field(default="", compare=False)
    """A set-up step's subject (``set_up_subject``): an export keeps only the last step of
    a set-up with each subject. Not compared, as ``step``."""

    @property
    def gm_title(self) -> str:
        """The title as the GM reads it: a hidden attacker's name is marked in one that
        the players read (:data:`~hsm_tui.table.visibility.NOTICED`)."""
        return plain(self.title)

    @property
    def gm_lines(self) -> tuple[str, ...]:
        """The lines as the GM reads them: every number shown, unmarked."""
        return tuple(map(plain, self.lines))

    if not TYPE_CHECKING:  # type checkers still hold every read to the fields above

        def __getattr__(self, name: str) -> Any:
            """A field of an entry :func:`read_later` made, read on first use (Python asks
            here only for a name not in ``__dict__``)."""
            held = self.__dict__
            line = held.get(_LATER)
            if line is not None:
                held = _READERS[held[_BY]](line)
                _SET_ENTRY(self, held)
            try:
                return held[name]
            except KeyError:
                raise AttributeError(name) from None


for _field in fields(LogEntry):  # the defaults stay in the fields and ``__init__``
    if hasattr(LogEntry, _field.name):
        delattr(LogEntry, _field.name)
"""Python asks ``__getattr__`` only for a name neither the entry nor its class has: an
entry not read yet would read a default kept on the class (its visibility ``public``)."""

_LATER = "_later"
"""Where an entry not read yet keeps its line."""
_BY = "_by"
"""Where an entry not read yet keeps its reader's place in :data:`_READERS`."""
_READERS: list[Callable[[Any], dict[str, Any]]] = []
"""The readers :func:`read_later` was given. An entry names its own by place, so that it
holds only numbers and text until read: the garbage collector then skips its fields (with
the reader itself in each, its first pass after a long campaign opened took 30 ms)."""
_SET_ENTRY = fields_setter(LogEntry)


def read_later(
    read: Callable[[Any], dict[str, Any]], seqs: Sequence[int], lines: Sequence[Any]
) -> tuple[LogEntry, ...]:
    """Entries numbered ``seqs`` whose other fields ``read`` gives from their ``lines`` (all
    the fields, by name) when something first asks for one: a long campaign's file opens
    without reading 50,000 lines of JSON, as the log shows its newest entries and undo,
    a save and an autosave need only their numbers and their lines.
    """
    if read not in _READERS:
        _READERS.append(read)
    by = _READERS.index(read)
    out = tuple(map(object.__new__, itertools.repeat(LogEntry, len(lines))))
    held = [{"seq": seq, _LATER: line, _BY: by} for seq, line in zip(seqs, lines, strict=True)]
    collections.deque(map(_SET_ENTRY, out, held), maxlen=0)  # in C, keeping nothing
    return out


def read_places(log: Sequence[LogEntry]) -> list[int]:
    """Where the entries whose fields are read stand in ``log`` (not those of
    :func:`read_later` still to be read), found in calls to C: a long log is 50,000."""
    unread = map(operator.contains, map(vars, log), itertools.repeat(_LATER))
    return list(itertools.compress(range(len(log)), map(operator.not_, unread)))


@dataclass(frozen=True)
class UndoneEntry(LogEntry):
    """A log entry the GM undid, as a player's view keeps it: struck through where it
    stood. Views only: never in the session's log, never in a file.
    """


@dataclass(frozen=True)
class Batch:
    """Several commands as one undo step (a Minion group's attacks, an encounter's set-up).

    Each command the rules refuse is skipped with its reason in the log (a group's later
    attacks on a target already taken out); the batch is refused only if none applies.
    A command that leaves a decision pending parks the rest in ``Session.queue``; they
    run as soon as the decision is answered.
    """

    commands: tuple[Command, ...]
    issuer: str = GM


@dataclass(frozen=True)
class Say:
    """Words at the table (:mod:`hsm_tui.table.talk`): ``to`` "" is everyone, "gm" a
    player's whisper to the GM, a seat's issuer the GM's whisper to that seat."""

    text: str
    to: str = ""
    issuer: str = GM


@dataclass(frozen=True)
class OpenEntry:
    """The GM opens a log entry, lines and numbers and all (a roll made in secret, a
    note), to every seat or to one (``to``: its issuer, ``player:kara``): the players saw
    it with numbers hidden, or not at all. The log says so in an entry of its own, which
    is also what undo names.
    """

    seq: int
    issuer: str = GM
    to: str = ""


Command = (
    OpenEntry
    | Say
    | AskRoll
    | RollTask
    | SpendRerolls
    | RollOpposed
    | RollGroup
    | CombatCommand
    | CampaignCommand
    | AddParty
    | PreparedCommand
    | Batch
)
Decision = PendingRerolls | Pending

#: While a decision is pending only these commands are taken, so none is silently dropped.
#: A new task roll is accepted over pending re-rolls: the first roll then stands as rolled.
ACCEPTS: dict[type, tuple[type, ...]] = {
    PendingRerolls: (SpendRerolls, RollTask),
    PendingDive: (AnswerDive,),
    PendingChartChoice: (ChooseChartRow,),
    PendingSidekick: (DecideSidekick,),
    PendingCombatRerolls: (SpendCombatRerolls,),
}


ANY_TIME: tuple[type, ...] = (
    SetScene,
    AddToRoster,
    RemoveFromRoster,
    KeepEncounter,
    DropEncounter,
    OpenEntry,
    AskRoll,
    Say,
    KeepDraft,
)
"""Taken even while a decision waits: the GM's notes and lists (the roster, encounters
prepared ahead), a request for a roll, words at the table and a player's draft sheet kept
change no roll or fight."""

PARKS: tuple[type, ...] = (RollTask, RollOpposed, RollGroup)
"""Rolls taken while another seat's question waits: the question is set aside until the
roll is settled, so one away player never holds up the table's free-flowing play."""


@dataclass(frozen=True)
class Snapshot:
    """Everything a command may change, as plain values."""

    log: tuple[LogEntry, ...]
    pending: Decision | None
    encounter: Encounter
    queue: tuple[Command, ...] = ()
    campaign: Campaign = field(default_factory=Campaign)
    rng_state: Any = None  # random.Random.getstate(); campaign files write it apart
    parked: Decision | None = None
    """A seat's question set aside while another seat's roll runs (``Session.parked``)."""
    asked: tuple[Asked, ...] = ()
    """Rolls the GM asked for that their players have not rolled yet (``Session.asked``)."""
