"""Load content packs, collecting every problem instead of stopping at the first.

File reading is the only I/O. Shipped packs load first, then ``HSM_CONTENT_PATH``, then
the folders given (``--content``), each deduplicated by its real path. Entries with
errors are left out; everything else loads.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..persistence.safe_read import MB, read_regular
from .fields import EntryReader, Field, did_you_mean, kebab_id, list_of, text
from .model import Catalog, Character, PackInfo, SevereWound, Source, Weapon
from .problems import Code, Problem, Severity
from .schema import BUILDERS, ENTRY_FILES
from .toml_lines import LineIndex

_PACKAGE = Path(__file__).resolve().parents[1]
_INSTALLED = _PACKAGE / "content"
SHIPPED = _INSTALLED if _INSTALLED.is_dir() else _PACKAGE.parent / "content"
"""The shipped packs: inside the package when installed (the wheel puts them there), else
``content/`` at the top of the checkout the code runs from."""
ENV_VAR = "HSM_CONTENT_PATH"
FILE_LIMIT = 8 * MB
"""The largest pack file read: a pack is text a person writes (the starter pack's
largest file is a few kilobytes)."""
PACK_FIELDS = {
    "id": Field(kebab_id, required=True),
    "name": Field(text, required=True),
    "version": Field(text, required=True),
    "requires": Field(list_of(kebab_id), default=()),
    "description": Field(text, default=""),
    "author": Field(text, default=""),
}
_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


@dataclass(frozen=True)
class LoadResult:
    """The catalog plus every problem found, sorted by file and line."""

    catalog: Catalog
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.is_error)


def real_path(path: Path) -> Path:
    """The real path; unlike Path.resolve on 3.11, a symlink loop does not raise."""
    return Path(os.path.realpath(path))


def display(path: Path) -> str:
    """A path as a GM would type it: relative to the working folder when inside it."""
    try:
        return str(real_path(path).relative_to(real_path(Path.cwd())))
    except ValueError:
        return str(path)


def content_dirs(
    extra: Iterable[str | Path] = (), env: Mapping[str, str] | None = None
) -> list[Path]:
    """Shipped packs, then ``HSM_CONTENT_PATH``, then ``extra`` (``--content``)."""
    env = os.environ if env is None else env
    from_env = [p for p in env.get(ENV_VAR, "").split(os.pathsep) if p.strip()]
    return [SHIPPED, *map(Path, from_env), *map(Path, extra)]


def load(dirs: Sequence[str | Path]) -> LoadResult:
    """Load every pack under ``dirs`` (each a pack, or a folder of packs)."""
    problems: list[Problem] = []
    packs = _read_packs(discover([Path(d) for d in dirs], problems), problems)
    catalog = _Builder(packs, problems).build()
    return LoadResult(catalog, tuple(sorted(problems, key=lambda p: (p.path, p.line))))


# -- files ---------------------------------------------------------------------------
def discover(dirs: list[Path], problems: list[Problem]) -> list[Path]:
    """The pack folders under ``dirs`` in load order, each once by its real path; a folder
    that is no pack or cannot be read is a problem in ``problems``. A kept load
    (:mod:`hsm_tui.packs.kept`) asks it which folders a load would read.
    """
    found: list[Path] = []
    seen: set[Path] = set()
    for folder in dirs:
        if not folder.is_dir():
            reason = (
                "not a folder (give the pack's folder)" if folder.exists() else "no such folder"
            )
            problems.append(_file_problem(folder, Code.IO, reason))
            continue
        try:
            candidates = (
                [folder]
                if (folder / "pack.toml").exists()
                else sorted(sub for sub in folder.iterdir() if (sub / "pack.toml").exists())
            )
        except OSError as exc:
            problems.append(_file_problem(folder, Code.IO, f"cannot read: {exc.strerror or exc}"))
            continue
        if not candidates and real_path(folder) != real_path(SHIPPED):
            problems.append(
                _file_problem(
                    folder / "pack.toml",
                    Code.MISSING_PACK,
                    "missing pack.toml: a pack folder needs one",
                )
            )
        for pack in candidates:
            if real_path(pack) not in seen:
                seen.add(real_path(pack))
                found.append(pack)
    return found


def _file_problem(path: Path, code: Code, message: str, line: int = 0) -> Problem:
    return Problem(display(path), line, Severity.ERROR, code, message)


@dataclass
class _Toml:
    path: Path
    data: dict[str, Any]
    lines: LineIndex


def _read_toml(path: Path, problems: list[Problem]) -> _Toml | None:
    """Parse one file; syntax and encoding errors become problems with line and column."""
    try:
        raw = read_regular(path, FILE_LIMIT)
    except OSError as exc:
        problems.append(_file_problem(path, Code.IO, f"cannot read: {exc.strerror or exc}"))
        return None
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        problems.append(_file_problem(path, Code.SYNTAX, _utf8_message(raw, exc.start), line))
        return None
    try:
        data = tomllib.loads(source)
    except RecursionError:
        problems.append(_file_problem(path, Code.SYNTAX, "TOML nested too deeply to read", 1))
        return None
    except ValueError as exc:  # TOMLDecodeError, or an integer too long to convert
        at = _AT.search(str(exc))
        long_number = re.search(r"\d{1000,}", source)
        line = (
            int(at[1])
            if at
            else source.count("\n", 0, long_number.start() if long_number else None) + 1
        )
        where = f" (column {at[2]})" if at else ""
        message = _AT.sub("", str(exc)).strip()
        problems.append(_file_problem(path, Code.SYNTAX, f"TOML syntax: {message}{where}", line))
        return None
    return _Toml(path, data, LineIndex(source))


@dataclass
class _Pack:
    info: PackInfo
    folder: Path
    toml: _Toml
    files: dict[str, _Toml] = field(default_factory=dict)


def _read_packs(folders: list[Path], problems: list[Problem]) -> list[_Pack]:
    packs: dict[str, _Pack] = {}
    for folder in folders:
        toml = _read_toml(folder / "pack.toml", problems)
        if toml is None:
            continue
        info = _pack_info(toml, problems)
        if info is None:
            continue
        if info.id in packs:
            line = toml.lines.line(("pack", "id"))
            first = display(packs[info.id].folder)
            problems.append(
                Problem(
                    display(toml.path),
                    line,
                    Severity.ERROR,
                    Code.DUPLICATE,
                    f"pack {info.id!r} is already loaded from {first}",
                    None,
                    "id",
                )
            )
            continue
        pack = _Pack(info, folder, toml)
        for path in sorted(folder.glob("*.toml")):
            if path.name == "pack.toml":
                continue
            if path.name not in ENTRY_FILES:
                hint = did_you_mean(path.name, ENTRY_FILES)
                problems.append(
                    Problem(
                        display(path),
                        0,
                        Severity.WARNING,
                        Code.UNKNOWN_KEY,
                        f"unknown file, not loaded{hint}",
                    )
                )
                continue
            parsed = _read_toml(path, problems)
            if parsed is not None:
                pack.files[path.name] = parsed
        packs[info.id] = pack
    return _order(packs, problems)


def _utf8_message(raw: bytes, start: int) -> str:
    column = start - raw.rfind(b"\n", 0, start)
    return f"not UTF-8 text: byte 0x{raw[start]:02x} at column {column}"


def _pack_info(toml: _Toml, problems: list[Problem]) -> PackInfo | None:
    for key in toml.data:
        if key != "pack":
            problems.append(
                Problem(
                    display(toml.path),
                    toml.lines.line((key,)),
                    Severity.WARNING,
                    Code.UNKNOWN_KEY,
                    f"unknown table {key!r}{did_you_mean(key, ['pack'])}"
                    if isinstance(toml.data[key], dict)
                    else f"key {key!r} is outside [pack]: put it under the [pack] header",
                )
            )
    head = toml.data.get("pack")
    if not isinstance(head, dict):
        problems.append(
            _file_problem(
                toml.path, Code.MISSING_KEY, "needs a [pack] table with id, name and version"
            )
        )
        return None
    reader = EntryReader(display(toml.path), toml.lines, "pack", ("pack",), head, problems)
    values = reader.read(PACK_FIELDS)
    if reader.failed:
        return None
    return PackInfo(
        values["id"],
        values["name"],
        values["version"],
        values["requires"],
        values["description"],
        values["author"],
        display(toml.path.parent),
    )


def _order(packs: dict[str, _Pack], problems: list[Problem]) -> list[_Pack]:
    """Requirements before the packs needing them; report missing ones and cycles."""
    for pack in packs.values():
        for i, need in enumerate(pack.info.requires):
            if need not in packs:
                _pack_problem(
                    pack,
                    ("pack", "requires", i),
                    Code.REQUIRES,
                    f"pack {pack.info.id!r} requires {need!r}, which is not loaded"
                    f"{did_you_mean(need, packs)}",
                    problems,
                )
    ordered: list[_Pack] = []
    state: dict[str, str] = {}

    def visit(pid: str, trail: list[str]) -> None:
        if state.get(pid) == "done":
            return
        if state.get(pid) == "visiting":
            loop = [*trail[trail.index(pid) :], pid]
            for member in loop[:-1]:
                _pack_problem(
                    packs[member],
                    ("pack", "requires"),
                    Code.CYCLE,
                    f"requires cycle: {' → '.join(loop)}",
                    problems,
                )
            return
        state[pid] = "visiting"
        for need in packs[pid].info.requires:
            if need in packs:
                visit(need, [*trail, pid])
        state[pid] = "done"
        ordered.append(packs[pid])

    for pid in packs:
        visit(pid, [])
    return ordered


def _pack_problem(
    pack: _Pack, key: tuple[str | int, ...], code: Code, message: str, problems: list[Problem]
) -> None:
    line = pack.toml.lines.line(key)
    problems.append(
        Problem(display(pack.toml.path), line, Severity.ERROR, code, message, None, "requires")
    )


# -- entries -------------------------------------------------------------------------
@dataclass
class _Entry:
    kind: str
    value: Weapon | Character | SevereWound
    reader: EntryReader
    pack: _Pack


class _Builder:
    """Builds the catalog from ordered packs, resolving ids and references."""

    def __init__(self, packs: list[_Pack], problems: list[Problem]) -> None:
        self.packs, self.problems = packs, problems
        self.entries: dict[str, dict[str, _Entry]] = {k: {} for k in BUILDERS}
        self.left_out: dict[str, set[str]] = {k: set() for k in BUILDERS}

    def build(self) -> Catalog:
        charts: list[tuple[_Pack, list[_Entry]]] = []
        for pack in self.packs:
            pack_chart: list[_Entry] = []
            for name, toml in pack.files.items():
                for entry in self._file_entries(pack, ENTRY_FILES[name], toml):
                    if entry.kind == "severe_wound":
                        pack_chart.append(entry)
            if pack_chart:
                charts.append((pack, pack_chart))
        characters = {k: self._resolved_characters(k) for k in ("minion", "sidekick", "hero")}
        chart_pack, chart = (
            (charts[-1][0].info.id, self._chart(charts[-1][1])) if charts else (None, ())
        )
        return Catalog(
            packs=tuple(p.info for p in self.packs),
            weapons={i: e.value for i, e in self.entries["weapon"].items()},  # type: ignore[misc]
            minions=characters["minion"],
            sidekicks=characters["sidekick"],
            heroes=characters["hero"],
            chart=chart,
            chart_pack=chart_pack,
        )

    def _file_entries(self, pack: _Pack, kind: str, toml: _Toml) -> Iterable[_Entry]:
        path = display(toml.path)
        for key in toml.data:
            if key == kind:
                continue
            home = next((f for f, k in ENTRY_FILES.items() if k == key), None)
            hint = f" ({key} entries belong in {home})" if home else did_you_mean(key, [kind])
            self.problems.append(
                Problem(
                    path,
                    toml.lines.line((key,)),
                    Severity.ERROR,
                    Code.UNKNOWN_KEY,
                    f"unknown table {key!r}: its entries are not loaded{hint}",
                )
            )
        raw = toml.data.get(kind, [])
        if not isinstance(raw, list):
            self.problems.append(
                Problem(
                    path,
                    toml.lines.line((kind,)),
                    Severity.ERROR,
                    Code.TYPE,
                    f"{kind} must be an array of tables: write [[{kind}]]",
                )
            )
            return
        headers = toml.lines.array_headers(kind)
        if len(headers) != len(raw):  # entries written another way: use the full index
            headers = [toml.lines.line((kind, i)) for i in range(len(raw))]
        for index, data in enumerate(raw):
            if not isinstance(data, dict):
                self.problems.append(
                    Problem(
                        path,
                        toml.lines.line((kind, index)),
                        Severity.ERROR,
                        Code.TYPE,
                        f"{kind} #{index + 1}: expected a table, got {type(data).__name__}",
                    )
                )
                continue
            reader = EntryReader(path, toml.lines, kind, (kind, index), data, self.problems)
            source = Source(pack.info.id, path, headers[index])
            value = BUILDERS[kind](reader, source)
            if value is None:
                if reader.id:
                    self.left_out[kind].add(reader.id)
                continue
            # A chart belongs to its pack (the last one replaces the others whole), so
            # its row ids only need to be unique within the pack.
            key = f"{pack.info.id}:{value.id}" if kind == "severe_wound" else value.id
            if key in self.entries[kind]:
                first = self.entries[kind][key]
                where = f"{first.reader.path}:{first.value.source.line}"
                reader.report(Code.DUPLICATE, f"duplicate id: already defined in {where}", ("id",))
                continue
            entry = _Entry(kind, value, reader, pack)
            self.entries[kind][key] = entry
            yield entry

    def _resolved_characters(self, kind: str) -> dict[str, Character]:
        out: dict[str, Character] = {}
        for cid, entry in self.entries[kind].items():
            character: Character = entry.value  # type: ignore[assignment]
            resolved = [self._weapon_ref(entry, i, ref) for i, ref in enumerate(character.weapons)]
            if all(r is not None for r in resolved):
                out[cid] = Character(**{**character.__dict__, "weapons": tuple(resolved)})  # type: ignore[arg-type]
        return out

    def _weapon_ref(self, entry: _Entry, index: int, ref: str) -> str | None:
        """``id`` (same pack) or ``pack:id`` → the weapon's id; a problem if dangling."""
        own = entry.pack.info
        pack_id, _, wid = ref.rpartition(":")
        pack_id = pack_id or own.id
        weapons = self.entries["weapon"]
        target = weapons.get(wid)
        message = None
        if pack_id != own.id and pack_id not in own.requires:
            message = f"weapon {ref!r} is in pack {pack_id!r}, which is not in this pack's requires"
        elif target is not None and target.pack.info.id == pack_id:
            return wid
        elif wid in self.left_out["weapon"]:
            message = f"weapon {ref!r} was left out because of its own errors"
        elif target is not None:
            home = target.pack.info.id
            message = f"weapon {wid!r} is in pack {home!r}: write '{home}:{wid}'"
        else:
            same_pack = [i for i, e in weapons.items() if e.pack.info.id == pack_id]
            message = f"no weapon {ref!r}{did_you_mean(wid, same_pack)}"
        entry.reader.report(Code.REFERENCE, message, ("weapons", index))
        return None

    def _chart(self, entries: list[_Entry]) -> tuple[SevereWound, ...]:
        """The chart must cover 1 upward without gaps; only identical ranges may share."""
        # stable: rows sharing a total keep the pack's order (the rulebook's two 13s)
        rows = sorted((e.value for e in entries), key=lambda r: r.min)  # type: ignore[attr-defined]
        by_id = {e.value.id: e for e in entries}
        expected: int | None = 1  # the next total needing a row; None once open-ended
        prev: SevereWound | None = None
        open_ended = ""
        for row in rows:
            if prev is not None and (prev.min, prev.max) == (row.min, row.max):
                continue  # the rulebook's two 13s: the GM picks
            if expected is None:
                self._chart_warning(by_id[row.id], f"overlaps {open_ended!r}, which has no max")
            elif row.min > expected:
                self._chart_warning(
                    by_id[row.id],
                    "no chart entry covers "
                    + (f"{expected}" if expected == row.min - 1 else f"{expected}–{row.min - 1}"),
                )
            elif row.min < expected:
                self._chart_warning(by_id[row.id], f"overlaps the entry before it at {row.min}")
            if expected is not None:
                expected = None if row.max is None else row.max + 1
                open_ended = row.id
            prev = row
        if expected is not None:
            last = by_id[rows[-1].id]
            self._chart_warning(
                last, f"leave out max on the last entry: totals of {expected}+ find no result"
            )
        return tuple(rows)

    def _chart_warning(self, entry: _Entry, message: str) -> None:
        entry.reader.report(Code.CHART, message, ("min",), Severity.WARNING)
