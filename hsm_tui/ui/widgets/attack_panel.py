"""The combat screen's attack panel: the attack being aimed with the engine's exact
preview (R-ATK-2), or before aiming what the selected combatant carries and can do.

The panel keeps the draft (what the GM is aiming, not game state) and steps its
options; the screen sets the session's facts on it with :meth:`AttackPanel.show` and
redraws the rest on :class:`AttackPanel.Changed`. The preview is drawn when the panel
is painted, from a plan computed once per draft and encounter: a key press computes
the engine's plan once, and never for a draft that is about to be dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from rich.text import Text
from textual.message import Message
from textual.widget import Widget

from ...campaign.combat import (
    AttackPlan,
    Hand,
    action_refusal,
    firepower,
    nearest_enemies,
    off_hand_weapons,
    plan_attack,
    pools_refusal,
    ready_weapon,
    weapon_style,
    within_charges,
)
from ...campaign.encounter import Combatant, Encounter
from ...packs.model import Catalog
from ...rules import Rank, RulesError
from ...table.views import unhurt
from .attack_draft import AttackDraft
from .combatants import wound_text
from .labels import fit
from .marks import spelled_marks
from .repaint import retitle

if TYPE_CHECKING:
    from ...table.session import Decision

OPTION_KEYS = "s k ± [ ] h T G R e D"
"""The attack-option keys, as the panel's hint shows them."""

NO_ENCOUNTER = (
    "L loads the example (dig-site ambush);",
    "F7 builds your own: zones, bands, foes,",
    "and p there adds the party (heroes: F8).",
    "Then s starts combat (rolls initiative).",
)
"""What the panel says before any encounter is set up."""


def target_wounds(c: Combatant) -> str:
    """`` · unhurt`` or `` · wounds −1`` (the table's Wnd column) after the target's name,
    so the GM aiming sees what one more wound does without finding its row.
    """
    return " · unhurt" if unhurt(c) else f" · wounds {wound_text(c)}"


def pools_text(c: Combatant) -> str:
    """`` · Luck 2 · Clues 1`` for a Hero, what its re-rolls can still spend (R-CHAR-9);
    "" for whoever has no pools.
    """
    try:
        return "" if pools_refusal(c) else f" · Luck {c.luck} · Clues {c.clues}"
    except RulesError:  # a Sidekick whose rules are not decided yet (R-CHAR-8)
        return ""


def down_reason(c: Combatant) -> str:
    """Why a combatant no longer acts, in the table's words (R-WOUND-1/2/5)."""
    if c.out:
        return "dead" if Rank.HERO in (c.rank, c.plays_as) else "taken out"
    return "unconscious"


class AttackPanel(Widget):
    """The aimed attack and its odds, or the selected combatant's weapons and actions."""

    class Changed(Message):
        """The draft changed (aimed, retargeted, an option stepped, cancelled): the
        screen marks the new target in the table and widens the panel while aiming.
        """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.draft: AttackDraft | None = None
        """The attack being aimed, or None when not aiming."""
        self._enc = Encounter(zones=())
        self._catalog = Catalog()
        self._pending: Decision | None = None
        self._chosen: Combatant | None = None
        self._planned: tuple[Encounter, Catalog, AttackDraft, AttackPlan | str] | None = None
        self._drawn: tuple[int, Text] | None = None  # the width it was worked out for

    # -- attributes down ------------------------------------------------------------
    def show(
        self, enc: Encounter, catalog: Catalog, pending: Decision | None, chosen: Combatant | None
    ) -> None:
        """The session's facts to draw from; the draft stays only while it still makes
        sense (its attacker selected and standing; a fallen target gives way to the
        nearest enemy).
        """
        self._enc, self._catalog, self._pending, self._chosen = enc, catalog, pending, chosen
        draft = self.draft
        if draft is not None:
            ids = {c.id for c in enc.combatants}
            attacker = enc.get(draft.attacker) if draft.attacker in ids else None
            selected = chosen.id if chosen is not None else None
            if attacker is None or not attacker.standing or attacker.id != selected:
                self.draft = None
            elif draft.target not in ids or not enc.get(draft.target).standing:
                targets = nearest_enemies(enc, attacker)
                self.draft = replace(draft, target=targets[0].id) if targets else None
        if self.draft is not None:
            retitle(
                self,
                "Attack — Enter rolls · Esc cancels",
                f"←→ target · w weapon · options {OPTION_KEYS}",
            )
        else:
            retitle(self, "Attack", "")
        # Not aiming, the panel's text is worked out now and repainted only if it changed
        # (most changes of the session leave it as it was); an aim's plan waits for the
        # paint, so a draft that a command is about to clear is never planned.
        drawn = (self.content_size.width, self._text()) if self.draft is None else None
        if drawn is None or drawn != self._drawn:
            self._drawn = drawn
            self.refresh()  # a fixed box: no layout pass, which would redraw everything

    # -- aiming (messages up) -------------------------------------------------------
    def _set(self, draft: AttackDraft | None) -> None:
        self.draft = draft
        self.post_message(self.Changed())

    def aim(self, attacker: Combatant) -> None:
        """``a``: the nearest standing enemy, the first weapon in hand, as many shots as
        its charges pay for (R-ATK-3); right after a main-hand attack, the off hand's
        weapon (R-ATK-11).
        """
        if not attacker.standing:
            why = down_reason(attacker)
            self.notify(f"{attacker.name} is {why}: no attack", severity="warning")
            return
        weapon = ready_weapon(attacker)
        if weapon is None:
            self.notify(f"{attacker.name} carries no weapon", severity="warning")
            return
        targets = nearest_enemies(self._enc, attacker)
        if not targets:
            self.notify(f"{attacker.name} has no standing enemy to attack", severity="warning")
            return
        draft = AttackDraft(attacker.id, targets[0].id, weapon.id)
        others = off_hand_weapons(self._enc, attacker, self._catalog)
        if others:  # R-ATK-11: the main hand attacked; what is left is the off hand's
            draft = replace(draft.with_weapon(others[0]), hand=Hand.OFF)
        self._set(self._fitted(draft))

    def retarget(self, delta: int) -> None:
        """The next (or previous) standing enemy, nearest first."""
        if self.draft is None:
            return
        attacker = self._enc.get(self.draft.attacker)
        targets = [c.id for c in nearest_enemies(self._enc, attacker)]
        if targets:
            index = targets.index(self.draft.target) if self.draft.target in targets else -delta
            self._set(replace(self.draft, target=targets[(index + delta) % len(targets)]))

    def next_weapon(self) -> None:
        if self.draft is None:
            self.notify("Press a to aim an attack first")
            return
        weapons = [w.id for w in self._enc.get(self.draft.attacker).weapons]
        index = weapons.index(self.draft.weapon)
        self._set(self._fitted(self.draft.with_weapon(weapons[(index + 1) % len(weapons)])))

    def cancel(self) -> None:
        if self.draft is not None:
            self._set(None)

    def change(self, step: Callable[[AttackDraft], AttackDraft | None]) -> None:
        """One option key: ``step`` gives the new draft, or None once it said why not."""
        if self.draft is None:
            self.notify("Press a to aim an attack first", severity="warning")
            return
        changed = step(self.draft)
        if changed is not None:
            self._set(changed)

    # -- option steps that ask the engine (R-ATK-1, R-ATK-3) -------------------------
    def melee_style(self, draft: AttackDraft) -> AttackDraft | None:
        weapon = self._catalog.weapons.get(draft.weapon)
        if draft.grapple or weapon is None or weapon.kind != "melee":
            self.notify("Fighting styles are for melee weapons (w picks one, R-ATK-1)")
            return None
        return draft.next_style(draft.style or weapon_style(weapon).value)

    def shots(self, draft: AttackDraft, delta: int) -> AttackDraft | None:
        """R-ATK-3: 1 to the rate of fire, also while the aim is refused (charges short)."""
        rate = self.rate(draft)
        if rate is None:  # dropped, stuck, not a throwing weapon …: `[` cannot fix that
            self.notify("This weapon cannot fire now: the panel says why", severity="warning")
            return None
        if rate == 1:
            self.notify("This attack has a single shot (rate of fire 1)")
            return None
        return draft.with_shots(delta, rate)

    def hand(self, draft: AttackDraft) -> AttackDraft:
        """``h``: the next hand (R-ATK-11); the off hand takes a weapon the engine lets it
        use, so the preview shows that attack rather than a refusal of the main hand's.
        """
        stepped = draft.next_hand()
        if stepped.hand == Hand.OFF:
            attacker = self._enc.get(draft.attacker)
            others = off_hand_weapons(self._enc, attacker, self._catalog)
            if others and stepped.weapon not in others:
                stepped = replace(stepped.with_weapon(others[0]), hand=Hand.OFF)
        return self._fitted(stepped)

    def thrown(self, draft: AttackDraft) -> AttackDraft:
        return self._fitted(draft.toggled_throw())

    def damage_option(self, draft: AttackDraft) -> AttackDraft | None:
        weapon = self._catalog.weapons.get(draft.weapon)
        count = len(weapon.damage_options) if weapon else 0
        if not count:
            self.notify("This weapon's card has one damage only")
            return None
        return draft.next_damage(count)

    def rate(self, draft: AttackDraft) -> int | None:
        """All the shots the weapon fires in this attack, even while the aim is refused."""
        try:
            return firepower(self._enc, draft.command(), self._catalog).rate
        except RulesError:
            return None

    def _fitted(self, draft: AttackDraft) -> AttackDraft:
        """An aim starts at the shots the weapon's charges pay for (R-ATK-3)."""
        try:
            fitted = within_charges(self._enc, draft.command(), self._catalog)
        except RulesError:
            return draft  # the weapon cannot be used: the panel says why
        return replace(draft, shots=fitted.shots)

    # -- drawing --------------------------------------------------------------------
    def render(self) -> Text:
        """The text :meth:`show` worked out, or anew (aiming, or a new width)."""
        width = self.content_size.width
        if self._drawn is None or self._drawn[0] != width:
            self._drawn = (width, self._text())
        return self._drawn[1]

    def _text(self) -> Text:
        lines: list[str | Text] = []
        if self._pending is not None:
            lines.append(Text(f"⚠ Waiting: {self._pending.question}", style="bold"))
            lines.append(Text("Enter or o answers", style="dim"))
        lines += self._summary() if self.draft is None else self._aim_lines(self.draft)
        return Text("\n").join(Text(x) if isinstance(x, str) else x for x in lines)

    def plan(self, draft: AttackDraft) -> AttackPlan | str:
        """The engine's plan for ``draft`` (or its refusal), once per draft and encounter."""
        enc, catalog, planned = self._enc, self._catalog, self._planned
        if planned and planned[0] is enc and planned[1] is catalog and planned[2] == draft:
            return planned[3]
        try:
            plan: AttackPlan | str = plan_attack(enc, draft.command(), catalog)
        except RulesError as err:
            plan = str(err)
        self._planned = (enc, catalog, draft, plan)
        return plan

    def _aim_lines(self, draft: AttackDraft) -> list[str | Text]:
        """The options line, then the engine's own preview (or its refusal, R-ATK-2)."""
        enc = self._enc
        plan = self.plan(draft)
        options = draft.options(self.rate(draft) if draft.shots else None)
        line = Text.assemble(("Options: ", "dim"))
        if options:
            line.append(" · ".join(options), style="bold")
        else:
            line.append("none (plain attack)", style="dim")
        pools, width = pools_text(enc.get(draft.attacker)), self.content_size.width
        if not width or line.cell_len + len(pools) <= width:  # never a line more: odds first
            line.append(pools, style="dim")
        if isinstance(plan, str):
            hint = self._charge_hint(draft)
            return [line, Text(f"✗ cannot attack: {plan}", style="bold"), *hint]
        head, *rest = plan.preview(enc)
        heads = self._head_lines(plan, head, target_wounds(plan.target))
        blocked = action_refusal(enc, draft.command())  # R-ACT-1: before Enter, not on it
        if blocked:
            return [line, *heads, Text(f"✗ cannot attack: {blocked}", style="bold")]
        return [line, *heads, *rest]

    def _charge_hint(self, draft: AttackDraft) -> list[str | Text]:
        """The keys out of a charge refusal (R-ATK-3): fewer shots, reload, another weapon."""
        try:
            fire = firepower(self._enc, draft.command(), self._catalog)
        except RulesError:
            return []
        if fire.paid >= (draft.shots or fire.rate):
            return []
        if fire.paid:
            return [Text(f"[ fires fewer: up to {fire.paid} shot(s)", style="dim")]
        reload = "l reloads it (2 actions) · " if fire.weapon.reload else ""
        return [Text(f"{reload}w picks another weapon", style="dim")]

    def _head_lines(self, plan: AttackPlan, head: str, wounds: str) -> list[Text]:
        """The engine's first preview line and the target's wounds; at a narrow panel
        the same facts with the target's name shortened (it is marked ◎ in the table),
        the wounds on a line of their own when the name would shrink past reading, so
        the odds and the wounds stay in view.
        """
        width = self.content_size.width
        lines = [head + wounds]
        if width and len(lines[0]) > width:
            what = f"{plan.weapon.name} ({plan.style.value}, {plan.dice} d10), "
            what += f"{plan.band.label} at "
            name = plan.target.name
            room = width - len(what) - len(wounds)
            if room >= 8:
                lines = [what + fit(name, room) + wounds]
            else:
                own = "◎ target" + wounds
                lines = [what + fit(name, max(8, width - len(what))), own]
        return [Text(line, style="bold") for line in lines]

    def _summary(self) -> list[str | Text]:
        """What the selected combatant is under, carries and can do, before aiming."""
        enc, chosen = self._enc, self._chosen
        if not enc.combatants:
            return [Text("No encounter yet.", style="bold"), *NO_ENCOUNTER]
        if chosen is None:
            return []
        lines: list[str | Text] = [Text(chosen.name + pools_text(chosen), style="bold")]
        if chosen.note:  # the GM's own words (N), one line: the panel is short at 80×24
            note = Text(chosen.note, style="italic")
            note.truncate((self.content_size.width or len(note) + 5) - 5, overflow="ellipsis")
            lines.append(Text.assemble(("Note ", "dim"), note))
        mine = enc.turn is not None and chosen.group == enc.turn.actor
        spelled = spelled_marks(chosen, bool(enc.in_melee_with(chosen)), mine)
        if spelled:  # every mark: the table's Cond. cell may show only the gravest
            lines.append(Text.assemble(("Cond. ", "dim"), " · ".join(spelled)))
        for state in chosen.weapons:
            weapon = self._catalog.weapons.get(state.id)
            name = weapon.name if weapon else state.id
            charges = "" if state.charges is None else f" {state.charges}/{state.power}"
            empty = " empty" if state.charges == 0 else ""
            lost = " dropped (A: interact)" if state.dropped else " stuck" if state.stuck else ""
            lines.append(f"  {name}{charges}{empty}{lost}")
        if not chosen.standing:
            why = down_reason(chosen)
            lines.append(Text(f"{why}: cannot act" + (" (n ends its turn)" if mine else ""), "dim"))
        elif enc.turn is not None and mine:
            left = enc.turn.left(chosen.id)
            used = ", ".join(enc.turn.used_by(chosen.id)) or "nothing yet"
            lines.append(f"{left} action(s) left · used: {used}")
        elif enc.active:
            lines.append(Text("not its turn (n ends the turn)", style="dim"))
        else:
            lines.append(Text("s starts combat", style="dim"))
        return lines
