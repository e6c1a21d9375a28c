"""One full scripted fight through the Session (RULES.md §3–§8), turn by turn.

Three player Heroes and a Sidekick (played as a Hero) on a ridge against eight Minions
of three types in two other zones; the Session's own RNG is seeded, so every roll is
fixed. After each turn the test checks who acted, the turn's log title and start-of-turn
lines (Fear checks, lost actions), the actions left, what changed (Fear, wounds, out,
conditions) and the key log lines of the turn. The expected values were checked against
the rules by hand, from the dice the log shows:

- R-ATK-4/7: Fear = hits + hits through while standing (a Minion taken out gets no more).
- R-ATK-5: Minions hit in the open dive into light cover and lose an action next turn.
- Assault Laser Special 5: one attack die is re-rolled and the best five kept (a 10
  becomes a 4: 5 hits instead of 4).
- R-ATK-8: Kestrel (light cover) and trooper 1 (medium) are Pinned once Fear > Morale;
  raider 2 at Fear = Morale is not.
- R-FEAR-2: trooper 1 goes from Fear 0 to 9 ≥ 2 × Morale 3 in Kestrel's one attack and
  panics at once; R-FEAR-1/3: hound 1 is Shaken at Fear 3, no longer Shaken at Fear 1.
- §8 (issue 18): a Panicked Minion is not also Shaken: at Fear ≥ Morale it stays
  Panicked, loses no action, sheds no Shaken token and rolls its Panicked Morale at TN 3.
- R-FEAR-1 with R-WOUND-3: Mireille, at −1, rolls Morale at TN 5 − 1 = 4, so her 8 fails;
  her Defense falls the same way (Dodge 5 − wound − Shaken: 4, 3, then 2).
- R-ATK-14: hound 2, fighting Roan and Tamsin, defends at −1 against Tamsin's dagger but
  not against Kestrel's laser (ranged).
- R-WOUND-1/4, §7: Mireille goes −1, −2, then severely wounded (chart 4 + 1 = 5: Scarred).

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
    SetCondition,
    SetCover,
    SetPools,
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
    DecideSidekick(TR, "hero"),  # R-CHAR-8, decided before StartCombat would ask
    # Luck spent earlier in the adventure: this fight is asserted without re-roll questions
    # (R-CHAR-9 re-rolls in combat: tests/campaign/test_rerolls.py)
    *(SetPools(hero, luck=0) for hero in (KV, MA, RM, TR)),
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
    lines: tuple[str, ...] = ()  # log lines this turn must write (checked by hand)


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
        # 1 + 2 + 2 hits, none through Defense 6 + light 1: Fear 5, then 6 > Morale 4
        ("Kestrel Vance is Pinned: Fear 6 > Morale 4 (R-ATK-8)",),
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
            # the GM rules that firing from the ridge does not expose her to the troopers
            # who pinned her, so no Pinned Morale roll (§8; the roll: test_conditions.py)
            SetCondition(KV, "pinned", 0),
            Attack(KV, T1, "assault-laser"),
            AnswerDive("none"),
        ),
        {KV: 1},
        {T1: (9, 0, False, ("panicked", "pinned")), KV: (5, 0, False, ())},
        (
            # Rifles 8, Medium is within the laser's Long range: TN 8; the 10 misses
            "roll d10 1, 5, 5, 5, 10 vs TN 8 → 4 hits · Hero die 5 ◆ Special 5",
            # Special 5 re-rolls one die (a 4): the best five are kept, the 10 drops out
            "special5: re-roll the worst attack die: d10 1, 4, 5, 5, 5 (re-rolled 4)"
            " vs TN 8 → 5 hits · Hero die 5 ◆ Special 5",
            "Corporate trooper 1 gains 5 Fear (R-ATK-4)",
            # Dodge 4 + medium 2 = 6: the 7, 7, 7 and 10 get through; four 1d6 ≤ Health 4
            "Dodge 4 + medium cover 2 → Defense 6: d10 5, 7, 7, 7, 10 → 4 of 5 through, 1 avoided",
            "hit 4: damage 1d6! [3] = 3 vs Health 4 → 0 wound steps → no wound",
            # Fear 0 → 5 + 4 = 9 in this one attack: > Morale 3 in cover, and ≥ 2 × 3
            "Corporate trooper 1 is Pinned: Fear 9 > Morale 3 (R-ATK-8)",
            "Corporate trooper 1 panics: Fear 9 ≥ 2 × Morale in one action (R-FEAR-2)",
        ),
    ),
    Step(
        HOUNDS,
        "Round 1: Feral xeno-hound ×2's turn",
        (
            "Feral xeno-hound 1: Fear 3 ≥ Morale 3: Shaken",
            "Feral xeno-hound 1 loses 2 actions — dived for cover: −1 action (R-ATK-5);"
            " Shaken: −1 action (§8)",
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
            Attack(P2, KV, "laser-pistol", shots=2),
            AnswerDive("none"),
            Attack(P3, MA, "laser-pistol", shots=3),
            AnswerDive("none"),
        ),
        {P2: 1, P3: 1},
        {KV: (7, 0, False, ("pinned",)), MA: (2, 1, False, ())},
        (
            "roll d10 1, 5 vs TN 6 → 2 hits",
            "Dodge 6 + light cover 1 → Defense 7: d10 1, 2 → 0 of 2 through, 2 avoided"
            " · Hero die 4 ◆ Special 4",
            "Kestrel Vance is Pinned: Fear 7 > Morale 4 (R-ATK-8)",
            "roll d10 5, 9, 9 vs TN 6 → 1 hit",
            # 5 > Health 4 once: one wound step
            "hit 1: damage 2d6! [3, 2] = 5 vs Health 4 → 1 wound step → 1 wound step(s): now at −1",
        ),
    ),
    Step(
        RM,
        "Round 1: Captain Roan Maddox's turn",
        (),
        (Attack(RM, H2, "cutlass"),),
        {RM: 1},
        {H2: (1, 0, False, ())},
        (
            "TN Power 6 − size 1 = 5",
            "roll d10 4 ≤ TN 5 ✓ · Hero die 1 ✗ Misfortune",
            # the hound fights Roan alone: no flanking; 7 is not more than Defense 7
            "Dodge 7 → Defense 7: d10 7 → 0 of 1 through, 1 avoided",
        ),
    ),
    Step(
        TR,
        "Round 2: Tamsin Reyes, veteran guide's turn",
        (),
        (Attack(TR, H2, "dagger", style="wild"),),
        {TR: 1},
        {H2: (2, 0, False, ())},
        (
            "Dagger (wild, 3 d10) at Feral xeno-hound 2, melee range",
            "TN Wild 5 − size 1 = 4",
            "roll d10 4, 5, 8 vs TN 4 → 1 hit · Hero die 2 · blank",
            # R-ATK-14: now fighting Roan and Tamsin, the hound defends at −1
            "Dodge 7 − flanked 1 → Defense 6: d10 6 → 0 of 1 through, 1 avoided",
        ),
    ),
    Step(
        TROOPERS,
        "Round 2: Corporate trooper ×3's turn",
        (
            # §8: Panicked takes Shaken's place (issue 18): no Shaken, no action lost
            "Corporate trooper 1: Fear 9 ≥ Morale 3: still Panicked",
        ),
        (
            # trooper 1 is Panicked (only Move, Run, Hide): it keeps its head down
            Attack(T2, KV, "assault-laser", shots=5),
            AnswerDive("none"),
            Attack(T3, MA, "assault-laser", shots=3),
            AnswerDive("none"),
        ),
        {T1: 2, T2: 1, T3: 1},
        {KV: (8, 0, False, ("pinned",)), MA: (7, 1, False, ())},
        (
            "roll d10 4, 6, 7, 9, 10 vs TN 5 → 1 hit",
            "Kestrel Vance is Pinned: Fear 8 > Morale 4 (R-ATK-8)",
            "roll d10 1, 4, 5 vs TN 5 → 3 hits",
            "Dodge 5 − wound 1 → Defense 4: d10 4, 10, 10 → 2 of 3 through, 1 avoided"
            " · Hero die 1 ✗ Misfortune",
            "hit 1: damage 1d6! [3] = 3 vs Health 4 → 0 wound steps → no wound",
            "hit 2: damage 1d6! [2] = 2 vs Health 4 → 0 wound steps → no wound",
        ),
    ),
    Step(
        MA,
        "Round 2: Mireille Ashdown's turn",
        (
            # Fear 7 ≥ Morale 5: TN 5 − wound 1 = 4 (R-WOUND-3); the Misfortune adds 1 Fear
            "Mireille Ashdown: Morale roll: d10 8 > TN 4 ✗ · Hero die 1 ✗ Misfortune",
            "Mireille Ashdown loses 2 actions — 1 wound: −1 action (R-WOUND-4);"
            " Shaken: −1 action (§8)",
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
            Attack(KV, H2, "assault-laser"),
            AnswerDive("none"),
        ),
        {KV: 1},
        {H2: (9, 0, False, ("panicked",))},
        (
            # still Pinned (Fear 7 > Morale 4): firing needs a Morale roll first (§8)
            "Pinned: Morale roll: d10 2 ≤ TN 4 ✓ · Hero die 3 · blank: it goes ahead",
            "TN Rifles 8 − size 1 = 7",
            "roll d10 1, 5, 6, 6, 6 vs TN 7 → 5 hits · Hero die 2 · blank",
            # a ranged attack: no flanking although the hound fights two
            "Dodge 7 → Defense 7: d10 2, 5, 7, 10, 10 → 2 of 5 through, 3 avoided",
            "hit 2: damage 1d6! [4] = 4 vs Health 4 → 0 wound steps → no wound",
            # Fear 2 → 2 + 5 + 2 = 9 in one attack: ≥ 2 × Morale 3
            "Feral xeno-hound 2 panics: Fear 9 ≥ 2 × Morale in one action (R-FEAR-2)",
        ),
    ),
    Step(
        HOUNDS,
        "Round 2: Feral xeno-hound ×2's turn",
        (
            "Feral xeno-hound 1: no longer Shaken",  # R-FEAR-3: Fear 1 < Morale 3
            "Feral xeno-hound 2: Fear 9 ≥ Morale 3: still Panicked",  # not Shaken too (§8)
        ),
        (),  # hound 2 is Panicked (Move, Run, Hide only); the GM holds both back
        {H1: 2, H2: 2},
        {},
    ),
    Step(
        RAIDERS,
        "Round 2: Pirate raider ×2's turn",
        (),
        (
            Attack(P2, MA, "laser-pistol", shots=3),
            AnswerDive("none"),
            Attack(P3, MA, "laser-pistol"),
            AnswerDive("none"),
        ),
        {P2: 1, P3: 1},
        # Fear 6 (Shaken shed one) + 2 + 1 + 3 + 3; Defense falls with her marker and
        # Shaken (R-WOUND-3, §8): 5 − 1 − 1 = 3, then 5 − 2 − 1 = 2
        {MA: (15, 3, False, ("shaken",))},
        (
            "roll d10 3, 5, 7 vs TN 6 → 2 hits",
            "Dodge 5 − wound 1 − conditions 1 → Defense 3: d10 3, 10 → 1 of 2 through,"
            " 1 avoided · Hero die 3 · blank",
            "hit 1: damage 2d6! [5, 1] = 6 vs Health 4 → 1 wound step → 1 wound step(s): now at −2",
            "roll d10 1, 3, 6, 8 vs TN 6 → 3 hits",
            "Dodge 5 − wound 2 − conditions 1 → Defense 2: d10 5, 6, 6 → 3 of 3 through,"
            " 0 avoided · Hero die 5 ◆ Special 5",
            "hit 1: damage 2d6! [1, 4] = 5 vs Health 4 → 1 wound step"
            " → severely wounded (R-WOUND-1)",
            # R-WOUND-5: Stamina 4 − 2 (wounds) − 1 (Shaken) = TN 1 to keep the pistol
            "Stamina roll: d10 4 > TN 1 ✗ · Hero die 4 ◆ Special 4: drops Laser Pistol (R-WOUND-5)",
            # §7: d10 4 + (5 − 1 × 4) past Health + 2 × 0 earlier severe wounds
            "Severe Wound chart: d10 4 + 1 past Health + 2×0 earlier = 5",
            "hit 2: damage 2d6! [1, 1] = 2 vs Health 4 → 0 wound steps → no wound",
            "hit 3: damage 2d6! [1, 1] = 2 vs Health 4 → 0 wound steps → no wound",
        ),
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
        {P2: (2, 0, True, ())},
        (
            # Roan is still in melee with hound 2: shooting in melee −1 (R-ATK-12)
            "TN Pistols 7 − shooting in melee 1 = 6",
            "roll d10 3, 3, 10, 10 vs TN 6 → 2 hits · Hero die 1 ✗ Misfortune",
            "misfortune: use 1 extra charge(s)",
            "Pirate raider 2 gains 2 Fear (R-ATK-4)",
            "Dodge 5 + light cover 1 → Defense 6: d10 8, 9 → 2 of 2 through, 0 avoided",
            # 7 > Health 4: a Minion is out at its first wound step (R-WOUND-2), and one
            # taken out gains no more Fear (R-ATK-7)
            "hit 1: damage 2d6! [5, 2] = 7 vs Health 4 → 1 wound step"
            " → Pirate raider 2 is taken out (R-WOUND-2)",
        ),
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
    assert (
        session.log[-2].gm_lines[0] == "1. Tamsin Reyes, veteran guide: d10 7 + Initiative 8 = 15"
    )

    for number, step in enumerate(STEPS, 1):
        where = f"turn {number} ({step.title})"
        turn = session.encounter.turn
        assert turn is not None and turn.actor == step.actor, where
        assert session.log[-1].title == step.title, where
        assert session.log[-1].gm_lines == step.start_lines, where
        before, logged = _snap(session), len(session.log)
        for command in step.commands:
            session.apply(command)
        assert session.pending is None, where
        turn = session.encounter.turn
        assert turn is not None
        assert {cid: turn.left(cid) for cid in step.left} == step.left, where
        after = _snap(session)
        changed = {cid: snap for cid, snap in after.items() if before[cid] != snap}
        assert changed == step.changes, where
        written = [line for entry in session.log[logged:] for line in entry.gm_lines]
        missing = [line for line in step.lines if line not in written]
        assert not missing, (where, missing, written)
        session.apply(EndTurn())

    assert (session.encounter.round, session.log[-1].title) == (
        3,
        "Round 3: Tamsin Reyes, veteran guide's turn",
    )
    final = _snap(session)
    assert {cid for cid, snap in final.items() if snap[2]} == {P1, P2}
    mireille = session.encounter.get(MA)
    assert final[MA] == (15, 3, False, ("shaken",))
    assert (mireille.severe, mireille.prone, mireille.lose_actions) == (1, True, 2)
    assert mireille.chart == ("scarred",)
    assert mireille.weapon("laser-pistol").dropped  # R-WOUND-5: lost her grip
    assert final[KV] == (7, 0, False, ("pinned",))
    # trooper 1: Panicked at 2 × Morale (R-FEAR-2), still Panicked (not also Shaken, §8,
    # issue 18) at its next turn (9 → 8), no Shaken to shed one more; its Panicked Morale
    # roll failed
    assert final[T1] == (8, 0, False, ("panicked", "pinned"))
    assert final[H1] == (0, 0, False, ())
    assert final[H2] == (8, 0, False, ("panicked",))
    panic_rolls = [
        line for entry in session.log if entry.title == "End of turn" for line in entry.gm_lines
    ]
    assert panic_rolls == [
        # §8 Panicked: a Morale roll at the end of its turn; Morale 3, no Shaken −1 now
        "Corporate trooper 1: Panicked: Morale roll: d10 5 > TN 3 ✗: still Panicked",
        "Feral xeno-hound 2: Panicked: Morale roll: d10 5 > TN 3 ✗: still Panicked",
    ]


def test_scripted_fight_undo_everything_redo_everything_and_replay() -> None:
    session, start = _fight()
    for step in STEPS:
        for command in step.commands:
            session.apply(command)
        session.apply(EndTurn())
    final = state(session)
    history = list(session.history)
    assert len(history) == len(SETUP) + sum(len(s.commands) + 1 for s in STEPS) == 67

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
