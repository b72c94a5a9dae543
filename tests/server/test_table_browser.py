"""The table part in real Chromium: it draws, selects a ship by click and by keyboard, zooms and
pans by moving the viewBox, goes back a turn with its slider, and fits a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from server.browser_fixtures import CHROMIUM, browser, page, server, sync_api

__all__ = ["browser", "page", "server"]  # fixtures, found by pytest
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no {CHROMIUM}")
OPEN_TIMEOUT = 15_000


def _seat(
    server: str, turns: int = 0, scenario: str = "cruiser-duel", ai: str = "Red"
) -> tuple[str, str]:
    """A game against the AI with the first side's seat claimed, played ``turns`` turns on."""
    made = httpx.post(f"{server}/api/games", json={"scenario": scenario, "ai": [ai]})
    assert made.status_code == 201, made.text
    game = made.json()["game_id"]
    invite = made.json()["invites"][0]["invite"]
    token = httpx.post(f"{server}/api/games/{game}/claim", json={"invite": invite}).json()["token"]
    headers = {"X-Battleline-Token": token}
    while True:
        v = httpx.get(f"{server}/api/games/{game}/view", headers=headers).json()
        if v["turn"] > turns or v["result"] is not None:
            return game, token
        body = {"turn": v["turn"], "phase": v["phase"], "lines": []}
        r = httpx.post(f"{server}/api/games/{game}/orders", headers=headers, json=body)
        assert r.status_code == 200, r.text


def _open(page: Any, server: str, game: str, token: str, ship: str = "Yoshino") -> None:
    """Open the seat's page and wait for the table to show ``ship``. The page's first reads may
    be paced by the rate limit (every test of the module shares 127.0.0.1's bucket: a refused
    read comes again after ``Retry-After``, a second or more), and CI runs two workers, each with
    its Chromium, on two cores: so 15 s, not Playwright's default 5."""
    page.goto(f"{server}/#game={game}&token={token}")
    ship_drawn = page.locator(f"#table-svg [data-ship='{ship}']")
    sync_api.expect(ship_drawn).to_be_visible(timeout=OPEN_TIMEOUT)


def _box(page: Any) -> list[float]:
    return [float(v) for v in page.get_attribute("#table-svg", "viewBox").split()]


def test_the_table_draws_and_a_click_shows_the_arcs(server: str, page: Any) -> None:
    game, token = _seat(server)
    _open(page, server, game, token)
    expect = sync_api.expect
    expect(page.locator("#table-svg .table-enemy g")).to_have_count(1)  # Kasagi, as seen
    expect(page.locator("#table-svg .table-arc")).to_have_count(0)
    expect(page.locator("#table-scale text")).to_contain_text("mm")
    page.locator("#table-svg [data-ship='Yoshino']").click()
    assert page.locator("#table-selection .table-arc polygon").count() > 0
    expect(page.locator("#table-selection .table-ring")).to_have_count(4)  # range brackets
    expect(page.locator("#table-selection .table-turning")).to_have_count(2)
    expect(page.locator("#table-selection .table-move")).to_have_count(1)
    expect(page.locator("#table-legend")).to_contain_text("A: ")
    expect(page.locator("#table-legend")).to_contain_text("BF6-BEAM")


def test_zoom_and_pan_move_the_viewbox(server: str, page: Any) -> None:
    game, token = _seat(server)
    _open(page, server, game, token)
    x, _, w, _ = _box(page)
    page.click("#table-zoom-in")
    assert _box(page)[2] < w
    page.click("#table-zoom-out")
    assert _box(page)[2] == pytest.approx(w)
    page.focus("#table-svg")
    page.keyboard.press("ArrowRight")
    assert _box(page)[0] > x
    page.keyboard.press("-")
    assert _box(page)[2] > w
    wide = _box(page)[2]
    page.hover("#table-svg")
    page.mouse.wheel(0, -200)
    page.wait_for_function(f"document.getElementById('table-svg').viewBox.baseVal.width < {wide}")
    before = _box(page)
    svg = page.locator("#table-svg").bounding_box()
    page.mouse.move(svg["x"] + 40, svg["y"] + 40)
    page.mouse.down()
    page.mouse.move(svg["x"] + 140, svg["y"] + 90, steps=5)
    page.mouse.up()
    after = _box(page)
    assert after[0] < before[0] and after[1] < before[1]  # dragged right and down


def test_the_slider_goes_back_a_turn(server: str, page: Any) -> None:
    game, token = _seat(server, turns=2)
    _open(page, server, game, token)
    expect = sync_api.expect
    expect(page.locator("#table-turn-shown")).to_have_text("3 (now)")
    now = page.get_attribute("#table-svg [data-ship='Yoshino']", "transform")
    page.focus("#table-turn")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#table-note")).to_contain_text("Turn 2 as it stood")
    expect(page.locator("#table-turn-shown")).to_have_text("2 (as it opened)")
    then = page.get_attribute("#table-svg [data-ship='Yoshino']", "transform")
    assert then != now
    page.keyboard.press("End")
    expect(page.locator("#table-note")).to_contain_text("Now: turn 3")
    page.reload()  # the past turn comes back the same after a reload
    _open(page, server, game, token)
    page.focus("#table-turn")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#table-note")).to_contain_text("Turn 2 as it stood")
    assert page.get_attribute("#table-svg [data-ship='Yoshino']", "transform") == then


def test_keyboard_selects_a_ship(server: str, page: Any) -> None:
    game, token = _seat(server)
    _open(page, server, game, token)
    expect = sync_api.expect
    page.focus("#table-svg [data-ship='Yoshino']")
    page.keyboard.press("Enter")
    expect(page.locator("#table-svg [data-ship='Yoshino']")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("#table-svg [data-ship='Yoshino']")).to_be_focused()
    assert page.locator("#table-selection .table-arc").count() > 0
    page.keyboard.press("Enter")  # again: deselect
    expect(page.locator("#table-selection .table-arc")).to_have_count(0)
    page.focus("#table-ship-list [data-ship='Yoshino']")
    page.keyboard.press("Space")
    expect(page.locator("#table-ship-list [data-ship='Yoshino']")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert page.locator("#table-selection .table-arc").count() > 0


def test_the_table_fits_a_phone(server: str, browser: Any) -> None:
    game, token = _seat(server)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        phone = context.new_page()
        _open(phone, server, game, token)
        phone.locator("#table-ship-list [data-ship='Yoshino']").click()
        part = phone.locator("#table-part").bounding_box()
        assert part["x"] >= 0 and part["x"] + part["width"] <= 390
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


@pytest.mark.parametrize(
    ("scenario", "ai", "ship", "arcs"),
    [("tgd-duel", "Russia", "Mikasa", 6), ("yalu", "Japan", "Ting Yuen", 4)],
)
def test_tgd_and_dba_tables_draw(
    server: str, page: Any, scenario: str, ai: str, ship: str, arcs: int
) -> None:
    """TGD's card arcs (outlines) and DBA's four arcs are drawn for a selected ship."""
    game, token = _seat(server, scenario=scenario, ai=ai)
    _open(page, server, game, token, ship)
    page.locator(f"#table-svg [data-ship='{ship}']").click()
    sync_api.expect(page.locator("#table-selection .table-arc")).to_have_count(arcs)
    assert page.locator("#table-selection .table-arc polygon").count() >= arcs
    sync_api.expect(page.locator("#table-legend li")).to_have_count(arcs)
