"""The SSH channel driver's parts that need no network: sizes bounded, colours from the
client's TERM, one channel write per frame, a stalled client dropped, early input kept.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import time

import pytest
from rich.color import ColorSystem
from textual import events
from textual.app import App, ComposeResult
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input

from hsm_tui.share import pacing
from hsm_tui.share.driver import FEED_SLICE, MAX_BACKLOG, ChannelDriver, color_system
from hsm_tui.share.pacing import KEY_SHARE, MAX_EVENTS_PER_SECOND, MAX_HELD, RESIZE_SHARE
from hsm_tui.share.terminal import MAX_EARLY_INPUT, ClientTerminal, bounded


class FakeChannel:
    def __init__(self, backlog: int = 0) -> None:
        self.writes: list[bytes] = []
        self.backlog = backlog
        self.paused = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def get_write_buffer_size(self) -> int:
        return self.backlog

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False


def posted(app: App) -> list[Message]:
    """What the driver has put in the (not running) app's queue."""
    queue = app._message_queue
    return [queue.get_nowait() for _ in range(queue.qsize())]


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        ((80, 24), (80, 24)),
        ((0, 0), (20, 10)),
        ((10_000, 10_000), (500, 200)),
        ((500, 9), (500, 10)),
    ],
)
def test_a_client_terminal_size_is_bounded(size, expected):
    assert bounded(*size) == expected


@pytest.mark.parametrize(
    ("term", "env", "expected"),
    [
        ("xterm-256color", {}, ColorSystem.EIGHT_BIT),
        ("screen-256color", {}, ColorSystem.EIGHT_BIT),
        ("xterm-kitty", {}, ColorSystem.EIGHT_BIT),
        ("xterm-direct", {}, ColorSystem.TRUECOLOR),
        ("st-truecolor", {}, ColorSystem.TRUECOLOR),
        ("xterm-256color", {"COLORTERM": "truecolor"}, ColorSystem.TRUECOLOR),
        ("xterm", {"COLORTERM": "24bit"}, ColorSystem.TRUECOLOR),
        ("xterm", {}, ColorSystem.STANDARD),
        ("vt100", {}, ColorSystem.STANDARD),
        ("dumb", {}, ColorSystem.STANDARD),
        ("", {}, ColorSystem.STANDARD),
    ],
)
def test_colours_follow_the_client_term(term, env, expected):
    assert color_system(term, env) == expected


async def test_output_goes_out_in_one_write_per_flush():
    channel = FakeChannel()
    driver = ChannelDriver.bound_to(ClientTerminal(channel, "xterm", (80, 24)))(App())
    driver.flush()
    driver.write("\x1b[1;1H")
    driver.write("é")
    assert channel.writes == []
    driver.flush()
    driver.flush()
    assert channel.writes == ["\x1b[1;1Hé".encode()]


async def test_a_client_that_stops_reading_is_dropped_once():
    channel = FakeChannel(backlog=MAX_BACKLOG + 1)
    terminal = ClientTerminal(channel, "xterm", (80, 24))
    drops: list[int] = []
    terminal.on_drop = lambda: drops.append(1)
    driver = ChannelDriver.bound_to(terminal)(App())
    driver.write("frame")
    driver.flush()
    driver.write("another")
    driver.flush()
    assert drops == [1] and terminal.closed
    assert channel.writes == [b"frame"]


def test_input_before_the_driver_is_kept_up_to_a_bound():
    terminal = ClientTerminal(FakeChannel(), "xterm", (80, 24))
    terminal.received(b"ab")
    terminal.received(b"x" * MAX_EARLY_INPUT)
    terminal.received(b"c")
    assert terminal.attach(None) == b"abc"  # type: ignore[arg-type]
    terminal.resized(7, 7)
    assert terminal.size == (20, 10)


async def test_input_held_while_paused_is_taken_when_reading_resumes():
    """asyncssh hands over the input it held from inside ``resume_reading``, which the
    driver calls in the app's context: the driver must not enter that context twice.
    """
    app = App()
    driver = ChannelDriver.bound_to(ClientTerminal(FakeChannel(), "xterm", (80, 24)))(app)
    driver.start_application_mode()
    driver._in_context(driver.receive, b"x")
    assert [m.key for m in posted(app) if isinstance(m, events.Key)] == ["x"]


async def test_no_file_or_browser_opens_on_the_server(tmp_path, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", opened.append)
    app = App()
    driver = ChannelDriver.bound_to(ClientTerminal(FakeChannel(), "xterm", (80, 24)))(app)
    target = tmp_path / "notes.md"
    driver.deliver_binary(io.BytesIO(b"secret"), delivery_key="k", save_path=target, name="n")
    driver.open_url("https://example.org")
    [failed] = posted(app)
    assert isinstance(failed, events.DeliveryFailed) and failed.key == "k"
    assert not target.exists() and opened == []


async def test_a_key_flood_is_cut_to_the_budget_and_paused():
    channel = FakeChannel()
    app = App()
    driver = ChannelDriver.bound_to(ClientTerminal(channel, "xterm", (80, 24)))(app)
    driver.start_application_mode()
    driver.receive(b"a" * (MAX_EVENTS_PER_SECOND + 500) * 10)
    assert channel.paused
    keys = []
    while driver._unparsed:
        await asyncio.sleep(0)
        keys += [m for m in posted(app) if isinstance(m, events.Key)]
    keys += [m for m in [*posted(app), *driver._held] if isinstance(m, events.Key)]
    assert len(keys) == MAX_EVENTS_PER_SECOND  # the rest dropped, most of it unparsed
    assert len(driver._held) == MAX_HELD - 1  # one handed on, the rest wait their turn
    assert channel.paused
    driver.disable_input()


async def test_a_client_that_types_flat_out_is_dropped(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(pacing, "FLOOD_SECONDS", 2)
    channel = FakeChannel()
    terminal = ClientTerminal(channel, "xterm", (80, 24))
    flooded: list[bool] = []
    terminal.on_flood = lambda: flooded.append(True)
    driver = ChannelDriver.bound_to(terminal)(App())
    driver.start_application_mode()
    end = asyncio.get_running_loop().time() + 5
    while not terminal.closed and asyncio.get_running_loop().time() < end:
        if not channel.paused:  # SSH flow control: a paused channel reads nothing
            driver.receive(b"a" * 1000)
        await asyncio.sleep(0.01)
    assert terminal.closed and flooded == [True]
    driver.disable_input()


class _Slow(App[None]):
    """Each key costs the loop :data:`COST` seconds of CPU (a screen opened, say)."""

    COST = 0.01

    def on_mount(self) -> None:
        self.keys: list[float] = []

    def on_key(self) -> None:
        self.keys.append(time.monotonic())
        start = time.thread_time()
        while time.thread_time() - start < self.COST:
            pass


async def test_a_seats_keys_wait_in_proportion_to_what_they_cost():
    """Keys that each take the loop 10 ms come :data:`KEY_SHARE` times that apart: a
    flooding seat takes a share of the loop, whatever its keys cost."""
    app = _Slow()
    async with app.run_test() as pilot:
        await pilot.pause()
        driver = ChannelDriver.bound_to(ClientTerminal(FakeChannel(), "xterm", (80, 24)))(app)
        driver._input = True
        driver.receive(b"abcdef")
        for _ in range(200):
            await pilot.pause(0.01)
            if len(app.keys) == 6:
                break
        gaps = [b - a for a, b in itertools.pairwise(app.keys)]
        assert len(app.keys) == 6 and min(gaps) >= KEY_SHARE * _Slow.COST * 0.95


class _SlowLayout(App[None]):
    """Each new size costs the loop :data:`COST` seconds of CPU (a big screen's re-layout)."""

    COST = 0.01

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[tuple[float, tuple[int, int]]] = []

    def on_resize(self, event: events.Resize) -> None:
        self.sizes.append((time.monotonic(), tuple(event.size)))
        start = time.thread_time()
        while time.thread_time() - start < self.COST:
            pass


async def test_a_seats_new_sizes_wait_in_proportion_to_their_re_layout():
    """Sizes handed on while the last re-layout's share runs wait, one at most, and it goes
    as the client's size is then: a client sending window changes just under the rate
    that drops it takes a fiftieth of the loop, however big its screen."""
    app = _SlowLayout()
    async with app.run_test() as pilot:
        await pilot.pause()
        terminal = ClientTerminal(FakeChannel(), "xterm", (80, 24))
        driver = ChannelDriver.bound_to(terminal)(app)
        driver._input = True
        before = len(app.sizes)
        for cols in range(100, 110):  # ten window changes in one go: the first goes at once
            terminal.size = (cols, 30)
            driver.resize()
            await pilot.pause()
        for _ in range(200):
            await pilot.pause(0.01)
            if app.sizes[-1][1] == (109, 30):
                break
        times, sizes = zip(*app.sizes[before:], strict=True)
        assert sizes == ((100, 30), (109, 30))  # the first, then the last: none between
        assert times[1] - times[0] >= RESIZE_SHARE * _SlowLayout.COST * 0.95


async def test_a_flood_is_parsed_a_slice_per_turn_of_the_loop():
    """Whatever one read holds, the loop turns (and other seats draw their frames) after
    each :data:`FEED_SLICE` characters parsed."""
    app = App()
    driver = ChannelDriver.bound_to(ClientTerminal(FakeChannel(), "xterm", (80, 24)))(app)
    driver.start_application_mode()
    turns: list[int] = []

    async def another_seat() -> None:
        while driver._unparsed or not turns:
            turns.append(len(driver._unparsed))
            await asyncio.sleep(0)

    seat = asyncio.create_task(another_seat())
    await asyncio.sleep(0)
    driver.receive(b"\x1b[1;5A" * 150)  # 900 characters, 150 ctrl+up: four slices
    parsed = len([m for m in posted(app) if isinstance(m, events.Key)])
    assert parsed <= FEED_SLICE  # the first slice now, not the whole read
    await seat
    left = sorted({n for n in turns if n}, reverse=True)
    assert len(left) >= 3  # another task ran between the slices
    driver.disable_input()


class _Field(ModalScreen[None]):
    BINDINGS = [("ctrl+u", "clear", "clear the field")]

    def compose(self) -> ComposeResult:
        yield Input()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_clear(self) -> None:
        self.query_one(Input).value = ""


class _Typing(App[None]):
    submitted: list[str]

    def on_mount(self) -> None:
        self.submitted = []
        self.push_screen(_Field(), self.submitted.append)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        (b"abc\r", "abc"),
        (b"ab\x7f\x7fxy\r", "xy"),  # Backspace is Input's binding: it bubbles to the app
        (b"old\x15new\r", "new"),  # ctrl+u: the screen's binding
        (b"k\xc3\xa4\x7fe\r", "ke"),  # a two-byte character, then Backspace
    ],
)
async def test_keys_in_one_read_act_in_the_order_typed(typed, expected):
    """A burst over SSH comes as one read; a binding key in it acts before the
    characters typed after it (Textual would otherwise insert those first).
    """
    app = _Typing()
    async with app.run_test() as pilot:
        await pilot.pause()
        driver = ChannelDriver.bound_to(ClientTerminal(FakeChannel(), "xterm", (80, 24)))(app)
        driver._input = True
        driver.receive(typed)
        for _ in range(50):
            await pilot.pause(0.01)
            if app.submitted:
                break
        assert app.submitted == [expected]
