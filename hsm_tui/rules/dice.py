"""Dice expressions as written on cards and sheets, and rolls that keep every die.

Grammar (whitespace ignored, names case-insensitive)::

    expr  := ['+'|'-'] term (('+'|'-') term)*
    term  := [INT] 'd' INT ['!']      a die pool; '!' explodes it (R-DMG-1)
           | INT                      a constant
           | NAME                     a trait, derived trait or rating (R-CHAR-2..4),
                                      or ``strdie``: the Strength die (R-ATK-1)

Damage is always rolled exploding (R-DMG-1) whether or not the card writes ``!``;
plain rolls explode only where the expression says so.

>>> import random
>>> expr = parse("2d6+1")
>>> roll(expr, random.Random(1)).total
7
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from .errors import DiceSyntaxError, RulesError, UnknownTraitError
from .models import TRAIT_ALIASES, Derived, Rating, Trait, once, record, without_hash

#: R-ATK-1: the Strength die by Strength 1..5 (Power attacks, fists).
STRENGTH_DIE: dict[int, int] = {1: 4, 2: 6, 3: 8, 4: 10, 5: 12}

STRENGTH_DIE_NAME = "strdie"
MAX_DICE = 100
MAX_SIDES = 1000
MAX_CONSTANT = 10_000

_NAMES: frozenset[str] = frozenset(
    [t.value for t in Trait]
    + [d.value for d in Derived]
    + [r.value for r in Rating]
    + list(TRAIT_ALIASES)
    + [STRENGTH_DIE_NAME]
)

_TOKEN = re.compile(
    r"\s*(?:(?P<glued>[0-9]*[dD][0-9]+!?)(?=[A-Za-z_])"
    r"|(?P<dice>(?P<count>[0-9]+)?[dD](?P<sides>[0-9]+)(?P<bang>!)?)"
    r"|(?P<nosides>[0-9]+[dD])(?![A-Za-z_[0-9]])"
    r"|(?P<int>[0-9]+)|(?P<name>[A-Za-z_]+)|(?P<op>[+-])|(?P<bad>\S))"
)


def strength_die(strength: int) -> int:
    """R-ATK-1: sides of the Strength die; Strength beyond the table is an error."""
    try:
        return STRENGTH_DIE[strength]
    except KeyError:
        raise RulesError(
            f"no Strength die for Strength {strength} (the table covers 1–5)"
        ) from None


@record
class Dice:
    """``count`` dice with ``sides`` sides; ``explode`` as written (``!``)."""

    count: int
    sides: int
    explode: bool = False

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}{'!' if self.explode else ''}"


@dataclass(frozen=True)
class Const:
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Ref:
    """A named value looked up when the expression is resolved for a character."""

    name: str

    def __str__(self) -> str:
        return self.name


Term = Dice | Const | Ref


@record
class Expression:
    """A parsed expression: signed terms plus the source text for messages."""

    terms: tuple[tuple[int, Term], ...]
    source: str

    def __hash__(self) -> int:
        return self._hash

    @once  # frozen: a ranged attack's rate of fire is looked up by it (rules.combat)
    def _hash(self) -> int:
        return hash((self.terms, self.source))

    __getstate__ = without_hash

    def __str__(self) -> str:
        out = []
        for i, (sign, term) in enumerate(self.terms):
            if i or sign < 0:
                out.append("-" if sign < 0 else "+")
            out.append(str(term))
        return "".join(out)

    @once  # frozen: a damage expression is rolled for every hit
    def references(self) -> frozenset[str]:
        """Names the expression needs a value for before it can be rolled."""
        return frozenset(t.name for _, t in self.terms if isinstance(t, Ref))

    @property
    def dice(self) -> tuple[tuple[int, Dice], ...]:
        return tuple((s, t) for s, t in self.terms if isinstance(t, Dice))

    def resolve(self, values: Mapping[str, int] | None = None) -> Expression:
        """Replace every name by its value (``strdie`` by a die); unknown names raise."""
        values = {k.lower(): v for k, v in (values or {}).items()}
        for alias, trait in TRAIT_ALIASES.items():
            if trait.value in values:
                values.setdefault(alias, values[trait.value])
            elif alias in values:
                values[trait.value] = values[alias]
        terms: list[tuple[int, Term]] = []
        for sign, term in self.terms:
            if isinstance(term, Ref):
                if term.name == STRENGTH_DIE_NAME:
                    if "strength" not in values:
                        raise UnknownTraitError(
                            f"{self.source!r} uses the Strength die but no Strength is known"
                        )
                    term = Dice(1, strength_die(values["strength"]))
                elif term.name in values:
                    term = Const(values[term.name])
                else:
                    raise UnknownTraitError(
                        f"{self.source!r} needs a value for {term.name!r}"
                        " (give the character's traits)"
                    )
            terms.append((sign, term))
        return Expression(tuple(terms), self.source)

    def constant(self) -> int | None:
        """The value when the expression has no dice and no names (``"3"``), else None."""
        if all(isinstance(t, Const) for _, t in self.terms):
            return sum(s * t.value for s, t in self.terms)  # type: ignore[union-attr]
        return None

    @once  # frozen: a card's rate of fire is read for every attack planned
    def fixed(self) -> int | None:
        """:meth:`constant`, worked out once."""
        return self.constant()


def parse(source: str) -> Expression:
    """Parse ``source``; a bad expression raises :class:`DiceSyntaxError` pointing at it."""
    if not isinstance(source, str):
        raise DiceSyntaxError(str(source), 0, "a dice expression must be text")
    if not source.strip():
        raise DiceSyntaxError(source, 0, "empty dice expression")
    terms: list[tuple[int, Term]] = []
    sign, signed, expect_term = 1, False, True
    for m in _TOKEN.finditer(source):
        kind = m.lastgroup
        start = m.start(kind)
        if kind == "op":
            leading_sign = not terms and not signed
            if not expect_term or leading_sign:
                sign, signed, expect_term = (1 if m["op"] == "+" else -1), True, True
                continue
            raise DiceSyntaxError(
                source, start, f"expected a die, number or trait, not {m['op']!r}"
            )
        if kind == "bad":
            raise DiceSyntaxError(source, start, f"unexpected {m['bad']!r}")
        if not expect_term:
            raise DiceSyntaxError(source, start, "expected '+' or '-' between terms")
        terms.append((sign, _term(source, m, start)))
        expect_term = False
    if expect_term:
        end = len(source.rstrip())
        if terms or signed:
            raise DiceSyntaxError(source, end, "expression ends after an operator")
        raise DiceSyntaxError(source, 0, "empty dice expression")
    return Expression(tuple(terms), source)


def _bounded(source: str, digits: str, position: int, low: int, high: int, what: str) -> int:
    """``digits`` as an int in low..high; a huge digit string is refused unconverted."""
    value = int(digits) if len(digits) <= len(str(high)) else high + 1
    if not low <= value <= high:
        shown = digits if len(digits) <= 12 else digits[:6] + "…"
        raise DiceSyntaxError(source, position, f"{what} must be {low}–{high}, got {shown}")
    return value


def _term(source: str, m: re.Match[str], start: int) -> Term:
    if m["glued"]:
        raise DiceSyntaxError(
            source, m.end(), f"unexpected {source[m.end()]!r} after {m['glued']!r}"
        )
    if m["nosides"] or (m["name"] or "").lower() == "d":
        raise DiceSyntaxError(source, m.end() - 1, "expected the number of sides after 'd'")
    if m["dice"]:
        count = _bounded(source, m["count"] or "1", start, 1, MAX_DICE, "dice count")
        sides = _bounded(source, m["sides"], m.start("sides"), 2, MAX_SIDES, "a die's sides")
        return Dice(count, sides, bool(m["bang"]))
    if m["int"]:
        return Const(_bounded(source, m["int"], start, 0, MAX_CONSTANT, "a constant"))
    name = m["name"].lower()
    if name not in _NAMES:
        close = difflib.get_close_matches(name, sorted(_NAMES), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise DiceSyntaxError(source, start, f"unknown name {m['name']!r}{hint}")
    return Ref(name)


@record
class DieRoll:
    """One die as rolled: ``rolls`` holds the chain when it exploded (6, 6, 2 → 14)."""

    sides: int
    rolls: tuple[int, ...]

    @property
    def value(self) -> int:
        return sum(self.rolls)

    def __str__(self) -> str:
        return "→".join(map(str, self.rolls))


@record
class ExpressionRoll:
    """The outcome of rolling an expression, keeping every die for the log and replay."""

    expression: Expression
    parts: tuple[tuple[int, Term, tuple[DieRoll, ...]], ...]

    @once  # frozen: a hit's damage is read for its wound steps and its log line
    def total(self) -> int:
        total = 0
        for sign, term, dice in self.parts:  # plain loops: a hit's term is one die or two
            if isinstance(term, Dice):
                for die in dice:
                    total += sign * sum(die.rolls)
            else:
                total += sign * term.value  # type: ignore[union-attr]
        return total

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        return tuple(d for _, _, dice in self.parts for d in dice)

    def explain(self) -> str:
        """One line: ``2d6! [6→6→2, 3] + 2 = 19``."""
        out = []
        for i, (sign, term, dice) in enumerate(self.parts):
            if i or sign < 0:
                out.append("− " if sign < 0 else "+ ")
            if isinstance(term, Dice):
                out.append(f"{term} [{', '.join(map(str, dice))}] ")
            else:
                out.append(f"{term} ")
        return f"{''.join(out)}= {self.total}"


def faces(rng: random.Random, sides: int, n: int = 1) -> list[int]:
    """``n`` dice of ``sides`` faces, each the very draw ``rng.randint(1, sides)`` and
    ``rng.choice(range(1, sides + 1))`` make, so seeded rolls are unchanged.

    For a plain ``random.Random`` the draw is its ``_randbelow`` written out (``getrandbits``
    of the sides' bit length until one is below ``sides``) without its two Python calls a
    die: a forecast rolls some 600 dice per fight. Any other source (a test's scripted
    dice) is asked through ``choice``.
    """
    if type(rng) is not random.Random:
        return [rng.choice(range(1, sides + 1)) for _ in range(n)]
    k = sides.bit_length()
    if n == 1:  # most calls: a Hero die, a damage die, a task's d10 (no bound method made)
        r = rng.getrandbits(k)
        while r >= sides:
            r = rng.getrandbits(k)
        return [r + 1]
    bits = rng.getrandbits
    out: list[int] = []
    while n > 0:  # a draw past ``sides`` is thrown away, as _randbelow does
        r = bits(k)
        if r < sides:
            out.append(r + 1)
            n -= 1  # counted down, not len(out) < n: a call less each draw
    return out


def roll_die(rng: random.Random, sides: int, explode: bool) -> DieRoll:
    """One die; an exploding die is rolled again while it shows its maximum (R-DMG-1)."""
    rolls = faces(rng, sides)
    while explode and rolls[-1] == sides:
        rolls += faces(rng, sides)
    return DieRoll(sides, tuple(rolls))


@lru_cache(maxsize=256)
def _exploding(count: int, sides: int) -> Dice:
    """``count``d``sides``! as damage rolls a card's dice (R-DMG-1): made once, not per hit."""
    return Dice(count, sides, True)


def roll(
    expr: Expression | str,
    rng: random.Random,
    values: Mapping[str, int] | None = None,
    *,
    explode_all: bool = False,
) -> ExpressionRoll:
    """Roll ``expr`` with ``rng``; ``explode_all`` makes every die explode (damage)."""
    if isinstance(expr, str):
        expr = parse(expr)
    resolved = expr.resolve(values) if expr.references else expr  # resolved already
    parts = []
    for sign, term in resolved.terms:
        if isinstance(term, Dice):
            explode, sides = term.explode or explode_all, term.sides
            dice = []  # a plain loop, not a comprehension: most terms are one die (a hit's)
            for _ in range(term.count):
                dice.append(roll_die(rng, sides, explode))
            rolled = term if term.explode is explode else _exploding(term.count, sides)
            parts.append((sign, rolled, tuple(dice)))
        else:
            parts.append((sign, term, ()))
    return ExpressionRoll(resolved, tuple(parts))
