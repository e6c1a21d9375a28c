"""One parse of the CSS for every app that ``hsm serve`` runs (memory and first
frame per player), and for the one app ``hsm`` runs (Textual parses every
source again at each of the theme's steps as it starts, three times with the same
variables, ~7 ms of the first frame).

Textual parses each app's CSS (its own file and every widget's DEFAULT_CSS) into rule
sets, and tokenizes the theme's variables, for that app's stylesheet alone. Twenty
players' apps held twenty identical copies (about 160 KiB each) and paid the parse at
each join. Parsed rule sets and variable tokens are only read once built, so the apps of
one process share them, keyed by everything the parse reads: the CSS text, where it came
from, its flags, and the theme's variables (a theme change parses anew).

This reaches into two private members of Textual's ``Stylesheet``; textual is pinned to
8.2.x and ``tests/share/test_css_cache.py`` fails if either changes shape.

The other way round, :func:`forget_gone_apps` lets go of what Textual would keep of the
apps that have left.
"""

from __future__ import annotations

from typing import Any

from textual._styles_cache import StylesCache
from textual.cache import LRUCache
from textual.css.stylesheet import Stylesheet
from textual.css.tokenize import tokenize_values
from textual.filter import ANSIToTruecolor

KEPT = 256
"""Parsed sources kept: every widget's DEFAULT_CSS and the app's own, for a few themes."""

_rules: LRUCache[tuple[Any, ...], Any] = LRUCache(KEPT)
_tokens: LRUCache[tuple[tuple[str, str], ...], Any] = LRUCache(8)
_own_parse = Stylesheet._parse_rules


def _variables(sheet: Stylesheet) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(sheet._variables.items()))


def _shared_parse(
    self: Stylesheet,
    css: str,
    read_from: Any,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> Any:
    key = (css, read_from, is_default_rules, tie_breaker, scope, _variables(self))
    rules = _rules.get(key)
    if rules is None:
        rules = _own_parse(self, css, read_from, is_default_rules, tie_breaker, scope)
        _rules[key] = rules
    return rules


def _shared_tokens(self: Stylesheet) -> Any:
    key = _variables(self)
    tokens = _tokens.get(key)
    if tokens is None:
        tokens = _tokens[key] = tokenize_values(self._variables)
    return tokens


def share() -> None:
    """From now on every app in this process shares parsed CSS (idempotent)."""
    Stylesheet._parse_rules = _shared_parse  # type: ignore[method-assign]
    Stylesheet._variable_tokens = property(_shared_tokens)  # type: ignore[method-assign,assignment]


def forget_gone_apps() -> None:
    """Empty the two method caches Textual keys by the object itself
    (``ANSIToTruecolor.truecolor_style``, one filter per app, and
    ``StylesCache.get_inner_outer``, one per widget; 1,024 entries each): they keep every
    gone app's filter and its widgets' render caches alive, thousands of objects and 0.2 MB
    a login, for 1,024 entries' worth of logins. Called as an app leaves; the apps still
    running refill them at their next frame.
    """
    ANSIToTruecolor.truecolor_style.cache_clear()
    StylesCache.get_inner_outer.cache_clear()
