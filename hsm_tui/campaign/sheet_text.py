"""A party Hero's sheet as Markdown, laid out like the book's character sheet (R-CHAR-1..7:
titles, wounds, primary and derived traits, Shooting and Fighting, Talents, Skills,
Advantages and Drawbacks, equipment carried and stored), filled in as the campaign has
the Hero now: its Luck and Clues, wounds, chart rows and the conditions it keeps. For the
table to print (``hsm campaign export FILE --sheets``).
"""

from __future__ import annotations

import re

from ..packs.model import Character
from ..rules import Derived, Rating, Trait
from .making import FORMULAS
from .party import PartyMember

TRAIT_LABELS = {Trait.CHARM: "Appearance (Charm)"}
"""The sheet prints "Appearance" for Charm (R-CHAR-2: the same trait)."""


def _cell(text: object) -> str:
    """One line of literal Markdown: a pipe or a line break would end a table's cell, a
    star or a bracket start emphasis or a link."""
    return re.sub(r"([\\`*_\[\]#<>|])", r"\\\1", " ".join(str(text).split()))


def _row(*cells: object) -> str:
    return "| " + " | ".join(map(_cell, cells)) + " |"


def _table(head: list[str], *rows: list[object]) -> list[str]:
    return [_row(*head), _row(*("---" for _ in head)), *(_row(*r) for r in rows)]


def _wounds(member: PartyMember | None) -> str:
    if member is None:
        return "☐ −1 ☐ −2"
    if member.dead:
        return "dead"
    marks = ["☒" if member.wounds >= n else "☐" for n in (1, 2)]
    severe = " · severely wounded" if member.wounds >= 3 else ""
    return f"{marks[0]} −1 {marks[1]} −2{severe}"


def sheet_markdown(hero: Character, member: PartyMember | None, chart: dict[str, str]) -> str:
    """``hero``'s sheet (``member``: how the campaign has it now; ``chart``: the chart's
    row names by id, for its scars)."""
    t = hero.traits
    lines = [f"## {_cell(hero.name)}", ""]
    titles = (
        ("Player", hero.player), ("Career", hero.career), ("Motivation", hero.motivation),
    )  # fmt: skip
    lines += [f"**{k}:** {_cell(v) or '—'}  " for k, v in titles]
    lines += ["", f"**Wounds:** {_wounds(member)}", ""]
    lines += _table([TRAIT_LABELS.get(x, x.value.title()) for x in Trait], [t[x] for x in Trait])
    lines += [""]
    lines += _table(
        [d.value.title() for d in Derived],
        [FORMULAS[d] for d in Derived],
        [t.derived(d) for d in Derived],
    )
    head: list[str] = []
    values: list[object] = []
    for group, ratings in (("Shooting", list(Rating)[:3]), ("Fighting", list(Rating)[3:])):
        head += [group, *(r.value.title() for r in ratings)]
        values += ["", *(hero.ratings[r] for r in ratings)]
    lines += ["", *_table(head, values)]
    lines += ["", f"**Talents:** {_cell('; '.join(hero.talents)) or '—'}  "]
    skills = ", ".join(f"{n.replace('-', ' ').title()} ({v})" for n, v in hero.skills)
    lines += [f"**Skills:** {_cell(skills) or '—'}", ""]
    lines += _table(
        ["Advantages", "Drawbacks"],
        *([a, d] for a, d in _pairs(hero.advantages, hero.drawbacks)),
    )
    carried = sum(i.enc for i in hero.equipment)
    limit = hero.encumbrance if hero.encumbrance is not None else "—"
    over = ""
    if hero.encumbrance is not None and carried > hero.encumbrance:
        over = " · **Encumbered**"
    items = ([i.name, i.enc, i.location] for i in hero.equipment)
    lines += ["", *_table(["Equipment carried", "Enc.", "Where"], *items)]
    storage = hero.storage if hero.storage is not None else "—"
    lines += ["", f"Carried {carried} of Encumbrance {limit}{over} · Storage Space {storage}"]
    if member is not None:
        scars = ", ".join(chart.get(row, row) for row in member.chart) or "none"
        kept = ", ".join(member.conditions) or "none"
        pools = f"Luck {member.luck} · Clues {member.clues}"
        lines += ["", f"**Now:** {pools} · chart: {_cell(scars)} · conditions: {_cell(kept)}"]
    return "\n".join(lines) + "\n"


def _pairs(left: tuple[str, ...], right: tuple[str, ...]) -> list[tuple[str, str]]:
    """Two columns side by side, the shorter padded: the sheet's Advantages | Drawbacks."""
    size = max(len(left), len(right), 1)
    pad = ("",) * size
    return list(zip((*left, *pad)[:size], (*right, *pad)[:size], strict=True))
