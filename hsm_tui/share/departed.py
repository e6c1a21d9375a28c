"""Letting go of what Textual would keep of the apps that have left ``hsm serve``."""

from __future__ import annotations

from textual._styles_cache import StylesCache
from textual.filter import ANSIToTruecolor


def forget_departed_apps() -> None:
    """Empty the two method caches Textual keys by the object itself
    (``ANSIToTruecolor.truecolor_style``, one filter per app, and
    ``StylesCache.get_inner_outer``, one per widget; 1,024 entries each): they keep every
    gone app's filter and its widgets' render caches alive, thousands of objects and 0.2 MB
    a login, for 1,024 entries' worth of logins. Called as an app leaves, through the
    caches' own ``cache_clear()``; the apps still running refill them at their next frame.
    """
    ANSIToTruecolor.truecolor_style.cache_clear()
    StylesCache.get_inner_outer.cache_clear()
