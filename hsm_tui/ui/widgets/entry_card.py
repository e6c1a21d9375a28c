"""Rich renderings of catalog entries: weapon cards, character sheets, the chart."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...packs import Catalog, Character, PackInfo, Problem, SevereWound, Weapon
from ...rules import Derived, Rating, Trait
from ...rules.effects import Trigger

FACE_MARKS = {
    Trigger.SPECIAL_4: "◆ 4",
    Trigger.SPECIAL_5: "◆ 5",
    Trigger.FORTUNE: "★ 6",
    Trigger.MISFORTUNE: "✗ 1",
}


#: Three letters each, so both rows fit a card at 80 columns.
ABBREVIATIONS = {
    "strength": "Str", "agility": "Agi", "knowledge": "Kno", "savvy": "Sav", "senses": "Sen",
    "charm": "Cha", "luck": "Lck", "health": "Hlt", "stamina": "Sta", "morale": "Mor",
    "dodge": "Ddg", "initiative": "Ini", "athletics": "Ath", "learning": "Lrn",
}  # fmt: skip


def _title(name: str, subtitle: str) -> Text:
    return Text.assemble((name, "bold"), "\n", (subtitle, "dim"))


def _facts(rows: list[tuple[str, str]]) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", no_wrap=True, min_width=11)
    table.add_column()
    for label, value in rows:
        if value:
            table.add_row(label, value)
    return table


def weapon_card(weapon: Weapon) -> RenderableType:
    """The card as the rulebook prints it, plus who applies each effect."""
    charges = ""
    if weapon.power is not None:
        charges = f"{weapon.power}" + ("" if weapon.recharge else ", no recharge")
        charges += ", reload refills" if weapon.reload else ""
    damage = str(weapon.damage) + (" non-lethal" if weapon.nonlethal else "")
    if weapon.damage_options:
        damage += " (pick: " + ", ".join(map(str, weapon.damage_options)) + ")"
    facts = _facts(
        [
            ("Attacks", str(weapon.attacks) if weapon.attacks else "by fighting style"),
            ("Damage", damage),
            ("Thrown", str(weapon.thrown_damage) if weapon.thrown_damage else ""),
            ("Range", weapon.range.label),
            ("Power", charges),
            ("Suppression", str(weapon.suppression) if weapon.suppression else ""),
            ("Area", weapon.area or ""),
            ("Hands", "two-handed" if weapon.two_handed else ""),
        ]
    )
    effects = Table.grid(padding=(0, 1))
    effects.add_column(no_wrap=True)
    effects.add_column()
    same_specials = weapon.effects_on(Trigger.SPECIAL_4) == weapon.effects_on(Trigger.SPECIAL_5)
    for trigger in Trigger:
        if trigger is Trigger.SPECIAL_5 and same_specials:
            continue
        mark = "◆ 4/5" if trigger is Trigger.SPECIAL_4 and same_specials else FACE_MARKS[trigger]
        for effect in weapon.effects_on(trigger):
            who = "" if effect.kind.automated else " [GM]"
            effects.add_row(mark, effect.describe() + who)
    parts: list[RenderableType] = [
        _title(weapon.name, f"{weapon.kind} · {weapon.skill.value} · {weapon.qualified_id}"),
        facts,
    ]
    if effects.row_count:
        parts += [Text("Hero die", style="bold underline"), effects]
    if weapon.text:
        parts.append(Text(weapon.text, style="italic"))
    return Group(*parts)


def character_sheet(character: Character, catalog: Catalog) -> RenderableType:
    """Traits, derived traits (R-CHAR-3), ratings, weapons and the sheet's lists."""
    traits = Table(*[ABBREVIATIONS[t.value] for t in Trait], box=None, padding=(0, 1))
    traits.add_row(*[str(character.traits[t]) for t in Trait])
    derived = Table(*[ABBREVIATIONS[d.value] for d in Derived], box=None, padding=(0, 1))
    derived.add_row(*[str(character.traits[d]) for d in Derived])
    ratings = " · ".join(
        f"{r.value} {character.ratings[r]}" for r in Rating if character.ratings[r]
    )
    weapons = ", ".join(catalog.weapons[w].name for w in character.weapons if w in catalog.weapons)
    rank = character.rank.value.title()
    facts = _facts(
        [
            ("Ratings", ratings or "—"),
            ("Weapons", weapons),
            ("Skills", ", ".join(f"{n} {v}" for n, v in character.skills)),
            ("Talents", ", ".join(character.talents)),
            ("Advantages", ", ".join(character.advantages)),
            ("Drawbacks", ", ".join(character.drawbacks)),
            ("Equipment", ", ".join(f"{e.name} ({e.enc})" for e in character.equipment)),
            ("Size", f"{character.size:+d}" if character.size else ""),
            ("Career", character.career),
            ("Motivation", character.motivation),
            ("Tags", ", ".join(character.tags)),
        ]
    )
    parts: list[RenderableType] = [
        _title(character.name, f"{rank} · {character.qualified_id}"),
        Text("Traits", style="bold underline"),
        traits,
        Text("Derived", style="bold underline"),
        derived,
        facts,
    ]
    if character.text:
        parts.append(Text(character.text, style="italic"))
    return Group(*parts)


def chart_table(
    rows: tuple[SevereWound, ...], pack: str | None, selected: str | None = None
) -> RenderableType:
    """§7: roll d10 + overflow + 2 × earlier severe wounds; ``selected`` is marked ▶."""
    table = Table("roll", "result", box=None, padding=(0, 1), expand=True)
    for row in rows:
        span, mark = row.span, row.mark
        pointer = "▶ " if row.id == selected else ""
        table.add_row(
            pointer + span,
            Text.assemble((row.name + mark, "bold reverse" if pointer else "bold"), "\n", row.text),
        )
    note = Text(
        "d10 + damage past Health + 2 × earlier severe wounds; on a 13 the GM picks.", style="dim"
    )
    return Group(_title("Severe Wound chart", f"from pack {pack}"), note, table)


def pack_card(pack: PackInfo, catalog: Catalog) -> RenderableType:
    counts = [
        f"{sum(e.source.pack == pack.id for e in catalog.kind(k).values())} {k}"
        for k in ("weapons", "minions", "sidekicks", "heroes")
    ]
    return Group(
        _title(pack.name, f"{pack.id} {pack.version}"),
        _facts(
            [
                ("Contents", ", ".join(counts)),
                ("Requires", ", ".join(pack.requires) or "nothing"),
                ("Author", pack.author),
                ("Folder", pack.path),
            ]
        ),
        Text(pack.description, style="italic"),
    )


def problem_card(problem: Problem) -> RenderableType:
    mark = "✗ error" if problem.is_error else "! warning"
    return Group(
        Text(mark, style="bold red" if problem.is_error else "bold yellow"),
        _facts(
            [
                ("File", f"{problem.path}:{problem.line}"),
                ("Entry", problem.entry or ""),
                ("Key", problem.key or ""),
                ("Kind", problem.code.value),
            ]
        ),
        Text(problem.message),
    )
