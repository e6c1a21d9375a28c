"""The character builder's one-line fields: how a sheet's lists are typed and shown, so
the builder fits 80×24 without a dialog per item. Reading what was typed is the screen's
job; whether the character it makes is one the rules allow is the engine's
(:func:`hsm_tui.campaign.making.check`).

- Skills: ``observation 2, lock picking 1`` (a name and its number, comma between);
  ratings set by hand the same way (``agile 8``; the others follow the convention).
- Talents, Advantages, Drawbacks: ``Pathfinder; Quick draw`` (semicolon between).
- Weapons: pack ids, ``assault-laser, dagger``.
- Equipment carried: ``Assault Laser 3 back; Rope 1 pack`` (a name, its encumbrance
  number, then where it is carried).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...packs.model import EquipmentItem


class FormError(ValueError):
    """What was typed in ``field`` cannot be read, and why (the field stays as typed)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _parts(text: str, separator: str) -> list[str]:
    return [part.strip() for part in text.split(separator) if part.strip()]


def texts_of(text: str) -> tuple[str, ...]:
    """Talents, Advantages or Drawbacks: ``a; b``."""
    return tuple(_parts(text, ";"))


def texts_text(items: Iterable[str]) -> str:
    return "; ".join(items)


def numbers_of(field: str, text: str) -> tuple[tuple[str, int], ...]:
    """Skills (``observation 2, lock picking 1``) or ratings set by hand (``agile 8``) →
    the pack's keys and numbers."""
    pairs = []
    for part in _parts(text, ","):
        name, _, number = part.rpartition(" ")
        if not name or not re.fullmatch(r"-?\d+", number):
            raise FormError(field, f"{part!r}: a name and its number, like 'stealth 2'")
        pairs.append(("-".join(name.lower().split()), int(number)))
    return tuple(pairs)


def numbers_text(pairs: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{name} {number}" for name, number in pairs)


def weapons_of(text: str) -> tuple[str, ...]:
    """Weapon ids, by comma or space."""
    return tuple(_parts(text.replace(",", " "), " "))


def equipment_of(text: str) -> tuple[EquipmentItem, ...]:
    """``Assault Laser 3 back; Rope 1 pack``: name, encumbrance number, location."""
    items = []
    for part in _parts(text, ";"):
        found = re.fullmatch(r"(.+?)\s+(-?\d+)(?:\s+(.*))?", part)
        if found is None:
            raise FormError("equipment", f"{part!r}: an item, its number, where: 'Rope 1 pack'")
        items.append(EquipmentItem(found[1], int(found[2]), found[3] or ""))
    return tuple(items)


def equipment_text(items: Iterable[EquipmentItem]) -> str:
    return "; ".join(" ".join(filter(None, (i.name, str(i.enc), i.location))) for i in items)


def number_of(field: str, text: str) -> int | None:
    """A whole number, or None when blank (the sheet's default)."""
    if not text.strip():
        return None
    if not re.fullmatch(r"\s*-?\d+\s*", text):
        raise FormError(field, f"{text.strip()!r}: a whole number, or blank")
    return int(text)
