"""Free-flowing task roller (R-COMBAT-1 free-flowing mode; R-TASK-1..7).

The fields only describe the task being built; the TN and its exact odds are computed
by the rules engine on every change, and rolling is one command to the session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.widgets import Static

from ...campaign.combat import CombatCommand, PendingSidekick
from ...campaign.encounter import Encounter
from ...campaign.freeflow import MAX_GROUP, AskRoll, PendingRerolls, affliction_line, group_ask
from ...campaign.party import Roller, rollers
from ...rules import Modifier, Rank, RulesError, TargetNumber, Trait, task_odds, task_tn
from ...rules.contests import Need, group_odds
from ...rules.odds import percent
from ...rules.tasks import difficulty_label
from ...table.seat_choices import same_roller
from ...table.session import Command, RollGroup, RollOpposed, RollTask, SpendRerolls
from ..widgets.keybar import KeyBar
from ..widgets.roll_log import RollLog
from ..widgets.stepper import Stepper, focus_arrows
from ..widgets.title_bar import TitleBar
from . import SessionScreen, set_border_titles
from .decision_dialog import DecisionDialog
from .help_text import HelpText
from .reroll_dialog import RerollDialog

DOUBLE = None
RANKS = [("Hero", Rank.HERO), ("Minion", Rank.MINION)]
"""The Rank field's choices for "anyone" (a named roller brings its own, R-CHAR-1)."""
TRAIT_CHOICES = [(t.value.title(), t) for t in Trait]
SCORE_OF = {"trait1": "score1", "trait2": "score2"}
"""Each trait field's score field."""
SCORES = [(str(n), n) for n in range(1, 5)]
CHOICE_WIDTH = 14
"""Columns a field's choice has in the 34-column form (label and arrows take the rest)."""
ANY_TALENT = [("no", ""), ("yes", "relevant")]
"""Talent for "anyone": there is no sheet to name one from."""

Skill = tuple[str, int] | None
"""The Skill field's value: the skill's name and number as the TN names them, or none."""


def _numbers(low: int, high: int, signed: bool = True) -> list[tuple[str, int]]:
    return [(f"{n:+d}" if n and signed else str(n), n) for n in range(low, high + 1)]


def _fit(text: str, width: int = CHOICE_WIDTH) -> str:
    """``text`` cut to ``width`` columns with an ellipsis: a long name must not push the
    field's ▸ out of the form (the TN breakdown names it in full).
    """
    return text if len(text) <= width else text[: width - 1] + "…"


def skill_choices(roller: Roller | None) -> list[tuple[str, Skill]]:
    """R-CHAR-6: the roller's own skills by name, then bare numbers for a skill its sheet
    does not list ("anyone", or a roller without skills, gets the numbers alone).
    """
    named = [
        (_fit(name.title(), CHOICE_WIDTH - len(f" {n}")) + f" {n}", (name.title(), n))
        for name, n in (roller.skills if roller else ())
    ]
    bare: list[tuple[str, Skill]] = [
        (f"{n} (unlisted)" if named else str(n), ("skill", n)) for n in range(1, 7)
    ]
    return [("none" if named else "0", None), *named, *bare]


def talent_choices(roller: Roller | None, rank: Rank) -> list[tuple[str, str]]:
    """R-CHAR-5: a Hero's own Talents by name (no/yes for "anyone"). Talents are a Hero's
    (a Sidekick has them when it plays by Hero rules, R-CHAR-8); a Minion has none.
    """
    if rank is Rank.MINION:
        return [("— Heroes only", "")]
    if roller is None:
        return ANY_TALENT
    return [("none", ""), *((_fit(name), name) for name in roller.talents)]


def odds_table(tn: int, rank: Rank, rerolls: int) -> list[str]:
    """Rows of exact odds without and with the available re-rolls (R-TASK-7)."""
    hero = rank is Rank.HERO
    rows = [f"{'':<12}{'Success':>8}" + (f"{'★ Fort.':>9}{'✗ Misf.':>9}" if hero else "")]
    exact = []
    for k in sorted({0, rerolls}):
        odds = task_odds(tn, rank, k)
        label = "no re-roll" if k == 0 else f"{k} re-roll{'s' if k > 1 else ''}"
        specials = f"{percent(odds.fortune):>9}{percent(odds.misfortune):>9}" if hero else ""
        rows.append(f"{label:<12}{percent(odds.success):>8}{specials}")
        exact.append(str(odds.success))
    rows.append(f"exact success: {' · '.join(exact)}")
    return rows


class TaskRollerScreen(SessionScreen):
    """Build a task, watch the exact odds, roll, spend re-rolls, read the log."""

    CSS_PATH = "../styles/tasks.tcss"

    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("r,enter", "roll", "Roll", id="task.roll"),
        Binding("e", "reroll", "Re-roll", id="task.reroll"),
        Binding("k", "keep", "Keep roll", show=False, id="task.keep"),
        Binding("o", "opposed", "Opposed", id="task.opposed"),
        Binding("g", "group_add", "Add to group", id="task.group-add"),
        Binding("G", "group_roll", "Roll group", show=False, id="task.group-roll"),
        Binding("n", "need", "Group needs", show=False, id="task.need"),
        Binding("escape", "drop_held", "Drop held", show=False, id="task.drop"),
        Binding("h", "secret", "Hidden roll", show=False, id="task.hidden"),
        Binding("p", "ask", "Ask player", id="task.ask"),
        Binding("P", "ask_group", "Ask every Hero", show=False, id="task.ask-group"),
        Binding("u,ctrl+z", "undo", "Undo", id="task.undo"),
        Binding("y,ctrl+y", "redo", "Redo", id="task.redo"),
        *focus_arrows(),
        Binding("pageup", "scroll_odds(-1)", "Scroll odds up", show=False, id="task.odds-up"),
        Binding("pagedown", "scroll_odds(1)", "Scroll odds down", show=False, id="task.odds-down"),
    ]
    """Single keys for the whole flow: roll, re-roll, undo, redo; PgUp/PgDn scroll the odds."""

    def __init__(self) -> None:
        super().__init__()
        self._rollers: tuple[Roller, ...] = ()
        self._seen = Encounter(zones=(), combatants=())
        """The encounter Who was last picked in (whose Hero may since have left it)."""
        self._opposed: RollTask | None = None
        self._group: list[RollTask] = []
        self._need = Need.ANY
        self.secret = False
        """The next rolls are the GM's secret (h): their entries are GM-only."""

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="task-top"):
            with Vertical(id="task-form"):
                yield Stepper("Who", [("anyone", "")], "", id="who")
                yield Stepper("Rank", RANKS, id="rank")
                yield Stepper("Trait 1", TRAIT_CHOICES, Trait.AGILITY, id="trait1")
                yield Stepper("  score", SCORES, 2, id="score1")
                yield Stepper(
                    "Trait 2", [*TRAIT_CHOICES, ("(double 1)", DOUBLE)], Trait.SENSES, id="trait2"
                )
                yield Stepper("  score", SCORES, 2, id="score2")
                yield Stepper("Skill", skill_choices(None), id="skill")
                yield Stepper("Talent", ANY_TALENT, id="talent")
                yield Stepper(
                    "Difficulty",
                    [(difficulty_label(n) if n else "none", n) for n in range(6)],
                    0,
                    id="difficulty",
                )
                yield Stepper("Wounds", _numbers(-2, 0), 0, id="wounds")
                yield Stepper("Other mods", _numbers(-6, 3), 0, id="mods")
                yield Stepper("Re-rolls", _numbers(0, 6, signed=False), 0, id="rerolls")
            # Not focusable: ↑ ↓ keep moving between fields; the scrollbar shows any overflow.
            with VerticalScroll(id="task-odds-box", can_focus=False):
                yield Static(id="task-odds")
        yield Static(id="task-status")
        yield RollLog(id="task-log", focusable=False)  # ↑ ↓ stay on the fields (F6 reads the log)
        yield KeyBar()

    def on_mount(self) -> None:
        set_border_titles(
            self,
            {
                "#task-form": "Task",
                "#task-odds-box": "Target number & exact odds",
                "#task-log": "Log",
            },
        )
        self.follow_session(self.refresh_from_session)
        self.refresh_from_session()
        self.query_one("#who", Stepper).focus()  # the first field a GM picks

    def _field(self, name: str) -> Any:
        return self.query_one(f"#{name}", Stepper).value

    def build_tn(self) -> TargetNumber:
        """The TN the fields describe (R-TASK-1); wounds apply once per roll (R-WOUND-3)."""
        first = (self._field("trait1").value.title(), self._field("score1"))
        traits = [first]
        if self._field("trait2") is not DOUBLE:
            traits.append((self._field("trait2").value.title(), self._field("score2")))
        roller = self.roller  # what it brings: conditions, extra actions, lasting rows
        return task_tn(
            traits,
            skill=self._field("skill"),
            talent=self._field("talent") or None,
            difficulties=[self._field("difficulty")],
            modifiers=[
                Modifier("wound", self._field("wounds")),
                *(roller.modifiers(self._traits()) if roller else ()),
                Modifier("modifiers", self._field("mods")),
            ],
        )

    def _traits(self) -> list[Trait]:
        return [t for t in (self._field("trait1"), self._field("trait2")) if t is not DOUBLE]

    @property
    def roller(self) -> Roller | None:
        who = self._field("who")
        return next((r for r in self._rollers if r.who == who), None) if who else None

    @property
    def talent_reroll(self) -> int:
        """R-CHAR-5: a relevant Talent's one free re-roll (a Minion's field is shut: none)."""
        return int(bool(self._field("talent")))

    @property
    def free_rerolls(self) -> int:
        """R-TASK-6: the Talent's re-roll (R-CHAR-5) and the other free ones (Re-rolls)."""
        return self.talent_reroll + self._field("rerolls")

    def task(self, label: str = "Task", free: bool = True) -> RollTask:
        """The task the fields describe, as the command that rolls it."""
        roller = self.roller
        return RollTask(
            self.build_tn(),
            self._field("rank"),
            label=label,
            rerolls=self.free_rerolls if free else 0,
            who=roller.who if roller and free else "",
            hidden=self.secret,
        )

    def on_stepper_changed(self, event: Stepper.Changed) -> None:
        field, roller = event.stepper.id, self.roller
        if field == "who":  # the last roller's skill and Talent are not this one's
            self.query_one("#skill", Stepper).set_choices(skill_choices(roller))
            self._show_rank(roller)
            if roller is not None:
                self._fill_from(roller)
        elif roller is not None and field in SCORE_OF:  # rank and wounds stay as they are
            self._fill_score(roller, field)
        if field in ("who", "rank"):  # after the fill: the roller's rank decides
            self._offer_talents(roller, keep=field == "rank")
        self.refresh_odds()

    def _show_rank(self, roller: Roller | None) -> None:
        """R-CHAR-1: a named roller's rank is its own, so the field shows it locked (one →
        turned a Hero into a Minion and its Hero die vanished). Free for anyone, and for a
        Sidekick whose rules are not picked yet: its roll asks first (R-CHAR-8).
        """
        field = self.query_one("#rank", Stepper)
        own = roller.rank if roller else None
        if own is None:
            field.set_choices(RANKS, field.value)
        else:
            field.set_choices([(f"{own.value.title()} (own)", own)], own)
        field.disabled = own is not None

    def _offer_talents(self, roller: Roller | None, keep: bool) -> None:
        """The Talents the rank allows (R-CHAR-5); for a Minion the field is shut, so no
        +1 and no free re-roll can slip into its task.
        """
        rank = self._field("rank")
        talent = self.query_one("#talent", Stepper)
        talent.set_choices(talent_choices(roller, rank), talent.value if keep else "")
        talent.disabled = rank is Rank.MINION

    def _fill_from(self, roller: Roller) -> None:
        """The roller's trait scores and wound marker (R-WOUND-3) fill the fields."""
        for trait in SCORE_OF:
            self._fill_score(roller, trait)
        self.query_one("#wounds", Stepper).value = roller.wound_penalty

    def _fill_score(self, roller: Roller, trait: str) -> None:
        """The roller's score in the trait the ``trait`` field names (a doubled first
        trait keeps the first score).
        """
        chosen = self._field(trait)
        if chosen is not DOUBLE:
            score = min(4, max(1, roller.traits[chosen]))
            self.query_one(f"#{SCORE_OF[trait]}", Stepper).value = score

    def action_scroll_odds(self, pages: int) -> None:
        """The odds panel is not focusable (↑ ↓ move between fields), so a roller's long
        Advantages scroll into view from the keyboard at 80×24.
        """
        box = self.query_one("#task-odds-box", VerticalScroll)
        (box.scroll_page_down if pages > 0 else box.scroll_page_up)(animate=False)

    def refresh_odds(self) -> None:
        tn = self.build_tn()
        rank = self._field("rank")
        roller = self.roller
        paid = (roller.luck + roller.clues) if roller else 0
        rerolls = self.free_rerolls + paid
        lines = [
            f"[b]TN {tn.value}[/b]  {escape(tn.explain())}",  # pack names may hold [ ]
            "",
            *odds_table(tn.value, rank, rerolls),
        ]
        if roller is not None and (sick := affliction_line(roller, tn.value, rank, rerolls)):
            lines.append(sick)  # §8 Nauseated, Fatigued: the roll's own odds
        sources = (("Talent", self.talent_reroll), ("Re-rolls", self._field("rerolls")))
        if free := [f"{what} {n}" for what, n in sources if n]:
            lines.append(f"free re-rolls: {' + '.join(free)}")
        if roller is not None:
            skills = " · ".join(f"{n.title()} {v}" for n, v in roller.skills) or "none"
            advantages = " · ".join(roller.advantages) or "none"
            lines.append(f"{escape(roller.name)}: Luck {roller.luck} · Clues {roller.clues}")
            if roller.rank is None:
                lines.append("Rank: asked at its first roll (R-CHAR-8)")
            lines += [
                f"skills: {skills}",
                f"advantages: {escape(advantages)}",  # R-CHAR-6: what may grant a re-roll
            ]
        self.query_one("#task-odds", Static).update("\n".join(lines))
        self._refresh_status()

    def _refresh_status(self) -> None:
        """The held sides and a roll waiting for re-rolls, one line each under the odds:
        they are what the next key acts on, so they are never pushed out of sight.
        """
        lines = self._held_lines()
        if self.secret:
            lines.append("[b]Hidden roll[/b]: only the GM sees it (h rolls openly again)")
        for ask in self.session.asked:  # waiting for a player: the GM sees who holds one
            name = escape(self.session.pools(ask.task.who)[0])
            lines.append(f"[b]Asked[/b]: {name} rolls {escape(ask.task.label)} (u takes it back)")
        pending = self.session.pending
        if isinstance(pending, PendingRerolls):
            d10, hero = pending.suggested
            best = f"best {d10} d10 + {hero} Hero die" if d10 or hero else "none would help"
            lines.append(f"[b]Re-rolls waiting[/b]: {pending.available} · e spends them ({best})")
        status = self.query_one("#task-status", Static)
        status.update("\n".join(lines))
        status.display = bool(lines)

    def choose_who(self, who: str) -> None:
        """``who`` rolls next, its scores filled in (a Task action in combat)."""
        if any(r.who == who for r in self._rollers):
            self.query_one("#who", Stepper).value = who

    def refresh_from_session(self) -> None:
        session = self.session
        self._rollers = rollers(session.campaign, session.encounter, session.catalog)
        who = self.query_one("#who", Stepper)
        value = same_roller(who.value, self._seen, session.encounter, self._rollers)
        self._seen = session.encounter
        who.set_choices([("anyone", ""), *((r.name, r.who) for r in self._rollers)], value)
        roller = self.roller  # its rank may have changed: a Sidekick's rules picked (R-CHAR-8)
        self._show_rank(roller)
        self._offer_talents(roller, keep=True)
        self.query_one(RollLog).show(session.log)
        self.refresh_odds()

    def action_secret(self) -> None:
        """Roll in secret (or openly again): a shared session's players see nothing of it."""
        self.secret = not self.secret
        self._refresh_status()

    def action_roll(self) -> None:
        if not self._rules_asked(self.action_roll):
            self._apply(self.task())

    def action_ask(self) -> None:
        """Ask the roller's player to roll this task on their own screen (with ``h``, the
        difficulty, so the TN and the odds, stay the GM's)."""
        if self.roller is None:
            self.notify("Pick who rolls (Who): the roll is asked of that hero's player")
            return
        label = " + ".join(t.value.title() for t in self._traits())
        task = replace(self.task(label), hidden=False)
        self._apply(AskRoll((task,), tn_hidden=self.secret))

    def action_ask_group(self) -> None:
        """A group roll asked of every Hero (everyone rolls Senses): each rolls the traits
        and difficulty set here with their own scores, and their own rating in the skill."""
        skill, difficulty = self._field("skill"), self._field("difficulty")
        try:
            ask = group_ask(self._rollers, self._traits(), skill, difficulty)
        except RulesError as err:
            self.notify(str(err))
            return
        self._apply(replace(ask, tn_hidden=self.secret))

    def _rules_asked(self, then: Callable[[], None]) -> bool:
        """R-CHAR-8: the first time mechanics touch a Sidekick the GM picks Hero or Minion
        rules for the encounter, and a roll here is such a time. True while the question is
        open: its answer is applied, then ``then`` (the key's action) runs again.
        """
        roller = self.roller
        if roller is None or roller.rank is not None:
            return False
        question = f"Does {roller.name} play as a Hero or a Minion this encounter?"

        def answered(command: CombatCommand | None) -> None:
            if self.apply_answer(command):
                then()

        options = PendingSidekick(roller.who, question).options
        dialog = DecisionDialog("Sidekick rules (R-CHAR-8)", question, options)
        self.app.push_screen(dialog, answered)
        return True

    def action_undo(self) -> None:
        self._history(partial(self._held_after, self.table.undo, undone=True), "Undone")

    def action_redo(self) -> None:
        self._history(partial(self._held_after, self.table.redo, undone=False), "Redone")

    def _held_after(self, step: Callable[[], Command], undone: bool) -> Command:
        """Undo or redo ``step``, and the held tasks with it: they are this screen's draft,
        not the session's, so undoing an opposed or group roll holds its tasks again as
        they were before it, and redoing it uses them up again.
        """
        command = step()
        if isinstance(command, RollOpposed):
            if undone or self._opposed == command.first:
                self._opposed = command.first if undone else None
        elif isinstance(command, RollGroup):
            tasks = list(command.tasks)
            if undone:
                self._group, self._need = tasks, Need(command.need)
            elif self._group == tasks:
                self._group = []
        self._refresh_status()
        return command

    # -- opposed and group tasks (held tasks are the GM's draft, not game state) ------
    def _held_lines(self) -> list[str]:
        lines = []
        if self._opposed is not None:
            held = f"{escape(self._opposed.label)} (TN {self._opposed.tn.value})"
            lines.append(f"[b]Opposed[/b]: {held} waits · o rolls this task against it")
        if self._group:
            odds = group_odds([(t.tn.value, t.rank) for t in self._group], self._need)
            lines.append(
                f"[b]Group[/b] of {len(self._group)} needs {self._need.value}:"
                f" odds {percent(odds)} · G rolls · n changes the need"
            )
            lines.append(
                "  " + " · ".join(f"{escape(t.label)} TN {t.tn.value}" for t in self._group)
            )
        return lines

    def _side_name(self, fallback: str) -> str:
        roller = self.roller
        return roller.name if roller else fallback

    def action_opposed(self) -> None:
        if self._rules_asked(self.action_opposed):
            return
        if self._opposed is None:
            self._opposed = self.task(self._side_name("Side A"), free=False)
            self.notify("Side A held: set up side B, then o rolls the opposed task")
        else:  # a refused roll (a question waits) keeps side A held, lost to nobody
            side_b = self.task(self._side_name("Side B"), free=False)
            if self._apply(RollOpposed(self._opposed, side_b)):
                self._opposed = None
        self.refresh_odds()

    def action_group_add(self) -> None:
        if len(self._group) >= MAX_GROUP:
            self.notify(f"A group task has at most {MAX_GROUP} rollers", severity="warning")
            return
        if self._rules_asked(self.action_group_add):
            return
        name = self._side_name(f"Roller {len(self._group) + 1}")
        self._group.append(self.task(name, free=False))
        self.refresh_odds()

    def action_group_roll(self) -> None:
        if not self._group:
            self.notify("Add rollers with g first", severity="warning")
            return
        if self._apply(RollGroup(tuple(self._group), need=self._need.value)):
            self._group = []  # a refused roll keeps the rollers for when it may go
        self.refresh_odds()

    def action_need(self) -> None:
        needs = list(Need)
        self._need = needs[(needs.index(self._need) + 1) % len(needs)]
        self.refresh_odds()

    def action_drop_held(self) -> None:
        self._opposed, self._group = None, []
        self.refresh_odds()

    def action_keep(self) -> None:
        """Keep the roll as it fell: the waiting re-roll question ends, nothing is spent."""
        pending = self.session.pending
        if isinstance(pending, PendingRerolls):
            self._apply(SpendRerolls(0, 0), pending)
        else:
            self.notify("No roll is waiting for re-rolls: k keeps one that is")

    def action_reroll(self) -> None:
        pending = self.session.pending
        if not isinstance(pending, PendingRerolls):
            self.notify(
                "No roll is waiting for re-rolls (set Talent or Re-rolls, or pick a Hero"
                " with Luck or Clues, then roll)"
            )
            return

        def answer(split: tuple[int, int] | None) -> None:
            if split is not None:
                self._apply(SpendRerolls(*split), pending)

        _, luck, clues = self.session.pools(pending.who)
        self.app.push_screen(RerollDialog(pending, purse=(pending.free, luck, clues)), answer)
