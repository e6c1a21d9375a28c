"""Damage the GM rolled outside an attack (a fall R-OTHER-6, a blast, a trap) for one
combatant: the amount, checked as it is typed, and whether it is non-lethal.

Returns an ``ApplyDamage`` command; the engine applies the wound steps (R-DMG-2) to the
tracks (R-WOUND), refuses what the rules forbid and asks for the chart when one is due.
The preview is the engine's own ``damage_outcome``, the line the handler then logs, so
the two cannot disagree.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.validation import Integer
from textual.widgets import Input, Label, Static

from ...campaign.combat import ApplyDamage, damage_outcome
from ...campaign.encounter import Combatant
from ...rules import Derived
from ...rules.errors import RulesError
from ..widgets.keybar import KeyBar
from ..widgets.stepper import Stepper, focus_arrows
from .conditions_dialog import choices
from .help_text import HelpText
from .stepper_dialog import Rechecked

MOST = 99
"""The largest amount the dialog takes (a fall is d6 per 20 ft, R-OTHER-6)."""

WHOLE = f"a whole number 0–{MOST}"
"""What the amount field wants, shown beside it while the text is not that."""


class DamageDialog(Rechecked[ApplyDamage | None]):
    """Type the damage, toggle non-lethal, Enter applies it to the combatant."""

    CSS_PATH = "../styles/combat.tcss"
    HELP = HelpText(__name__, whole=WHOLE)

    BINDINGS = [
        Binding("enter", "apply", "Apply damage", priority=True, id="damage.apply"),
        Binding("ctrl+n,ctrl+l", "toggle", "Non-lethal", id="damage.nonlethal"),
        Binding("escape", "dismiss(None)", "Cancel", id="damage.cancel"),
        Binding("f1", "app.help", "Help", id="damage.help"),
        *focus_arrows(),
    ]
    """Enter applies (even from the typing field), ctrl+n or ctrl+l (a browser keeps
    ctrl+n for a new window) toggles non-lethal, Esc leaves; F1 only, as ``?`` is typed
    into the field."""

    def __init__(self, combatant: Combatant) -> None:
        super().__init__()
        self.combatant = combatant
        self.health = combatant.traits[Derived.HEALTH]
        self.stamina = combatant.traits[Derived.STAMINA]

    def compose(self) -> ComposeResult:
        with Vertical(id="damage-box", classes="dialog-box"):
            title = Text.assemble((f"Damage to {self.combatant.name}", "bold"), " (R-OTHER-6)")
            yield Label(title, id="damage-title")
            yield Static(f"Health {self.health} · Stamina {self.stamina}", id="damage-traits")
            with Horizontal(id="damage-row"):
                yield Label("Damage", id="damage-label")
                yield Input(
                    placeholder=f"0–{MOST}",
                    id="damage-amount",
                    compact=True,
                    valid_empty=True,
                    validators=[Integer(minimum=0, maximum=MOST, failure_description=WHOLE)],
                )
                yield Static(id="damage-message", markup=False)
            yield Stepper("Non-lethal", choices(leveled=False), 0, id="damage-nonlethal")
            yield Static(id="damage-preview", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#damage-amount").focus()
        self.show_check()

    @property
    def nonlethal(self) -> bool:
        return bool(self.query_one("#damage-nonlethal", Stepper).value)

    def amount(self) -> int | None:
        """The damage typed, or None while the field is empty or not a whole number 0–99."""
        field = self.query_one("#damage-amount", Input)
        if not field.value:
            return None
        result = field.validate(field.value)
        return int(field.value) if result is None or result.is_valid else None

    def show_check(self, insist: bool = False) -> None:
        """The message beside the field and the wound steps the amount would cause;
        an empty field is only a problem once Enter was pressed (``insist``)."""
        amount = self.amount()
        problem = amount is None and (insist or bool(self.query_one("#damage-amount", Input).value))
        message = self.query_one("#damage-message", Static)
        message.set_class(problem, "-error")
        message.update(f"✗ {WHOLE}" if problem else "" if amount is None else "✓ Enter applies")
        self.query_one("#damage-preview", Static).update(self._outcome(amount))

    def _outcome(self, amount: int | None) -> str:
        if amount is None:
            track, value = ("Stamina", self.stamina) if self.nonlethal else ("Health", self.health)
            return f"Measured against {track} {value} (R-DMG-2)"
        try:
            result, line = damage_outcome(self.combatant, amount, self.nonlethal)
        except RulesError as err:
            return f"✗ {err}"
        return line + ("\nEnter rolls the Severe Wound chart (R-WOUND-5)" if result.severe else "")

    def action_toggle(self) -> None:
        stepper = self.query_one("#damage-nonlethal", Stepper)
        stepper.value = 1 - stepper.value

    def action_apply(self) -> None:
        amount = self.amount()
        if amount is None:
            self.show_check(insist=True)
            self.query_one("#damage-amount").focus()
            return
        self.dismiss(ApplyDamage(self.combatant.id, amount, nonlethal=self.nonlethal))
