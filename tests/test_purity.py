"""The engine is pure (preamble, companion/engine/__init__.py): no module under
companion/engine imports randomness, clocks, storage, the network, hardware, the web
or threads. Dice arrive as command arguments and shuffles use the game seed, so a
replay of the ledger always gives the same game."""

import ast
from pathlib import Path

import pytest

import companion.engine

ENGINE = Path(companion.engine.__file__).parent
FORBIDDEN = {
    "random",
    "time",
    "datetime",
    "sqlite3",
    "socket",
    "serial",
    "gpiozero",
    "luma",
    "flask",
    "os",
    "threading",
    "secrets",
    "uuid",
    "subprocess",
    "asyncio",
}
MODULES = sorted(ENGINE.rglob("*.py"))


def imported(path):
    """(top-level module name, line) of every import in a file, including `__import__("x")`
    and importlib.import_module("x") with a literal name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                yield node.module.split(".")[0], node.lineno
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if (
                name in ("__import__", "import_module")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                yield node.args[0].value.split(".")[0], node.lineno


def test_the_engine_has_modules_to_check():
    names = {p.name for p in MODULES}
    assert {"core.py", "game.py", "state.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ENGINE)) for p in MODULES])
def test_engine_module_imports_nothing_impure(path):
    bad = [f"{name} (line {line})" for name, line in imported(path) if name in FORBIDDEN]
    assert not bad, f"{path.name} imports {', '.join(bad)}"


def test_the_checker_catches_an_impure_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os.path\nfrom time import monotonic\nx = __import__('random')\n")
    assert [n for n, _ in imported(sample)] == ["os", "time", "random"]


def companion_imports(path):
    """Full dotted names of the companion modules a file imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("companion"):
            yield node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("companion"):
                    yield alias.name


LEDGER = ENGINE.parent / "ledger"
# the ledger stores the engine's records and nothing else: the table service sits above both
LEDGER_MAY_IMPORT = {"companion.errors", "companion.engine.state", "companion.ledger"}


@pytest.mark.parametrize("path", sorted(LEDGER.rglob("*.py")), ids=lambda p: p.name)
def test_the_ledger_imports_only_the_engines_records(path):
    bad = [
        name
        for name in companion_imports(path)
        if name not in LEDGER_MAY_IMPORT and not name.startswith("companion.ledger.")
    ]
    assert not bad, f"ledger/{path.name} imports {bad}"


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ENGINE)) for p in MODULES])
def test_the_engine_imports_only_itself_and_errors(path):
    bad = [
        name
        for name in companion_imports(path)
        if name != "companion.errors" and not name.startswith("companion.engine")
    ]
    assert not bad, f"engine/{path.name} imports {bad}"
