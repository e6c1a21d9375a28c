"""A Hero's sheet as a draft its player fills in (R-CHAR-1..7): opened by the GM, kept and
sent by the seat that plays that Hero alone, read by the GM live, approved as one grown
step or returned with a note; what the player edits never leaves their Hero.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
import tomli_w

from hsm_tui.campaign.drafts import (
    ApproveDraft,
    CloseDraft,
    KeepDraft,
    OpenDraft,
    ReturnDraft,
)
from hsm_tui.campaign.making import MadeCharacter, MakeCharacter, SetTraitBudget
from hsm_tui.campaign.party import AddHero, RemoveHero
from hsm_tui.persistence import store
from hsm_tui.rules import RulesError
from hsm_tui.rules.errors import NotPermitted
from hsm_tui.table.seated import SeatedSession
from hsm_tui.table.seats import Role, Seat
from hsm_tui.table.session import Session
from tests.campaign import pack, refused

KARA = Seat(Role.PLAYER, "kara", hero="kara-hero")
BEN = Seat(Role.PLAYER, "ben", hero="kestrel-vance")
BLANK = MadeCharacter("hero", "kara-hero", "Kara's hero", talents=("Lucky", "Quick draw"))


def table() -> tuple[Session, SeatedSession, SeatedSession]:
    """A campaign with Kara's blank Hero (the GM made it) and Ben's Kestrel; Kara's sheet
    is a draft to make her Hero."""
    s = Session(seed=1, content=pack())
    s.apply(MakeCharacter(BLANK))
    s.apply(AddHero("kara-hero"))
    s.apply(AddHero("kestrel-vance"))
    s.apply(OpenDraft("kara-hero", makes=True))
    return s, SeatedSession(s, KARA), SeatedSession(s, BEN)


def karas(**changes: object) -> MadeCharacter:
    return replace(BLANK, **{"name": "Ada Quill", "career": "Scout", **changes})  # type: ignore[arg-type]


def test_r_char_1_a_player_keeps_sends_and_the_gm_approves_as_one_grown_step() -> None:
    s, kara, ben = table()
    assert s.log[-1].title == "Kara's hero's sheet goes to its player to make"
    kara.apply(KeepDraft(karas()))
    assert s.log[-1].title == "Kara keeps Kara's hero's draft"
    assert s.campaign.drafts[0].sheet.name == "Ada Quill" and not s.campaign.drafts[0].sent
    kara.apply(KeepDraft(karas(traits=(3, 3, 2, 2, 2, 2, 2)), send=True))
    assert s.log[-1].title == "Kara sends Kara's hero's draft to the GM for approval"
    s.apply(ReturnDraft("kara-hero", "  a Motivation,   please "))
    draft = s.campaign.drafts[0]
    assert (draft.sent, draft.note) == (False, "a Motivation, please")
    assert kara.view().draft == draft  # she reads the note on her own draft
    assert "please" not in repr(ben.view())  # the table reads that it went back, not why
    kara.apply(KeepDraft(karas(motivation="Find my brother"), send=True))
    assert s.campaign.drafts[0].note == ""
    s.apply(ApproveDraft("kara-hero"))
    assert s.campaign.drafts == ()
    made = next(m for m in s.campaign.made if m.id == "kara-hero")
    assert (made.name, made.motivation) == ("Ada Quill", "Find my brother")
    assert s.campaign.party[0].name == "Ada Quill"  # the party's row is renamed too
    assert s.log[-1].title == "Kara's hero's draft approved"
    assert "Name: Kara's hero → Ada Quill" in s.log[-1].lines
    s.undo()
    assert s.campaign.drafts[0].sent and s.campaign.party[0].name == "Kara's hero"


def test_nothing_a_player_edits_leaves_their_hero() -> None:
    s, kara, ben = table()
    with pytest.raises(NotPermitted, match="plays kara-hero"):
        kara.apply(KeepDraft(replace(karas(), id="kestrel-vance")))
    with pytest.raises(NotPermitted, match="plays kestrel-vance"):
        ben.apply(KeepDraft(karas()))  # Ben cannot keep Kara's draft
    refused(s, KeepDraft(replace(karas(), kind="minion")), "its own Hero's sheet")
    with pytest.raises(NotPermitted, match="only the GM"):
        kara.apply(ApproveDraft("kara-hero"))
    with pytest.raises(NotPermitted, match="only the GM"):
        kara.apply(OpenDraft("kara-hero"))
    s.apply(CloseDraft("kara-hero"))
    refused(s, KeepDraft(karas()), "not a draft")  # the GM took it back: nothing kept


def test_a_draft_is_work_in_progress_until_it_is_sent() -> None:
    s, kara, _ben = table()
    half = karas(traits=(4, 4, 4, 4, 4, 4, 4), weapons=("laser-pistl",))
    kara.apply(KeepDraft(half))  # kept as it is, with its problems
    with pytest.raises(RulesError, match=r"not ready to send: .*laser-pistl"):
        kara.apply(KeepDraft(half, send=True))
    s.apply(SetTraitBudget(14))
    with pytest.raises(RulesError, match="not ready to send: 28 trait points: the budget is 14"):
        kara.apply(KeepDraft(replace(half, weapons=()), send=True))
    with pytest.raises(RulesError, match="at most 400 characters"):
        kara.apply(KeepDraft(karas(career="x" * 401)))  # too big to keep at all
    with pytest.raises(RulesError, match="talents: at most 60"):
        kara.apply(KeepDraft(karas(talents=tuple(f"t{i}" for i in range(61)))))


def test_a_draft_to_grow_is_not_held_to_the_budget() -> None:
    s, _kara, ben = table()
    s.apply(SetTraitBudget(14))
    s.apply(OpenDraft("kestrel-vance"))  # a pack Hero: its sheet is the pack entry's
    kestrel = s.campaign.drafts[-1].sheet
    assert kestrel.name == "Kestrel Vance" and sum(kestrel.traits) > 14
    ben.apply(KeepDraft(replace(kestrel, career="Smuggler"), send=True))
    s.apply(ApproveDraft("kestrel-vance"))
    assert "Career: " in s.log[-1].lines[0]


def test_the_gm_reads_the_draft_live_and_the_player_only_their_own() -> None:
    s, kara, ben = table()
    assert s.sketch_of("kara-hero") is None
    kara.sketch(karas(name="Ada Q"))
    assert s.sketch_of("kara-hero").name == "Ada Q"  # type: ignore[union-attr]
    with pytest.raises(NotPermitted):
        ben.sketch(karas())
    kara.apply(KeepDraft(karas()))
    assert s.sketch_of("kara-hero") is None  # kept: the draft's own sheet stands
    assert ben.view().draft is None and kara.view().draft is not None
    assert SeatedSession(s, Seat(Role.WATCHER, "wat")).view().draft is None


def test_drafts_are_kept_in_the_campaign_file_and_go_with_their_hero(tmp_path: Path) -> None:
    s, kara, _ben = table()
    kara.apply(KeepDraft(karas(), send=True))
    path = store.save(s, tmp_path / "drafts.toml")
    opened = Session(content=pack())
    store.load(opened, path)
    assert opened.campaign.drafts == s.campaign.drafts
    opened.apply(RemoveHero("kara-hero"))
    assert opened.campaign.drafts == ()


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda d: d.update(hero="roan-maddox"), "state.campaign.drafts[0].hero"),
        (lambda d: d["sheet"].update(id="roan-maddox"), "state.campaign.drafts[0].sheet"),
        (lambda d: d["sheet"].update(kind="minion"), "state.campaign.drafts[0].sheet"),
    ],
)
def test_a_file_whose_draft_is_not_its_heros_is_refused_with_the_key(
    tmp_path: Path, change, key: str
) -> None:
    s, _kara, _ben = table()
    path = store.save(s, tmp_path / "drafts.toml")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    change(data["state"]["campaign"]["drafts"][0])
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    with pytest.raises(store.CampaignFileError, match=re.escape(key)):
        store.load(Session(content=pack()), path)
