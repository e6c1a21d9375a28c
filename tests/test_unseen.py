"""A hidden combatant's turn and attack as the players live them: the GM's turn behind
the screen, an attack noticed but not named, and the target's own questions asked of its
player (R-ATK-4 Fear, R-ATK-5 dive, R-TASK-6 re-rolls) with the attacker unsaid.
"""

from __future__ import annotations

from collections.abc import Iterator

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    AnswerDive,
    Attack,
    EndTurn,
    SetBand,
    SetPools,
    SpendCombatRerolls,
    StartCombat,
    TakeAction,
)
from hsm_tui.campaign.combat.outcome import PendingCombatRerolls, PendingDive
from hsm_tui.campaign.party import AddHero
from hsm_tui.rules import RulesError
from hsm_tui.table.seated import SeatedSession
from hsm_tui.table.seats import GM_SEAT, Seat
from hsm_tui.table.session import Session
from hsm_tui.table.state import OpenEntry
from hsm_tui.table.views import BEHIND_THE_SCREEN
from hsm_tui.table.visibility import GM_ONLY, PUBLIC, keeps_secrets
from tests.campaign import new_session
from tests.test_views import KARA, WATCHER, K

SNIPER = "pirate-raider-1"
HIDDEN = ("Pirate raider", "pirate-raider")


def snipers(seed: int) -> Session:
    """Kestrel (Luck 2) on the ridge; two raiders hidden in the dig, at Short range."""
    s = new_session(
        AddHero("kestrel-vance"),
        AddZone("ridge"),
        AddZone("dig"),
        SetBand("ridge", "dig", "short"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2, hidden=True),
        SetPools(K, luck=2),
        seed=seed,
    )
    s.apply(StartCombat())  # initiative, rolled with the seed's dice
    SeatedSession(s, KARA)
    return s


def raiders_first() -> Iterator[Session]:
    """:func:`snipers` for each seed whose initiative gives the hidden raiders the first turn."""
    for seed in range(200):
        s = snipers(seed)
        if s.encounter.turn is not None and s.encounter.turn.actor == "pirate-raider@pirates":
            yield s


def shot_at(hits: bool = True) -> tuple[Session, SeatedSession]:
    """The hidden raiders' turn first, and a shot at Kestrel that hits (or misses)."""
    for s in raiders_first():
        s.apply(Attack(SNIPER, K, "laser-pistol"))
        if isinstance(s.pending, PendingDive) == hits:
            return s, SeatedSession(s, KARA)
    raise AssertionError("no seed gives that shot")


def says_nothing_hidden(s: Session, seat: Seat = KARA) -> None:
    seen = repr(s.view(seat))
    assert not any(name in seen for name in HIDDEN), seen


def test_a_hidden_groups_turn_is_the_gms_behind_the_screen() -> None:
    s = next(raiders_first())
    assert s.view(KARA).turn == s.view(WATCHER).turn == BEHIND_THE_SCREEN
    assert s.view(GM_SEAT).turn == "Pirate raider ×2"
    s.apply(EndTurn())
    assert s.view(KARA).turn == "Kestrel Vance"
    says_nothing_hidden(s)


def test_r_atk_4_a_hidden_shooters_attack_is_noticed_but_not_named() -> None:
    """The attack's entry is every seat's, the shooter read as "someone unseen" and where
    the shot came from; her Fear tokens arrive with the line that gives them."""
    s, _kara = shot_at()
    gm = s.log[-1]
    assert gm.gm_title == "Pirate raider 1 attacks Kestrel Vance" and gm.visibility == PUBLIC
    seen = s.view(KARA).log[-1]
    assert seen.title == "Someone unseen in the dig attacks Kestrel Vance"
    assert any(line.startswith("Kestrel Vance gains") and "Fear" in line for line in seen.lines)
    assert "TN hidden" in seen.lines  # the shooter's numbers stay the GM's
    says_nothing_hidden(s)
    says_nothing_hidden(s, WATCHER)


def test_r_atk_5_her_dive_question_is_hers_with_the_shooter_unsaid() -> None:
    s, kara = shot_at()
    assert s.waiting_for == "player:kara"  # not silently the GM's
    question = kara.view().decision
    assert isinstance(question, PendingDive) and question is not s.pending
    assert question is kara.view().decision  # one copy while it waits: a dialog can follow it
    assert "Kestrel Vance is hit" in question.question
    says_nothing_hidden(s)
    assert s.still_asks(question) and s.still_asks(s.pending)
    kara.apply(AnswerDive("none"), answering=question)
    assert not s.still_asks(question)
    assert s.history[-1].issuer == "player:kara"
    if isinstance(s.pending, PendingCombatRerolls):  # R-TASK-6: her Defense, her Luck
        assert s.waiting_for == "player:kara"
        reroll = kara.view().decision
        assert reroll is not None and reroll.title == "Kestrel Vance defends"
        says_nothing_hidden(s)
        kara.apply(SpendCombatRerolls(0, 0), answering=reroll)
    assert s.pending is None or s.waiting_for == "gm"
    titles = [e.title for e in s.view(KARA).log]
    assert "Someone unseen in the dig attacks Kestrel Vance" in titles
    assert "Kestrel Vance defends" in titles
    says_nothing_hidden(s)


def test_the_gms_answer_for_her_closes_the_question_she_holds() -> None:
    s, kara = shot_at()
    question = kara.view().decision
    assert question is not None
    s.apply(AnswerDive("none"), answering=s.pending)
    try:
        kara.apply(AnswerDive("none"), answering=question)
    except RulesError as refused:
        assert "no longer waits" in str(refused)
    else:
        raise AssertionError("an answer to a question answered meanwhile must be refused")


def test_a_miss_is_noticed_too_and_the_gm_may_open_the_whole_entry() -> None:
    s, _kara = shot_at(hits=False)
    entry = s.log[-1]
    assert entry.visibility == PUBLIC and keeps_secrets(entry)  # the name is the GM's
    assert s.view(KARA).log[-1].title.startswith("Someone unseen in the dig")
    s.apply(OpenEntry(entry.seq))
    assert s.view(KARA).log[-1].title == "Pirate raider 1 attacks Kestrel Vance"


def test_what_a_hidden_combatant_does_unseen_stays_the_gms() -> None:
    """Only an attack on someone the players see is noticed: aiming is not."""
    s = next(raiders_first())
    s.apply(TakeAction(SNIPER, "aim"))
    assert s.log[-1].visibility == GM_ONLY
    says_nothing_hidden(s)
