"""The builder's forecast: many fights of the encounter as built, played in a thread and
shown as a small table of who wins, or the reason nothing could be played.

The screen hands the panel the encounter after every change (so it can say when its
forecast went stale) and asks it to run; the panel keeps only the last forecast and the
encounter it was played on, a view of the encounter rather than game state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import ProgressBar, Static
from textual.worker import Worker, WorkerState, get_current_worker

from ...campaign.encounter import Encounter
from ...forecast import fight_pool
from ...forecast.simulate import Forecast, NoReach, never_reach, nobody_reaches
from ...packs import Catalog
from ...persistence.encounter_file import EncounterSpec, encounter_spec
from ...rules import Rank, RulesError
from .labels import fit

FORECAST_RUNS = 200
"""Fights per forecast: about a second for the example encounter in one process (half
that in the worker processes of a 2-core machine), and a stable first estimate."""


def forecast_problem(spec: EncounterSpec) -> str | None:
    """What stops a forecast before any fight is played (the file reader's own checks)."""
    if not spec.combatants:
        return "no combatants yet: add some (Enter in the picker, p for the party)"
    if len({c["side"] for c in spec.combatants}) < 2:
        return "combatants must stand on at least two sides"
    return None


def forecast_block(spec: EncounterSpec, catalog: Catalog) -> str | Text | None:
    """Why no fight of ``spec`` can be played, or None: a problem the file reader would
    name, or no side ever reaching another (:func:`stalemate_text`: nothing to play, so
    the reason instead of a table of draws)."""
    problem = forecast_problem(spec)
    if problem:
        return problem
    try:
        unreached = never_reach(spec, catalog)
    except RulesError as err:
        return str(err)
    return stalemate_text(unreached) if nobody_reaches(spec, unreached) else None


def forecast_summary(
    spec: EncounterSpec, catalog: Catalog, seed: int, cancelled: Callable[[], bool]
) -> str | None:
    """A forecast in one line, for a list of encounters (``FORECAST_RUNS`` fights, as the
    builder's panel plays them): who wins how often, or why there is none. Played in the
    calling thread (the worker processes where there are some); None once ``cancelled``.
    """
    blocked = forecast_block(spec, catalog)
    if isinstance(blocked, Text):
        return blocked.plain.splitlines()[0]
    if blocked is not None:
        return f"✗ No forecast: {blocked}"

    def progress(_done: int) -> None:
        if cancelled():
            raise _Cancelled

    try:
        result = fight_pool.play(spec, catalog, FORECAST_RUNS, seed, progress)
    except _Cancelled:
        return None
    except RulesError as err:
        return f"✗ No forecast: {err}"
    if result.harmless:
        return f"✗ Nobody was wounded or taken out in {result.runs} fights"
    wins = " · ".join(f"{side} {rate:.0%}" for side, rate in result.wins.items())
    return f"wins {wins} · draws {result.draws:.0%} · rounds {result.rounds['mean']:.1f}"


def unreached_lines(unreached: Iterable[NoReach]) -> Text:
    """One line per side that can never reach another, with the reason."""
    return Text("\n").join(
        Text.assemble(("· ", "bold"), (n.side, "bold"), f" can't reach {n.target}: {n.why}")
        for n in unreached
    )


def stalemate_text(unreached: Sequence[NoReach]) -> Text:
    """Why there is no forecast table: no side can ever reach another."""
    return Text.assemble(
        ("✗ No forecast: no side can ever reach another", "bold"),
        (" (all fights would be draws)\n", "dim"),
        unreached_lines(unreached),
        ("\nb sets a band of Short between two zones; or add someone who can reach.", "dim"),
    )


def forecast_text(result: Forecast, seed: int, undecided: int) -> Text:
    """The forecast as a small table: per side the win rate, the wound steps it took and
    its combatants out per fight (a Minion taken out took its one wound, R-WOUND-2, so
    the two agree); draws and rounds below, then who can never reach whom. Fixed widths,
    so it reads at 80 columns. A forecast where nobody was ever hurt says so instead.
    """
    rounds = result.rounds
    footer = Text(
        f"draws {result.draws:.1%} · rounds {rounds['mean']:.1f} "
        f"({rounds['min']:.0f}–{rounds['max']:.0f}) · {result.runs} fights, seed {seed}",
        "dim",
    )
    if result.harmless:
        text = Text.assemble(
            (f"✗ Nobody was wounded or taken out in {result.runs} fights", "bold"),
            ": the attacks never get through (range, cover, Defense or Health)\n",
            footer,
        )
    else:
        width = max(10, *(len(s) for s in result.wins))
        width = min(width, 24)
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(
            f"{'side':<{width}} {'wins':>6} {'wounds taken/fight':>19} {'out/fight':>10}\n",
            "bold",
        )
        for side, rate in result.wins.items():
            text.append(f"{fit(side, width):<{width}} {rate:>6.1%} ")
            text.append(f"{result.wounds[side]:>19.1f} {result.out[side]:>10.1f}\n")
        text.append_text(footer)
    if result.never_reach:
        text.append("\n")
        text.append_text(unreached_lines(result.never_reach))
    if undecided:
        text.append(f"\n{undecided} undecided Sidekick(s) forecast as Heroes (d decides)", "dim")
    return text


class _Cancelled(Exception):
    """Raised inside the forecast thread once a newer forecast has replaced it."""


class ForecastPanel(VerticalScroll):
    """A progress bar while the fights are played, then the table (or why there is none)."""

    @dataclass
    class Progress(Message, bubble=False):
        """``done`` fights of forecast ``run`` are played."""

        run: int
        done: int

    @dataclass
    class Done(Message, bubble=False):
        """Forecast ``run`` finished: the spec it played and what came out."""

        run: int
        spec: EncounterSpec
        result: Forecast

    @dataclass
    class Failed(Message, bubble=False):
        """Forecast ``run`` was refused by the rules, with the reason."""

        run: int
        reason: str

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.result: tuple[EncounterSpec, Forecast] | None = None
        """The last forecast and the encounter it was run on (stale once that changes)."""
        self.encounter = Encounter(zones=())
        """The encounter as the screen last showed it: the one a finished forecast is
        compared with."""
        self._run = 0
        self._seed = 0
        self._worker: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        yield ProgressBar(FORECAST_RUNS, show_eta=False, id="builder-progress")
        yield Static(id="builder-forecast-body")

    def on_mount(self) -> None:
        """No forecast yet: say what F does, and start the worker processes meanwhile."""
        self.run_worker(fight_pool.warm, thread=True, group="forecast-warm", exit_on_error=False)
        self.query_one("#builder-progress").display = False
        self.query_one("#builder-forecast-body", Static).update(
            Text("F plays 200 fights of the encounter as built and shows who wins.", "dim")
        )

    def show_encounter(self, enc: Encounter) -> None:
        """The encounter changed: the forecast is stale unless it was played on this one."""
        self.encounter = enc
        stale = self.result is not None and self.result[0] != encounter_spec(enc)
        self.border_subtitle = "stale: the encounter changed, F re-runs" if stale else ""

    def run(self, enc: Encounter, catalog: Catalog, seed: int) -> None:
        """Play FORECAST_RUNS fights of ``enc`` in a thread; whatever runs still is replaced."""
        self._run += 1
        self._seed = seed
        spec = encounter_spec(enc)
        blocked = forecast_block(spec, catalog)
        if blocked is not None:
            self._failed(self._run, blocked)
            return
        bar = self.query_one("#builder-progress", ProgressBar)
        bar.update(total=FORECAST_RUNS, progress=0)
        bar.display = True
        self.query_one("#builder-forecast-body", Static).update(
            Text(f"Playing {FORECAST_RUNS} fights…", "dim")
        )
        self._worker = self._forecast(spec, catalog, seed, self._run)

    @work(thread=True, exclusive=True, group="forecast", exit_on_error=False)
    def _forecast(self, spec: EncounterSpec, catalog: Catalog, seed: int, run: int) -> None:
        """The fights, off the UI thread (in the worker processes where there are some:
        :func:`hsm_tui.forecast.fight_pool.play`). It only posts messages (thread-safe, never
        blocking), and stops at the next chunk of fights once cancelled (replaced by a
        newer forecast, or the app closing).
        """
        worker = get_current_worker()

        def progress(done: int) -> None:
            if worker.is_cancelled:
                raise _Cancelled
            self.post_message(self.Progress(run, done))

        try:
            result = fight_pool.play(spec, catalog, FORECAST_RUNS, seed, progress)
        except _Cancelled:
            return
        except RulesError as err:
            self.post_message(self.Failed(run, str(err)))
            return
        if not worker.is_cancelled:  # replaced, or the app is closing
            self.post_message(self.Done(run, spec, result))

    def on_forecast_panel_progress(self, event: Progress) -> None:
        if event.run == self._run:
            self.query_one("#builder-progress", ProgressBar).update(progress=event.done)

    def on_forecast_panel_done(self, event: Done) -> None:
        if event.run != self._run:
            return
        self.result = (event.spec, event.result)
        enc = self.encounter
        undecided = sum(c.rank is Rank.SIDEKICK and c.plays_as is None for c in enc.combatants)
        self.query_one("#builder-progress").display = False
        self.query_one("#builder-forecast-body", Static).update(
            forecast_text(event.result, self._seed, undecided)
        )
        self.show_encounter(enc)

    def on_forecast_panel_failed(self, event: Failed) -> None:
        self._failed(event.run, event.reason)

    def _failed(self, run: int, reason: str | Text) -> None:
        """No forecast: the reason, or a text that explains itself (see stalemate_text)."""
        if run != self._run:
            return
        self.result = None
        self.query_one("#builder-progress").display = False
        self.query_one("#builder-forecast-body", Static).update(
            reason if isinstance(reason, Text) else Text(f"✗ No forecast: {reason}", "bold")
        )
        self.show_encounter(self.encounter)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """An unexpected failure in the forecast thread is shown, never a crash."""
        if event.worker is self._worker and event.state is WorkerState.ERROR:
            self._failed(self._run, f"the simulation failed: {event.worker.error}")
