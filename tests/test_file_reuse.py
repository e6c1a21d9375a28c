"""A long campaign saves and opens in a quarter of a second (issue 32): a save writes again
only the log entries and undo steps that changed since the last save or open, the lines
of a block read from the file kept as they were; open reads each block where it stands.
Whatever took the short way, the file is the one a save from scratch writes, and a line
written by hand is read (and written again) the long way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hsm_tui.persistence import lines, store
from hsm_tui.persistence.store import CampaignFileError
from hsm_tui.rules import Rank
from hsm_tui.table.session import OpenEntry, RollTask, Session
from tests.campaign import pack
from tests.test_lazy_undo import TN, played
from tests.test_persistence import SAVED_AT, everything


def _log_rows(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The log entries encoded from now on (each a row ``[seq, issuer, …]``)."""
    rows: list[Any] = []
    encode = lines.line

    def spy(value: Any) -> str:
        if isinstance(value, list) and value and type(value[0]) is int:
            rows.append(value)
        return encode(value)

    monkeypatch.setattr(lines, "line", spy)
    return rows


def _opened(path: Path) -> Session:
    session = Session(content=pack())
    store.load(session, path)
    return session


def test_a_save_after_open_encodes_only_the_new_entries_and_writes_what_a_full_save_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = played()
    first = store.save(session, tmp_path / "c.toml", now=SAVED_AT)
    loaded = _opened(first)
    rows = _log_rows(monkeypatch)
    for one in (loaded, session):
        one.apply(RollTask(TN, Rank.MINION, "After the open"))
    again = store.save(loaded, tmp_path / "again.toml", now=SAVED_AT)
    assert [row[2] for row in rows] == ["After the open (Minion)"]
    whole = store.save(session, tmp_path / "whole.toml", now=SAVED_AT)  # encoded from scratch
    assert again.read_bytes() == whole.read_bytes()
    assert everything(_opened(again)) == everything(session)


def test_an_entry_changed_before_the_last_is_written_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = played()
    session.apply(RollTask(TN, Rank.MINION, "Hidden", hidden=True))
    session.apply(RollTask(TN, Rank.MINION, "After it"))
    hidden = len(session.log) - 1
    loaded = _opened(store.save(session, tmp_path / "c.toml", now=SAVED_AT))
    store.save(loaded, tmp_path / "c.toml", now=SAVED_AT)  # the block, joined once
    rows = _log_rows(monkeypatch)
    for one in (loaded, session):
        one.apply(OpenEntry(hidden))  # replaces an entry before the last one
    again = store.save(loaded, tmp_path / "again.toml", now=SAVED_AT)
    assert [row[0] for row in rows] == [hidden, len(loaded.log)]  # and the opening's entry
    whole = store.save(session, tmp_path / "whole.toml", now=SAVED_AT)
    assert again.read_bytes() == whole.read_bytes()
    reopened = _opened(again)
    assert everything(reopened) == everything(session)
    assert reopened.undo() == session.undo()  # the opening, undone the same way
    assert everything(reopened) == everything(session)


@pytest.mark.parametrize(
    "edit",
    [
        lambda line: f"  {line} ",  # spaces around
        lambda line: json.dumps(json.loads(line.replace("\\u0027", "'")), indent=None),
    ],
    ids=["spaces", "json-dumps-style"],
)
def test_a_line_written_by_hand_is_read_and_then_written_as_a_save_writes_it(
    tmp_path: Path, edit: Any
) -> None:
    session = played()
    path = store.save(session, tmp_path / "c.toml", now=SAVED_AT)
    text = path.read_text(encoding="utf-8")
    line = lines.entry_line(session.log[1])
    assert text.count(f"\n{line}\n") == 1
    path.write_text(text.replace(f"\n{line}\n", f"\n{edit(line)}\n"), encoding="utf-8")
    loaded = _opened(path)
    assert everything(loaded) == everything(session)
    again = store.save(loaded, tmp_path / "again.toml", now=SAVED_AT)
    assert again.read_bytes() == store.save(session, tmp_path / "w.toml", now=SAVED_AT).read_bytes()


def test_a_block_whose_last_line_has_no_newline_reads_and_saves_whole(tmp_path: Path) -> None:
    session = played()
    path = store.save(session, tmp_path / "c.toml", now=SAVED_AT)
    text = path.read_text(encoding="utf-8")
    last = lines.entry_line(session.log[-1])
    path.write_text(text.replace(f"{last}\n'''", f"{last}'''", 1), encoding="utf-8")
    loaded = _opened(path)
    for one in (loaded, session):
        one.apply(RollTask(TN, Rank.MINION, "Next"))
    again = _opened(store.save(loaded, tmp_path / "again.toml", now=SAVED_AT))
    assert everything(again) == everything(session)


def test_a_byte_not_utf8_inside_a_block_names_its_line(tmp_path: Path) -> None:
    session = played()
    path = store.save(session, tmp_path / "c.toml", now=SAVED_AT)
    raw = path.read_bytes()
    line = lines.entry_line(session.log[2]).encode()
    number = raw[: raw.index(line)].count(b"\n") + 1
    path.write_bytes(raw.replace(line, line.replace(b"Zone", b"Z\xffne", 1), 1))
    with pytest.raises(CampaignFileError) as caught:
        _opened(path)
    assert str(caught.value) == f"{path}: not a text file (not UTF-8 at line {number}: byte 0xff)"


def test_the_memo_adds_the_lines_of_items_added_at_the_end_to_its_block() -> None:
    encoded: list[object] = []

    def encode(item: object) -> str:
        encoded.append(item)
        return json.dumps(repr(item))

    memo = lines.Memo(encode)
    items = [object() for _ in range(4)]
    assert memo.block(items).data == lines.block(map(encode, items)).data
    encoded.clear()
    items += [object(), object()]
    grown = memo.block(items)
    assert encoded == items[4:]
    encoded.clear()
    assert grown == lines.block(map(encode, items))
    encoded.clear()
    items[1] = object()  # one before the last replaced: only it is encoded again
    assert memo.block(items) == lines.block(json.dumps(repr(i)) for i in items)
    assert encoded == [items[1]]
    memo.seed(items, "".join(f"{json.dumps(repr(i))}\n" for i in items))  # as a file held it
    encoded.clear()
    assert memo.block(items[:3]) == lines.block(json.dumps(repr(i)) for i in items[:3])
    assert encoded == []  # undone to fewer: the lines the file held, none encoded
