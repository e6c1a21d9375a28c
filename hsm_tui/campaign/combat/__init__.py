"""The combat engine: commands that advance an :class:`Encounter` (RULES.md §3–§8).

Each handler takes the encounter, the command, the session's RNG and the catalog, and
returns an :class:`Outcome`: the new encounter, explained log entries, and possibly a
pending decision the UI must answer (nothing blocks inside the engine). A command the
rules forbid raises RulesError before anything changes.

The modules import in one direction, each with one job:

- ``commands``: the command dataclasses and their union;
- ``outcome``: log lines, outcomes, pending decisions and the paused attack;
- ``gear``: the one way to change a carried weapon's state;
- ``spots``: the spots on the way a move adds between zones, gone once empty;
- ``setup``: zones, bands, who is in the encounter and their cover, pools and conditions;
- ``turns``: whose turn it is and the actions it spends;
- ``rounds``: initiative, the start and end of turns, the end of the fight;
- ``movement`` and ``actions``: moves and the actions without an attack roll;
- ``equipment``: what a character carries, and §7 row 6 destroying a piece of it;
- ``chart`` and ``wounds``: the Severe Wound chart, Defense numbers and wound steps;
- ``hands``: two-weapon fighting, which weapon each hand may attack with;
- ``aiming``: an attack worked out before any die rolls (the preview is the plan);
- ``groups``: a Minion group's turn: who attacks next, at whom, each member's aim;
- ``cards``: a weapon card's effects on the Hero die;
- ``damage``: Defense rolls, damage per hit, and the points an attack resumes from;
- ``timed``: the GM's note on a combatant and the effects that count down its turns;
- ``cone``: suppressive fire's targets once fired: Defense (re-rolls asked), Fear, damage;
- ``attack``, ``suppress`` and ``sonic``: the three attacks, rolled from their plans.

This module holds the handler tables and the names screens and the session use.
"""

from __future__ import annotations

from .actions import (
    ACTIONS,
    ActionKind,
    action_cost,
    reloadable,
    take_action,
    take_action_refusal,
)
from .aiming import (
    MAX_MODIFIER,
    AttackPlan,
    Firepower,
    action_refusal,
    firepower,
    plan_attack,
    weapon_style,
    within_charges,
)
from .attack import attack, spend_combat_rerolls
from .chart import RowOdds, chart_odds
from .commands import (
    GM,
    AddCombatants,
    AddZone,
    AnswerDive,
    ApplyDamage,
    Attack,
    ChooseChartRow,
    ClearEncounter,
    CloseIn,
    CombatCommand,
    DecideSidekick,
    DeclareActions,
    EndCombat,
    EndTurn,
    Hand,
    Kind,
    Location,
    Move,
    Place,
    Reaction,
    RemoveCombatant,
    Reveal,
    RollChart,
    SetBand,
    SetCondition,
    SetCountdown,
    SetCover,
    SetDestroyed,
    SetDivePolicy,
    SetFear,
    SetNote,
    SetPools,
    SonicBlast,
    SpendCombatRerolls,
    StartCombat,
    Suppress,
    TakeAction,
    log_step,
    set_up_subject,
)
from .damage import answer_dive, apply_damage, choose_chart_row, roll_chart
from .dives import set_dive_policy
from .equipment import carried_items, set_destroyed
from .fear import MAX_FEAR, set_fear, unit_of
from .gear import FISTS, held_weapon, ready_weapon
from .groups import for_group, group_attack, group_target, nearest_enemies, next_attacker
from .hands import off_hand_weapons
from .movement import (
    NO_BAND,
    TOO_FAR,
    Route,
    close_in,
    move,
    move_refusal,
    routes,
)
from .outcome import (
    AttackState,
    LogLines,
    Option,
    Outcome,
    Pending,
    PendingChartChoice,
    PendingCombatRerolls,
    PendingDive,
    PendingSidekick,
    written,
)
from .rounds import (
    FIGHT_MARKS,
    declare_actions,
    declare_refusal,
    end_combat,
    end_turn,
    start_combat,
)
from .setup import (
    add_combatants,
    add_zone,
    clear_encounter,
    decide_sidekick,
    next_cover,
    outside_fight,
    place,
    place_refusal,
    pools_refusal,
    remove_combatant,
    reveal,
    set_band,
    set_condition,
    set_cover,
    set_pools,
    zone_name_refusal,
)
from .sonic import SonicPlan, SonicTarget, plan_sonic, sonic_blast, sonic_weapons
from .spots import Spot, on_the_way
from .suppress import SuppressPlan, SuppressTarget, plan_suppress, suppress, suppression_weapons
from .timed import set_countdown, set_note, timed_refusal
from .turns import actor_name, carried_losses
from .wounds import damage_outcome

HANDLERS = {
    AddZone: add_zone,
    CloseIn: close_in,
    SetBand: set_band,
    AddCombatants: add_combatants,
    Reveal: reveal,
    SetCover: set_cover,
    Place: place,
    SetPools: set_pools,
    SetDestroyed: set_destroyed,
    SetFear: set_fear,
    SetCondition: set_condition,
    SetNote: set_note,
    SetCountdown: set_countdown,
    SetDivePolicy: set_dive_policy,
    DecideSidekick: decide_sidekick,
    StartCombat: start_combat,
    DeclareActions: declare_actions,
    Move: move,
    Attack: attack,
    Suppress: suppress,
    SonicBlast: sonic_blast,
    TakeAction: take_action,
    RollChart: roll_chart,
    ApplyDamage: apply_damage,
    RemoveCombatant: remove_combatant,
    EndTurn: end_turn,
    EndCombat: end_combat,
    ClearEncounter: clear_encounter,
}
"""The command each handler takes: ``handler(encounter, command, rng, catalog)``."""

ANSWERS = {
    AnswerDive: (PendingDive, answer_dive),
    SpendCombatRerolls: (PendingCombatRerolls, spend_combat_rerolls),
    ChooseChartRow: (PendingChartChoice, choose_chart_row),
}
"""The answer to each pending decision: ``handler(encounter, answer, pending, rng, catalog)``."""

__all__ = [
    "ACTIONS",
    "ANSWERS",
    "FIGHT_MARKS",
    "FISTS",
    "GM",
    "HANDLERS",
    "MAX_FEAR",
    "MAX_MODIFIER",
    "NO_BAND",
    "TOO_FAR",
    "ActionKind",
    "AddCombatants",
    "AddZone",
    "AnswerDive",
    "ApplyDamage",
    "Attack",
    "AttackPlan",
    "AttackState",
    "ChooseChartRow",
    "ClearEncounter",
    "CloseIn",
    "CombatCommand",
    "DecideSidekick",
    "DeclareActions",
    "EndCombat",
    "EndTurn",
    "Firepower",
    "Hand",
    "Kind",
    "Location",
    "LogLines",
    "Move",
    "Option",
    "Outcome",
    "Pending",
    "PendingChartChoice",
    "PendingCombatRerolls",
    "PendingDive",
    "PendingSidekick",
    "Place",
    "Reaction",
    "RemoveCombatant",
    "Reveal",
    "RollChart",
    "Route",
    "RowOdds",
    "SetBand",
    "SetCondition",
    "SetCountdown",
    "SetCover",
    "SetDestroyed",
    "SetDivePolicy",
    "SetFear",
    "SetNote",
    "SetPools",
    "SonicBlast",
    "SonicPlan",
    "SonicTarget",
    "SpendCombatRerolls",
    "Spot",
    "StartCombat",
    "Suppress",
    "SuppressPlan",
    "SuppressTarget",
    "TakeAction",
    "action_cost",
    "action_refusal",
    "actor_name",
    "answer_dive",
    "carried_items",
    "carried_losses",
    "chart_odds",
    "choose_chart_row",
    "damage_outcome",
    "declare_refusal",
    "firepower",
    "for_group",
    "group_attack",
    "group_target",
    "held_weapon",
    "log_step",
    "move_refusal",
    "nearest_enemies",
    "next_attacker",
    "next_cover",
    "off_hand_weapons",
    "on_the_way",
    "outside_fight",
    "place_refusal",
    "plan_attack",
    "plan_sonic",
    "plan_suppress",
    "pools_refusal",
    "ready_weapon",
    "reloadable",
    "routes",
    "set_up_subject",
    "sonic_blast",
    "sonic_weapons",
    "spend_combat_rerolls",
    "suppress",
    "suppression_weapons",
    "take_action_refusal",
    "timed_refusal",
    "unit_of",
    "weapon_style",
    "within_charges",
    "written",
    "zone_name_refusal",
]
