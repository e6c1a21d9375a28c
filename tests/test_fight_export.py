"""Issue 19 #17: the log export folds an encounter's set-up into one entry and can cut
out one fight; the session marks each entry's step in a fight (``log_step``).
"""

from __future__ import annotations

from pathlib import Path

from hsm_tui.campaign.combat import ClearEncounter, EndCombat, EndTurn, StartCombat, log_step
from hsm_tui.persistence.encounter_file import encounter_commands, read_encounter
from hsm_tui.table.logbook import SET_UP_TITLE, fights, to_markdown
from hsm_tui.table.session import Batch, Session
from hsm_tui.table.state import LogEntry
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.combat import EXAMPLE


def test_r_combat_1_log_step_marks_set_up_start_and_end() -> None:
    from hsm_tui.campaign.combat import AddZone, SetCover

    assert log_step(AddZone("ruins"), active=False) == "setup"
    assert log_step(SetCover("a", "light"), active=True) is None  # in a fight: a move of it
    assert log_step(StartCombat(), active=False) == "start"
    assert log_step(EndCombat(), active=True) == "end"


def test_set_up_steps_fold_into_one_entry() -> None:
    entries = [
        LogEntry(1, "gm", "Zone ruins", (), step="setup"),
        LogEntry(2, "gm", "Kestrel joins", ("light cover",), step="setup"),
        LogEntry(3, "gm", "Initiative (R-INIT-1/2)", ("1. Kestrel",), step="start"),
        LogEntry(4, "gm", "Cover again", (), step="setup"),
    ]
    text = to_markdown(entries, "Log")
    assert f"## #1–#2 {SET_UP_TITLE}\n\n- Zone ruins\n- Kestrel joins\n\n## #3 Initiative" in text
    assert "## #4 Cover again" in text  # a single step stays as it is


def _two_fights() -> Session:
    """The example fought once (a turn, then ended), cleared, set up and started again."""
    session = Session(seed=7)
    session.load_content()
    spec = read_encounter(EXAMPLE, session.catalog)
    setup = Batch(tuple(encounter_commands(spec, session.catalog)))
    again = ClearEncounter(keep_zones=False)
    for command in (setup, StartCombat(), EndTurn(), EndCombat(), again, setup, StartCombat()):
        session.apply(command)
    return session


def test_the_session_log_of_two_fights_cuts_into_two() -> None:
    session = _two_fights()
    first, second = fights(session.log)
    assert first[0].step == "setup" and first[-1].step == "end"
    assert second[0].step == "setup" and second[-1] is session.log[-1]
    assert [e.title for e in first].count("Initiative (R-INIT-1/2)") == 1
    folded = to_markdown(second, "Fight 2")
    assert folded.count(SET_UP_TITLE) == 1 and "Initiative (R-INIT-1/2)" in folded


async def test_issue_19_17_shift_x_exports_the_fight_asked_for(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saves").mkdir(exist_ok=True)  # hsm saves here, not in the data folder
    app = HsmApp(Session(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4", "L", "s", "n", "f6", "X")
        await pilot.pause()
        (path,) = (tmp_path / "saves").glob("fight-1-log-*.md")
        text = path.read_text(encoding="utf-8")
        assert text.startswith("# Fight 1 of 1 ")
        assert f"{SET_UP_TITLE}\n\n- " in text and "Initiative (R-INIT-1/2)" in text


async def test_issue_19_17_with_two_fights_shift_x_asks_which(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saves").mkdir(exist_ok=True)  # hsm saves here, not in the data folder
    app = HsmApp(_two_fights())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f6", "X")
        await pilot.pause()
        labels = [o.label for o in app.screen.options]
        assert labels[0].startswith("fight 2: #") and labels[1].startswith("fight 1: #")
        await pilot.press("2")  # the older one
        await pilot.pause()
        (path,) = (tmp_path / "saves").glob("fight-1-log-*.md")
        assert path.read_text(encoding="utf-8").startswith("# Fight 1 of 2 ")


def test_issue_19_17_hsm_campaign_export_fight_n(tmp_path: Path, capsys) -> None:
    from hsm_tui.persistence import store
    from tests.test_campaign_cli import one_error, run

    session = _two_fights()
    path = store.save(session, tmp_path / "two.toml")
    code, out, err = run(capsys, "campaign", "export", str(path), "--fight", "1")
    assert (code, err) == (0, "")
    assert out.count("Initiative (R-INIT-1/2)") == 1 and out.count(SET_UP_TITLE) == 1
    last = fights(session.log)[0][-1]
    headings = [line for line in out.splitlines() if line.startswith("## ")]
    assert headings[-1] == f"## #{last.seq} {last.title}" and last.step == "end"
    code, _, err = run(capsys, "campaign", "export", str(path), "--fight", "3")
    assert code == 2
    assert one_error(err) == f"hsm: error: {path} holds 2 fight(s), no fight 3"


def _stepped_set_up() -> Session:
    """F7's clicks: the band stepped short → medium → long, a cover stepped twice, a
    raider placed and then sent off; then the fight starts."""
    from hsm_tui.campaign.combat import AddCombatants, AddZone, RemoveCombatant, SetBand, SetCover

    session = Session(seed=7)
    session.load_content()
    for command in (
        AddZone("dig"),
        AddZone("crater"),
        *(SetBand("dig", "crater", band) for band in ("short", "medium", "long")),
        AddCombatants("hero", "kestrel-vance", "heroes", "dig", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "crater", count=2),
        *(SetCover("kestrel-vance-1", cover) for cover in ("light", "medium")),
        SetCover("pirate-raider-2", "heavy"),
        RemoveCombatant("pirate-raider-2"),
        StartCombat(),
    ):
        session.apply(command)
    return session


def test_issue_36_8_the_export_shows_the_set_up_as_it_stood_when_the_fight_started() -> None:
    session = _stepped_set_up()
    (fight,) = fights(session.log)
    text = to_markdown(fight, "Fight 1")
    assert "- dig ↔ crater: long" in text
    assert "crater: short" not in text and "crater: medium" not in text
    assert "- Kestrel Vance: medium cover" in text and "light cover" not in text
    assert "Pirate raider 2: heavy cover" not in text  # it left: its cover no longer holds
    assert "- Pirate raider 2 leaves the encounter" in text
    assert "*as it stood at the end: 4 earlier setting(s) left out*" in text
    assert text.count(SET_UP_TITLE) == 1


def test_issue_36_8_what_a_step_sets_is_kept_in_the_file(tmp_path: Path, capsys) -> None:
    """Saved and exported by ``hsm campaign export``: the set-up still reads as it stood."""
    from hsm_tui.persistence import store
    from tests.test_campaign_cli import run

    path = store.save(_stepped_set_up(), tmp_path / "stepped.toml")
    code, out, err = run(capsys, "campaign", "export", str(path), "--fight", "1")
    assert (code, err) == (0, "")
    assert "- dig ↔ crater: long" in out and "crater: short" not in out
