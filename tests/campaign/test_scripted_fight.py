"""One full scripted fight through the Session (RULES.md §3–§8), turn by turn.

Three player Heroes and a Sidekick (played as a Hero) on a ridge against eight Minions
of three types in two other zones; the Session's own RNG is seeded, so every roll is
fixed. After each turn the test checks who acted, the turn's log title and start-of-turn
lines (Fear checks, lost actions), the actions left, and what changed (Fear, wounds,
out, conditions). The expected values were checked against the rules by hand:

- R-ATK-4/7: Fear = hits + hits through while standing (a Minion taken out gets no more).
- R-ATK-5: a Minion hit in the open dives into light cover and loses an action next turn.
- R-ATK-8: Kestrel (light cover) and trooper 1 (medium) are Pinned once Fear > Morale.
- R-FEAR-1/2: hound 1 (Morale 3) is Shaken at Fear 3, then Panicked when still at 3;
  Mireille fails her Morale roll with a Misfortune (+1 Fear) and is Shaken.
- R-WOUND-1/4, §7: Mireille goes −1, −2, then severely wounded (chart 7 + 2 = 9: PTSD).

Then the whole fight is undone to the start, redone, and replayed from seed + history.
"""

from __future__ import annotations

from dataclasses import dataclass

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    AnswerDive,
    Attack,
    DecideSidekick,
    EndTurn,
    Move,
    SetBand,
    SetCover,
    StartCombat,
)
from hsm_tui.campaign.encounter import Encounter
from hsm_tui.session import Command, Session
from tests.campaign import State, pack, state

SEED = 4
KV, MA, RM, TR = "kestrel-vance-1", "mireille-ashdown-1", "roan-maddox-1", "veteran-guide-1"
T1, T2, T3 = "corporate-trooper-1", "corporate-trooper-2", "corporate-trooper-3"
P1, P2, P3 = "pirate-raider-1", "pirate-raider-2", "pirate-raider-3"
H1, H2 = "xeno-hound-1", "xeno-hound-2"
TROOPERS, RAIDERS = "corporate-trooper@villains", "pirate-raider@villains"
HOUNDS = "xeno-hound@villains"

SETUP: tuple[Command, ...] = (
    AddZone("ridge"),
    AddZone("dig"),
    AddZone("ruins"),
    SetBand("ridge", "dig", "medium"),
    SetBand("ridge", "ruins", "short"),
    SetBand("dig", "ruins", "short"),
    AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
    AddCombatants("hero", "mireille-ashdown", "heroes", "ridge", player=True),
    AddCombatants("hero", "roan-maddox", "heroes", "ridge", player=True),
    AddCombatants("sidekick", "veteran-guide", "heroes", "ridge"),
    AddCombatants("minion", "corporate-trooper", "villains", "dig", count=3),
    AddCombatants("minion", "pirate-raider", "villains", "ruins", count=3),
    AddCombatants("minion", "xeno-hound", "villains", "ruins", count=2),
    SetCover(KV, "light"),
    SetCover(T1, "medium"),
    StartCombat(),  # R-CHAR-8: asks about the Sidekick first
    DecideSidekick(TR, "hero"),
    StartCombat(),
)

Snap = tuple[int, int, bool, tuple[str, ...]]  # fear, wounds, out, conditions


@dataclass(frozen=True)
class Step:
    actor: str
    title: str
    start_lines: tuple[str, ...]
    commands: tuple[Command, ...]
    left: dict[str, int]
    changes: dict[str, Snap]


STEPS = (
    Step(
        TR,
        "Round 1: Tamsin Reyes, veteran guide's turn",
        (),
        (
            Attack(TR, H1, "bow"),
            AnswerDive("light"),
        ),
        {TR: 1},
        {H1: (3, 0, False, ())},
    ),
    Step(
        TROOPERS,
        "Round 1: Corporate trooper ×3's turn",
        (),
        (
            Attack(T1, KV, "assault-laser", shots=2),
            AnswerDive("none"),
            Attack(T2, KV, "assault-laser", shots=2),
            AnswerDive("none"),
            Attack(T3, KV, "assault-laser", shots=2),
            AnswerDive("none"),
        ),
        {T1: 1, T2: 1, T3: 1},
        {KV: (6, 0, False, ("pinned",))},
    ),
    Step(
        MA,
        "Round 1: Mireille Ashdown's turn",
        (),
        (
            Attack(MA, P1, "laser-pistol"),
            AnswerDive("light"),
        ),
        {MA: 1},
        {P1: (4, 0, True, ())},
    ),
    Step(
        KV,
        "Round 1: Kestrel Vance's turn",
        ("Kestrel Vance: Morale roll: d10 2 ≤ TN 4 ✓ · Hero die 5 ◆ Special 5",),
        (
            Attack(KV, T1, "assault-laser"),
            AnswerDive("none"),
        ),
        {KV: 1},
        {T1: (7, 0, False, ("pinned",))},
    ),
    Step(
        HOUNDS,
        "Round 1: Feral xeno-hound ×2's turn",
        (
            "Feral xeno-hound 1: Fear 3 ≥ Morale 3: Shaken",
            "Feral xeno-hound 1 loses 2 action(s) (wounds, Shaken, dive)",
        ),
        (Move(H2, "ridge", run=True),),
        {H1: 0, H2: 0},
        {},
    ),
    Step(
        RAIDERS,
        "Round 1: Pirate raider ×2's turn",
        (),
        (
            Attack(P2, MA, "laser-pistol"),
            AnswerDive("none"),
            Attack(P3, MA, "laser-pistol"),
            AnswerDive("none"),
        ),
        {P2: 1, P3: 1},
        {MA: (7, 1, False, ())},
    ),
    Step(
        RM,
        "Round 1: Captain Roan Maddox's turn",
        (),
        (Attack(RM, H2, "cutlass"),),
        {RM: 1},
        {H2: (1, 0, True, ())},
    ),
    Step(
        TR,
        "Round 2: Tamsin Reyes, veteran guide's turn",
        (),
        (
            Attack(TR, H1, "bow"),
            AnswerDive("none"),
        ),
        {TR: 1},
        {H1: (3, 0, False, ("bleeding", "shaken"))},
    ),
    Step(
        TROOPERS,
        "Round 2: Corporate trooper ×3's turn",
        (
            "Corporate trooper 1: Fear 7 ≥ Morale 3: Shaken",
            "Corporate trooper 1 loses 1 action(s) (wounds, Shaken, dive)",
        ),
        (
            Attack(T1, KV, "assault-laser", shots=2),
            AnswerDive("none"),
            Attack(T2, KV, "assault-laser", shots=2),
            AnswerDive("none"),
            Attack(T3, KV, "assault-laser", shots=2),
            AnswerDive("none"),
        ),
        {T1: 0, T2: 1, T3: 1},
        {KV: (10, 0, False, ("pinned",))},
    ),
    Step(
        MA,
        "Round 2: Mireille Ashdown's turn",
        (
            "Mireille Ashdown: Morale roll: d10 8 > TN 5 ✗ · Hero die 1 ✗ Misfortune",
            "Mireille Ashdown loses 2 action(s) (wounds, Shaken, dive)",
        ),
        (),
        {MA: 0},
        {},
    ),
    Step(
        KV,
        "Round 2: Kestrel Vance's turn",
        ("Kestrel Vance: Morale roll: d10 1 ≤ TN 4 ✓ · Hero die 3 · blank",),
        (
            Attack(KV, T1, "assault-laser"),
            AnswerDive("none"),
        ),
        {KV: 1},
        {T1: (11, 0, True, ("pinned", "shaken"))},
    ),
    Step(
        HOUNDS,
        "Round 2: Feral xeno-hound 1's turn",
        (
            "Feral xeno-hound 1: Fear 3 ≥ Morale 3: Panicked",
            "Feral xeno-hound 1 loses 1 action(s) (wounds, Shaken, dive)",
        ),
        (),
        {H1: 1},
        {},
    ),
    Step(
        RAIDERS,
        "Round 2: Pirate raider ×2's turn",
        (),
        (
            Attack(P2, MA, "laser-pistol"),
            AnswerDive("none"),
            Attack(P3, MA, "laser-pistol"),
            AnswerDive("none"),
        ),
        {P2: 1, P3: 1},
        {MA: (16, 3, False, ("shaken",))},
    ),
    Step(
        RM,
        "Round 2: Captain Roan Maddox's turn",
        (),
        (
            Attack(RM, P2, "laser-pistol"),
            AnswerDive("light"),
        ),
        {RM: 1},
        {P2: (6, 0, True, ())},
    ),
)


def _snap(session: Session) -> dict[str, Snap]:
    return {c.id: (c.fear, c.wounds, c.out, c.conditions) for c in session.encounter.combatants}


def _fight() -> tuple[Session, State]:
    """The set-up applied: combat has started and the first turn is under way."""
    session = Session(seed=SEED, content=pack())
    for command in SETUP:
        session.apply(command)
    return session, state(session)


def test_scripted_fight_three_heroes_and_a_sidekick_against_eight_minions() -> None:
    session, _ = _fight()
    enc = session.encounter
    assert len([c for c in enc.combatants if c.side == "villains"]) == 8
    assert [r.actor for r in enc.order] == [TR, TROOPERS, MA, KV, HOUNDS, RAIDERS, RM]
    assert session.log[-2].title == "Initiative (R-INIT-1/2)"
    assert session.log[-2].lines[0] == "1. Tamsin Reyes, veteran guide: d10 7 + Initiative 8 = 15"

    for number, step in enumerate(STEPS, 1):
        where = f"turn {number} ({step.title})"
        turn = session.encounter.turn
        assert turn is not None and turn.actor == step.actor, where
        assert session.log[-1].title == step.title, where
        assert session.log[-1].lines == step.start_lines, where
        before = _snap(session)
        for command in step.commands:
            session.apply(command)
        assert session.pending is None, where
        turn = session.encounter.turn
        assert turn is not None
        assert {cid: turn.left(cid) for cid in step.left} == step.left, where
        after = _snap(session)
        changed = {cid: snap for cid, snap in after.items() if before[cid] != snap}
        assert changed == step.changes, where
        session.apply(EndTurn())

    assert (session.encounter.round, session.log[-1].title) == (
        3,
        "Round 3: Tamsin Reyes, veteran guide's turn",
    )
    final = _snap(session)
    assert {cid for cid, snap in final.items() if snap[2]} == {P1, P2, T1, H2}
    assert final[MA][:2] == (16, 3) and session.encounter.get(MA).severe == 1
    assert session.encounter.get(H1).conditions == ("bleeding", "panicked", "shaken")
    assert any(
        line == "Severe Wound chart: d10 7 + 2 past Health + 2×0 earlier = 9"
        for entry in session.log
        for line in entry.lines
    )


def test_scripted_fight_undo_everything_redo_everything_and_replay() -> None:
    session, start = _fight()
    for step in STEPS:
        for command in step.commands:
            session.apply(command)
        session.apply(EndTurn())
    final = state(session)
    history = list(session.history)
    assert len(history) == 66

    # undo back to the first turn of the fight: exactly the state after set-up
    while len(session.history) > len(SETUP):
        session.undo()
    assert state(session) == start
    # and on to nothing at all: dice, log and encounter as a fresh session's
    while session.can_undo:
        session.undo()
    fresh = Session(seed=SEED, content=pack())
    assert session.encounter == Encounter(zones=()) == fresh.encounter
    assert (session.log, session.pending, session.history) == ((), None, [])
    assert session.rng.getstate() == fresh.rng.getstate()

    # redo everything: the very same dice, so the very same fight
    while session.can_redo:
        session.redo()
    assert state(session) == final

    # a seed and the command list rebuild it too
    replayed = Session.replay(SEED, history, content=pack())
    assert replayed.encounter == session.encounter
    assert replayed.log == session.log
    assert replayed.rng.getstate() == session.rng.getstate()
