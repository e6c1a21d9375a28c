"""A player fills in their own Hero's draft sheet over SSH (R-CHAR-1..7), read through a
real SSH client and pyte: the GM sees every key as it is typed, the sheet is sent and
approved as one grown step, and nothing the player types reaches another Hero.
"""

from __future__ import annotations

from hsm_tui.campaign.drafts import ApproveDraft, OpenDraft, ReturnDraft
from hsm_tui.campaign.party import AddHero
from hsm_tui.table.session import Session
from tests.share.conftest import Client, until


def drafting() -> Session:
    """Kestrel (Kara's Hero) in the party, her sheet handed to Kara to grow."""
    session = Session(seed=1)
    session.load_content()
    session.apply(AddHero("kestrel-vance"))
    session.apply(AddHero("roan-maddox"))
    session.apply(OpenDraft("kestrel-vance"))
    return session


async def typed_after_her_name(kara: Client, session: Session, text: str) -> None:
    """Kara opens her draft from the table (b) and types ``text`` after her Hero's name
    (End first): the GM's session reads it as she types."""
    await kara.shows("your sheet")
    kara.send(b"b")
    await kara.shows("Dodge = Senses + Agility")  # the sheet is drawn: the name has focus
    kara.send(b"\x1b[F" + text.encode())
    await until(
        lambda: (
            (typed := session.sketch_of("kestrel-vance")) is not None and typed.name.endswith(text)
        ),
        lambda: kara.text,
    )


async def test_r_char_1_kara_fills_in_her_draft_the_gm_reads_it_live_and_approves(game) -> None:
    session = drafting()
    table = await game(session)
    kara = await table.join("kara")
    await kara.shows("your sheet is a draft: b opens it")
    await typed_after_her_name(kara, session, " Q")
    assert session.campaign.drafts[0].sheet.name == "Kestrel Vance"  # typed, not kept
    kara.send(b"\r")  # Enter sends it
    await until(lambda: session.campaign.drafts[0].sent, lambda: kara.text)
    assert session.history[-1].issuer == "player:kara"
    await kara.shows("Sent: the GM approves it")
    session.apply(ReturnDraft("kestrel-vance", "one more skill, please"))
    await kara.shows("your sheet came back: b opens it")
    kara.send(b"b")
    await kara.shows("The GM returned it: one more")
    kara.send(b"\x1b")  # Esc: back to the table, nothing typed, nothing kept
    await kara.shows("your sheet came back")
    session.apply(ApproveDraft("kestrel-vance"))
    await until(lambda: session.campaign.drafts == (), lambda: kara.text)
    kestrel = next(m for m in session.campaign.made if m.id == "kestrel-vance")
    assert kestrel.name == "Kestrel Vance Q"
    assert [m.name for m in session.campaign.party] == ["Kestrel Vance Q", "Captain Roan Maddox"]
    await until(lambda: "b opens it" not in kara.text, lambda: kara.text)


async def test_what_she_typed_is_kept_when_she_leaves_the_sheet_or_the_table(game) -> None:
    session = drafting()
    table = await game(session)
    kara = await table.join("kara")
    await typed_after_her_name(kara, session, " R")
    kara.send(b"\x1b")  # Esc keeps it
    await until(
        lambda: session.campaign.drafts[0].sheet.name == "Kestrel Vance R", lambda: kara.text
    )
    assert not session.campaign.drafts[0].sent
    assert session.log[-1].visibility == "gm"  # a kept draft is the GM's record
    await kara.shows("b opens it")  # back at the table
    await typed_after_her_name(kara, session, "S")
    kara.process.close()  # the connection drops mid-sheet
    kara.conn.close()
    await until(
        lambda: session.campaign.drafts[0].sheet.name == "Kestrel Vance RS", lambda: "kept?"
    )
