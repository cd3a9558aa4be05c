"""Every test keeps its ledger anchors (companion/ledger/anchor.py) in a folder of its own."""
import pytest


@pytest.fixture(autouse=True)
def anchor_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path_factory.mktemp("state")))


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch):
    """The command line's language comes from --lang, $COMPANION_LANG or the locale (companion/words.py):
    tests that read English texts get English whatever the machine's locale; tests of the choice itself
    set or delete the variables they need."""
    monkeypatch.setenv("COMPANION_LANG", "en")
