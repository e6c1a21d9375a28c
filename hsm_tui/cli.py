"""Command line: ``hsm`` (the app), ``hsm odds …`` and ``hsm roll …``.

The odds and roll commands are a **contract** (issue 3): option names, JSON keys and
exit codes are fixed. Bad input exits 2 with one line ``hsm: error: …`` on stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import random
import re
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NoReturn

from . import campaign_args, dataclass_code
from .rules.errors import DiceSyntaxError, RulesError, UnknownTraitError

MAX_DICE = 50

MAX_HEALTH = 100


class _Parser(argparse.ArgumentParser):
    """Bad input exits 2 with one line. ``fill`` adds a subcommand's own arguments when
    that subcommand is parsed: the app's start (``hsm``) builds no more than the names.
    """

    def __init__(
        self,
        *args: Any,
        fill: Callable[[argparse.ArgumentParser], None] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self._fill = fill

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if self._fill is not None:
            fill, self._fill = self._fill, None
            fill(self)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        _fail(message)


def _fail(message: str) -> NoReturn:
    first_line = message.strip().splitlines()[0] if message.strip() else "invalid input"
    print(f"hsm: error: {first_line}", file=sys.stderr)
    raise SystemExit(2)


def _whole(text: str) -> int:
    """A whole number written in ASCII digits (``int`` would also take ``٣`` and ``1_0``)."""
    if not re.fullmatch(r"[+-]?[0-9]{1,18}", text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    return int(text)


def _int_at_least(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    def convert(text: str) -> int:
        value = _whole(text)
        if value < minimum or (maximum is not None and value > maximum):
            bound = f"from {minimum} to {maximum}" if maximum is not None else f"{minimum} or more"
            raise argparse.ArgumentTypeError(f"must be {bound}, got {value}")
        return value

    return convert


def _trait_pair(text: str) -> tuple[str, int]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        return name.strip().lower(), int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None


def build_parser() -> argparse.ArgumentParser:
    """The whole command tree; kept in one place so ``--help`` documents the contract.
    Each subcommand's own arguments are added when that subcommand is parsed (``_fill``).
    """
    parser = _Parser(prog="hsm", description="Game-master tool for Heroes, Sidekicks & Minions.")
    parser.add_argument("--seed", type=_whole, help="seed the session's dice (replayable)")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    sub.add_parser("play", help="start the app (the default)", fill=_fill_play)
    sub.add_parser("odds", help="exact odds of a roll", fill=_fill_odds)
    parser.add_argument("--content", action="append", default=[], metavar="DIR", help=CONTENT_HELP)
    sub.add_parser("content", help="check and list content packs", fill=_fill_content)
    sim_help = "forecast an encounter by playing it many times"
    sub.add_parser("simulate", help=sim_help, fill=_fill_simulate)
    sub.add_parser("serve", help="share the table over SSH (README: hsm serve)", fill=_fill_serve)
    campaign_args.add_parser(sub)
    sub.add_parser("roll", help="roll a dice expression", fill=_fill_roll)
    return parser


CONTENT_HELP = "also load packs from DIR (repeatable; see HSM_CONTENT_PATH)"


def _add_content(parser: argparse.ArgumentParser) -> None:
    """A subcommand's ``--content``, merged with the top-level one in :func:`main`."""
    parser.add_argument(
        "--content",
        action="append",
        dest="content_sub",
        default=[],
        metavar="DIR",
        help=CONTENT_HELP,
    )


def _fill_play(play: argparse.ArgumentParser) -> None:
    # SUPPRESS: without a value here, ``hsm --seed 5 play`` keeps the top-level seed.
    play.add_argument(
        "--seed",
        type=_whole,
        default=argparse.SUPPRESS,
        help="seed the session's dice (replayable)",
    )
    play.add_argument(
        "campaign",
        nargs="?",
        help="a campaign to open: a file, or a name in the saves folder (its dice go on)",
    )
    _add_content(play)


def _fill_odds(parser: argparse.ArgumentParser) -> None:
    from .rules.models import MAX_FREE_REROLLS, Cover

    odds = parser.add_subparsers(dest="odds", required=True, parser_class=_Parser)
    rank = {
        "choices": ["hero", "minion"],
        "default": "hero",
        "help": "roller's rank (default hero)",
    }
    rerolls = {
        "type": _int_at_least(0, MAX_FREE_REROLLS),
        "default": 0,
        "help": "re-rolls available",
    }

    task = odds.add_parser("task", help="chance a task succeeds (R-TASK-7)")
    task.add_argument("--tn", type=_whole, required=True, help="target number")
    task.add_argument("--rank", **rank)
    task.add_argument("--rerolls", **rerolls)

    attack = odds.add_parser("attack", help="distribution of hits (R-ATK-2)")
    attack.add_argument("--tn", type=_whole, required=True, help="attack target number")
    attack.add_argument(
        "--dice", type=_int_at_least(1, MAX_DICE), required=True, help="attack dice"
    )
    attack.add_argument("--rank", **rank)
    attack.add_argument("--rerolls", **rerolls)

    defense = odds.add_parser("defense", help="hits that get through Defense (R-ATK-6)")
    defense.add_argument(
        "--hits", type=_int_at_least(1, MAX_DICE), required=True, help="hits scored"
    )
    defense.add_argument("--dodge", type=_int_at_least(0), required=True, help="defender's Dodge")
    defense.add_argument("--cover", choices=[c.label for c in Cover], default="none")
    defense.add_argument("--rank", **rank)
    defense.add_argument("--rerolls", **rerolls)

    wounds = odds.add_parser("wounds", help="wound steps from one hit (R-DMG-2)")
    wounds.add_argument("--damage", required=True, help="damage expression, e.g. 2d6+1")
    wounds.add_argument("--health", type=_int_at_least(1, MAX_HEALTH), required=True)
    wounds.add_argument("--trait", type=_trait_pair, action="append", default=[], metavar="NAME=V")

    for p in (task, attack, defense, wounds):
        p.add_argument("--json", action="store_true", help="print one JSON object")


def _fill_content(parser: argparse.ArgumentParser) -> None:
    from .packs.kinds import KINDS

    content = parser.add_subparsers(dest="content_command", required=True, parser_class=_Parser)
    check = content.add_parser("check", help="report every problem in packs")
    check.add_argument("dirs", nargs="*", metavar="DIR", help="packs to check (default: all)")
    check.add_argument("--strict", action="store_true", help="warnings also fail (exit 1)")
    _add_content(check)
    listing = content.add_parser("list", help="list loaded entries")
    listing.add_argument("kind", nargs="?", choices=list(KINDS.values()), help="only this kind")
    listing.add_argument("--json", action="store_true", help="print one JSON list")
    _add_content(listing)


def _fill_simulate(sim: argparse.ArgumentParser) -> None:
    sim.add_argument("--encounter", required=True, metavar="FILE", help="encounter TOML file")
    sim.add_argument("--runs", type=_int_at_least(1, 100_000), default=1000, help="fights to play")
    sim.add_argument(
        "--seed", type=_whole, default=argparse.SUPPRESS, help="same seed, same forecast"
    )
    sim.add_argument(
        "--jobs",
        type=_int_at_least(1, 64),
        help="worker processes (default: one per CPU it may use; the result does not depend on it)",
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    _add_content(sim)


def _fill_serve(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("campaign", nargs="?", help="campaign file or name in the saves folder")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=_int_at_least(0, 65535), default=2222, help="(2222)")
    serve.add_argument("--players", help="players file (players.toml beside the campaign)")
    serve.add_argument("--headless", action="store_true", help="no app in this terminal")
    serve.add_argument("--max-seats", type=_int_at_least(1, 64), default=8, help="(8)")


def _fill_roll(dice: argparse.ArgumentParser) -> None:
    dice.add_argument("expr", help="e.g. 2d6+1, d6! (exploding), 1+agility")
    dice.add_argument("--seed", type=_whole, default=argparse.SUPPRESS, help="same seed, same dice")
    dice.add_argument("--trait", type=_trait_pair, action="append", default=[], metavar="NAME=V")
    dice.add_argument("--json", action="store_true", help="print one JSON object")


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


def run_odds(args: argparse.Namespace) -> dict[str, Any]:
    """Compute the odds a subcommand asks for, as the JSON-ready contract object."""
    from .rules import attack_odds, defense_odds, defense_value, parse, task_odds, wound_odds
    from .rules.models import Cover, Rank

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


def _seed(args: argparse.Namespace) -> int:
    """The seed asked for, or a fresh one that the output reports (so it can be replayed)."""
    return args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)


def run_roll(args: argparse.Namespace) -> dict[str, Any]:
    from .rules import roll

    seed = _seed(args)
    result = roll(args.expr, random.Random(seed), dict(args.trait))
    return {
        "expression": args.expr,
        "seed": seed,
        "total": result.total,
        "dice": [{"sides": d.sides, "rolls": list(d.rolls), "value": d.value} for d in result.dice],
        "explain": result.explain(),
    }


def run_content(args: argparse.Namespace) -> int:
    """``hsm content check|list``: problems as ``path:line: severity: message``."""
    from pathlib import Path

    from .packs import content_dirs, load

    checked = [Path(d) for d in getattr(args, "dirs", [])]
    result = load([*content_dirs(args.content), *checked])
    if args.content_command == "list":
        return _list_content(result.catalog, args)
    roots = [d.resolve() for d in checked]
    shown = [p for p in result.problems if _under(Path(p.path), roots)]
    for problem in shown:
        print(problem.format())
    errors = sum(p.is_error for p in shown)
    packs = [p for p in result.catalog.packs if _under(Path(p.path), roots)]
    print(
        f"checked {len(packs)} pack(s): {errors} error(s), {len(shown) - errors} warning(s)",
        file=sys.stderr,
    )
    return 1 if errors or (args.strict and shown) else 0


def _under(path: Any, roots: list[Any]) -> bool:
    """Whether ``path`` is in one of ``roots`` (all when none): a file that is a symlink
    (to ``/dev/zero``, say) counts where it lies, not where it points."""
    lies = path.parent.resolve() / path.name
    return not roots or any(p.is_relative_to(r) for r in roots for p in (path.resolve(), lies))


def run_simulate(args: argparse.Namespace) -> int:
    """``hsm simulate``: win rates, rounds, wounds and taken-out counts per side."""
    from pathlib import Path

    from .encounter_file import read_encounter
    from .fight_pool import cores, play
    from .packs import content_dirs, load

    content = load(content_dirs(args.content))
    spec = read_encounter(Path(args.encounter), content.catalog)
    seed = _seed(args)
    result = _with_progress(
        lambda tick: play(spec, content.catalog, args.runs, seed, tick, args.jobs or cores()),
        args.runs,
    )
    data = {"encounter": spec.name, "seed": seed, **result.as_dict()}
    if args.json:
        _print_json(data)
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(
        "side",
        "wins",
        "wound steps / fight",
        "out / fight",
        title=f"{spec.name}: {args.runs} fights",
    )
    for side, rate in result.wins.items():
        table.add_row(side, f"{rate:.1%}", f"{result.wounds[side]:.2f}", f"{result.out[side]:.2f}")
    table.add_row("draw", f"{result.draws:.1%}", "", "")
    Console().print(table)
    r = result.rounds
    print(f"rounds: mean {r['mean']:.1f}, min {r['min']}, max {r['max']} · seed {seed}")
    for gap in result.never_reach:  # R-COMBAT-2: a side that can never land a hit
        print(f"! {gap}")
    return 0


def _with_progress(work: Callable[[Callable[[int], None] | None], Any], total: int) -> Any:
    """A progress bar on stderr when it is a terminal; silent otherwise (pipes, CI)."""
    if not sys.stderr.isatty():
        return work(None)
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("fighting", total=total)
        return work(lambda done: bar.update(task, completed=done))


def _list_content(catalog: Any, args: argparse.Namespace) -> int:
    from .packs.kinds import KINDS

    rows = [
        {"kind": singular, "id": e.id, "name": e.name, "pack": e.source.pack}
        for singular, plural in KINDS.items()
        if args.kind in (None, plural)
        for e in catalog.kind(plural).values()
    ]
    if args.json:
        _print_json(rows)
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table("kind", "id", "name", "pack", title="hsm content list")
    for row in rows:
        table.add_row(row["kind"], row["id"], row["name"], row["pack"])
    Console().print(table)
    return 0


def _print_json(data: Any) -> None:
    import json  # the app's start does not need it

    print(json.dumps(data))


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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``hsm`` console script and ``python -m hsm_tui``. A reader
    that stops early (``hsm content list | head``) ends a report quietly, exit 1; the app
    or the server losing its output says so, as the table it served has stopped.
    """
    dataclass_code.install()  # before Textual and the engine build their dataclasses
    args = build_parser().parse_args(argv)
    try:
        return _command(args)
    except BrokenPipeError:
        # stdout points at nothing now: Python's own flush at exit would fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        if args.command in (None, "play", "serve"):
            with contextlib.suppress(OSError):  # the terminal may be gone with it
                print("hsm: error: the terminal's output closed (broken pipe)", file=sys.stderr)
        return 1


def _command(args: argparse.Namespace) -> int:
    args.content = [*args.content, *getattr(args, "content_sub", [])]
    try:
        if args.command in (None, "play"):
            campaign = getattr(args, "campaign", None)
            if campaign is not None and args.seed is not None:
                _fail("--seed does not mix with a campaign: the campaign's own dice go on")
            gc.disable()  # until the app has drawn and loaded the engine (HsmApp.on_ready)
            try:
                from .persistence.errors import CampaignFileError
                from .ui.app import run_app

                return run_app(seed=args.seed, content=args.content, campaign=campaign)
            except CampaignFileError as exc:
                _fail(str(exc))
            finally:  # also when the app never got that far (a bad campaign file)
                gc.enable()
        if args.command == "serve":
            from .share.serve import ServeOptions, run_serve

            options = ServeOptions(
                args.campaign, args.host, args.port, args.players, args.headless,
                args.max_seats, tuple(args.content),
            )  # fmt: skip
            return run_serve(options)
        if args.command == "content":
            return run_content(args)
        if args.command == "campaign":
            from . import campaigns

            return campaigns.run(args)
        if args.command == "simulate":
            return run_simulate(args)
        if args.command == "odds":
            data = run_odds(args)
            title = f"hsm odds {args.odds}"
        else:
            data = run_roll(args)
            title = f"hsm roll {args.expr}"
    except campaign_args.UsageError as exc:
        _fail(str(exc))
    except DiceSyntaxError as exc:
        _fail(exc.short)
    except UnknownTraitError as exc:
        _fail(f"{exc}; pass --trait NAME=VALUE")
    except RulesError as exc:
        _fail(str(exc))
    if args.json:
        _print_json(data)
    elif args.command == "roll":
        print(f"{data['explain']}    (seed {data['seed']})")
    else:
        _print_table(title, data)
    return 0
