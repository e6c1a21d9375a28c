"""Short labels that keep their meaning in a narrow column: a side's tag
distinct from the other sides', a spot on the way that still says where it leads.

An ellipsis hid what told two values apart (``her…``, ``ruins…`` for ``ruins → landing
pad (medium)``); these shorten by meaning first and cut only what is left.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...campaign.combat import Spot, on_the_way
from ...rules import RangeBand

SIDE_TAG = 3
"""Letters of a side's tag wherever a column has no room for its name."""

BAND_TAG = {
    RangeBand.SHORT: "S", RangeBand.MEDIUM: "M", RangeBand.LONG: "L", RangeBand.EXTRA_LONG: "XL"
}  # fmt: skip
"""A spot's band from where it leads, in a letter or two (a spot is never at Melee)."""


def fit(name: str, width: int) -> str:
    """Shorten ``name`` to ``width``, keeping a trailing number so members of a group stay
    distinguishable (a group's ``×5`` or ``×3/5`` too: how many are left). A numbered
    (pack) name first shortens its leading words to initials,
    so types that share a first word stay apart (``C. trooper 1``, ``C. h. gunner 1``);
    then an ellipsis cuts what is left (``F. xeno-hou… 1``, ``Tamsin Reyes, v…``).
    """
    if len(name) <= width:
        return name
    head, _, tail = name.rpartition(" ")
    keep = f" {tail}" if head and tail.lstrip("×").replace("/", "", 1).isdigit() else ""
    if keep:
        words = head.split()
        for i in range(len(words) - 1):
            words[i] = f"{words[i][0]}."
            if len(" ".join(words)) + len(keep) <= width:
                return " ".join(words) + keep
        head = " ".join(words)
    else:
        head = name
    room = max(1, width - len(keep) - 1)
    return head[:room].rstrip() + "…" + keep


def side_tags(sides: Iterable[str], width: int = SIDE_TAG) -> dict[str, str]:
    """Each side's first ``width`` letters, no ellipsis; a side whose tag another side
    took already gets a number in its last place (``pir``, ``pi2``), so tags never merge.
    """
    tags: dict[str, str] = {}
    for side in dict.fromkeys(sides):
        tag, n = side[:width], 2
        while tag in tags.values():
            tag = f"{side[: width - len(str(n))]}{n}"
            n += 1
        tags[side] = tag
    return tags


def side_legend(tags: dict[str, str]) -> str:
    """``exp=expedition pir=pirates`` for a title; "" when every tag is the whole name."""
    return " ".join(f"{tag}={side}" for side, tag in tags.items() if tag != side)


def zone_text(zone: str, width: int) -> str:
    """``zone`` in ``width`` cells: a spot on the way keeps where it leads and how far
    from there (``ruins→landing pad M``, ``→landing pad M``, ``→land M``; ``M½`` for a
    lone Move's spot, halfway along that band) before the name is cut; a zone of the
    scene is cut with an ellipsis.
    """
    whole = zone_whole(zone, width)
    if whole is not None:
        return whole
    spot = on_the_way(zone)
    if spot is None:
        return fit(zone, width)
    tag = _tag(spot)
    room = max(1, width - len(tag) - 2)
    return f"→{spot.toward[:room].rstrip()} {tag}"


def zone_whole(zone: str, width: int) -> str | None:
    """``zone`` in ``width`` cells with every name in it whole: itself, or a spot on the
    way as ``ruins→ridge S`` or ``→ridge S``; None when even that is too wide.
    """
    if len(zone) <= width:
        return zone
    spot = on_the_way(zone)
    if spot is None:
        return None
    tag = _tag(spot)
    texts = (f"{spot.origin}→{spot.toward} {tag}", f"→{spot.toward} {tag}")
    return next((text for text in texts if len(text) <= width), None)


def _tag(spot: Spot) -> str:
    """A spot's band from where it leads in a letter or two, ``½`` when halfway."""
    return BAND_TAG.get(spot.band, spot.band.label) + ("½" if spot.halfway else "")
