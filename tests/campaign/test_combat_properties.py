"""Property test: random sequences of legal and illegal combat commands (RULES.md §3–§8).

Hypothesis drives a small encounter through the Session with a mix of commands that
fit the current turn (the actor's members, their weapons, the pending question) and
commands that do not (wrong turn, unknown ids, bad values). Whatever happens:

- the engine raises nothing but RulesError, and a refused command changes nothing;
- the invariants hold after every step (R-ACT-1 actions, Fear, wound markers, charges);
- the session round-trips through a campaign file's TOML text: the loaded one has the
  same state and dice, and keeps the undo history back to the fresh session;
- undoing everything gives back the fresh session, and redoing it gives the same end.
"""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hsm_tui.campaign.combat import (
    ACTIONS,
    AddCombatants,
    AddZone,
    AnswerDive,
    ApplyDamage,
    Attack,
    ChooseChartRow,
    ClearEncounter,
    CloseIn,
    DecideSidekick,
    DeclareActions,
    EndCombat,
    EndTurn,
    Move,
    PendingChartChoice,
    PendingCombatRerolls,
    PendingDive,
    PendingSidekick,
    RemoveCombatant,
    SetBand,
    SetCondition,
    SetCover,
    StartCombat,
    Suppress,
    TakeAction,
)
from hsm_tui.campaign.conditions import CONDITIONS
from hsm_tui.persistence import store
from hsm_tui.rules import Rank, RulesError
from hsm_tui.table.session import Command, Session
from tests.campaign import pack, state

SEED = 11
SETUP: tuple[Command, ...] = (
    AddZone("ridge"),
    AddZone("dig"),
    AddZone("trench"),
    SetBand("ridge", "dig", "short"),
    SetBand("ridge", "trench", "melee"),
    SetBand("dig", "trench", "medium"),
    AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
    AddCombatants("sidekick", "pirate-first-mate", "heroes", "ridge"),
    AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2),
    AddCombatants("minion", "corporate-heavy-gunner", "pirates", "ridge"),
    AddCombatants("minion", "security-drone", "pirates", "dig"),
)
IDS = (
    "kestrel-vance-1",
    "pirate-first-mate-1",
    "pirate-raider-1",
    "pirate-raider-2",
    "corporate-heavy-gunner-1",
    "security-drone-1",
    "ghost",
)
WEAPONS = (
    "assault-laser",
    "laser-pistol",
    "dagger",
    "whip",
    "cutlass",
    "plasma-caster",
    "fists",
    "drone-stunner",
    "bow",
)
ZONES = ("ridge", "dig", "trench", "moon")
COVERS = ("none", "light", "medium", "heavy", "bunker")
STYLES = (None, None, None, "wild", "power", "agile", "rifles")
ROWS = ("painful-wound", "limb-injury", "random", "scarred", "dead")

ids = st.sampled_from(IDS)


def _random_command(data: st.DataObject) -> Command:
    """Any command, with any values: most are refused."""
    return data.draw(
        st.one_of(
            st.builds(
                Attack,
                ids,
                ids,
                st.sampled_from(WEAPONS),
                st.sampled_from(STYLES),
                st.booleans(),
                st.integers(-2, 2),
                st.sampled_from((None, None, 0, 1, 2, 6)),
            ),
            st.builds(Move, ids, st.sampled_from(ZONES), st.booleans()),
            st.builds(CloseIn, ids, st.sampled_from(ZONES)),
            st.builds(AnswerDive, st.sampled_from(COVERS)),
            st.builds(ChooseChartRow, st.sampled_from(ROWS)),
            st.builds(DecideSidekick, ids, st.sampled_from(("hero", "minion", "villain"))),
            st.builds(DeclareActions, st.integers(0, 5)),
            st.builds(SetCover, ids, st.sampled_from(COVERS)),
            st.builds(SetBand, st.sampled_from(ZONES), st.sampled_from(ZONES), st.just("short")),
            st.just(StartCombat()),
            st.just(EndTurn()),
            st.just(Attack("kestrel-vance-1", "pirate-raider-1", "laser-pistol", issuer="p:ana")),
            st.just(AddCombatants("minion", "xeno-hound", "beasts", "trench")),
            st.builds(
                SetCondition,
                ids,
                st.sampled_from((*CONDITIONS, "prone", "bogus")),
                st.integers(-1, 3),
            ),
            st.builds(
                TakeAction,
                ids,
                st.sampled_from((*ACTIONS, "fly")),
                st.sampled_from((None, "dagger", "laser-pistol")),
            ),
            st.builds(
                Suppress,
                ids,
                st.sampled_from(("assault-laser", "laser-pistol", "dagger")),
                st.lists(ids, max_size=3).map(tuple),
            ),
            st.builds(StartCombat, st.lists(ids, max_size=2).map(tuple)),
            st.builds(ApplyDamage, ids, st.integers(-2, 30), st.booleans()),
            st.builds(RemoveCombatant, ids),
            st.builds(ClearEncounter, st.booleans()),
        )
    )


def _fitting_command(session: Session, data: st.DataObject) -> Command:
    """A command that fits the moment: answer the question, or act on the turn."""
    pending = session.pending
    if isinstance(pending, PendingDive):
        return AnswerDive(data.draw(st.sampled_from(COVERS)))
    if isinstance(pending, PendingChartChoice):
        return ChooseChartRow(data.draw(st.sampled_from((*pending.rows, "random", "scarred"))))
    if isinstance(pending, PendingSidekick):
        return DecideSidekick(pending.combatant, data.draw(st.sampled_from(("hero", "minion"))))
    if isinstance(pending, PendingCombatRerolls):
        return data.draw(st.sampled_from(pending.options)).command
    enc = session.encounter
    if enc.turn is None:
        return StartCombat()
    members = [c for c in enc.members(enc.turn.actor) if enc.turn.left(c.id)]
    if not members:
        return EndTurn()
    actor = data.draw(st.sampled_from(members))
    kinds = (
        *("attack", "attack", "attack", "move", "close", "declare"),
        *("end", "action", "mark", "suppress"),
    )
    kind = data.draw(st.sampled_from(kinds))
    targets = [c.id for c in enc.combatants if c.id != actor.id and c.standing]
    target = data.draw(st.sampled_from(targets or [actor.id]))
    weapon = data.draw(st.sampled_from([w.id for w in actor.weapons] or ["fists"]))
    if kind == "attack":
        called = data.draw(st.booleans())
        return Attack(
            actor.id,
            target,
            weapon,
            called_shot=called,
            location=data.draw(st.sampled_from(("", "head", "limb"))) if called else "",
            hand=data.draw(st.sampled_from(("", "", "main", "off"))),
            throw=data.draw(st.booleans()),
            grapple=data.draw(st.booleans()),
            rerolls=data.draw(st.integers(0, 1)),
        )
    if kind == "action":
        return TakeAction(actor.id, data.draw(st.sampled_from(tuple(ACTIONS))), weapon)
    if kind == "mark":
        mark = data.draw(st.sampled_from((*CONDITIONS, "prone")))
        return SetCondition(data.draw(st.sampled_from(IDS)), mark, data.draw(st.integers(0, 2)))
    if kind == "suppress":
        return Suppress(actor.id, weapon, tuple(targets[:2]), tuple(targets[:1]))
    if kind == "move":
        return Move(actor.id, data.draw(st.sampled_from(ZONES[:3])), data.draw(st.booleans()))
    if kind == "close":  # R-ACT-2: a band nearer a far zone (a new spot on the way)
        return CloseIn(actor.id, data.draw(st.sampled_from(enc.zones)))
    if kind == "declare":
        return DeclareActions(data.draw(st.integers(2, 4)))
    return EndTurn()


def _check_invariants(session: Session) -> None:
    enc = session.encounter
    for c in enc.combatants:
        assert c.fear >= 0, c
        assert 0 <= c.wounds <= 3, c
        assert 0 <= c.nonlethal <= 3, c
        assert c.severe >= 0 and c.lose_actions >= 0, c
        for w in c.weapons:
            if w.charges is not None:
                assert w.power is not None and 0 <= w.charges <= w.power, (c.id, w)
        if c.rank is Rank.MINION:
            assert c.wounds == 0 and c.nonlethal == 0, c  # R-WOUND-2: out instead
    turn = enc.turn
    if not enc.active:
        assert turn is None
        return
    assert turn is not None
    if enc.round:  # the surprise round (R-INIT-3) runs before the initiative order
        assert enc.order[enc.turn_index].actor == turn.actor
    for c in enc.combatants:
        used = turn.used_by(c.id)
        assert len(set(used)) == len(used), used  # R-ACT-1: no action twice
        assert len(used) <= turn.declared, used
        lost = dict(turn.lost).get(c.id, 0)
        assert len(used) <= max(0, turn.declared - lost), (used, turn)
        if used:
            assert c.group == turn.actor  # only the actor's members act
    if any(c.group == turn.actor and c.rules_rank is Rank.MINION for c in enc.combatants):
        assert turn.declared == 2  # R-ACT-1: Minions exactly 2


@settings(
    max_examples=50,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_command_sequences_keep_the_rules_invariants(data: st.DataObject) -> None:
    session = Session(seed=SEED, content=pack())
    fresh = state(session)
    for command in SETUP:
        session.apply(command)
    steps = data.draw(st.integers(20, 80), label="steps")
    for _ in range(steps):
        roll = data.draw(st.integers(0, 99), label="kind")
        if roll < 80:
            command = _fitting_command(session, data)
        elif roll < 99:
            command = _random_command(data)
        else:
            command = EndCombat()  # rare: back to free-flowing, combat starts again
        before = state(session)
        try:
            session.apply(command)  # anything but RulesError fails the test
        except RulesError:
            assert state(session) == before, command  # a refusal changes nothing
            event(f"refused {type(command).__name__}")
        else:
            event(f"accepted {type(command).__name__}")
        _check_invariants(session)
    final = state(session)
    enc = session.encounter
    event(f"outs {sum(c.out for c in enc.combatants)}")
    event(f"wounded hero {any(c.wounds for c in enc.combatants)}")
    event(f"unconscious {any(c.unconscious for c in enc.combatants)}")
    event(f"severe {any(c.severe for c in enc.combatants)}")
    event(f"round {enc.round}")

    # a campaign file in mid-fight (hsm_tui/persistence/store.py writes this TOML): the very same
    # session comes back, pending question, queue and dice included, with its undo history
    loaded = Session(content=pack())
    text = store.encode(session.to_data, Path("mid-fight.toml")).decode()
    answer = loaded.load_data(tomllib.loads(text))
    assert answer == f"undo history of {len(session.history)} step(s), checked on the first undo"
    assert state(loaded) == final  # encounter, log, pending, dice, history, can undo
    assert loaded.rng.getstate() == session.rng.getstate()
    assert (loaded.queue, loaded.campaign, loaded.seed) == (session.queue, session.campaign, SEED)
    while loaded.can_undo:
        loaded.undo()
    assert state(loaded) == fresh

    while session.can_undo:
        session.undo()
    assert state(session) == fresh
    assert session.rng.getstate() == random.Random(SEED).getstate()

    while session.can_redo:
        session.redo()
    assert state(session) == final
