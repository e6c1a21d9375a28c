"""The table: the one Session every view talks to and who sits at it.

It holds the session (state, commands in, undo, log), the seats and the one permission
rule, each seat's projection of what it may see, the menus the engine has checked for a
seat, and the log as a readable story. It may import ``rules``, ``packs``, ``campaign``
and ``persistence``; never ``textual``, ``rich``, ``ui``, ``share`` or ``cli``.
"""
