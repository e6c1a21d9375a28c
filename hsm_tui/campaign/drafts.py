"""A Hero's sheet as a draft its player fills in (over SSH, in the same builder as the
GM's): the GM opens the draft, the player keeps it as often as they like and sends it,
the GM approves it (the Hero grows by it, one logged change) or returns it with a note.

What a player sends never leaves their Hero: a draft is of one party Hero, its kind and
id stay, and only the seat that plays that Hero (or the GM) keeps it. A draft opened to
*make* a Hero is held to the campaign's trait budget when it is sent, as a new
character is; one opened to *grow* a Hero is not (experience, not creation).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..packs.model import Catalog
from ..packs.problems import Code
from ..rules import RulesError
from .making import MAX_TEXT, MadeCharacter, MakeCharacter, check, from_entry, points_left

GM = "gm"
MAX_ITEMS = 60
"""The most skills, Talents, Advantages, Drawbacks, weapons or items a kept draft lists:
a sheet is a page, and a player's draft goes into the campaign file."""


@dataclass(frozen=True)
class Draft:
    """A party Hero's sheet while its player fills it in: ``sheet`` as last kept,
    ``sent`` once the player asks for approval, ``note`` the GM's word on returning it,
    ``makes``: opened to make the Hero (the trait budget holds), not to grow it."""

    hero: str
    sheet: MadeCharacter
    makes: bool = False
    sent: bool = False
    note: str = ""


@dataclass(frozen=True)
class OpenDraft:
    """The GM hands ``hero``'s sheet to its player to fill in (``makes``: a new Hero)."""

    hero: str
    makes: bool = False
    issuer: str = GM


@dataclass(frozen=True)
class KeepDraft:
    """The draft of ``sheet.id`` as its player (or the GM) has it now; ``send`` asks the
    GM to approve it; keeping a sent draft takes it back to change it."""

    sheet: MadeCharacter
    send: bool = False
    issuer: str = GM


@dataclass(frozen=True)
class ReturnDraft:
    """The GM hands a sent draft back to its player, saying why in ``note`` (the draft
    keeps it, for its player and the GM: the table's log says only that it went back)."""

    hero: str
    note: str
    issuer: str = GM


@dataclass(frozen=True)
class ApproveDraft:
    """The Hero becomes its draft (one grown step, each change a line); the draft ends."""

    hero: str
    issuer: str = GM


@dataclass(frozen=True)
class CloseDraft:
    """The GM takes the sheet back; the Hero stays as it was."""

    hero: str
    issuer: str = GM


DraftCommand = OpenDraft | KeepDraft | ReturnDraft | ApproveDraft | CloseDraft


def draft_of(drafts: Iterable[Draft], hero: str) -> Draft | None:
    return next((d for d in drafts if d.hero == hero), None)


def who(issuer: str) -> str:
    """A command's issuer as a log title names it: ``player:kara`` → Kara, ``gm`` → GM."""
    return "GM" if issuer == GM else issuer.partition(":")[2].title()


def sheet_problems(sheet: MadeCharacter, catalog: Catalog, draft: Draft, budget: int) -> list[str]:
    """What keeps ``sheet`` from being sent for approval: the packs' own check's errors,
    then the budget for a draft that makes its Hero."""
    _character, problems = check(sheet, catalog)
    found = [p.message.split(": ", 1)[-1] for p in problems if p.is_error]
    left = points_left(sheet, budget) if draft.makes else None
    if left is not None and left < 0:
        found.append(f"{sum(sheet.traits)} trait points: the budget is {budget}")
    return found


def sketched(drafts: Iterable[Draft], sheet: MadeCharacter, catalog: Catalog) -> Draft:
    """The open draft ``sheet`` is typed on; refused as keeping it would be."""
    draft = draft_of(drafts, sheet.id)
    if draft is None:
        raise RulesError(f"{sheet.name or sheet.id}'s sheet is not a draft now")
    _kept(sheet, draft, catalog)
    return draft


def _kept(sheet: MadeCharacter, draft: Draft, catalog: Catalog) -> None:
    """Refuse a sheet that is not this draft's Hero, or too big to keep; a sheet with
    other problems is kept (a draft is work in progress) and refused only when sent."""
    if (sheet.kind, sheet.id) != ("hero", draft.hero):
        raise RulesError(f"a draft keeps its own Hero's sheet ({draft.hero}), nobody else's")
    lists = ("skills", "talents", "advantages", "drawbacks", "weapons", "equipment", "ratings")
    for key in lists:
        if len(getattr(sheet, key)) > MAX_ITEMS:
            raise RulesError(f"{key}: at most {MAX_ITEMS} on a sheet")
    _character, problems = check(sheet, catalog)
    too_long = next(
        (p for p in problems if p.code is Code.RANGE and "characters" in p.message), None
    )
    if too_long is not None:
        raise RulesError(too_long.message.split(": ", 1)[-1])


def apply(
    drafts: tuple[Draft, ...],
    sheets: dict[str, MadeCharacter],
    budget: int,
    cmd: DraftCommand,
    catalog: Catalog,
) -> tuple[tuple[Draft, ...], MakeCharacter | None, str]:
    """The drafts with ``cmd`` applied, the growth an approval brings (for the campaign
    to apply as its own change), and the log title; else RulesError. ``sheets``: each
    party Hero's sheet now, by id."""
    hero = cmd.sheet.id if isinstance(cmd, KeepDraft) else cmd.hero
    if hero not in sheets:
        raise RulesError(f"no Hero {hero!r} in the party")
    name = sheets[hero].name
    draft = draft_of(drafts, hero)
    if isinstance(cmd, OpenDraft):
        if draft is not None:
            raise RulesError(f"{name}'s sheet is already a draft")
        what = "to make" if cmd.makes else "to grow"
        opened = Draft(hero, sheets[hero], makes=cmd.makes)
        return (*drafts, opened), None, f"{name}'s sheet goes to its player {what}"
    if draft is None:
        raise RulesError(f"{name}'s sheet is not a draft (F8 D opens one)")
    others = tuple(d for d in drafts if d is not draft)
    if isinstance(cmd, CloseDraft):
        return others, None, f"{name}'s draft is withdrawn; the sheet stays as it was"
    if isinstance(cmd, KeepDraft):
        _kept(cmd.sheet, draft, catalog)
        if cmd.send:
            problems = sheet_problems(cmd.sheet, catalog, draft, budget)
            if problems:
                raise RulesError(f"not ready to send: {problems[0]}")
        kept = replace(draft, sheet=cmd.sheet, sent=cmd.send, note="" if cmd.send else draft.note)
        verb = "sends" if cmd.send else "takes back" if draft.sent else "keeps"
        tail = " to the GM for approval" if cmd.send else " to change it" if draft.sent else ""
        return (*others, kept), None, f"{who(cmd.issuer)} {verb} {name}'s draft{tail}"
    if isinstance(cmd, ReturnDraft):
        note = " ".join(cmd.note.split())
        if not note or len(note) > MAX_TEXT:
            raise RulesError(f"say why in a note of 1 to {MAX_TEXT} characters")
        back = replace(draft, sent=False, note=note)
        return (*others, back), None, f"{name}'s draft goes back to its player with a note"
    problems = sheet_problems(draft.sheet, catalog, draft, budget)
    if problems:
        raise RulesError(f"the draft does not check: {problems[0]}")
    if draft.sheet == sheets[hero]:
        return others, None, f"{name}'s draft approved: nothing changed"
    grows = MakeCharacter(draft.sheet, note="the player's draft", grows=True, issuer=cmd.issuer)
    return others, grows, f"{name}'s draft approved"


def sheets_of(
    party: Iterable[str], made: Iterable[MadeCharacter], catalog: Catalog
) -> dict[str, MadeCharacter]:
    """Each party Hero's sheet now: the campaign's own, else its pack entry's."""
    own = {m.id: m for m in made if m.kind == "hero"}
    found: dict[str, MadeCharacter] = {}
    for hero in party:
        if hero in own:
            found[hero] = own[hero]
        elif hero in catalog.heroes:
            found[hero] = from_entry(catalog.heroes[hero], "hero")
    return found
