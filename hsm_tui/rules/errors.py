"""Specific errors the rules engine raises; every one is a ``ValueError``.

Callers (CLI, screens, pack loader) catch :class:`RulesError` and show its message;
nothing in the engine raises anything else for bad input.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class: an input the rules cannot accept."""


class DiceSyntaxError(RulesError):
    """A dice expression that does not parse.

    ``position`` is the 0-based index of the offending character so that a message can
    point at it (``2d6+*3`` → ``^`` under ``*``).
    """

    def __init__(self, expression: str, position: int, reason: str) -> None:
        self.expression = expression
        self.position = position
        self.reason = reason
        pointer = " " * position + "^"
        super().__init__(
            f"{reason} at position {position + 1} in {expression!r}\n  {expression}\n  {pointer}"
        )

    def __reduce__(self) -> tuple[type, tuple[str, int, str]]:
        """Rebuilt from its three parts, as a forecast's worker process hands it back."""
        return type(self), (self.expression, self.position, self.reason)

    @property
    def short(self) -> str:
        """One-line form for places that cannot show the pointer (CLI, notifications)."""
        shown = self.expression if len(self.expression) <= 60 else self.expression[:57] + "…"
        return f"{self.reason} at position {self.position + 1} in {shown!r}"


class UnknownTraitError(RulesError):
    """An expression names a trait the roller has no value for."""


class DecisionPending(RulesError):
    """A command refused because a decision waits for its answer first: a view says where
    that question is answered (it may have been asked on another screen).
    """


class QuestionGone(RulesError):
    """An answer to a question that no longer waits: a dialog outlived its question."""


class NotPermitted(RulesError):
    """A command from someone who may not issue it (opening or replacing a campaign is
    the GM's alone): refused whatever the state of the game.
    """
