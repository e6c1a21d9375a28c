"""What the Session does with free-flowing rolls (R-TASK-1..6): a task, a contest, a
group's roll, the re-rolls a roll leaves waiting, and the rolls the GM asks players for.

A mixin of :class:`~hsm_tui.table.session.Session`, which holds the state it changes.
"""

from __future__ import annotations

from dataclasses import replace

from ..campaign import freeflow
from ..campaign.freeflow import (
    Asked,
    AskRoll,
    PendingRerolls,
    RollGroup,
    RollOpposed,
    RollTask,
    SpendRerolls,
)
from ..rules import RulesError
from ..rules.errors import QuestionGone
from ..rules.secret import secret
from .state import GM
from .visibility import entry_visibility


class FreeFlowing:
    """The Session's free-flowing rolls (its ``log``, ``pending``, ``asked`` and dice)."""

    def _freeflow(self, command: RollTask | RollOpposed | RollGroup | SpendRerolls) -> None:
        """Free-flowing rolls, through the handlers in campaign/freeflow.py."""
        pending = self.pending
        if isinstance(command, SpendRerolls):
            if not isinstance(pending, PendingRerolls):
                raise RulesError("there is no roll waiting for re-rolls")
            outcome = freeflow.reroll_one(command, pending, self._purse(pending.who), self.rng)
            who = pending.who
        elif isinstance(command, RollTask):
            if command.asked:
                self._answer_ask(command)
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

    def _ask(self, command: AskRoll) -> None:
        """Rolls asked of players: each numbered, told to every seat (the TN as the GM
        chose: shown, or hidden with the difficulty)."""
        if not command.tasks:
            raise RulesError("ask whom? no roller was given")
        first = max((a.number for a in self.asked), default=len(self.log)) + 1
        asked: list[Asked] = []
        lines: list[str] = []
        for number, task in enumerate(command.tasks, first):
            name = self._purse(task.who).name  # an unknown roller is refused here
            if task.hidden:
                raise RulesError("an asked roll is rolled in the open, by its player")
            if any(a.task.who == task.who for a in (*self.asked, *asked)):
                raise RulesError(f"{name} has an asked roll waiting already")
            kept = replace(task, asked=number, tn_hidden=command.tn_hidden, issuer=GM)
            asked.append(Asked(number, kept))
            lines.append(
                f"{name}: {secret(f'TN {task.tn.explain()}', command.tn_hidden, 'TN hidden')}"
            )
        self.asked = (*self.asked, *asked)
        label = command.tasks[0].label
        self._add_log(command.issuer, f"The GM asks for a roll: {label}", lines)

    def _answer_ask(self, command: RollTask) -> None:
        """A roll the GM asked for: it must be the very task asked, still waiting."""
        ask = next((a for a in self.asked if a.number == command.asked), None)
        if ask is None:
            raise QuestionGone("that asked roll no longer waits: it was rolled or taken back")
        if replace(command, issuer=GM) != ask.task:
            raise RulesError("that is not the roll the GM asked for")
        self.asked = tuple(a for a in self.asked if a is not ask)
