"""Suppressive fire (R-ATK-16): tick up to N targets in the cone and who dives for cover.

The dialog renders the engine's plan (:func:`~hsm_tui.campaign.combat.plan_suppress`
through :meth:`SuppressDialog.from_plan`): each candidate's band, cover, reach and odds
are worked out there, the very numbers the ``Suppress`` handler then rolls. The caller
applies the ``Suppress`` command this dialog returns; the engine checks range, charges
and sides, so a refusal still comes back as a notification on the combat screen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static

from ...campaign.combat import Suppress, SuppressPlan, SuppressTarget
from ..widgets.keybar import KeyBar
from .help_text import HelpText


@dataclass(frozen=True)
class Candidate:
    """A standing enemy the shooter could cover with fire: one row of the dialog."""

    id: str
    name: str
    band: str
    cover: str
    in_range: bool
    """The cone may hold it (in range of a set band)."""
    odds: str = ""
    """The plan's forecast for it (``hit 30.0% · Fear 0–7``), shown while not diving."""

    @classmethod
    def of(cls, plan: SuppressPlan, target: SuppressTarget) -> Candidate:
        c = target.combatant
        odds = plan.forecast(target) if target.eligible else ""
        cover = c.cover.label if c.cover else "open"
        return cls(c.id, c.name, target.band_label, cover, target.eligible, odds)


class SuppressDialog(ModalScreen[Suppress | None]):
    """Space ticks a target, ``v`` marks it diving, Enter fires."""

    CSS_PATH = "../styles/combat.tcss"
    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("space", "toggle", "Tick", id="suppress.tick"),
        Binding("v", "dive", "Dive", id="suppress.dive"),
        Binding("enter", "fire", "Fire", id="suppress.fire", priority=True),
        Binding("escape", "dismiss(None)", "Cancel", id="suppress.cancel"),
        Binding(
            "pageup",
            "scroll_plan(-1)",
            "Scroll up",
            show=False,
            id="suppress.page-up",
            priority=True,
        ),
        Binding(
            "pagedown",
            "scroll_plan(1)",
            "Scroll down",
            show=False,
            id="suppress.page-down",
            priority=True,
        ),
        Binding("f1,question_mark", "app.help", "Help", id="suppress.help"),
    ]
    """Enter fires at once, PgUp/PgDn scroll the odds (priority over the list's own keys)."""

    def __init__(
        self,
        shooter: str,
        weapon: str,
        heading: str,
        most: int,
        candidates: Sequence[Candidate],
        ticked: Iterable[str] = (),
        diving: Iterable[str] = (),
        *,
        replan: Callable[[Suppress], SuppressPlan] | None = None,
    ) -> None:
        """``replan``: the engine's plan for the cone as ticked, shown under the list."""
        super().__init__()
        self.replan = replan
        self.shooter = shooter
        self.weapon = weapon
        self.heading = heading
        self.most = most
        """N of the rating: how many targets the cone may hold."""
        self.candidates = tuple(candidates)
        self.ticked: list[str] = [t for t in ticked if t in {c.id for c in self.candidates}]
        """Ticked target ids in the order they were ticked (the first is the cone's start)."""
        self.diving: set[str] = {d for d in diving if d in self.ticked}

    @classmethod
    def from_plan(
        cls, plan: SuppressPlan, replan: Callable[[Suppress], SuppressPlan] | None = None
    ) -> SuppressDialog:
        """The dialog for a plan: its candidates with their odds, its cone ticked and its
        divers marked (plan an empty cone to start with nothing ticked); ``replan`` gives
        the plan of each cone the GM ticks, whose exact odds show under the list.
        """
        n, charges = plan.rating.charges, plan.state.charges
        has = "" if charges is None else f", has {charges}"
        heading = f"{plan.weapon.name} {plan.rating}: up to {n}, needs {n}{has}"
        rows = [Candidate.of(plan, t) for t in plan.candidates]
        ticked = [t.combatant.id for t in plan.cone]
        diving = [t.combatant.id for t in plan.cone if t.dives]
        return cls(plan.shooter.id, plan.weapon.id, heading, n, rows, ticked, diving, replan=replan)

    def compose(self) -> ComposeResult:
        with Vertical(id="suppress-box", classes="dialog-box"):
            yield Label(f"[b]Suppressive fire[/b] — {self.heading}", id="suppress-title")
            yield Static(id="suppress-count", markup=False)
            yield Static(
                Text(f"    {'target':<25}{'band':<10}{'cover':<7}", style="bold underline"),
                id="suppress-header",
            )
            yield OptionList(*(self._prompt(c) for c in self.candidates), id="suppress-targets")
            # not focusable: the keys stay on the list; PgUp/PgDn scroll a long plan
            with VerticalScroll(id="suppress-plan-box", can_focus=False):
                yield Static(id="suppress-plan", markup=False)
        yield KeyBar()

    def action_scroll_plan(self, pages: int) -> None:
        box = self.query_one("#suppress-plan-box", VerticalScroll)
        box.scroll_to(y=box.scroll_y + pages * box.size.height, animate=False)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self._count()

    def _prompt(self, c: Candidate) -> Text:
        tick = "[x]" if c.id in self.ticked else "[ ]"
        dive = "dives" if c.id in self.diving else ""
        reach = "" if c.in_range else "out of range"
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{tick} ", style="bold")
        text.append(f"{c.name[:24]:<25}", style="" if c.in_range else "dim")
        text.append(f"{c.band:<10}{c.cover:<7}", style="dim")
        text.append(dive or reach or c.odds, style="bold" if dive else "dim")
        return text

    def _count(self) -> None:
        diving = f" · {len(self.diving)} diving" if self.diving else ""
        self.query_one("#suppress-count", Static).update(
            f"{len(self.ticked)} of up to {self.most} target(s) ticked{diving}"
        )
        plan = self.query_one("#suppress-plan", Static)
        if self.replan is None or not self.ticked:
            plan.update("")
            return
        _, *lines = self.replan(self._command()).preview()  # the title names the weapon
        plan.update("\n".join([lines[-1], *lines[:-1]]))  # the chance of any hit first

    def _command(self) -> Suppress:
        dive = tuple(c for c in self.ticked if c in self.diving)
        return Suppress(self.shooter, self.weapon, tuple(self.ticked), dive)

    def _redraw(self, index: int) -> None:
        options = self.query_one(OptionList)
        options.replace_option_prompt_at_index(index, self._prompt(self.candidates[index]))
        self._count()

    def _highlighted(self) -> int | None:
        index = self.query_one(OptionList).highlighted
        return index if index is not None and index < len(self.candidates) else None

    def action_toggle(self) -> None:
        index = self._highlighted()
        if index is None:
            return
        cid = self.candidates[index].id
        if cid in self.ticked:
            self.ticked.remove(cid)
            self.diving.discard(cid)
        elif len(self.ticked) >= self.most:
            self.notify(f"The cone holds at most {self.most} target(s)", severity="warning")
            return
        else:
            self.ticked.append(cid)
        self._redraw(index)

    def action_dive(self) -> None:
        index = self._highlighted()
        if index is None:
            return
        cid = self.candidates[index].id
        if cid not in self.ticked:
            self.action_toggle()
            if cid not in self.ticked:
                return
        if cid in self.diving:
            self.diving.discard(cid)
        else:
            self.diving.add(cid)
        self._redraw(index)

    def action_fire(self) -> None:
        if not self.ticked:
            self.notify("Tick at least one target (space)", severity="warning")
            return
        self.dismiss(self._command())
