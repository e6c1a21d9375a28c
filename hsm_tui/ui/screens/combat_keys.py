"""The combat screen's keys, one binding per action with an id a user can remap.

The footer shows the turn's usual path (aim, roll, group attack, move, end the turn,
undo); every other key is hidden from it and listed in the command palette and F1.
"""

from __future__ import annotations

from textual.binding import Binding


def _hidden(
    keys: str,
    action: str,
    description: str,
    name: str,
    tooltip: str = "",
    display: str | None = None,
) -> Binding:
    """A key off the footer (the palette and F1 list it), with the id ``combat.name``."""
    return Binding(
        keys,
        action,
        description,
        show=False,
        key_display=display,
        id=f"combat.{name}",
        tooltip=tooltip,
    )


def _aiming(
    keys: str, action: str, description: str, name: str, display: str | None = None
) -> Binding:
    """An attack-option key: it acts on the aimed attack, so its tooltip says "Aiming"."""
    return _hidden(keys, action, description, name, "Aiming", display)


COMBAT_KEYS = [
    Binding("a", "attack", "Attack", id="combat.attack", tooltip="Aim an attack"),
    Binding("enter", "confirm", "Roll", id="combat.confirm", tooltip="Roll / decide"),
    Binding("g", "group", "Group", id="combat.group", tooltip="Whole group attacks"),
    Binding("m", "move(False)", "Move", id="combat.move", tooltip="Move to a zone"),
    Binding("n", "end_turn", "End turn", id="combat.end-turn", tooltip="Next actor"),
    Binding("u", "undo", "Undo", id="combat.undo", tooltip="Undo the last command"),
    _hidden("up", "select(-1)", "Previous", "up"),
    _hidden("down", "select(1)", "Next", "down"),
    _hidden("left", "target(-1)", "Previous target", "left"),
    _hidden("right,t", "target(1)", "Next target", "right"),
    _hidden("w", "weapon", "Next weapon", "weapon"),
    _hidden("escape", "cancel", "Cancel attack", "cancel"),
    # "s" starts combat unless an attack is being aimed (check_action), then: style
    _hidden("s", "start", "Start combat", "start"),
    _aiming("s", "style", "Fighting style", "style"),
    _aiming("k", "called", "Called shot", "called"),
    _aiming("plus,equals_sign", "modifier(1)", "Modifier +1", "plus", "+"),
    _aiming("minus", "modifier(-1)", "Modifier −1", "minus", "-"),
    _aiming("right_square_bracket", "shots(1)", "More shots", "more-shots", "]"),
    _aiming("left_square_bracket", "shots(-1)", "Fewer shots", "fewer-shots", "["),
    _aiming("h", "hand", "Weapon hand", "hand"),
    _aiming("T", "throw", "Throw", "throw"),
    _aiming("G", "grapple", "Grapple", "grapple"),
    _aiming("B", "club", "Gun as a club", "club"),
    _aiming("R", "reaction", "Reaction", "reaction"),
    _aiming("e", "rerolls", "Free re-rolls", "rerolls"),
    _aiming("D", "damage_option", "Damage option", "damage"),
    _hidden("S", "suppress", "Suppressive fire", "suppress", "Pick up to N targets"),
    _hidden("M,r", "move(True)", "Move+Run", "run"),
    _hidden("d", "act('dodge')", "Dodge", "dodge"),
    _hidden("i", "act('aim')", "Aim", "aim"),
    _hidden("f", "act('full-defense')", "Full defense", "full"),
    _hidden("l", "reload", "Reload", "reload"),
    _hidden("p", "act('stand')", "Stand up", "stand"),
    _hidden("A", "action_menu", "Action menu", "actions", "Every action"),
    _hidden("x", "declare", "Declare actions", "declare"),
    _hidden("b", "board", "Range board", "board"),
    _hidden("c", "cover", "Cycle cover", "cover"),
    _hidden("z", "group_orders", "Group orders", "group-orders", "Cover or a move for a group"),
    _hidden("C", "conditions", "Conditions", "conditions"),
    _hidden("P", "pools", "Luck and Clues", "pools"),
    _hidden("F", "fear", "Fear tokens", "fear", "The unit's, or one figure's"),
    _hidden("N", "note", "Note", "note", "The GM's own note on the selected combatant"),
    _hidden("K", "countdown", "Countdown", "countdown", "An effect for some of its turns"),
    _hidden("v", "sheet", "Character sheet", "sheet"),
    _hidden(
        "W", "apply_damage", "Apply damage", "apply-damage", "Damage from a fall, a blast, a trap"
    ),
    _hidden(
        "X,delete", "remove", "Remove combatant", "remove", "Leaves the encounter (asks first)"
    ),
    _hidden("V", "reveal", "Reveal group", "reveal", "Show the players a hidden group"),
    _hidden("J", "dive_policy", "Dive policy", "dive-policy", "A side's Minions dive or not"),
    _hidden("E", "end_combat", "End combat", "end"),
    _hidden("o", "decide", "Answer decision", "decide"),
    _hidden("y", "redo", "Redo", "redo"),
    _hidden("L", "load", "Load example encounter", "load"),
]
"""One key per action; the footer shows the turn's usual path, the palette all."""
