"""The shape of hsm_tui: modules import each other in one direction (no
cycle, so each can be read and tested from the bottom up), none grows past 600 lines,
the combat engine's functions never reach themselves again (no hidden recursion), and no
screen keeps its own copy of a rule constant.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "hsm_tui"
MAX_LINES = 600


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, name: str, anywhere: bool = False) -> set[str]:
    """The hsm_tui modules ``path`` imports when it is loaded (not inside functions and
    not under ``if TYPE_CHECKING``), resolved to module names; with ``anywhere``, every
    import it holds, those in functions and under ``TYPE_CHECKING`` too.
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree) if anywhere else tree.body:
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = f"{base}.{node.module}" if node.level and node.module else node.module
            target = target or base
            for alias in node.names:
                found.add(f"{target}.{alias.name}")  # a submodule, or a name in target
                found.add(target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m.startswith("hsm_tui")}


def graph(anywhere: bool = False) -> dict[str, set[str]]:
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {
        name: imported(path, name, anywhere) & files.keys() - {name} for name, path in files.items()
    }


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """One import cycle as a path of module names, [] if there is none."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_modules_import_each_other_without_a_cycle() -> None:
    edges = graph()
    for name, targets in edges.items():  # a package imports its own modules: not a cycle
        edges[name] = {t for t in targets if not name.startswith(f"{t}.")}
    assert cycle(edges) == []


def test_no_import_cycle_hides_in_a_function_or_a_type_hint() -> None:
    """A cycle only a function's import or ``if TYPE_CHECKING`` closes is still two
    modules a reader cannot read one before the other: a Protocol (``FileHost``,
    ``Receiver``) names what one needs of the other instead.
    """
    edges = graph(anywhere=True)
    for name, targets in edges.items():
        edges[name] = {t for t in targets if not name.startswith(f"{t}.")}
    assert cycle(edges) == []


def test_the_anywhere_graph_sees_imports_in_functions_and_type_hints(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from hsm_tui.table import session\n"
        "def f():\n    from hsm_tui.rules import dice\n"
    )
    found = imported(source, "hsm_tui.mod", anywhere=True)
    assert {"hsm_tui.table.session", "hsm_tui.rules.dice"} <= found
    assert imported(source, "hsm_tui.mod") == set()


def test_the_package_top_holds_only_its_entry_points() -> None:
    """Every module but these lives in a package named for its job."""
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "lazy.py"]


def test_the_cycle_check_finds_a_cycle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=module_name)
def test_no_module_is_over_600_lines(path: Path) -> None:
    lines = len(path.read_text().splitlines())
    assert lines <= MAX_LINES, f"{module_name(path)} has {lines} lines: split it by job"


def calls(package: Path) -> dict[str, set[str]]:
    """Which of the package's own top-level functions (and methods, by class) each one
    names: a function that reaches itself again is recursion a reader must find by hand.
    """
    bodies: dict[str, ast.AST] = {}
    for path in package.glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                bodies[node.name] = node
    return {
        name: {
            n.id
            for n in ast.walk(body)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in bodies
        }
        - ({name} if isinstance(body, ast.ClassDef) else set())  # a class naming itself
        for name, body in bodies.items()
    }


def test_the_combat_engine_has_no_hidden_recursion() -> None:
    """The attack used to run damage → stray hit → Defense → damage; now one loop
    (``damage.resolve``) steps through them, and each step is a plain function.
    """
    assert cycle(calls(PACKAGE / "campaign" / "combat")) == []


ENGINE = (
    "rules",
    "campaign",
    "packs",
    "persistence",
    "table",
    "forecast",
)


def constants(path: Path) -> set[str]:
    """The module-level UPPER_CASE names ``path`` assigns (its constants)."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        names |= {t.id for t in targets if isinstance(t, ast.Name) and t.id.isupper()}
    return names


def test_no_screen_defines_a_rule_constant_the_engine_has() -> None:
    """The engine answers, the screen asks: a limit or a list of choices the engine
    checks (re-rolls, modifiers, hands, kinds …) is imported by a screen, never copied.
    """
    engine: dict[str, str] = {}
    for part in ENGINE:
        for path in (PACKAGE / part).rglob("*.py") if "." not in part else [PACKAGE / part]:
            engine |= dict.fromkeys(constants(path), module_name(path))
    copied = {
        f"{module_name(path)}.{name} (the engine's is {engine[name]}.{name})"
        for path in (PACKAGE / "ui").rglob("*.py")
        for name in constants(path) & engine.keys()
    }
    assert sorted(copied) == []
