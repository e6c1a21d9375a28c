"""Words at the table: a player's line to everyone or whisper to the GM, the GM's line to
everyone or whisper to one seat. A player's text is untrusted: it is made one plain line
(no control or format character, so neither the log's secret marks nor a terminal escape
sequence nor a bidirectional override reaches another seat's screen or an export),
bounded in length, and a seat's talk is bounded against the game itself: at most
:data:`MAX_IN_A_ROW` of the last :data:`WINDOW` log entries are one seat's words (the
rule needs no clock, so a replay refuses what the table refused).
"""

from __future__ import annotations

from ..rules import RulesError
from .logbook import LINE_BREAKING, one_line
from .state import GM, LogEntry
from .visibility import GM_ONLY, PUBLIC, SHOWN_TO

MAX_SAID = 200
"""Characters a line may hold."""
WINDOW = 8
MAX_IN_A_ROW = 5
"""Of the last :data:`WINDOW` log entries, at most this many may be one seat's words."""

_DROPPED = LINE_BREAKING | {"Cf", "Co", "Cs"}
"""Besides what breaks a line: format (bidi overrides, zero-width joiners), private-use and
surrogate characters; none of a player's reaches another seat."""


def spoken(text: str) -> str:
    """``text`` as one plain line, or RulesError why it cannot be said."""
    line = " ".join(one_line(text, _DROPPED).split())
    if not line:
        raise RulesError("nothing to say")
    if len(line) > MAX_SAID:
        raise RulesError(f"say it in {MAX_SAID} characters or fewer (this is {len(line)})")
    return line


def talk_title(speaker: str, to: str, line: str) -> str:
    """The log entry's title: who speaks, to whom, and the words."""
    if not to:
        return f"{speaker} to the table: {line}"
    whom = "the GM" if to == GM else to.partition(":")[2] or to
    return f"{speaker} whispers to {whom}: {line}"


def heard_by(issuer: str, to: str) -> str:
    """The visibility of words from ``issuer`` to ``to``: everyone's, or a whisper the GM
    and its one player read (the speaker's seat, or the seat the GM whispers to)."""
    if not to:
        return PUBLIC
    return f"{GM_ONLY}{SHOWN_TO}{to if issuer == GM else issuer}"


def too_chatty(log: tuple[LogEntry, ...], issuer: str, speaker: str) -> bool:
    """Whether ``issuer`` (who speaks as ``speaker``) has said enough for now: the game
    moves on first."""
    said = (f"{speaker} to the table: ", f"{speaker} whispers to ")
    recent = log[-WINDOW:]
    return sum(e.issuer == issuer and e.title.startswith(said) for e in recent) >= MAX_IN_A_ROW
