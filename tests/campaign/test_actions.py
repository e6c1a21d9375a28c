"""Actions without a roll: Aim, Dodge, Full defense, Reload, Stand up (R-ACT-2/5/6)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    Attack,
    EndTurn,
    Move,
    SetBand,
    StartCombat,
    TakeAction,
)
from hsm_tui.rules import RulesError
from hsm_tui.table.seat_choices import (
    action_options,
    cover_options,
    declare_options,
    detail_options,
)
from hsm_tui.table.session import Session
from tests.campaign import edit, pack


def _session(hero: str = "kestrel-vance", minion: str = "pirate-raider") -> Session:
    session = Session(seed=2, content=pack())
    for command in (
        AddZone("a"),
        AddZone("b"),
        SetBand("a", "b", "short"),
        AddCombatants("hero", hero, "party", "a"),
        AddCombatants("minion", minion, "foes", "b", count=2),
        StartCombat(),
    ):
        session.apply(command)
    return session


def _hero_turn(session: Session) -> str:
    """End turns until the Hero acts; return its id."""
    for _ in range(6):
        actor = session.encounter.turn.actor
        if actor.startswith("kestrel") or actor.startswith("roan"):
            return actor
        session.apply(EndTurn())
    raise AssertionError("the Hero never got a turn")


def test_r_act_2_aim_gives_one_free_reroll_on_the_next_attack() -> None:
    session = _session()
    hero = _hero_turn(session)
    edit(session, hero, luck=0)  # free re-rolls only: spent by the odds policy, no question
    session.apply(TakeAction(hero, "aim"))
    weapon = session.encounter.get(hero).weapons[0].id
    session.apply(Attack(hero, "pirate-raider-1", weapon))
    attack_entry = next(
        e for e in reversed(session.log) if e.title.endswith("attacks Pirate raider 1")
    )
    assert any(line.startswith("Aim: 1 free re-roll") for line in attack_entry.lines)
    assert hero in session.encounter.turn.aim_used


def test_r_act_1_aim_and_dodge_are_actions_and_cannot_repeat() -> None:
    session = _session()
    hero = _hero_turn(session)
    session.apply(TakeAction(hero, "dodge"))
    with pytest.raises(RulesError, match="no action twice"):
        session.apply(TakeAction(hero, "dodge"))
    assert "dodging" in session.encounter.get(hero).conditions


def test_r_act_2_dodge_lasts_until_the_next_turn() -> None:
    session = _session()
    hero = _hero_turn(session)
    session.apply(TakeAction(hero, "dodge"))
    session.apply(EndTurn())
    assert "dodging" in session.encounter.get(hero).conditions  # through the foes' turn
    _hero_turn(session)
    assert "dodging" not in session.encounter.get(hero).conditions


def test_r_act_5_full_defense_is_two_actions_for_heroes_only() -> None:
    session = _session()
    hero = _hero_turn(session)
    session.apply(TakeAction(hero, "full-defense"))
    assert session.encounter.turn.left(hero) == 0
    assert "full-defense" in session.encounter.get(hero).conditions
    session.apply(EndTurn())
    raider = session.encounter.members(session.encounter.turn.actor)[0]
    with pytest.raises(RulesError, match="full defense is for Heroes"):
        session.apply(TakeAction(raider.id, "full-defense"))


def test_r_act_5_reload_refills_a_reloadable_weapon_with_two_actions() -> None:
    session = _session(minion="pirate-boarder")  # boarding scattergun: reloaded, not recharged
    _hero_turn(session)
    session.apply(EndTurn())  # now the boarders act
    boarder = session.encounter.members(session.encounter.turn.actor)[0]
    gun = boarder.weapon("boarding-scattergun")
    emptied = replace(
        boarder, weapons=tuple(replace(w, charges=0) if w is gun else w for w in boarder.weapons)
    )
    session.encounter = session.encounter.with_combatant(emptied)
    session.apply(TakeAction(boarder.id, "reload", gun.id))
    assert session.encounter.get(boarder.id).weapon(gun.id).charges == gun.power
    assert session.encounter.turn.left(boarder.id) == 0
    assert "reloads Boarding Scattergun" in session.log[-1].title


def test_r_act_5_a_recharging_weapon_cannot_be_reloaded() -> None:
    session = _session()
    hero = _hero_turn(session)
    weapon = session.encounter.get(hero).weapons[0].id  # assault laser: recharges
    before = (session.encounter, session.log)
    with pytest.raises(RulesError, match="is not reloaded"):
        session.apply(TakeAction(hero, "reload", weapon))
    assert (session.encounter, session.log) == before


def test_r_act_6_standing_up_needs_prone_and_costs_an_action() -> None:
    session = _session()
    hero = _hero_turn(session)
    with pytest.raises(RulesError, match="not Prone"):
        session.apply(TakeAction(hero, "stand"))
    session.encounter = session.encounter.with_combatant(
        replace(session.encounter.get(hero), prone=True)
    )
    session.apply(TakeAction(hero, "stand"))
    assert not session.encounter.get(hero).prone
    assert session.encounter.turn.left(hero) == 1


def test_unknown_action_is_refused() -> None:
    session = _session()
    hero = _hero_turn(session)
    with pytest.raises(RulesError, match="unknown action"):
        session.apply(TakeAction(hero, "dance"))


def test_s8_panicked_may_only_move_run_or_hide() -> None:
    session = _session()
    _hero_turn(session)
    session.apply(EndTurn())  # the raiders' turn
    raider = session.encounter.members(session.encounter.turn.actor)[0]
    panicked = replace(raider, conditions=("panicked",))
    session.encounter = session.encounter.with_combatant(panicked)
    before = (session.encounter, session.log)
    with pytest.raises(RulesError, match="Panicked: only Move, Run or Hide"):
        session.apply(Attack(raider.id, "kestrel-vance-1", raider.weapons[0].id))
    with pytest.raises(RulesError, match="Panicked"):
        session.apply(TakeAction(raider.id, "aim"))
    assert (session.encounter, session.log) == before
    session.apply(Move(raider.id, "a", run=True))
    assert session.encounter.get(raider.id).zone == "a"


def _labels(options: list) -> dict[str, str]:
    return {o.command.weapon or o.command.action: o.label for o in options}


def test_r_act_5_the_action_menu_shows_what_the_engine_refuses_and_why() -> None:
    """Every entry of the action menu is the engine's own check: Roan Maddox (a recharging
    Laser Pistol, a Boarding Cutlass) has nothing to reload, and with 1 action left no
    action of 2 fits; each ✗ carries the reason picking it would be refused with.
    """
    session = _session(hero="roan-maddox")
    hero = _hero_turn(session)
    enc, cat, roan = session.encounter, session.catalog, session.encounter.get(hero)
    menu = _labels(action_options(enc, roan, cat))
    assert menu["reload"] == (
        "✗ reload (2 actions): a weapon back to full charges — Laser Pistol is not reloaded:"
        " it regains 1 charge each turn it does not fire (R-ATK-3); Boarding Cutlass is not"
        " reloaded: it holds no charges"
    )
    assert menu["stand"].startswith("✗ stand") and menu["stand"].endswith("is not Prone")
    assert menu["full-defense"] == "full-defense (2 actions): Dodge +2 until its next turn (Heroes)"
    assert not menu["aim"].startswith("✗")
    reloads = _labels(detail_options(enc, roan, TakeAction(hero, "reload"), cat))
    assert (
        reloads["cutlass"]
        == "✗ Boarding Cutlass — Boarding Cutlass is not reloaded: it holds no charges"
    )
    interact = _labels(detail_options(enc, roan, TakeAction(hero, "interact"), cat))
    assert interact["laser-pistol"].endswith("Laser Pistol is neither stuck nor dropped")
    assert interact["interact"] == "other equipment nearby"
    session.apply(TakeAction(hero, "aim"))
    enc = session.encounter
    menu = _labels(action_options(enc, enc.get(hero), cat))
    assert menu["full-defense"].endswith(
        "— full-defense (R-ACT-5) takes 2 actions, but Captain Roan Maddox has only 1 left"
        " this turn: used 1 (aim)"
    )
    assert menu["aim"].endswith("already took aim this turn: no action twice (R-ACT-1)")
    for option in action_options(enc, enc.get(hero), cat):
        command = option.command
        if option.label.startswith("✗") and command.action not in ("reload", "break-free", "hide"):
            with pytest.raises(RulesError) as refused:
                session.apply(command)
            assert option.label.endswith(str(refused.value))


def test_r_act_3_the_declare_menu_shows_the_engines_refusal() -> None:
    session = _session(hero="roan-maddox")
    hero = _hero_turn(session)
    assert not any(o.label.startswith("✗") for o in declare_options(session.encounter))
    session.apply(TakeAction(hero, "aim"))
    late = declare_options(session.encounter)
    assert all(o.label.endswith("before acting") for o in late)
    session.apply(EndTurn())
    minions = declare_options(session.encounter)
    assert minions[0].label == "2 actions"
    assert minions[1].label.startswith("✗ 3 actions, each at −1 — Pirate raider")


def test_r_act_2_a_panicked_group_hides_paying_an_action_each() -> None:
    """§8 Panicked: only Move, Run or Hide. The group's cover in a fight is each member's
    Hide (R-ACT-2), so a Panicked group hides as one figure does: an action each, no
    hide twice, and nothing else its panic forbids.
    """
    session = _session(hero="roan-maddox")
    _hero_turn(session)
    session.apply(EndTurn())  # the raiders' turn
    r1, r2 = "pirate-raider-1", "pirate-raider-2"
    for raider in (r1, r2):
        edit(session, raider, conditions=("panicked",))
    enc, cat = session.encounter, session.catalog
    options = cover_options(enc, enc.get(r1), cat)
    assert [o.label for o in options] == [
        "all 2 out of cover",
        "all 2 hide in light cover (1 action each)",
        "all 2 hide in medium cover (1 action each)",
        "all 2 hide in heavy cover (1 action each)",
    ]
    session.apply(options[2].command)
    enc = session.encounter
    assert [(enc.get(r).cover.label, enc.turn.used_by(r)) for r in (r1, r2)] == [
        ("medium", ("hide",)),
        ("medium", ("hide",)),
    ]
    again = cover_options(enc, enc.get(r1), cat)[3]
    assert again.label.endswith("already took hide this turn: no action twice (R-ACT-1)")
    with pytest.raises(RulesError, match="no action twice"):
        session.apply(again.command)
    aim = action_options(enc, enc.get(r1), cat)[0]
    assert aim.label.endswith("is Panicked: only Move, Run or Hide (§8)")
