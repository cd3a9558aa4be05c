"""Shared fixtures (plain helpers live in tests/helpers.py: a conftest cannot be imported)."""
import pytest

from companion.editions import load_edition, rules_for


@pytest.fixture
def elite():
    return rules_for(load_edition("elite"))
