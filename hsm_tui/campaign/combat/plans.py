"""What the two cone weapons' plans share (suppressive fire, R-ATK-16; the Sonic Relik's
cone): a plan is worked out before any die rolls, with the reason the command would be
refused, so a dialog shows the refusal and the handler raises the very same one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from ...rules import RulesError


@dataclass(frozen=True, kw_only=True)
class RefusablePlan(ABC):
    """A plan's refusals; a subclass gives the ``headline`` its preview opens with."""

    refusal: str = ""  # what RulesError the command meets; "" when it may fire
    fire_refusal: str = ""  # the part of it no cone changes: weapon, charges, turn

    @property
    @abstractmethod
    def headline(self) -> str:
        """The preview's first line: the weapon and what the cone holds."""

    def check(self) -> None:
        """Raise the refusal, if any, before anything changes."""
        if self.refusal:
            raise RulesError(self.refusal)

    def refused_preview(self) -> tuple[str, ...] | None:
        """The preview of a plan that cannot fire (None when it may): why not."""
        return (self.headline, f"cannot fire: {self.refusal}") if self.refusal else None
