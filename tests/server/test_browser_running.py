"""Running a game in real Chromium: the lobby lists the seats this browser holds, the umpire
hands an absent side to the computer from the umpire's page, and once the battle is over the
players' page shows the after-action report and a keyboard-driven replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from server.browser_fixtures import CHROMIUM, browser, page, server, sync_api

__all__ = ["browser", "page", "server"]  # fixtures, found by pytest
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no {CHROMIUM}")


def _new_game(server: str, ai: list[str], **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{server}/api/games", json={"scenario": "cruiser-duel", "ai": ai, **body})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def _claim(server: str, made: dict[str, Any], side: str) -> str:
    invite = next(i["invite"] for i in made["invites"] if i["side"] == side)
    r = httpx.post(f"{server}/api/games/{made['game_id']}/claim", json={"invite": invite})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def test_the_lobby_lists_the_seats_this_browser_holds(server: str, page: Any) -> None:
    expect = sync_api.expect
    first = _new_game(server, ["Red"])
    second = _new_game(server, [])
    page.goto(f"{server}/#game={first['game_id']}&invite={first['invites'][0]['invite']}")
    expect(page.locator("#side")).to_have_text("Blue")
    red_invite = second["invites"][1]["invite"]
    page.goto(f"{server}/#game={second['game_id']}&invite={red_invite}")
    page.reload()  # a new hash alone does not reload the page
    expect(page.locator("#side")).to_have_text("Red")
    page.goto(f"{server}/")
    page.reload()
    seats = page.locator("#running-lobby .running-seat")
    expect(seats).to_have_count(2)
    expect(seats.nth(0)).to_contain_text("Red")
    expect(seats.nth(0)).to_contain_text("your move")
    expect(seats.nth(1)).to_contain_text("Blue")
    expect(seats.nth(1)).to_contain_text("turn 1, command phase")
    seats.nth(1).locator("a").focus()
    page.keyboard.press("Enter")
    page.reload()
    expect(page.locator("#side")).to_have_text("Blue")
    expect(page.locator("#running-lobby")).to_be_hidden()


def test_the_umpire_hands_a_side_to_the_computer(server: str, page: Any) -> None:
    expect = sync_api.expect
    made = _new_game(server, [], deadline_minutes=20)
    blue = _claim(server, made, "Blue")
    red_page = page.context.new_page()
    red_page.goto(f"{server}/#game={made['game_id']}&invite={made['invites'][1]['invite']}")
    expect(red_page.locator("#side")).to_have_text("Red")
    expect(red_page.locator("#running-part .running-clock")).to_contain_text("left")
    page.goto(made["umpire_page"])
    expect(page.locator("#umpire-phase")).to_have_text("command")
    expect(page.locator("#umpire-clock")).to_contain_text("left")
    expect(page.locator("#umpire-resolve")).to_be_disabled()  # the deadline has not passed
    button = page.get_by_role("button", name="Hand Red to the computer")
    button.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#umpire-message")).to_contain_text("The computer plays Red")
    expect(page.locator('#umpire-sides tr[data-side="Red"]')).to_contain_text("the computer")
    r = httpx.post(
        f"{server}/api/games/{made['game_id']}/orders",
        headers={"X-Battleline-Token": blue},
        json={"turn": 1, "phase": "command", "lines": ["Blue cruiser: SPD15"]},
    )
    assert r.json()["resolved"] is True  # the computer answered for Red
    expect(page.locator("#umpire-phase")).to_have_text("gunnery", timeout=10_000)
    expect(page.locator("#umpire-actions")).to_contain_text("hand-to-ai")
    # Red's own page keeps its view, and says who gives its orders now.
    expect(red_page.locator("#phase")).to_have_text("gunnery", timeout=10_000)
    expect(red_page.locator("#running-part .running-handed")).to_contain_text("to the computer")
    page.get_by_role("button", name="Take Red back").click()
    expect(page.locator("#umpire-message")).to_contain_text("back with its player")
    page.set_viewport_size({"width": 390, "height": 800})  # the umpire's page fits a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_after_the_battle_the_report_and_the_replay_show(server: str, page: Any) -> None:
    expect = sync_api.expect
    made = _new_game(server, ["Red"])
    blue = _claim(server, made, "Blue")
    r = httpx.post(
        f"{server}/api/games/{made['game_id']}/hand-to-ai",
        headers={"X-Battleline-Token": made["umpire_token"]},
        json={"side": "Blue"},
        timeout=60,
    )
    assert r.json()["finished"] is True, r.text
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{server}/#game={made['game_id']}&token={blue}")
    expect(page.locator("#result")).to_contain_text("The battle is over")
    aar = page.locator("#running-part .running-aar")
    expect(aar).to_contain_text("After-action report")
    expect(aar.locator('tr[data-ship="Yoshino"]')).to_be_visible()
    expect(aar.locator(".running-verdict")).to_have_text(r.json()["result"])
    where = page.locator("#running-part .running-where")
    expect(where).to_contain_text("Step 1 of")
    expect(where).to_contain_text("turn 1, command phase")
    page.locator("#running-part .running-next").focus()
    page.keyboard.press("Enter")
    expect(where).to_contain_text("Step 2 of")
    page.keyboard.press("End")
    expect(where).to_contain_text("the end")
    expect(page.locator("#running-part .running-next")).to_be_disabled()
    page.keyboard.press("Home")
    expect(where).to_contain_text("Step 1 of")
    page.wait_for_function(
        "document.querySelector('#running-part .running-picture').naturalWidth > 0"
    )
    expect(page.locator("#running-part .running-events")).to_contain_text("command phase")
    # The report's wide tables scroll inside the part, which fits a phone's width.
    fits = "e => e.scrollWidth <= e.clientWidth + 1"
    assert page.locator("#running-part .running-aar").evaluate(fits)
    assert page.locator("#running-part .running-replay").evaluate(fits)
