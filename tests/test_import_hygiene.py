"""The engine packages import without Textual or Rich (DESIGN: only hsm_tui.ui may, and
the SSH server's driver, which runs Textual apps but builds none of their screens)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import importlib, json, pkgutil, sys
package = importlib.import_module({module!r})
if {walk!r} and hasattr(package, "__path__"):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)
ui = sorted(
    m for m in sys.modules
    if m in ("textual", "rich") or m.startswith(("textual.", "rich."))
)
print(json.dumps(ui))
"""


def ui_modules_after_import(module: str, walk: bool = False) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module, walk=walk)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    "package",
    [
        "hsm_tui.rules",
        "hsm_tui.packs",
        "hsm_tui.persistence",
        "hsm_tui.campaign",
        "hsm_tui.table",
        "hsm_tui.forecast",
    ],
)
def test_every_engine_module_imports_without_textual_or_rich(package: str):
    assert ui_modules_after_import(package, walk=True) == []


@pytest.mark.parametrize(
    "module",
    [
        "hsm_tui.table.session",
        "hsm_tui.forecast.simulate",
        "hsm_tui.persistence.encounter_file",
        "hsm_tui.forecast.fight_pool",
        "hsm_tui.table.logbook",
        "hsm_tui.share",
        "hsm_tui.share.players",
        "hsm_tui.share.hostkey",
        "hsm_tui.share.terminal",
    ],
)
def test_session_forecasts_and_log_export_import_without_textual_or_rich(module: str):
    """The players file, the host key and the client terminal too: ``hsm serve`` checks
    the first two before Textual loads."""
    assert ui_modules_after_import(module) == []


def test_the_ssh_server_runs_apps_but_imports_no_screen():
    """hsm_tui.share drives the apps it is given (the CLI builds them): it never reaches
    into hsm_tui.ui itself, so no screen can be served by a path that skips the seat.
    """
    probe = (
        "import hsm_tui.share.server, sys; "
        "print(sorted(m for m in sys.modules if m.startswith('hsm_tui.ui')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_probe_sees_rich_when_it_is_imported():
    assert "rich" in ui_modules_after_import("rich.console")


def test_starting_the_app_loads_no_engine_before_the_first_frame():
    """``hsm`` parses its command line and catches a bad campaign file before the app
    starts: neither may load the rules engine, which waits until the first frame is out
    (a ``hsm campaign`` parser once pulled it in, 28 ms on every start)."""
    code = (
        "import sys; from hsm_tui.cli.command import build_parser;"
        "build_parser().parse_args(['play']);"
        "from hsm_tui.persistence.errors import CampaignFileError;"
        "print(sorted(m for m in sys.modules if m.startswith('hsm_tui.campaign.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
