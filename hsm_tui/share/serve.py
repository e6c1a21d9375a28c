"""``hsm serve`` (a fixed contract): one Session, one process, one asyncio
loop for the GM's own app in this terminal and an SSH server whose every connection
gets an app built for its seat (the GM's app for a ``gm`` seat, else the player's).

The order of things: the campaign and the players file are read before anything
listens (a bad one is refused with its file, line and key), the host key is made once
and its fingerprint printed, then ``listening on HOST:PORT``. On SIGINT or SIGTERM (or
when the GM quits the local app) the server closes every connection and the campaign
is saved: to its own file, or, never saved yet, to a new file in the saves folder
(said on stdout), so that stopping the server never loses the evening.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from textual.app import App

from ..persistence import store
from ..persistence.autosave import Autosaver
from ..table.seated import SeatedSession
from ..table.seats import Role, Seat
from ..table.session import Session
from .invites import Invite, InviteRefused, Invites, link
from .options import ServeError, ServeOptions
from .players import PlayersFileError, SeatEntry, add_key, read_players, write_players

if TYPE_CHECKING:
    from .server import Connection, TableServer

log = logging.getLogger(__name__)


def players_path(options: ServeOptions, session: Session) -> Path:
    """``--players``, else ``players.toml`` beside the campaign file, else in the saves
    folder."""
    if options.players:
        return Path(options.players)
    if session.file is not None:
        return session.file.parent / store.PLAYERS_FILE
    return store.saves_folder() / store.PLAYERS_FILE


def open_table(options: ServeOptions) -> tuple[Session, Path, tuple[SeatEntry, ...]]:
    """The session (its campaign loaded) and the seats: all checked before listening."""
    session = Session()
    session.load_content(options.content)
    if options.campaign is not None:
        try:
            store.load(session, store.find(options.campaign))
        except store.CampaignFileError as err:
            raise ServeError(str(err)) from None
    path = players_path(options, session)
    if not path.exists():
        raise ServeError(
            f"no players file at {path}: write one (docs/shared-table.md, 'Write the players file')"
            " or name it with --players FILE"
        )
    party = [m.entry for m in session.campaign.party] or None
    try:
        seats = read_players(path, party)
    except PlayersFileError as err:
        raise ServeError(str(err).replace("\n", "; ")) from None
    return session, path, seats


class Table:
    """What the server needs of the game (an app per seat, who missed what) and what the
    GM's seat list reads and changes (the seats, who is connected, a key added, a
    browser invite made or revoked).
    """

    server: TableServer
    """The server this game is shared through; set once it is made (it is made with
    :meth:`make_app`), before any app can ask."""

    def __init__(self, session: Session, players: Path | None = None) -> None:
        self.session = session
        self.players = players
        """The players file a key added from the GM's seat list is written to."""
        self.invites = Invites()
        """The browser invites and sessions of this table (the web server trades them)."""
        self.web_url: str | None = None
        """The public origin browsers join at, when the table is served to them."""
        self._seen: dict[str, int] = {}  # user → the last log entry they could read

    @property
    def seats(self) -> tuple[SeatEntry, ...]:
        return self.server.seats

    @property
    def connections(self) -> tuple[Connection, ...]:
        return self.server.connections

    def on_change(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self.server.on_change(callback)

    def left_at(self, user: str) -> float | None:
        return self.server.left_at(user)

    def add_key(self, user: str, role: str, hero: str, key: str) -> str:
        """Add a pasted public key (a new seat, or another key for ``user``): written to
        the players file and used for the next logins. Raises PlayersFileError."""
        if self.players is None:
            raise PlayersFileError("this table has no players file to write to")
        seats = add_key(self.seats, user, role, hero, key)
        write_players(self.players, seats)
        self.server.set_seats(seats)
        return f"{user} may log in with that key (written to {self.players})"

    def invite(self, user: str) -> Invite:
        """A browser invite for ``user``'s seat (an earlier unused one stops working).
        Raises InviteRefused when the table is not served to browsers (no link could
        open it), PlayersFileError when the players file has no such seat."""
        self._web_origin()
        self._check_seat(user)
        return self.invites.make(user)

    def link(self, invite: Invite) -> str:
        """The link that opens ``invite`` in a browser. Raises InviteRefused when the
        table is not served to browsers."""
        return link(self._web_origin(), invite)

    def revoke(self, user: str) -> int:
        """End ``user``'s browser sessions and pending invite; how many sessions ended.
        Raises PlayersFileError when the players file has no such seat."""
        self._check_seat(user)
        return self.invites.revoke(user)

    def _web_origin(self) -> str:
        if self.web_url is None:
            raise InviteRefused(
                "this table is not served to browsers: start it with hsm serve --web"
            )
        return self.web_url

    def _check_seat(self, user: str) -> None:
        """Refuse a user the players file has no seat for, naming the seats it has (the
        GM typed the name: a typo is the likely cause)."""
        if all(e.seat.user != user for e in self.seats):
            users = ", ".join(e.seat.user for e in self.seats) or "none yet"
            where = f" ({self.players})" if self.players else ""
            raise PlayersFileError(
                f"{user!r} has no seat in the players file{where}; its seats: {users}"
            )

    def make_app(self, seat: Seat, _connection: object) -> App[Any]:
        """The GM's app for a ``gm`` seat; the player's app (their view only) for others,
        told how many entries they missed since they left."""
        if seat.role is Role.GM:
            from ..ui.app import HsmApp

            app = HsmApp(self.session, seat=seat)
            app.sharing = self
            return app
        from ..ui.player.app import PlayerApp

        table = SeatedSession(self.session, seat)
        last = self._seen.get(seat.user)
        missed = 0 if last is None else sum(e.seq > last for e in table.view().log)

        def left(seq: int) -> None:
            self._seen[seat.user] = seq

        return PlayerApp(table, missed=missed, on_leave=left)


def save_on_stop(session: Session, saver: Autosaver | None = None, discard: bool = False) -> str:
    """Save the campaign as the server stops; the line to print about it. ``saver``'s
    autosave is brought up to date first and removed only once the save is written.
    ``discard``: the GM quit the local app without saving; that choice stands.
    """
    if saver is not None:
        saver.write_now()
        saver.close()
    if not session.unsaved:
        return f"saved in {session.file}" if session.file else "nothing to save"
    if discard:
        return "not saved: the GM quit without saving"
    path = session.file
    if path is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        path = store.saves_folder() / f"served-{stamp}{store.SUFFIX}"
    try:
        store.save(session, path)
    except store.CampaignFileError as err:
        return f"NOT SAVED: {err}" + (f" (autosaved in {saver.current})" if saver else "")
    if saver is not None:
        saver.saved(path)
    return f"saved to {path}"


async def serve(options: ServeOptions) -> int:
    """Run the table until stopped; see the module's docstring. Headless, SIGINT and
    SIGTERM stop it from the first moment: a signal while it starts (the campaign read,
    the port bound) still closes the table and saves."""
    stopped = _stopped_by_signals() if options.headless else None
    try:
        return await _serve(options, stopped)
    finally:
        if stopped is not None:
            _forget_signals()


async def _serve(options: ServeOptions, stopped: asyncio.Event | None) -> int:
    from .hostkey import HostKeyError, fingerprint, host_key_path, load_or_create_host_key
    from .server import TableServer
    from .web.launch import browsers_asked, serve_browsers

    web = browsers_asked(options)
    session, players, seats = open_table(options)
    try:
        key = load_or_create_host_key(host_key_path())
    except HostKeyError as err:
        raise ServeError(str(err)) from None
    table = Table(session, players)
    server = table.server = TableServer(
        seats, table.make_app, key, max_seats=options.max_seats, limits=options.limits
    )
    try:
        await server.start(options.host, options.port)
    except OSError as err:
        raise ServeError(f"cannot listen on {options.host}:{options.port}: {err}") from None
    print(f"host key fingerprint {fingerprint(key)}", flush=True)
    print(f"players file {players} ({len(seats)} seat(s))", flush=True)
    print(f"listening on {server.host}:{server.port}", flush=True)
    browsers = None
    if web is not None:
        try:
            browsers = await serve_browsers(
                options, server.seating, lambda: table.seats, table.invites, web, server.door
            )
        except ServeError:
            await server.close()
            raise
        table.web_url = browsers.origin
    saver = autosaver(session) if options.headless else None
    discard = False
    said: list[str] = []

    def farewell() -> str:
        """Save once every app has stopped; what the players read as the table closes."""
        said.append(save_on_stop(session, saver, discard))
        kept = "the campaign is saved" if not session.unsaved else "the campaign was not saved"
        return f"The GM closed the table: {kept}."

    try:
        if stopped is not None:
            await stopped.wait()
        else:
            discard = await _local_app(session, table)
    finally:
        await server.close(farewell)  # every seat, SSH's and browsers', ends here
        if browsers is not None:
            await browsers.close()
        # each app swapped sys.stdout while it ran; overlapping apps restore out of order
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        print(*said, flush=True)
    return 0


class Headless:
    """The autosave's host with no app of the GM's here: timers on the server's loop,
    its messages to stderr and the log (the GM's SSH seat may be away).
    """

    def __init__(self, session: Session, loop: asyncio.AbstractEventLoop) -> None:
        self.session = session
        self.loop = loop

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Any:
        return SimpleNamespace(stop=self.loop.call_later(delay, callback).cancel)

    def notify(self, message: str, *, title: str = "", severity: str = "information") -> None:
        log.warning("%s: %s", title, message)
        print(f"hsm: {title.lower() or severity}: {message}", file=sys.stderr, flush=True)

    def call_from_thread(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        self.loop.call_soon_threadsafe(partial(callback, *args, **kwargs))


def autosaver(session: Session) -> Autosaver:
    """With no app of the GM's here (``--headless``), the server autosaves the session
    as the GM's app would: a crash or a kill loses a second of play at most.
    """
    saver = Autosaver(Headless(session, asyncio.get_running_loop()))
    session.subscribe(saver.changed)
    return saver


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _stopped_by_signals() -> asyncio.Event:
    """An event SIGINT or SIGTERM sets, from now on."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    return stop


def _forget_signals() -> None:
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.remove_signal_handler(sig)


async def _local_app(session: Session, table: Table) -> bool:
    """The GM's own app in this terminal; the GM hears who comes and goes. Whether the
    GM quit it leaving changes unsaved (the quit dialog's "quit without saving")."""
    from ..ui.app import UNSAVED, HsmApp, release

    app = HsmApp(session, guard=True)  # autosave and the campaign's lock, as hsm play
    app.sharing = table
    unsubscribe = announce_comings(app, table)
    try:
        await app.run_async()
    finally:
        unsubscribe()
        release(app)
    return app.return_value == UNSAVED


def announce_comings(app: App[Any], table: Table) -> Callable[[], None]:
    """Tell the GM's ``app`` who joins and who leaves the table; returns the unsubscribe.
    The server calls from the connection's own context: this only schedules the notice
    on the GM's app (a connection's resize changes nothing here).
    """
    seen: dict[int, Connection] = {c.id: c for c in table.connections}

    def announce() -> None:
        now = {c.id: c for c in table.connections}
        for cid in now.keys() - seen.keys():
            app.notify(f"{now[cid].seat.user} joined ({now[cid].seat.role})", title="Table")
        for cid in seen.keys() - now.keys():
            app.notify(f"{seen[cid].seat.user} left the table", title="Table")
        seen.clear()
        seen.update(now)

    return table.on_change(lambda: app.call_later(announce))


def run_serve(options: ServeOptions) -> int:
    """``hsm serve``: exit 2 with one ``hsm: error:`` line when it cannot start. What
    goes wrong with a connection is logged to ``serve.log`` in the config folder: the
    terminal belongs to the GM's app, and a client never sees a traceback.
    """
    from .hostkey import private_config_dir
    from .servelog import log_to

    folder, notes = private_config_dir()
    notes += log_to(folder) if folder.is_dir() else []
    for note in notes:
        log.warning("%s", note)
        print(f"hsm: warning: {note}", file=sys.stderr)
    from ..forecast import fight_pool

    fight_pool.before_apps()  # while stderr is still the terminal's (the apps take it)
    try:
        return asyncio.run(serve(options))
    except ServeError as err:
        print(f"hsm: error: {err}", file=sys.stderr)
        return 2
    finally:
        fight_pool.stop()
