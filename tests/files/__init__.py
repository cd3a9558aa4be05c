"""Helpers for the tests of files the ledger must not trust (tests/test_ledger_files.py, test_ledger_fuzz.py)."""
