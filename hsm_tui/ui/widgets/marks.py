"""A combatant's marks (the §8 conditions, the engine's own markers, prone, in melee,
hidden) in the words each place has room for: the Cond. column's long or short forms,
most serious first, and the whole list spelled out for the panel beside the table.

The order is what a GM decides by first (``PIN+2`` once hid a Panicked figure), and
the short forms are capitalised so two run together still read apart (``ShkMel``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...campaign.conditions import HEALTH_MARKERS, TOKENS
from ...campaign.countdowns import turns_text
from ...campaign.encounter import Combatant


@dataclass(frozen=True)
class Look:
    """How one mark is written: three letters, a word, and the panel's wording."""

    short: str
    word: str
    spelled: str = ""
    """The panel's wording where the word alone says too little (the word otherwise)."""


LOOKS: dict[str, Look] = {
    "dying": Look("Dyi", "dying", "dying (bleeding out)"),
    "panicked": Look("Pan", "panicked"),
    "pinned": Look("Pin", "pinned"),
    "shaken": Look("Shk", "shaken"),
    "stunned": Look("Stn", "stunned"),
    "grappled": Look("Grp", "grappled"),
    "confused": Look("Cnf", "confused"),
    "dazed": Look("Daz", "dazed"),
    "bleeding": Look("Bld", "bleeding"),
    "prone": Look("Prn", "prone"),
    "melee": Look("Mel", "in melee"),
    "nauseated": Look("Nau", "nauseated"),
    "painful": Look("Pnf", "painful", "painful wound"),
    "lamed": Look("Lam", "lamed", "lamed limb"),
    "slowed": Look("Slw", "slowed"),
    "encumbered": Look("Enc", "encumbered"),
    "fatigued": Look("Fat", "fatigued"),
    "standby": Look("Stb", "standby", "on Standby"),
    "full-defense": Look("Fdf", "full defense"),
    "dodging": Look("Ddg", "dodging"),
    "parry": Look("Pry", "parry"),
    "steady": Look("Sty", "steady"),
    "quick-release": Look("Qrl", "quick release"),
    TOKENS: Look("Tok", "Stamina tokens"),
    HEALTH_MARKERS: Look("Hmk", "Health markers"),
    "hidden": Look("Hid", "hidden", "hidden from the players"),
}
"""Every mark a combatant can carry, most serious first: what takes the fight away
(dying, panicked), what costs actions or asks a roll, what changes a roll, then the
actions in effect and the re-roll sources; hidden last (◌ after the name says it)."""

SERIOUS = {name: rank for rank, name in enumerate(LOOKS)}

COUNTED = {"bleeding": TOKENS, "dying": HEALTH_MARKERS}
"""A counter written as its condition's number: ``Bld2`` bleeding with 2 Stamina tokens."""


def marks(c: Combatant, in_melee: bool) -> list[tuple[str, int]]:
    """The combatant's marks and their numbers (0: none), most serious first; a counter
    folds into the condition it counts for."""
    levels: dict[str, int] = {}
    for mark in c.conditions:
        name, _, n = mark.partition(":")
        levels[name] = int(n) if n else 0
    for name, on in (("prone", c.prone), ("melee", in_melee), ("hidden", c.hidden)):
        if on:
            levels[name] = 0
    for name, counter in COUNTED.items():
        if name in levels and counter in levels:
            levels[name] = levels.pop(counter)
    for cd in c.countdowns:  # a timed mark's number: the turns still to come under it
        if cd.effect in levels:
            levels[cd.effect] = max(cd.left, 0)
    return sorted(levels.items(), key=lambda mark: SERIOUS.get(mark[0], len(SERIOUS)))


def _look(name: str) -> Look:
    return LOOKS.get(name) or Look(name[:3].capitalize(), name)


def _fill(forms: list[str], width: int) -> str:
    """As many of ``forms``, run together, as fit ``width``, and ``+N`` for the rest."""
    for shown in range(len(forms), 0, -1):
        rest = len(forms) - shown
        text = "".join(forms[:shown]) + (f"+{rest}" if rest else "")
        if len(text) <= width:
            return text
    return f"+{len(forms)}"


def cond_cell(c: Combatant, in_melee: bool, width: int) -> str:
    """The Cond. cell in ``width`` cells, the gravest mark first: every mark, in words as
    far as they fit (``dazed 2, Enc1, Fat``); where even three letters each with commas
    do not fit, three letters run together and ``+N`` for the rest (``PanPin+1``), so
    none hides behind an ellipsis.
    """
    shown = marks(c, in_melee)
    if not shown:
        return "–"
    words = [_look(name).word + (f" {n}" if n else "") for name, n in shown]
    shorts = [_look(name).short + (str(n) if n else "") for name, n in shown]
    for spelled in range(len(shown), -1, -1):
        text = ", ".join(words[:spelled] + shorts[spelled:])
        if len(text) <= width:
            return text
    return _fill(shorts, width)


def spelled_marks(c: Combatant, in_melee: bool, acting: bool = False) -> list[str]:
    """Every mark spelled out for the panel beside the table (a counter with its count, a
    timed mark with its turns: ``acting``, its bearer's turn is under way), then the GM's
    own timed effects."""
    spelled = []
    timed = {cd.effect: f" ({turns_text(cd, acting)})" for cd in c.countdowns}
    for name, n in marks(c, in_melee):
        look = _look(name)
        text = look.spelled or look.word
        if name in timed:
            text += timed.pop(name)
        elif name in COUNTED and n:
            counter = _look(COUNTED[name]).word
            text += f", {n} {counter.removesuffix('s') if n == 1 else counter}"
        elif n:
            text += f" {n}"
        spelled.append(text)
    return spelled + [effect + turns for effect, turns in timed.items()]


def legend() -> str:
    """F1's key to the short forms, from the table the column reads."""
    return " · ".join(f"{look.short} {look.word}" for look in LOOKS.values())
