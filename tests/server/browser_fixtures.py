"""Shared fixtures for the Chromium tests: a uvicorn server in a thread (``sse.Uvicorn``),
Debian's chromium through Playwright's sync API, and a fresh browser context per test.

Use with ``from server.browser_fixtures import CHROMIUM, browser, page, server, sync_api``
(pytest finds the imported fixtures) or ``pytest_plugins``. A module that uses them should skip
where chromium is missing: ``pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), …)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from battleline.server.app import create_app
from server.sse import Uvicorn

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a fresh SQLite file, served by uvicorn in a thread; its base URL."""
    db = tmp_path_factory.mktemp("web") / "web.sqlite3"
    srv = Uvicorn(create_app(str(db), scenario_dir=db.parent / "scenarios")).start()
    yield srv.url
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    try:
        yield context.new_page()
    finally:
        context.close()
