"""The live page in real Chromium: push instead of polling, chat and presence, an outage and the
resync after it, and the page on a phone.

Each test serves its own app with uvicorn in a thread (:class:`server.sse.Uvicorn`), so the
outage test can stop the server and start it again on the same port and database.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from battleline.server.app import create_app
from battleline.server.limits import Limits
from server.browser_fixtures import CHROMIUM, browser, sync_api
from server.server_helpers import Seat, start
from server.sse import Uvicorn

__all__ = ["browser"]  # a fixture, found by pytest
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no {CHROMIUM}")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Uvicorn]:
    db = tmp_path / "live.sqlite3"
    srv = Uvicorn(create_app(str(db), allow_seed=True, scenario_dir=tmp_path / "sc")).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def web(served: Uvicorn) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=served.url, timeout=20) as c:
        yield c


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context()
    try:
        yield ctx
    finally:
        ctx.close()


def _open(context: Any, srv: Uvicorn, seat: Seat) -> Any:
    page = context.new_page()
    page.goto(f"{srv.url}/#game={seat.game}&token={seat.token}")
    sync_api.expect(page.locator("#live-state")).to_have_text("connected", timeout=10_000)
    return page


def _views(log: list[tuple[float, str]], after: float) -> int:
    return sum(1 for at, url in log if at >= after and "/view" in url)


def test_the_other_sides_move_arrives_by_push_with_no_polling(
    served: Uvicorn, web: httpx.Client, browser: Any
) -> None:
    """While connected the page asks for its view only after a push; Red's seal and the
    resolution arrive by push, and so do presence and chat (Red's side channel never shows)."""
    _made, seats = start(web)  # type: ignore[arg-type]
    blue_ctx, red_ctx = browser.new_context(), browser.new_context()
    try:
        blue = _open(blue_ctx, served, seats["Blue"])
        requests: list[tuple[float, str]] = []
        blue.on("request", lambda r: requests.append((time.monotonic(), r.url)))
        expect = sync_api.expect
        expect(blue.locator("#live-presence")).to_contain_text("Red: not connected")
        quiet_from = time.monotonic()
        time.sleep(5.0)  # two and a half of the old 2 s polls
        assert _views(requests, quiet_from) == 0, requests

        red = _open(red_ctx, served, seats["Red"])
        expect(blue.locator("#live-presence")).to_contain_text("Red: connected")

        blue.fill("#order-lines", "Blue cruiser: SPD15")
        blue.click("#submit-button")
        expect(blue.locator("#waiting")).to_be_visible()
        expect(red.locator("#waiting")).to_be_hidden()
        pushed_at = time.monotonic()
        r = seats["Red"].order(1, "command", "Red cruiser: SPD17")
        assert r.json()["resolved"] is True
        expect(blue.locator("#phase")).to_have_text("gunnery", timeout=5000)
        expect(red.locator("#phase")).to_have_text("gunnery", timeout=5000)
        assert _views(requests, pushed_at) <= 3  # the fetches after the pushes, not a poll

        red.select_option("#live-channel", "all")
        red.fill("#live-chat-text", "Well shot, Blue")
        red.keyboard.press("Enter")
        expect(blue.locator("#live-chat-list")).to_contain_text("Well shot, Blue")
        red.select_option("#live-channel", "side")
        red.fill("#live-chat-text", "Red only: close the range")
        red.click("#live-chat-send")
        expect(red.locator("#live-chat-list")).to_contain_text("Red only: close the range")
        blue.fill("#live-chat-text", "Blue only: keep her on the bow")  # side: the default
        blue.click("#live-chat-send")
        expect(blue.locator("#live-chat-list")).to_contain_text("Blue only")
        blue.select_option("#live-channel", "all")
        blue.fill("#live-chat-text", "thank you")
        blue.click("#live-chat-send")
        expect(red.locator("#live-chat-list")).to_contain_text("thank you")
        expect(blue.locator("#live-chat-list")).not_to_contain_text("Red only")
        expect(red.locator("#live-chat-list")).not_to_contain_text("Blue only")

        red_ctx.close()
        expect(blue.locator("#live-presence")).to_contain_text("Red: not connected")
    finally:
        blue_ctx.close()
        red_ctx.close()


def test_an_outage_shows_the_banner_keeps_the_draft_and_sends_the_queued_orders(
    served: Uvicorn, web: httpx.Client, context: Any
) -> None:
    _made, seats = start(web)  # type: ignore[arg-type]
    page = _open(context, served, seats["Blue"])
    expect = sync_api.expect
    page.fill("#order-lines", "Blue cruiser: SPD")  # a draft, half written

    served.stop()
    expect(page.locator("#live-banner")).to_be_visible(timeout=5000)
    expect(page.locator("#live-banner")).to_contain_text("your draft is kept")
    page.fill("#order-lines", "Blue cruiser: SPD15")
    page.click("#submit-button")
    expect(page.locator("#message")).to_contain_text("will be sealed when it is back")
    expect(page.locator("#order-lines")).to_have_value("Blue cruiser: SPD15")
    kept = page.evaluate("Object.keys(localStorage).filter(k => k.includes(':draft:'))")
    assert kept and page.evaluate(f"localStorage.getItem({kept[0]!r})") == '"Blue cruiser: SPD15"'
    page.close()  # the draft and the queue outlive the page

    served.start()
    page = _open(context, served, seats["Blue"])
    expect(page.locator("#live-banner")).to_be_hidden()
    expect(page.locator("#order-lines")).to_have_value("Blue cruiser: SPD15")
    expect(page.locator("#message")).to_contain_text("queued orders are sealed", timeout=5000)
    expect(page.locator("#my-orders")).to_have_text("Blue cruiser: SPD15")
    assert seats["Red"].order(1, "command", "Red cruiser: SPD17").json()["resolved"] is True
    expect(page.locator("#phase")).to_have_text("gunnery", timeout=3000)


def test_the_stream_comes_back_by_itself_and_resyncs(
    served: Uvicorn, web: httpx.Client, context: Any
) -> None:
    """The server stops while the page stays open; Red seals meanwhile (through the restarted
    server); the page reconnects on its own, resyncs and sends the orders queued in the
    outage."""
    _made, seats = start(web)  # type: ignore[arg-type]
    page = _open(context, served, seats["Blue"])
    expect = sync_api.expect
    served.stop()
    expect(page.locator("#live-banner")).to_be_visible(timeout=5000)
    page.fill("#order-lines", "Blue cruiser: SPD12")
    page.click("#submit-button")
    expect(page.locator("#message")).to_contain_text("will be sealed when it is back")
    served.start()
    expect(page.locator("#live-banner")).to_be_hidden(timeout=20_000)
    expect(page.locator("#live-state")).to_have_text("connected")
    expect(page.locator("#my-orders")).to_have_text("Blue cruiser: SPD12", timeout=5000)
    assert seats["Red"].order(1, "command", "Red cruiser: SPD17").json()["resolved"] is True
    expect(page.locator("#phase")).to_have_text("gunnery", timeout=3000)


def test_queued_orders_for_a_phase_that_closed_are_not_sent(
    served: Uvicorn, web: httpx.Client, context: Any
) -> None:
    """The browser goes offline with Blue's orders queued; the phase is resolved meanwhile
    (Blue sealed from another device, Red answered); back online, the page says the queued
    orders were for a closed phase and does not send them."""
    _made, seats = start(web)  # type: ignore[arg-type]
    page = _open(context, served, seats["Blue"])
    expect = sync_api.expect
    context.set_offline(True)
    page.fill("#order-lines", "Blue cruiser: SPD9")
    page.click("#submit-button")
    expect(page.locator("#message")).to_contain_text("will be sealed when it is back")
    expect(page.locator("#live-banner")).to_be_visible(timeout=5000)
    assert seats["Blue"].order(1, "command", "Blue cruiser: SPD15").status_code == 200
    assert seats["Red"].order(1, "command", "Red cruiser: SPD17").json()["resolved"] is True
    context.set_offline(False)
    expect(page.locator("#live-state")).to_have_text("connected", timeout=20_000)
    expect(page.locator("#message")).to_contain_text("that phase closed")
    expect(page.locator("#message")).to_contain_text("Blue cruiser: SPD9")
    expect(page.locator("#phase")).to_have_text("gunnery")
    umpire = seats["umpire"].get("umpire").json()
    assert "SPD9" not in str(umpire)  # the stale orders never reached the server


#: Stands in for the browser's notifications (granted) and makes the tab hidden.
FAKE_NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push([title, options.body]); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
Object.defineProperty(document, "hidden", { get: () => true });
"""


def test_your_move_is_notified_once_per_phase_when_the_tab_is_hidden(
    served: Uvicorn, web: httpx.Client, context: Any
) -> None:
    _made, seats = start(web)  # type: ignore[arg-type]
    context.add_init_script(FAKE_NOTIFICATIONS)
    page = _open(context, served, seats["Blue"])
    expect = sync_api.expect
    expect(page.locator("#live-notify")).to_have_text("Notifications on")
    page.wait_for_function("window.__notes.length > 0")
    assert page.evaluate("window.__notes") == [
        ["battleline: your move", "Blue: turn 1, command phase"]
    ]
    r = seats["Red"].client.post(
        f"/api/games/{seats['Red'].game}/chat",
        headers={"X-Battleline-Token": seats["Red"].token},
        json={"channel": "all", "text": "your move, sir"},
    )
    assert r.status_code == 201
    assert seats["Red"].order(1, "command", "Red cruiser: SPD17").status_code == 200
    expect(page.locator("#live-chat-list")).to_contain_text("your move, sir")
    expect(page.locator("#waiting")).to_be_hidden()
    assert len(page.evaluate("window.__notes")) == 1  # pushes in the same phase: no repeat
    page.fill("#order-lines", "Blue cruiser: SPD15")
    page.click("#submit-button")  # sealed: the phase resolves, the next one waits for Blue
    expect(page.locator("#phase")).to_have_text("gunnery")
    page.wait_for_function("window.__notes.length > 1")
    assert page.evaluate("window.__notes")[1:] == [
        ["battleline: your move", "Blue: turn 1, gunnery phase"]
    ]


def test_a_phone_sees_the_page_without_sideways_scrolling(
    served: Uvicorn, web: httpx.Client, browser: Any
) -> None:
    """390 px wide: one column, no horizontal scroll; the skip link is the first tab stop and
    the focus ring shows."""
    _made, seats = start(web)  # type: ignore[arg-type]
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = _open(phone, served, seats["Blue"])
        sync_api.expect(page.locator("#ship-rows")).to_contain_text("cruiser")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 390, f"the page is {wide} px wide"
        lefts = page.evaluate(
            "[...document.querySelectorAll('main > section:not([hidden])')]"
            ".map(s => Math.round(s.getBoundingClientRect().left))"
        )
        assert len(set(lefts)) == 1, lefts  # a single column
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.className")
        assert focused == "skip-link"
        ring = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert ring != "none"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "game"
    finally:
        phone.close()


def test_a_refused_stream_falls_back_to_polling_without_the_outage_banner(
    tmp_path: Path, context: Any
) -> None:
    """A server that refuses every stream (its limit is 0) still answers the view: the page keeps
    polling, shows no "cannot be reached" banner, and still gets the other side's move."""
    app = create_app(
        str(tmp_path / "p.sqlite3"),
        allow_seed=True,
        scenario_dir=tmp_path / "sc",
        limits=Limits(streams=0),
    )
    srv = Uvicorn(app).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=20) as web:
            _made, seats = start(web)  # type: ignore[arg-type]
            page = context.new_page()
            page.goto(f"{srv.url}/#game={seats['Blue'].game}&token={seats['Blue'].token}")
            expect = sync_api.expect
            expect(page.locator("#phase")).to_have_text("command")
            page.wait_for_timeout(3500)  # a few refused streams and tries
            expect(page.locator("#live-state")).to_have_text("not connected")
            expect(page.locator("#live-banner")).to_be_hidden()
            page.fill("#order-lines", "Blue cruiser: SPD15")
            page.click("#submit-button")
            # Blue's orders are sealed (the page waits for Red) before Red seals his.
            expect(page.locator("#waiting")).to_be_visible()
            assert seats["Red"].order(1, "command", "Red cruiser: SPD17").json()["resolved"]
            expect(page.locator("#phase")).to_have_text("gunnery", timeout=10_000)
            expect(page.locator("#live-banner")).to_be_hidden()
    finally:
        srv.stop()
