"""The house's shape (docs/architecture.md): packages at the top, no import circle, rooms of a size a
person reads in one sitting. The layer rules are in test_layers.py and test_purity.py."""

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).parent.parent
# the code a person reads: the daemon, the web page, the reader's firmware, the hardware notes' scripts, the tests
READ_BY_PEOPLE = ("companion", "web", "firmware", "hardware", "tests")
MAX_MODULE_LINES = 800
MAX_CLASS_LINES = 400


def sources(*tops: str) -> Iterator[Path]:
    for top in tops:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "node_modules" not in path.parts and ".venv" not in path.parts:
                yield path


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def under_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(path: Path, known: set[str], root: Path = ROOT) -> set[str]:
    """The modules of `known` a file imports, at its top or inside a function (both run), leaving out
    imports only a type checker reads (`if TYPE_CHECKING:`)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and under_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            for alias in node.names:
                # `from package import module` names the module; `from module import name` the module
                child = f"{module}.{alias.name}"
                found.add(child if child in known else module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return {name for name in found if name in known}


def import_graph() -> dict[str, set[str]]:
    paths = list(sources("companion", "web"))
    known = {module_name(p) for p in paths}
    return {module_name(p): imports(p, known) - {module_name(p)} for p in paths}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), each sorted, as a list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def test_no_module_imports_itself_back_through_others():
    found = circles(import_graph())
    assert found == [], "import circles: " + "; ".join(" <-> ".join(group) for group in found)


def test_the_circle_finder_sees_a_circle_through_a_function_level_import(tmp_path):
    (tmp_path / "a.py").write_text("import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from c import x\n")
    (tmp_path / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import b\nimport a\n")
    known = {"a", "b", "c"}
    graph = {p.stem: imports(p, known, tmp_path) - {p.stem} for p in tmp_path.glob("*.py")}
    assert graph == {"a": {"b"}, "b": {"c"}, "c": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_top_of_companion_holds_packages_and_the_entry_point_only():
    loose = sorted(
        p.name
        for p in (ROOT / "companion").iterdir()
        if not p.name.startswith((".", "__pycache__"))
        and not (p.is_dir() and (p / "__init__.py").exists())
        and p.name not in ("__init__.py", "__main__.py")
    )
    assert loose == [], f"companion/ should hold packages only, found {loose}"


def test_no_module_is_longer_than_a_sitting():
    long = [
        f"{p.relative_to(ROOT)} ({n} lines)"
        for p in sources(*READ_BY_PEOPLE)
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    ]
    assert long == [], f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_class_is_longer_than_a_room():
    long = []
    for path in sources(*READ_BY_PEOPLE):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_CLASS_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.name} ({lines} lines)")
    assert long == [], f"classes over {MAX_CLASS_LINES} lines: {long}"
