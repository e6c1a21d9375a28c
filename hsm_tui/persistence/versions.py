"""Campaign file versions: what each ``format_version`` adds, and the chain of small
steps that brings an older file up to the one this hsm-tui writes.

A step takes the plain data of version N (as TOML parsed it) and returns version N + 1;
it never reads the file or the session. A file newer than :data:`VERSION` is refused by
the reader with both versions named (``store.read``).

- **1**: the session (``seed``, ``state``, ``undo``, ``redo``) under ``format`` and
  ``saved``.
- **2**: adds ``[header]``, written before the session: the campaign's name, party,
  adventure and whether a fight is on, so the open list reads a few lines, not the file.
- **3**: the logs (``state.log``, ``undo.start.log``) and the undo steps
  (``undo.commands``) are lines of JSON in a literal string, one entry or step a line
  (``lines.py``): a campaign of 10,000 entries is written and read in a tenth of the time.
  Its log lines mark the GM's numbers in them (``rules/secret.py``), which older lines
  cannot tell: an older public entry with lines is read as ``title`` (``visibility.TITLED``),
  which the players see by its title alone, as they did then.
- **4**: ``[undo.start]`` counts the first entries of ``[state]``'s log its own log begins
  with (``log_from_state``) and writes only the rest: the log is written once. A version 3
  file writes it whole, as a count of 0 reads it.
- **5**: the campaign keeps characters it made itself (``campaign.made``, each a pack
  entry's fields) and a trait budget for new ones (``campaign.budget``); a set-up step's
  log entry may hold what it sets after its step (``sets``), so an export shows the set-up
  as it stood when the fight started; a Hero or combatant may carry ``destroyed`` gear (the
  Severe Wound chart's Equipment destroyed); an encounter may hold each side's dive policy
  (``encounter.dive_policy``). An older file has none of them (no budget; its entries set
  nothing; nothing destroyed; every dive asked).
- **6**: the campaign keeps encounters prepared ahead (``campaign.prepared``: each by name,
  its zones, bands, rows of combatants by pack entry and dive policies, as an encounter
  file describes them), and the undo steps may keep, drop or load one; and Heroes' sheets
  their players fill in (``campaign.drafts``: each Hero's draft as last kept, whether it
  was sent, the GM's note). An older file has none prepared and no drafts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .lines import line

VERSION = 6
"""The version this hsm-tui writes and the newest it reads."""

Data = dict[str, Any]


def header(state: Any) -> Data:
    """The header of a session's ``state`` table (plain data): what the open list shows.
    Values of the wrong type are left at their defaults; the codec names them on open.
    """
    state = state if isinstance(state, dict) else {}
    campaign = state.get("campaign")
    campaign = campaign if isinstance(campaign, dict) else {}
    encounter = state.get("encounter")
    encounter = encounter if isinstance(encounter, dict) else {}
    party = campaign.get("party")
    names = [
        m["name"] for m in (party if isinstance(party, list) else [])
        if isinstance(m, dict) and isinstance(m.get("name"), str)
    ]  # fmt: skip
    name, adventure = campaign.get("name"), campaign.get("adventure")
    return {
        "name": name if isinstance(name, str) else "New campaign",
        "party": names,
        "adventure": adventure if isinstance(adventure, int) else 1,
        "in_combat": encounter.get("active") is True,
    }


def _v1_to_v2(data: Data) -> Data:
    """Version 2 adds the header, made from the state."""
    out = dict(data)
    out["header"] = header(data.get("state"))
    return out


def _v2_to_v3(data: Data) -> Data:
    """Version 3 holds the logs and the undo steps as lines of JSON; each table of version
    2 becomes its line as it is (read then by the codec, which names a bad key as before).
    Values of the wrong type are left as they are, for the reader to name.
    """
    out = dict(data)
    state, undo = data.get("state"), data.get("undo")
    if isinstance(state, dict):
        out["state"] = _lines_of(_titled(state), "log")
    if isinstance(undo, dict):
        undo = _lines_of(undo, "commands")
        start = undo.get("start")
        out["undo"] = (
            {**undo, "start": _lines_of(_titled(start), "log")} if isinstance(start, dict) else undo
        )
    return out


def _titled(table: Data) -> Data:
    """``table`` with each public log entry that has lines read as ``title`` (unmarked:
    its lines may hold a Minion's numbers, and the players saw its title alone)."""
    log = table.get("log")
    if not isinstance(log, list):
        return table
    return {**table, "log": [_title_only(entry) for entry in log]}


def _title_only(entry: Any) -> Any:
    if not isinstance(entry, dict) or entry.get("visibility", "public") != "public":
        return entry
    return {**entry, "visibility": "title"} if entry.get("lines") else entry


def _lines_of(table: Data, key: str) -> Data:
    """``table`` with its list ``key`` as a block of lines, as a version 3 file's reads
    (anything else left for the reader to refuse)."""
    items = table.get(key)
    if not isinstance(items, list):
        return table
    return {**table, key: "".join(f"{line(item)}\n" for item in items)}


def _v3_to_v4(data: Data) -> Data:
    """Version 4 may count the start's first log entries: a version 3 file counts none."""
    return data


def _v4_to_v5(data: Data) -> Data:
    """Version 5 may keep made characters, a budget and what set-up steps set: a version 4
    file has none of them."""
    return data


def _v5_to_v6(data: Data) -> Data:
    """Version 6 may keep prepared encounters: a version 5 file has none."""
    return data


STEPS: dict[int, Callable[[Data], Data]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
    3: _v3_to_v4,
    4: _v4_to_v5,
    5: _v5_to_v6,
}
"""From version N to N + 1, one per version this hsm-tui can read."""


def migrate(data: Data) -> Data:
    """``data`` (its ``format_version`` from 1 to :data:`VERSION`, checked by the reader)
    brought up to :data:`VERSION`, one step at a time.
    """
    version = data["format_version"]
    while version < VERSION:
        data = {**STEPS[version](data), "format_version": version + 1}
        version += 1
    return data
