"""F1 help overlay: the current screen's keys and the quick reference a GM needs."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from ..widgets.keybar import KeyBar

QUICK_REFERENCE = """\
### Target number (R-TASK-1)
Two traits (or one doubled) + one skill + 1 for a Talent − the **largest** difficulty
(light 1, medium 2, heavy 3). Wound (−1/−2), condition, range and extra-action
modifiers **add**.

### Rolling (R-TASK-2..6)
d10 ≤ TN succeeds; a natural 10 always fails. TN ≤ 0: Minions fail; a Hero needs
d10 = 1 and Hero die ≥ 2 − TN. Hero die: 1 ✗ Misfortune, 4/5 ◆ Special, 6 ★ Fortune.
Re-rolls are split between d10 and Hero die after the roll, rolled at once, best kept.

### Strength die (R-ATK-1)
Strength 1 d4 · 2 d6 · 3 d8 · 4 d10 · 5 d12

### Actions (R-ACT-1..6)
Two per turn, never the same twice. Move (half a band: toward a farther zone it stops
halfway, and the next Move completes the band) · Run (with Move: one band) ·
Attack · Task · Interact · Aim (1 free re-roll) · Dodge (re-roll Defense) · Standby (act
when someone comes within Short) · Misc. Heroes may declare more: every action at
−(N − 2). Reload 2 actions · Full defense (Heroes) 2 actions, Dodge +2 · Stand up 1.

### Fighting styles (R-ATK-1)
**Wild**: Agility + 1 attacks; no Dodge, Aim, Standby or Interact that turn.
**Power**: 1 attack, a hit adds the Strength die. **Agile**: Agility attacks.
**Throw**: Agile rating, Short = Strength × 10 ft, Strength d6 − 1 die per band past Short.

### Attacks (R-ATK-2..17)
Range: −1 per band past the weapon's. Called shot −3 ranged / −2 melee (head +d8,
limb: Stamina − damage). Two one-handed weapons −2 / −3. Shooting in melee: pistol
−1, rifle −2. Size ±1 per category. Each hit: 1 Fear; Defense d10 per hit, a die
**above** Dodge + cover (a Hero's wound marker and Shaken count) lets it through; each
hit through: damage and 1 more Fear.

### Cover (R-ATK-6)
none 0 · light +1 · medium +2 · heavy +3 to Defense, against melee blows too: the book's
Defense is "Dodge rating, plus any cover" for every attack (Dodge 5 in heavy cover: 8
against a dagger). Where the cover does not stand between the fighters, `c` takes it
off. Dive for cover (ranged only, in the open or to better cover): take it, go Prone,
lose 1 action next turn.

### Wounds (R-DMG, R-WOUND)
A wound step each time damage exceeds another multiple of Health. Heroes: −1, −2,
then severely wounded (chart: d10 + overflow + 2 × earlier severe wounds). Minions:
out at the first wound. Each wound: lose 1 action next turn.

### Fear and conditions (§8)
Turn start: Fear ≥ Morale → Minion Shaken, Hero rolls Morale; then −1 Fear.
**Shaken** −1 and loses an action · **Panicked** only Move/Run/Hide, Morale at turn end ·
**Pinned** Morale roll to act exposed · **Prone** stand up costs an action ·
**Dazed (n)** loses n actions · **Confused** Savvy + Senses − 1 or only Run/Hide ·
**Encumbered (n)** −n · **Fatigued** confirm successes · **Bleeding** Stamina each turn ·
**Nauseated** d10 vs Stamina − 1 or −1.
"""


class HelpScreen(ModalScreen[None]):
    """Keys of the screen underneath plus the quick-reference tables."""

    CSS_PATH = "../styles/help.tcss"

    BINDINGS = [Binding("escape,f1,q,question_mark", "dismiss", "Close help", id="help.close")]
    """Esc, F1, q or ? closes the overlay."""

    def __init__(self, screen_help: str, screens: str = "") -> None:
        super().__init__()
        self.screen_help = screen_help
        self.screens = screens

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Markdown(
                "*Esc, F1 or q closes this help; ↑ ↓ PgUp PgDn scroll.*\n\n"
                + "\n".join((self.screen_help, self.screens, QUICK_REFERENCE))
            )
        yield KeyBar()
