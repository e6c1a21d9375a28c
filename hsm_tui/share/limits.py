"""How much of the server one client, or all of them together, may take: OpenSSH's sshd
limits (their names in brackets), each a flag of ``hsm serve`` with the same default.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """The limits a :class:`~hsm_tui.share.server.TableServer` holds every client to."""

    max_auth_tries: int = 6
    """Keys one connection may offer (``MaxAuthTries``): a player's public key is public,
    so unlimited tries would let anyone confirm user names at full speed."""
