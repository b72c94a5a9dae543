"""The page under the server's real rate limit, in Chromium.

Every request from one client address takes a token from that address's bucket (``limits.py``:
20 a second, bursts of 120), so all the tabs and players behind one address share it. When it is
empty the server answers 429 with ``Retry-After`` before any route runs. A page whose reads were
refused that way must read again once the pause is over; before it did, a push that arrived
while the bucket was empty left the page on the old phase for good (the order form, the table
and the view never read again until the next push, which never came). That is how the browser
tests of one module, whose pages all come from 127.0.0.1 and share one server, failed now and
then on a fast run: the last tests found the bucket spent by the earlier ones.

The test empties the page's bucket on a stopped clock, resolves the phase from another address
(127.0.0.2, with a bucket of its own), waits until the page has been refused, then lets the
clock run: the page must reach the new phase by itself.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from battleline.server.app import create_app
from server.browser_fixtures import CHROMIUM, browser, page, sync_api
from server.sse import Uvicorn

__all__ = ["browser", "page"]  # fixtures, found by pytest
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no {CHROMIUM}")

OTHER_ADDRESS = "127.0.0.2"  # the loopback network: a second client address on this machine
TIMEOUT = 15_000


class Clock:
    """The rate limit's clock: the real one, or stopped at one moment (no refill meanwhile)."""

    def __init__(self) -> None:
        self.stopped_at: float | None = None

    def __call__(self) -> float:
        return time.monotonic() if self.stopped_at is None else self.stopped_at


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[tuple[str, Clock]]:
    """A server with the default limits, whose request buckets run on a clock the test holds."""
    app = create_app(str(tmp_path / "web.sqlite3"), scenario_dir=tmp_path / "scenarios")
    clock = Clock()
    app.requests.clock = clock
    srv = Uvicorn(app).start()
    yield srv.url, clock
    srv.stop()


def test_a_page_refused_by_the_rate_limit_reads_again_after_the_pause(
    limited: tuple[str, Clock], page: Any
) -> None:
    url, clock = limited
    other = httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=OTHER_ADDRESS))
    with other:
        made = other.post("/api/games", json={"scenario": "cruiser-duel", "ai": []}).json()
        game = made["game_id"]
        tokens = {
            inv["side"]: other.post(
                f"/api/games/{game}/claim", json={"invite": inv["invite"]}
            ).json()["token"]
            for inv in made["invites"]
        }
        refused: list[str] = []
        page.on("response", lambda r: refused.append(r.url) if r.status == 429 else None)
        page.goto(f"{url}/#game={game}&token={tokens['Blue']}")
        expect = sync_api.expect
        forms_title = page.locator("#forms-part h3")
        expect(forms_title).to_contain_text("turn 1, command phase", timeout=TIMEOUT)
        expect(page.locator("#live-state")).to_have_text("connected", timeout=TIMEOUT)
        expect(page.locator("#table-note")).to_contain_text("command phase", timeout=TIMEOUT)
        assert refused == []

        # The page's address spends its whole budget while the clock stands still.
        clock.stopped_at = time.monotonic()
        for _ in range(200):
            if httpx.get(f"{url}/api/notation").status_code == 429:
                break
        else:
            raise AssertionError("the bucket of 127.0.0.1 never emptied")

        # Both sides seal from the other address: the phase resolves, the push reaches the page.
        for side in ("Red", "Blue"):
            r = other.post(
                f"/api/games/{game}/orders",
                headers={"X-Battleline-Token": tokens[side]},
                json={"turn": 1, "phase": "command", "lines": []},
            )
            assert r.status_code == 200, r.text
        deadline = time.monotonic() + 10
        while not refused:  # the page's reads after the push are refused
            assert time.monotonic() < deadline, "the page asked nothing after the push"
            page.wait_for_timeout(100)
        expect(forms_title).to_contain_text("turn 1, command phase")

        clock.stopped_at = None  # the bucket fills again; no further push comes
        expect(forms_title).to_contain_text("turn 1, gunnery phase", timeout=TIMEOUT)
        expect(page.locator("#phase")).to_have_text("gunnery")
        expect(page.locator("#table-note")).to_contain_text("gunnery phase")
        expect(page.locator("#live-banner")).to_be_hidden()
        assert any("/view" in u for u in refused), refused
