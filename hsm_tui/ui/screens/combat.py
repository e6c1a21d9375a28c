"""The combat screen (R-COMBAT-1 combat mode): what a GM looks at during a fight.

Thin by design: it reads ``session.encounter``, turns each key into one command for
``session.apply`` (or one call to a widget) and re-renders when the session notifies.
The only state it keeps is what the GM is pointing at: the selected combatant here, the
attack being aimed in the attack panel. Its menus are built in ``combat_dialogs``.
"""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Resize

from ...campaign.combat import (
    CombatCommand,
    EndCombat,
    EndTurn,
    Reveal,
    SetCover,
    StartCombat,
    TakeAction,
    group_attack,
    group_target,
    next_attacker,
    next_cover,
    pools_refusal,
    reloadable,
    unit_of,
)
from ...campaign.conditions import level
from ...campaign.encounter import Combatant, Encounter
from ...packs.loader import SHIPPED
from ...persistence.encounter_file import encounter_commands, read_encounter
from ...rules import RulesError
from ...table.seat_choices import action_options, detail_options
from ...table.session import Batch, Command
from ..widgets.attack_draft import AttackDraft
from ..widgets.attack_panel import AttackPanel
from ..widgets.combatants import CombatantTable
from ..widgets.initiative import InitiativeList, group_name
from ..widgets.keybar import KeyBar
from ..widgets.marks import legend
from ..widgets.range_board import RangeBoard
from ..widgets.repaint import retitle
from ..widgets.roll_log import RollLog
from ..widgets.title_bar import TitleBar
from . import SessionScreen, set_border_titles
from .board_dialog import BoardScreen
from .combat_dialogs import (
    action_menu,
    declare_menu,
    detail_menu,
    end_combat_menu,
    group_menu,
    move_menu,
    pending_dialog,
    remove_menu,
    suppress_dialog,
)
from .combat_keys import COMBAT_KEYS
from .conditions_dialog import ROWS, ConditionsDialog
from .countdown_dialog import CountdownDialog
from .damage_dialog import DamageDialog
from .decision_dialog import DecisionDialog
from .fear_dialog import FearDialog
from .help_text import HelpText
from .note_dialog import NoteDialog
from .pools_dialog import PoolsDialog
from .sheet import SheetScreen

EXAMPLE = SHIPPED / "encounters" / "dig-site-ambush.toml"
"""The shipped encounter ``L`` loads (the one ``hsm simulate`` documents)."""

LOG_TAIL = 60
"""Newest log entries kept on this screen (the whole log has its own screen)."""


class CombatScreen(SessionScreen):
    """Initiative, combatants, range board, attack panel with exact odds, and the log."""

    CSS_PATH = "../styles/combat.tcss"
    UNSAVED_PANEL = "#combat-table"
    PALETTE_PREFIX = "Combat"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    """Below 100 columns the range board hides; below 30 rows the header does."""

    HELP = HelpText(__name__, legend=legend())
    """F1: the keys, the attack options, the rules a GM looks up mid-fight, and the key
    to the Cond. column's short forms (from the table the column reads)."""

    BINDINGS = COMBAT_KEYS
    """One key per action (combat_keys.py); the footer shows the turn's usual path."""

    def __init__(self) -> None:
        super().__init__()
        self.selected: str | None = None
        """The combatant the GM points at: the actor of most keys."""
        self.panel = AttackPanel(id="combat-attack")
        """The attack panel; it keeps the attack being aimed."""
        self._turn_seen: tuple[int, int] | None = None
        self._asking = False
        self._fallen: tuple[str, ...] = ()  # sides already announced as down

    @property
    def enc(self) -> Encounter:
        return self.session.encounter

    @property
    def draft(self) -> AttackDraft | None:
        """The attack being aimed, or None when not aiming."""
        return self.panel.draft

    # -- layout ---------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="combat-top"):
            with Vertical(id="combat-left"):
                yield InitiativeList(id="combat-initiative")
                yield RangeBoard(id="combat-range")
            yield CombatantTable(id="combat-table")
        with Horizontal(id="combat-bottom"):
            yield self.panel
            # not focusable, or auto-focus would take ↑ ↓ from the screen
            yield RollLog(id="combat-log", focusable=False)
        yield KeyBar()

    def on_mount(self) -> None:
        set_border_titles(
            self,
            {
                "#combat-initiative": "Initiative",
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
        chosen = self._selected()
        self.panel.show(enc, self.session.catalog, self.session.pending, chosen)
        draft = self.panel.draft
        if (draft is not None) != self.has_class("-aiming"):
            self.set_class(draft is not None, "-aiming")  # the panel widens while aiming
        acting = frozenset(c.id for c in enc.members(enc.turn.actor)) if enc.turn else frozenset()
        target = draft.target if draft else None
        initiative = self.query_one(InitiativeList)
        initiative.show(enc, self.compact)
        retitle(initiative, f"Round {enc.round}" if enc.active else "Initiative")
        table = self.query_one(CombatantTable)
        table.show(enc, self.selected, target, acting, self.compact)
        self.query_one(RangeBoard).show(enc, chosen.zone if chosen else None)
        self.query_one(RollLog).show(self.session.log[-LOG_TAIL:])
        if enc.turn is not None:
            turn = f"Round {enc.round} · {group_name(enc, enc.turn.actor)}'s turn"
        else:
            turn = "Combat: not started" if enc.combatants else "Combat: no encounter"
        self.show_subtitle(turn)

    @on(AttackPanel.Changed)
    def _aim_changed(self, _message: AttackPanel.Changed) -> None:
        self.refresh_from_session()

    def _sync_selection(self, enc: Encounter) -> None:
        """On a new turn select the actor; a combatant who left gives way too."""
        ids = {c.id for c in enc.combatants}
        turn = (enc.round, enc.turn_index) if enc.active else None
        if turn != self._turn_seen or self.selected not in ids:
            self._turn_seen = turn
            self.selected = self._default_selection(enc)

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
        """Open the dialog for whatever the session now waits on."""
        pending = self.session.pending
        if pending is None or self._asking or self.app.screen is not self:
            return
        self._asking = True
        dialog, command_of = pending_dialog(pending)

        def answer(value: object) -> None:
            self._asking = False
            command = command_of(value)
            if command is None:
                if self.session.pending is pending:
                    self.notify("The decision is still waiting: Enter or o answers it")
                return
            self._apply(command, pending)  # the engine goes on (e.g. starts combat, R-CHAR-8)

        self.app.push_screen(dialog, answer)

    def _acting(self, what: str) -> Combatant | None:
        chosen = self._selected()
        if chosen is None:
            self.notify(f"Select a combatant to {what} (↑ ↓)", severity="warning")
        return chosen

    def _attack_done(self, command: Command | None) -> None:
        """An attack (one, a group's, suppressive fire) went through: the aim is done."""
        if command is not None and self._apply(command):
            self.panel.draft = None
            self.refresh_from_session()

    # -- selection and aiming -----------------------------------------------------
    def action_select(self, delta: int) -> None:
        ids = [c.id for c in self.enc.combatants]
        if not ids:
            return
        index = ids.index(self.selected) if self.selected in ids else 0
        self.selected = ids[(index + delta) % len(ids)]
        self.panel.draft = None
        self.refresh_from_session()

    def action_attack(self) -> None:
        attacker = self._acting("attack with")
        if attacker is not None:
            self.panel.aim(attacker)

    def action_target(self, delta: int) -> None:
        self.panel.retarget(delta)

    def action_weapon(self) -> None:
        self.panel.next_weapon()

    def action_cancel(self) -> None:
        self.panel.cancel()

    def action_confirm(self) -> None:
        """Enter: roll the aimed attack, else reopen the waiting decision, else aim (as
        ``a``) so Enter, Enter aims and rolls: the key bar calls Enter "Roll".
        """
        draft = self.draft
        if draft is None:
            if self.session.pending is None:
                self.action_attack()
            else:
                self.action_decide()
        elif self._apply(draft.command()):
            self.panel.draft = None
            self._next_attacker(draft.attacker)
            self.refresh_from_session()

    def _next_attacker(self, attacker: str) -> None:
        """In a group's turn, move on to the member the engine says attacks next."""
        following = next_attacker(self.enc, attacker) if self.selected == attacker else None
        if following is not None:
            self.selected = following

    def action_group(self) -> None:
        """Every member of the acting group that can still attack fires its first weapon
        at the target, each what its charges pay for (R-ATK-3), as one undo step (a Batch);
        an empty weapon or a shot at a fallen target is skipped with the reason in the log.
        """
        enc = self.enc
        if enc.turn is None:
            self.notify("No turn is under way: s starts combat", severity="warning")
            return
        target = self.draft.target if self.draft else group_target(enc)
        attacks = group_attack(enc, target, self.session.catalog) if target else ()
        if target is None:
            self.notify("No standing enemy to attack", severity="warning")
        elif not attacks:
            self.notify("Nobody in this group can still attack this turn", severity="warning")
        else:
            self._attack_done(Batch(attacks))

    # -- attack options (R-ATK-1, R-ATK-10/11/16/17) -------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While aiming, ``s`` means fighting style: the start-combat binding steps aside."""
        return not (action == "start" and self.draft is not None)

    def action_style(self) -> None:
        self.panel.change(self.panel.melee_style)

    def action_called(self) -> None:
        self.panel.change(AttackDraft.next_called)

    def action_modifier(self, delta: int) -> None:
        self.panel.change(lambda d: d.shifted(delta))

    def action_shots(self, delta: int) -> None:
        self.panel.change(lambda d: self.panel.shots(d, delta))

    def action_hand(self) -> None:
        self.panel.change(self.panel.hand)

    def action_throw(self) -> None:
        self.panel.change(self.panel.thrown)

    def action_grapple(self) -> None:
        self.panel.change(AttackDraft.toggled_grapple)

    def action_club(self) -> None:
        self.panel.change(AttackDraft.toggled_club)

    def action_reaction(self) -> None:
        self.panel.change(AttackDraft.next_reaction)

    def action_rerolls(self) -> None:
        self.panel.change(AttackDraft.next_rerolls)

    def action_damage_option(self) -> None:
        self.panel.change(self.panel.damage_option)

    def action_suppress(self) -> None:
        """R-ATK-16: tick up to N targets in the dialog; the aimed weapon if it can."""
        shooter = self._acting("lay down suppressive fire with")
        if shooter is None:
            return
        dialog = suppress_dialog(self.enc, self.session.catalog, shooter, self.draft)
        if isinstance(dialog, str):
            self.notify(dialog, severity="warning")
        else:
            self.app.push_screen(dialog, self._attack_done)

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

    def action_fear(self) -> None:
        """R-ATK-4: the GM's Fear tokens on a figure or on its whole unit."""
        chosen = self._acting("set the Fear of")
        if chosen is not None:
            unit = len(unit_of(self.enc, chosen))
            dialog = FearDialog(chosen.id, chosen.name, chosen.fear, unit)
            self.app.push_screen(dialog, self.apply_answer)

    def action_note(self) -> None:
        """The GM's own note on the selected combatant (the players never read it)."""
        chosen = self._acting("note")
        if chosen is not None:
            self.app.push_screen(NoteDialog(self.enc, chosen), self.apply_answer)

    def action_countdown(self) -> None:
        """An effect for some of the selected combatant's turns; the engine ends it."""
        chosen = self._acting("time an effect on")
        if chosen is not None:
            self.app.push_screen(CountdownDialog(self.enc, chosen), self.apply_answer)

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
            self.choose(*remove_menu(chosen))

    # -- the action menu (R-ACT-2/5/6) ---------------------------------------------------
    def action_action_menu(self) -> None:
        actor = self._acting("act")
        if actor is not None:
            options = action_options(self.enc, actor, self.session.catalog)
            self.app.push_screen(DecisionDialog(*action_menu(actor, options)), self._then_detail)

    def _then_detail(self, command: CombatCommand | None) -> None:
        """Ask for the weapon (or the Escape Artist bonus) where the action needs one."""
        if isinstance(command, TakeAction):
            actor = self.enc.get(command.combatant)
            options = detail_options(self.enc, actor, command, self.session.catalog)
            menu = detail_menu(actor, command, options)
            if menu is not None:
                self.choose(*menu)
            elif self._apply(command) and command.action == "task":
                self.call_later(self._roll_task, actor.id)

    async def _roll_task(self, who: str) -> None:
        """R-ACT-2 Task: the action is spent, F2 opens with the actor as Who."""
        await self.app.switch_mode("tasks")
        roller = self.app.screen
        if hasattr(roller, "choose_who"):  # the task roller loads lazily: no import here
            roller.choose_who(who)

    # -- other actions ----------------------------------------------------------
    def action_move(self, run: bool) -> None:
        """``m``: each zone with what reaches it this turn, and picking one moves there
        (a Move, or Move+Run for a zone at Short); ``M``/``r``: Move+Run to any zone.
        """
        mover = self._acting("move")
        menu = move_menu(self.enc, mover, run) if mover is not None else None
        if menu is not None:
            self.choose(*menu)
        elif mover is not None:
            self.notify("There is no other zone to move to", severity="warning")

    def action_act(self, action: str) -> None:
        actor = self._acting(action)
        if actor is not None:
            self._apply(TakeAction(actor.id, action))

    def action_reload(self) -> None:
        actor = self._acting("reload")
        if actor is None:
            return
        weapons = reloadable(actor, self.session.catalog)
        if not weapons:
            self.notify(f"{actor.name} has no weapon that reloads", severity="warning")
            return
        aimed = self.draft.weapon if self.draft else None
        self._apply(TakeAction(actor.id, "reload", aimed if aimed in weapons else weapons[0]))

    def action_declare(self) -> None:
        """R-ACT-3: how many actions this turn; the engine refuses Minions and late calls."""
        if self.enc.turn is None:
            self.notify("No turn under way: s starts combat (R-ACT-3)", severity="warning")
        else:
            self.choose(*declare_menu(self.enc))

    def action_cover(self) -> None:
        chosen = self._acting("take cover")
        if chosen is not None:
            self._apply(SetCover(chosen.id, next_cover(chosen.cover).label))

    def action_group_orders(self) -> None:
        """Cover or a move for the selected combatant's whole group."""
        chosen = self._acting("give orders to")
        if chosen is not None:
            self.choose(*group_menu(self.enc, chosen, self.session.catalog))

    def action_dive_policy(self) -> None:
        from .dive_policy import ask_dive_policy

        ask_dive_policy(self)

    def action_reveal(self) -> None:
        """The players now see the selected combatant's group (hidden from
        them until now); the engine refuses one they see already.
        """
        chosen = self._acting("reveal")
        if chosen is not None:
            self._apply(Reveal(chosen.id))

    def action_start(self) -> None:
        self._apply(StartCombat())

    def action_end_turn(self) -> None:
        self._apply(EndTurn())

    def action_end_combat(self) -> None:
        """Asks first: ending hands the party back and cannot be continued (u undoes it)."""
        if not self.enc.active or self.session.pending is not None:
            self._apply(EndCombat())  # the engine says why not, before any question
        else:
            self.choose(*end_combat_menu(self.enc))

    def action_decide(self) -> None:
        if self.session.pending is None:
            self.notify("No decision is waiting")
        else:
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
        self.panel.draft = None
