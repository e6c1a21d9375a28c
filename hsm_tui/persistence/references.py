"""What a campaign file's state must hold for play to go on from it, beyond the types the
codec checks: every name it refers to exists (a combatant's zone, a band's zones, who it
is engaged with, the initiative and turn actors, every combatant the turn in progress keeps
a record of and the weapon in its main hand, everyone a waiting question names), every
index points inside its list, every number stays within what play can reach (rounds,
adventure, size, ratings, actions lost, dive policies, log visibility and fight steps),
and every name from a closed set is one of it (§8 markers, countdowns as the engine keeps
them; the Severe Wound chart's rows against the packs', by ``hsm campaign check``).
A file that passed the codec but broke one of these would open and then break a view or a
command mid-play; it is refused at the door, with its key.
"""

from __future__ import annotations

import operator
from dataclasses import fields, is_dataclass

from ..campaign.combat.gear import FISTS
from ..campaign.conditions import CONDITIONS, LEVELED, MARKERS, MAX_LEVEL
from ..campaign.countdowns import MAX_TURNS, effect_name, note_text
from ..campaign.encounter import DIVE_POLICIES, MAX_DECLARED, Combatant, Encounter, Turn
from ..campaign.missing import unknown_rows
from ..campaign.party import LASTING, PARTY, ROSTER_KINDS, Campaign
from ..packs import Catalog
from ..rules import RulesError
from ..rules.effects import CHART_CONDITIONS
from ..rules.models import MAX_RATING
from ..table.state import LogEntry, Snapshot, read_places
from ..table.visibility import VISIBILITIES, seen_by
from .codec import DataError

MAX_ROUND = 10_000
"""More rounds than any fight lasts (a round is minutes at the table)."""
MAX_ADVENTURE = 10_000
SIZES = (-5, 5)
"""A combatant's size, as a pack may give it (``packs/schema.py``)."""
STEPS = (None, "setup", "start", "end")
_PLAIN = frozenset(VISIBILITIES)
_STEPS = frozenset(STEPS)
_SEEN, _STEP = operator.attrgetter("visibility"), operator.attrgetter("step")


def check_references(snap: Snapshot, where: str) -> None:
    """Refuse ``snap`` (file key ``where``: ``state``, ``undo.start``) when a name in it
    refers to nothing or a number is out of play's reach; DataError names the key."""
    _encounter(snap.encounter, f"{where}.encounter")
    _campaign(snap.campaign, f"{where}.campaign")
    for key in ("pending", "parked"):
        _decision(getattr(snap, key), snap, f"{where}.{key}")
    check_log(snap.log, f"{where}.log")


def _within(value: int, low: int, high: int, at: str) -> None:
    if not low <= value <= high:
        raise DataError(at, f"{value} is outside {low} to {high}")


def _known(name: str, known: set[str] | tuple[str, ...], what: str, at: str) -> None:
    if name not in known:
        listed = ", ".join(sorted(known)) or "none"
        raise DataError(at, f"{name!r} is not {what} of this encounter ({listed})")


def _encounter(enc: Encounter, at: str) -> None:
    zones = enc.zones
    for i, (a, b, _) in enumerate(enc.bands):
        _known(a, zones, "a zone", f"{at}.bands[{i}]")
        _known(b, zones, "a zone", f"{at}.bands[{i}]")
    ids = {c.id for c in enc.combatants}
    for i, c in enumerate(enc.combatants):
        here = f"{at}.combatants[{i}]"
        _known(c.zone, zones, "a zone", f"{here}.zone")
        for j, other in enumerate(c.engaged):
            _known(other, ids - {c.id}, "another combatant", f"{here}.engaged[{j}]")
        _within(c.size, *SIZES, f"{here}.size")
        _marks(c.conditions, f"{here}.conditions", MARKERS, "a condition")
        _timed(c, here)
    actors = ids | {c.group for c in enc.combatants}
    for i, roll in enumerate(enc.order):
        _known(roll.actor, actors, "a combatant or group", f"{at}.order[{i}].actor")
    ordered = tuple(roll.actor for roll in enc.order)
    for i, actor in enumerate(enc.surprise):
        _known(actor, ordered, "an actor in the initiative order", f"{at}.surprise[{i}]")
    _within(enc.round, 0, MAX_ROUND, f"{at}.round")
    _within(enc.turn_index, -1, len(enc.order) - 1, f"{at}.turn_index")
    if enc.turn is not None:
        _known(enc.turn.actor, ordered, "an actor in the initiative order", f"{at}.turn.actor")
        _turn(enc.turn, enc, f"{at}.turn")
    for i, (_, policy) in enumerate(enc.dive_policy):
        if policy not in DIVE_POLICIES[1:]:  # asking is no policy kept
            problem = f"{policy!r}: expected one of {', '.join(DIVE_POLICIES[1:])}"
            raise DataError(f"{at}.dive_policy[{i}]", problem)


def _turn(turn: Turn, enc: Encounter, at: str) -> None:
    """Each of a turn's records (:meth:`Turn.records`) names a combatant of the
    encounter, a main hand's weapon one it carries (or its fists), and actions lost stay within a
    turn's reach."""
    ids = {c.id for c in enc.combatants}
    for name, named in turn.records():
        for i, cid in enumerate(named):
            _known(cid, ids, "a combatant", f"{at}.{name}[{i}]")
    for i, (_, lost) in enumerate(turn.lost):
        _within(lost, 0, MAX_DECLARED, f"{at}.lost[{i}]")
    for i, (cid, weapon) in enumerate(turn.main_weapons):
        carried = [w.id for w in enc.get(cid).weapons]
        if weapon not in carried and weapon != FISTS:
            problem = f"{weapon!r} is not a weapon {cid} carries ({', '.join(carried) or 'none'})"
            raise DataError(f"{at}.main_weapons[{i}]", problem)


def _marks(marks: tuple[str, ...], at: str, known: tuple[str, ...], what: str) -> None:
    """Each §8 marker one of ``known``, once, with a number (``dazed:2``) only if it counts
    one, within reach: a GM's condition 1 to 9, the engine's tokens and markers to 99."""
    seen: set[str] = set()
    for i, mark in enumerate(marks):
        name, colon, n = mark.partition(":")
        if name not in known:
            raise DataError(f"{at}[{i}]", f"{name!r} is not {what} ({', '.join(known)})")
        if name in seen:
            raise DataError(f"{at}[{i}]", f"{name!r} is marked twice")
        seen.add(name)
        top = MAX_LEVEL if name in CONDITIONS else MAX_RATING
        within = n.isdecimal() and len(n) <= 2 and 1 <= int(n) <= top
        if colon and (name not in LEVELED or not within):
            counts = f"counts 1 to {top} ({name}:2)" if name in LEVELED else "counts nothing"
            raise DataError(f"{at}[{i}]", f"{mark!r}: {name} {counts}")


def _timed(c: Combatant, at: str) -> None:
    """The GM's note and each countdown as the engine keeps them (:mod:`..countdowns`): a
    condition it may time or the GM's own words (bounded), each once, its turns in reach."""
    try:
        note = note_text(c.note)
    except RulesError as err:
        raise DataError(f"{at}.note", str(err)) from None
    if note != c.note:
        raise DataError(f"{at}.note", f"one line, its spaces single: {note!r}")
    seen: set[str] = set()
    for i, cd in enumerate(c.countdowns):
        here = f"{at}.countdowns[{i}]"
        effect = _effect(cd.effect, f"{here}.effect")
        if effect != cd.effect or effect.casefold() in seen:
            problem = "counted twice" if effect == cd.effect else f"kept as {effect!r}"
            raise DataError(f"{here}.effect", f"{cd.effect!r}: {problem}")
        seen.add(effect.casefold())
        _within(cd.of, 1, MAX_TURNS, f"{here}.of")
        _within(cd.left, 0, cd.of, f"{here}.left")


def _effect(effect: str, at: str) -> str:
    """A countdown's effect as the engine keeps it: a condition a Severe Wound chart row
    times (its pack's ``turns``: even one the GM may not time), else one the GM may time
    or the GM's own words."""
    if effect in CHART_CONDITIONS:
        return effect
    try:
        return effect_name(effect)
    except RulesError as err:
        raise DataError(at, f"{effect!r}: {err}") from None


def _campaign(campaign: Campaign, at: str) -> None:
    _within(campaign.adventure, 1, MAX_ADVENTURE, f"{at}.adventure")
    for i, m in enumerate(campaign.party):
        kept = "a condition a Hero keeps between fights"
        _marks(m.conditions, f"{at}.party[{i}].conditions", LASTING, kept)
    for i, (kind, _) in enumerate(campaign.roster):
        if kind not in ROSTER_KINDS:
            problem = f"{kind!r}: the roster holds {' and '.join(ROSTER_KINDS)} entries"
            raise DataError(f"{at}.roster[{i}]", problem)
    party = [m.entry for m in campaign.party]
    drafted: set[str] = set()
    for i, draft in enumerate(campaign.drafts):  # a draft is of one party Hero, and its own
        if draft.hero not in party or draft.hero in drafted:
            listed = ", ".join(party) or "nobody"
            problem = f"{draft.hero!r}: a draft is of one Hero of the party ({listed}), once"
            raise DataError(f"{at}.drafts[{i}].hero", problem)
        if (draft.sheet.kind, draft.sheet.id) != ("hero", draft.hero):
            problem = f"{draft.sheet.kind} {draft.sheet.id!r}: the draft is {draft.hero!r}'s"
            raise DataError(f"{at}.drafts[{i}].sheet", problem)
        drafted.add(draft.hero)


_WHO = ("attacker", "target", "spill", "who", "roller", "combatant")
"""The fields of a waiting question (and the attack it holds) that name a combatant, or a
party Hero outside the fight (``party:<hero id>``)."""


def _decision(question: object, snap: Snapshot, at: str) -> None:
    """A waiting question names only combatants of the encounter and Heroes of the party:
    one naming nobody would open, then fail at its answer."""
    if question is None or not is_dataclass(question):
        return
    known = {c.id for c in snap.encounter.combatants}
    known |= {PARTY + m.entry for m in snap.campaign.party}
    for f in fields(question):
        value = getattr(question, f.name)
        if f.name in _WHO and isinstance(value, str) and value and value not in known:
            listed = ", ".join(sorted(known)) or "nobody"
            raise DataError(f"{at}.{f.name}", f"{value!r} is nobody of this campaign ({listed})")
        if f.name == "queue" and isinstance(value, tuple):
            for i, who in enumerate(value):
                if isinstance(who, str) and who not in known:
                    raise DataError(f"{at}.queue[{i}]", f"{who!r} is nobody of this campaign")
        if is_dataclass(value) and not isinstance(value, type):
            _decision(value, snap, f"{at}.{f.name}")


def check_log(log: tuple[LogEntry, ...], at: str) -> None:
    """Each entry's visibility and fight step one play knows (``at``: the log's key); an
    entry not read yet is checked as it is read (``lines.read_entry``)."""
    places = read_places(log)
    read = [log[i] for i in places] if len(places) < len(log) else log
    if _PLAIN.issuperset(map(_SEEN, read)) and _STEPS.issuperset(map(_STEP, read)):
        return  # most logs: no seats named, checked in C
    for i in places:
        check_entry(log[i], f"{at}[{i}]")


def check_entry(entry: LogEntry, at: str) -> None:
    """An entry's visibility and fight step one play knows (``at``: its key)."""
    if entry.visibility in _PLAIN and entry.step in STEPS:
        return
    base = seen_by(entry.visibility)[0]
    if base not in VISIBILITIES:
        problem = f"{entry.visibility!r}: expected one of {', '.join(VISIBILITIES)}"
        raise DataError(f"{at}.visibility", problem)
    if entry.step not in STEPS:
        problem = f"{entry.step!r}: expected setup, start, end or none"
        raise DataError(f"{at}.step", problem)


def check_chart(snap: Snapshot, catalog: Catalog, where: str) -> None:
    """Every Severe Wound chart row a Hero or combatant of ``snap`` carries is a row of the
    packs' chart (``hsm campaign check``: open may have other packs, and names such a row
    as missing)."""
    for key, _, row in unknown_rows(snap.campaign, snap.encounter, catalog):
        rows = ", ".join(r.id for r in catalog.chart) or "none"
        problem = f"{row!r} is not a row of the Severe Wound chart ({rows})"
        raise DataError(f"{where}.{key}", problem)
