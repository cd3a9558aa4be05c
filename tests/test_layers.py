"""Imports flow one way: the hardware adapters never reach the game, and the firmware only shares the
link's framing with the Pi."""

import ast
from pathlib import Path

ROOT = Path(__file__).parent.parent


def imported(path):
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module if node.level == 0 else "." * node.level + node.module)
    return names


def test_hardware_adapters_import_no_engine_ledger_table_daemon_or_web():
    for path in (ROOT / "companion" / "hw").rglob("*.py"):
        for name in imported(path):
            assert not name.startswith(
                (
                    "companion.engine",
                    "companion.ledger",
                    "companion.table.service",
                    "companion.daemon",
                    "companion.web",
                    "companion.words.messages",
                )
            ), (path, name)


def test_the_firmware_imports_only_itself_micropython_and_the_shared_protocol():
    allowed_companion = {"companion.hw", "companion.hw.protocol"}
    for path in (ROOT / "firmware").rglob("*.py"):
        if "node_modules" in path.parts:
            continue
        for name in imported(path):
            if name.startswith("companion"):
                assert name in allowed_companion, (path, name)


def test_the_daemon_reaches_the_ledger_only_through_the_table():
    for path in (ROOT / "companion" / "daemon").rglob("*.py"):
        for name in imported(path):
            assert not name.startswith("companion.ledger.store"), (path, name)


def test_the_web_app_talks_only_to_the_service_it_is_handed():
    for path in (ROOT / "web").rglob("*.py"):
        for name in imported(path):
            assert not name.startswith(
                ("companion.ledger", "companion.hw", "companion.engine", "companion.daemon", "companion.table.service")
            ), (path, name)


def test_the_errors_and_the_engine_import_no_words():
    """Errors carry codes and parameters, words are said at the edge: neither companion/errors nor the engine
    imports the wording (the words import the engine's board, and hand errors their renderer)."""
    paths = [*(ROOT / "companion" / "errors").glob("*.py"), *(ROOT / "companion" / "engine").glob("*.py")]
    for path in paths:
        for name in imported(path):
            assert not name.startswith("companion.words"), (path, name)
