"""The browser seat's page (``hsm_tui/share/web/static``): shipped as package data,
loadable under the server's Content-Security-Policy (no inline script or style, nothing
from another origin), speaking the /join, /whoami and /ws contract, with the vendored
xterm.js the digests name; and every key binding the apps have reaches a browser tab."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import pkgutil
import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.dom import DOMNode

import hsm_tui.ui
from hsm_tui.share import web

ROOT = Path(__file__).resolve().parents[2]
STATIC = Path(web.__file__).parent / "static"
OURS = ("index.html", "hsm.js", "hsm.css")
VENDORED = ("xterm.js", "xterm.css", "addon-fit.js", "addon-webgl.js")

BROWSER_KEEPS = frozenset(
    {"ctrl+t", "ctrl+w", "ctrl+n", "ctrl+tab", "ctrl+shift+tab", "ctrl+pageup",
     "ctrl+pagedown", "f11", "f12"}
)  # fmt: skip
"""Chords a browser takes for itself (a new tab or window, closing the tab, switching
tabs, full screen, the developer tools): a page never sees them."""


def test_the_page_and_the_vendored_terminal_are_there() -> None:
    licences = ("xterm-LICENSE.txt", "addon-fit-LICENSE.txt", "addon-webgl-LICENSE.txt")
    for name in (*OURS, *VENDORED, *licences, "xterm-VERSION.txt"):
        assert (STATIC / name).is_file(), name
    for name in licences:  # the MIT licence's grant
        assert "Permission is hereby granted, free of charge" in (STATIC / name).read_text()


def test_the_static_folder_is_flat_package_data() -> None:
    """pyproject ships ``static/*`` of ``hsm_tui.share.web``: a subfolder would be left
    out of the wheel."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "static/*" in data["package-data"]["hsm_tui.share.web"]
    assert [p.name for p in STATIC.iterdir() if not p.is_file()] == []


class _Page(HTMLParser):
    """What index.html loads and anything the CSP would block in it."""

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[str] = []
        self.inline: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        inline = [name for name in found if name == "style" or name.startswith("on")]
        self.inline += [f"{tag} {name}" for name in inline]
        if tag == "style":
            self.inline.append("a <style> element")
        if tag == "script":
            self._in_script = True
            if found.get("src") is None:
                self.inline.append("a <script> without src")
        for name in ("src", "href"):
            if found.get(name):
                self.loads.append(str(found[name]))

    def handle_endtag(self, tag: str) -> None:
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append("script text")


def test_the_page_has_no_inline_script_or_style_and_loads_only_its_own_files() -> None:
    """The server's CSP (script-src 'self'; style-src 'self'; default-src 'none') would
    block an inline script or style, and anything from another origin or a web font."""
    page = _Page()
    page.feed((STATIC / "index.html").read_text())
    assert page.inline == []
    names = ("xterm.css", "hsm.css", "xterm.js", "addon-fit.js", "addon-webgl.js", "hsm.js")
    assert sorted(page.loads) == sorted(f"/static/{name}" for name in names)
    for name in OURS:
        text = (STATIC / name).read_text()
        assert not re.search(r"https?://|//[a-z0-9-]+\.[a-z]", text), name
        assert "@font-face" not in text and "url(" not in text, name


def test_the_script_speaks_the_contract() -> None:
    """The invite is read from ``#invite=`` and cleared from the address bar before the
    page asks the server anything; then /join (POST), /whoami, /ws with the size; a
    resize goes up as ``{"resize": [cols, rows]}``, and the farewell is ``bye``."""
    script = (STATIC / "hsm.js").read_text()
    cleared = script.index("history.replaceState")
    assert script.index("#invite=") < cleared < script.index("fetch(")
    assert re.search(r'fetch\("/join",\s*\{\s*method: "POST"', script)
    assert "JSON.stringify({ secret })" in script
    assert 'fetch("/whoami"' in script
    assert "/ws?cols=${term.cols}&rows=${term.rows}" in script
    assert '"wss:" : "ws:"' in script
    assert "JSON.stringify({ resize: [cols, rows] })" in script
    assert "encoder.encode(data)" in script  # keys go up as UTF-8 bytes, a binary message
    assert ".bye" in script


def test_the_touch_keys_send_what_a_terminal_sends() -> None:
    """Esc, F1 (SS3 P), the arrows (CSI A–D), Tab, Enter and the player's main keys."""
    script = (STATIC / "hsm.js").read_text()
    table = script[script.index("const TOUCH_KEYS") : script.index("];", script.index("TOUCH"))]
    pairs = dict(re.findall(r'\["([^"]+)", "([^"]+)"\]', table))
    assert pairs == {
        "Esc": r"\x1b", "F1": r"\x1bOP", "Tab": r"\t", "Enter": r"\r",
        r"\u2190": r"\x1b[D", r"\u2191": r"\x1b[A", r"\u2193": r"\x1b[B", r"\u2192": r"\x1b[C",
        **{key: key for key in "amtnvl"},
    }  # fmt: skip
    assert '"(pointer: coarse)"' in script  # shown by default on a touch screen


def _vendored() -> list[tuple[str, str, str]]:
    """("package@version", file, sha256) of each ``file:`` line of xterm-VERSION.txt."""
    found, package, version = [], "", ""
    for line in (STATIC / "xterm-VERSION.txt").read_text().splitlines():
        key, _, value = line.partition(": ")
        if key == "package":
            package = value
        elif key == "version":
            version = value
        elif key == "file":
            name, digest = value.split()[0], value.split()[-1]
            found.append((f"{package}@{version}", name, digest))
    return found


def test_the_vendored_files_are_the_versions_the_note_names() -> None:
    """xterm.js 6.0.0 and its addons, unchanged: each file's sha256 is the note's."""
    vendored = _vendored()
    assert {(package, name) for package, name, _ in vendored} == {
        ("@xterm/xterm@6.0.0", "xterm.js"),
        ("@xterm/xterm@6.0.0", "xterm.css"),
        ("@xterm/addon-fit@0.11.0", "addon-fit.js"),
        ("@xterm/addon-webgl@0.19.0", "addon-webgl.js"),
    }
    for _, name, digest in vendored:
        assert hashlib.sha256((STATIC / name).read_bytes()).hexdigest() == digest, name


def test_xterm_js_defines_its_globals_for_a_plain_script_tag() -> None:
    """The UMD builds put Terminal, FitAddon and WebglAddon on globalThis when no module
    system is there, which is how index.html loads them."""
    for name, exported in (("xterm.js", ".Terminal="), ("addon-fit.js", ".FitAddon="),
                           ("addon-webgl.js", ".WebglAddon=")):  # fmt: skip
        text = (STATIC / name).read_text()
        assert text.startswith("!function(e,t){") and "}(globalThis," in text[:400], name
        assert exported in text, name


def _bindings() -> list[tuple[str, Binding]]:
    """Every binding declared by a class in hsm_tui.ui, with the class's name."""
    found = []
    for module in pkgutil.walk_packages(hsm_tui.ui.__path__, "hsm_tui.ui."):
        for name, cls in inspect.getmembers(importlib.import_module(module.name), inspect.isclass):
            if issubclass(cls, DOMNode) and cls.__module__ == module.name:
                for binding in cls.__dict__.get("BINDINGS", []):
                    if isinstance(binding, Binding):
                        found.append((f"{module.name}.{name}", binding))
    return found


def test_every_binding_has_a_key_that_reaches_a_browser_tab() -> None:
    """A player (or the GM) at the table in a browser tab never sees the chords the
    browser keeps: each action bound to one of them has another key too (a refusal, the
    hidden binding that says why a key does nothing on that seat, has nothing to reach)."""
    bindings = _bindings()
    assert len(bindings) > 100  # the walk found the apps' screens
    stuck = [
        f"{where}: {binding.key} ({binding.action})"
        for where, binding in bindings
        if {key.strip() for key in binding.key.split(",")} <= BROWSER_KEEPS
        and not binding.action.startswith("refuse(")
    ]
    assert stuck == []


@pytest.mark.parametrize(
    ("where", "action", "key"),
    [("hsm_tui.ui.app.HsmApp", "seats", "f9"),
     ("hsm_tui.ui.screens.damage_dialog.DamageDialog", "toggle", "ctrl+l")],
)  # fmt: skip
def test_the_browser_alternatives(where: str, action: str, key: str) -> None:
    """The GM's seat list (ctrl+t: a new tab) is also F9; non-lethal damage (ctrl+n: a
    new window) is also ctrl+l."""
    keys = {
        k.strip() for w, b in _bindings() if w == where and b.action == action
        for k in b.key.split(",")
    }  # fmt: skip
    assert key in keys
