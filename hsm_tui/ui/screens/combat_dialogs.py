"""What the combat screen asks in its dialogs, built from the encounter: the menus
(where to move, which action and then which weapon, how many actions to declare,
whether to end combat or remove someone), suppressive fire, and the dialog for the
decision the session waits on.

Each builder only reads: it returns the menu (or the dialog) and the screen pushes it
and applies the answer, so a key handler stays one call to the session.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from textual.screen import ModalScreen

from ...campaign.combat import (
    EndCombat,
    Option,
    PendingCombatRerolls,
    RemoveCombatant,
    SonicBlast,
    SonicPlan,
    SpendCombatRerolls,
    Suppress,
    SuppressPlan,
    TakeAction,
    plan_sonic,
    plan_suppress,
    sonic_weapons,
    suppression_weapons,
)
from ...campaign.encounter import Combatant, Encounter
from ...campaign.freeflow import PendingRerolls, SpendRerolls
from ...packs.model import Catalog
from ...table.seat_choices import declare_options, group_options, move_options
from ..widgets.attack_draft import AttackDraft
from .decision_dialog import DecisionDialog
from .reroll_dialog import RerollDialog
from .sonic_dialog import SonicDialog
from .suppress_dialog import SuppressDialog

if TYPE_CHECKING:
    from ...table.session import Command, Decision

TITLES = {
    "PendingDive": "Dive for cover? (R-ATK-5)",
    "PendingChartChoice": "Severe Wound chart (§7)",
    "PendingSidekick": "Sidekick rules (R-CHAR-8)",
}
"""Dialog titles by kind of decision (re-rolls have their own dialog); else "Decision"."""


class Menu(NamedTuple):
    """A decision dialog's title, question and options: ``DecisionDialog(*menu)``."""

    title: str
    question: str
    options: list[Option[Any]]


def move_menu(enc: Encounter, mover: Combatant, run: bool) -> Menu | None:
    """R-ACT-2: each zone with what reaches it this turn (a Move, or Move+Run for a zone
    at Short; farther: close in one band); ``run``: Move+Run to any zone. None: there is
    no other zone.
    """
    options = move_options(enc, mover.id, run)
    if not options:
        return None
    if run:
        question = f"{mover.name} in {mover.zone}: Move+Run (one band) to which zone? (R-ACT-2)"
    else:
        question = (
            f"{mover.name} in {mover.zone}: to which zone? A Move covers half a band,"
            " Move + Run one band (R-ACT-2)"
        )
    return Menu("Move (R-ACT-2)", question, options)


def group_menu(enc: Encounter, chosen: Combatant, catalog: Catalog) -> Menu:
    """Cover or a move for ``chosen``'s whole group in one pick (the engine's options)."""
    question = f"{chosen.name} and its group in {chosen.zone}: which cover, or where to?"
    return Menu("Group orders (R-ACT-2)", question, group_options(enc, chosen, catalog))


def action_menu(actor: Combatant, options: list[Option[Any]]) -> Menu:
    """R-ACT-2/5/6: every action with its cost, as the engine checked it
    (:func:`~hsm_tui.table.seat_choices.action_options`); :func:`detail_menu` asks next.
    """
    question = f"{actor.name}: which action? (attacks, moves and cover have their own keys)"
    return Menu("Actions (R-ACT-2)", question, options)


def detail_menu(actor: Combatant, command: TakeAction, options: list[Option[Any]]) -> Menu | None:
    """What the action names (a weapon, a cover, the Escape Artist bonus), as the engine
    checked it (:func:`~hsm_tui.table.seat_choices.detail_options`); None: it names none.
    """
    if not options:
        return None
    if command.action == "break-free":
        question = "Escape Artist bonus (−1 if the grappler was hit this turn, R-ATK-17)"
        return Menu("Break free (R-ATK-17)", question, options)
    if command.action == "hide":
        return Menu("Hide (R-ACT-2)", f"{actor.name} hides: in which cover?", options)
    question = f"{actor.name}: {command.action} which weapon?"
    return Menu(f"{command.action.title()} (R-ACT-5)", question, options)


def declare_menu(enc: Encounter) -> Menu:
    """R-ACT-3: how many actions this turn (each beyond two costs −1 on every action)."""
    options: list[Option[Any]] = list(declare_options(enc))
    question = "How many actions this turn? (Heroes, before the first action)"
    return Menu("Declare actions (R-ACT-3)", question, options)


def end_combat_menu(enc: Encounter) -> Menu:
    """Ending hands the party back and cannot be continued: say who still stands."""
    standing: dict[str, int] = {}
    for c in enc.combatants:
        if c.standing:
            standing[c.side] = standing.get(c.side, 0) + 1
    still = ", ".join(f"{side} {n}" for side, n in standing.items()) or "nobody"
    end = Option("y", "yes: end combat (the party keeps what the fight left)", EndCombat())
    question = f"End combat in round {enc.round}? Still standing: {still}. (u undoes it)"
    return Menu("End combat", question, [end])


def remove_menu(chosen: Combatant) -> Menu:
    """Someone leaves the encounter (fled, added by mistake): y confirms, Esc keeps them."""
    leave = Option("y", f"yes: {chosen.name} leaves", RemoveCombatant(chosen.id))
    question = f"Remove {chosen.name} from the encounter? (u undoes it; Esc keeps it)"
    return Menu("Remove combatant", question, [leave])


def suppress_dialog(
    enc: Encounter, catalog: Catalog, shooter: Combatant, aimed: AttackDraft | None
) -> SuppressDialog | SonicDialog | str:
    """R-ATK-16: the aimed weapon if it can, else the first with a Suppression rating that
    may fire now, at the aimed target if any; a string says why the shooter cannot, before
    a dialog offers the fire. A cone
    weapon (the Sonic Relik) aimed, or the only kind carried, offers its own cone.
    """
    able = suppression_weapons(shooter, catalog)
    sonic = sonic_weapons(shooter, catalog)
    if sonic and (not able or (aimed is not None and aimed.weapon in sonic)):
        return sonic_dialog(enc, catalog, shooter, aimed, sonic)
    if not able:
        return f"{shooter.name} has no weapon with a Suppression rating or a cone"

    def replan(command: Suppress) -> SuppressPlan:
        return plan_suppress(enc, command, catalog)

    cone = (aimed.target,) if aimed else ()
    first = aimed.weapon if aimed and aimed.weapon in able else able[0]
    plans = [replan(Suppress(shooter.id, w, cone)) for w in dict.fromkeys((first, *able))]
    plan = next((p for p in plans if not p.fire_refusal), plans[0])
    if plan.fire_refusal:
        return f"No suppressive fire: {plan.fire_refusal}"
    return SuppressDialog.from_plan(plan, replan)


def sonic_dialog(
    enc: Encounter,
    catalog: Catalog,
    shooter: Combatant,
    aimed: AttackDraft | None,
    sonic: tuple[str, ...],
) -> SonicDialog | str:
    """The Sonic Relik's cone: one charge of the aimed die (`D`, else the first) at the
    aimed target, or the engine's reason it cannot fire now.
    """

    def replan(command: SonicBlast) -> SonicPlan:
        return plan_sonic(enc, command, catalog)

    weapon, choice, cone = sonic[0], 0, tuple[str, ...]()
    if aimed is not None and aimed.weapon in sonic:
        weapon, choice = aimed.weapon, aimed.damage_choice or 0
        cone = (aimed.target,) if aimed.target else ()
    command = SonicBlast(shooter.id, weapon, 1, choice, cone)
    plan = replan(command)
    if plan.fire_refusal:
        return f"No sonic blast: {plan.fire_refusal}"
    return SonicDialog(command, replan)


def pending_dialog(
    pending: Decision, reopen: str = "o"
) -> tuple[ModalScreen[Any], Callable[[Any], Command | None]]:
    """The dialog that answers ``pending``, and how its answer becomes a command (None:
    the GM closed it and the decision still waits; ``reopen`` asks again).
    """
    if isinstance(pending, PendingRerolls | PendingCombatRerolls):  # R-TASK-6: any split
        spend = SpendRerolls if isinstance(pending, PendingRerolls) else SpendCombatRerolls
        purse = (
            (pending.free, pending.luck, pending.clues)
            if isinstance(pending, PendingCombatRerolls)
            else None
        )

        def split(chosen: tuple[int, int] | None) -> Command | None:
            return None if chosen is None else spend(*chosen)

        return RerollDialog(pending, purse=purse, reopen=reopen), split
    title = TITLES.get(type(pending).__name__, "Decision")
    dialog = DecisionDialog(
        title, pending.question, pending.options, reopen=reopen, answers=pending
    )
    return dialog, lambda c: c
