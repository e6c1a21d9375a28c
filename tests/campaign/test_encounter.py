"""Encounter state (R-COMBAT-2 imagination mode): zones, bands, lookups, turns."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hsm_tui.campaign.encounter import Combatant, Encounter, Turn, WeaponState
from hsm_tui.rules import CombatRatings, RangeBand, Rank, RulesError, Traits


def _c(cid: str, zone: str, **kw: object) -> Combatant:
    fields: dict[str, object] = {
        "id": cid,
        "name": cid.title(),
        "side": "heroes",
        "rank": Rank.HERO,
        "group": cid,
        "traits": Traits(),
        "ratings": CombatRatings(),
        "zone": zone,
    }
    fields.update(kw)
    return Combatant(**fields)  # type: ignore[arg-type]


def _enc() -> Encounter:
    enc = Encounter(zones=("ridge", "dig", "ruins"))
    enc = enc.with_band("ridge", "dig", RangeBand.MEDIUM)
    return replace(
        enc,
        combatants=(
            _c("ana", "ridge"),
            _c("bo", "ridge", engaged=("cy",)),
            _c("cy", "ridge", side="villains", engaged=("bo",)),
            _c("dee", "dig", side="villains"),
            _c("eve", "ruins", side="villains"),
        ),
    )


def _band(enc: Encounter, a: str, b: str) -> RangeBand:
    return enc.band(enc.get(a), enc.get(b))


def test_r_combat_2_same_zone_is_short_range() -> None:
    assert _band(_enc(), "ana", "bo") == RangeBand.SHORT
    assert _enc().zone_band("dig", "dig") == RangeBand.SHORT


def test_r_combat_2_engaged_combatants_are_at_melee() -> None:
    assert _band(_enc(), "bo", "cy") == RangeBand.MELEE
    assert _band(_enc(), "cy", "bo") == RangeBand.MELEE


def test_r_combat_2_between_zones_the_gm_set_band_either_way_round() -> None:
    enc = _enc()
    assert _band(enc, "ana", "dee") == RangeBand.MEDIUM
    assert _band(enc, "dee", "ana") == RangeBand.MEDIUM
    assert enc.zone_band("dig", "ridge") == RangeBand.MEDIUM


def test_r_combat_2_band_not_set_between_zones_is_an_error() -> None:
    with pytest.raises(RulesError, match="no range band set between"):
        _band(_enc(), "ana", "eve")


def test_with_band_replaces_the_band_for_the_pair_in_any_order() -> None:
    enc = _enc().with_band("dig", "ridge", RangeBand.LONG)
    assert _band(enc, "ana", "dee") == RangeBand.LONG
    assert len([b for b in enc.bands if {b[0], b[1]} == {"ridge", "dig"}]) == 1


def test_with_band_refuses_unknown_zones_and_a_zone_with_itself() -> None:
    enc = _enc()
    with pytest.raises(RulesError, match="no zone 'moon'"):
        enc.with_band("ridge", "moon", RangeBand.SHORT)
    with pytest.raises(RulesError, match="no zone 'moon'"):
        enc.with_band("moon", "ridge", RangeBand.SHORT)
    with pytest.raises(RulesError, match="Short range from itself"):
        enc.with_band("dig", "dig", RangeBand.SHORT)


def test_unknown_combatant_is_refused() -> None:
    with pytest.raises(RulesError, match="no combatant 'zed'"):
        _enc().get("zed")


def test_r_init_1_members_are_the_standing_combatants_of_a_group() -> None:
    enc = replace(
        _enc(),
        combatants=(
            _c("m1", "dig", rank=Rank.MINION, group="raider@v"),
            _c("m2", "dig", rank=Rank.MINION, group="raider@v", out=True),
            _c("m3", "dig", rank=Rank.MINION, group="raider@v"),
            _c("h", "ridge"),
        ),
    )
    assert [c.id for c in enc.members("raider@v")] == ["m1", "m3"]
    assert [c.id for c in enc.members("h")] == ["h"]


def test_with_combatant_replaces_by_id_and_keeps_order() -> None:
    enc = _enc()
    changed = enc.with_combatant(replace(enc.get("cy"), fear=3))
    assert [c.id for c in changed.combatants] == [c.id for c in enc.combatants]
    assert changed.get("cy").fear == 3 and enc.get("cy").fear == 0  # frozen


def test_r_char_8_sidekick_rules_rank_must_be_decided() -> None:
    sidekick = _c("sk", "ridge", rank=Rank.SIDEKICK)
    with pytest.raises(RulesError, match="decide first"):
        _ = sidekick.rules_rank
    assert replace(sidekick, plays_as=Rank.MINION).rules_rank is Rank.MINION
    assert _c("h", "ridge").rules_rank is Rank.HERO


def test_r_wound_2_standing_means_neither_out_nor_unconscious() -> None:
    assert _c("a", "ridge").standing
    assert not _c("a", "ridge", out=True).standing
    assert not _c("a", "ridge", unconscious=True).standing


def test_weapon_lookup_refuses_what_is_not_carried() -> None:
    c = _c("a", "ridge", weapons=(WeaponState("laser-pistol", 10, 10),))
    assert c.weapon("laser-pistol").charges == 10
    with pytest.raises(RulesError, match="does not carry 'bow'"):
        c.weapon("bow")


def test_r_act_1_turn_actions_left_count_used_and_lost_per_combatant() -> None:
    turn = Turn("raider@v", used=(("m1", "move"), ("m2", "attack")), lost=(("m2", 1),))
    assert turn.used_by("m1") == ("move",)
    assert turn.left("m1") == 1
    assert turn.left("m2") == 0
    assert turn.left("m3") == 2
    assert Turn("h", declared=4, lost=(("h", 5),)).left("h") == 0  # never negative
    assert Turn("h", declared=4, lost=(("h", 2),)).left("h") == 2
