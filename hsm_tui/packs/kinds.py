"""Entry kinds, in a module of their own so the command line can list them without
loading the pack reader and the rules engine.
"""

KINDS = {"weapon": "weapons", "minion": "minions", "sidekick": "sidekicks", "hero": "heroes"}
"""Singular → plural (pack tables are singular; files and listings plural)."""
