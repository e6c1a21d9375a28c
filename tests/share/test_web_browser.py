"""The page in a real browser (headless Chromium, driven over the DevTools protocol):
opened from an invite link, it trades the invite, draws the player's table in xterm.js,
and a key typed on the page, or tapped on its on-screen row, reaches the player's app;
at a phone's width it keeps 80 columns; after leaving, Rejoin sits down again; without
a link or cookie it asks for the code.

Skipped where no Chromium is installed (``apt-get install chromium``).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import shutil
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from hsm_tui.share.invites import link
from hsm_tui.share.web import server as web_server
from hsm_tui.share.web.browser import LEFT

from .conftest import fight, until

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium here to open the page in")

SCREEN = """term === null ? "" : Array.from({length: term.rows},
    (_, row) => term.buffer.active.getLine(row).translateToString(true)).join("\\n")"""
"""The text xterm.js shows (``term`` is hsm.js's terminal); WebGL draws it, so it is not
in the DOM's rows."""


class DevTools:
    """One page of the browser, over its DevTools WebSocket: commands and their answers
    (the events the page sends between them are not needed here)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self._ids = itertools.count(1)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        sent = next(self._ids)
        await self.ws.send_json({"id": sent, "method": method, "params": params})
        async for message in self.ws:
            answer = json.loads(message.data)
            if answer.get("id") == sent:
                assert "error" not in answer, answer["error"]
                return answer["result"]
        raise AssertionError(f"the browser closed before answering {method}")

    async def value(self, expression: str) -> Any:
        """What ``expression`` gives in the page."""
        answer = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return answer["result"].get("value")

    async def screen(self) -> str:
        return str(await self.value(SCREEN) or "")

    async def until(self, expression: str, what: str) -> None:
        """Wait until ``expression`` holds in the page; fail saying ``what`` did not."""
        for _ in range(200):
            if await self.value(expression):
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"{what}; the terminal shows:\n{await self.screen()}")

    async def shows(self, text: str) -> None:
        """Wait until the terminal in the page shows ``text``."""
        await self.until(f"({SCREEN}).includes({json.dumps(text)})", f"no {text!r}")

    async def press(self, key: str) -> None:
        """A key typed on the page's keyboard, as Chromium hands it to xterm.js."""
        code = f"Key{key.upper()}"
        down = {"key": key, "code": code, "text": key, "windowsVirtualKeyCode": ord(key.upper())}
        await self.call("Input.dispatchKeyEvent", type="keyDown", **down)
        await self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code)


@pytest.fixture
async def chromium(tmp_path: Path):
    """A headless Chromium on a DevTools port of its own (any free one), and the
    aiohttp session its tests talk to it with; both stopped after the test."""
    assert CHROMIUM is not None
    log = tmp_path / "chromium.log"
    with log.open("wb") as errors:
        process = await asyncio.create_subprocess_exec(
            CHROMIUM, "--headless", "--no-sandbox", "--no-first-run", "--disable-gpu",
            "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
            f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1000,700",
            "about:blank", stdout=asyncio.subprocess.DEVNULL, stderr=errors,
        )  # fmt: skip
    port = re.compile(rb"DevTools listening on ws://127\.0\.0\.1:(\d+)/")
    try:
        await until(lambda: bool(port.search(log.read_bytes())), log.read_text, timeout=30)
        found = port.search(log.read_bytes())
        assert found is not None
        async with aiohttp.ClientSession() as http:
            yield http, f"http://127.0.0.1:{int(found[1])}"
    finally:
        process.terminate()
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            process.kill()
            await process.wait()


async def test_an_invite_link_opens_the_players_table_and_keys_reach_the_app(web, chromium) -> None:
    run = await web(fight())
    run.server.static = web_server.STATIC  # the real page, not the fixture's stand-in
    http, devtools = chromium
    async with http.get(f"{devtools}/json/list") as listed:
        [page] = [target for target in await listed.json() if target["type"] == "page"]
    async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
        tab = DevTools(ws)
        invite = link(run.server.origin, run.invites.make("kara"))
        await tab.call("Page.navigate", url=invite)
        await tab.shows("YOUR TURN")
        assert "Kestrel" in await tab.screen()  # the hero's name, drawn by xterm.js
        assert await tab.value("location.hash") == ""  # the spent invite left the address
        [seated] = run.table.server.connections
        assert seated.seat.user == "kara"
        assert seated.size == tuple(await tab.value("[term.cols, term.rows]"))
        await tab.press("v")  # the hero's sheet
        await tab.shows("pgdn Page down")
        await tab.value(
            """Array.from(document.querySelectorAll("#keys button"))
            .find((b) => b.textContent === "Esc").click()"""
        )  # the on-screen Esc closes it: the table's key bar is back
        await tab.shows("l Log")
        assert "pgdn Page down" not in await tab.screen()
        await phone_width(tab, run, seated.size)
        await leave_and_rejoin(tab, run)
        await type_the_code(tab, run)


async def phone_width(tab: DevTools, run: Any, size: tuple[int, int]) -> None:
    """The page held upright on a phone: its new size reaches the seat (a resize
    message), and the font shrinks to keep the 80 columns the app is drawn for."""
    await tab.call(
        "Emulation.setDeviceMetricsOverride", width=390, height=740, deviceScaleFactor=1,
        mobile=True,
    )  # fmt: skip
    seen: list[tuple[int, int]] = []
    for _ in range(200):
        page = tuple(await tab.value("[term.cols, term.rows]"))
        seen = [c.size for c in run.table.server.connections]
        if page != size and seen == [page]:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"the seat's size {seen} never became the page's {page}")
    assert page[0] >= 80
    await tab.shows("YOUR TURN")


async def leave_and_rejoin(tab: DevTools, run: Any) -> None:
    """q leaves the table: the page shows the server's farewell line in its banner, and
    Rejoin (the session cookie still good) sits the player down again."""
    await tab.press("q")
    await tab.until('!document.getElementById("bye").hidden', "no farewell banner")
    assert await tab.value('document.getElementById("bye-line").textContent') == LEFT
    await until(lambda: not run.table.server.connections, lambda: "kara still seated")
    await tab.value('document.getElementById("rejoin").click()')
    await tab.shows("YOUR TURN")
    assert await tab.value('document.getElementById("bye").hidden')
    await until(lambda: len(run.table.server.connections) == 1, lambda: "not seated again")


async def type_the_code(tab: DevTools, run: Any) -> None:
    """A browser without the cookie and without a link is asked for the code; the code
    typed in lower case without its dash seats the player."""
    await tab.call("Network.clearBrowserCookies")
    await tab.call("Page.navigate", url=f"{run.server.origin}/")
    await tab.until('!document.getElementById("join").hidden', "no code form")
    code = run.invites.make("kara").code.lower().replace("-", "")
    await tab.value(
        f"""document.getElementById("code").value = {json.dumps(code)};
        document.getElementById("join-form").requestSubmit()"""
    )
    await tab.shows("YOUR TURN")
