"""Random damage to a copy of the shipped pack: the loader never raises, and it speaks up.

Each example copies ``content/relic-worlds`` into a fresh temporary folder, applies one
mutation to one file and loads the copy. Whatever the mutation, ``load`` must not raise
and every problem must point into the copy with a sane line and a message. A mutation
that leaves the parsed TOML unchanged (a deleted comment line) must give no problem at
all. The mutations marked *guaranteed* are built so that an error **must** result
(a required key's line deleted, a typed value given the wrong type, junk bytes, a
truncation inside an entry, a duplicated entry, a renamed array header); for most of
them the test also knows the line the problem has to name.
"""

from __future__ import annotations

import re
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hsm_tui.packs import SHIPPED, load

RELIC = SHIPPED / "relic-worlds"
FILES = {p.name: p.read_bytes() for p in sorted(RELIC.glob("*.toml"))}
TEXTS = {name: body.decode("utf-8") for name, body in FILES.items()}
PARSED = {name: tomllib.loads(text) for name, text in TEXTS.items()}
ENTRY_KIND = {
    "weapons.toml": "weapon",
    "minions.toml": "minion",
    "sidekicks.toml": "sidekick",
    "heroes.toml": "hero",
    "charts.toml": "severe_wound",
}
REQUIRED = {
    "weapon": ("id", "name", "kind", "skill", "damage", "range"),
    "minion": ("id", "name", "traits"),
    "sidekick": ("id", "name", "traits"),
    "hero": ("id", "name", "traits"),
    "severe_wound": ("id", "name", "min", "text"),
    "pack": ("id", "name", "version"),
}
#: Keys whose value may be a number *or* text, so a swap need not be an error.
EITHER = {"attacks"}


@dataclass(frozen=True)
class Mutation:
    label: str
    file: str
    body: bytes
    guaranteed: bool = False  # an error must be reported
    line: int | None = None  # … on this line of ``file``

    def __repr__(self) -> str:  # keep hypothesis' falsifying example short
        return f"Mutation({self.label!r}, {self.file!r}, line={self.line})"


# -- where each file's entries and keys stand ------------------------------------------------


@dataclass(frozen=True)
class Entry:
    kind: str
    header: int  # 0-based line index of [[kind]] / [pack]
    end: int  # index after the entry's last line


def lines_of(name: str) -> list[str]:
    return TEXTS[name].splitlines(keepends=True)


def entries(name: str) -> list[Entry]:
    lines = lines_of(name)
    if name == "pack.toml":
        return [Entry("pack", 0, len(lines))]
    kind = ENTRY_KIND[name]
    heads = [i for i, line in enumerate(lines) if line.strip() == f"[[{kind}]]"]
    return [Entry(kind, h, nxt) for h, nxt in zip(heads, [*heads[1:], len(lines)], strict=True)]


def offset(name: str, line_index: int) -> int:
    """Byte offset of the start of a 0-based line."""
    return sum(len(line.encode()) for line in lines_of(name)[:line_index])


def key_lines(name: str, entry: Entry, keys: tuple[str, ...]) -> list[int]:
    lines = lines_of(name)
    pattern = re.compile(rf"^({'|'.join(keys)})\s*=")
    return [i for i in range(entry.header, entry.end) if pattern.match(lines[i])]


def replace_line(name: str, index: int, new: str | None) -> bytes:
    lines = lines_of(name)
    lines[index : index + 1] = [] if new is None else [new]
    return "".join(lines).encode()


# -- mutation candidates (computed once from the original text) ------------------------------


def _delete_required_lines() -> list[Mutation]:
    out = []
    for name in FILES:
        for entry in entries(name):
            for i in key_lines(name, entry, REQUIRED[entry.kind]):
                key = lines_of(name)[i].split("=")[0].strip()
                # a missing key is reported at the entry's header
                out.append(
                    Mutation(
                        f"delete {key} line {i + 1}",
                        name,
                        replace_line(name, i, None),
                        True,
                        entry.header + 1,
                    )
                )
    return out


NUMBER = re.compile(r"\b([A-Za-z_][\w-]*)\s*=\s*(-?\d+)\b(?![.\d])")
STRING = re.compile(r'\b([A-Za-z_][\w-]*)\s*=\s*"([^"\\\n]*)"')
ONE_LINE_LIST = re.compile(r"^([A-Za-z_]\w*)\s*=\s*(\[.*\])\s*$")


def _type_swaps() -> list[Mutation]:
    out = []
    for name in FILES:
        for i, line in enumerate(lines_of(name)):
            if line.lstrip().startswith("#"):
                continue
            for m in NUMBER.finditer(line):
                if m[1] not in EITHER:
                    new = line[: m.start(2)] + f'"{m[2]}"' + line[m.end(2) :]
                    out.append(
                        Mutation(
                            f"{m[1]} number→text", name, replace_line(name, i, new), True, i + 1
                        )
                    )
            for m in STRING.finditer(line):
                if m[1] not in EITHER:
                    new = line[: m.start(2) - 1] + "7" + line[m.end(2) + 1 :]
                    out.append(
                        Mutation(
                            f"{m[1]} text→number", name, replace_line(name, i, new), True, i + 1
                        )
                    )
            if m := ONE_LINE_LIST.match(line):
                new = line[: m.start(2)] + "{ a = 1 }" + line[m.end(2) :]
                out.append(
                    Mutation(f"{m[1]} list→table", name, replace_line(name, i, new), True, i + 1)
                )
    return out


def _duplicates() -> list[Mutation]:
    out = []
    for name in ENTRY_KIND:
        lines = lines_of(name)
        for entry in entries(name):
            block = lines[entry.header : entry.end]
            base = "".join(lines).rstrip("\n") + "\n\n"
            copy_at = base.count("\n")  # 0-based index of the copied header
            id_at = copy_at + key_lines(name, entry, ("id",))[0] - entry.header
            out.append(
                Mutation(
                    f"duplicate entry at line {entry.header + 1}",
                    name,
                    (base + "".join(block)).encode(),
                    True,
                    id_at + 1,
                )
            )
    return out


def _renamed_headers() -> list[Mutation]:
    out = []
    for name in FILES:
        for entry in entries(name):
            kind = entry.kind
            for new_name in (f"{kind}s", kind[:-1], "minion" if kind != "minion" else "hero"):
                new = f"[{new_name}]\n" if name == "pack.toml" else f"[[{new_name}]]\n"
                out.append(
                    Mutation(
                        f"[[{kind}]] → {new.strip()} at line {entry.header + 1}",
                        name,
                        replace_line(name, entry.header, new),
                        True,
                        entry.header + 1,
                    )
                )
    return out


DELETE_REQUIRED = _delete_required_lines()
TYPE_SWAPS = _type_swaps()
DUPLICATES = _duplicates()
RENAMED = _renamed_headers()
ENTRIES = [(name, e) for name in FILES for e in entries(name)]
JUNK = [b"\x00", b"\xff", b"\xfe\xff", b"\x00\x01\x02", b"junk\xc3(", b"\xed\xa0\x80", b"\x80"]


@st.composite
def any_line_deleted(draw) -> Mutation:
    name = draw(st.sampled_from(list(FILES)))
    i = draw(st.integers(0, len(lines_of(name)) - 1))
    return Mutation(f"delete line {i + 1}", name, replace_line(name, i, None))


@st.composite
def truncated_anywhere(draw) -> Mutation:
    name = draw(st.sampled_from(list(FILES)))
    cut = draw(st.integers(0, len(FILES[name])))
    return Mutation(f"truncate at byte {cut}", name, FILES[name][:cut])


@st.composite
def truncated_inside_entry(draw) -> Mutation:
    """Cut after the entry's header starts and no later than its last required key line:
    the entry keeps its header but loses a required key (or ends mid-token)."""
    name, entry = draw(st.sampled_from(ENTRIES))
    last_required = max(key_lines(name, entry, REQUIRED[entry.kind]))
    cut = draw(st.integers(offset(name, entry.header) + 1, offset(name, last_required)))
    return Mutation(f"truncate inside entry at byte {cut}", name, FILES[name][:cut], True)


@st.composite
def junk_injected(draw) -> Mutation:
    """Junk always holding a NUL or a byte that is never valid UTF-8 at that place."""
    name = draw(st.sampled_from(list(FILES)))
    at = draw(st.integers(0, len(FILES[name])))
    junk = draw(st.sampled_from(JUNK))
    body = FILES[name]
    line = body[:at].count(b"\n") + 1
    return Mutation(f"junk {junk!r} at byte {at}", name, body[:at] + junk + body[at:], True, line)


MUTATIONS = st.one_of(
    st.sampled_from(DELETE_REQUIRED),
    st.sampled_from(TYPE_SWAPS),
    st.sampled_from(DUPLICATES),
    st.sampled_from(RENAMED),
    any_line_deleted(),
    truncated_anywhere(),
    truncated_inside_entry(),
    junk_injected(),
)


def parse(body: bytes) -> dict | None:
    try:
        return tomllib.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None


def test_candidates_exist_and_each_changes_the_meaning():
    assert len(DELETE_REQUIRED) > 100
    assert len(TYPE_SWAPS) > 300
    assert {m.label.split()[1] for m in TYPE_SWAPS} == {"number→text", "text→number", "list→table"}
    assert len(DUPLICATES) == sum(len(entries(n)) for n in ENTRY_KIND)
    for m in [*DELETE_REQUIRED, *TYPE_SWAPS, *DUPLICATES, *RENAMED]:
        assert parse(m.body) != PARSED[m.file], m  # each one changes the meaning


@settings(
    derandomize=True,
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(MUTATIONS)
def test_a_mutated_pack_never_crashes_the_loader_and_real_changes_are_reported(mutation):
    check(mutation)


def check(mutation: Mutation) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "relic-worlds"
        folder.mkdir()
        for name, body in FILES.items():
            (folder / name).write_bytes(mutation.body if name == mutation.file else body)

        result = load([folder])  # must not raise

        file_lines = {
            name: (mutation.body if name == mutation.file else body).count(b"\n") + 1
            for name, body in FILES.items()
        }
        for p in result.problems:
            path = Path(p.path).resolve()
            assert path.is_relative_to(folder.resolve()), p
            assert 0 <= p.line <= file_lines.get(path.name, 1), p
            assert p.message.strip(), p
            assert p.format().startswith(f"{p.path}:{p.line}: {p.severity.value}: ")

        if parse(mutation.body) == PARSED[mutation.file]:
            assert result.problems == (), mutation  # nothing meaningful changed
        if mutation.guaranteed:
            assert result.errors, mutation
        if mutation.line is not None:
            on_line = [
                p
                for p in result.problems
                if Path(p.path).name == mutation.file and p.line == mutation.line
            ]
            assert on_line, (mutation, [p.format() for p in result.problems])


PACK_TOML_MUTATIONS = [
    m for m in [*DELETE_REQUIRED, *TYPE_SWAPS, *RENAMED] if m.file == "pack.toml"
]


@pytest.mark.parametrize("mutation", PACK_TOML_MUTATIONS, ids=lambda m: m.label)
def test_every_deterministic_pack_toml_mutation(mutation):
    # pack.toml has few candidates, so all of them run (a missing or non-text pack id
    # once crashed the loader while it built the message)
    check(mutation)


@settings(derandomize=True, deadline=None, max_examples=30)
@given(st.sampled_from(DELETE_REQUIRED))
def test_a_deleted_required_key_is_named(mutation):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "p"
        folder.mkdir()
        for name, body in FILES.items():
            (folder / name).write_bytes(mutation.body if name == mutation.file else body)
        result = load([folder])
    key = mutation.label.split()[1]
    assert any(p.key == key and "missing" in p.message for p in result.errors), mutation
