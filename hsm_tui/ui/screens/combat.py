"""The combat screen (R-COMBAT-1 combat mode): what a GM looks at during a fight.

Thin by design: it reads ``session.encounter``, turns each key into one command for
``session.apply`` and re-renders when the session notifies. The only state it keeps is
what the GM is pointing at — the selected combatant and the attack being aimed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.widgets import Static

from ...campaign.combat import (
    ACTIONS,
    AttackPlan,
    CloseIn,
    CombatCommand,
    DeclareActions,
    EndCombat,
    EndTurn,
    Option,
    PendingCombatRerolls,
    RemoveCombatant,
    SetCover,
    SpendCombatRerolls,
    StartCombat,
    Suppress,
    SuppressPlan,
    TakeAction,
    action_refusal,
    firepower,
    group_attack,
    nearest_enemies,
    plan_attack,
    plan_suppress,
    pools_refusal,
    routes,
    weapon_style,
    within_charges,
)
from ...campaign.conditions import level
from ...campaign.encounter import Combatant, Encounter
from ...packs.loader import SHIPPED
from ...rules import Cover, RangeBand, Rank, RulesError
from ...session import Batch, PendingRerolls, SpendRerolls
from ...simulate import encounter_commands, read_encounter
from ..widgets.combatants import CombatantTable
from ..widgets.initiative import InitiativeList, fit, group_name
from ..widgets.keybar import KeyBar
from ..widgets.range_board import RangeBoard
from ..widgets.roll_log import RollLog
from ..widgets.title_bar import TitleBar
from . import SessionScreen, set_border_titles
from .attack_draft import AttackDraft
from .board_dialog import BoardScreen
from .conditions_dialog import ROWS, ConditionsDialog
from .damage_dialog import DamageDialog
from .decision_dialog import DecisionDialog
from .pools_dialog import PoolsDialog
from .reroll_dialog import RerollDialog
from .sheet import SheetScreen
from .suppress_dialog import SuppressDialog

EXAMPLE = SHIPPED / "encounters" / "dig-site-ambush.toml"
"""The shipped encounter ``L`` loads (the one ``hsm simulate`` documents)."""

TITLES = {
    "PendingDive": "Dive for cover? (R-ATK-5)",
    "PendingChartChoice": "Severe Wound chart (§7)",
    "PendingSidekick": "Sidekick rules (R-CHAR-8)",
}
"""Dialog titles by kind of decision (re-rolls have their own dialog); else "Decision"."""

LOG_TAIL = 60
"""Newest log entries kept on this screen (the whole log has its own screen)."""


ESCAPE_BONUS = (0, 1, 2, 3, -1)
"""Break free (R-ATK-17): Escape Artist adds its level; −1 when the grappler was hit."""

DECLARE = range(2, 6)
"""Action counts ``x`` offers a Hero at the start of its turn (R-ACT-3)."""

OPTION_KEYS = "s k ± [ ] h T G R e D"
"""The attack-option keys, as the panel's hint shows them."""


def _down(c: Combatant) -> str:
    """Why a combatant no longer acts, in the table's words (R-WOUND-1/2/5)."""
    if c.out:
        return "dead" if Rank.HERO in (c.rank, c.plays_as) else "taken out"
    return "unconscious"


class CombatScreen(SessionScreen):
    """Initiative, combatants, range board, attack panel with exact odds, and the log."""

    CSS_PATH = "../styles/combat.tcss"
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
| Enter | roll the aimed attack (none aimed: aim, as a; a question waiting: reopen it) |
| g | group attack: every able member fires (at its melee foe if locked); target down → nearest |
| S | suppressive fire: tick up to N targets, mark who dives (R-ATK-16) |
| m | move: each zone with its band and what reaches it (Move / Move + Run) |
| M / r | Move+Run (one band): pick the zone |
| d · i · f | Dodge · Aim · Full defense (Heroes, 2 actions) |
| l · p | Reload the aimed (else first) reloadable weapon, 2 actions · stand up |
| A | action menu: every action (standby, interact, hide, task, draw …) |
| x | declare 2–5 actions (Heroes, at turn start: each beyond 2 is −1) |
| c | cycle the selected combatant's cover |
| C · P | conditions (§8) · Luck and Clue pools (R-CHAR-9) |
| v | character sheet: live traits, weapons, wounds, Fear, conditions |
| b | range board: zones, who is where, the band between each pair |
| W | damage from outside an attack: a fall (R-OTHER-6), a blast, a trap; non-lethal too |
| X / Delete | remove from the encounter (fled, added by mistake): y confirms |
| s · n · E | start combat · end the turn · end combat |
| o | answer the waiting decision |
| u / y | undo / redo (dice included) |
| L | load the example encounter (dig-site ambush) |
| ctrl+p | every action by name |

### Attack options (while aiming)
The panel's first line lists the options that differ from a plain attack; the TN line
names every modifier. A combination the rules forbid shows ✗ and the reason.

| key | option |
| --- | --- |
| s | fighting style, melee: wild → power → agile (R-ATK-1) |
| k | called shot → at the head (+d8) → at a limb → none (Heroes, R-ATK-10) |
| + / - | situational modifier (Advantages, the GM's call) |
| ] / [ | more / fewer shots, 1 to the rate of fire; starts at what the charges pay for (R-ATK-3) |
| h | two weapons: main hand −2, then off hand −3 (R-ATK-11) |
| T · G | throw the weapon (R-ATK-1) · grapple with bare hands (R-ATK-17) |
| R | reaction: from Standby (R-ACT-2) · zone of control (R-OTHER-4) |
| e | free re-rolls granted: 0–3 (Talent, Advantage; R-TASK-6) |
| D | the card's damage option (Sonic Relik) |

**Table**: ▸ selected · ◎ target · • acts this turn. Wnd −1/−2, sev (severely
wounded), OUT (Minion taken out), unc; s−n non-lethal. F/M: Fear/Morale, `!` when
Fear ≥ Morale (R-FEAR-1). Chg: charges left in the first weapon (of its power;
a weapon not fired in a turn recharges 1 at its end, R-ATK-3). Initiative: ● action
left, ○ used or lost.

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
Dodge + cover (with a Hero's wound marker, Shaken) lets the hit through. Hit by
ranged fire: dive to better cover (Prone, −1 action next turn). In cover with Fear > Morale: Pinned.

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
        # "s" starts combat unless an attack is being aimed (check_action), then: style
        Binding("s", "start", "Start combat", show=False, id="combat.start"),
        Binding("s", "style", "Fighting style", show=False, id="combat.style", tooltip="Aiming"),
        Binding("k", "called", "Called shot", show=False, id="combat.called", tooltip="Aiming"),
        Binding(
            "plus,equals_sign",
            "modifier(1)",
            "Modifier +1",
            show=False,
            key_display="+",
            id="combat.plus",
            tooltip="Aiming",
        ),
        Binding(
            "minus",
            "modifier(-1)",
            "Modifier −1",
            show=False,
            key_display="-",
            id="combat.minus",
            tooltip="Aiming",
        ),
        Binding(
            "right_square_bracket",
            "shots(1)",
            "More shots",
            show=False,
            key_display="]",
            id="combat.more-shots",
            tooltip="Aiming",
        ),
        Binding(
            "left_square_bracket",
            "shots(-1)",
            "Fewer shots",
            show=False,
            key_display="[",
            id="combat.fewer-shots",
            tooltip="Aiming",
        ),
        Binding("h", "hand", "Weapon hand", show=False, id="combat.hand", tooltip="Aiming"),
        Binding("T", "throw", "Throw", show=False, id="combat.throw", tooltip="Aiming"),
        Binding("G", "grapple", "Grapple", show=False, id="combat.grapple", tooltip="Aiming"),
        Binding("R", "reaction", "Reaction", show=False, id="combat.reaction", tooltip="Aiming"),
        Binding("e", "rerolls", "Free re-rolls", show=False, id="combat.rerolls", tooltip="Aiming"),
        Binding(
            "D", "damage_option", "Damage option", show=False, id="combat.damage", tooltip="Aiming"
        ),
        Binding(
            "S",
            "suppress",
            "Suppressive fire",
            show=False,
            id="combat.suppress",
            tooltip="Pick up to N targets",
        ),
        Binding("M,r", "move(True)", "Move+Run", show=False, id="combat.run"),
        Binding("d", "act('dodge')", "Dodge", show=False, id="combat.dodge"),
        Binding("i", "act('aim')", "Aim", show=False, id="combat.aim"),
        Binding("f", "act('full-defense')", "Full defense", show=False, id="combat.full"),
        Binding("l", "reload", "Reload", show=False, id="combat.reload"),
        Binding("p", "act('stand')", "Stand up", show=False, id="combat.stand"),
        Binding(
            "A",
            "action_menu",
            "Action menu",
            show=False,
            id="combat.actions",
            tooltip="Every action",
        ),
        Binding("x", "declare", "Declare actions", show=False, id="combat.declare"),
        Binding("b", "board", "Range board", show=False, id="combat.board"),
        Binding("c", "cover", "Cycle cover", show=False, id="combat.cover"),
        Binding("C", "conditions", "Conditions", show=False, id="combat.conditions"),
        Binding("P", "pools", "Luck and Clues", show=False, id="combat.pools"),
        Binding("v", "sheet", "Character sheet", show=False, id="combat.sheet"),
        Binding(
            "W",
            "apply_damage",
            "Apply damage",
            show=False,
            id="combat.apply-damage",
            tooltip="Damage from a fall, a blast, a trap",
        ),
        Binding(
            "X,delete",
            "remove",
            "Remove combatant",
            show=False,
            id="combat.remove",
            tooltip="Leaves the encounter (asks first)",
        ),
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
        self._fallen: tuple[str, ...] = ()  # sides already announced as down

    @property
    def enc(self) -> Encounter:
        return self.session.encounter

    # -- layout ---------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="combat-top"):
            with Vertical(id="combat-left"):
                yield InitiativeList(id="combat-initiative")
                yield RangeBoard(id="combat-range")
            yield CombatantTable(id="combat-table")
        with Horizontal(id="combat-bottom"):
            yield Static(id="combat-attack")
            # not focusable, or auto-focus would take ↑ ↓ from the screen
            yield RollLog(id="combat-log", focusable=False)
        yield KeyBar()

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
        self.follow_session(self.refresh_from_session)
        self.refresh_from_session()

    def on_resize(self, _event: Resize) -> None:
        self.refresh_from_session()

    @property
    def compact(self) -> bool:
        return self.size.width < 100

    # -- rendering ------------------------------------------------------------
    def refresh_from_session(self) -> None:
        enc = self.enc
        self._sync_selection(enc)
        aiming = self.draft is not None
        if aiming != self.has_class("-aiming"):
            self.set_class(aiming, "-aiming")  # the panel's width changes: render again after
            self.call_after_refresh(lambda: self._show_panel(self.enc))
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
            self.show_subtitle(f"Round {enc.round} · {group_name(enc, enc.turn.actor)}'s turn")
        else:
            self.show_subtitle("Combat: not started" if enc.combatants else "Combat: no encounter")

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
            elif self.draft.target not in ids or not enc.get(self.draft.target).standing:
                targets = nearest_enemies(self.enc, attacker)
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
            panel.border_subtitle = f"←→ target · w weapon · options {OPTION_KEYS}"
            lines += self._aim_lines(enc, self.draft)
        else:
            panel.border_title = "Attack"
            panel.border_subtitle = ""
            lines += self._summary(enc)
        body = Text("\n").join(Text(x) if isinstance(x, str) else x for x in lines)
        panel.update(body, layout=False)  # a fixed box: a layout pass would redraw everything

    def _aim_lines(self, enc: Encounter, draft: AttackDraft) -> list[str | Text]:
        """The options line, then the engine's own preview (or its refusal, R-ATK-2)."""
        try:
            plan = plan_attack(enc, draft.command(), self.session.catalog)
        except RulesError as err:
            plan, refusal = None, str(err)
        options = draft.options(self._rate(draft) if draft.shots else None)
        line = Text.assemble(("Options: ", "dim"))
        if options:
            line.append(" · ".join(options), style="bold")
        else:
            line.append("none (plain attack)", style="dim")
        if plan is None:
            hint = self._charge_hint(draft)
            return [line, Text(f"✗ cannot attack: {refusal}", style="bold"), *hint]
        head, *rest = plan.preview(enc)
        head = Text(self._headline(plan, head), style="bold")
        blocked = action_refusal(enc, draft.command())  # R-ACT-1: before Enter, not on it
        if blocked:
            return [line, head, Text(f"✗ cannot attack: {blocked}", style="bold")]
        return [line, head, *rest]

    def _charge_hint(self, draft: AttackDraft) -> list[str | Text]:
        """The keys out of a charge refusal (R-ATK-3): fewer shots, reload, another weapon."""
        try:
            fire = firepower(self.enc, draft.command(), self.session.catalog)
        except RulesError:
            return []
        if fire.paid >= (draft.shots or fire.rate):
            return []
        if fire.paid:
            return [Text(f"[ fires fewer: up to {fire.paid} shot(s)", style="dim")]
        reload = "l reloads it (2 actions) · " if fire.weapon.reload else ""
        return [Text(f"{reload}w picks another weapon", style="dim")]

    def _headline(self, plan: AttackPlan, head: str) -> str:
        """The engine's first preview line, or at a narrow panel the same facts with the
        target's name shortened (it is marked ◎ in the table), so the odds stay in view.
        """
        width = self.query_one("#combat-attack").content_size.width
        if not width or len(head) <= width:
            return head
        what = f"{plan.weapon.name} ({plan.style.value}, {plan.dice} d10), {plan.band.label} at "
        return what + fit(plan.target.name, max(8, width - len(what)))

    def _rate(self, draft: AttackDraft) -> int | None:
        """All the shots the weapon fires in this attack, even while the aim is refused."""
        try:
            return firepower(self.enc, draft.command(), self.session.catalog).rate
        except RulesError:
            return None

    def _fitted(self, draft: AttackDraft) -> AttackDraft:
        """An aim starts at the shots the weapon's charges pay for (R-ATK-3)."""
        try:
            fitted = within_charges(self.enc, draft.command(), self.session.catalog)
        except RulesError:
            return draft  # the weapon cannot be used: the panel says why
        return replace(draft, shots=fitted.shots)

    def _summary(self, enc: Encounter) -> list[str | Text]:
        """What the selected combatant carries and can do, before aiming."""
        if not enc.combatants:
            return [
                Text("No encounter yet.", style="bold"),
                "L loads the example (dig-site ambush);",
                "F7 builds your own: zones, bands, foes,",
                "and p there adds the party (heroes: F8).",
                "Then s starts combat (rolls initiative).",
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
            empty = " empty" if state.charges == 0 else ""
            lost = " dropped (A: interact)" if state.dropped else " stuck" if state.stuck else ""
            lines.append(f"  {name}{charges}{empty}{lost}")
        if not chosen.standing:
            why = _down(chosen)
            mine = enc.turn is not None and chosen.group == enc.turn.actor
            lines.append(Text(f"{why}: cannot act" + (" (n ends its turn)" if mine else ""), "dim"))
        elif enc.turn is not None and chosen.group == enc.turn.actor:
            left = enc.turn.left(chosen.id)
            used = ", ".join(enc.turn.used_by(chosen.id)) or "nothing yet"
            lines.append(f"{left} action(s) left · used: {used}")
        elif enc.active:
            lines.append(Text("not its turn (n ends the turn)", style="dim"))
        else:
            lines.append(Text("s starts combat", style="dim"))
        return lines

    # -- commands ---------------------------------------------------------------
    def after_apply(self) -> None:
        self._ask_pending()
        fallen = self.enc.fallen_sides() if self.enc.active else ()
        if fallen and fallen != self._fallen:
            self.notify(
                f"Nobody on {', '.join(fallen)} is left standing: E ends the fight",
                title="Fight decided",
            )
        self._fallen = fallen

    def _ask_pending(self) -> None:
        """Open the decision dialog for whatever the session now waits on."""
        pending = self.session.pending
        if pending is None or self._asking or self.app.screen is not self:
            return
        self._asking = True

        def answer(command: CombatCommand | SpendRerolls | None) -> None:
            self._asking = False
            if command is None:
                self.notify("The decision is still waiting: Enter or o answers it")
                return
            self._apply(command)  # the engine goes on by itself (e.g. starts combat, R-CHAR-8)

        if isinstance(pending, PendingRerolls | PendingCombatRerolls):  # R-TASK-6: any split
            spend = SpendRerolls if isinstance(pending, PendingRerolls) else SpendCombatRerolls
            pools = (
                f"Free {pending.free}, then Luck {pending.luck}, then Clues {pending.clues}"
                " (R-CHAR-9)"
                if isinstance(pending, PendingCombatRerolls)
                else ""
            )

            def split(chosen: tuple[int, int] | None) -> None:
                answer(None if chosen is None else spend(*chosen))

            self.app.push_screen(RerollDialog(pending, pools=pools, reopen="o"), split)
            return
        title = TITLES.get(type(pending).__name__, "Decision")
        dialog = DecisionDialog(title, pending.question, pending.options, reopen="o")
        self.app.push_screen(dialog, answer)

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

    def action_attack(self) -> None:
        attacker = self._acting("attack with")
        if attacker is None:
            return
        if not attacker.standing:
            self.notify(f"{attacker.name} is {_down(attacker)}: no attack", severity="warning")
            return
        if not attacker.weapons:
            self.notify(f"{attacker.name} carries no weapon", severity="warning")
            return
        targets = nearest_enemies(self.enc, attacker)
        if not targets:
            self.notify(f"{attacker.name} has no standing enemy to attack", severity="warning")
            return
        held = [w for w in attacker.weapons if not (w.dropped or w.stuck)] or attacker.weapons
        self.draft = self._fitted(AttackDraft(attacker.id, targets[0].id, held[0].id))
        self.refresh_from_session()

    def action_target(self, delta: int) -> None:
        if self.draft is None:
            return
        targets = [c.id for c in nearest_enemies(self.enc, self.enc.get(self.draft.attacker))]
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
        self.draft = self._fitted(self.draft.with_weapon(weapons[(index + 1) % len(weapons)]))
        self.refresh_from_session()

    def action_cancel(self) -> None:
        if self.draft is not None:
            self.draft = None
            self.refresh_from_session()

    def action_confirm(self) -> None:
        """Enter: roll the aimed attack, else reopen the waiting decision, else aim (as
        ``a``) so Enter, Enter aims and rolls: the key bar calls Enter "Roll".
        """
        if self.draft is None:
            if self.session.pending is None:
                self.action_attack()
            else:
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
        at the target, each what its charges pay for (R-ATK-3), as one undo step (a Batch);
        an empty weapon or a shot at a fallen target is skipped with the reason in the log.
        """
        enc = self.enc
        if enc.turn is None:
            self.notify("No turn is under way: s starts combat", severity="warning")
            return
        members = enc.members(enc.turn.actor)
        target = self.draft.target if self.draft else None
        if target is None:
            nearest = nearest_enemies(self.enc, members[0]) if members else []
            target = nearest[0].id if nearest else None
        if target is None:
            self.notify("No standing enemy to attack", severity="warning")
            return
        attacks = group_attack(enc, target, self.session.catalog)
        if not attacks:
            self.notify("Nobody in this group can still attack this turn", severity="warning")
            return
        if self._apply(Batch(attacks)):
            self.draft = None
            self.refresh_from_session()

    # -- attack options (R-ATK-1, R-ATK-10/11/16/17) -------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While aiming, ``s`` means fighting style: the start-combat binding steps aside."""
        return not (action == "start" and self.draft is not None)

    def _aim(self, change: Callable[[AttackDraft], AttackDraft | None]) -> None:
        """Apply one option change to the draft and show the new preview."""
        if self.draft is None:
            self.notify("Press a to aim an attack first", severity="warning")
            return
        changed = change(self.draft)
        if changed is not None:
            self.draft = changed
            self.refresh_from_session()

    def _melee_style(self, draft: AttackDraft) -> AttackDraft | None:
        weapon = self.session.catalog.weapons.get(draft.weapon)
        if draft.grapple or weapon is None or weapon.kind != "melee":
            self.notify("Fighting styles are for melee weapons (w picks one, R-ATK-1)")
            return None
        return draft.next_style(draft.style or weapon_style(weapon).value)

    def action_style(self) -> None:
        self._aim(self._melee_style)

    def action_called(self) -> None:
        self._aim(AttackDraft.next_called)

    def action_modifier(self, delta: int) -> None:
        self._aim(lambda d: d.shifted(delta))

    def _shots(self, draft: AttackDraft, delta: int) -> AttackDraft | None:
        """R-ATK-3: 1 to the rate of fire, also while the aim is refused (charges short)."""
        rate = self._rate(draft)
        if rate is None:  # dropped, stuck, not a throwing weapon …: `[` cannot fix that
            self.notify("This weapon cannot fire now: the panel says why", severity="warning")
            return None
        if rate == 1:
            self.notify("This attack has a single shot (rate of fire 1)")
            return None
        return draft.with_shots(delta, rate)

    def action_shots(self, delta: int) -> None:
        self._aim(lambda d: self._shots(d, delta))

    def action_hand(self) -> None:
        self._aim(AttackDraft.next_hand)

    def action_throw(self) -> None:
        self._aim(lambda d: self._fitted(replace(d, throw=not d.throw, shots=None)))

    def action_grapple(self) -> None:
        self._aim(lambda d: replace(d, grapple=not d.grapple, style=None, shots=None))

    def action_reaction(self) -> None:
        self._aim(AttackDraft.next_reaction)

    def action_rerolls(self) -> None:
        self._aim(AttackDraft.next_rerolls)

    def _damage(self, draft: AttackDraft) -> AttackDraft | None:
        weapon = self.session.catalog.weapons.get(draft.weapon)
        count = len(weapon.damage_options) if weapon else 0
        if not count:
            self.notify("This weapon's card has one damage only")
            return None
        return draft.next_damage(count)

    def action_damage_option(self) -> None:
        self._aim(self._damage)

    def action_suppress(self) -> None:
        """R-ATK-16: the aimed weapon if it can, else the first with a Suppression rating."""
        shooter = self._acting("lay down suppressive fire with")
        if shooter is None:
            return
        weapons = self.session.catalog.weapons
        able = [w.id for w in shooter.weapons if w.id in weapons and weapons[w.id].suppression]
        if not able:
            self.notify(
                f"{shooter.name} has no weapon with a Suppression rating", severity="warning"
            )
            return
        draft = self.draft
        chosen = draft.weapon if draft and draft.weapon in able else able[0]

        def fire(command: CombatCommand | None) -> None:
            if command is not None and self._apply(command):
                self.draft = None
                self.refresh_from_session()

        def replan(command: Suppress) -> SuppressPlan:
            return plan_suppress(self.enc, command, self.session.catalog)

        plan = replan(Suppress(shooter.id, chosen, (draft.target,) if draft else ()))
        self.app.push_screen(SuppressDialog.from_plan(plan, replan), fire)

    # -- conditions, pools, sheet ------------------------------------------------------
    def action_conditions(self) -> None:
        """§8: every changed level goes to the session as one Batch (one undo)."""
        chosen = self._acting("set conditions of")
        if chosen is None:
            return
        current = {row: level(chosen, row) for row in ROWS}
        current.update(prone=int(chosen.prone), unconscious=int(chosen.unconscious))

        def changed(commands: tuple[CombatCommand, ...] | None) -> None:
            if commands:
                self._apply(Batch(commands))

        self.app.push_screen(ConditionsDialog(chosen.id, chosen.name, current), changed)

    def action_pools(self) -> None:
        chosen = self._acting("set Luck and Clues of")
        refusal = pools_refusal(chosen) if chosen is not None else ""
        if refusal:
            self.notify(refusal, title="Refused", severity="error")
        elif chosen is not None:
            dialog = PoolsDialog(chosen.id, chosen.name, chosen.luck, chosen.clues)
            self.app.push_screen(dialog, self.apply_answer)

    def action_board(self) -> None:
        """R-COMBAT-2: the zones and bands full-size (the side panel hides below 100 columns)."""
        chosen = self._selected()
        self.app.push_screen(BoardScreen(chosen.zone if chosen else None))

    def action_sheet(self) -> None:
        chosen = self._acting("show the sheet of")
        if chosen is not None:
            ids = [c.id for c in self.enc.combatants]
            self.app.push_screen(SheetScreen(ids, chosen.id))

    def action_apply_damage(self) -> None:
        """R-OTHER-6, R-DMG-2: damage the GM rolled outside an attack (a fall, a trap)."""
        chosen = self._acting("damage")
        if chosen is not None:
            self.app.push_screen(DamageDialog(chosen), self.apply_answer)

    def action_remove(self) -> None:
        """Someone leaves the encounter; the engine refuses whoever is acting now."""
        chosen = self._acting("remove")
        if chosen is not None:
            leave = Option("y", f"yes: {chosen.name} leaves", RemoveCombatant(chosen.id))
            question = f"Remove {chosen.name} from the encounter? (u undoes it; Esc keeps it)"
            self.choose("Remove combatant", question, [leave])

    # -- the action menu (R-ACT-2/5/6) ---------------------------------------------------
    def action_action_menu(self) -> None:
        actor = self._acting("act")
        if actor is None:
            return
        options = []
        for index, (action, kind) in enumerate(ACTIONS.items()):
            key = str(index + 1) if index < 9 else "abcdefghij"[index - 9]
            cost = kind.cost
            price = "free" if not cost else f"{cost} action" + ("s" if cost > 1 else "")
            label = f"{action} ({price}): {kind.hint}"
            options.append(Option(key, label, TakeAction(actor.id, action)))
        question = f"{actor.name}: which action? (attacks, moves and cover have their own keys)"
        self.app.push_screen(
            DecisionDialog("Actions (R-ACT-2)", question, options), self._then_detail
        )

    def _then_detail(self, command: CombatCommand | None) -> None:
        """Ask for the weapon (or the Escape Artist bonus) where the action needs one."""
        if not isinstance(command, TakeAction):
            return
        actor = self.enc.get(command.combatant)
        if command.action == "break-free":
            options = [
                Option(str(i + 1), f"{bonus:+d}", replace(command, bonus=bonus))
                for i, bonus in enumerate(ESCAPE_BONUS)
            ]
            question = "Escape Artist bonus (−1 if the grappler was hit this turn, R-ATK-17)"
            self.choose("Break free (R-ATK-17)", question, options)
            return
        if not ACTIONS[command.action].weapon or not actor.weapons:
            self._apply(command)
            return
        names = self.session.catalog.weapons
        options = [
            Option(
                str(i + 1),
                names[w.id].name if w.id in names else w.id,
                replace(command, weapon=w.id),
            )
            for i, w in enumerate(actor.weapons[:8])
        ]
        if command.action == "interact":
            options.append(Option("0", "other equipment nearby", command))
        question = f"{actor.name}: {command.action} which weapon?"
        self.choose(f"{command.action.title()} (R-ACT-5)", question, options)

    # -- other actions ----------------------------------------------------------
    def action_move(self, run: bool) -> None:
        """``m``: each zone with what reaches it this turn, and picking one moves there
        (a Move, or Move+Run for a zone at Short); ``M``/``r``: Move+Run to any zone.
        """
        mover = self._acting("move")
        if mover is None:
            return
        options = []
        for route in routes(self.enc, mover.id):
            band = route.band.label if route.band is not None else "no band set"
            key = str(len(options) + 1) if len(options) < 9 else ""
            if route.band is not None and route.band > RangeBand.SHORT:  # R-ACT-2: a band nearer
                label = f"{route.move.zone} ({band}): close in one band, Move + Run"
                options.append(Option(key, label, CloseIn(mover.id, route.move.zone)))
                continue
            label = f"{route.move.zone} ({band})" + ("" if run else f": {route.cost}")
            label = label if route.possible or run else f"✗ {label}"  # picking it says why
            options.append(Option(key, label, replace(route.move, run=True) if run else route.move))
        if not options:
            self.notify("There is no other zone to move to", severity="warning")
            return
        if run:
            question = f"{mover.name} in {mover.zone}: Move+Run (one band) to which zone? (R-ACT-2)"
        else:
            question = (
                f"{mover.name} in {mover.zone}: to which zone? A Move covers half a band,"
                " Move + Run one band (R-ACT-2)"
            )
        self.choose("Move (R-ACT-2)", question, options)

    def action_act(self, action: str) -> None:
        actor = self._acting(action)
        if actor is not None:
            self._apply(TakeAction(actor.id, action))

    def action_reload(self) -> None:
        actor = self._acting("reload")
        if actor is None:
            return
        weapons = self.session.catalog.weapons
        reloadable = [w.id for w in actor.weapons if w.id in weapons and weapons[w.id].reload]
        if not reloadable:
            self.notify(f"{actor.name} has no weapon that reloads", severity="warning")
            return
        aimed = self.draft.weapon if self.draft else None
        self._apply(TakeAction(actor.id, "reload", aimed if aimed in reloadable else reloadable[0]))

    def action_declare(self) -> None:
        """R-ACT-3: how many actions this turn; the engine refuses Minions and late calls."""
        if self.enc.turn is None:
            self.notify("No turn under way: s starts combat (R-ACT-3)", severity="warning")
            return
        options = [
            Option(
                str(n), f"{n} actions" + (f", each at −{n - 2}" if n > 2 else ""), DeclareActions(n)
            )
            for n in DECLARE
        ]
        question = "How many actions this turn? (Heroes, before the first action)"
        self.choose("Declare actions (R-ACT-3)", question, options)

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
        """Asks first: ending hands the party back and cannot be continued (u undoes it)."""
        enc = self.enc
        if not enc.active or self.session.pending is not None:
            self._apply(EndCombat())  # the engine says why not, before any question
            return
        standing: dict[str, int] = {}
        for c in enc.combatants:
            if c.standing:
                standing[c.side] = standing.get(c.side, 0) + 1
        still = ", ".join(f"{side} {n}" for side, n in standing.items()) or "nobody"
        end = Option("y", "yes: end combat (the party keeps what the fight left)", EndCombat())
        question = f"End combat in round {enc.round}? Still standing: {still}. (u undoes it)"
        self.choose("End combat", question, [end])

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

    def before_history(self) -> None:
        self.draft = None
