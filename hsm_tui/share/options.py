"""What ``hsm serve`` was asked for, and why it cannot start: read by the SSH side and
by the browsers' side alike."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .limits import Limits


class ServeError(Exception):
    """Why ``hsm serve`` cannot start, in one line for ``hsm: error:``."""


@dataclass(frozen=True)
class ServeOptions:
    """The command line's options (see ``hsm serve --help``)."""

    campaign: str | None = None
    host: str = "127.0.0.1"
    port: int = 2222
    players: str | None = None
    headless: bool = False
    max_seats: int = 8
    content: Sequence[str] = ()
    limits: Limits = field(default_factory=Limits)
    web: tuple[str, int] | None = None
    """``--web``: the address browsers are served on; None: SSH only."""
    web_public_url: str | None = None
    web_cert: str | None = None
    web_key: str | None = None
