"""The browser tests' browser: Debian's chromium (/usr/bin/chromium) driven by Playwright, never a downloaded one.

    from browser import chromium

    with chromium() as context:          # a Playwright BrowserContext with a fresh profile of its own
        page = context.new_page()
        page.goto(url)

Without /usr/bin/chromium (or without the playwright package) the test FAILS in
one line naming what to install: a browser test that skipped itself on a
machine without the browser would pass having tested nothing.
"""

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def require_chromium() -> None:
    """Fail the test in one line unless the browser and Playwright are both here."""
    if not os.path.exists(CHROMIUM):
        pytest.fail("chromium is missing: apt-get install chromium", pytrace=False)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.fail("playwright is missing: .venv/bin/pip install -e '.[dev]'", pytrace=False)


@contextmanager
def chromium(**options) -> Iterator:
    """A headless chromium with a fresh user data dir, as a Playwright BrowserContext; `options` go to
    launch_persistent_context (viewport, locale, ...). Everything is closed and removed afterwards."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="companion-chromium-")
    try:
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile,
                executable_path=CHROMIUM,
                headless=True,
                args=ARGS,
                **{"viewport": {"width": 800, "height": 900}, **options},
            )
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
