"""A file that opens is a file that plays: open and ``hsm campaign check`` refuse every
reference to nothing and every number out of play's reach, with the key at fault, and
``check`` replays the undo history and names the step where it stops fitting.
"""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from hsm_tui.campaign.combat import Attack, RemoveCombatant
from hsm_tui.campaign.conditions import MARKERS
from hsm_tui.campaign.party import AddHero, EditChart
from hsm_tui.cli.campaign import problems
from hsm_tui.persistence import store, versions
from hsm_tui.persistence.store import CampaignFileError
from hsm_tui.table.session import Session
from tests.campaign import pack, play
from tests.campaign.test_combat_engine import duel as fight_on
from tests.test_persistence import R1, K, duel

Change = Callable[[dict[str, Any]], object]


def _saved(tmp_path: Path) -> Path:
    return store.save(duel(seed=1), tmp_path / "c.toml")


def _edited(path: Path, change: Change) -> Path:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    change(data["state"])
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


def _combatant(i: int, **fields: object) -> Change:
    return lambda s: s["encounter"]["combatants"][i].update(fields)


def _encounter(**fields: object) -> Change:
    return lambda s: s["encounter"].update(fields)


def _first_order(**fields: object) -> Change:
    return lambda s: s["encounter"]["order"][0].update(fields)


def _turn(**fields: object) -> Change:
    return lambda s: s["encounter"]["turn"].update(fields)


_IDS = "kestrel-vance-1, pirate-raider-1, pirate-raider-2"
_MARKERS = ", ".join(MARKERS)

OUT_OF_PLAY = [
    pytest.param(
        _combatant(1, zone="nowhere"),
        "state.encounter.combatants[1].zone: 'nowhere' is not a zone of this encounter"
        " (dig, ridge)",
        id="zone-unknown",
    ),
    pytest.param(
        _encounter(bands=[["ridge", "moon", "long"]]),
        "state.encounter.bands[0]: 'moon' is not a zone of this encounter (dig, ridge)",
        id="band-to-unknown-zone",
    ),
    pytest.param(
        _combatant(0, engaged=["ghost"]),
        "state.encounter.combatants[0].engaged[0]: 'ghost' is not another combatant of this"
        " encounter (pirate-raider-1, pirate-raider-2)",
        id="engaged-unknown",
    ),
    pytest.param(
        _first_order(actor="ghost"),
        "state.encounter.order[0].actor: 'ghost' is not a combatant or group of this"
        " encounter (kestrel-vance-1, pirate-raider-1, pirate-raider-2, pirate-raider@pirates)",
        id="initiative-actor-unknown",
    ),
    pytest.param(
        lambda s: s["encounter"]["turn"].update(actor="kestrel-vance-9"),
        "state.encounter.turn.actor: 'kestrel-vance-9' is not an actor in the initiative order"
        " of this encounter (kestrel-vance-1, pirate-raider@pirates)",
        id="turn-actor-unknown",
    ),
    pytest.param(
        _turn(used=[["pirate-raider-1", "move"], ["ghost", "attack"]]),
        f"state.encounter.turn.used[1]: 'ghost' is not a combatant of this encounter ({_IDS})",
        id="turn-used-unknown",
    ),
    pytest.param(
        _turn(lost=[["ghost", 1]]),
        f"state.encounter.turn.lost[0]: 'ghost' is not a combatant of this encounter ({_IDS})",
        id="turn-lost-unknown",
    ),
    pytest.param(
        _turn(lost=[["pirate-raider-2", 99]]),
        "state.encounter.turn.lost[0]: 99 is outside 0 to 9",
        id="turn-lost-99",
    ),
    pytest.param(
        _turn(lost_why=[["ghost", "wound"]]),
        f"state.encounter.turn.lost_why[0]: 'ghost' is not a combatant of this encounter ({_IDS})",
        id="turn-lost-why-unknown",
    ),
    pytest.param(
        _turn(movers=["pirate-raider-1", "ghost"]),
        f"state.encounter.turn.movers[1]: 'ghost' is not a combatant of this encounter ({_IDS})",
        id="turn-mover-unknown",
    ),
    pytest.param(
        _turn(reactions=["ghost"]),
        f"state.encounter.turn.reactions[0]: 'ghost' is not a combatant of this encounter ({_IDS})",
        id="turn-reaction-unknown",
    ),
    pytest.param(
        _turn(main_weapons=[["pirate-raider-1", "assault-laser"]]),
        "state.encounter.turn.main_weapons[0]: 'assault-laser' is not a weapon pirate-raider-1"
        " carries (laser-pistol, cutlass)",
        id="turn-main-weapon-not-carried",
    ),
    pytest.param(
        _encounter(dive_policy=[["pirates", "run"]]),
        "state.encounter.dive_policy[0]: 'run': expected one of stay, light, medium, heavy",
        id="dive-policy-unknown",
    ),
    pytest.param(
        _encounter(turn_index=-2), "state.encounter.turn_index: -2 is outside -1 to 1", id="ti-low"
    ),
    pytest.param(
        _encounter(turn_index=99), "state.encounter.turn_index: 99 is outside -1 to 1", id="ti-99"
    ),
    pytest.param(_encounter(round=-3), "state.encounter.round: -3 is outside 0 to 10000", id="r-3"),
    pytest.param(
        _encounter(round=2**62),
        f"state.encounter.round: {2**62} is outside 0 to 10000",
        id="round-2^62",
    ),
    pytest.param(
        _combatant(2, size=10**12),
        "state.encounter.combatants[2].size: 1000000000000 is outside -5 to 5",
        id="size-huge",
    ),
    pytest.param(
        _combatant(2, size=-(10**12)),
        "state.encounter.combatants[2].size: -1000000000000 is outside -5 to 5",
        id="size-negative",
    ),
    pytest.param(
        lambda s: s["encounter"]["combatants"][0]["ratings"].update(pistols=10**12),
        "state.encounter.combatants[0].ratings: pistols rating must be a whole number from 0"
        " to 99, got 1000000000000",
        id="rating-huge",
    ),
    pytest.param(
        lambda s: s["campaign"].update(adventure=0),
        "state.campaign.adventure: 0 is outside 1 to 10000",
        id="adventure-0",
    ),
    pytest.param(
        lambda s: s["campaign"].update(roster=[["minion", "pirate-raider"], ["villain", "x"]]),
        "state.campaign.roster[1]: 'villain': the roster holds sidekick and minion entries",
        id="roster-kind-unknown",
    ),
    pytest.param(
        _combatant(2, conditions=["shaken", "stunnd"]),
        f"state.encounter.combatants[2].conditions[1]: 'stunnd' is not a condition ({_MARKERS})",
        id="condition-unknown",
    ),
    pytest.param(
        _combatant(2, conditions=["dazed:12"]),
        "state.encounter.combatants[2].conditions[0]: 'dazed:12': dazed counts 1 to 9 (dazed:2)",
        id="condition-dazed-12",
    ),
    pytest.param(
        _combatant(2, conditions=["bleed-tokens:many"]),
        "state.encounter.combatants[2].conditions[0]: 'bleed-tokens:many': bleed-tokens counts"
        " 1 to 99 (bleed-tokens:2)",
        id="condition-tokens-not-a-number",
    ),
    pytest.param(
        _combatant(2, conditions=["shaken:2"]),
        "state.encounter.combatants[2].conditions[0]: 'shaken:2': shaken counts nothing",
        id="condition-shaken-counted",
    ),
    pytest.param(
        _combatant(2, conditions=["pinned", "pinned"]),
        "state.encounter.combatants[2].conditions[1]: 'pinned' is marked twice",
        id="condition-twice",
    ),
    pytest.param(
        _combatant(1, countdowns=[{"effect": "shaken", "left": 1, "of": 2}]),
        "state.encounter.combatants[1].countdowns[0].effect: 'shaken': shaken is not timed:"
        " Fear ends it",
        id="countdown-untimed-condition",
    ),
    pytest.param(
        _combatant(1, countdowns=[{"effect": "Stunned", "left": 1, "of": 2}]),
        "state.encounter.combatants[1].countdowns[0].effect: 'Stunned': kept as 'stunned'",
        id="countdown-condition-as-typed",
    ),
    pytest.param(
        _combatant(1, countdowns=[{"effect": "x" * 41, "left": 1, "of": 2}]),
        f"state.encounter.combatants[1].countdowns[0].effect: '{'x' * 41}': an effect is at"
        " most 40 characters, not 41",
        id="countdown-words-too-long",
    ),
    pytest.param(
        _combatant(1, countdowns=[{"effect": "on fire", "left": 1, "of": 2}] * 2),
        "state.encounter.combatants[1].countdowns[1].effect: 'on fire': counted twice",
        id="countdown-twice",
    ),
    pytest.param(
        _combatant(1, countdowns=[{"effect": "on fire", "left": 3, "of": 2}]),
        "state.encounter.combatants[1].countdowns[0].left: 3 is outside 0 to 2",
        id="countdown-left-past-its-turns",
    ),
    pytest.param(
        _combatant(1, countdowns=[{"effect": "on fire", "left": 1, "of": 10**6}]),
        "state.encounter.combatants[1].countdowns[0].of: 1000000 is outside 1 to 20",
        id="countdown-a-million-turns",
    ),
    pytest.param(
        _combatant(1, note="n" * 201),
        "state.encounter.combatants[1].note: a note holds at most 200 characters, not 201",
        id="note-too-long",
    ),
]


@pytest.mark.parametrize(("change", "message"), OUT_OF_PLAY)
def test_a_reference_to_nothing_or_a_number_out_of_play_is_refused_by_open_and_check(
    tmp_path: Path, change: Change, message: str
) -> None:
    path = _edited(_saved(tmp_path), change)
    assert problems(path) == [f"{path}: key {message}"]
    with pytest.raises(CampaignFileError, match=f"^{re.escape(f'{path}: key {message}')}$"):
        store.load(Session(content=pack()), path)


LOG_OUT_OF_PLAY = [
    pytest.param(
        lambda s: s.update(log=s["log"].replace('"public", "setup"]', '"nobody", "setup"]', 1)),
        "state.log[0].visibility: 'nobody': expected one of public, gm, open, title, record, "
        "building",
        id="log-visibility",
    ),
    pytest.param(
        lambda s: s.update(log=s["log"].replace('"public", "setup"]', '"public", "later"]', 1)),
        "state.log[0].step: 'later': expected setup, start, end or none",
        id="log-step",
    ),
]


@pytest.mark.parametrize(("change", "message"), LOG_OUT_OF_PLAY)
def test_a_log_entry_out_of_play_is_named_by_check_and_opens_as_an_entry_that_says_so(
    tmp_path: Path, change: Change, message: str
) -> None:
    """Open reads each log entry when something first asks for it (a long campaign opens
    in a fraction of the time) and can no longer refuse it then: it reads as an entry for
    the GM alone that says what is wrong; ``check`` reads every one and names it."""
    path = _edited(_saved(tmp_path), change)
    assert problems(path) == [f"{path}: key {message}"]
    session = Session(content=pack())
    store.load(session, path)
    first = session.log[0]
    assert first.title == "Log entry 1 could not be read (hsm campaign check names its line)"
    assert (first.lines, first.visibility) == ((message.split(": ", 1)[1],), "gm")
    assert session.log[1].title == "Zone dig"


def test_the_file_as_saved_plays_and_checks(tmp_path: Path) -> None:
    assert problems(_saved(tmp_path)) == []


def test_check_names_the_undo_step_where_the_history_stops_fitting(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    text = path.read_text(encoding="utf-8")
    step = '{"_type": "AddZone", "name": "dig"'
    line = text[: text.index(step)].count("\n") + 1
    path.write_text(text.replace(step, '{"_type": "AddZone", "name": "pit"', 1), encoding="utf-8")
    store.load(Session(content=pack()), path)  # opens: the steps wait for the first u
    assert problems(path) == [
        f"{path}: line {line}, key undo.commands[1]: the undo history stops fitting at step 2"
        " of 7: its log entries are not the file's; the first u would drop it"
    ]


def test_check_says_when_the_history_ends_elsewhere_than_the_state_saved(tmp_path: Path) -> None:
    path = _edited(_saved(tmp_path), lambda s: s["campaign"].update(scene="a storm"))
    assert problems(path) == [
        f"{path}: key undo: the undo history replayed ends in a state other than the one saved"
        " (7 step(s)); the first u would drop it"
    ]


def test_r_other_4_a_combatant_who_leaves_takes_its_records_of_the_turn_along(
    tmp_path: Path,
) -> None:
    """Kestrel reacted on the raiders' turn (zone of control) and leaves the fight: the
    turn keeps no record of her, so the campaign saved then opens (a turn naming a
    combatant gone is refused above)."""
    session = duel(seed=1)
    turn = session.encounter.turn
    assert turn is not None and turn.actor == "pirate-raider@pirates"
    raider = "pirate-raider-1"
    records = {"used": ((raider, "move"),), "reactions": (K,), "lost": ((K, 1), (raider, 0))}
    session.encounter = session.encounter.with_turn(replace(turn, **records))
    session.apply(RemoveCombatant(K))
    left = session.encounter.turn
    assert left is not None
    assert (left.used, left.reactions, left.lost) == (((raider, "move"),), (), ((raider, 0),))
    again = Session(content=pack())
    store.load(again, store.save(session, tmp_path / "c.toml"))
    assert again.encounter.turn == left


def _waiting_dive(tmp_path: Path) -> Path:
    """A campaign saved while the raider's dive question waits (R-ATK-5)."""
    s = fight_on()
    play(s, Attack(K, R1, "assault-laser"), 1, 9, 9, 9, 9, 2)
    s.rng = random.Random(0)  # the file keeps the session's dice, not a script's
    return store.save(s, tmp_path / "dive.toml")


@pytest.mark.parametrize(
    ("key", "value"),
    [("target", "pirate-raider-9"), ("attacker", "party:nobody"), ("queue", ["ghost-1"])],
)
def test_r_atk_5_a_waiting_question_that_names_nobody_is_refused_with_its_key(
    tmp_path: Path, key: str, value: object
) -> None:
    path = _edited(_waiting_dive(tmp_path), lambda s: s["pending"]["attack"].update({key: value}))
    where = f"state.pending.attack.{key}" + ("[0]" if key == "queue" else "")
    assert problems(path)[0].startswith(f"{path}: key {where}: ")
    with pytest.raises(CampaignFileError, match=re.escape(where)):
        store.load(Session(content=pack()), path)
    good = _waiting_dive(tmp_path)
    opened = Session(content=pack())
    store.load(opened, good)
    assert opened.pending is not None  # the question as saved opens and waits


def test_the_markers_and_countdowns_play_makes_open(tmp_path: Path) -> None:
    """§8 markers, the engine's own among them, and countdowns: the GM's words, a
    condition the GM times, and one a chart row times that the GM may not (§7: a pack's
    row may time Bleeding)."""
    marks = ["bleed-tokens:2", "bleeding", "dazed:9", "dodging", "stunned"]
    timed = [
        {"effect": "stunned", "left": 2, "of": 3},
        {"effect": "bleeding", "left": 0, "of": 1},
        {"effect": "On  fire", "left": 1, "of": 20},
    ]
    path = _edited(_saved(tmp_path), _combatant(1, conditions=marks, countdowns=timed))
    with pytest.raises(CampaignFileError, match=re.escape("'On  fire': kept as 'On fire'")):
        store.load(Session(content=pack()), path)
    timed[2]["effect"] = "On fire"
    opened = Session(content=pack())
    store.load(opened, _edited(_saved(tmp_path), _combatant(1, conditions=marks, countdowns=timed)))
    raider = opened.encounter.combatants[1]
    assert raider.conditions == tuple(marks)
    assert [cd.effect for cd in raider.countdowns] == ["stunned", "bleeding", "On fire"]


def _party(tmp_path: Path, **member: object) -> Path:
    """A campaign whose Hero Kestrel kept Scarred from the chart (F8 ``R``), edited by hand
    (``member``: her fields as the file then holds them; the header follows)."""
    session = Session(seed=1, content=pack())
    session.apply(AddHero("kestrel-vance"))
    session.apply(EditChart("kestrel-vance", "scarred", add=True))
    path = store.save(session, tmp_path / "party.toml")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["state"]["campaign"]["party"][0].update(member)
    data["header"] = versions.header(data["state"])
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


def test_a_party_hero_keeps_between_fights_only_the_lasting_conditions(tmp_path: Path) -> None:
    """§8: outside a fight a Hero keeps Encumbered, Fatigued and Nauseated, nothing else."""
    path = _party(tmp_path, conditions=["fatigued", "shaken"])
    message = (
        f"{path}: key state.campaign.party[0].conditions[1]: 'shaken' is not a condition a"
        " Hero keeps between fights (encumbered, fatigued, nauseated)"
    )
    assert problems(path) == [message]
    with pytest.raises(CampaignFileError, match=f"^{re.escape(message)}$"):
        store.load(Session(content=pack()), path)
    opened = Session(content=pack())
    store.load(opened, _party(tmp_path, conditions=["encumbered:2", "fatigued"]))
    assert opened.campaign.party[0].conditions == ("encumbered:2", "fatigued")


_ROWS = (
    "scarred, equipment-destroyed, ptsd, stunned, rolls-a-ways, painful-wound, limb-injury,"
    " severe-bleeding, bleeding-out, random-drawback, memory-loss, never-the-same, maimed,"
    " sight-or-hearing-reduced, crippled, dead"
)


def test_a_severe_wound_chart_row_the_packs_lack_is_named_by_check_and_kept_by_open(
    tmp_path: Path,
) -> None:
    """§7: the chart is the packs' (open may have others loaded): ``check`` names a row
    the chart of the packs ``hsm play`` loads lacks, with its key; open keeps it as saved
    and says so, as it does an entry the packs no longer have."""
    path = _party(tmp_path, chart=["scarred", "limb-injry"])
    assert problems(path) == [
        f"{path}: key state.campaign.party[0].chart[1]: 'limb-injry' is not a row of the"
        f" Severe Wound chart ({_ROWS})"
    ]
    opened = Session(content=pack())
    said = store.load(opened, path)
    assert "Kestrel Vance: Severe Wound chart row 'limb-injry' is not in the loaded packs" in said
    assert opened.campaign.party[0].chart == ("scarred", "limb-injry")
    fight = _edited(_saved(tmp_path), _combatant(0, chart=["painful-wound", "bleed"]))
    assert problems(fight) == [
        f"{fight}: key state.encounter.combatants[0].chart[1]: 'bleed' is not a row of the"
        f" Severe Wound chart ({_ROWS})"
    ]
