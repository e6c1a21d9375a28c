"""Who sits at a view of the session, and what each seat may do (the SSH-shared
session). One rule decides whether a seat may issue a command now: :func:`refusal`.

A seat is fixed for a whole connection (by its SSH key), never chosen in the UI.
The GM may do everything. A player plays one hero: it rolls that hero's tasks, acts on
that hero's turn, answers the decisions that wait for that hero, spends its Luck and
Clues and keeps that hero's draft sheet; everything else (set-up, Minions, damage, undo,
files) is the GM's. A watcher sees and issues nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from ..campaign.combat import (
    AnswerDive,
    Attack,
    CloseIn,
    DeclareActions,
    EndTurn,
    Move,
    PendingCombatRerolls,
    PendingDive,
    SonicBlast,
    SpendCombatRerolls,
    Suppress,
    TakeAction,
)
from ..campaign.drafts import KeepDraft
from ..campaign.encounter import Combatant, Encounter
from ..campaign.freeflow import PendingRerolls, RollTask, SpendRerolls
from ..campaign.party import PARTY
from ..rules.errors import NotPermitted
from .state import GM, Batch, Command, Decision, Say


class Role(StrEnum):
    """What a seat may do at the table."""

    GM = "gm"
    """Runs the game: every command, every fact."""
    PLAYER = "player"
    """Plays one hero: its rolls, its turn, its decisions, its Luck and Clues."""
    WATCHER = "watcher"
    """Follows the game and issues nothing."""


@dataclass(frozen=True)
class Seat:
    """Who sits at a view: a role, the user's name, and a player's hero (the pack entry id
    of a party Hero, or of a Sidekick the GM gives them).
    """

    role: Role
    user: str
    hero: str = ""

    @property
    def issuer(self) -> str:
        """The name the log and the commands carry for this seat: ``gm``, ``player:kara``."""
        return GM if self.role is Role.GM else f"{self.role}:{self.user}"

    def combatant(self, enc: Encounter) -> Combatant | None:
        """The seat's hero in the fight, None when it is not in it."""
        return next((c for c in enc.combatants if self.hero and c.entry == self.hero), None)

    def plays(self, enc: Encounter, who: str) -> bool:
        """Whether ``who`` (a combatant id, or ``party:<hero id>``) is this seat's hero."""
        if not self.hero or not who:
            return False
        if who.startswith(PARTY):
            return who.removeprefix(PARTY) == self.hero
        return any(c.id == who and c.entry == self.hero for c in enc.combatants)


TABLE_SEAT = Seat(Role.WATCHER, "table")
"""What every seat reads (a watcher's view): the players' recap of the log."""

GM_SEAT = Seat(Role.GM, GM)
"""The GM at the local terminal: the seat of every command that names no other."""


def answered_by(pending: Decision | None) -> str:
    """Whose decision waits: the combatant (or ``party:<hero id>``) whose player answers
    it, "" when it is the GM's (a 13 on the chart, a Sidekick's rules, no decision). The
    GM may always answer instead, for a player who is away.
    """
    if isinstance(pending, PendingRerolls):
        return pending.who
    if isinstance(pending, PendingDive):
        return pending.attack.target
    if isinstance(pending, PendingCombatRerolls):
        return pending.roller
    return ""


def only_the_gm(issuer: str, what: str) -> None:
    """Refuse ``what`` to anyone but the GM: undo, redo, replacing the whole campaign."""
    if issuer != GM:
        raise NotPermitted(f"{issuer!r} may not {what}: only the GM may")


def watching(seat: Seat) -> str:
    """Why a watcher's seat issues nothing ("" for any other seat)."""
    if seat.role is not Role.WATCHER:
        return ""
    return f"{seat.user} is watching: a watcher's seat issues no commands"


def refusal(seat: Seat, command: Command, enc: Encounter, pending: Decision | None) -> str:
    """Why ``seat`` may not issue ``command`` now, "" if it may (the rules themselves are
    the engine's to check after this).
    """
    if seat.role is Role.GM:
        return ""
    if seat.role is Role.WATCHER:
        return watching(seat)
    if isinstance(command, Batch):
        return next((why for c in command.commands if (why := refusal(seat, c, enc, pending))), "")
    if isinstance(command, RollTask) and command.hidden:
        return f"{seat.user} may not roll in secret: only the GM hides a roll"
    if isinstance(command, Say):  # a player speaks to the table or whispers to the GM
        return "" if command.to in ("", GM) else f"{seat.user} may whisper to the GM only"
    who = _acting(command, enc, pending)
    if who is None:
        return f"{seat.user} may not {_what(command)}: only the GM may"
    if not seat.plays(enc, who):
        return f"{seat.user} plays {seat.hero or 'no hero'}: that is for another seat to do"
    return ""


def _acting(command: Command, enc: Encounter, pending: Decision | None) -> str | None:
    """The combatant a player's command acts for, or None for a command only the GM has."""
    if isinstance(command, RollTask):
        return command.who
    if isinstance(command, Attack | Suppress | SonicBlast):
        return command.attacker
    if isinstance(command, Move | CloseIn | TakeAction):
        return command.combatant
    if isinstance(command, DeclareActions | EndTurn):
        return enc.turn.actor if enc.turn is not None else ""
    if isinstance(command, SpendRerolls | AnswerDive | SpendCombatRerolls):
        return answered_by(pending)
    if isinstance(command, KeepDraft):  # a player keeps their own Hero's draft
        return PARTY + command.sheet.id
    return None


def _what(command: Command) -> str:
    """``AddZone`` → ``add zone``: a command's name in a refusal."""
    name = type(command).__name__
    return "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip()


def stamped(command: Command, seat: Seat) -> Command:
    """``command`` as sent from ``seat``: its issuer (and each of a Batch's) is the seat's,
    whatever the view filled in.
    """
    if isinstance(command, Batch):
        inner = tuple(stamped(c, seat) for c in command.commands)
        return replace(command, commands=inner, issuer=seat.issuer)
    return replace(command, issuer=seat.issuer)
