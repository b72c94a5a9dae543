"""The player's page in a real browser: claim a seat, submit sealed orders, see the phase advance.

Drives Debian's chromium (``/usr/bin/chromium``) through Playwright's sync API against a uvicorn
server the test starts on 127.0.0.1 in a thread. Skipped where chromium or Playwright is missing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.browser_fixtures import CHROMIUM, browser, page, server, sync_api

__all__ = ["browser", "page", "server"]  # fixtures, found by pytest
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no {CHROMIUM}")


def _new_game(server: str, ai: list[str]) -> dict[str, Any]:
    r = httpx.post(f"{server}/api/games", json={"scenario": "cruiser-duel", "ai": ai})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def test_join_submit_and_see_the_phase_advance(server: str, page: Any) -> None:
    """Blue claims its seat by pasting the invite in the form, is refused a bad order, seals a
    good one; the AI's Red answers."""
    made = _new_game(server, ["Red"])
    expect = sync_api.expect
    page.goto(server + "/")
    page.fill("#game-id", made["game_id"])
    page.fill("#token", made["invites"][0]["invite"])
    page.click("#join-button")
    expect(page.locator("#side")).to_have_text("Blue")
    expect(page.locator("#message")).to_contain_text("Seat claimed")
    assert re.search(r"#game=\w+&token=", page.url)
    expect(page.locator("#phase")).to_have_text("command")
    expect(page.locator("#ship-rows")).to_contain_text("Yoshino")
    expect(page.locator("#help")).to_contain_text("SPD")
    expect(page.locator("#table-svg [data-ship='Yoshino']")).to_be_visible()

    page.fill("#order-lines", "Blue cruiser: SPD15 XX")
    page.click("#submit-button")
    expect(page.locator("#message")).to_contain_text("XX")
    expect(page.locator("#phase")).to_have_text("command")

    page.fill("#order-lines", "Blue cruiser: SPD15")
    page.click("#submit-button")
    expect(page.locator("#phase")).to_have_text("gunnery")
    expect(page.locator("#event-list")).to_contain_text("Blue: Blue cruiser: SPD15")


def test_waiting_for_the_other_side_then_polling(server: str, page: Any) -> None:
    """Two humans: Blue opens its invite link, waits after sealing, and the page picks up Red's
    move by polling. The invite link opened again is refused: the seat is taken."""
    made = _new_game(server, [])
    blue_invite, red_invite = (s["invite"] for s in made["invites"])
    game = made["game_id"]
    red = httpx.post(f"{server}/api/games/{game}/claim", json={"invite": red_invite}).json()
    page.goto(f"{server}/#game={game}&invite={blue_invite}")
    expect = sync_api.expect
    expect(page.locator("#phase")).to_have_text("command")
    page.fill("#order-lines", "Blue cruiser: SPD15")
    page.click("#submit-button")
    expect(page.locator("#waiting")).to_be_visible()
    expect(page.locator("#my-orders")).to_have_text("Blue cruiser: SPD15")
    r = httpx.post(
        f"{server}/api/games/{made['game_id']}/orders",
        headers={"X-Battleline-Token": red["token"]},
        json={"turn": 1, "phase": "command", "lines": ["Red cruiser: SPD17"]},
    )
    assert r.json()["resolved"] is True
    expect(page.locator("#phase")).to_have_text("gunnery", timeout=10_000)
    expect(page.locator("#waiting")).to_be_hidden()
    expect(page.locator("#event-list")).to_contain_text("Blue: Blue cruiser: SPD15")
    # Red's written orders stay Red's: Blue sees only what they did on the table.
    expect(page.locator("#event-list")).not_to_contain_text("Red: Red cruiser: SPD17")

    other = page.context.new_page()
    other.goto(f"{server}/#game={game}&invite={blue_invite}")
    expect(other.locator("#message")).to_contain_text("claimed already")
    expect(other.locator("#side")).to_have_text("")  # no seat opened


def test_the_game_link_shows_the_seats(server: str, page: Any) -> None:
    made = _new_game(server, ["Red"])
    page.goto(made["game_url"].replace("http://testserver/", server + "/"))
    expect = sync_api.expect
    expect(page.locator("#message")).to_contain_text("Blue: open, Red: the computer")
    page.fill("#token", made["invites"][0]["invite"])
    page.click("#join-button")
    expect(page.locator("#side")).to_have_text("Blue")
