"""The log panel on the task and combat screens: wrapped to its width (again after a
resize), following new entries at the end, staying put while the GM reads back.
"""

from __future__ import annotations

from textual.app import App, ComposeResult

from hsm_tui.table.session import LogEntry
from hsm_tui.ui.widgets.roll_log import RollLog

LONG = "with 1 re-roll(s): success 91.0% (91/100) · ★ Fortune 26.4% · ✗ Misfortune 6.9%"


def _entries(n: int) -> tuple[LogEntry, ...]:
    return tuple(LogEntry(i, "gm", f"Task {i}", (LONG,)) for i in range(1, n + 1))


class _LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield RollLog(id="log")


async def test_lines_wrap_to_the_width_and_rewrap_on_resize() -> None:
    app = _LogApp()
    async with app.run_test(size=(120, 10)) as pilot:
        log = app.query_one(RollLog)
        log.show(_entries(1))
        await pilot.pause()
        assert [s.text.rstrip() for s in log.lines] == ["#1 Task 1", "  " + LONG]
        await pilot.resize_terminal(50, 10)
        await pilot.pause()
        width = log.scrollable_content_region.width
        assert len(log.lines) == 3 and all(s.cell_length == width for s in log.lines)
        assert "".join(s.text.strip() + " " for s in log.lines[1:]).strip() == LONG


async def test_follows_new_entries_but_not_while_the_gm_reads_back() -> None:
    app = _LogApp()
    async with app.run_test(size=(120, 6)) as pilot:
        log = app.query_one(RollLog)
        log.show(_entries(5))  # 10 lines in a 6-line view
        await pilot.pause()
        assert log.scroll_offset.y == log.max_scroll_y > 0
        assert "Task 5" in log.render_line(4).text  # the newest entry is in view
        log.show(_entries(6))
        await pilot.pause()
        assert log.scroll_offset.y == log.max_scroll_y
        log.scroll_to(y=0, animate=False, immediate=True)
        await pilot.pause()
        log.show(_entries(7))
        await pilot.pause()
        assert log.scroll_offset.y == 0
        assert log.render_line(0).text.startswith("#1 Task 1")


async def test_follows_again_once_everything_fits() -> None:
    """Scrolled back, then an undo leaves less than a screenful: new entries show again
    (the combat log cannot take focus, so a keyboard GM could not scroll it back).
    """
    app = _LogApp()
    async with app.run_test(size=(120, 6)) as pilot:
        log = app.query_one(RollLog)
        log.show(_entries(5))
        await pilot.pause()
        log.scroll_to(y=0, animate=False, immediate=True)
        await pilot.pause()
        log.show(_entries(2))  # 4 lines: all fit
        await pilot.pause()
        log.show(_entries(8))
        await pilot.pause()
        assert log.scroll_offset.y == log.max_scroll_y > 0
        assert "Task 8" in log.render_line(4).text
