"""The log as a Markdown story and log search (hsm_tui.table.logbook).

The structure checks parse the export with markdown-it (CommonMark plus the GitHub
table and strikethrough rules Textual's Markdown widget also uses), so "cannot break
the document" is checked the way a reader's renderer sees it.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from hsm_tui.table.logbook import escape, search, to_markdown
from hsm_tui.table.session import LogEntry

PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _entry(seq: int, title: str, *lines: str, issuer: str = "gm") -> LogEntry:
    return LogEntry(seq, issuer, title, tuple(lines))


LOG = (
    _entry(1, "Task (Hero)", "TN Agility 2 + Senses 2 = 4", "roll d10 3 ≤ TN 4: success"),
    _entry(
        2,
        "Attack: Kestrel Vance → Pirate Raider",
        "TN 5 [Shooting 3 + Agility 2]",
        "damage 2d6 [6!, 4] + 3 = 13 vs Health 4",
    ),
    _entry(3, "Severe Wound chart", "d10 7 + 2 past Health + 2×0 earlier = 9", "→ PTSD: …"),
)


def _plain(inline: Token) -> str:
    """The text a reader sees for an inline token (escapes resolved, markup dropped)."""
    return "".join(
        child.content for child in inline.children or () if child.type in ("text", "code_inline")
    )


def _structure(markdown: str) -> list[tuple[str, list[str]]]:
    """(level-2 heading text, [bullet texts]) per section, as a renderer reads them."""
    tokens = PARSER.parse(markdown)
    sections: list[tuple[str, list[str]]] = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h2":
            sections.append((_plain(tokens[i + 1]), []))
        elif token.type == "list_item_open" and token.level == 1 and sections:
            inline = next((t for t in tokens[i + 1 : i + 3] if t.type == "inline"), None)
            sections[-1][1].append(_plain(inline) if inline is not None else "")
    return sections


def _seen(text: str) -> str:
    """What survives any renderer: printable text with whitespace runs collapsed."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())


def test_export_is_a_heading_and_one_section_per_entry() -> None:
    markdown = to_markdown(LOG, "Dig site ambush")
    assert markdown.startswith("# Dig site ambush\n\n3 log entries.\n\n## #1 Task (Hero)\n")
    assert _structure(markdown) == [
        (f"#{e.seq} {e.title}", list(e.lines)) for e in LOG
    ]  # dice and TN lines read back verbatim


def test_dice_and_tn_lines_stay_readable_in_the_source() -> None:
    markdown = to_markdown(LOG, "x")
    assert "- TN Agility 2 + Senses 2 = 4" in markdown
    assert "- roll d10 3 ≤ TN 4: success" in markdown
    assert r"damage 2d6 \[6!, 4\] + 3 = 13 vs Health 4" in markdown


def test_empty_log_and_player_issued_entries() -> None:
    assert to_markdown((), "Session") == "# Session\n\nThe log is empty.\n"
    markdown = to_markdown((_entry(1, "Move", "Kestrel runs", issuer="player:kestrel"),), "S")
    assert "1 log entry." in markdown and "*issued by player:kestrel*" in markdown


def test_escape_neutralises_block_and_inline_markup() -> None:
    assert escape("# not a heading") == r"\# not a heading"
    assert escape("- not a list") == r"\- not a list"
    assert escape("12. not a list") == r"12\. not a list"
    assert escape("*bold* _em_ `code` [link](x) <b>") == (
        r"\*bold\* \_em\_ \`code\` \[link\](x) \<b\>"
    )
    assert escape("two\nlines") == "two lines"


def test_search_ignores_case_and_looks_in_titles_and_lines() -> None:
    assert search(LOG, "ATTACK") == (LOG[1],)
    assert search(LOG, "ptsd") == (LOG[2],)
    assert search(LOG, "tn") == LOG[:2]  # "TN" in lines of 1 and 2 only
    assert search(LOG, "HEALTH") == LOG[1:]
    assert search(LOG, "  ") == LOG
    assert search(LOG, "dragon") == ()


HOSTILE = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("#*_`[]()<>|~&!\\-+=.:>0123456789 \t\n\r\u2028")),
        st.characters(),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(HOSTILE, st.lists(HOSTILE, max_size=4)), max_size=5), HOSTILE)
@example([("# x", ["```", "---", "1. a", "> q", "<div>", "    code", "***"])], "=\n")
@example([("title ##", ["a\n\n## fake heading", "[x]: http://y", "| a | b |"])], "")
def test_arbitrary_log_text_never_breaks_the_structure(
    raw: list[tuple[str, list[str]]], title: str
) -> None:
    entries = tuple(_entry(i, t, *lines) for i, (t, lines) in enumerate(raw, 1))
    markdown = to_markdown(entries, title)
    sections = _structure(markdown)
    assert len(sections) == len(entries)  # every entry is its own heading, no extra ones
    for entry, (heading, bullets) in zip(entries, sections, strict=True):
        assert _seen(heading) == _seen(f"#{entry.seq} {entry.title}")
        assert [_seen(b) for b in bullets] == [_seen(line) for line in entry.lines]
    h1 = [t for t in PARSER.parse(markdown) if t.type == "heading_open" and t.tag == "h1"]
    assert len(h1) == 1
