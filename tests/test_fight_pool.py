"""The forecast's worker processes (issue 22: the builder's 200 fights in under a second):
the same forecast as one thread plays, whatever becomes of the pool."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hsm_tui import fight_pool
from hsm_tui.packs import Catalog, content_dirs, load
from hsm_tui.simulate import EncounterSpec, forecast, read_encounter

EXAMPLE = Path("content/encounters/dig-site-ambush.toml")
RUNS = 120  # three chunks of CHUNK fights, the last one short


@pytest.fixture(scope="module")
def example() -> tuple[EncounterSpec, Catalog]:
    catalog = load(content_dirs(())).catalog
    return read_encounter(EXAMPLE, catalog), catalog


@pytest.fixture
def own_shared_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test's own shared pool, stopped after it (the next test starts afresh)."""
    monkeypatch.setattr(fight_pool, "_shared", None)
    yield
    fight_pool.stop()


@pytest.mark.skipif(fight_pool.cores() < 2, reason="one core: no pool, a thread plays")
def test_the_pool_plays_the_forecast_one_thread_plays(
    example: tuple[EncounterSpec, Catalog], own_shared_pool: None
) -> None:
    spec, catalog = example
    done: list[int] = []
    pool = fight_pool.shared()
    pooled = fight_pool.play(spec, catalog, RUNS, 4, done.append)
    assert pool is not None and fight_pool.shared() is pool  # kept: it did not fail
    assert pooled == forecast(spec, catalog, RUNS, 4)
    assert done == [50, 100, 120]


def test_a_pool_whose_worker_died_is_replaced_and_the_forecast_played_here(
    example: tuple[EncounterSpec, Catalog], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, catalog = example
    broken = fight_pool.new_pool(2)
    with pytest.raises(Exception, match="terminated abruptly"):
        broken.submit(os._exit, 1).result()
    monkeypatch.setattr(fight_pool, "_shared", broken)
    try:
        assert fight_pool.play(spec, catalog, RUNS, 4) == forecast(spec, catalog, RUNS, 4)
        assert fight_pool.shared() is not broken
    finally:
        fight_pool.stop()


def test_a_stopped_forecast_leaves_the_pool_fit_for_the_next(
    example: tuple[EncounterSpec, Catalog], own_shared_pool: None
) -> None:
    spec, catalog = example

    class Replaced(Exception):
        pass

    def stop_at_once(done: int) -> None:
        raise Replaced

    with pytest.raises(Replaced):
        fight_pool.play(spec, catalog, 200, 4, stop_at_once)
    assert fight_pool.play(spec, catalog, RUNS, 5) == forecast(spec, catalog, RUNS, 5)


def test_without_the_resource_tracker_the_fights_are_played_in_this_thread(
    example: tuple[EncounterSpec, Catalog],
    own_shared_pool: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Started first under a running app: its stderr stand-in has no file descriptor."""
    spec, catalog = example

    def refused() -> None:
        raise ValueError("bad value(s) in fds_to_keep")

    monkeypatch.setattr(fight_pool, "track_resources", refused)
    assert fight_pool.shared() is None
    assert fight_pool.play(spec, catalog, RUNS, 4) == forecast(spec, catalog, RUNS, 4)


def test_hsm_simulate_with_its_own_pool_matches_one_worker(
    example: tuple[EncounterSpec, Catalog],
) -> None:
    spec, catalog = example
    assert fight_pool.play(spec, catalog, RUNS, 9, jobs=2) == fight_pool.play(
        spec, catalog, RUNS, 9, jobs=1
    )
