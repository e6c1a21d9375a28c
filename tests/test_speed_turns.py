"""A turn's end hands the members' recharged weapons to the next turn's start, which sets
them in its one copy of the encounter (rounds.end_turn): the turns after it see them as
the turn left them, whoever acts next, and the group index still holds.
"""

from __future__ import annotations

from dataclasses import replace

from hsm_tui.campaign.combat import EndTurn, StartCombat
from hsm_tui.campaign.combat.gear import recharged
from hsm_tui.campaign.encounter import WeaponState
from tests.campaign import edit, play
from tests.campaign.test_combat_engine import R1, R2, K, duel
from tests.campaign.test_surprise_and_suppression import _unstarted


def _fired(weapons: tuple[WeaponState, ...]) -> tuple[WeaponState, ...]:
    return tuple(replace(w, fired=True) for w in weapons)


def test_weapons_recharged_at_a_turns_end_are_kept_when_another_acts_next() -> None:
    s = duel()
    kestrel = edit(s, K, weapons=_fired(s.encounter.get(K).weapons))
    play(s, EndTurn())  # the raiders' turn: Minions at Fear 0 roll nothing
    enc = s.encounter
    assert enc.turn is not None and enc.turn.actor == enc.get(R1).group
    assert enc.get(K).weapons == tuple(map(recharged, kestrel.weapons))
    assert not any(w.fired for w in enc.get(K).weapons)
    assert [c.id for c in enc.members(enc.turn.actor)] == [R1, R2]


def test_weapons_recharged_at_a_turns_end_are_kept_when_the_same_actor_acts_again() -> None:
    s = duel()
    for raider in (R1, R2):
        edit(s, raider, out=True)
    kestrel = edit(s, K, weapons=_fired(s.encounter.get(K).weapons))
    play(s, EndTurn())  # nobody else stands: Kestrel's turn again, next round
    enc = s.encounter
    assert enc.turn is not None and enc.turn.actor == K and enc.round == 2
    assert enc.get(K).weapons == tuple(map(recharged, kestrel.weapons))
    play(s, EndTurn())  # and again: each end recharges what was not fired
    assert s.encounter.get(K).weapons == tuple(map(recharged, map(recharged, kestrel.weapons)))


def test_weapons_recharged_at_the_end_of_a_surprise_turn_are_kept() -> None:
    s = _unstarted()
    play(s, StartCombat(surprise=(K,)), 1, 9)  # Kestrel's surprise turn first
    enc = s.encounter
    assert enc.turn is not None and enc.turn.actor == K and enc.round == 0
    kestrel = edit(s, K, weapons=_fired(enc.get(K).weapons))
    play(s, EndTurn())
    assert s.encounter.get(K).weapons == tuple(map(recharged, kestrel.weapons))
    assert s.encounter.round == 1
