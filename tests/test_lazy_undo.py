"""A campaign opens without reading or replaying its undo steps (issue 22: open ≤ 100 ms
with 10,000 log entries): the first undo that needs them replays them, and from then on
undo and redo go exactly as in the session that was saved. The logs and the steps are
lines of JSON in the file (format 3, ``persistence/lines.py``).
"""

from __future__ import annotations

import gc
import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from hsm_tui.campaign.combat import AddZone, EndTurn
from hsm_tui.cli.campaign import problems
from hsm_tui.persistence import lines, session_file, store
from hsm_tui.persistence.codec import DataError
from hsm_tui.persistence.store import CampaignFileError
from hsm_tui.rules import Rank, task_tn
from hsm_tui.table.session import OpenEntry, RollTask, Session
from hsm_tui.table.state import LogEntry, read_places
from tests.campaign import pack
from tests.campaign import test_scripted_fight as scripted
from tests.test_persistence import SAVED_AT, everything

TN = task_tn([("Agility", 3), ("Senses", 2)])


def played() -> Session:
    """The scripted fight's set-up, some turns, tasks (one hidden, then opened) and a redo."""
    session = Session(seed=scripted.SEED, content=pack())
    for command in scripted.SETUP:
        session.apply(command)
    for _ in range(3):
        session.apply(EndTurn())
    session.apply(RollTask(TN, Rank.MINION, "Sneak"))
    session.apply(RollTask(TN, Rank.MINION, "Secret", hidden=True))
    session.apply(OpenEntry(len(session.log)))
    session.apply(EndTurn())
    session.undo()
    return session


def opened(session: Session, path: Path) -> Session:
    store.save(session, path, now=SAVED_AT)
    loaded = Session(content=pack())
    assert (
        store.load(loaded, path)
        == f"undo history of {len(session.history)} step(s), checked on the first undo"
    )
    return loaded


def test_open_replays_nothing_and_the_first_undo_replays_every_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = played()
    applied: list[object] = []
    real = Session._apply
    monkeypatch.setattr(Session, "_apply", lambda s, c: (applied.append(c), real(s, c))[1])
    loaded = opened(session, tmp_path / "c.toml")
    assert applied == [] and loaded.can_undo and loaded.can_redo
    assert loaded.encounter == session.encounter and loaded.log == session.log
    history = session.history
    assert loaded.undo() == session.undo()
    assert applied == history  # every step replayed from the start, once
    assert everything(loaded) == everything(session)


def test_undo_and_redo_after_open_go_as_in_the_session_saved(tmp_path: Path) -> None:
    session = played()
    loaded = opened(session, tmp_path / "c.toml")
    assert everything(loaded) == everything(session)  # history read for the comparison
    for both in (session, loaded):  # play on after the open: that undoes first
        both.apply(RollTask(TN, Rank.HERO, "After the open"))
    assert loaded.undo() == session.undo()
    while session.can_undo:
        assert loaded.undo() == session.undo()
        assert everything(loaded) == everything(session)
    assert not loaded.can_undo
    while session.can_redo:
        assert loaded.redo() == session.redo()
        assert everything(loaded) == everything(session)
    assert not loaded.can_redo


def test_a_rename_after_open_holds_through_the_replayed_undo(tmp_path: Path) -> None:
    loaded = opened(played(), tmp_path / "c.toml")
    loaded.rename("Dust Sea")
    while loaded.can_undo:
        loaded.undo()
        assert loaded.campaign.name == "Dust Sea"
    assert loaded.log == ()


def test_a_save_after_open_writes_the_steps_as_read_without_reading_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = played()
    first = store.save(session, tmp_path / "first.toml", now=SAVED_AT)
    loaded = Session(content=pack())
    store.load(loaded, first)

    def unread(_: object) -> None:
        raise AssertionError("a save must not read the steps")

    monkeypatch.setattr(session_file, "read_steps", unread)
    again = store.save(loaded, tmp_path / "again.toml", now=SAVED_AT)
    assert again.read_text(encoding="utf-8") == first.read_text(encoding="utf-8")
    monkeypatch.undo()
    loaded.apply(AddZone("camp"))  # a step more: written after the file's steps
    store.save(loaded, again, now=SAVED_AT)
    reopened = Session(content=pack())
    store.load(reopened, again)
    assert everything(reopened) == everything(loaded)
    while loaded.can_undo:  # the file's steps and the one after them, replayed as one
        assert reopened.undo() == loaded.undo()
        assert everything(reopened) == everything(loaded)
    assert not reopened.can_undo


ODD = "it's ''' \x7f \x00 \u2028 \r\n \\ \" ★ 🎲"


def test_a_log_line_holds_any_text_and_reads_back(tmp_path: Path) -> None:
    entries = (LogEntry(1, "gm", ODD, (ODD, "")), LogEntry(2, "player:ana", "x", (), "gm"))
    block = lines.block(map(lines.entry_line, entries)).data.decode()
    assert "'''" not in block and "\x7f" not in block and block.count("\n") == 2
    assert lines.log_from(block, "state.log") == entries
    session = Session(seed=1, content=pack())
    session.apply(RollTask(TN, Rank.MINION, ODD))
    loaded = opened(session, tmp_path / "odd.toml")
    assert everything(loaded) == everything(session)


def test_the_memo_writes_again_only_the_items_that_changed() -> None:
    written: list[int] = []

    def encode(item: object) -> str:
        written.append(id(item))
        return json.dumps(repr(item))

    memo = lines.Memo(encode)
    items = [object() for _ in range(5)]
    first = memo.lines(items)
    assert len(written) == 5
    items[2] = object()  # replaced (an entry opened to the players)
    items.append(object())
    written.clear()
    again = memo.lines(items)
    assert written == [id(items[2]), id(items[5])]
    assert again[:2] == first[:2] and again[3:5] == first[3:5]
    assert memo.lines(items[:3]) == again[:3]  # undone: shorter


@pytest.mark.parametrize(
    ("line", "where", "problem"),
    [
        ('[1, "gm", 5, [], "public"]', "state.log[1].title", "expected text, found 5"),
        ('[1, "gm", "t", "lines", "public"]', "state.log[1].lines", "expected a list"),
        ('[true, "gm", "t", [], "public"]', "state.log[1].seq", "expected a number"),
        ('[1, "gm", "t", []]', "state.log[1]", "expected [seq, issuer, title, lines, visibility]"),
        ('{"seq": 1, "issuer": "gm"}', "state.log[1].title", "missing"),
        ('"text"', "state.log[1]", "expected a table, found 'text'"),
        ('[1, "gm", "t", [], "public"', "state.log[1]", "line 2 of the block is not JSON"),
        ("[" * 100_000, "state.log[1]", "nested too deeply"),
    ],
)
def test_a_bad_log_line_is_refused_with_its_file_line_and_key(
    tmp_path: Path, line: str, where: str, problem: str
) -> None:
    session = Session(seed=1, content=pack())
    session.apply(AddZone("a"))
    session.apply(AddZone("b"))
    path = store.save(session, tmp_path / "c.toml")
    text = path.read_text(encoding="utf-8")
    second = '[2, "gm", "Zone b", [], "building", "setup"]'
    number = text[: text.index(second)].count("\n") + 1
    path.write_text(text.replace(second, line), encoding="utf-8")
    victim = Session(content=pack())
    with pytest.raises(CampaignFileError) as caught:
        store.load(victim, path)
    message = str(caught.value)
    assert message.startswith(f"{path}: line {number}, key {where}: {problem}"), message
    assert victim.log == () and victim.file is None


def test_a_bad_log_line_with_its_number_opens_as_an_entry_that_says_so(tmp_path: Path) -> None:
    """Open checks a log line's number and reads the rest when something asks for it: a
    line that does not read is then an entry for the GM that says so, a save writes the
    line as it was, and ``hsm campaign check`` names it with its file line."""
    session = Session(seed=1, content=pack())
    session.apply(AddZone("a"))
    session.apply(AddZone("b"))
    path = store.save(session, tmp_path / "c.toml")
    text = path.read_text(encoding="utf-8")
    second, bad = '[2, "gm", "Zone b", [], "building", "setup"]', '[2, "gm", "t", [], "public"] x'
    number = text[: text.index(second)].count("\n") + 1
    path.write_text(text.replace(second, bad), encoding="utf-8")
    opened = Session(content=pack())
    store.load(opened, path)
    entry = opened.log[1]
    assert (entry.seq, entry.title, entry.visibility) == (
        2,
        "Log entry 2 could not be read (hsm campaign check names its line)",
        "gm",
    )
    assert entry.lines == ("not JSON: Extra data (column 30)",)
    assert opened.log[0].title == "Zone a"
    store.save(opened, path)
    assert f"\n{bad}\n" in path.read_text(encoding="utf-8")
    (problem,) = problems(path)
    assert problem.startswith(f"{path}: line {number}, key state.log[1]: line 2 of the block")


ENTRIES = (
    LogEntry(1, "gm", "a", ("x", ODD)),
    LogEntry(2, "gm", "b", (), "gm", "setup"),
    LogEntry(3, "gm", "c", (), "building", "setup", "band a|b"),
    LogEntry(4, "player:ana", "d", (), "public", None, "cover k"),
)


def test_a_log_read_later_is_the_log_read_at_once() -> None:
    block = lines.block(map(lines.entry_line, ENTRIES)).data.decode()
    later = lines.log_from(block, "state.log", later=True)
    assert read_places(later) == []
    for read in (later, lines.log_from(block, "state.log")):
        assert read == ENTRIES
        assert [(e.step, e.sets) for e in read] == [(e.step, e.sets) for e in ENTRIES]


def test_an_entry_not_read_yet_holds_nothing_the_collector_visits() -> None:
    """Its number, its line and its reader's place: the collector's first pass after a
    long campaign opens skips the fields of every entry not read yet."""
    later = lines.log_from(lines.block(map(lines.entry_line, ENTRIES)), "state.log", later=True)
    assert not any(map(gc.is_tracked, map(vars, later)))
    assert later == ENTRIES


def test_the_lines_of_a_block_are_split_when_asked_for_and_written_again_as_they_were() -> None:
    steps = lines.lines_of(lines.Block('{"a": 1}\n["é"]\n[3]'.encode()), "undo.commands")
    assert len(steps) == 3
    assert steps.data == '{"a": 1}\n["é"]\n[3]\n'.encode()  # its last line ended
    assert list(steps) == ['{"a": 1}', '["é"]', "[3]"]
    older, newer = steps[:2], steps[2:]
    assert (list(older), newer[-1], len(newer)) == (['{"a": 1}', '["é"]'], "[3]", 1)
    assert older.data == '{"a": 1}\n["é"]\n'.encode()
    assert not steps[3:] and steps[3:].data == b"" and not lines.lines_of("", "undo.commands")
    with pytest.raises(DataError, match=re.escape("undo.commands: expected lines of JSON")):
        lines.lines_of(3, "undo.commands")


def test_a_cut_of_lines_not_split_is_the_cut_of_the_lines() -> None:
    """Found from the nearer end without splitting the block: what the first undo cuts."""
    rows = [f"[{i}]" for i in range(7)]
    data = "".join(f"{row}\n" for row in rows).encode()
    for start in range(-8, 9):
        for stop in (*range(-8, 9), None):
            cut = lines.Lines(data)[start:stop]
            assert (list(cut), len(cut)) == (rows[start:stop], len(rows[start:stop]))
            assert cut.data == "".join(f"{row}\n" for row in rows[start:stop]).encode()


def test_open_reads_the_blocks_as_bytes_past_a_quote_in_a_name(tmp_path: Path) -> None:
    """Open keeps each block as the file's bytes, which are the text tomllib reads; the
    search for a block's quotes passes quotes elsewhere (a name with an apostrophe)."""
    session = played()
    path = store.save(session, tmp_path / "c.toml", now=SAVED_AT)
    text = path.read_text(encoding="utf-8")
    named = text.replace('name = "New campaign"', "name = \"Kara's ''' crew\"", 1)
    path.write_text(named, encoding="utf-8")
    as_text, as_bytes = store.read(path), store.read(path, as_bytes=True)
    assert as_bytes["header"]["name"] == "Kara's ''' crew"
    for table, key in (("state", "log"), ("undo", "commands"), ("undo", "checkpoints")):
        block = as_bytes[table][key]
        assert isinstance(block, lines.Block)
        assert block.data.decode() == as_text[table][key]
    loaded = Session(content=pack())
    store.load(loaded, path)
    assert everything(loaded) == everything(session)


@pytest.mark.parametrize(
    "text",
    [
        '[1, "gm", "t", [],\n"public"]\n[2, "gm", "u", [], "public"]\n',
        '[1, "gm", "t", []\n"public"], [2, "gm", "u", [], "public"]\n',
        '[1, "gm", "t]\n[", [], "public"], [2, "gm", "u", [], "public"]\n',
        '[1, "gm", "t", ["a"]\n[], "public"], [2, "gm", "u", [], "public"]\n',
    ],
    ids=["split-after-a-comma", "split-and-two-on-a-line", "split-in-a-text", "split-in-lines"],
)
def test_an_entry_over_two_lines_is_refused_by_its_line(text: str) -> None:
    """One entry a line, as the memo writes the block again: a line that does not begin
    with its entry's number is read on open, and named."""
    with pytest.raises(DataError, match=re.escape("state.log[0]")):
        lines.log_from(text, "state.log", later=True)


def test_a_line_with_spaces_around_reads_as_any_other() -> None:
    text = '  [1, "gm", "t", [], "public"] \r\n[2, "gm", "u", ["x"], "gm"]\n'
    assert lines.log_from(text, "state.log") == (
        LogEntry(1, "gm", "t", ()),
        LogEntry(2, "gm", "u", ("x",), "gm"),
    )


def test_a_file_is_read_as_tomllib_reads_it(tmp_path: Path) -> None:
    session = played()
    session.apply(RollTask(TN, Rank.MINION, ODD))
    path = store.save(session, tmp_path / "c.toml", now=SAVED_AT)
    assert store.read(path) == tomllib.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("Zone ridge", "Zone \x7fridge", 1), "invalid character '\\x7f'"),
        (lambda t: t.replace("Zone ridge", "Zone \rridge", 1), "invalid character '\\r'"),
        (lambda t: t.replace("Zone ridge", "Zone ridge" + "'" * 3, 1), "not valid TOML"),
        (lambda t: t.replace("\n'''\nqueue", "\n''''\nqueue", 1), "not JSON"),
    ],
    ids=["del", "lone-cr", "three-quotes", "a-quote-before-the-closing-quotes"],
)
def test_a_block_toml_refuses_is_refused_as_tomllib_says(
    tmp_path: Path, change: Callable[[str], str], message: str
) -> None:
    path = store.save(played(), tmp_path / "c.toml")
    text = change(path.read_text(encoding="utf-8"))
    path.write_text(text, encoding="utf-8", newline="")
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        expected = f"{path}: not valid TOML: {err}"
    else:
        expected = None
    with pytest.raises(CampaignFileError) as caught:
        store.load(Session(content=pack()), path)
    assert message in str(caught.value)
    if expected is not None:
        assert str(caught.value) == expected


def test_a_block_that_is_not_text_names_its_key() -> None:
    with pytest.raises(DataError, match=re.escape("expected lines of JSON in ''' quotes")):
        lines.log_from([1, 2], "state.log")
