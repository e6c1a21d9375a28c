"""A Textual app on one SSH client's terminal: :class:`ChannelDriver` writes
the app's frames to an asyncssh channel and turns the bytes the client types into
Textual events. Many apps share the server's one loop, so the driver has no thread, no
signal handler and no tty, and nothing it does can reach the process's own terminal.
"""

from __future__ import annotations

import contextvars
import io
import logging
import time
from codecs import getincrementaldecoder
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from rich.color import ColorSystem
from rich.console import Console
from textual import constants, events, messages
from textual._xterm_parser import XTermParser
from textual.app import App
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from .pacing import Pacing
from .terminal import ClientTerminal

log = logging.getLogger(__name__)

MAX_BACKLOG = 4 << 20
"""Bytes a client may leave unread on its channel before it is dropped (a stalled
client would otherwise hold every frame since it stopped in the server's memory)."""

MAX_SILENT_INPUT = 256 << 10
"""Characters the parser may swallow without an event (an endless bracketed paste)
before it is started afresh: what it holds meanwhile is server memory."""

FEED_SLICE = 256
"""Characters parsed in one turn of the loop. Textual's parser takes some 15 µs a character,
so a 32 KB read typed flat out would hold every seat's frames for half a second; the rest
waits for the next turn, the client's input paused meanwhile, and once this second's
budget is spent it is dropped unparsed."""

START = (
    "\x1b[?1049h",  # alternate screen
    "\x1b[?25l",  # hide the cursor
    "\x1b[?1004h",  # focus in / out reports
)
"""What Textual's Linux driver sends to enter application mode, in its order (the
mouse, the Kitty keyboard flags and the later queries are added by the driver)."""

AFTER_START = ("\x1b[?2026$p", "\x1b[?2004h", "\x1b[?7l")
"""Ask whether synchronized output is supported, bracketed paste on, line wrap off."""

STOP = ("\x1b[?2004l", "\x1b[?7h")
"""Bracketed paste off, line wrap on: the first half of leaving application mode."""

LEAVE = ("\x1b[<u", "\x1b[?1049l", "\x1b[?25h", "\x1b[?1004l")
"""Kitty keys off (before leaving the alternate screen), main screen, cursor, no focus
reports: the client's terminal as it was."""

MOUSE_ON = ("\x1b[?1000h", "\x1b[?1003h", "\x1b[?1015h", "\x1b[?1006h")
MOUSE_OFF = ("\x1b[?1000l", "\x1b[?1003l", "\x1b[?1015l", "\x1b[?1006l")

KITTY_FLAGS = 0b1 | 0b1000 | 0b10000
"""Disambiguate escape codes, report all keys, report their text (as Textual asks)."""


def color_system(term: str, env: Mapping[str, str] | None = None) -> ColorSystem:
    """The colours a client's terminal shows, from its TERM (sent with the PTY request)
    and a COLORTERM it chose to send: Rich's rule for the local terminal, except that a
    terminal claiming no colours (``dumb``) gets the 16 standard ones, since Textual
    reads "no colour system" as truecolor.
    """
    if (env or {}).get("COLORTERM", "").strip().lower() in ("truecolor", "24bit"):
        return ColorSystem.TRUECOLOR
    colors = term.strip().lower().rpartition("-")[2]
    if colors in ("truecolor", "direct", "24bit"):
        return ColorSystem.TRUECOLOR
    if colors in ("256color", "kitty"):
        return ColorSystem.EIGHT_BIT
    return ColorSystem.STANDARD


class ChannelDriver(Pacing, Driver):
    """Textual's driver for one SSH client: output buffered per frame and written to the
    channel on flush, input decoded incrementally as UTF-8 and parsed by Textual's own
    xterm parser, a lone Esc released by a timer, the size from the PTY request and the
    window-change requests only. Built per connection by :meth:`bound_to`, since Textual
    constructs the driver itself from ``App.driver_class``.
    """

    terminal: ClassVar[ClientTerminal]

    @classmethod
    def bound_to(cls, terminal: ClientTerminal) -> type[ChannelDriver]:
        """A driver class for ``terminal``'s app (its ``driver_class``)."""
        return type(cls.__name__, (cls,), {"terminal": terminal})

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=self.terminal.size)
        self._context = contextvars.copy_context()
        """The app's own context (its active app): input, timers and exits run in it
        (by :meth:`_in_context`), whichever context asyncssh calls back from."""
        self._entered = False
        self._parser = XTermParser()  # never debug: that writes keys.log in the cwd
        self._decode = getincrementaldecoder("utf-8")(errors="replace").decode
        self._out: list[str] = []
        self._silent = 0
        self._unparsed = ""
        self._input = False
        self._esc_timer: Any = None
        self._start_pacing()

    def write(self, data: str) -> None:
        self._out.append(data)

    def flush(self) -> None:
        """One channel write for everything written since the last flush; a client
        that leaves more than :data:`MAX_BACKLOG` unread is dropped.
        """
        if not self._out:
            return
        data = "".join(self._out).encode("utf-8", "replace")
        self._out.clear()
        if self._key_cpu is not None:
            self._drawn_cpu = time.thread_time()
        terminal = self.terminal
        if terminal.closed:
            return
        try:
            terminal.channel.write(data)
            backlog = terminal.channel.get_write_buffer_size()
        except OSError:  # closed under us: connection_lost follows
            terminal.lost()
            return
        if backlog > MAX_BACKLOG:
            log.warning("dropping a client that left %d bytes unread", backlog)
            terminal.dropped()

    def start_application_mode(self) -> None:
        self._send_size()
        write = self.write
        for sequence in START:
            write(sequence)
        if self._mouse:
            for sequence in MOUSE_ON:
                write(sequence)
        if not constants.DISABLE_KITTY_KEY:
            write(f"\x1b[>{KITTY_FLAGS}u")
        if self.terminal.env.get("TERM_PROGRAM") == "Apple_Terminal":
            write(AFTER_START[1] + AFTER_START[2])  # it prints the query's final "p"
        else:
            write("".join(AFTER_START))
        self.flush()
        self._input = True
        early = self.terminal.attach(self)
        if self.terminal.quitting:
            self.quit()
        elif early:
            self.receive(early)

    def disable_input(self) -> None:
        self._input = False
        for timer in (self._esc_timer, self._release_due):
            if timer is not None:
                timer.cancel()
        self._esc_timer = self._release_due = None
        if self.terminal.driver is self:
            self.terminal.driver = None

    def stop_application_mode(self) -> None:
        for sequence in STOP:
            self.write(sequence)
        if self._mouse:
            for sequence in MOUSE_OFF:
                self.write(sequence)
        self.disable_input()
        for sequence in LEAVE:
            self.write(sequence)
        self.flush()

    def send_message(self, message: Message) -> None:
        """Straight into the app's queue: the same thread, no coroutine per key."""
        self._app.post_message(message)

    def process_message(self, message: Message) -> None:
        """A parsed event, unless it claims a size: only the SSH window-change request
        sets the size (bounded), never bytes the client types.
        """
        if isinstance(message, events.Resize | messages.InBandWindowResize):
            return
        super().process_message(message)

    def receive(self, data: bytes) -> None:
        """Bytes from the client, parsed in the app's context, a slice a turn."""
        text = self._decode(data)
        if self._input and text:  # "" is half a character; fed, it would mean EOF
            waiting, self._unparsed = self._unparsed, self._unparsed + text
            if not waiting:  # else a slice is already on its way
                self._in_context(self._feed_slice)

    def _feed_slice(self) -> None:
        """Parse the next :data:`FEED_SLICE` characters; the rest in a later turn of the
        loop, so one client's flood delays no other seat's frame by more than a slice."""
        text, self._unparsed = self._unparsed[:FEED_SLICE], self._unparsed[FEED_SLICE:]
        self._feed(text)
        if not self._input or self._budget == 0:
            self._unparsed = ""  # past the budget: the rest of the read is dropped
        elif self._unparsed:
            self._loop.call_soon(self._in_context, self._feed_slice)

    def resize(self) -> None:
        """The client's new size takes its turn among the held events (one waits at most,
        read when it goes): a re-layout is paced by its cost, as a key is."""
        self._in_context(self._hold_size)

    def quit(self) -> None:
        self._in_context(self._app.exit)

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Never on the server: a browser would open on the GM's machine."""
        log.info("not opening %s for an SSH client", url)

    def deliver_binary(self, binary: Any, *, delivery_key: str, **options: Any) -> None:
        """Never on the server: the file would land on the GM's disk, not the client's."""
        binary.close()
        refused = OSError("an SSH client cannot receive files")
        name = options.get("name")
        self.send_message(events.DeliveryFailed(delivery_key, exception=refused, name=name))

    def _in_context(self, function: Callable[..., object], *args: Any) -> None:
        """Call ``function`` in the app's context; already in it (asyncssh delivers
        held input synchronously when reading resumes), just call it.
        """
        if self._entered:
            function(*args)
            return
        self._entered = True
        try:
            self._context.run(function, *args)
        finally:
            self._entered = False

    def _send_size(self) -> None:
        self._size = self.terminal.size
        size = Size(*self._size)
        self.send_message(events.Resize(size, size))

    def _feed(self, text: str) -> None:
        """Parse ``text``; a parser that fails on junk, or swallows too much without an
        event, is started afresh (what it held is lost, the connection goes on).
        """
        self._refill()
        try:
            for event in self._parser.feed(text):
                self._post(event)
        except Exception:
            log.debug("input the parser could not take; parser reset", exc_info=True)
            self._parser = XTermParser()
        else:
            self._silent += len(text)
            if self._silent > MAX_SILENT_INPUT:
                self._parser, self._silent = XTermParser(), 0
        self._arm_escape_timer()
        self._throttle()

    def _arm_escape_timer(self) -> None:
        """A lone Esc waits in the parser for what may follow; release it once the
        escape delay has passed with nothing more (the Linux driver polls for this).
        """
        if self._esc_timer is not None:
            self._esc_timer.cancel()
        delay = constants.ESCAPE_DELAY + 0.01
        self._esc_timer = self._loop.call_later(delay, self._in_context, self._tick)

    def _tick(self) -> None:
        self._esc_timer = None
        try:
            for event in self._parser.tick():
                self._post(event)
        except Exception:
            log.debug("escape timeout the parser could not take", exc_info=True)
            self._parser = XTermParser()


async def run_app(app: App[Any], terminal: ClientTerminal, *, mouse: bool = False) -> int:
    """Run ``app`` on ``terminal`` until it exits or the client leaves; its return code.

    Its colours follow the client's TERM: the app's Console is built at ``App()`` from
    the server's own environment, so the colour system is set on it here (Textual reads
    the same ``_color_system`` attribute when it renders). An error inside the app is
    logged for the GM, never shown to the client (Textual's traceback shows locals,
    which may hold what a player must not see) nor printed on the server's terminal.
    Keyboard-driven by default (``mouse=False``): no mouse reports cross the network.
    """
    app.driver_class = ChannelDriver.bound_to(terminal)
    app.console._color_system = color_system(terminal.term, terminal.env)
    app.error_console = _ERRORS
    if terminal.closed:
        return 0
    await app.run_async(mouse=mouse)
    return app.return_code or 0


class _ErrorLog(io.TextIOBase):
    """Where a seat's app prints its error as it exits: the log (Rich writes each
    printed renderable in one call)."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if report := text.strip():
            log.error("an SSH client's app failed:\n%s", report)
        return len(text)


_ERRORS = Console(file=_ErrorLog(), width=100, color_system=None, markup=False)
"""Every seat's app's error console: one for the process (a Console per seat cost ~26 KiB
of each seat's memory), printed to only as an app exits on an error, which it does at
once, with no other app running in between."""
