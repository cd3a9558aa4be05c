"""Every test keeps its ledger anchors (companion/ledger/anchor.py) in a folder of its own."""
import pytest


@pytest.fixture(autouse=True)
def anchor_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path_factory.mktemp("state")))
