"""The dice a forecast rolls fast are the very dice the plain draws make (R-DMG-1, R-TASK-2)."""

from __future__ import annotations

import random

import pytest

from hsm_tui.rules import dice


@pytest.mark.parametrize("sides", [1, 2, 3, 6, 8, 10, 12, 20, 100, 128, 255, 256, 1000])
def test_pools_of_every_size_draw_what_choice_draws(sides):
    """A pool's dice are drawn at once (``dice._top_bytes``): every count, one after the
    other on one generator, gives choice's dice and leaves the generator as choice does."""
    fast, slow = random.Random(f"pool:{sides}"), random.Random(f"pool:{sides}")
    for n in [*range(13), 40, 3, 2]:
        drawn = dice.faces(fast, sides, n)
        assert drawn == [slow.choice(range(1, sides + 1)) for _ in range(n)]
        assert fast.getstate() == slow.getstate()
