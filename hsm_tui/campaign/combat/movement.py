"""Moving between zones in imagination mode (R-ACT-2, R-OTHER-4): what a Move or Move+Run
reaches, the routes a menu offers with the engine's own refusals, and the spots on the
way toward a zone farther than one turn's move (:mod:`.spots`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...packs import Catalog
from ...rules import Cover, RangeBand, RulesError
from ..encounter import Combatant, Encounter, evolve
from .commands import CloseIn, Move
from .outcome import LogLines, Outcome
from .spots import Spot, on_the_way, origin_of, vacated, with_halfway, with_spot
from .turns import Held, actions_text, pinned_check, pinned_stop, spend_action

_MELEE, _SHORT = RangeBand.MELEE, RangeBand.SHORT


def move(
    enc: Encounter, cmd: Move, rng: random.Random, _cat: Catalog, held: Held | None = None
) -> Outcome:
    """R-ACT-2 imagination mode: a Move reaches a zone at Melee band, Move+Run one at
    Short; a lone Move toward a zone farther off goes halfway (:func:`_arrival`).
    """
    c, cmd = enc.get(cmd.combatant), evolve(cmd, zone=enc.zone_named(cmd.zone))
    return _go(enc, c, cmd, cmd, rng, held)


def close_in(
    enc: Encounter, cmd: CloseIn, rng: random.Random, _cat: Catalog, held: Held | None = None
) -> Outcome:
    """R-ACT-2 says Move+Run is "one full band closer": toward a zone farther than Short
    the mover runs to a spot one band along the way (:func:`.spots.with_spot`; others
    who close in the same way join it).
    """
    c, run = _closing(enc, cmd)
    moved = _go(enc, c, run, cmd, rng, held)
    if moved.encounter.get(c.id).zone == c.zone:  # Pinned held it (§8): it did not close in
        return moved
    return moved.after(LogLines(f"{c.name} closes in on {run.zone}: one band nearer (R-ACT-2)", ()))


def _go(
    enc: Encounter,
    c: Combatant,
    step: Move,
    asked: Move | CloseIn,
    rng: random.Random,
    held: Held | None,
) -> Outcome:
    """Spend ``step``'s actions, roll a Pinned Morale first (§8; ``held``: made and
    re-rolled already, for ``asked``), then put the mover where the step ends; a spot
    on the way it leaves empty goes (:func:`.spots.vacated`).
    """
    spent = _spend_move(enc, c, step, closing=isinstance(asked, CloseIn))
    held = held or pinned_check(c, rng, asked)
    stopped = pinned_stop(enc, spent, held)
    if stopped is not None:
        return stopped
    enc, there, lines = _arrival(spent, c, step)
    enc = enc.with_combatant(evolve(c, zone=there, engaged=(), cover=Cover.NONE))
    if enc.turn is not None and c.id not in enc.turn.movers:
        enc = evolve(enc, turn=evolve(enc.turn, movers=(*enc.turn.movers, c.id)))
    for other in enc.combatants:  # leaving melee ends the engagement both ways (R-OTHER-5)
        if c.id in other.engaged:
            enc = enc.with_combatant(
                evolve(other, engaged=tuple(e for e in other.engaged if e != c.id))
            )
    enc, gone = vacated(enc, c.zone)
    verb = "moves and runs" if step.run else "moves"
    title = f"{c.name} {verb} to {there} (out of cover)"
    moves = Outcome(enc, (LogLines(title, (*lines, *gone)),))
    return moves.after(held.log) if held is not None else moves  # the Morale roll first


def _arrival(enc: Encounter, c: Combatant, step: Move) -> tuple[Encounter, str, list[str]]:
    """Where ``step`` puts the mover, with the spot it stops at added if new and the log
    lines that place it: the zone itself within reach (R-ACT-2: a Move half a band, a
    zone at Melee band; Move+Run one band, a zone at Short).

    **Interpretation** (R-ACT-2 "consider the movement halfway through a range"): a
    lone Move toward a zone farther than Melee goes halfway along that band, to a spot
    at the bands of the zone it left (:func:`.spots.with_halfway`); the next Move toward
    the same zone, this turn (as the Run that goes with the Move) or a later one,
    completes the band: it ends where Move+Run would have, in the zone when it was at
    Short, else at the spot one band nearer. Move+Run toward a zone farther than Short
    (CloseIn) ends at that spot too.
    """
    band = enc.zone_band(c.zone, step.zone)
    if band <= (_SHORT if step.run else _MELEE):
        return enc, step.zone, []
    completes = _completes(c, step)
    if not step.run and not completes:
        spot = Spot(origin_of(c.zone), step.zone, band, halfway=True).name
        placed, lines = with_halfway(enc, spot, c.zone)
        return placed, spot, lines
    if band == _SHORT:  # completes a band begun at Short: the zone itself
        return enc, step.zone, []
    nearer = RangeBand(band - 1)
    spot = Spot(origin_of(c.zone), step.zone, nearer).name
    placed, lines = with_spot(enc, spot, c.zone, step.zone, nearer)
    if completes and lines:  # half a band on from the lone Move's spot
        placed = placed.with_band(spot, c.zone, _MELEE)
    return placed, spot, lines


def _completes(c: Combatant, step: Move) -> bool:
    """``step`` is a lone Move from a lone Move's spot toward where that spot leads: it
    completes the band (:func:`_arrival`)."""
    here = on_the_way(c.zone)
    return not step.run and here is not None and here.halfway and here.toward == step.zone


def _closing(enc: Encounter, cmd: CloseIn) -> tuple[Combatant, Move]:
    """The mover and the Move + Run that closes in on a zone farther than Short."""
    c = enc.get(cmd.combatant)
    toward = enc.zone_named(cmd.toward)
    if toward == c.zone:
        raise RulesError(f"{c.name} is already in {toward}")
    band = enc.zone_band(c.zone, toward)
    if band <= _SHORT:
        raise RulesError(f"{toward} is {band.label} from {c.zone}: move there (m) instead")
    return c, Move(c.id, toward, run=True, issuer=cmd.issuer)


def close_in_refusal(enc: Encounter, cmd: CloseIn) -> str:
    """Why the mover cannot close in now, "" if it can (the zone, the band, and the Move
    + Run it takes: R-ACT-1/2, R-OTHER-4, §8), so a menu marks it before the pick.
    """
    try:
        c, run = _closing(enc, cmd)
        _spend_move(enc, c, run, closing=True)
    except RulesError as refused:
        return str(refused)
    return ""


def _spend_move(enc: Encounter, c: Combatant, cmd: Move, closing: bool = False) -> Encounter:
    """Check the move's distance (R-ACT-2, R-OTHER-4) and spend Move, and Run with it:
    both actions must be left before either is spent (R-ACT-1). The Move that completes
    a band begun this turn spends the Run that goes with it (:func:`_arrival`).
    ``closing``: a Move + Run toward a zone farther than Short, one band nearer.
    """
    if cmd.zone == c.zone:
        raise RulesError(f"{c.name} is already in {c.zone}")
    turn = enc.turn
    if turn is not None and c.id in turn.restricted and not cmd.run:  # §8 Confused
        raise RulesError(
            f"{c.name} is Confused and failed its roll: only a Run (Move + Run), not a"
            " plain Move, or a Hide (§8)"
        )
    band = enc.zone_band(c.zone, cmd.zone)
    if cmd.run and band > _SHORT and not closing:
        raise RulesError(
            f"{cmd.zone} is {band.label} from {c.zone}: Move+Run covers one band per turn"
            " (R-ACT-2); close in a band at a time"
        )
    run = cmd.run or (_completes(c, cmd) and turn is not None and (c.id, "move") in turn.used)
    if run and "slowed" in c.conditions:
        raise RulesError(f"{c.name} was stopped in passing: only a Move this turn (R-OTHER-4)")
    if run and not cmd.run:
        return spend_action(enc, c, "run", what="the Run that completes the band (R-ACT-2)")
    enc = spend_action(enc, c, "move", cost=1 + cmd.run, what="Move + Run (R-ACT-2)")
    return spend_action(enc, c, "run") if cmd.run else enc


def move_refusal(enc: Encounter, cmd: Move) -> str:
    """Why the move cannot be made now, "" if it can (distance R-ACT-2, R-OTHER-4; its
    turn and the actions it has left, R-ACT-1), so a menu says so before the pick.
    Changes nothing.
    """
    try:
        _spend_move(enc, enc.get(cmd.combatant), evolve(cmd, zone=enc.zone_named(cmd.zone)))
    except RulesError as refused:
        return str(refused)
    return ""


@dataclass(frozen=True)
class Route:
    """What it takes a combatant to reach another zone this turn (R-ACT-2): ``move`` is
    the command that gets there or, out of reach, the one the engine refuses with why.

    ``reachable`` is about distance alone; ``left`` (the mover's actions left, None when
    it is not its turn) and ``why`` (the engine's refusal now, R-ACT-1) say whether the
    move can be made now: ``possible``.
    """

    move: Move
    band: RangeBand | None  # None: no band set between the two zones
    reachable: bool
    left: int | None = None
    why: str = ""  # "" when the move can be made now (or is out of reach anyway)
    close_in: CloseIn | None = None  # farther than Short: a band nearer instead (R-ACT-2)
    close_in_why: str = ""  # the engine's refusal of that close-in now ("" if it may)
    halfway: Move | None = None  # farther than Melee: a lone Move halfway (R-ACT-2)
    halfway_why: str = ""  # the engine's refusal of that lone Move now ("" if it may)
    completes: bool = False  # ``move`` is the lone Move that completes a band begun

    @property
    def actions(self) -> int:
        """What the move costs: Move 1, Move + Run 2 (R-ACT-2)."""
        return 2 if self.move.run else 1

    @property
    def possible(self) -> bool:
        """Within reach, and the engine would take the move now."""
        return self.reachable and not self.why

    @property
    def place(self) -> str:
        """The zone and its band from the mover, for a menu: ``ruins (short)``. A spot on
        the way names a band already (to where it leads), so it reads ``ridge → ruins
        (short), medium from here`` rather than a second bracket.
        """
        band = self.band.label if self.band is not None else "no band set"
        if on_the_way(self.move.zone) is not None:
            return f"{self.move.zone}, {band} from here"
        return f"{self.move.zone} ({band})"

    @property
    def cost(self) -> str:
        """A short label for a menu: the price, or why it cannot be paid now."""
        if self.band is None:
            return NO_BAND
        if not self.reachable:
            return TOO_FAR
        what, need = ("Move + Run" if self.move.run else "Move"), self.actions
        if self.completes:
            what = "Move, completing the band"
        if self.left is not None and self.left < need:
            have = "none left" if self.left == 0 else f"only {self.left} left"
            return f"{what} needs {actions_text(need)}, {have}"
        if self.why:
            return f"not now: {self.why}"
        return f"{what}, {actions_text(need)}"


NO_BAND = "no band set yet (F7 b sets one)"


TOO_FAR = "too far for one turn: close in a band at a time (m offers it)"


def routes(enc: Encounter, combatant: str) -> tuple[Route, ...]:
    """Every other zone and what reaches it this turn: a Move one at Melee band, Move+Run
    one at Short unless a zone of control slowed the mover (R-OTHER-4); farther zones
    take more turns, through a spot on the way; toward any zone farther than Melee a
    lone Move goes halfway, and from there the next Move completes the band. A route
    says too whether the mover can take it now: the actions it has left (R-ACT-1; Move
    + Run needs 2) and any other refusal, in the engine's words.
    """
    c = enc.get(combatant)
    turn = enc.turn if enc.active else None
    left = turn.left(c.id) if turn is not None and c.group == turn.actor else None
    found = []
    for zone in enc.zones:
        if zone == c.zone:
            continue
        try:
            band = enc.zone_band(c.zone, zone)
        except RulesError:
            found.append(Route(Move(c.id, zone), None, False, left))
            continue
        lone = Move(c.id, zone)
        if _completes(c, lone):  # Move + Run would end at the same place: not offered
            found.append(Route(lone, band, True, left, move_refusal(enc, lone), completes=True))
            continue
        run = band > _MELEE
        slowed = run and "slowed" in c.conditions
        reachable = band <= _SHORT and not slowed
        step = Move(c.id, zone, run)
        why = move_refusal(enc, step) if reachable else ""
        nearer = CloseIn(c.id, zone) if band > _SHORT else None
        refusal = close_in_refusal(enc, nearer) if nearer is not None else ""
        halfway, halfway_why = (lone, move_refusal(enc, lone)) if run else (None, "")
        found.append(Route(step, band, reachable, left, why, nearer, refusal, halfway, halfway_why))
    return tuple(found)
