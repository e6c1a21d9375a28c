"""The combat screen (R-COMBAT-1 combat mode): what a GM looks at during a fight.

Thin by design: it reads ``session.encounter``, turns each key into one command for
``session.apply`` and re-renders when the session notifies. The only state it keeps is
what the GM is pointing at — the selected combatant and the attack being aimed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from ...campaign.combat import (
    Attack,
    CombatCommand,
    DeclareActions,
    EndCombat,
    EndTurn,
    Move,
    Option,
    SetCover,
    StartCombat,
    TakeAction,
    plan_attack,
)
from ...campaign.encounter import Combatant, Encounter
from ...packs.loader import SHIPPED
from ...rules import Cover, RangeBand, RulesError
from ...session import Batch, Command, PendingRerolls, Session, SpendRerolls
from ...simulate import encounter_commands, read_encounter
from ..commands import ScreenActions
from ..widgets.combatants import CombatantTable
from ..widgets.initiative import InitiativeList, group_name
from ..widgets.range_board import RangeBoard
from ..widgets.roll_log import RollLog
from . import UndoRedo, set_border_titles
from .decision_dialog import DecisionDialog
from .reroll_dialog import RerollDialog

EXAMPLE = SHIPPED / "encounters" / "dig-site-ambush.toml"
"""The shipped encounter ``L`` loads (the one ``hsm simulate`` documents)."""

TITLES = {
    "PendingDive": "Dive for cover? (R-ATK-5)",
    "PendingChartChoice": "Severe Wound chart (§7)",
    "PendingSidekick": "Sidekick rules (R-CHAR-8)",
    "PendingCombatRerolls": "Re-rolls (R-TASK-6, R-CHAR-9)",
}
"""Dialog titles by kind of decision; any other kind is simply a "Decision"."""

LOG_TAIL = 60
"""Newest log entries kept on this screen (the whole log has its own screen)."""

FAR = len(RangeBand)  # sorts zones without a band after every real band


@dataclass(frozen=True)
class AttackDraft:
    """The attack being aimed in the panel: nothing is rolled until Enter."""

    attacker: str
    target: str
    weapon: str

    def command(self) -> Attack:
        return Attack(self.attacker, self.target, self.weapon)


class CombatScreen(UndoRedo, Screen[None]):
    """Initiative, combatants, range board, attack panel with exact odds, and the log."""

    CSS_PATH = "../styles/combat.tcss"
    COMMANDS = {ScreenActions}
    PALETTE_PREFIX = "Combat"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    """Below 100 columns the range board hides; below 30 rows the header does."""

    HELP = """\
## Combat
Select a combatant with ↑ ↓ (it starts on whoever acts), then act for it.

| key | does |
| --- | --- |
| ↑ ↓ | select a combatant |
| a | aim an attack: nearest enemy, first weapon, exact odds |
| ← → / t · w | next target · next weapon |
| Enter | roll the attack (or reopen a waiting decision) · Esc cancels |
| g | group attack: every member still able attacks the target |
| m · M / r | Move (half a band) · Move+Run (one band): pick the zone |
| d · i · f | Dodge · Aim · Full defense (Heroes, 2 actions) |
| l · p | Reload the first reloadable weapon (2 actions) · stand up |
| x | declare 3 actions (Heroes, at turn start: all at −1) |
| c | cycle the selected combatant's cover |
| s · n · E | start combat · end the turn · end combat |
| o | answer the waiting decision |
| u / y | undo / redo (dice included) |
| L | load the example encounter (dig-site ambush) |
| ctrl+p | every action by name |

**Table**: ▸ selected · ◎ target · • acts this turn. Wnd −1/−2, sev (severely
wounded), OUT (Minion taken out), unc; s−n non-lethal. F/M: Fear/Morale, `!` when
Fear ≥ Morale (R-FEAR-1). Initiative: ● action left, ○ used or lost.

### Actions (R-ACT-1..6)
Two per turn, never the same twice: Move (half a band), Run (with Move: one band),
Attack, Task, Interact, Aim (a free re-roll later this turn), Dodge (re-roll Defense),
Standby. Heroes may declare more (each −1 per action beyond 2). Reload: 2 actions.
Standing up from Prone: 1.

### Fighting styles (R-ATK-1)
**Wild**: Agility + 1 attacks; no Dodge, Aim, Standby, Interact that turn ·
**Power**: 1 attack, a hit adds the Strength die · **Agile**: Agility attacks.

### Cover (R-ATK-5/6/8)
Light 1 · medium 2 · heavy 3, added to Dodge for Defense; a Defense die **above**
Dodge + cover lets the hit through. Hit by ranged fire: dive to better cover (Prone,
−1 action next turn). In cover with Fear > Morale: Pinned.

### Conditions (§8)
Shaken: −1 action, −1 on tasks · Panicked: only Move, Run, Hide · Pinned: Morale roll
to expose itself · Prone: an action to stand.
"""

    BINDINGS = [
        Binding("a", "attack", "Attack", id="combat.attack", tooltip="Aim an attack"),
        Binding("enter", "confirm", "Roll", id="combat.confirm", tooltip="Roll / decide"),
        Binding("g", "group", "Group", id="combat.group", tooltip="Whole group attacks"),
        Binding("m", "move(False)", "Move", id="combat.move", tooltip="Move to a zone"),
        Binding("n", "end_turn", "End turn", id="combat.end-turn", tooltip="Next actor"),
        Binding("u", "undo", "Undo", id="combat.undo", tooltip="Undo the last command"),
        Binding("up", "select(-1)", "Previous", show=False, id="combat.up"),
        Binding("down", "select(1)", "Next", show=False, id="combat.down"),
        Binding("left", "target(-1)", "Previous target", show=False, id="combat.left"),
        Binding("right,t", "target(1)", "Next target", show=False, id="combat.right"),
        Binding("w", "weapon", "Next weapon", show=False, id="combat.weapon"),
        Binding("escape", "cancel", "Cancel attack", show=False, id="combat.cancel"),
        Binding("M,r", "move(True)", "Move+Run", show=False, id="combat.run"),
        Binding("d", "act('dodge')", "Dodge", show=False, id="combat.dodge"),
        Binding("i", "act('aim')", "Aim", show=False, id="combat.aim"),
        Binding("f", "act('full-defense')", "Full defense", show=False, id="combat.full"),
        Binding("l", "reload", "Reload", show=False, id="combat.reload"),
        Binding("p", "act('stand')", "Stand up", show=False, id="combat.stand"),
        Binding("x", "declare", "Declare 3 actions", show=False, id="combat.declare"),
        Binding("c", "cover", "Cycle cover", show=False, id="combat.cover"),
        Binding("s", "start", "Start combat", show=False, id="combat.start"),
        Binding("E", "end_combat", "End combat", show=False, id="combat.end"),
        Binding("o", "decide", "Answer decision", show=False, id="combat.decide"),
        Binding("y", "redo", "Redo", show=False, id="combat.redo"),
        Binding("L", "load", "Load example encounter", show=False, id="combat.load"),
    ]
    """One key per action; the footer shows the turn's usual path, the palette all."""

    def __init__(self) -> None:
        super().__init__()
        self.selected: str | None = None
        """The combatant the GM points at: the actor of most keys."""
        self.draft: AttackDraft | None = None
        """The attack shown in the panel, or None when not aiming."""
        self._turn_seen: tuple[int, int] | None = None
        self._asking = False

    @property
    def session(self) -> Session:
        return self.app.session  # type: ignore[attr-defined]

    @property
    def enc(self) -> Encounter:
        return self.session.encounter

    # -- layout ---------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="combat-top"):
            with Vertical(id="combat-left"):
                yield InitiativeList(id="combat-initiative")
                yield RangeBoard(id="combat-range")
            yield CombatantTable(id="combat-table")
        with Horizontal(id="combat-bottom"):
            yield Static(id="combat-attack")
            yield RollLog(id="combat-log", wrap=True, markup=False, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        set_border_titles(
            self,
            {
                "#combat-initiative": "Initiative",
                "#combat-table": "Combatants",
                "#combat-range": "Range board",
                "#combat-attack": "Attack",
                "#combat-log": "Log",
            },
        )
        self.query_one(RollLog).can_focus = False
        self._unsubscribe = self.session.subscribe(lambda _s: self.refresh_from_session())
        self.refresh_from_session()

    def on_unmount(self) -> None:
        self._unsubscribe()

    def on_resize(self, _event: Resize) -> None:
        self.refresh_from_session()

    @property
    def compact(self) -> bool:
        return self.size.width < 100

    # -- rendering ------------------------------------------------------------
    def refresh_from_session(self) -> None:
        enc = self.enc
        self._sync_selection(enc)
        acting = frozenset(c.id for c in enc.members(enc.turn.actor)) if enc.turn else frozenset()
        target = self.draft.target if self.draft else None
        initiative = self.query_one(InitiativeList)
        initiative.show(enc, self.compact)
        initiative.border_title = f"Round {enc.round}" if enc.active else "Initiative"
        self.query_one(CombatantTable).show(enc, self.selected, target, acting, self.compact)
        chosen = self._selected()
        self.query_one(RangeBoard).show(enc, chosen.zone if chosen else None)
        self._show_panel(enc)
        self.query_one(RollLog).show(self.session.log[-LOG_TAIL:])
        if enc.turn is not None:
            self.sub_title = f"Round {enc.round} · {group_name(enc, enc.turn.actor)}'s turn"
        else:
            self.sub_title = "Combat: not started" if enc.combatants else "Combat: no encounter"

    def _sync_selection(self, enc: Encounter) -> None:
        """On a new turn select the actor; keep the draft only while it still makes sense."""
        ids = {c.id for c in enc.combatants}
        turn = (enc.round, enc.turn_index) if enc.active else None
        if turn != self._turn_seen or self.selected not in ids:
            self._turn_seen = turn
            self.selected = self._default_selection(enc)
        if self.draft is not None:
            attacker = enc.get(self.draft.attacker) if self.draft.attacker in ids else None
            if attacker is None or not attacker.standing or attacker.id != self.selected:
                self.draft = None
            elif not enc.get(self.draft.target).standing:
                targets = self._targets(attacker)
                self.draft = replace(self.draft, target=targets[0].id) if targets else None

    def _default_selection(self, enc: Encounter) -> str | None:
        if enc.turn is not None:
            members = enc.members(enc.turn.actor)
            if members:
                return members[0].id
        standing = [c for c in enc.combatants if c.standing] or list(enc.combatants)
        return standing[0].id if standing else None

    def _selected(self) -> Combatant | None:
        ids = {c.id for c in self.enc.combatants}
        return self.enc.get(self.selected) if self.selected in ids else None

    def _show_panel(self, enc: Encounter) -> None:
        panel = self.query_one("#combat-attack", Static)
        lines: list[str | Text] = []
        pending = self.session.pending
        if pending is not None:
            lines.append(Text(f"⚠ Waiting: {pending.question}", style="bold"))
            lines.append(Text("Enter or o answers", style="dim"))
        if self.draft is not None:
            panel.border_title = "Attack — Enter rolls · Esc cancels"
            panel.border_subtitle = "←→ target · w weapon · g group"
            try:
                plan = plan_attack(enc, self.draft.command(), self.session.catalog)
            except RulesError as err:
                lines.append(Text(f"✗ cannot attack: {err}", style="bold"))
            else:
                head, *rest = plan.preview(enc)
                lines.append(Text(head, style="bold"))
                lines += rest
        else:
            panel.border_title = "Attack"
            panel.border_subtitle = ""
            lines += self._summary(enc)
        panel.update(Text("\n").join(Text(x) if isinstance(x, str) else x for x in lines))

    def _summary(self, enc: Encounter) -> list[str | Text]:
        """What the selected combatant carries and can do, before aiming."""
        if not enc.combatants:
            return [
                Text("No encounter yet.", style="bold"),
                "L loads the example (dig-site ambush),",
                "then s starts combat (rolls initiative).",
            ]
        chosen = self._selected()
        if chosen is None:
            return []
        catalog = self.session.catalog
        lines: list[str | Text] = [Text(chosen.name, style="bold")]
        for state in chosen.weapons:
            weapon = catalog.weapons.get(state.id)
            name = weapon.name if weapon else state.id
            charges = "" if state.charges is None else f" {state.charges}/{state.power}"
            lines.append(f"  {name}{charges}")
        if enc.turn is not None and chosen.group == enc.turn.actor:
            left = enc.turn.left(chosen.id)
            used = ", ".join(enc.turn.used_by(chosen.id)) or "nothing yet"
            lines.append(f"{left} action(s) left · used: {used}")
        elif enc.active:
            lines.append(Text("not its turn (n ends the turn)", style="dim"))
        else:
            lines.append(Text("s starts combat", style="dim"))
        return lines

    # -- commands ---------------------------------------------------------------
    def _apply(self, command: Command) -> bool:
        """One command to the session; a refusal is a notification, never a crash."""
        try:
            self.session.apply(command)
        except RulesError as err:
            self.notify(str(err), title="Refused", severity="error")
            return False
        self._ask_pending()
        return True

    def _ask_pending(self) -> None:
        """Open the decision dialog for whatever the session now waits on."""
        pending = self.session.pending
        if pending is None or self._asking or self.app.screen is not self:
            return
        self._asking = True
        if isinstance(pending, PendingRerolls):

            def spend(split: tuple[int, int] | None) -> None:
                self._asking = False
                if split is not None:
                    self._apply(SpendRerolls(*split))

            self.app.push_screen(RerollDialog(pending), spend)
            return

        def answer(command: CombatCommand | None) -> None:
            self._asking = False
            if command is None:
                self.notify("The decision is still waiting: Enter or o answers it")
                return
            self._apply(command)  # the engine goes on by itself (e.g. starts combat, R-CHAR-8)

        title = TITLES.get(type(pending).__name__, "Decision")
        self.app.push_screen(DecisionDialog(title, pending.question, pending.options), answer)

    def _acting(self, what: str) -> Combatant | None:
        chosen = self._selected()
        if chosen is None:
            self.notify(f"Select a combatant to {what} (↑ ↓)", severity="warning")
        return chosen

    # -- selection and aiming -----------------------------------------------------
    def action_select(self, delta: int) -> None:
        ids = [c.id for c in self.enc.combatants]
        if not ids:
            return
        index = ids.index(self.selected) if self.selected in ids else 0
        self.selected = ids[(index + delta) % len(ids)]
        self.draft = None
        self.refresh_from_session()

    def _targets(self, attacker: Combatant) -> list[Combatant]:
        """Standing enemies, nearest band first (R-COMBAT-2), its own zone first, then
        table order."""
        enc = self.enc

        def distance(c: Combatant) -> tuple[int, bool]:
            try:
                band = int(enc.band(attacker.id, c.id))
            except RulesError:
                band = FAR
            return band, c.zone != attacker.zone

        enemies = [c for c in enc.combatants if c.side != attacker.side and c.standing]
        return sorted(enemies, key=distance)

    def action_attack(self) -> None:
        attacker = self._acting("attack with")
        if attacker is None:
            return
        if not attacker.weapons:
            self.notify(f"{attacker.name} carries no weapon", severity="warning")
            return
        targets = self._targets(attacker)
        if not targets:
            self.notify(f"{attacker.name} has no standing enemy to attack", severity="warning")
            return
        self.draft = AttackDraft(attacker.id, targets[0].id, attacker.weapons[0].id)
        self.refresh_from_session()

    def action_target(self, delta: int) -> None:
        if self.draft is None:
            return
        targets = [c.id for c in self._targets(self.enc.get(self.draft.attacker))]
        if not targets:
            return
        index = targets.index(self.draft.target) if self.draft.target in targets else -delta
        self.draft = replace(self.draft, target=targets[(index + delta) % len(targets)])
        self.refresh_from_session()

    def action_weapon(self) -> None:
        if self.draft is None:
            self.notify("Press a to aim an attack first")
            return
        weapons = [w.id for w in self.enc.get(self.draft.attacker).weapons]
        index = weapons.index(self.draft.weapon)
        self.draft = replace(self.draft, weapon=weapons[(index + 1) % len(weapons)])
        self.refresh_from_session()

    def action_cancel(self) -> None:
        if self.draft is not None:
            self.draft = None
            self.refresh_from_session()

    def action_confirm(self) -> None:
        """Enter: roll the aimed attack, else reopen the waiting decision."""
        if self.draft is None:
            self.action_decide()
            return
        draft = self.draft
        if self._apply(draft.command()):
            self.draft = None
            self._next_attacker(draft.attacker)
            self.refresh_from_session()

    def _next_attacker(self, attacker: str) -> None:
        """In a group's turn, move on to the next member that has not attacked yet."""
        enc, turn = self.enc, self.enc.turn
        if turn is None or self.selected != attacker:
            return
        members = enc.members(turn.actor)
        ready = [m for m in members if turn.left(m.id) and "attack" not in turn.used_by(m.id)]
        if len(members) > 1 and ready:
            ids = [m.id for m in members]
            after = (
                [m for m in ready if ids.index(m.id) > ids.index(attacker)]
                if attacker in ids
                else []
            )
            self.selected = (after or ready)[0].id

    def action_group(self) -> None:
        """Every member of the acting group that can still attack fires its first weapon
        at the target, as one undo step (a Batch); later shots at a fallen target are
        skipped with the reason in the log.
        """
        enc = self.enc
        if enc.turn is None:
            self.notify("No turn is under way: s starts combat", severity="warning")
            return
        members = enc.members(enc.turn.actor)
        target = self.draft.target if self.draft else None
        if target is None:
            nearest = self._targets(members[0]) if members else []
            target = nearest[0].id if nearest else None
        if target is None:
            self.notify("No standing enemy to attack", severity="warning")
            return
        attacks = tuple(
            Attack(m.id, target, m.weapons[0].id)
            for m in members
            if m.weapons and "attack" not in enc.turn.used_by(m.id)
        )
        if not attacks:
            self.notify("Nobody in this group can still attack this turn", severity="warning")
            return
        if self._apply(Batch(attacks)):
            self.draft = None
            self.refresh_from_session()

    # -- other actions ----------------------------------------------------------
    def action_move(self, run: bool) -> None:
        mover = self._acting("move")
        if mover is None:
            return
        options = []
        for zone in self.enc.zones:
            if zone == mover.zone:
                continue
            try:
                band = self.enc.zone_band(mover.zone, zone).label
            except RulesError:
                band = "no band set"
            key = str(len(options) + 1) if len(options) < 9 else ""
            options.append(Option(key, f"{zone} ({band})", Move(mover.id, zone, run)))
        if not options:
            self.notify("There is no other zone to move to", severity="warning")
            return
        verb = "Move+Run (one band)" if run else "Move (half a band: Melee)"
        question = f"{mover.name} in {mover.zone}: {verb} to which zone? (R-ACT-2)"

        def chosen(command: CombatCommand | None) -> None:
            if command is not None:
                self._apply(command)

        self.app.push_screen(DecisionDialog("Move (R-ACT-2)", question, options), chosen)

    def action_act(self, action: str) -> None:
        actor = self._acting(action)
        if actor is not None:
            self._apply(TakeAction(actor.id, action))

    def action_reload(self) -> None:
        actor = self._acting("reload")
        if actor is None:
            return
        weapons = self.session.catalog.weapons
        reloadable = [w for w in actor.weapons if w.id in weapons and weapons[w.id].reload]
        if not reloadable:
            self.notify(f"{actor.name} has no weapon that reloads", severity="warning")
            return
        self._apply(TakeAction(actor.id, "reload", reloadable[0].id))

    def action_declare(self) -> None:
        self._apply(DeclareActions(3))

    def action_cover(self) -> None:
        chosen = self._acting("take cover")
        if chosen is not None:
            following = Cover((int(chosen.cover) + 1) % len(Cover))
            self._apply(SetCover(chosen.id, following.label))

    def action_start(self) -> None:
        self._apply(StartCombat())

    def action_end_turn(self) -> None:
        self._apply(EndTurn())

    def action_end_combat(self) -> None:
        self._apply(EndCombat())

    def action_decide(self) -> None:
        if self.session.pending is None:
            self.notify("No decision is waiting")
            return
        self._ask_pending()

    def action_load(self) -> None:
        """Set up the shipped example fight (one undo step); s then starts it."""
        self.load_encounter(EXAMPLE)

    def load_encounter(self, path: Path) -> bool:
        catalog = self.app.content.catalog  # type: ignore[attr-defined]
        try:
            spec = read_encounter(path, catalog)
        except RulesError as err:
            self.notify(str(err), title="Refused", severity="error")
            return False
        if self.enc.combatants:
            self.notify("An encounter is already set up (u undoes it)", severity="error")
            return False
        return self._apply(Batch(tuple(encounter_commands(spec, catalog))))

    def after_history(self) -> None:
        self.draft = None
        self.refresh_from_session()
