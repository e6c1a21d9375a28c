"""Worker processes that play a forecast's fights side by side.

A forecast's fights are independent and each is seeded by its index, so splitting them
among processes changes nothing but the wait: on this project's 2-core machines the
builder's 200 fights take about half as long. The processes come from a *forkserver*, a
clean process started once that forks each worker: forking the app itself would copy its
threads' locks (Textual's, the SSH server's) into children that might then wait on them
forever. The app keeps one pool for its whole run (:func:`shared`) and starts it before
the GM asks (:func:`warm`), so the first forecast does not pay for starting Python twice.
Whatever goes wrong with the pool (no processes allowed, a worker killed, the pool shut
down under a forecast), the fights are played in the caller's thread instead: the same
forecast. The engine is imported only when a forecast is played: the app imports this
module early.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor, CancelledError, Future, ProcessPoolExecutor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..packs import Catalog
    from ..persistence.encounter_file import EncounterSpec
    from .simulate import Chunks, FightResult, Forecast

_lock = threading.Lock()
_shared: ProcessPoolExecutor | None = None


class _Unfit(Exception):
    """The pool cannot play the fights (the fights themselves did not fail)."""


def cores() -> int:
    """The CPUs this process may run on (its affinity where the system says)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _jobs() -> int:
    """One worker per core, at most 4: a forecast of 200 fights has no more chunks."""
    return min(cores(), 4)


def track_resources() -> bool:
    """Start the process that cleans up a pool's semaphores (POSIX), while ``sys.stderr``
    is still the program's own: a running Textual app puts a stand-in without a file
    descriptor there, which starting it then fails on. It does nothing once the tracker
    runs. False when it cannot run: no pool then.
    """
    if os.name != "posix":  # the semaphores need no tracker there
        return True
    from multiprocessing import resource_tracker

    try:
        resource_tracker.ensure_running()
    except (OSError, ValueError):  # no new process allowed; stderr without a descriptor
        return False
    return True


def before_apps() -> None:
    """What the program does before its apps run, where they will have a pool (more than
    one core): :func:`track_resources`.
    """
    if _jobs() > 1:
        track_resources()


def new_pool(jobs: int) -> ProcessPoolExecutor | None:
    """A pool of ``jobs`` worker processes forked from a forkserver that has the engine
    loaded already (so a worker starts in milliseconds, not by importing it anew); where
    there is no forkserver, each worker starts a fresh Python. None when the system
    refuses one (no semaphores, no resource tracker).
    """
    if not track_resources():
        return None
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["__main__", "hsm_tui.forecast.simulate"])
    else:  # Windows
        context = multiprocessing.get_context("spawn")
    try:
        return ProcessPoolExecutor(
            jobs, context, initializer=_in_the_background, initargs=(os.getpid(),)
        )
    except (OSError, NotImplementedError):
        # concurrent.futures refuses a pool where the system has no working sem_open or
        # too few semaphores, with NotImplementedError; the forecast then runs in-process
        return None


def _in_the_background(app: int) -> None:
    """A worker runs at a lower priority, so that with one worker per core the app (or
    the SSH server) still gets a core at once for a key press; and it goes when the app
    goes, however it ended (killed, crashed), instead of waiting for work forever.
    """
    if os.name != "posix":
        return
    os.nice(10)

    def watch() -> None:
        while True:
            time.sleep(1)
            try:
                os.kill(app, 0)
            except (ProcessLookupError, PermissionError):  # gone (its pid another's now)
                os._exit(0)

    threading.Thread(target=watch, daemon=True, name="hsm-app-watch").start()


def shared() -> ProcessPoolExecutor | None:
    """The program's pool (:func:`_jobs` workers); None on a single core, where a thread
    does as well, or when the system refuses a pool.
    """
    global _shared
    if _jobs() < 2:
        return None
    with _lock:
        if _shared is None:
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
        for future in [_submit(pool, int) for _ in range(_jobs())]:
            _result(future)
    except _Unfit:
        discard(pool)


def discard(pool: ProcessPoolExecutor) -> None:
    """Forget ``pool`` so that the next call makes a new one, and stop its workers now
    (a forecast still playing there goes on in its caller's thread).
    """
    global _shared
    with _lock:
        if _shared is pool:
            _shared = None
    pool.shutdown(wait=False, cancel_futures=True)
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()  # else its fights would be played out before the program ends


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

    def run(chunks: Chunks | None = None) -> Forecast:
        return forecast(spec, catalog, runs, seed, progress, chunks)

    if jobs is None:
        return _run_in(shared(), _jobs(), run)
    if jobs < 2:
        return run()
    pool = new_pool(jobs)
    try:
        return _run_in(pool, jobs, run)
    finally:
        if pool is not None:
            discard(pool)


def _run_in(
    pool: ProcessPoolExecutor | None, width: int, run: Callable[[Chunks | None], Forecast]
) -> Forecast:
    """``run`` with its chunks played in ``pool``, or in this thread when there is none."""
    return run(None if pool is None else _chunks_in(pool, width))


def _chunks_in(pool: ProcessPoolExecutor, width: int) -> Chunks:
    """Plays chunks in ``pool``, at most ``width`` at a time: a forecast stopped (a newer
    one replaced it) leaves no more than that to finish, as a worker cannot drop a chunk
    it was handed. Where the pool fails, the chunks not yet handed back are played in this
    thread: the same fights, and the progress goes on from where it was.
    """
    from .simulate import fights

    def chunks(
        spec: EncounterSpec, catalog: Catalog, seed: int, todo: list[range]
    ) -> Iterator[list[FightResult]]:
        handed: deque[Future[list[FightResult]]] = deque()
        back = 0  # chunks handed back, in order
        try:
            for indices in todo:
                handed.append(_submit(pool, fights, spec, catalog, seed, indices))
                if len(handed) >= width:
                    yield _result(handed.popleft())
                    back += 1
            while handed:
                yield _result(handed.popleft())
                back += 1
        except _Unfit:
            discard(pool)
            for indices in todo[back:]:
                yield fights(spec, catalog, seed, indices)
        finally:
            for future in handed:
                future.cancel()

    return chunks


def _submit(pool: ProcessPoolExecutor, task: Callable[..., object], *args: object) -> Future:
    """``pool.submit``; anything it raises is the pool's failing (a process refused, the
    pool shut down or broken), never the task's, which runs later.
    """
    try:
        return pool.submit(task, *args)
    except Exception as refused:
        raise _Unfit from refused


def _result(future: Future) -> object:
    """The task's result or its own error; the pool's failing (a worker killed, the pool
    shut down under it) is :class:`_Unfit`.
    """
    try:
        return future.result()
    except (BrokenExecutor, CancelledError) as unfit:
        raise _Unfit from unfit
