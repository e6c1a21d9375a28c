"""Seats and permissions in the Session (issue 21, part 1; DESIGN "Seats, visibility,
many views"): one policy decides what a seat may issue, a view's handle stamps its seat,
decisions name who answers them, and views hear of changes each on its own.
"""

from __future__ import annotations

import logging
import random

import pytest

from hsm_tui.campaign.combat import (
    AddZone,
    AnswerDive,
    ApplyDamage,
    Attack,
    DeclareActions,
    EndTurn,
    Move,
    PendingDive,
    SetCover,
    SpendCombatRerolls,
    TakeAction,
)
from hsm_tui.rules import Rank, task_tn
from hsm_tui.rules.errors import NotPermitted
from hsm_tui.table.seated import SeatedSession
from hsm_tui.table.seats import GM_SEAT, Role, Seat, answered_by, refusal, stamped
from hsm_tui.table.session import (
    Batch,
    Command,
    Event,
    RollTask,
    Session,
    SpendRerolls,
)
from tests.campaign import Scripted, play, refused, state
from tests.campaign.test_combat_engine import R1, RAIDERS_FIRST, K, duel

KARA = Seat(Role.PLAYER, "kara", hero="kestrel-vance")
OTTO = Seat(Role.PLAYER, "otto", hero="roan-maddox")
WATCHER = Seat(Role.WATCHER, "wes")
TN = task_tn([("Agility", 3), ("Senses", 2)])


def seated(session: Session, seat: Seat = KARA) -> SeatedSession:
    return SeatedSession(session, seat)


def test_a_seat_has_one_issuer_fixed_by_its_role_and_user() -> None:
    assert (GM_SEAT.issuer, KARA.issuer, WATCHER.issuer) == ("gm", "player:kara", "watcher:wes")
    assert all(member.__doc__ for member in Role)


# -- a player plays one hero -----------------------------------------------------------------
def test_a_player_attacks_moves_and_acts_for_their_own_hero_on_its_turn() -> None:
    s = duel()
    kara = seated(s)
    kara.apply(TakeAction(K, "dodge"))
    play_as(kara, Attack(K, R1, "assault-laser"), 1, 9, 9, 9, 9, 2)
    assert s.history[-1].issuer == "player:kara"  # stamped by the handle, not the view
    assert isinstance(s.pending, PendingDive) and s.waiting_for == "gm"  # a raider's dive


def test_a_player_may_not_act_for_another_hero_or_a_minion() -> None:
    s = duel()
    otto = seated(s, OTTO)
    before = state(s)
    for command in (TakeAction(K, "aim"), Attack(R1, K, "laser-pistol"), Move(K, "camp")):
        with pytest.raises(NotPermitted, match="otto plays roan-maddox: that is for another"):
            otto.apply(command)
    assert state(s) == before


@pytest.mark.parametrize(
    "command",
    [
        AddZone("x"),
        SetCover(K, "light"),
        ApplyDamage(K, 3),
        Batch((TakeAction(K, "aim"), ApplyDamage(R1, 3))),
    ],
    ids=["set-up", "cover", "damage", "a batch with one GM command"],
)
def test_everything_but_playing_the_hero_is_the_gms(command: object) -> None:
    s = duel()
    before = state(s)
    with pytest.raises(NotPermitted, match=r"kara may not .*only the GM may"):
        seated(s).apply(command)  # type: ignore[arg-type]
    assert state(s) == before


def test_a_player_ends_and_declares_only_their_own_heros_turn() -> None:
    s = duel()
    seated(s).apply(DeclareActions(3))
    seated(s).apply(EndTurn())
    with pytest.raises(NotPermitted, match="another seat"):
        seated(s).apply(EndTurn())  # the raiders' turn now
    s.apply(EndTurn())  # the GM ends it for them


def test_r_act_3_a_players_menus_are_checked_by_the_seat_rule_and_the_engine() -> None:
    """The player's `x` and `A` menus: what the seat may not issue, or the engine refuses,
    is marked ✗ with the reason before the pick.
    """
    s = duel()
    kara = seated(s)
    assert [o.label for o in kara.declares()][:2] == ["2 actions", "3 actions, each at −1"]
    assert not kara.actions()[0].label.startswith("✗")  # aim, on her turn
    reloads = kara.action_details(TakeAction(K, "reload"))
    assert all(o.label.startswith("✗") for o in reloads)  # nothing of hers reloads
    s.apply(EndTurn())  # the raiders' turn
    assert all(
        o.label.endswith("kara plays kestrel-vance: that is for another seat to do")
        for o in kara.declares()
    )
    assert kara.actions()[0].label.endswith("it is not Kestrel Vance's turn")


def test_a_watcher_issues_nothing_and_undo_is_the_gms() -> None:
    s = duel()
    with pytest.raises(NotPermitted, match="wes is watching"):
        seated(s, WATCHER).apply(TakeAction(K, "aim"))
    seated(s).apply(TakeAction(K, "aim"))
    with pytest.raises(NotPermitted, match="may not undo: only the GM"):
        seated(s).undo()
    s.undo()
    with pytest.raises(NotPermitted, match="may not redo: only the GM"):
        seated(s).redo()


def test_an_issuer_without_a_seat_is_refused_as_before() -> None:
    refused(duel(), Attack(K, R1, "laser-pistol", issuer="player:ana"), "only the GM")


# -- decisions name who answers them --------------------------------------------------------
def test_r_atk_5_the_dive_waits_for_the_defending_heros_player() -> None:
    s = duel(RAIDERS_FIRST)
    kara = seated(s)
    play(s, Attack(R1, K, "laser-pistol"), 1, 2, 9, 9)  # the GM's raider hits Kestrel
    assert isinstance(s.pending, PendingDive) and answered_by(s.pending) == K
    assert s.waiting_for == "player:kara"
    with pytest.raises(NotPermitted, match="another seat"):
        seated(s, OTTO).apply(AnswerDive("none"))
    s.rng = random.Random(5)  # whatever the Defense and damage roll
    kara.apply(AnswerDive("none"))
    assert s.history[-1].issuer == "player:kara"


def test_the_gm_may_answer_for_a_player_who_is_away() -> None:
    s = duel(RAIDERS_FIRST)
    seated(s)
    play(s, Attack(R1, K, "laser-pistol"), 1, 2, 9, 9)
    s.rng = random.Random(5)
    s.apply(AnswerDive("none"))
    assert s.history[-1].issuer == "gm"


def test_r_char_9_a_player_spends_their_own_heros_luck_on_a_task() -> None:
    s = duel()
    s.rng = random.Random(5)
    s.apply(RollTask(TN, Rank.HERO, who=K))  # Luck 0: nothing waits
    assert s.pending is None
    kara = seated(s)
    kara.apply(RollTask(TN, Rank.HERO, rerolls=1, who=K))
    assert s.waiting_for == "player:kara"
    kara.apply(SpendRerolls(0, 0))
    with pytest.raises(NotPermitted, match="another seat"):
        kara.apply(RollTask(TN, Rank.HERO, who="party:mireille-ashdown"))
    assert refusal(KARA, SpendCombatRerolls(0, 0), s.encounter, None)  # nothing of theirs


def test_stamping_covers_every_command_of_a_batch() -> None:
    batch = stamped(Batch((TakeAction(K, "aim"), EndTurn())), KARA)
    assert {batch.issuer, *(c.issuer for c in batch.commands)} == {"player:kara"}


# -- many views: events, isolated subscribers ---------------------------------------------
def test_views_hear_numbered_events_and_a_failing_view_is_dropped_alone(
    caplog: pytest.LogCaptureFixture,
) -> None:
    s = duel()
    heard: list[Event] = []

    def broken(_event: Event) -> None:
        raise RuntimeError("a view's bug")

    s.subscribe(broken)
    s.subscribe(heard.append)
    with caplog.at_level(logging.ERROR, logger="hsm_tui.table.session"):
        s.apply(TakeAction(K, "aim"))  # the change stands although a view failed
    s.undo()
    assert [(e.seq > 0, e.change, e.waiting_for) for e in heard] == [
        (True, "TakeAction", ""),
        (True, "undo", ""),
    ]
    assert heard[1].seq == heard[0].seq + 1
    assert broken not in s._subscribers and "a view failed" in caplog.text


def test_unsubscribing_twice_is_harmless() -> None:
    s = duel()
    leave = s.subscribe(lambda _event: None)
    leave()
    leave()
    assert s._subscribers == []


def play_as(handle: SeatedSession, command: Command, *dice: int) -> None:
    """``play`` through a seat's handle: the same scripted dice, the seat's stamp."""
    rng = Scripted(*dice)
    handle.session.rng = rng  # type: ignore[assignment]
    handle.apply(command)
    assert rng.done(), f"{len(rng.values)} scripted dice left unrolled"
