"""``hsm odds task|attack|defense|wounds``: exact odds as fractions.

A **contract**: option names, JSON keys and exit codes are fixed. Bad input exits 2 with
one line ``hsm: error: …`` on stderr.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .parser import Parser, int_at_least, print_json, trait_pair, whole

MAX_DICE = 50

MAX_HEALTH = 100


def fill(parser: argparse.ArgumentParser) -> None:
    """``odds``' four queries and their arguments."""
    from ..rules.models import MAX_FREE_REROLLS, Cover

    odds = parser.add_subparsers(dest="odds", required=True, parser_class=Parser)
    rank = {
        "choices": ["hero", "minion"],
        "default": "hero",
        "help": "roller's rank (default hero)",
    }
    rerolls = {
        "type": int_at_least(0, MAX_FREE_REROLLS),
        "default": 0,
        "help": "re-rolls available",
    }

    task = odds.add_parser("task", help="chance a task succeeds (R-TASK-7)")
    task.add_argument("--tn", type=whole, required=True, help="target number")
    task.add_argument("--rank", **rank)
    task.add_argument("--rerolls", **rerolls)

    attack = odds.add_parser("attack", help="distribution of hits (R-ATK-2)")
    attack.add_argument("--tn", type=whole, required=True, help="attack target number")
    attack.add_argument("--dice", type=int_at_least(1, MAX_DICE), required=True, help="attack dice")
    attack.add_argument("--rank", **rank)
    attack.add_argument("--rerolls", **rerolls)

    defense = odds.add_parser("defense", help="hits that get through Defense (R-ATK-6)")
    defense.add_argument(
        "--hits", type=int_at_least(1, MAX_DICE), required=True, help="hits scored"
    )
    defense.add_argument("--dodge", type=int_at_least(0), required=True, help="defender's Dodge")
    defense.add_argument("--cover", choices=[c.label for c in Cover], default="none")
    defense.add_argument("--rank", **rank)
    defense.add_argument("--rerolls", **rerolls)

    wounds = odds.add_parser("wounds", help="wound steps from one hit (R-DMG-2)")
    wounds.add_argument("--damage", required=True, help="damage expression, e.g. 2d6+1")
    wounds.add_argument("--health", type=int_at_least(1, MAX_HEALTH), required=True)
    wounds.add_argument("--trait", type=trait_pair, action="append", default=[], metavar="NAME=V")

    for p in (task, attack, defense, wounds):
        p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Print the odds as JSON (``--json``) or as a table of fractions and percentages."""
    data = compute(args)
    if args.json:
        print_json(data)
    else:
        _print_table(f"hsm odds {args.odds}", data)
    return 0


def _frac(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _dist(values: Sequence[Fraction]) -> dict[str, str]:
    return {str(k): _frac(p) for k, p in enumerate(values)}


def _specials(odds: Any, hero: bool) -> dict[str, str]:
    if not hero:
        return {}
    return {
        "fortune": _frac(odds.fortune),
        "misfortune": _frac(odds.misfortune),
        "special": _frac(odds.special),
    }


def compute(args: argparse.Namespace) -> dict[str, Any]:
    """The odds a query asks for, as the JSON-ready contract object."""
    from ..rules import attack_odds, defense_odds, defense_value, parse, task_odds, wound_odds
    from ..rules.models import Cover, Rank

    if args.odds == "wounds":
        values = dict(args.trait)
        expr = parse(args.damage).resolve(values)
        steps = wound_odds(expr, args.health)
        return {
            "damage": args.damage,
            "health": args.health,
            "steps": {k: _frac(v) for k, v in steps.items()},
        }
    rank = Rank(args.rank)
    hero = rank is Rank.HERO
    if args.odds == "task":
        o = task_odds(args.tn, rank, args.rerolls)
        return {
            "tn": args.tn,
            "rank": args.rank,
            "rerolls": args.rerolls,
            "success": _frac(o.success),
            **_specials(o, hero),
        }
    if args.odds == "attack":
        o = attack_odds(args.tn, args.dice, rank, args.rerolls)
        return {
            "tn": args.tn,
            "dice": args.dice,
            "rank": args.rank,
            "rerolls": args.rerolls,
            "hits": _dist(o.successes),
            "expected": _frac(o.expected),
            **_specials(o, hero),
        }
    cover = Cover[args.cover.upper()]
    value = defense_value(args.dodge, cover)
    o = defense_odds(args.hits, value, rank, args.rerolls)
    return {
        "hits": args.hits,
        "dodge": args.dodge,
        "cover": args.cover,
        "defense": value,
        "rank": args.rank,
        "rerolls": args.rerolls,
        "through": _dist(o.successes),
        "expected": _frac(o.expected),
        **_specials(o, hero),
    }


def _print_table(title: str, data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_header=True, header_style="bold")
    table.add_column("what")
    table.add_column("exact", justify="right")
    table.add_column("≈ %", justify="right")
    for key, value in data.items():
        if isinstance(value, dict):
            for sub_key, sub_value in value.items():
                _add_row(table, f"{key} {sub_key}", sub_value)
        else:
            _add_row(table, key, value)
    Console().print(table)


def _add_row(table: Any, label: str, value: Any) -> None:
    if isinstance(value, str) and "/" in value:
        table.add_row(label, value, f"{float(Fraction(value)) * 100:.2f}")
    else:
        table.add_row(label, str(value), "")
