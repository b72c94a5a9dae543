"""The HTTP secrecy scan in Chromium: every response body a side's page receives, over a whole game.

Two browser contexts, one a side, open their seats of a cruiser duel; the test plays it to the end
with AI admirals on a local twin of the game (same scenario, same seed) and sends their orders to
the server by the API. Every response either page receives — whatever its route, so routes added
later are covered without a change here — goes through a Playwright route that fetches it from the
server while the test holds the game still, so the twin knows the exact moment it was built at:
each text body must hold none of the strings ``secrets(state, side)`` names for that side then
(the ruleset's secrecy check, as ``battleline.testing.conformance`` uses it). A push stream
(``text/event-stream``), which never ends, passes through unscanned here; what the page fetches
after a push is scanned like the rest. The page's timers run on Playwright's clock, advanced after
every phase, so each page polls once per phase.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from battleline.server.app import create_app
from battleline.server.limits import Limits
from server.browser_fixtures import CHROMIUM, browser, sync_api
from server.mirror import Twin
from server.sse import Uvicorn

__all__ = ["browser"]  # fixture, found by pytest
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no {CHROMIUM}")

SEED = 23
TEXT_TYPES = ("json", "text", "svg", "javascript", "html", "css", "xml")


@pytest.fixture(scope="module")
def seeded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that lets the test choose the seed (so the twin plays the same game) and has no
    rate limit (two pages and the test read every phase)."""
    db = tmp_path_factory.mktemp("scan") / "scan.sqlite3"
    app = create_app(
        str(db),
        allow_seed=True,
        scenario_dir=db.parent / "scenarios",
        limits=Limits.unlimited_rate(),
    )
    srv = Uvicorn(app, timeout_keep_alive=300).start()
    yield srv.url
    srv.stop()


@dataclass
class Received:
    """One response a side's page received, and the moment the server built it at."""

    side: str
    moment: str
    url: str
    status: int
    text: str
    secrets: frozenset[str]


class Gate:
    """Holds the game still while a page's request is being answered.

    A route handler runs in its own greenlet: while it waits for its fetch, the test's own code
    runs on. So a request is labelled with the moment its fetch *starts*, and the test lets every
    fetch in flight finish (:meth:`settle`) before it changes the game.
    """

    def __init__(self) -> None:
        self.in_flight = 0

    def settle(self, page: Any) -> None:
        while self.in_flight:
            page.wait_for_timeout(10)


class Recorder:
    """Routes every request of one side's page through the test, keeping each response."""

    def __init__(self, side: str, twin: Twin, gate: Gate) -> None:
        self.side, self.twin, self.gate = side, twin, gate
        self.received: list[Received] = []
        self.seen_urls: list[str] = []
        self.streams: list[str] = []
        self.closed = False  # set when the test stops routing (late answers then bypass it)

    def route(self, route: Any) -> None:
        if "text/event-stream" in route.request.headers.get("accept", ""):
            # A push stream never ends, so it cannot be fetched whole here: it goes straight
            # through (its messages are scanned over a whole game by the live part's own test);
            # every answer the page fetches after a push is scanned below like any other.
            self.streams.append(route.request.url)
            route.continue_()
            return
        moment, secrets = self.twin.moment, self.twin.secrets(self.side)
        self.gate.in_flight += 1
        try:
            try:
                fetched = route.fetch()
            except sync_api.Error:  # a kept-alive connection reset under it: ask once more
                fetched = route.fetch()
        finally:
            self.gate.in_flight -= 1
        kind = fetched.headers.get("content-type", "")
        text = fetched.text() if any(t in kind for t in TEXT_TYPES) else ""
        self.received.append(
            Received(self.side, moment, route.request.url, fetched.status, text, secrets)
        )
        route.fulfill(response=fetched)

    def response(self, response: Any) -> None:
        if not self.closed:
            self.seen_urls.append(response.url)

    def leaks(self) -> list[str]:
        return [
            f"{r.moment} {r.side} {r.url}: {sorted(s for s in r.secrets if s in r.text)[:3]}"
            for r in self.received
            if any(s in r.text for s in r.secrets)
        ]


def _open(browser: Any, server: str, game: str, token: str, rec: Recorder) -> tuple[Any, Any]:
    context = browser.new_context()
    page = context.new_page()
    page.route("**/*", rec.route)
    page.on("response", rec.response)
    page.clock.install()
    page.goto(f"{server}/#game={game}&token={token}")
    return context, page


def _caught_up(page: Any, twin: Twin) -> None:
    """Let the page poll once (its clock moved past the poll interval) and show this phase."""
    expect = sync_api.expect
    page.clock.run_for(2100)
    g = twin.game
    if g.finished:
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#shiplog-part")).to_have_attribute(
            "data-shown", re.compile(re.escape(f"/{g.state.result.line()}") + "$")
        )
        return
    expect(page.locator("#phase")).to_have_text(g.spec.name)
    expect(page.locator("#shiplog-part")).to_have_attribute(
        "data-shown", f"{g.state.turn}/{g.spec.name}/null"
    )


def test_every_response_a_sides_page_receives_passes_the_secrecy_check(
    seeded_server: str, browser: Any
) -> None:
    server = seeded_server
    made = httpx.post(
        f"{server}/api/games", json={"scenario": "cruiser-duel", "seed": SEED, "ai": []}
    ).json()
    game = made["game_id"]
    tokens = {}
    for inv in made["invites"]:
        r = httpx.post(f"{server}/api/games/{game}/claim", json={"invite": inv["invite"]})
        tokens[inv["side"]] = r.json()["token"]
    twin = Twin("cruiser-duel", SEED)
    gate = Gate()
    recorders = {side: Recorder(side, twin, gate) for side in tokens}
    opened = {side: _open(browser, server, game, tokens[side], recorders[side]) for side in tokens}

    def send(side: str, turn: int, phase: str, lines: Sequence[str]) -> None:
        r = httpx.post(
            f"{server}/api/games/{game}/orders",
            headers={"X-Battleline-Token": tokens[side]},
            json={"turn": turn, "phase": phase, "lines": list(lines)},
        )
        assert r.status_code == 200, r.text

    try:
        while True:
            for _, page in opened.values():
                _caught_up(page, twin)
            if twin.finished:
                break
            gate.settle(opened["Blue"][1])
            twin.step(send)
        # The last page shows the battle's marks on the ship it shows, box for box.
        _, blue = opened["Blue"]
        shown = httpx.get(
            f"{server}/api/games/{game}/shiplog", headers={"X-Battleline-Token": tokens["Blue"]}
        ).json()["ships"][0]
        boxes = [b for s in shown["sections"] for r in s["rows"] for b in r["boxes"]]
        marked = sum(b["mark"] != "none" or bool(b.get("slashes")) for b in boxes)
        assert marked > 0, "the duel marks Yoshino's log"
        drawn = blue.locator("#shiplog-sheet .shiplog-section").locator(
            ".shiplog-slash, .shiplog-cross"
        )
        assert drawn.count() == marked
    finally:
        for rec in recorders.values():
            rec.closed = True
        for context, page in opened.values():
            page.unroute_all(behavior="ignoreErrors")
            context.close()

    umpire = httpx.get(
        f"{server}/api/games/{game}/umpire", params={"token": made["umpire_token"]}
    ).json()
    assert umpire["state_hash"] == twin.hash()  # the twin played the server's game
    leaks = [leak for rec in recorders.values() for leak in rec.leaks()]
    assert not leaks, "\n".join(leaks[:10])
    for side, rec in recorders.items():
        urls = [r.url for r in rec.received] + rec.streams
        for route in ("/view", "/shiplog", "/static/js/main.js", "/static/js/shiplog.js"):
            assert any(route in u for u in urls), f"{side}'s page never fetched {route}"
        # every response the page saw came through the scan, and the scan read a whole game
        assert set(rec.seen_urls) <= set(urls)
        assert sum("/shiplog" in u for u in urls) >= twin.phases
        assert all(r.status < 500 for r in rec.received)
