"""The forecast's worker processes (issue 22: the builder's 200 fights in under a second):
the same forecast as one thread plays, whatever becomes of the pool."""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Iterator
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from hsm_tui.forecast import fight_pool
from hsm_tui.forecast.simulate import forecast
from hsm_tui.packs import Catalog, content_dirs, load
from hsm_tui.persistence.encounter_file import EncounterSpec, read_encounter
from hsm_tui.rules import errors

EXAMPLE = Path("content/encounters/dig-site-ambush.toml")
RUNS = 120  # three chunks of CHUNK fights, the last one short
many_cores = pytest.mark.skipif(fight_pool.cores() < 2, reason="one core: a thread plays")


@pytest.fixture(scope="module")
def example() -> tuple[EncounterSpec, Catalog]:
    catalog = load(content_dirs(())).catalog
    return read_encounter(EXAMPLE, catalog), catalog


@pytest.fixture
def own_shared_pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A test's own shared pool, stopped after it (the next test starts afresh)."""
    monkeypatch.setattr(fight_pool, "_shared", None)
    yield
    fight_pool.stop()


class Counted(ThreadPoolExecutor):
    """A stand-in pool (threads): counts the chunks handed to it, and may fail the
    ``fail_at``-th with a pool's own failure."""

    def __init__(self, fail_at: int | None = None, failure: Exception | None = None) -> None:
        super().__init__(max_workers=2)
        self.handed = 0
        self.fail_at, self.failure = fail_at, failure

    def submit(self, fn, /, *args, **kwargs) -> Future:  # type: ignore[override]
        self.handed += 1
        if self.handed == self.fail_at:
            failed: Future = Future()
            failed.set_exception(self.failure or BrokenProcessPool("a worker was killed"))
            return failed
        return super().submit(fn, *args, **kwargs)


@many_cores
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


@many_cores
def test_a_worker_killed_under_a_forecast_and_the_fights_are_played_here(
    example: tuple[EncounterSpec, Catalog], own_shared_pool: None
) -> None:
    spec, catalog = example
    pool = fight_pool.shared()
    assert pool is not None
    with pytest.raises(BrokenProcessPool):
        pool.submit(os._exit, 1).result()
    assert fight_pool.play(spec, catalog, RUNS, 4) == forecast(spec, catalog, RUNS, 4)
    assert fight_pool.shared() not in (pool, None)  # a new one for the next forecast


@pytest.mark.parametrize(
    "failure",
    [BrokenProcessPool("a worker was killed"), CancelledError()],
    ids=["worker killed", "pool shut down under it"],
)
def test_a_pool_failing_partway_leaves_the_forecast_to_this_thread(
    example: tuple[EncounterSpec, Catalog], failure: Exception
) -> None:
    spec, catalog = example
    pool = Counted(fail_at=2, failure=failure)
    done: list[int] = []

    def run(chunks: object = None) -> object:
        return forecast(spec, catalog, RUNS, 4, done.append, chunks)  # type: ignore[arg-type]

    assert fight_pool._run_in(pool, 2, run) == forecast(spec, catalog, RUNS, 4)  # type: ignore[arg-type]
    assert done == [50, 100, 120]  # from where it was: no chunk counted twice


def test_an_error_of_the_fights_is_not_the_pools(
    example: tuple[EncounterSpec, Catalog],
) -> None:
    """A fight's own error comes back as it is: not played again in this thread."""
    spec, catalog = example
    pool = Counted(fail_at=1, failure=errors.RulesError("no such weapon"))
    played: list[object] = []

    def run(chunks: object = None) -> object:
        played.append(chunks)
        return forecast(spec, catalog, RUNS, 4, None, chunks)  # type: ignore[arg-type]

    with pytest.raises(errors.RulesError, match="no such weapon"):
        fight_pool._run_in(pool, 2, run)  # type: ignore[arg-type]
    assert len(played) == 1


def test_a_stopped_forecast_hands_out_no_more_chunks(
    example: tuple[EncounterSpec, Catalog],
) -> None:
    """A newer forecast replaced it: of 4 chunks, only the 2 in flight were handed out."""
    spec, catalog = example
    pool = Counted()

    class Replaced(Exception):
        pass

    def stop_at_once(done: int) -> None:
        raise Replaced

    with pytest.raises(Replaced):
        forecast(spec, catalog, 200, 4, stop_at_once, fight_pool._chunks_in(pool, 2))
    assert pool.handed == 2


@many_cores
def test_stop_under_a_forecast_in_another_thread_leaves_it_to_that_thread(
    example: tuple[EncounterSpec, Catalog], own_shared_pool: None
) -> None:
    """An app quitting in ``hsm serve`` while another's forecast plays in the pool."""
    spec, catalog = example
    fight_pool.warm()
    started, results = threading.Event(), []

    def progress(done: int) -> None:
        started.set()

    worker = threading.Thread(
        target=lambda: results.append(fight_pool.play(spec, catalog, 200, 4, progress))
    )
    worker.start()
    started.wait(60)
    fight_pool.stop()
    worker.join(60)
    assert results == [forecast(spec, catalog, 200, 4)]


@many_cores
def test_warming_a_broken_pool_replaces_it(own_shared_pool: None) -> None:
    pool = fight_pool.shared()
    assert pool is not None
    with pytest.raises(BrokenProcessPool):
        pool.submit(os._exit, 1).result()
    fight_pool.warm()
    assert fight_pool.shared() not in (pool, None)


def test_without_the_resource_tracker_the_fights_are_played_in_this_thread(
    example: tuple[EncounterSpec, Catalog],
    own_shared_pool: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Started first under a running app, whose stderr stand-in has no descriptor."""
    spec, catalog = example
    monkeypatch.setattr(fight_pool, "track_resources", lambda: False)
    assert fight_pool.shared() is None
    assert fight_pool.play(spec, catalog, RUNS, 4) == forecast(spec, catalog, RUNS, 4)


@pytest.mark.parametrize(
    "refusal",
    [NotImplementedError("This Python lacks a working sem_open"), OSError("no processes")],
    ids=["no sem_open", "no process allowed"],
)
def test_a_system_refusing_a_pool_leaves_the_fights_to_this_thread(
    example: tuple[EncounterSpec, Catalog],
    own_shared_pool: None,
    monkeypatch: pytest.MonkeyPatch,
    refusal: Exception,
) -> None:
    """``ProcessPoolExecutor`` raises NotImplementedError where the system has no working
    semaphores (its own check); the app then plays in its own thread, the same forecast."""

    def refused(*args: object, **kwargs: object) -> None:
        raise refusal

    spec, catalog = example
    monkeypatch.setattr(fight_pool, "ProcessPoolExecutor", refused)
    assert fight_pool.new_pool(2) is None and fight_pool.shared() is None
    assert fight_pool.play(spec, catalog, RUNS, 4, jobs=2) == forecast(spec, catalog, RUNS, 4)


def test_hsm_simulate_with_its_own_pool_matches_one_worker(
    example: tuple[EncounterSpec, Catalog],
) -> None:
    spec, catalog = example
    assert fight_pool.play(spec, catalog, RUNS, 9, jobs=2) == fight_pool.play(
        spec, catalog, RUNS, 9, jobs=1
    )


@pytest.mark.parametrize(
    "error",
    [
        errors.RulesError("refused"),
        errors.DiceSyntaxError("2d6+*3", 4, "unexpected '*'"),
        errors.UnknownTraitError("no Agility"),
        errors.DecisionPending("answer first"),
        errors.NotPermitted("the GM's alone"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_every_rules_error_comes_back_from_a_worker_as_it_left(
    error: errors.RulesError,
) -> None:
    """A worker hands its error back pickled: one that cannot be rebuilt breaks the pool."""
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and str(back) == str(error)
