"""The ship log part of the player's page in Chromium: pick a ship, read her log as the paper's
grid of boxes (BF6-GEN-04, REF-BF6-05), or an enemy as seen; by keyboard, and on a phone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.browser_fixtures import CHROMIUM, browser, page, server, sync_api

__all__ = ["browser", "page", "server"]  # fixtures, found by pytest
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no {CHROMIUM}")

SECTIONS = [
    "Armament",
    "Propulsion",
    "Damage control",
    "Flooding",
    "Fires",
    "Bridge, conning tower, steering",
    "Searchlights and torpedoes",
    "Sinking",
]


def _join_blue(server: str, page: Any) -> dict[str, Any]:
    r = httpx.post(f"{server}/api/games", json={"scenario": "cruiser-duel", "ai": ["Red"]})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    page.goto(server + "/#game=" + made["game_id"] + "&invite=" + made["invites"][0]["invite"])
    sync_api.expect(page.locator("#side")).to_have_text("Blue")
    return made


def test_own_log_as_the_paper_then_an_enemy_as_seen_by_keyboard(server: str, page: Any) -> None:
    expect = sync_api.expect
    _join_blue(server, page)
    part = page.locator("#shiplog-part")
    expect(part).to_be_visible()
    sheet = page.locator("#shiplog-sheet")
    expect(sheet.locator("h4")).to_have_text("Ship log of Yoshino")
    assert sheet.locator(".shiplog-section h5").all_text_contents() == SECTIONS
    # Every box of the paper: 4 lettered positions, 8 + 22 beam guns, 6 DC boxes, 4 compartments
    # of L/M/Hvy/Sev with a frame round each Hvy, the rudder line, the torpedo mounts.
    armament = sheet.locator("[data-section=armament] .shiplog-row")
    expect(armament.first).to_contain_text("Main 15.2 cm (A)")
    expect(sheet.locator("[data-section=dc] .shiplog-box")).to_have_count(6)
    expect(sheet.locator("[data-section=flooding] .shiplog-frame-open")).to_have_count(4)
    expect(sheet.locator("[data-section=command]")).to_contain_text("RC")
    expect(sheet.locator("[data-section=torpedoes]")).to_contain_text("left")
    expect(sheet.locator(".shiplog-legend li")).to_have_count(3)
    first_speed = sheet.locator("[data-section=propulsion] .shiplog-box").first
    expect(first_speed).to_contain_text("kn")
    expect(first_speed).to_have_attribute("aria-label", re.compile("kn.*clear"))

    # Keyboard: the picker is a real <select>; the sheet is focusable to scroll it.
    picker = page.locator("#shiplog-ship")
    picker.focus()
    page.keyboard.press("ArrowDown")
    expect(picker).to_have_value(re.compile(r"^enemy:"))
    expect(sheet.locator("h4")).to_have_text(re.compile(r"^(?!Ship log of)"))
    expect(sheet).to_contain_text("only what shows from your bridges")
    expect(sheet.locator(".shiplog-section")).to_have_count(0)
    assert sheet.evaluate("e => e.tabIndex") == 0
    sheet.focus()
    assert page.evaluate("document.activeElement.id") == "shiplog-sheet"
    page.keyboard.press("ArrowUp")  # (scrolls the sheet; the picker keeps its choice)
    picker.focus()
    page.keyboard.press("ArrowUp")
    expect(picker).to_have_value("own:Yoshino")
    expect(sheet.locator("h4")).to_have_text("Ship log of Yoshino")


def test_the_log_refreshes_when_the_phase_changes(server: str, page: Any) -> None:
    expect = sync_api.expect
    _join_blue(server, page)
    part = page.locator("#shiplog-part")
    expect(part).to_have_attribute("data-shown", "1/command/null")
    page.fill("#order-lines", "Blue cruiser: SPD15")
    page.click("#submit-button")
    expect(page.locator("#phase")).to_have_text("gunnery")
    expect(part).to_have_attribute("data-shown", re.compile(r"^1/gunnery/"))
    expect(page.locator("#shiplog-ship")).to_have_value("own:Yoshino")


def test_the_part_fits_a_phone_and_scrolls_within_its_box(server: str, page: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    _join_blue(server, page)
    sheet = page.locator("#shiplog-sheet")
    sync_api.expect(sheet.locator("h4")).to_have_text("Ship log of Yoshino")
    box = page.locator("#shiplog-part").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    inner = sheet.evaluate("e => [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight]")
    assert inner[0] <= inner[1], "no sideways scrolling inside the log on a phone"
    assert inner[2] > inner[3], "the long log scrolls within its own box"
