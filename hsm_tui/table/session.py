"""The Session: the one object every view talks to (the GM's screens, each SSH seat's).

It owns the injected ``random.Random``, the log, the pending decision and the undo
history. Views never change state themselves: they send a command to :meth:`apply`
and re-render when the session notifies them. A command the rules refuse raises
:class:`~hsm_tui.rules.RulesError` and leaves state, RNG and log untouched.

All state is plain data (frozen dataclasses, tuples, the RNG's ``getstate()``) so
that campaign files can save it and a seed plus the command list replays it.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..campaign import party
from ..campaign.combat import (
    ANSWERS,
    HANDLERS,
    AddCombatants,
    ClearEncounter,
    CombatCommand,
    EndCombat,
    Outcome,
    RemoveCombatant,
    StartCombat,
    log_step,
    set_up_subject,
    written,
)
from ..campaign.encounter import Encounter
from ..campaign.freeflow import (
    Asked,
    AskRoll,
    RollGroup,
    RollOpposed,
    RollTask,
    SpendRerolls,
)
from ..campaign.party import AddParty, Campaign, CampaignCommand, NewAdventure
from ..campaign.prepared import PreparedCommand
from ..packs import LoadResult, content_dirs
from ..packs.kept import load_kept
from ..persistence import collector, session_file
from ..rules import RulesError
from ..rules.errors import DecisionPending, NotPermitted, QuestionGone
from . import talk
from .freeflowing import FreeFlowing
from .heroes import PartyHeroes
from .history import History
from .prepared import PreparedEncounters
from .seats import GM_SEAT, Role, Seat, answered_by, only_the_gm, refusal
from .session_files import SessionFiles
from .state import (
    ACCEPTS,
    ANY_TIME,
    GM,
    PARKS,
    Batch,
    Command,
    Decision,
    LogEntry,
    OpenEntry,
    Say,
    Snapshot,
    Step,
)
from .views import KEPT_UNDONE, TableLog, TableView, view_for
from .visibility import (
    BY_ENTRY,
    NOTICED,
    PUBLIC,
    RECORD,
    entry_seen,
    entry_visibility,
    gms_question,
    opening,
    seen_question,
    started,
)

LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class Event:
    """A change a view hears of: what changed ("" for a new state), whose answer waits."""

    seq: int
    change: str
    waiting_for: str
    session: Session


@dataclass
class Session(FreeFlowing, PartyHeroes, PreparedEncounters, SessionFiles):
    """Campaign-level state and the command pipeline."""

    seed: int = field(default_factory=lambda: random.SystemRandom().randrange(2**32))
    log: tuple[LogEntry, ...] = ()
    pending: Decision | None = None
    encounter: Encounter = field(default_factory=lambda: Encounter(zones=()))
    queue: tuple[Command, ...] = ()
    """Commands of a Batch waiting for the pending decision to be answered."""
    asked: tuple[Asked, ...] = ()
    """Rolls the GM asked players for (:class:`AskRoll`), each waiting for its roll."""
    parked: Decision | None = None
    """A seat's question set aside while another seat's free-flowing roll runs
    (:data:`~hsm_tui.table.state.PARKS`); it waits again once that roll is settled."""
    campaign: Campaign = field(default_factory=Campaign)
    """The party, roster and scene: what lasts between encounters."""
    content: LoadResult | None = None
    """The loaded packs (read-only for play; not part of undo)."""
    file: Path | None = None
    """The campaign file this session was opened from or last saved to."""

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self._undo = History()
        self._redo: list[Command] = []
        self._unread: session_file.Unread | None = None
        """Undo steps a file brought, replayed on the first undo that needs them."""
        self._checking = False
        """A check's replay of undo steps (:meth:`check_history`): nothing else holds its log,
        so each entry is added to it in place (a list), not by copying the whole log (at
        50,000 entries that copying took most of the check)."""
        self._subscribers: list[Callable[[Event], None]] = []
        self._table_log = TableLog()  # the players' log, projected once for every seat
        self._seen_question: tuple[Decision | None, Decision | None] = (None, None)
        """The waiting question and the players' copy of it (:meth:`players_question`)."""
        self._saved = self._snapshot()
        self.seats: dict[str, Seat] = {}
        """The seats views sit at, by issuer: a command from any other issuer but the GM's
        is refused (:meth:`take_seat` fills this as each view is seated)."""
        self.events = 0
        """How many changes views have been told of (an event's sequence number)."""
        self._sketches = {}  # drafts as typed (:meth:`sketch`): never undone or saved
        self.undone: tuple[LogEntry, ...] = ()
        """Entries the GM undid (the latest few): a player's view strikes them through."""

    # -- saved or not ------------------------------------------------------------
    @property
    def unsaved(self) -> bool:
        """Whether the state differs from the last save or open (or the fresh start):
        undoing back to the saved point counts as saved.
        """
        return self._snapshot() != self._saved

    def mark_saved(self, file: Path) -> None:
        """The state now is what ``file`` holds (just written or read)."""
        self.file = file
        self._saved = self._snapshot()
        self._notify()

    def new_campaign(self, issuer: str = GM) -> None:
        """A fresh campaign: new dice, no party, no fight, nothing to undo; packs stay."""
        only_the_gm(issuer, "start a new campaign")
        self.seed = random.SystemRandom().randrange(2**32)
        fresh = Session(seed=self.seed)
        self._restore(fresh._snapshot())
        self._undo, self._redo, self._unread = History(), [], None
        self.file = None
        self._saved = self._snapshot()
        self._notify()

    # -- views -------------------------------------------------------------------
    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``callback(event)`` after every change; returns the unsubscribe (which
        may be called more than once, as a view that closes and drops both may).
        """
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    def _notify(self, change: str = "") -> None:
        """Tell every view, each on its own: a view that raises is logged and dropped, the
        others still hear of the change, and the change itself stands.
        """
        self.events += 1
        if not self._subscribers:  # a forecast's or a replay's session: nobody to tell
            return
        event = Event(self.events, change, self.waiting_for, self)
        for callback in list(self._subscribers):
            try:
                callback(event)
            except Exception:
                LOG.exception("a view failed on event %d and was dropped", event.seq)
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

    @property
    def waiting_for(self) -> str:
        """The issuer of the seat whose answer the waiting decision needs ("" when none
        waits): the player whose hero it is if one sits at the table, else the GM.
        """
        if self.pending is None:
            return ""
        if gms_question(self.pending, self.encounter, self.log):
            return GM
        who = answered_by(self.pending)
        seats = (s for s in self.seats.values() if s.plays(self.encounter, who))
        return next((s.issuer for s in seats), GM)

    def view(self, seat: Seat) -> TableView:
        """What ``seat`` may see now (:mod:`hsm_tui.table.views`): a player's screens read this."""
        enc, waiting = self.encounter, self.waiting_for
        log, undone, table = self.log, self.undone, self._table_log
        pending = self.pending if seat.role is Role.GM else self.players_question
        campaign, asked = self.party_now(), self.asked
        return view_for(seat, enc, campaign, log, waiting, pending, undone, table, asked)

    @property
    def players_question(self) -> Decision | None:
        """The waiting question as the players hold it (:func:`seen_question`: a hidden
        attacker unnamed), one copy while it waits, so a dialog opened on it can tell
        whether it still waits (:meth:`still_asks`).
        """
        asked, copy = self._seen_question
        if asked is not self.pending:
            copy = seen_question(self.pending, self.encounter)
            self._seen_question = self.pending, copy
        return copy

    def still_asks(self, question: Decision) -> bool:
        """Whether ``question`` (as the GM or a player holds it) is the one that waits."""
        return self.pending is not None and (
            question is self.pending or question is self.players_question
        )

    # -- seats ---------------------------------------------------------------------
    def take_seat(self, seat: Seat) -> None:
        """Seat a player's view (:class:`~hsm_tui.table.seated.SeatedSession` does, when
        it is made): the seat policy then knows whose hero that issuer plays."""
        if seat.role is not Role.GM:
            self.seats[seat.issuer] = seat

    def _seat_of(self, issuer: str) -> Seat:
        if issuer == GM:
            return GM_SEAT
        if issuer not in self.seats:
            raise NotPermitted(f"{issuer!r} may not do that: only the GM rolls here")
        return self.seats[issuer]

    # -- commands ----------------------------------------------------------------
    def apply(self, command: Command, answering: Decision | None = None) -> None:
        """Apply ``command`` or refuse it with a RulesError, changing nothing. Its issuer's
        seat must be allowed it (:func:`hsm_tui.table.seats.refusal`); the GM's always is.
        ``answering``: the question a dialog was opened for; its answer is refused once
        that question no longer waits (answered at another seat, undone, replaced), so a
        key never answers a question other than the one its dialog showed.
        """
        seat = self._seat_of(command.issuer)
        if answering is not None and not self.still_asks(answering):
            raise QuestionGone(
                "that question no longer waits: it was answered at another seat or undone"
            )
        why = refusal(seat, command, self.encounter, self.pending)
        if why:
            raise NotPermitted(why)
        self._apply(command)
        self._redo.clear()
        self._notify(type(command).__name__)

    def rename(self, text: str, issuer: str = GM) -> None:
        """Name the campaign. Not a command: the name is the campaign's, not a moment's,
        so it holds through the whole undo history (undo never brings back a name the
        file no longer has), and it is taken even while a decision waits.
        """
        only_the_gm(issuer, "rename the campaign")
        name = party.campaign_name(text)

        def named(snap: Snapshot) -> Snapshot:
            return replace(snap, campaign=replace(snap.campaign, name=name))

        self.campaign = replace(self.campaign, name=name)
        self._undo = self._undo.renamed(named)
        if self._unread is not None:
            self._unread = self._unread.named(named)
        self._notify()

    def _apply(self, command: Command) -> None:
        before = self._snapshot()
        try:
            self._dispatch(command)
        except RulesError:
            self._restore(before)
            raise
        self._undo.push(before, command, self.log)

    def _dispatch(self, command: Command) -> None:
        if self._parks(command):
            self.parked, self.pending = self.pending, None
        pending = self.pending
        if pending is not None and not isinstance(command, (*ACCEPTS[type(pending)], *ANY_TIME)):
            raise DecisionPending(f"answer the pending question first: {pending.question}")
        if isinstance(command, Batch):
            self._batch(command)
            return
        if isinstance(command, OpenEntry):
            self._open_entry(command)
        elif isinstance(command, AskRoll):
            self._ask(command)
        elif isinstance(command, Say):
            self._say(command)
        elif isinstance(command, AddParty):
            self._add_party(command)
        elif isinstance(command, PreparedCommand):
            self._prepared(command)
        elif isinstance(command, CampaignCommand):
            if isinstance(command, NewAdventure) and self.encounter.active:
                raise RulesError("combat is under way: a new adventure comes after it (E ends it)")
            titles: list[str] = []

            def change(campaign: Campaign) -> Campaign:
                changed, title, lines = party.apply(campaign, command, self.catalog)
                titles.append((title, lines))
                return changed

            self.campaign, self.encounter = party.through_encounter(
                self.campaign, self.encounter, change
            )
            self._add_log(command.issuer, *titles[0], entry_visibility(command))
        elif isinstance(command, RollTask | RollOpposed | RollGroup | SpendRerolls):
            self._freeflow(command)
        else:
            self._combat(command)
        if self.pending is None and self.parked is not None:
            self.pending, self.parked = self.parked, None
        if self.pending is None and self.queue:
            queued, self.queue = self.queue, ()
            self._run_queued(queued)

    def _parks(self, command: Command) -> bool:
        """Whether ``command`` sets the waiting question aside: a free-flowing roll by
        anyone but the seat the question waits for (that seat's own new roll lets its
        first stand, as :data:`ACCEPTS` says). One question is parked at a time.
        """
        if not isinstance(command, PARKS) or self.pending is None:
            return False
        if self.waiting_for == command.issuer:
            return False
        if self.parked is not None:
            raise DecisionPending(
                f"two questions already wait; answer one first: {self.pending.question}"
            )
        return True

    def _batch(self, batch: Batch) -> None:
        if not batch.commands:
            raise RulesError("nothing to do: the batch is empty")
        if any(c.issuer != batch.issuer for c in batch.commands):
            raise RulesError("every command of a batch must come from its issuer")
        if self.queue:
            raise RulesError("earlier commands are still waiting for the pending decision")
        first, *rest = batch.commands
        self._dispatch(first)  # the first command must apply: else the batch is refused
        self._run_queued(tuple(rest))

    def _run_queued(self, commands: tuple[Command, ...]) -> None:
        for i, command in enumerate(commands):
            if self.pending is not None:
                self.queue = commands[i:]
                return
            before = self._snapshot()
            try:
                self._dispatch(command)
            except RulesError as err:
                self._restore(before)
                self._add_log(command.issuer, self._skipped(command), (str(err),))

    def _skipped(self, command: Command) -> str:
        """The log title of a batch's refused command, naming whose it was (which member
        of a Minion group did not attack).
        """
        cid = getattr(command, "attacker", None) or getattr(command, "combatant", None)
        names = {c.id: c.name for c in self.encounter.combatants}
        return f"Skipped: {names[cid]}" if cid in names else "Skipped"

    def load_content(self, extra: Iterable[str | Path] = ()) -> LoadResult:
        """The packs (shipped, HSM_CONTENT_PATH, then ``extra``), loaded once per session
        and shared by every view; problems are reported in the result, never raised. The
        last start's load is taken when the packs are as they were (``packs/kept.py``).
        """
        if self.content is None:
            self.content = load_kept(content_dirs(extra))
        return self.content

    def _add_party(self, cmd: AddParty) -> None:
        present = party.in_encounter(self.encounter)
        heroes = [m.entry for m in self.campaign.party if m.entry not in present and not m.dead]
        if not heroes:
            raise RulesError("no party Hero left to add (add heroes to the party first)")
        for entry in heroes:
            self._dispatch(AddCombatants("hero", entry, cmd.side, cmd.zone, player=True))

    def _handle(self, enc: Encounter, command: CombatCommand) -> Outcome:
        answer = ANSWERS.get(type(command))
        if answer is None:
            return HANDLERS[type(command)](enc, command, self.rng, self.catalog)
        if isinstance(self.pending, answer[0]):
            return answer[1](enc, command, self.pending, self.rng, self.catalog)
        raise RulesError("nothing is waiting for that answer")

    def _combat(self, command: CombatCommand) -> None:
        before, asked = self.encounter, self.pending
        who = self._outside_encounter(command)
        if who is not None:
            outcome = self._on_party_hero(command, who)
        else:
            outcome = self._handle(self.encounter, command)
        self.encounter = written(outcome).encounter  # a writer's bug changes nothing
        if isinstance(command, AddCombatants):  # party Heroes bring pools and wounds
            known = {c.id for c in before.combatants}
            self.encounter = replace(
                self.encounter,
                combatants=tuple(
                    c if c.id in known else party.carried_in(c, self.campaign)
                    for c in self.encounter.combatants
                ),
            )
        elif isinstance(command, EndCombat | ClearEncounter | RemoveCombatant):  # party keeps it
            self.campaign = party.carried_out(self.campaign, before)
        elif isinstance(command, StartCombat) and outcome.pending is not None:
            self.queue = (command, *self.queue)  # R-CHAR-8: start once the GM has answered
        seen = entry_visibility(command, before, self.encounter, asked)
        step = log_step(command, before.active)
        sets = set_up_subject(command) if step == "setup" else ""
        if isinstance(command, StartCombat) and self.encounter.active:
            self.log = started(self.log)
        for entry in outcome.log:
            shown, title, lines = (
                entry_seen(entry.title, entry.lines, before, self.encounter, seen == NOTICED)
                if seen in (BY_ENTRY, NOTICED)
                else (seen, entry.title, entry.lines)
            )
            self._add_log(command.issuer, title, lines, shown, step, sets)
        self.pending = outcome.pending

    def _say(self, command: Say) -> None:
        """Words at the table: everyone's entry, or the GM's and one seat's (a whisper)."""
        line = talk.spoken(command.text)
        speaker = "GM" if command.issuer == GM else self._seat_of(command.issuer).user
        if talk.too_chatty(self.log, command.issuer, speaker):
            raise RulesError("let the game move on before saying more")
        if command.to and command.to != GM and command.to not in self.seats:
            raise RulesError(f"no seat {command.to!r} to whisper to")
        if command.to == GM == command.issuer:
            raise RulesError("whisper to whom? pick a seat")
        title = talk.talk_title(speaker, command.to, line)
        self._add_log(command.issuer, title, (), talk.heard_by(command.issuer, command.to))

    def _open_entry(self, command: OpenEntry) -> None:
        opened, now = opening(self.log, command.seq, command.to)
        self.log = tuple(replace(e, visibility=now) if e is opened else e for e in self.log)
        whom = command.to or "every seat"
        title = f"Opened #{opened.seq} to {whom}: {opened.title}"
        self._add_log(command.issuer, title, (), RECORD)  # the seats see the entry itself

    def _add_log(
        self,
        issuer: str,
        title: str,
        lines: Iterable[str],
        seen: str = PUBLIC,
        step: Step = None,
        sets: str = "",
    ) -> LogEntry:
        entry = LogEntry(len(self.log) + 1, issuer, title, tuple(lines), seen, step, sets)
        if not self._checking:
            self.log = self.log + (entry,)  # noqa: RUF005  (``(*log, entry)`` took 8× as long)
            return entry
        if type(self.log) is not list:
            self.log = list(self.log)
        self.log.append(entry)
        return entry

    # -- undo / redo / replay ----------------------------------------------------
    def _snapshot(self) -> Snapshot:
        return Snapshot(
            tuple(self.log),  # the same tuple; a check's growing list (``_checking``) copied
            self.pending,
            self.encounter,
            self.queue,
            self.campaign,
            self.rng.getstate(),
            self.parked,
            self.asked,
        )

    def _restore(self, snap: Snapshot) -> None:
        self.rng.setstate(snap.rng_state)
        self.log, self.pending, self.encounter = snap.log, snap.pending, snap.encounter
        self.queue, self.campaign, self.parked = snap.queue, snap.campaign, snap.parked
        self.asked = snap.asked

    @property
    def history(self) -> list[Command]:
        """The commands undo would take back, oldest first (a file's are read for it)."""
        earlier = self._unread.commands if self._unread is not None else []
        return [*earlier, *self._undo.commands()]

    @property
    def can_undo(self) -> bool:
        return bool(self._undo) or self._unread is not None

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self, issuer: str = GM) -> Command:
        """Undo the last command, dice included (the RNG goes back too): the GM's alone."""
        only_the_gm(issuer, "undo")
        before = self.log
        if not self._undo and self._unread is not None:
            unread, self._unread = self._unread, None  # dropped if it no longer fits
            older, newer = unread.split()  # from the last checkpoint only
            with collector.paused():
                self._undo, self.log = self._replayed(newer)  # entries as it derives them
            self._unread = older
        if not self._undo:
            raise RulesError("nothing to undo")
        snap, command = self._undo.pop(self.log)
        self._restore(snap)
        self.undone = (*self.undone, *before[len(self.log) :])[-KEPT_UNDONE:]
        self._redo.append(command)
        self._notify("undo")
        return command

    def redo(self, issuer: str = GM) -> Command:
        """Re-apply the last undone command; it rolls the very same dice: the GM's alone."""
        only_the_gm(issuer, "redo")
        if not self._redo:
            raise RulesError("nothing to redo")
        command = self._redo.pop()
        self._apply(command)
        back = {(e.seq, e.title) for e in self.log}
        self.undone = tuple(e for e in self.undone if (e.seq, e.title) not in back)
        self._notify("redo")
        return command

    @classmethod
    def replay(
        cls, seed: int, commands: Iterable[Command], content: LoadResult | None = None
    ) -> Session:
        """Rebuild the exact state from a seed, the command list and the loaded packs."""
        session = cls(seed=seed, content=content)
        for command in commands:
            session.apply(command)
        return session
