"""The Severe Wound chart (§7, R-WOUND-5): the pack's rows, the exact odds for one
Hero's roll, and the roll itself.

The chart is data from the packs and the roll is one engine command (``RollChart``);
this screen only shows the odds the §7 modifier gives and which rows the Hero has
already suffered. A 13 (two rows, the erratum) is answered in the decision dialog.
"""

from __future__ import annotations

from fractions import Fraction

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from ...campaign.combat import RollChart, chart_odds
from ...campaign.encounter import Combatant
from ...rules.combat import severe_wound_modifier
from ...rules.odds import percent
from ..widgets.keybar import KeyBar
from ..widgets.stepper import Stepper
from ..widgets.title_bar import TitleBar
from . import SessionScreen
from .help_text import HelpText

OVERFLOWS = [(str(n), n) for n in range(22)]
"""0 to 21 past Health: from 21 on every d10 lands on 22+ (Dead), so more changes nothing."""

NO_HERO = "no Hero yet"


def _fit(text: str, width: int) -> Text:
    """One line of at most ``width`` cells, cut with … (full text is in the panel)."""
    line = Text(text, no_wrap=True, overflow="ellipsis")
    if cell_len(text) > width:
        line.truncate(max(width, 1), overflow="ellipsis")
    return line


class ChartScreen(SessionScreen):
    """The Severe Wound chart with exact odds for a chosen Hero; `r` rolls on it."""

    CSS_PATH = "../styles/chart_log.tcss"
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    """Tall terminals frame the §7 panel; at 24 rows every row of it holds text."""

    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("r", "roll", "Roll chart", id="chart.roll"),
        Binding("h", "next_hero", "Next Hero", id="chart.next_hero"),
        Binding("plus,equals_sign", "overflow(1)", "Overflow +", show=False, id="chart.more"),
        Binding("minus", "overflow(-1)", "Overflow −", show=False, id="chart.less"),
        Binding("u,ctrl+z", "undo", "Undo", id="chart.undo"),
        Binding("y,ctrl+y", "redo", "Redo", show=False, id="chart.redo"),
    ]
    """r rolls for the chosen Hero; h picks the next Hero; +/− change the overflow."""

    def __init__(self) -> None:
        super().__init__()
        self._row_ids: list[str] = []
        self._seen: tuple[str | None, int] = (None, -1)  # (hero, chart length) last drawn
        self._wound: tuple[str, int, int] | None = None  # the wound F5 last opened on

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="chart-body"):
            yield DataTable(id="chart-table", cursor_type="row", zebra_stripes=False)
            with VerticalScroll(id="chart-side"):  # a long pack text scrolls, never cut
                with Horizontal(id="chart-fields"):
                    yield Stepper("Hero", [(NO_HERO, None)], id="chart-hero")
                    yield Stepper("Overflow", OVERFLOWS, 0, id="chart-overflow")
                yield Static(id="chart-result", markup=False)
                yield Static(id="chart-formula", markup=False)
                yield Static(id="chart-detail", markup=False)
                yield Static(id="chart-summary", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        pack = self.session.catalog.chart_pack
        self.show_subtitle(f"Severe Wound chart (pack {pack})" if pack else "Severe Wound chart")
        self.query_one("#chart-side").border_title = "§7 modifier"
        self.follow_session(self.refresh_chart)
        self.refresh_chart()
        self._open_on_wounded()
        self.query_one("#chart-table").focus()

    def on_screen_resume(self) -> None:
        self._sync_heroes()  # before the session's catch-up: the wounded Hero may be new
        self._open_on_wounded()

    def _open_on_wounded(self) -> None:
        """F5 opens on the Hero just wounded; the GM's own pick stays until
        another wound falls.
        """
        wounded = self.session.last_wounded()
        heroes = {c.id: c for c in self.session.chart_heroes()}
        if wounded not in heroes:
            return
        hero = heroes[wounded]
        wound = (hero.id, hero.wounds, len(hero.chart))
        if wound != self._wound:
            self._wound = wound
            self.query_one("#chart-hero", Stepper).value = hero.id

    # -- what is chosen -------------------------------------------------------------
    def hero(self) -> Combatant | None:
        cid = self.query_one("#chart-hero", Stepper).value
        heroes = {c.id: c for c in self.session.chart_heroes()}
        return heroes.get(cid)

    @property
    def overflow(self) -> int:
        return int(self.query_one("#chart-overflow", Stepper).value)

    def modifier(self) -> int:
        hero = self.hero()
        return severe_wound_modifier(self.overflow, hero.severe if hero else 0)

    # -- drawing --------------------------------------------------------------------
    def refresh_chart(self) -> None:
        self._sync_heroes()
        self._draw_table()
        self._draw_panel()

    def _sync_heroes(self) -> None:
        """The Hero field lists the Heroes now (the fight's, then the party's), keeping
        the choice if it stays.
        """
        stepper = self.query_one("#chart-hero", Stepper)
        heroes = self.session.chart_heroes()
        choices = [(c.name, c.id) for c in heroes] or [(NO_HERO, None)]
        if choices != stepper.choices:
            keep = stepper.value
            stepper.choices = choices
            ids = [cid for _, cid in choices]
            stepper.set_reactive(Stepper.index, ids.index(keep) if keep in ids else 0)
            stepper.refresh()

    def _draw_table(self) -> None:
        table = self.query_one("#chart-table", DataTable)
        chart = self.session.catalog.chart
        hero = self.hero()
        suffered = hero.chart if hero else ()
        odds = chart_odds(chart, self.modifier())
        cursor = self._row_ids[table.cursor_row] if self._row_ids else None
        seen = (hero.id if hero else None, len(suffered))
        if seen != self._seen:  # another Hero, or a new result: highlight its newest,
            cursor = suffered[-1] if suffered else None  # never another Hero's row
        self._seen = seen
        table.clear(columns=True)
        table.add_columns(" ", "roll", "chance", "result")
        rows: list[tuple[Text, str, str, Text]] = []
        shown_shared: set[int] = set()
        for o in odds:
            newest = bool(suffered) and o.row.id == suffered[-1]
            mark = "▶" if newest else "✓" if o.row.id in suffered else ""
            chance = percent(o.chance) if o.chance else "—"
            if o.shared and o.chance:  # one total, several rows: its chance counts once
                chance = "〃 same roll" if o.row.min in shown_shared else f"{chance} GM picks"
                shown_shared.add(o.row.min)
            rows.append(
                (
                    Text(mark, "bold"),
                    o.row.span,
                    chance,
                    Text(o.row.name + o.row.mark, "bold reverse" if newest else "bold"),
                )
            )
        labels = (" ", "roll", "chance", "result")
        used = sum(
            max([cell_len(label), *(cell_len(str(r[i])) for r in rows)]) + 2 * table.cell_padding
            for i, label in enumerate(labels)
        )
        width = table.scrollable_content_region.width or table.size.width
        effect_width = max(8, width - used - 2 * table.cell_padding)
        table.add_column("effect", width=effect_width)
        self._row_ids = []
        for o, cells in zip(odds, rows, strict=True):
            table.add_row(*cells, _fit(o.row.text, effect_width), key=o.row.id)
            self._row_ids.append(o.row.id)
        row = self._row_ids.index(cursor) if cursor in self._row_ids else 0
        table.move_cursor(row=row, animate=False)

    def _draw_panel(self) -> None:
        hero = self.hero()
        earlier = hero.severe if hero else 0
        mod = self.modifier()
        formula = (
            f"Next roll: d10 + overflow {self.overflow} + 2 × {earlier} earlier severe"
            f" = d10 + {mod} → {1 + mod} to {10 + mod}"
        )
        if hero is None:
            formula = f"No Hero in the party or the encounter (F8 a adds one). {formula}"
        self.query_one("#chart-formula", Static).update(formula)
        self.query_one("#chart-result", Static).update(self._result(hero))
        self._draw_detail()
        odds = chart_odds(self.session.catalog.chart, mod)
        out = sum((o.chance for o in odds if o.row.unconscious or o.row.dead), Fraction(0))
        dead = sum((o.chance for o in odds if o.row.dead), Fraction(0))
        summary = f"(unconscious) or worse: {percent(out)} · (dead): {percent(dead)}"
        self.query_one("#chart-summary", Static).update(summary)

    def _result(self, hero: Combatant | None) -> str:
        """The chosen Hero's own results, newest first, the Hero named in full: the line a
        GM reads after a roll (the highlighted row below may be any row)."""
        if hero is None:
            return ""
        if not hero.chart:
            return f"{hero.name}: no Severe Wound chart result yet"
        rows = {row.id: row for row in self.session.catalog.chart}
        named = [
            f"{rows[rid].span} {rows[rid].name}{rows[rid].mark}" if rid in rows else rid
            for rid in reversed(hero.chart)
        ]
        earlier = f" · before: {', '.join(named[1:])}" if len(named) > 1 else ""
        return f"▶ {hero.name}: {named[0]}{earlier}"

    def _draw_detail(self) -> None:
        detail = self.query_one("#chart-detail", Static)
        waiting = self.severe_wound_question()
        lines = []
        if waiting is not None:
            lines.append(f"Waiting: {waiting.question} (r answers)")
        table = self.query_one("#chart-table", DataTable)
        chart = {row.id: row for row in self.session.catalog.chart}
        if not chart:
            detail.update("No Severe Wound chart in the loaded packs (F3 → Problems).")
            return
        if self._row_ids:
            row = chart[self._row_ids[table.cursor_row]]
            hero = self.hero()
            suffered = hero.chart if hero else ()
            mark = ""
            if suffered and row.id == suffered[-1]:
                mark = "▶ newest · "
            elif row.id in suffered:
                mark = "✓ suffered before · "
            lines.append(f"{mark}{row.span} {row.name}{row.mark}: {row.text}")
        detail.update("\n".join(lines))

    # -- events and actions ---------------------------------------------------------
    def on_data_table_row_highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self._draw_detail()

    def on_stepper_changed(self, _event: Stepper.Changed) -> None:
        self.refresh_chart()

    def on_resize(self) -> None:
        self.call_after_refresh(self._draw_table)

    def action_next_hero(self) -> None:
        stepper = self.query_one("#chart-hero", Stepper)
        stepper.index = (stepper.index + 1) % len(stepper.choices)

    def action_overflow(self, delta: int) -> None:
        self.query_one("#chart-overflow", Stepper).action_step(delta)

    def action_roll(self) -> None:
        """Roll for the chosen Hero, or answer the grip roll's re-rolls or the 13 still
        waiting."""
        if self.severe_wound_question() is not None:
            self.ask_severe_wound("r")
            return
        hero = self.hero()
        if hero is None:
            self.notify("No Hero to roll for: add one to the party (F8 a)", severity="warning")
            return
        if self._apply(RollChart(hero.id, self.overflow)):
            self.ask_severe_wound("r")
