"""A question at the table waits for one seat and never holds up the others (the
players' side of the shared table): the GM's and other seats' free-flowing rolls set it
aside and it waits again once they are settled; an answer is taken only for the question
its dialog was opened for (R-TASK-6, R-ATK-5).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from hsm_tui.campaign.combat import AnswerDive, Attack, PendingDive
from hsm_tui.campaign.freeflow import AskRoll, PendingRerolls
from hsm_tui.campaign.party import AddHero
from hsm_tui.persistence import store
from hsm_tui.rules import Rank, RulesError, task_tn
from hsm_tui.rules.errors import DecisionPending, NotPermitted, QuestionGone
from hsm_tui.table.seated import SeatedSession
from hsm_tui.table.seats import Role, Seat
from hsm_tui.table.session import RollTask, Session, SpendRerolls
from tests.campaign import play, refused
from tests.campaign.test_combat_engine import R1, RAIDERS_FIRST, K, duel

KARA = Seat(Role.PLAYER, "kara", hero="kestrel-vance")
MIREILLE = "party:mireille-ashdown"
TN = task_tn([("Agility", 3), ("Senses", 2)])


def karas_reroll_waits() -> tuple[Session, SeatedSession, PendingRerolls]:
    """Kara rolled a task for her hero, failed, and holds a free re-roll: she is away."""
    s = duel()
    s.apply(AddHero("mireille-ashdown"))  # a party Hero no seat plays: the GM rolls for her
    kara = SeatedSession(s, KARA)
    return s, kara, fails(s, kara)


def fails(s: Session, kara: SeatedSession) -> PendingRerolls:
    """Kara's task, on the first seed that fails it: her re-roll question waits."""
    for seed in range(50):
        s.rng = random.Random(seed)
        kara.apply(RollTask(TN, Rank.HERO, rerolls=1, who=K))
        if isinstance(s.pending, PendingRerolls):
            return s.pending
        s.undo()
    raise AssertionError("no seed failed the task")


def test_r_task_6_the_gms_roll_goes_on_while_a_players_reroll_question_waits() -> None:
    s, kara, question = karas_reroll_waits()
    assert s.waiting_for == "player:kara"
    s.apply(RollTask(TN, Rank.MINION, label="Sneak past", hidden=True))  # the GM's own, secret
    assert s.history[-1].label == "Sneak past"
    assert s.pending is question and s.waiting_for == "player:kara"  # hers waits again
    kara.apply(SpendRerolls(1, 0), answering=question)  # and she answers it when she is back
    assert s.pending is None
    assert "re-rolled 1 d10" in s.log[question.log_seq - 1].gm_lines[-1]  # in her entry


def test_r_atk_5_the_gms_roll_goes_on_while_a_players_dive_question_waits() -> None:
    s = duel(RAIDERS_FIRST)
    kara = SeatedSession(s, KARA)
    play(s, Attack(R1, K, "laser-pistol"), 1, 2, 9, 9)
    dive = s.pending
    assert isinstance(dive, PendingDive) and s.waiting_for == "player:kara"
    s.rng = random.Random(3)
    s.apply(RollTask(TN, Rank.MINION, label="Spot the sniper"))
    assert s.pending is dive
    s.undo()  # the GM's roll undone: the dive still waits, nothing else
    assert s.pending is dive and s.parked is None
    s.rng = random.Random(5)
    kara.apply(AnswerDive("none"), answering=dive)
    assert s.pending is None and s.history[-1].issuer == "player:kara"


def test_the_gm_still_answers_the_gms_own_question_first() -> None:
    s = duel(RAIDERS_FIRST)  # no seat plays Kestrel: her dive is the GM's to answer
    play(s, Attack(R1, K, "laser-pistol"), 1, 2, 9, 9)
    assert s.waiting_for == "gm"
    refused(s, RollTask(TN, Rank.MINION), "answer the pending question first")


def gms_own_reroll_over(s: Session, question: PendingRerolls) -> PendingRerolls:
    """The GM rolls for a party Hero no seat plays, holding a free re-roll, and fails: the
    GM's own re-roll question waits while ``question`` is parked."""
    for seed in range(50):
        s.rng = random.Random(seed)
        s.apply(RollTask(TN, Rank.HERO, rerolls=1, who=MIREILLE))
        if s.pending is not question:
            assert isinstance(s.pending, PendingRerolls)
            return s.pending
        s.undo()
    raise AssertionError("no seed failed the task")


def test_a_second_question_is_not_parked_over_the_first() -> None:
    s, kara, question = karas_reroll_waits()
    mine = gms_own_reroll_over(s, question)
    assert isinstance(mine, PendingRerolls) and s.parked is question
    with pytest.raises(DecisionPending, match="two questions already wait"):
        kara.apply(RollTask(TN, Rank.HERO, who=K))  # neither is dropped for a third
    s.apply(SpendRerolls(0, 0), answering=mine)
    assert s.pending is question and s.parked is None


def test_an_answer_for_a_question_that_no_longer_waits_is_refused() -> None:
    s, kara, question = karas_reroll_waits()
    s.apply(SpendRerolls(0, 0), answering=question)  # the GM answered for her
    fails(s, kara)  # her next task's question: equal in kind, not the one she was asked
    before = (s.log, s.pending, s.history)
    with pytest.raises(QuestionGone, match="no longer waits"):
        kara.apply(SpendRerolls(1, 0), answering=question)  # her old dialog's key
    assert (s.log, s.pending, s.history) == before


def test_a_parked_question_is_kept_in_the_campaign_file(tmp_path) -> None:
    s, _kara, question = karas_reroll_waits()
    gms_own_reroll_over(s, question)
    assert s.parked == question
    store.save(s, tmp_path / "c.toml")
    back = Session()
    back.load_content()
    store.load(back, tmp_path / "c.toml")
    assert (back.pending, back.parked) == (s.pending, s.parked)


# -- the GM asks a player for a roll ----------------------------------------------------------
def asked_senses(s: Session, hidden: bool = False) -> RollTask:
    """The GM asks Kestrel's player for Senses (doubled), Perception-like, difficulty 2."""
    task = RollTask(task_tn([("Senses", 3), ("Senses", 3)], difficulties=[2]), Rank.HERO, "Spot")
    s.apply(AskRoll((replace(task, who=K),), tn_hidden=hidden))
    return s.asked[-1].task


def test_r_task_1_the_gm_asks_a_player_for_a_roll_and_the_player_rolls_it() -> None:
    s = duel()
    kara = SeatedSession(s, KARA)
    asked = asked_senses(s)
    assert [a.task.who for a in s.view(KARA).asked] == [K]  # her screen offers it
    assert s.view(Seat(Role.WATCHER, "wes")).asked == ()
    assert "TN Senses 3 + Senses 3" in " ".join(s.view(KARA).log[-1].lines)
    s.rng = random.Random(1)
    kara.apply(replace(asked, issuer="player:kara"))
    assert s.asked == () and s.log[-1].title == "Kestrel Vance: Spot (Hero)"
    with pytest.raises(QuestionGone, match="no longer waits"):  # rolled once only
        kara.apply(replace(asked, issuer="player:kara"))


def test_an_asked_roll_with_the_difficulty_hidden_shows_the_player_no_tn() -> None:
    s = duel()
    kara = SeatedSession(s, KARA)
    asked = asked_senses(s, hidden=True)
    s.rng = random.Random(1)
    kara.apply(replace(asked, issuer="player:kara"))
    roll = s.view(KARA).log[-1]
    seen = " ".join(roll.lines)
    assert "TN hidden" in seen and "odds" not in seen and "d10" in seen  # the dice, not the TN
    assert "TN Senses 3 + Senses 3" in " ".join(s.log[-1].gm_lines)  # the GM's whole


def test_only_the_asked_roll_answers_the_request_and_only_the_gm_asks() -> None:
    s = duel()
    kara = SeatedSession(s, KARA)
    asked = asked_senses(s)
    easier = replace(asked, tn=task_tn([("Senses", 3), ("Senses", 3)]), issuer="player:kara")
    with pytest.raises(RulesError, match="not the roll the GM asked for"):
        kara.apply(easier)
    with pytest.raises(NotPermitted):
        kara.apply(AskRoll((replace(asked, asked=0),)))
    with pytest.raises(RulesError, match="waiting already"):
        asked_senses(s)


def test_a_group_roll_asks_every_hero_and_holds_up_nothing() -> None:
    s, _kara, question = karas_reroll_waits()  # a question waits: the GM may still ask
    tn = task_tn([("Senses", 3), ("Senses", 3)])
    tasks = (
        RollTask(tn, Rank.HERO, "Listen", who=K),
        RollTask(tn, Rank.HERO, "Listen", who=MIREILLE),
    )
    s.apply(AskRoll(tasks))
    assert [a.task.who for a in s.asked] == [K, MIREILLE] and s.pending is question
    assert [a.task.who for a in s.view(KARA).asked] == [K]
    s.undo()
    assert s.asked == ()


def test_r_task_1_a_group_ask_gives_each_hero_their_own_scores_and_skill() -> None:
    from hsm_tui.campaign.freeflow import group_ask
    from hsm_tui.campaign.party import rollers
    from hsm_tui.rules import Trait

    s = duel()
    s.apply(AddHero("mireille-ashdown"))
    found = rollers(s.campaign, s.encounter, s.catalog)
    ask = group_ask(found, [Trait.SENSES], difficulty=1)
    heroes = [r for r in found if r.rank is Rank.HERO]
    assert [t.who for t in ask.tasks] == [r.who for r in heroes] and len(heroes) >= 2
    for roller, task in zip(heroes, ask.tasks, strict=True):
        assert task.label == "Senses"
        assert f"Senses {roller.traits[Trait.SENSES]}" in task.tn.explain()
    minions = [r for r in found if r.rank is not Rank.HERO]
    with pytest.raises(RulesError, match="no Hero to ask"):
        group_ask(minions, [Trait.SENSES])
