"""The documents' links hold: every relative link and image path in README.md, docs/*.md,
content/README.md and bench/README.md names a file that exists, every ``#anchor`` into a
Markdown file names one of its headings, README.md stays short, and it links to every file
in docs/ (so none is orphaned).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_MOST_LINES = 199
"""README.md is the front door: under 200 lines."""

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:(?!\n[ \t]*\n).)+?(?<!`)\1(?!`)", re.DOTALL)
LINK = re.compile(
    r"(?P<image>!?)\[(?P<text>(?:[^\[\]]|\[[^\[\]]*\])*)\]"
    r"\(\s*<?(?P<target>[^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)"
)
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(?P<text>.*?)(?:[ \t]+#+)?[ \t]*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass(frozen=True)
class Link:
    """One Markdown link or image: where it is and what it points at."""

    source: Path
    line: int
    target: str
    image: bool

    def where(self) -> str:
        """``file:line: target``, the file named from the repository's top when inside it."""
        name = self.source.relative_to(ROOT) if self.source.is_relative_to(ROOT) else self.source
        return f"{name}:{self.line}: {self.target}"


def documents() -> list[Path]:
    """The Markdown files whose links are checked."""
    return [
        README,
        ROOT / "content" / "README.md",
        ROOT / "bench" / "README.md",
        *sorted(DOCS.glob("*.md")),
    ]


def prose_lines(text: str) -> list[str]:
    """The lines of ``text`` with fenced code blocks blanked (line numbers kept)."""
    lines, fence = [], ""
    for line in text.splitlines():
        opened = FENCE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            lines.append("")
        elif opened:
            fence = opened.group(1)
            lines.append("")
        else:
            lines.append(line)
    return lines


def without_code_spans(text: str) -> str:
    """``text`` with each inline code span replaced by a word (its newlines kept)."""
    return CODE_SPAN.sub(lambda m: "code" + "\n" * m.group(0).count("\n"), text)


def links(path: Path) -> list[Link]:
    """Every link and image in the Markdown file ``path``, outside code."""
    text = without_code_spans("\n".join(prose_lines(path.read_text(encoding="utf-8"))))
    found = []
    for match in LINK.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        found.append(Link(path, line, match.group("target"), bool(match.group("image"))))
    return found


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text without Markdown, lowercased, punctuation
    dropped (word characters, spaces and hyphens stay), spaces made hyphens.
    """
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", heading)
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``path`` (a repeated one gets -1, -2 …)."""
    seen: dict[str, int] = {}
    found = set()
    for line in prose_lines(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group("text"))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def is_external(target: str) -> bool:
    """A link to the web or mail (``https:``, ``mailto:``, ``//host``), not checked here."""
    return bool(SCHEME.match(target)) or target.startswith("//")


def problems(path: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with the links of the Markdown file ``path``, one line each:
    a missing file, a path that leaves ``root``, an absolute path, an unknown anchor.
    """
    found = []
    for link in links(path):
        if not link.target:
            found.append(f"{link.where()}: empty link")
            continue
        if is_external(link.target):
            continue
        file_part, _, fragment = link.target.partition("#")
        file_part = unquote(file_part)
        if file_part.startswith("/"):
            found.append(f"{link.where()}: absolute path; write it relative to the file")
            continue
        target = (path.parent / file_part).resolve() if file_part else path.resolve()
        if not target.is_relative_to(root.resolve()):
            found.append(f"{link.where()}: leaves the repository")
        elif not target.exists():
            found.append(f"{link.where()}: no such file")
        elif link.image and not target.is_file():
            found.append(f"{link.where()}: an image must be a file")
        elif fragment and target.suffix == ".md" and unquote(fragment) not in anchors(target):
            found.append(f"{link.where()}: no heading #{fragment} in {target.name}")
    return found


def relative_links(path: Path) -> list[Link]:
    return [link for link in links(path) if link.target and not is_external(link.target)]


# -- the project's documents ---------------------------------------------------------------
def test_the_documents_are_there() -> None:
    assert README.is_file()
    assert len(list(DOCS.glob("*.md"))) >= 8, "docs/ holds the guides README.md points to"
    assert all(path.is_file() for path in documents())


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_image_resolves(path: Path) -> None:
    assert problems(path) == []


def test_the_check_found_the_links_it_should() -> None:
    """So the link test cannot pass by finding nothing: the guides link to one another
    and show the app's screens.
    """
    found = [link for path in documents() for link in relative_links(path)]
    images = [link for link in found if link.image]
    into_docs = [link for link in found if "#" in link.target and ".md#" in link.target]
    assert len(found) >= 60, f"only {len(found)} relative links found"
    assert len(images) >= 12, f"only {len(images)} images found"
    assert len(into_docs) >= 10, f"only {len(into_docs)} links to a heading of another file"


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MOST_LINES, f"README.md has {len(lines)} lines"


def test_the_readme_links_every_doc() -> None:
    linked = {
        (README.parent / link.target.partition("#")[0]).resolve() for link in relative_links(README)
    }
    orphans = [p.name for p in sorted(DOCS.glob("*.md")) if p.resolve() not in linked]
    assert orphans == [], f"README.md does not link to {orphans}"


def test_the_readme_shows_a_screenshot() -> None:
    assert any(link.image for link in relative_links(README))


# -- the checker itself --------------------------------------------------------------------
def test_the_checker_reports_what_is_broken(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "there.svg").write_text("<svg/>", encoding="utf-8")
    (tmp_path / "docs" / "guide.md").write_text(
        "# The guide\n\n## F4 Combat\n\n## Keys\n\n## Keys\n", encoding="utf-8"
    )
    page = tmp_path / "README.md"
    page.write_text(
        "# Home\n\n"
        "![fine](there.svg) [fine](docs/guide.md#f4-combat) [fine](docs/guide.md#keys-1)\n"
        "[fine](#home) [web](https://example.org/nowhere.md) [mail](mailto:gm@example.org)\n"
        "![gone](missing.svg)\n"
        "[gone](docs/nowhere.md)\n"
        "[bad anchor](docs/guide.md#combat)\n"
        "[bad own anchor](#nowhere)\n"
        "[outside](../elsewhere.md)\n"
        "`[in code](code-span.md)`\n\n"
        "```md\n[in a block](fenced.md)\n```\n",
        encoding="utf-8",
    )
    found = problems(page, root=tmp_path)
    assert [line.split(": ", 2)[1:] for line in found] == [
        ["missing.svg", "no such file"],
        ["docs/nowhere.md", "no such file"],
        ["docs/guide.md#combat", "no heading #combat in guide.md"],
        ["#nowhere", "no heading #nowhere in README.md"],
        ["../elsewhere.md", "leaves the repository"],
    ]
    assert [line.split(": ", 1)[0].rsplit(":", 1)[1] for line in found] == ["5", "6", "7", "8", "9"]


def test_a_broken_link_fails_the_document_test(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("See [the guide](docs/gm-guide.md).\n", encoding="utf-8")
    assert len(problems(page, root=tmp_path)) == 1
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "gm-guide.md").write_text("# Guide\n", encoding="utf-8")
    assert problems(page, root=tmp_path) == []


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("F4 Combat", "f4-combat"),
        ("Rules coverage (RULES.md §3–§8)", "rules-coverage-rulesmd-38"),
        ("hsm campaign: files from the command line", "hsm-campaign-files-from-the-command-line"),
        ("Sharing the table over SSH (`hsm serve`)", "sharing-the-table-over-ssh-hsm-serve"),
        ("[[weapon]] (weapons.toml)", "weapon-weaponstoml"),
        ("The [log](log.md) and its_keys", "the-log-and-its_keys"),
    ],
)
def test_slug_is_githubs_anchor(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor
