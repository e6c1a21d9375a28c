"""The pure rules engine: standard library only, no I/O, no global random state.

Every function that rolls takes a ``random.Random``; every roll keeps its dice and can
explain itself. Rule ids (``R-TASK-4``) refer to ``shared/RULES.md``.
"""

from .dice import Expression, ExpressionRoll, parse, roll, strength_die
from .errors import DiceSyntaxError, RulesError, UnknownTraitError
from .models import (
    CombatRatings,
    Cover,
    Derived,
    Difficulty,
    RangeBand,
    Rank,
    Rating,
    Trait,
    Traits,
)
from .odds import PoolOdds, attack_odds, defense_odds, task_odds, wound_odds
from .tasks import (
    DamageRoll,
    HeroFace,
    Modifier,
    PoolKind,
    PoolRoll,
    TargetNumber,
    defense_value,
    reroll,
    roll_attack,
    roll_damage,
    roll_defense,
    roll_task,
    task_tn,
    wound_steps,
)

__all__ = [
    "CombatRatings",
    "Cover",
    "DamageRoll",
    "Derived",
    "DiceSyntaxError",
    "Difficulty",
    "Expression",
    "ExpressionRoll",
    "HeroFace",
    "Modifier",
    "PoolKind",
    "PoolOdds",
    "PoolRoll",
    "RangeBand",
    "Rank",
    "Rating",
    "RulesError",
    "TargetNumber",
    "Trait",
    "Traits",
    "UnknownTraitError",
    "attack_odds",
    "defense_odds",
    "defense_value",
    "parse",
    "reroll",
    "roll",
    "roll_attack",
    "roll_damage",
    "roll_defense",
    "roll_task",
    "strength_die",
    "task_odds",
    "task_tn",
    "wound_odds",
    "wound_steps",
]
