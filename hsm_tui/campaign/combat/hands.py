"""Two-weapon fighting (R-ATK-11): which weapon each hand may attack with, and the
penalty it costs.

"A character can use two single-handed weapons at the same time with restrictions. They
have a (-2) in their dominant hand and a (-3) in their weak hand." Reading: a pair is two
different one-handed weapons in hand (neither dropped nor stuck; bare fists are no
weapon for it), so the main hand is refused to a combatant without a second one, and the
off hand attacks with another weapon than the one the main hand (or suppressive fire,
R-ATK-16) used this turn.
"""

from __future__ import annotations

from ...packs import Catalog, Weapon
from ...rules import Modifier, RulesError
from ..encounter import Combatant, Encounter, Turn, evolve
from .commands import Attack, Hand
from .gear import FISTS

HANDS = frozenset(Hand)
"""The hands a command may name (text compares equal to its member)."""
_MAIN, _OFF = Hand.MAIN, Hand.OFF


def first_hand(turn: Turn | None, cid: str) -> str:
    """The weapon ``cid``'s main hand (or cone) used this turn, "" if none is known."""
    if turn is not None:
        for who, weapon in turn.main_weapons:
            if who == cid:
                return weapon
    return ""


def other_hand(holder: Combatant, weapon: str, cat: Catalog) -> tuple[str, ...]:
    """The one-handed weapons ``holder`` has in hand besides ``weapon``: what a pair's
    other hand may attack with.
    """
    others = []
    for state in holder.weapons:
        card = cat.weapons.get(state.id)
        if state.id in (weapon, FISTS) or state.dropped or state.stuck or card is None:
            continue
        if not card.two_handed:
            others.append(state.id)
    return tuple(others)


def off_hand_weapons(enc: Encounter, holder: Combatant, cat: Catalog) -> tuple[str, ...]:
    """What ``holder``'s off hand may attack with now: empty unless its main hand (or
    suppressive fire) has just attacked.
    """
    turn = enc.turn
    if turn is None or holder.id not in turn.offhand:
        return ()
    return other_hand(holder, first_hand(turn, holder.id), cat)


def hand_modifier(
    enc: Encounter, attacker: Combatant, weapon: Weapon, cmd: Attack, cat: Catalog
) -> Modifier:
    """R-ATK-11: −2 main hand, −3 off hand, eased by the attacker's Advantages as the book
    reads them (:func:`hand_advantages`); two-handed pairs: GM call. Asked only for an
    attack that names a hand; ``weapon`` is the card as the attack uses it.
    """
    if cmd.hand not in HANDS:
        raise RulesError("a hand is main or off (R-ATK-11)")
    if cmd.grapple:
        raise RulesError("a grapple is bare-handed, not a hand of a pair (R-ATK-17)")
    if weapon.two_handed:
        raise RulesError(f"{weapon.name} is two-handed: a pair of them is the GM's call")
    turn, own = enc.turn, cmd.weapon
    if cmd.hand == _MAIN:
        if not other_hand(attacker, own, cat):
            raise RulesError(
                f"{attacker.name} holds no second one-handed weapon: the main hand (−2) is"
                " for fighting with two (R-ATK-11)"
            )
        return _eased("main hand", -2, hand_advantages(attacker, cat), both_only=True)
    if turn is None or attacker.id not in turn.offhand:
        raise RulesError(
            "the off hand attacks right after a main-hand attack (R-ATK-11)"
            " or suppressive fire (R-ATK-16)"
        )
    used = first_hand(turn, attacker.id)
    if own == used:
        did = "laid down suppressive fire" if attacker.id in turn.suppressed else "attacked"
        raise RulesError(
            f"{weapon.name} {did} this turn: the off hand attacks with another"
            " one-handed weapon (R-ATK-11)"
        )
    if own == FISTS:
        raise RulesError("the off hand attacks with a second weapon, not bare hands (R-ATK-11)")
    return _eased("off hand", -3, hand_advantages(attacker, cat), both_only=False)


AMBIDEXTERITY = "ambidexterity"
TWO_WEAPON_FIGHTING = "two-weapon fighting"


def hand_advantages(attacker: Combatant, cat: Catalog) -> tuple[str, ...]:
    """The R-ATK-11 Advantages on the attacker's sheet: an Advantage whose text starts with
    the name ("Ambidexterity", "Two-weapon fighting: …"), upper or lower case.

    **Interpretation** (the book, §5, over the digest's "each make it 1 easier"):
    Ambidexterity makes the weak (off) hand 1 easier; Two-weapon fighting makes both
    hands 1 easier; with both, each hand is at −1.
    """
    entry = cat.kind(attacker.rank.value).get(attacker.entry)
    said = [a.lower() for a in getattr(entry, "advantages", ())]
    names = (AMBIDEXTERITY, TWO_WEAPON_FIGHTING)
    return tuple(n for n in names if any(a.startswith(n) for a in said))


def _eased(label: str, value: int, advantages: tuple[str, ...], both_only: bool) -> Modifier:
    eased = [a for a in advantages if a == TWO_WEAPON_FIGHTING or not both_only]
    if not eased:
        return Modifier(label, value)
    return Modifier(f"{label} ({', '.join(eased)})", value + len(eased))


def main_hand_used(turn: Turn, cid: str, weapon: str) -> Turn:
    """``turn`` after ``cid``'s main hand (or cone) attacked with ``weapon``: the off hand
    may follow with another.
    """
    kept = tuple(p for p in turn.main_weapons if p[0] != cid)
    return evolve(turn, offhand=(*turn.offhand, cid), main_weapons=(*kept, (cid, weapon)))


def off_hand_used(turn: Turn, cid: str) -> Turn:
    """``turn`` after ``cid``'s off hand attacked: the pair is done."""
    offhand = tuple(c for c in turn.offhand if c != cid)
    main_weapons = tuple(p for p in turn.main_weapons if p[0] != cid)
    return evolve(turn, offhand=offhand, main_weapons=main_weapons)
