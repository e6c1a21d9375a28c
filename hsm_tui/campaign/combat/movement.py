"""Moving between zones in imagination mode (R-ACT-2, R-OTHER-4): what a Move or Move+Run
reaches, the routes a menu offers with the engine's own refusals, and closing in on a
zone farther than Short through a spot on the way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...packs import Catalog
from ...rules import Cover, RangeBand, RulesError
from ..encounter import Combatant, Encounter, evolve
from .commands import CloseIn, Move
from .outcome import LogLines, Outcome
from .turns import Held, actions_text, pinned_check, pinned_stop, spend_action


def move(
    enc: Encounter, cmd: Move, rng: random.Random, _cat: Catalog, held: Held | None = None
) -> Outcome:
    """R-ACT-2 imagination mode: Move reaches a zone at Melee band; Move+Run one band
    (a zone at Short). Farther zones take more turns: move through a zone on the way.
    """
    c, cmd = enc.get(cmd.combatant), evolve(cmd, zone=enc.zone_named(cmd.zone))
    spent = _spend_move(enc, c, cmd)
    held = held or pinned_check(c, rng, cmd)  # ``held``: made and re-rolled already
    stopped = pinned_stop(enc, spent, held)
    if stopped is not None:
        return stopped
    enc = spent
    moved = evolve(c, zone=cmd.zone, engaged=(), cover=Cover.NONE)
    enc = enc.with_combatant(moved)
    if enc.turn is not None and c.id not in enc.turn.movers:
        enc = evolve(enc, turn=evolve(enc.turn, movers=(*enc.turn.movers, c.id)))
    for other in enc.combatants:  # leaving melee ends the engagement both ways (R-OTHER-5)
        if c.id in other.engaged:
            enc = enc.with_combatant(
                evolve(other, engaged=tuple(e for e in other.engaged if e != c.id))
            )
    verb = "moves and runs" if cmd.run else "moves"
    moves = Outcome(enc, (LogLines(f"{c.name} {verb} to {cmd.zone} (out of cover)", ()),))
    return moves.after(held.log) if held is not None else moves  # the Morale roll first


ON_THE_WAY = " → "
"""In a zone's name, a spot on the way: ``ridge → ruins (short)`` is Short from ruins."""


def on_the_way(zone: str) -> tuple[str, str, RangeBand] | None:
    """A spot's origin, the zone it leads to and its band from there (the parts of the
    name :func:`close_in` gives it), or None for a zone of the scene: a view shortening
    ``ruins → landing pad (medium)`` keeps where it leads, not only ``ruins``.
    """
    origin, way, rest = zone.partition(ON_THE_WAY)
    toward, bracket, label = rest.rpartition(" (")
    bands = {band.label: band for band in RangeBand}
    if not way or not bracket or label[:-1] not in bands or not label.endswith(")"):
        return None
    return origin, toward, bands[label[:-1]]


def close_in(enc: Encounter, cmd: CloseIn, rng: random.Random, cat: Catalog) -> Outcome:
    """R-ACT-2 says Move+Run is "one full band closer": toward a zone farther than Short
    the mover runs to a spot one band along the way, which becomes a zone of its own
    (``A → X (medium)``; others who close in the same way join it).

    **Interpretation** (imagination mode has no map): the spot is Short from where the
    mover was and one band nearer X; from every other zone it is as far as the mover's
    old zone was, within what the bands to X allow (the triangle of the two). The log
    lists them; F7 ``b`` changes any the scene says otherwise.
    """
    enc, run, lines = _on_the_way(enc, cmd)
    moved = move(enc, run, rng, cat)
    c = enc.get(cmd.combatant)
    toward = enc.zone_named(cmd.toward)
    head = LogLines(f"{c.name} closes in on {toward}: one band nearer (R-ACT-2)", tuple(lines))
    return moved.after(head)


def close_in_refusal(enc: Encounter, cmd: CloseIn) -> str:
    """Why the mover cannot close in now, "" if it can (the zone, the band, and the Move
    + Run it takes: R-ACT-1/2, R-OTHER-4, §8), so a menu marks it before the pick.
    """
    try:
        enc, run, _ = _on_the_way(enc, cmd)
        _spend_move(enc, enc.get(cmd.combatant), run)
    except RulesError as refused:
        return str(refused)
    return ""


def _on_the_way(enc: Encounter, cmd: CloseIn) -> tuple[Encounter, Move, list[str]]:
    """The encounter with the spot one band nearer (added if new), the Move + Run to it,
    and the log lines that place a new spot.
    """
    c = enc.get(cmd.combatant)
    toward = enc.zone_named(cmd.toward)
    if toward == c.zone:
        raise RulesError(f"{c.name} is already in {toward}")
    band = enc.zone_band(c.zone, toward)
    if band <= _reach(True):
        raise RulesError(f"{toward} is {band.label} from {c.zone}: move there (m) instead")
    nearer = RangeBand(band - 1)
    origin = c.zone.split(ON_THE_WAY, 1)[0]  # a spot on the way already: name the next alike
    spot, lines = f"{origin}{ON_THE_WAY}{toward} ({nearer.label})", []
    if spot not in enc.zones:
        enc, lines = _waypoint(enc, c.zone, toward, nearer, spot)
    return enc, Move(c.id, spot, run=True), lines


def _waypoint(
    enc: Encounter, start: str, toward: str, nearer: RangeBand, spot: str
) -> tuple[Encounter, list[str]]:
    """Add the spot one band from ``start``, ``nearer`` to ``toward``, and its bands."""
    enc = evolve(enc, zones=(*enc.zones, spot))
    enc = enc.with_band(spot, start, RangeBand.SHORT).with_band(spot, toward, nearer)
    lines = [f"new zone {spot}: {RangeBand.SHORT.label} from {start}, {nearer.label} from {toward}"]
    for other in enc.zones:
        if other in (start, toward, spot):
            continue
        try:
            was, there = enc.zone_band(start, other), enc.zone_band(toward, other)
        except RulesError:
            continue  # a band not set stays unset: the fight asks for it when it matters
        low, high = abs(there - nearer), min(there + nearer, RangeBand.EXTRA_LONG)
        band = RangeBand(min(max(was, low), high))
        enc = enc.with_band(spot, other, band)
        lines.append(f"{spot} ↔ {other}: {band.label}")
    return enc, lines


def _spend_move(enc: Encounter, c: Combatant, cmd: Move) -> Encounter:
    """Check the move's distance (R-ACT-2, R-OTHER-4) and spend Move, and Run with it:
    both actions must be left before either is spent (R-ACT-1).
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
    if band > _reach(cmd.run):
        how = "Move+Run covers one band" if cmd.run else "a Move covers half a band; add Run"
        raise RulesError(f"{cmd.zone} is {band.label} from {c.zone}: {how} per turn (R-ACT-2)")
    if cmd.run and "slowed" in c.conditions:
        raise RulesError(f"{c.name} was stopped in passing: only a Move this turn (R-OTHER-4)")
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


def _reach(run: bool) -> RangeBand:
    """R-ACT-2 imagination mode: a Move covers half a band (a zone at Melee band), Move+Run
    one band (a zone at Short).
    """
    return RangeBand.SHORT if run else RangeBand.MELEE


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
        if ON_THE_WAY in self.move.zone:
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
        if self.left is not None and self.left < need:
            have = "none left" if self.left == 0 else f"only {self.left} left"
            return f"{what} needs {actions_text(need)}, {have}"
        if self.why:
            return f"not now: {self.why}"
        return f"{what}, {actions_text(need)}"


NO_BAND = "no band set yet (F7 b sets one)"


TOO_FAR = "too far for one turn: close in a band at a time (m offers it)"


"""A band farther than Short is crossed a band a turn (R-ACT-2): :class:`CloseIn` runs to
a spot on the way, a zone of its own."""


def routes(enc: Encounter, combatant: str) -> tuple[Route, ...]:
    """Every other zone and what reaches it this turn: a Move one at Melee band, Move+Run
    one at Short unless a zone of control slowed the mover (R-OTHER-4); farther zones
    take more turns, through a zone on the way. A route in reach says too whether the
    mover can take it now: the actions it has left (R-ACT-1; Move + Run needs 2) and
    any other refusal, in the engine's words.
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
        run = band > _reach(False)
        slowed = run and "slowed" in c.conditions
        reachable = band <= _reach(True) and not slowed
        step = Move(c.id, zone, run)
        why = move_refusal(enc, step) if reachable else ""
        nearer = CloseIn(c.id, zone) if band > _reach(True) else None
        refusal = close_in_refusal(enc, nearer) if nearer is not None else ""
        found.append(Route(step, band, reachable, left, why, nearer, refusal))
    return tuple(found)
