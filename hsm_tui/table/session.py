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
from typing import Any

from ..campaign import freeflow, party
from ..campaign.combat import (
    ANSWERS,
    HANDLERS,
    AddCombatants,
    ApplyDamage,
    ChooseChartRow,
    ClearEncounter,
    CombatCommand,
    EndCombat,
    Outcome,
    PendingChartChoice,
    RemoveCombatant,
    RollChart,
    SetCondition,
    StartCombat,
    log_step,
    outside_fight,
    written,
)
from ..campaign.encounter import Combatant, Encounter
from ..campaign.freeflow import (
    PendingRerolls,
    Purse,
    RollGroup,
    RollOpposed,
    RollTask,
    SpendRerolls,
)
from ..campaign.missing import missing_entries
from ..campaign.party import PARTY, AddParty, Campaign, CampaignCommand, NewAdventure
from ..packs import Catalog, LoadResult, content_dirs
from ..packs.kept import load_kept
from ..persistence import checkpoints, collector, session_file
from ..rules import Rank, RulesError
from ..rules.errors import DecisionPending, NotPermitted
from .history import History
from .seats import GM_SEAT, Role, Seat, answered_by, refusal
from .state import (
    ACCEPTS,
    ANY_TIME,
    GM,
    Batch,
    Command,
    Decision,
    LogEntry,
    OpenEntry,
    Snapshot,
    Step,
)
from .views import (
    KEPT_UNDONE,
    PUBLIC,
    TableLog,
    TableView,
    entry_visibility,
    gms_question,
    opening,
    view_for,
)

LOG = logging.getLogger(__name__)


def _only_the_gm(issuer: str, what: str) -> None:
    """Replacing the whole campaign is the GM's alone, not a player's."""
    if issuer != GM:
        raise NotPermitted(f"{issuer!r} may not {what}: only the GM may")


@dataclass(frozen=True)
class Event:
    """A change a view hears of: what changed ("" for a new state), whose answer waits."""

    seq: int
    change: str
    waiting_for: str
    session: Session


@dataclass
class Session:
    """Campaign-level state and the command pipeline."""

    seed: int = field(default_factory=lambda: random.SystemRandom().randrange(2**32))
    log: tuple[LogEntry, ...] = ()
    pending: Decision | None = None
    encounter: Encounter = field(default_factory=lambda: Encounter(zones=()))
    queue: tuple[Command, ...] = ()
    """Commands of a Batch waiting for the pending decision to be answered."""
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
        self._subscribers: list[Callable[[Event], None]] = []
        self._table_log = TableLog()  # the players' log, projected once for every seat
        self._saved = self._snapshot()
        self.seats: dict[str, Seat] = {}
        """The seats views sit at, by issuer: a command from any other issuer but the GM's
        is refused (:meth:`take_seat` fills this as each view is seated)."""
        self.events = 0
        """How many changes views have been told of (an event's sequence number)."""
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
        _only_the_gm(issuer, "start a new campaign")
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
        return view_for(seat, enc, self.party_now(), log, waiting, self.pending, undone, table)

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
    def apply(self, command: Command) -> None:
        """Apply ``command`` or refuse it with a RulesError, changing nothing. Its issuer's
        seat must be allowed it (:func:`hsm_tui.table.seats.refusal`); the GM's always is.
        """
        seat = self._seat_of(command.issuer)
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
        _only_the_gm(issuer, "rename the campaign")
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
        pending = self.pending
        if pending is not None and not isinstance(command, (*ACCEPTS[type(pending)], *ANY_TIME)):
            raise DecisionPending(f"answer the pending question first: {pending.question}")
        if isinstance(command, Batch):
            self._batch(command)
            return
        if isinstance(command, OpenEntry):
            self._open_entry(command)
        elif isinstance(command, AddParty):
            self._add_party(command)
        elif isinstance(command, CampaignCommand):
            if isinstance(command, NewAdventure) and self.encounter.active:
                raise RulesError("combat is under way: a new adventure comes after it (E ends it)")
            titles: list[str] = []

            def change(campaign: Campaign) -> Campaign:
                changed, title = party.apply(campaign, command, self.catalog)
                titles.append(title)
                return changed

            self.campaign, self.encounter = party.through_encounter(
                self.campaign, self.encounter, change
            )
            self._add_log(command.issuer, titles[0], (), entry_visibility(command))
        elif isinstance(command, RollTask | RollOpposed | RollGroup | SpendRerolls):
            self._freeflow(command)
        else:
            self._combat(command)
        if self.pending is None and self.queue:
            queued, self.queue = self.queue, ()
            self._run_queued(queued)

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

    @property
    def catalog(self) -> Catalog:
        return self.content.catalog if self.content is not None else Catalog()

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

    def _outside_encounter(self, command: CombatCommand) -> str | None:
        """The ``party:<hero id>`` a wound or condition is for, when that Hero is not in the
        encounter (a fall in free-flowing play, the chart rolled from F5, Fatigued).
        """
        if isinstance(command, RollChart | ApplyDamage | SetCondition):
            who = command.combatant
        elif isinstance(command, ChooseChartRow) and isinstance(self.pending, PendingChartChoice):
            who = self.pending.target
        else:
            return None
        return who if who.startswith(PARTY) else None

    def _on_party_hero(self, command: CombatCommand, who: str) -> Outcome:
        if who.removeprefix(PARTY) in party.in_encounter(self.encounter):
            raise RulesError("that Hero is in the encounter: roll for its combatant there")
        outside_fight(command)  # what a Hero outside the fight cannot take
        hero = party.stand_in(self.campaign, who, self.catalog)
        outcome = self._handle(Encounter(zones=(), combatants=(hero,)), command)
        self.campaign = party.from_stand_in(self.campaign, outcome.encounter.get(who))
        return replace(outcome, encounter=self.encounter)

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
        for entry in outcome.log:
            self._add_log(command.issuer, entry.title, entry.lines, seen, step)
        self.pending = outcome.pending

    def party_now(self) -> Campaign:
        """The campaign with its Heroes as they are now: those in the encounter as the
        fight has left them so far (what ending it would hand back).
        """
        return party.carried_out(self.campaign, self.encounter)

    def chart_heroes(self) -> tuple[Combatant, ...]:
        """Who rolls on the Severe Wound chart now: the encounter's Heroes and Sidekicks
        playing as Heroes (R-WOUND-2), then party Heroes outside it (``party:<hero id>``).
        """
        enc = self.encounter.combatants
        fighting = tuple(c for c in enc if Rank.HERO in (c.rank, c.plays_as) and not c.out)
        present = party.in_encounter(self.encounter)
        heroes = self.catalog.kind("hero")
        outside = tuple(
            party.stand_in(self.campaign, PARTY + m.entry, self.catalog)
            for m in self.campaign.party
            if m.entry not in present and m.entry in heroes and not m.dead
        )
        return fighting + outside

    def last_wounded(self) -> str | None:
        """The Hero the newest wound in the undo steps fell on (F5 opens on it)."""
        states = [*self._undo.states(), self._snapshot()]
        return party.last_wounded([(s.encounter, s.campaign) for s in states])

    def pools(self, who: str) -> tuple[str, int, int]:
        """Name, Luck and Clues of a roller: a combatant id or ``party:<hero id>``."""
        purse = self._purse(who)
        return purse.name, purse.luck, purse.clues

    def _pay(self, who: str, luck: int, clues: int) -> None:
        if who.startswith(PARTY):
            entry = who.removeprefix(PARTY)

            def spend(campaign: Campaign) -> Campaign:
                m = campaign.member(entry)
                return campaign.with_member(replace(m, luck=m.luck - luck, clues=m.clues - clues))

            self.campaign, self.encounter = party.through_encounter(
                self.campaign, self.encounter, spend
            )
        else:
            c = self.encounter.get(who)
            changed = replace(c, luck=c.luck - luck, clues=c.clues - clues)
            self.encounter = self.encounter.with_combatant(changed)

    def _purse(self, who: str) -> Purse:
        """A roller as it is now (a party Hero in the fight as the fight left it)."""
        return freeflow.purse(who, self.party_now(), self.encounter, self.catalog)

    def _freeflow(self, command: RollTask | RollOpposed | RollGroup | SpendRerolls) -> None:
        """Free-flowing rolls, through the handlers in campaign/freeflow.py."""
        pending = self.pending
        if isinstance(command, SpendRerolls):
            if not isinstance(pending, PendingRerolls):
                raise RulesError("there is no roll waiting for re-rolls")
            outcome = freeflow.reroll_one(command, pending, self._purse(pending.who), self.rng)
            who = pending.who
        elif isinstance(command, RollTask):
            who = command.who
            outcome = freeflow.roll_one(command, self._purse(who), self.rng, len(self.log) + 1)
        else:
            who, outcome = "", freeflow.roll_contest(command, self.rng)
        if any(outcome.paid):
            self._pay(who, *outcome.paid)
        for entry in outcome.log:  # a roll the GM hid (F2 h) is the GM's alone
            self._add_log(command.issuer, entry.title, entry.lines, entry_visibility(command))
        if outcome.note and isinstance(pending, PendingRerolls):
            self.log = tuple(
                replace(e, lines=(*e.lines, outcome.note)) if e.seq == pending.log_seq else e
                for e in self.log
            )
        self.pending = outcome.pending

    def _open_entry(self, command: OpenEntry) -> None:
        opened, now = opening(self.log, command.seq, command.to)
        self.log = tuple(replace(e, visibility=now) if e is opened else e for e in self.log)
        whom = command.to or "every seat"
        self._add_log(command.issuer, f"Opened #{opened.seq} to {whom}: {opened.title}", ())

    def _add_log(
        self, issuer: str, title: str, lines: Iterable[str], seen: str = PUBLIC, step: Step = None
    ) -> LogEntry:
        entry = LogEntry(len(self.log) + 1, issuer, title, tuple(lines), seen, step)
        self.log = (*self.log, entry)
        return entry

    # -- undo / redo / replay ----------------------------------------------------
    def _snapshot(self) -> Snapshot:
        return Snapshot(
            self.log, self.pending, self.encounter, self.queue, self.campaign, self.rng.getstate()
        )

    def _restore(self, snap: Snapshot) -> None:
        self.rng.setstate(snap.rng_state)
        self.log, self.pending, self.encounter = snap.log, snap.pending, snap.encounter
        self.queue, self.campaign = snap.queue, snap.campaign

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
        _only_the_gm(issuer, "undo")
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
        _only_the_gm(issuer, "redo")
        if not self._redo:
            raise RulesError("nothing to redo")
        command = self._redo.pop()
        self._apply(command)
        back = {(e.seq, e.title) for e in self.log}
        self.undone = tuple(e for e in self.undone if (e.seq, e.title) not in back)
        self._notify("redo")
        return command

    # -- campaign files (plain data; persistence/store.py does the file) ---------------
    def to_data(self) -> dict[str, Any]:
        """The whole session as TOML-ready data: :meth:`frozen`, written out."""
        return session_file.session_data(self.frozen())

    def frozen(self) -> session_file.SessionData:
        """State and undo/redo history as immutable values (cheap; SessionData says how)."""
        start = self._undo.first(self.log) if self._undo else self._snapshot()
        unread = self._unread or session_file.Unread(start, (), start)
        marks = tuple(self._undo.marks(self.log, len(unread.steps), checkpoints.EVERY))
        now, commands, redo = self._snapshot(), self._undo.commands(), list(self._redo)
        return unread.data(self.seed, now, commands, redo, marks)

    def load_data(self, data: dict[str, Any], issuer: str = GM) -> str:
        """Replace the whole session with ``data`` from :meth:`to_data`; views re-render.

        All but the undo steps is read and checked first: bad data raises DataError and
        changes nothing. The steps are replayed on the first undo that needs them
        (:meth:`_replayed`). The answer counts them and names entries the packs lack.
        """
        _only_the_gm(issuer, "open a campaign")
        saved = session_file.session_from(data)
        self.seed = saved.seed
        self._restore(saved.now)
        self._undo, self._redo = History(), list(saved.redo)
        self._unread = saved.history()
        self._notify()
        answer = f"undo history of {len(saved.unread)} step(s), checked on the first undo"
        enc, camp = self.encounter, self.campaign
        missing = [] if self.content is None else missing_entries(camp, enc, self.catalog)
        return "; ".join([answer, *missing])

    def _replayed(self, unread: session_file.Unread) -> tuple[History, tuple[LogEntry, ...]]:
        """The undo steps a file brought, replayed on the packs loaded now, and the log they
        end with (``Unread.replay``: HistoryMisfit if they no longer fit)."""
        scratch = Session(seed=self.seed, content=self.content)
        scratch._restore(unread.start)
        unread.replay(scratch._apply, lambda: scratch.log, scratch._snapshot)
        return scratch._undo, scratch.log

    def check_history(self) -> None:
        """Replay every undo step a file brought (``hsm campaign check``)."""
        if self._unread is not None:
            self._unread.check(self._replayed)

    @classmethod
    def replay(
        cls, seed: int, commands: Iterable[Command], content: LoadResult | None = None
    ) -> Session:
        """Rebuild the exact state from a seed, the command list and the loaded packs."""
        session = cls(seed=seed, content=content)
        for command in commands:
            session.apply(command)
        return session
