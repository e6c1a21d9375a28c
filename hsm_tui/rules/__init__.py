"""The pure rules engine: standard library only, no I/O, no global random state.

Every function that rolls takes a ``random.Random``; every roll keeps its dice and can
explain itself. Rule ids (``R-TASK-4``) refer to ``shared/RULES.md``.

Names load from their module on first use (``hsm_tui.lazy``).
"""

from __future__ import annotations

from ..lazy import lazy_names

_HOME = {
    "attack_odds": "odds",
    "card_reroll": "tasks",
    "CombatRatings": "models",
    "Cover": "models",
    "DamageRoll": "tasks",
    "defense_odds": "odds",
    "defense_value": "tasks",
    "Derived": "models",
    "DecisionPending": "errors",
    "DiceSyntaxError": "errors",
    "Difficulty": "models",
    "Expression": "dice",
    "ExpressionRoll": "dice",
    "HeroFace": "tasks",
    "Modifier": "tasks",
    "NotPermitted": "errors",
    "parse": "dice",
    "PoolKind": "tasks",
    "PoolOdds": "odds",
    "PoolRoll": "tasks",
    "RangeBand": "models",
    "Rank": "models",
    "Rating": "models",
    "reroll": "tasks",
    "roll": "dice",
    "roll_attack": "tasks",
    "roll_damage": "tasks",
    "roll_defense": "tasks",
    "roll_task": "tasks",
    "RulesError": "errors",
    "strength_die": "dice",
    "TargetNumber": "tasks",
    "task_odds": "odds",
    "task_tn": "tasks",
    "Trait": "models",
    "Traits": "models",
    "UnknownTraitError": "errors",
    "wound_odds": "odds",
    "wound_steps": "tasks",
}
"""Each public name and the module that defines it."""

__all__ = sorted(_HOME)

__getattr__ = lazy_names(__name__, _HOME)
