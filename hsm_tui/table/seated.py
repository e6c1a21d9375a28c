"""A view's hold on the one Session: the handle that sends its commands as its seat's.
Many views (the GM's terminal, each SSH connection) share one Session, one process, one
loop; none holds state the Session needs.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..campaign.combat import DeclareActions
from ..campaign.drafts import KeepDraft
from ..campaign.party import Roller, rollers
from ..rules import RulesError
from .seat_choices import (
    action_options,
    attack_options,
    declare_options,
    detail_options,
    move_options,
)
from .seats import Seat, refusal, stamped

if TYPE_CHECKING:
    from ..campaign.combat import Attack, Option, TakeAction
    from ..campaign.making import MadeCharacter
    from ..packs import Catalog
    from .session import Event, Session
    from .state import Command, Decision
    from .views import TableView


@dataclass(frozen=True)
class SeatedSession:
    """A view's handle on the one Session, bound to the seat it serves: what it sends is
    stamped with that seat and checked by the seat policy; undo and redo are the GM's.
    Making one seats it: the session then knows whose hero its issuer plays.
    """

    session: Session
    seat: Seat

    def __post_init__(self) -> None:
        self.session.take_seat(self.seat)

    def apply(self, command: Command, answering: Decision | None = None) -> None:
        """Send ``command`` as this seat's; ``answering``: the question it answers."""
        self.session.apply(stamped(command, self.seat), answering)

    def sketch(self, sheet: MadeCharacter) -> None:
        """The seat's Hero's draft as typed so far (the GM reads it live; nothing kept)."""
        self.session.sketch(sheet, self.seat.issuer)

    def keep_sketch(self) -> None:
        """Keep what the seat's player typed on its draft and did not keep: the seat is
        leaving (a dropped connection too), and nothing typed is lost. A sheet the draft
        cannot keep stays typed for the GM to read until the server stops."""
        typed = self.session.sketch_of(self.seat.hero) if self.seat.hero else None
        if typed is not None:
            with suppress(RulesError):
                self.apply(KeepDraft(typed))

    def undo(self) -> Command:
        return self.session.undo(self.seat.issuer)

    def redo(self) -> Command:
        return self.session.redo(self.seat.issuer)

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        return self.session.subscribe(callback)

    def view(self) -> TableView:
        return self.session.view(self.seat)

    @property
    def catalog(self) -> Catalog:
        """The loaded packs: content every seat may read (the state is what is secret)."""
        return self.session.catalog

    def attacks(self) -> list[Option[Attack]]:
        """The seat's hero's attacks now, checked by the engine (:mod:`seat_choices`)."""
        return attack_options(self.seat, self.session.encounter, self.session.catalog)

    def roller(self) -> Roller | None:
        """The seat's hero as a task's roller (traits, skills, wounds, pools), or None."""
        s = self.session
        found = rollers(s.party_now(), s.encounter, s.catalog)
        return next((r for r in found if self.seat.plays(s.encounter, r.who)), None)

    def moves(self) -> list[Option[object]]:
        """Where the seat's hero may move now, checked by the engine."""
        enc = self.session.encounter
        mine = self.seat.combatant(enc)
        return [] if mine is None else move_options(enc, mine.id)

    def actions(self) -> list[Option[TakeAction]]:
        """The seat's hero's actions now, checked by the engine; [] without a hero."""
        enc = self.session.encounter
        mine = self.seat.combatant(enc)
        return [] if mine is None else action_options(enc, mine, self.session.catalog)

    def action_details(self, command: TakeAction) -> list[Option[TakeAction]]:
        """What the hero's ``command`` names (a weapon, a cover …), checked by the engine."""
        enc = self.session.encounter
        mine = self.seat.combatant(enc)
        return [] if mine is None else detail_options(enc, mine, command, self.session.catalog)

    def declares(self) -> list[Option[DeclareActions]]:
        """How many actions the seat may declare now (R-ACT-3), checked by the seat rule and
        the engine.
        """
        s = self.session
        why = refusal(self.seat, DeclareActions(2), s.encounter, s.pending)
        return declare_options(s.encounter, why)
