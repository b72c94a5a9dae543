"""A late answer never takes the page back to an older phase; a phase change costs few requests.

The page reloads its parts (the view, the table, the forms) after every push and every phase
change, so two loads of one part can overlap. Playwright's routing holds the first answer back
(read from the server at once, so it is the older state) until a newer one has been asked for,
then lets it through: the page must still show the newer phase, with each event listed once.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest

from server.browser_fixtures import CHROMIUM, browser, page, server, sync_api

__all__ = ["browser", "page", "server"]  # fixtures, found by pytest
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no {CHROMIUM}")

TIMEOUT = 10_000


class Held:
    """A route handler that reads the first matching answer from the server at once and keeps
    it back until ``release()``; later requests go through untouched."""

    def __init__(self) -> None:
        self.route: Any = None
        self.answer: Any = None
        self.seen = 0

    def __call__(self, route: Any) -> None:
        self.seen += 1
        if self.route is not None:
            route.continue_()
            return
        self.route, self.answer = route, route.fetch()

    def wait(self, page: Any) -> None:
        """Until a request is held (the handler runs while Playwright is called)."""
        deadline = time.monotonic() + TIMEOUT / 1000
        while self.route is None and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert self.route is not None, "no request was held"

    def release(self) -> None:
        assert self.route is not None, "nothing was held"
        self.route.fulfill(response=self.answer)


def _game(server: str) -> tuple[str, dict[str, str]]:
    """A cruiser duel between two humans; the game id and each side's token."""
    made = httpx.post(f"{server}/api/games", json={"scenario": "cruiser-duel", "ai": []}).json()
    tokens = {}
    for seat in made["invites"]:
        claimed = httpx.post(
            f"{server}/api/games/{made['game_id']}/claim", json={"invite": seat["invite"]}
        )
        tokens[seat["side"]] = claimed.json()["token"]
    return made["game_id"], tokens


def _seal(server: str, game: str, token: str, line: str) -> bool:
    r = httpx.post(
        f"{server}/api/games/{game}/orders",
        headers={"X-Battleline-Token": token},
        json={"turn": 1, "phase": "command", "lines": [line]},
    )
    assert r.status_code == 200, r.text
    resolved: bool = r.json()["resolved"]
    return resolved


def _open(page: Any, server: str, game: str, token: str) -> None:
    page.goto(f"{server}/#game={game}&token={token}")
    sync_api.expect(page.locator("#live-state")).to_have_text("connected", timeout=TIMEOUT)


def test_a_late_forms_or_table_answer_does_not_bring_back_the_old_phase(
    server: str, page: Any
) -> None:
    game, tokens = _game(server)
    forms, table = Held(), Held()
    page.route("**/api/games/*/forms", forms)
    page.route("**/api/games/*/table*", table)
    _open(page, server, game, tokens["Blue"])
    expect = sync_api.expect
    expect(page.locator("#phase")).to_have_text("command")
    forms.wait(page)  # both read at turn 1, command
    table.wait(page)

    _seal(server, game, tokens["Blue"], "Blue cruiser: SPD15")
    assert _seal(server, game, tokens["Red"], "Red cruiser: SPD17")
    expect(page.locator("#phase")).to_have_text("gunnery", timeout=TIMEOUT)
    heading = page.locator("#forms-part h3")
    note = page.locator("#table-note")
    expect(heading).to_contain_text("turn 1, gunnery phase", timeout=TIMEOUT)
    expect(note).to_contain_text("turn 1, gunnery phase", timeout=TIMEOUT)

    forms.release()  # the command phase's answers arrive last
    table.release()
    page.evaluate("fetch('/api/notation')")  # a round trip: the released answers are in
    page.wait_for_timeout(300)
    shown = {"forms": heading.inner_text(), "table": note.inner_text()}
    assert all("turn 1, gunnery phase" in text for text in shown.values()), shown


def test_a_late_view_answer_neither_brings_back_the_old_phase_nor_repeats_events(
    server: str, page: Any
) -> None:
    game, tokens = _game(server)
    _open(page, server, game, tokens["Blue"])
    expect = sync_api.expect
    expect(page.locator("#phase")).to_have_text("command")
    views: list[str] = []
    page.on("request", lambda r: views.append(r.url) if "/view?" in r.url else None)
    held = Held()
    page.route("**/api/games/*/view?*", held)

    _seal(server, game, tokens["Blue"], "Blue cruiser: SPD15")  # "sealed": a read, held
    held.wait(page)
    assert _seal(server, game, tokens["Red"], "Red cruiser: SPD17")  # "resolved": another read
    page.wait_for_timeout(1500)
    while_held = list(views)

    held.release()
    expect(page.locator("#phase")).to_have_text("gunnery", timeout=TIMEOUT)
    page.wait_for_timeout(500)
    expect(page.locator("#phase")).to_have_text("gunnery")
    page.evaluate("import('/static/js/main.js').then((m) => m.app.refresh())")
    page.wait_for_timeout(500)
    events = page.locator("#event-list li").all_inner_texts()
    assert events and len(events) == len(set(events)), events
    # One read at a time: the second waited for the first (both would ask from one cursor).
    assert len(while_held) == 1, while_held


def _api_paths(log: list[str]) -> list[str]:
    paths = [urlparse(u).path.split("/api/games/", 1)[-1] for u in log if "/api/" in u]
    return [p.split("/", 1)[-1] for p in paths if not p.endswith("/stream")]


def test_requests_per_phase_change(server: str, page: Any) -> None:
    """How many requests the page sends for one phase change: sealed by the page's own form
    (the other side sealed first), and sealed by the other side while the page waits."""
    game, tokens = _game(server)
    _open(page, server, game, tokens["Blue"])
    expect = sync_api.expect
    heading = page.locator("#forms-part h3")
    expect(heading).to_contain_text("turn 1, command phase", timeout=TIMEOUT)
    log: list[str] = []
    page.on("request", lambda r: log.append(r.url))

    # By the form: Red has sealed; Blue's seal resolves the phase.
    _seal(server, game, tokens["Red"], "Red cruiser: SPD17")
    page.wait_for_timeout(1000)
    log.clear()
    page.locator("#forms-part .forms-seal").click()
    expect(heading).to_contain_text("turn 1, gunnery phase", timeout=TIMEOUT)
    page.wait_for_timeout(1500)
    by_form = _api_paths(log)
    print("by the form:", len(by_form), by_form)

    # By push: Blue seals (by hand), then Red's seal resolves the phase.
    httpx.post(
        f"{server}/api/games/{game}/orders",
        headers={"X-Battleline-Token": tokens["Blue"]},
        json={"turn": 1, "phase": "gunnery", "lines": []},
    ).raise_for_status()
    page.wait_for_timeout(1000)
    log.clear()
    httpx.post(
        f"{server}/api/games/{game}/orders",
        headers={"X-Battleline-Token": tokens["Red"]},
        json={"turn": 1, "phase": "gunnery", "lines": []},
    ).raise_for_status()
    expect(heading).not_to_contain_text("gunnery phase", timeout=TIMEOUT)
    page.wait_for_timeout(1500)
    by_push = _api_paths(log)
    print("by push:", len(by_push), by_push)
    for got in (by_form, by_push):  # each part is read once per phase change
        assert [got.count(part) for part in ("forms", "table", "shiplog")] == [1, 1, 1], got
