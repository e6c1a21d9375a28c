"""Forecasts of an encounter: many fights played by a simple policy, the worker
processes that play them side by side, and which side can never reach which.

It may import ``rules``, ``packs``, ``campaign`` and ``persistence`` (the encounter file);
never ``textual``, ``rich``, ``ui``, ``table``, ``share`` or ``cli``.
"""
