"""Issue 21 (memory per player): the apps one ``hsm serve`` process runs share their
parsed CSS; a theme with other variables parses anew; the two Textual members it relies
on keep their shape (textual is pinned to 8.2.x: this fails first if an upgrade moves them).
"""

from __future__ import annotations

import inspect

from textual.css.stylesheet import Stylesheet

from hsm_tui.share import css_cache

CSS = "Static { color: $text; }"


def _rules(variables: dict[str, str]) -> list[object]:
    sheet = Stylesheet(variables=variables)
    sheet.add_source(CSS, ("test.tcss", ""))
    sheet.parse()
    return sheet.rules


def test_textuals_members_keep_the_shape_the_cache_relies_on() -> None:
    own = inspect.signature(css_cache._own_parse)
    assert list(own.parameters) == [
        "self",
        "css",
        "read_from",
        "is_default_rules",
        "tie_breaker",
        "scope",
    ]
    assert isinstance(inspect.getattr_static(Stylesheet, "_variable_tokens"), property)
    assert "_variables" in inspect.getsource(Stylesheet.__init__)


def test_two_apps_stylesheets_share_one_parse_and_a_new_theme_parses_anew() -> None:
    css_cache.share()
    theme = {"text": "white"}
    first, second = _rules(theme), _rules(dict(theme))
    assert first and all(a is b for a, b in zip(first, second, strict=True))
    other = _rules({"text": "black"})
    assert other[0] is not first[0]
    assert other[0].styles.color != first[0].styles.color
    sheet = Stylesheet(variables=theme)
    assert sheet._variable_tokens is Stylesheet(variables=dict(theme))._variable_tokens
