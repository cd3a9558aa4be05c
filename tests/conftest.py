"""Every test keeps its ledger anchors (companion/ledger/anchor.py) in a folder of its own; the wheel
pip builds from the project is built once for the tests that install it."""

import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

# the errors' English words (str() of a coded error, errors.Message) are wired by importing the words, as
# every program's entry does (companion/errors imports no words): tests of one layer alone read them too
import companion.words.messages  # noqa: F401

ROOT = Path(__file__).parent.parent


@pytest.fixture(autouse=True)
def anchor_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path_factory.mktemp("state")))


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch):
    """The command line's language comes from --lang, $COMPANION_LANG or the locale (companion/words/grammar.py):
    tests that read English texts get English whatever the machine's locale; tests of the choice itself
    set or delete the variables they need."""
    monkeypatch.setenv("COMPANION_LANG", "en")


@dataclass(frozen=True)
class BuiltWheel:
    names: frozenset[str]  # the files the wheel holds
    site: Path  # the wheel unpacked, as an installed package would lie, far from the checkout


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory) -> BuiltWheel:
    """The wheel pip builds from the project (its sources copied, so the checkout is left alone), unpacked."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        (source / name).write_bytes((ROOT / name).read_bytes())
    for package in ("companion", "web"):
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                target = source / path.relative_to(ROOT)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(path.read_bytes())
    wheels = tmp / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(source)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    [wheel] = wheels.glob("companion-*.whl")
    site = tmp / "site"
    with zipfile.ZipFile(wheel) as unpacked:
        unpacked.extractall(site)
        return BuiltWheel(frozenset(unpacked.namelist()), site)
