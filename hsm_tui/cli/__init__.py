"""The ``hsm`` command: one module per subcommand (play, odds, roll, content, simulate,
campaign, serve), each adding its own arguments only when it is the one parsed and
importing the engine only when it runs, so that ``hsm`` starts the app at once.

It may import every other package; nothing imports it but ``__main__``.
"""

from .command import main

__all__ = ["main"]
