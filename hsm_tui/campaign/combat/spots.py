"""Spots on the way (R-ACT-2 imagination mode): the zones the engine adds between two
zones of the scene for a mover that covers only part of a band in a turn, their names,
their bands, and their going once nobody stands in them.
"""

from __future__ import annotations

from typing import NamedTuple

from ...rules import RangeBand, RulesError
from ..encounter import Encounter, evolve

ON_THE_WAY = " → "
"""In a zone's name, a spot on the way: ``ridge → ruins (short)`` is Short from ruins.
A zone the GM names may not hold the arrow (``setup.zone_name_refusal``), so a name with
it is always the engine's."""

HALFWAY = ", halfway"
"""After the band in a spot's name: a lone Move's spot, halfway along that band
(``ridge → ruins (short, halfway)``); the next Move toward ruins completes the band."""

_BANDS = {band.label: band for band in RangeBand}


class Spot(NamedTuple):
    """What a spot's name says: the zone of the scene it started from, the zone it leads
    to, its band from there, and whether a lone Move left it halfway along that band.
    """

    origin: str
    toward: str
    band: RangeBand
    halfway: bool = False

    @property
    def name(self) -> str:
        """``origin → toward (band)``, with ``, halfway`` for a lone Move's spot."""
        half = HALFWAY if self.halfway else ""
        return f"{self.origin}{ON_THE_WAY}{self.toward} ({self.band.label}{half})"


def on_the_way(zone: str) -> Spot | None:
    """The spot ``zone`` names, or None for a zone of the scene: a view shortening
    ``ruins → landing pad (medium)`` keeps where it leads, not only ``ruins``.
    """
    if ON_THE_WAY not in zone:  # most zones: no parsing
        return None
    origin, _, rest = zone.partition(ON_THE_WAY)
    toward, bracket, label = rest.rpartition(" (")
    if not bracket or not label.endswith(")"):
        return None
    label = label[:-1]
    halfway = label.endswith(HALFWAY)
    band = _BANDS.get(label.removesuffix(HALFWAY))
    return None if band is None else Spot(origin, toward, band, halfway)


def origin_of(zone: str) -> str:
    """The zone of the scene a mover set out from: a spot's next spot is named alike."""
    return zone.split(ON_THE_WAY, 1)[0]


def with_spot(
    enc: Encounter, spot: str, start: str, toward: str, nearer: RangeBand
) -> tuple[Encounter, list[str]]:
    """``enc`` with ``spot`` one band from ``start``, ``nearer`` to ``toward``, and its bands
    (nothing added if it is there already), and the log lines that place a new one.

    **Interpretation** (imagination mode has no map): the spot is Short from where the
    mover was and one band nearer ``toward``; from every other zone it is as far as the
    mover's old zone was, within what the bands to ``toward`` allow (the triangle of the
    two). The log lists them; F7 ``b`` changes any the scene says otherwise.
    """
    if spot in enc.zones:
        return enc, []
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


def with_halfway(enc: Encounter, spot: str, start: str) -> tuple[Encounter, list[str]]:
    """``enc`` with ``spot``, a lone Move's, halfway along the band from ``start`` (nothing
    added if it is there already), and the log line that places a new one.

    **Interpretation** (R-ACT-2 "consider the movement halfway through a range"): half a
    band is less than the next band, so the spot keeps ``start``'s band to every zone,
    the one it leads to included; ``start`` itself is a Move back (Melee band).
    """
    if spot in enc.zones:
        return enc, []
    kept = tuple((spot, y if x == start else x, b) for x, y, b in enc.bands if start in (x, y))
    enc = evolve(enc, zones=(*enc.zones, spot), bands=(*enc.bands, *kept))
    line = f"new zone {spot}: halfway from {start}, at its bands to every other zone"
    return enc.with_band(spot, start, RangeBand.MELEE), [line]


def vacated(enc: Encounter, zone: str) -> tuple[Encounter, tuple[str, ...]]:
    """``enc`` without ``zone`` and its bands when it is a spot on the way nobody stands
    in any more (the fallen lie where they fell: they keep it), and the log line that
    says so; a zone of the scene always stays.
    """
    if on_the_way(zone) is None or any(c.zone == zone for c in enc.combatants):
        return enc, ()
    zones = tuple(z for z in enc.zones if z != zone)
    bands = tuple(t for t in enc.bands if zone not in (t[0], t[1]))
    return evolve(enc, zones=zones, bands=bands), (f"nobody is left at {zone}: the spot goes",)


def without_spots(enc: Encounter) -> Encounter:
    """``enc``'s zones of the scene and their bands, every spot on the way gone."""
    zones = tuple(z for z in enc.zones if on_the_way(z) is None)
    bands = tuple(t for t in enc.bands if t[0] in zones and t[1] in zones)
    return evolve(enc, zones=zones, bands=bands)
