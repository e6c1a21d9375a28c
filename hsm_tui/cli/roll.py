"""``hsm roll EXPR``: roll a dice expression with a seed that replays it (a contract)."""

from __future__ import annotations

import argparse
import random
from typing import Any

from .parser import add_seed, print_json, seed_of, trait_pair


def fill(dice: argparse.ArgumentParser) -> None:
    """``roll``'s own arguments."""
    dice.add_argument("expr", help="e.g. 2d6+1, d6! (exploding), 1+agility")
    add_seed(dice, "same seed, same dice")
    dice.add_argument("--trait", type=trait_pair, action="append", default=[], metavar="NAME=V")
    dice.add_argument("--json", action="store_true", help="print one JSON object")


def compute(args: argparse.Namespace) -> dict[str, Any]:
    """The roll as the JSON-ready contract object: every die, the total, the seed."""
    from ..rules import roll

    seed = seed_of(args)
    result = roll(args.expr, random.Random(seed), dict(args.trait))
    return {
        "expression": args.expr,
        "seed": seed,
        "total": result.total,
        "dice": [{"sides": d.sides, "rolls": list(d.rolls), "value": d.value} for d in result.dice],
        "explain": result.explain(),
    }


def run(args: argparse.Namespace) -> int:
    """Print the roll: one JSON object, or its explanation and seed."""
    data = compute(args)
    if args.json:
        print_json(data)
    else:
        print(f"{data['explain']}    (seed {data['seed']})")
    return 0
