"""Worker processes that play a forecast's fights side by side.

A forecast's fights are independent and each is seeded by its index, so splitting them
among processes changes nothing but the wait: on this project's 2-core machines the
builder's 200 fights take about half as long. The processes come from a *forkserver*, a
clean process started once that forks each worker: forking the app itself would copy its
threads' locks (Textual's, the SSH server's) into children that might then wait on them
forever. The app keeps one pool for its whole run (:func:`shared`) and starts it before
the GM asks (:func:`warm`), so the first forecast does not pay for starting Python twice.
The engine is imported only when a forecast is played: the app imports this module early.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .packs import Catalog
    from .simulate import EncounterSpec, Forecast

_lock = threading.Lock()
_shared: ProcessPoolExecutor | None = None
_UNFIT = (BrokenExecutor, OSError, NotImplementedError)
"""A pool that cannot work: a worker was killed, the system refuses new processes."""


def cores() -> int:
    """The CPUs this process may run on (its affinity where the system says)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def track_resources() -> None:
    """Start the process that cleans up the pool's semaphores, while ``sys.stderr`` is
    still the program's own: a running Textual app puts a stand-in without a file
    descriptor there, which starting it then fails on (ValueError). Call it before an
    app runs; it does nothing once the tracker runs.
    """
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()


def new_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes forked from a forkserver that has the engine
    loaded already (so a worker starts in milliseconds, not by importing it anew); where
    there is no forkserver, each worker starts a fresh Python.
    """
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["__main__", "hsm_tui.simulate"])
    else:  # Windows
        context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(jobs, context, initializer=_yield_to_the_app)


def _yield_to_the_app() -> None:
    """A worker runs at a lower priority: with one worker per core, the app (or the SSH
    server) still gets a core at once for a key press while the fights are played.
    """
    if hasattr(os, "nice"):
        os.nice(10)


def _jobs() -> int:
    """One worker per core, at most 4: a forecast of 200 fights has no more chunks."""
    return min(cores(), 4)


def shared() -> Executor | None:
    """The program's pool (:func:`_jobs` workers); None on a single core, where a thread
    does as well.
    """
    global _shared
    if _jobs() < 2:
        return None
    with _lock:
        if _shared is None:
            try:
                track_resources()
            except ValueError:  # not started before the app: play in a thread instead
                return None
            _shared = new_pool(_jobs())
        return _shared


def warm() -> None:
    """Start the shared pool's workers now (it takes a fraction of a second, off the
    UI thread: call it from a worker thread) so that the first forecast finds them ready.
    """
    pool = shared()
    if pool is None:
        return
    try:
        for future in [pool.submit(int) for _ in range(_jobs())]:
            future.result()
    except _UNFIT:
        discard(pool)


def discard(pool: Executor) -> None:
    """Forget ``pool`` (broken: a worker died) so that the next call makes a new one."""
    global _shared
    with _lock:
        if _shared is pool:
            _shared = None
    pool.shutdown(wait=False, cancel_futures=True)


def stop() -> None:
    """Stop the shared pool without waiting for fights nobody will read (the app quits)."""
    with _lock:
        pool = _shared
    if pool is not None:
        discard(pool)


def play(
    spec: EncounterSpec,
    catalog: Catalog,
    runs: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    jobs: int | None = None,
) -> Forecast:
    """The forecast in the program's shared pool (``jobs`` None: the app's), or in a pool
    of ``jobs`` workers made for it (``hsm simulate --jobs``; one: in this thread).
    """
    from .simulate import forecast

    def run(pool: Executor | None) -> Forecast:
        return forecast(spec, catalog, runs, seed, progress, pool)

    if jobs is None:
        return _in(shared(), run)
    if jobs < 2:
        return run(None)
    with new_pool(jobs) as pool:
        return _in(pool, run)


def _in(pool: Executor | None, run: Callable[[Executor | None], Forecast]) -> Forecast:
    """``run`` in ``pool``, or in this thread when there is none or it cannot work
    (:data:`_UNFIT`): the result is the same.
    """
    if pool is not None:
        try:
            return run(pool)
        except _UNFIT:
            discard(pool)
    return run(None)
