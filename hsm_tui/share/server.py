"""The SSH server of ``hsm serve``: each player's terminal gets its own
Textual app, all on one loop beside the GM's, all over one Session.

What it lets in: connections its :class:`~hsm_tui.share.door.Door` admits, public-key
logins only (``limits.max_auth_tries`` keys a connection), a key opening the seat of the
players file entry that lists it under the user name the client logs in as; then one interactive
session with a PTY, up to ``max_seats`` at once and ``per_user`` for one user. What it
refuses: passwords and keyboard-interactive, commands (``ssh host cmd``), subsystems
(sftp, scp), every kind of forwarding (port, agent, X11, tun), a session without a PTY.
A client that drops, floods or sends junk affects its own connection only; an app that
fails is logged and closes its own connection only.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

import asyncssh
from textual.app import App

from ..table.seats import Seat
from . import algorithms
from .door import Door
from .limits import Limits
from .players import SeatEntry
from .seating import EXIT_TIMEOUT, Connection, Seating
from .terminal import ClientTerminal, bounded

__all__ = ["INTERACTIVE_ONLY", "Connection", "TableServer", "key_blob"]

log = logging.getLogger(__name__)

INTERACTIVE_ONLY = "hsm: this server only offers an interactive table; connect with `ssh -t`"
OFF = (
    "password_auth",
    "kbdint_auth",
    "host_based_auth",
    "gss_kex",
    "gss_auth",
    "agent_forwarding",
    "x11_forwarding",
    "allow_scp",
    "rdns_lookup",
)
"""asyncssh's options turned off: every way in but a key, agent and X11 forwarding, scp,
and the reverse DNS lookup of each client (a slow resolver would stall every login)."""


def key_blob(line: str) -> bytes:
    """The key inside an OpenSSH public key line (``type base64 [comment]``)."""
    return base64.b64decode(line.split()[1])


class TableServer:
    """Serves the table to the players file's seats over SSH; see the module's docstring.
    Who sits where is its :attr:`seating`'s, which a web server of the same table shares.
    """

    def __init__(
        self,
        seats: Sequence[SeatEntry],
        make_app: Callable[[Seat, Connection], App[Any]],
        host_key: asyncssh.SSHKey,
        *,
        max_seats: int = 8,
        per_user: int = 2,
        limits: Limits | None = None,
    ) -> None:
        self._host_key = host_key
        self.seating = Seating(make_app, max_seats=max_seats, per_user=per_user)
        """The seats taken (over SSH and from browsers), their limits and apps."""
        self.limits = limits or Limits()
        self.door = Door(self.limits)
        """Who may come in (the door's limits, its count of connections)."""
        self.host = ""
        self.port = 0
        self._keys: dict[str, tuple[Seat, frozenset[bytes]]] = {}
        self.seats: tuple[SeatEntry, ...] = ()
        """The seats logins are checked against (the players file's, as last set)."""
        self.set_seats(seats)
        self._listener: asyncssh.SSHAcceptor | None = None
        self._ssh: set[asyncssh.SSHServerConnection] = set()

    async def start(self, host: str = "127.0.0.1", port: int = 2222) -> None:
        """Listen on ``host`` only (port 0: any free one); :attr:`host` and :attr:`port`
        are then the bound ones.
        """
        self._listener = await asyncssh.create_server(
            lambda: _Gate(self),
            host,
            port,
            server_host_keys=[self._host_key],
            kex_algs=list(algorithms.KEX),
            encryption_algs=list(algorithms.CIPHERS),
            mac_algs=list(algorithms.MACS),
            signature_algs=list(algorithms.SIGNATURES),
            public_key_auth=True,
            **dict.fromkeys(OFF, False),
            gss_host=None,
            sftp_factory=None,
            allow_pty=True,
            line_editor=False,  # the app reads raw keys: no line editing, no echo
            encoding=None,  # bytes both ways: the driver decodes and encodes
            keepalive_interval=30,  # a vanished client is noticed within ~2 minutes
            keepalive_count_max=3,
        )
        address = self._listener.get_addresses()[0]
        self.host, self.port = str(address[0]), int(address[1])
        self.door.open()

    @property
    def connections(self) -> tuple[Connection, ...]:
        """Who is at the table now (over SSH or from a browser), in the order they came."""
        return self.seating.connections

    def on_change(self, callback: Callable[[], None]) -> Callable[[], None]:
        """See :meth:`Seating.on_change <hsm_tui.share.seating.Seating.on_change>`."""
        return self.seating.on_change(callback)

    def left_at(self, user: str) -> float | None:
        """When ``user`` last left the table (``time.time()``), None if never."""
        return self.seating.left_at(user)

    def set_seats(self, seats: Sequence[SeatEntry]) -> None:
        """Use these seats for the next logins (those at the table stay seated)."""
        self.seats = tuple(seats)
        self._keys = {e.seat.user: (e.seat, frozenset(map(key_blob, e.keys))) for e in seats}

    async def close(self, farewell: Callable[[], str] | None = None) -> None:
        """Stop listening, close the table (:meth:`Seating.close
        <hsm_tui.share.seating.Seating.close>`: every app exits, ``farewell`` runs, each
        client reads its line), then close the SSH connections.
        """
        if self._listener is not None:
            self._listener.close()
        await self.seating.close(farewell)
        for conn in list(self._ssh):
            conn.close()
        for conn in list(self._ssh):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(conn.wait_closed(), EXIT_TIMEOUT)
        if self._listener is not None:
            await self._listener.wait_closed()
            self._listener = None

    def _seat(self, user: str, key: bytes) -> Seat | None:
        """The seat ``user`` takes with ``key``, None if the key is not one of theirs."""
        seat, keys = self._keys.get(user, (None, frozenset()))
        return seat if key in keys else None


class _SessionChannel:
    """An asyncssh session channel as the seating's :class:`~hsm_tui.share.seating.Ending`:
    the four channel methods the driver uses, and an end that writes the last line on
    stderr and exits with the status."""

    def __init__(self, chan: Any) -> None:
        self._chan = chan
        self.write = chan.write
        self.get_write_buffer_size = chan.get_write_buffer_size
        self.pause_reading = chan.pause_reading
        self.resume_reading = chan.resume_reading

    def end(self, status: int, line: str = "") -> None:
        """End the session with ``line`` (on stderr) and ``status``; a closed channel is
        fine."""
        try:
            if line:
                self._chan.write_stderr(f"{line}\r\n".encode())
            self._chan.exit(status)
        except OSError:
            pass


class _Gate(asyncssh.SSHServer):
    """One SSH connection before and after login: public keys only, the user name picks
    the seat; sessions only (every forwarding request is refused by asyncssh's defaults).
    """

    def __init__(self, server: TableServer) -> None:
        self._server = server
        self._conn: asyncssh.SSHServerConnection | None = None
        self._seats: dict[str, Seat] = {}
        self._peer = "?"
        self._tries = 0
        self._asked: tuple[str, bytes] | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        host, port = conn.get_extra_info("peername", ("?", 0))[:2]
        self._peer = f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"
        if not self._server.door.admit(conn, str(host), self._peer, self._disconnect):
            conn.abort()  # before the SSH banner: as sshd past MaxStartups
            return
        self._server._ssh.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._conn is not None:
            self._server._ssh.discard(self._conn)
            self._server.door.left(self._conn)
        if isinstance(exc, asyncssh.KeyExchangeFailed):
            why = "an old client? see docs/shared-table.md#security"
            log.warning("%s refused: no algorithm in common (%s); %s", self._peer, exc.reason, why)

    def _disconnect(self, why: str) -> None:
        """The door's way to end this connection when it overstays, telling the client."""
        if self._conn is not None:
            self._conn.disconnect(asyncssh.DISC_BY_APPLICATION, why)

    def begin_auth(self, username: str) -> bool:
        return True  # always ask for a key: whether a user exists is not told

    def auth_completed(self) -> None:
        assert self._conn is not None
        self._server.door.logged_in(self._conn)

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """A key opens ``username``'s seat, if it is one of theirs and tries are left; a
        client asks about a key and then signs with it, which is one try, not two. The
        try that leaves none closes the connection (no key could open a seat after it).
        """
        asked = (username, key.public_data)
        signing = asked == self._asked  # the signed half of the try just accepted
        self._asked = None
        if not signing:
            self._tries += 1
        most = self._server.limits.max_auth_tries
        seat = self._server._seat(*asked) if self._tries <= most else None
        if seat is None:
            if self._tries >= most and self._conn is not None:
                log.info("%s: %d keys opened no seat; disconnected", self._peer, self._tries)
                self._conn.disconnect(
                    asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                    "too many authentication attempts",
                )
            return False
        self._seats[username] = seat  # kept: the players file may change meanwhile
        if not signing:
            self._asked = asked
        return True

    def session_requested(self) -> _TableSession | bool:
        assert self._conn is not None
        seat = self._seats.get(self._conn.get_extra_info("username"))
        if seat is None or not self._server.door.session_opened(self._conn):
            return False
        return _TableSession(self._server, seat, self._peer, self._conn)


class _TableSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One session channel: an interactive shell with a PTY sits at the table; anything
    else gets one line saying why not, and exit status 1.
    """

    def __init__(
        self, server: TableServer, seat: Seat, peer: str, conn: asyncssh.SSHServerConnection
    ) -> None:
        self._server = server
        self._seat = seat
        self._peer = peer
        self._conn = conn
        self._chan: Any = None
        self._term: tuple[str, tuple[int, int]] | None = None
        self._command = False
        self._terminal: ClientTerminal | None = None

    def connection_made(self, chan: Any) -> None:
        self._chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, ...], term_modes: Any) -> bool:
        self._term = (term_type, bounded(*term_size[:2]))
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._command = True  # accepted only to say why not
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        channel = _SessionChannel(self._chan)
        if self._command or self._term is None:
            channel.end(1, INTERACTIVE_ONLY)
            return
        if why := self._server.seating.refusal(self._seat):
            channel.end(1, why)
            return
        term, size = self._term
        terminal = ClientTerminal(channel, term, size, self._chan.get_environment())
        terminal.on_drop = self._conn.abort
        terminal.on_flood = lambda: self._server.door.penalise(self._conn)
        self._terminal = terminal
        self._server.seating.sit(self._seat, self._peer, terminal)

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self._terminal is not None:
            self._terminal.received(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if self._terminal is None:
            if self._term is not None:
                self._term = (self._term[0], bounded(width, height))
            return
        self._terminal.resized(width, height)

    def eof_received(self) -> bool:
        return True  # the client closed its input: the app goes on until it leaves

    def connection_lost(self, exc: Exception | None) -> None:
        self._server.door.session_closed(self._conn)
        if self._terminal is not None:
            self._terminal.lost()
