"""The push channel, presence and chat over real HTTP (uvicorn in a thread, httpx streams).

Sealed orders stay sealed (BF6-GEN-07): a push says only which sides are in, and the chat of one
side's channel never reaches the other side while the battle is on.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from battleline.server import adapter
from battleline.server.app import create_app
from battleline.server.limits import Limits
from battleline.server.live_store import CHAT_MAX_CHARS
from server.server_helpers import Seat, start
from server.sse import Listener, Uvicorn


@pytest.fixture
def served(db: str, scenario_dir: Path) -> Iterator[Uvicorn]:
    srv = Uvicorn(create_app(db, allow_seed=True, scenario_dir=scenario_dir)).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def web(served: Uvicorn) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=served.url, timeout=20) as c:
        yield c


def _listen(srv: Uvicorn, seat: Seat, last_id: str | None = None) -> Listener:
    return Listener(f"{srv.url}/api/games/{seat.game}/stream", seat.token, last_id)


def _ids(listener: Listener) -> list[tuple[int, int, int]]:
    out = []
    for m in listener.all:
        assert m.id is not None, f"{m.event} without an id"
        a, b, c = m.id.split(".")
        out.append((int(a), int(b), int(c)))
    return out


def _chat(seat: Seat, channel: str, text: str, **more: Any) -> Any:
    return seat.client.post(
        f"/api/games/{seat.game}/chat",
        headers={"X-Battleline-Token": seat.token},
        json={"channel": channel, "text": text, **more},
    )


def test_pushes_in_order_with_ids_and_a_resync_from_the_last_id(
    served: Uvicorn, web: httpx.Client
) -> None:
    """hello, then sealed (who is in, nothing more), resolved, chat; reopened with the last id,
    the stream says the game moved on and sends only the chat missed meanwhile."""
    _made, seats = start(web)  # type: ignore[arg-type]
    blue, red = seats["Blue"], seats["Red"]
    lb = _listen(served, blue)
    try:
        hello = lb.next()
        assert hello.event == "hello"
        assert (hello.data["turn"], hello.data["phase"]) == (1, "command")
        assert hello.data["waiting_for"] == ["Blue", "Red"] and hello.data["sealed"] == []
        assert hello.data["events"] == int(blue.get("view").headers["X-Battleline-Events"])
        assert hello.data["role"] == "Blue" and not hello.data["resumed"]
        lb.next("presence") if "Blue" not in hello.data["present"] else None

        assert red.order(1, "command", "Red cruiser: SPD17").status_code == 200
        sealed = lb.next("sealed", timeout=3)
        assert sealed.data == {
            "turn": 1,
            "phase": "command",
            "sealed": ["Red"],
            "waiting_for": ["Blue"],
        }
        assert "SPD17" not in str(lb.all)  # the orders themselves stay sealed

        assert blue.order(1, "command", "Blue cruiser: SPD15").status_code == 200
        resolved = lb.next("resolved", timeout=3)
        assert (resolved.data["turn"], resolved.data["phase"]) == (1, "gunnery")
        assert resolved.data["result"] is None
        assert resolved.data["events"] == int(blue.get("view").headers["X-Battleline-Events"])

        assert _chat(red, "all", "good morning, Blue").status_code == 201
        said = lb.next("chat", timeout=3)
        assert said.data["text"] == "good morning, Blue" and said.data["from"] == "Red"
        ids = _ids(lb)
        assert ids == sorted(ids) and len(set(ids)) == len(ids)
        last = lb.all[-1].id
    finally:
        lb.close()

    assert _chat(red, "all", "are you there?").status_code == 201
    assert _chat(red, "side", "Red only: turn to port").status_code == 201
    assert red.order(1, "gunnery").status_code == 200

    again = _listen(served, blue, last_id=last)
    try:
        hello = again.next()
        assert hello.event == "hello" and hello.data["resumed"] and hello.data["missed"]
        assert hello.data["sealed"] == ["Red"] and hello.data["waiting_for"] == ["Blue"]
        missed = again.next("chat")
        assert missed.data["text"] == "are you there?"  # not the one seen already
        late = again.quiet(2.0)
        assert all(m.event != "chat" for m in late), late  # nor Red's side channel
        assert _ids(again)[0] > _ids(lb)[-1]
    finally:
        again.close()


def test_a_change_through_another_server_on_the_same_database_reaches_a_stream(
    db: str, scenario_dir: Path
) -> None:
    """Two app instances (two hubs) on one store: Red seals through the second; Blue's stream on
    the first hears of it by re-reading the store."""
    one = Uvicorn(create_app(db, allow_seed=True, scenario_dir=scenario_dir)).start()
    two = Uvicorn(create_app(db, allow_seed=True, scenario_dir=scenario_dir)).start()
    try:
        with httpx.Client(base_url=one.url) as c1, httpx.Client(base_url=two.url) as c2:
            _made, seats = start(c1)  # type: ignore[arg-type]
            blue = seats["Blue"]
            red = Seat(c2, blue.game, seats["Red"].token)  # type: ignore[arg-type]
            lb = _listen(one, blue)
            try:
                lb.next("hello")
                began = time.monotonic()
                assert red.order(1, "command", "Red cruiser: SPD17").status_code == 200
                sealed = lb.next("sealed", timeout=8)
                assert sealed.data["sealed"] == ["Red"]
                assert sealed.at - began < 4.5  # within a poll or two of the store (1.5 s)
                assert _chat(red, "all", "from the other server").status_code == 201
                assert lb.next("chat", timeout=5).data["text"] == "from the other server"
                lr = _listen(two, red)
                try:
                    assert lb.next("presence", timeout=5).data["present"] == ["Blue", "Red"]
                finally:
                    lr.close()
            finally:
                lb.close()
    finally:
        one.stop()
        two.stop()


def test_presence_is_pushed_when_a_seat_comes_and_goes(served: Uvicorn, web: httpx.Client) -> None:
    _made, seats = start(web)  # type: ignore[arg-type]
    lb = _listen(served, seats["Blue"])
    try:
        hello = lb.next("hello")
        assert hello.data["present"] == ["Blue"]
        lr = _listen(served, seats["Red"])
        assert lb.next("presence", timeout=3).data["present"] == ["Blue", "Red"]
        assert lr.next("hello").data["present"] == ["Blue", "Red"]
        lu = _listen(served, seats["umpire"])  # the umpire may listen too
        assert lb.next("presence", timeout=3).data["present"] == ["Blue", "Red", "umpire"]
        assert lu.next("hello").data["role"] == "umpire"
        lu.close()
        assert lb.next("presence", timeout=5).data["present"] == ["Blue", "Red"]
        lr.close()
        assert lb.next("presence", timeout=5).data["present"] == ["Blue"]
    finally:
        lb.close()


def test_a_stream_needs_a_seat_and_a_good_last_id(served: Uvicorn, web: httpx.Client) -> None:
    made, seats = start(web)  # type: ignore[arg-type]
    game = made["game_id"]
    r = web.get(f"/api/games/{game}/stream", params={"token": "nonsense"})
    assert r.status_code == 403 and r.json()["detail"].startswith("token:")
    r = web.get("/api/games/nosuchgame/stream", params={"token": "x"})
    assert r.status_code == 404
    r = web.get(
        f"/api/games/{game}/stream",
        params={"token": seats["Blue"].token},
        headers={"Last-Event-ID": "yesterday"},
    )
    assert r.status_code == 422 and r.json()["detail"].startswith("Last-Event-ID:")


def test_open_streams_are_limited_per_client_and_spend_no_request_budget(
    db: str, scenario_dir: Path
) -> None:
    """Two streams may stay open; a third is refused 429. While they are open (longer than the
    bucket needs to drain at 1 request/s), requests are still answered."""
    limits = Limits(rate=2.0, burst=6, streams=2)
    srv = Uvicorn(create_app(db, allow_seed=True, scenario_dir=scenario_dir, limits=limits))
    srv.start()
    try:
        with httpx.Client(base_url=srv.url) as c:
            _made, seats = start(c)  # type: ignore[arg-type]
            a, b = _listen(srv, seats["Blue"]), _listen(srv, seats["Red"])
            try:
                a.next("hello"), b.next("hello")
                r = c.get(f"/api/games/{seats['Blue'].game}/stream", params={"token": "x"})
                assert r.status_code == 429 and "open streams" in r.json()["detail"]
                time.sleep(3.5)  # several polls of the store by each stream
                assert seats["Blue"].get("view").status_code == 200
            finally:
                a.close()
                b.close()
            deadline = time.monotonic() + 5
            while srv.app.open_streams and time.monotonic() < deadline:
                time.sleep(0.1)
            assert srv.app.open_streams == {}  # closed streams are let go
            assert srv.app.app.state.hub.count(seats["Blue"].game) == 0
    finally:
        srv.stop()


# -- chat (TestClient, both stores) -------------------------------------------------------------


def test_side_chat_never_reaches_the_other_side(client: TestClient) -> None:
    _made, seats = start(client)
    blue, red, umpire = seats["Blue"], seats["Red"], seats["umpire"]
    assert _chat(blue, "side", "Blue: hold fire until 4000").status_code == 201
    assert _chat(red, "side", "Red: torpedoes at dusk").status_code == 201
    got = _chat(blue, "all", "Good luck, gentlemen")
    assert got.status_code == 201
    assert got.json()["from"] == "Blue" and got.json()["channel"] == "all"
    r = _chat(umpire, "side", "Umpire to Red: your signal is late", to="Red")
    assert r.status_code == 201 and r.json()["side"] == "Red"

    def texts(seat: Seat, since: int = 0) -> list[str]:
        r = seat.get("chat", since=since)
        assert r.status_code == 200, r.text
        return [m["text"] for m in r.json()]

    assert texts(blue) == ["Blue: hold fire until 4000", "Good luck, gentlemen"]
    assert texts(red) == [
        "Red: torpedoes at dusk",
        "Good luck, gentlemen",
        "Umpire to Red: your signal is late",
    ]
    assert len(texts(umpire)) == 4
    first = blue.get("chat").json()[0]["id"]
    assert texts(blue, since=first) == ["Good luck, gentlemen"]


def test_chat_refuses_bad_messages_naming_the_field(client: TestClient) -> None:
    _made, seats = start(client)
    blue, umpire = seats["Blue"], seats["umpire"]
    cases: list[tuple[Seat, dict[str, Any], int, str]] = [
        (blue, {"channel": "side", "text": "x" * (CHAT_MAX_CHARS + 1)}, 422, "text:"),
        (blue, {"channel": "side", "text": "   "}, 422, "text:"),
        (blue, {"channel": "side", "text": "bell\x07"}, 422, "text:"),
        (blue, {"channel": "radio", "text": "hello"}, 422, "channel:"),
        (blue, {"channel": "side", "text": "to you", "to": "Red"}, 422, "to:"),
        (blue, {"channel": "all", "text": "hi", "to": "Blue"}, 422, "to:"),
        (umpire, {"channel": "side", "text": "which side?"}, 422, "to:"),
        (blue, {"text": "no channel"}, 422, "channel:"),
    ]
    for seat, body, status, field in cases:
        r = client.post(
            f"/api/games/{seat.game}/chat", headers={"X-Battleline-Token": seat.token}, json=body
        )
        assert r.status_code == status, (body, r.text)
        assert r.json()["detail"].startswith(field), (body, r.json())
    bad = Seat(client, blue.game, "wrong")
    assert _chat(bad, "all", "hi").status_code == 403
    assert bad.get("chat").status_code == 403
    assert blue.get("chat", since=-1).status_code == 422
    assert blue.get("chat").json() == []  # nothing refused was kept


def test_after_the_battle_every_channel_is_open(client: TestClient) -> None:
    _made, seats = start(client)
    blue, red = seats["Blue"], seats["Red"]
    assert _chat(red, "side", "Red: we strike at dawn").status_code == 201
    assert "Red: we strike at dawn" not in blue.get("chat").text
    assert blue.order(1, "command", "Blue cruiser: SIG SURRENDER").status_code == 200
    assert red.order(1, "command").status_code == 200
    while not (view := blue.view())["result"]:
        for seat in (blue, red):
            seat.order(view["turn"], view["phase"])
    assert "Red: we strike at dawn" in blue.get("chat").text


def test_an_older_database_gains_the_chat_and_presence_tables(
    sqlite_db: str, scenario_dir: Path
) -> None:
    """A database made before the live part (no chat, no presence table) is opened as it is:
    the missing tables are made on start and its games go on."""
    from sqlalchemy import create_engine, inspect, text

    with TestClient(create_app(sqlite_db, allow_seed=True, scenario_dir=scenario_dir)) as c:
        _made, seats = start(c)
        game, token = seats["Blue"].game, seats["Blue"].token
    engine = create_engine(f"sqlite:///{sqlite_db}")
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE chat"))
        conn.execute(text("DROP TABLE presence"))
    assert not {"chat", "presence"} & set(inspect(engine).get_table_names())
    engine.dispose()
    with TestClient(create_app(sqlite_db, allow_seed=True, scenario_dir=scenario_dir)) as c:
        blue = Seat(c, game, token)
        assert _chat(blue, "all", "still here").status_code == 201
        assert [m["text"] for m in blue.get("chat").json()] == ["still here"]
        assert blue.order(1, "command", "Blue cruiser: SPD15").status_code == 200


# -- secrecy of every pushed message over a whole game -------------------------------------------


def test_no_pushed_message_leaks_a_secret_over_a_whole_cruiser_duel(
    sqlite_db: str, scenario_dir: Path
) -> None:
    """Both sides play a cruiser-duel to its end with the AI's orders, each from its own view,
    while both listen; every message pushed to a side before the result holds none of the
    strings the ruleset's ``secrets(state, side)`` names at any moment of the game, and neither
    side is ever pushed the other's side-channel chat. The rate limit is off: both players
    share one address here, and the game runs as fast as the machine."""
    app = create_app(
        sqlite_db, allow_seed=True, scenario_dir=scenario_dir, limits=Limits.unlimited_rate()
    )
    srv = Uvicorn(app).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            _made, seats = start(c, seed=11)  # type: ignore[arg-type]
            sides = ("Blue", "Red")
            listeners = {s: _listen(srv, seats[s]) for s in sides}
            secrets: dict[str, set[str]] = {s: set() for s in sides}
            store = app.state.store
            try:
                with store.locked(seats["Blue"].game) as live:
                    admirals = {s: adapter.admiral_for(live.game, s) for s in sides}
                turns = 0
                while True:
                    with store.locked(seats["Blue"].game) as live:
                        game = live.game
                        if adapter.finished(game):
                            break
                        for s in sides:
                            secrets[s] |= set(game.ruleset.secrets(game.state, s))
                        turn, phase = adapter.open_phase(game)
                        todo = [s for s in sides if s in adapter.waiting_for(game)]
                        planned = {
                            s: adapter.legal_lines(
                                game, s, admirals[s].orders(adapter.side_view(game, s), phase)
                            )
                            for s in todo
                        }
                    for s in todo:
                        _chat(seats[s], "side", f"{s} only, turn {turn} {phase}")
                        r = seats[s].order(turn, phase, *planned[s])
                        assert r.status_code == 200, r.text
                    turns = turn
                    assert turns < 200
                for s in sides:
                    listeners[s].next("resolved", timeout=5)
                    while listeners[s].quiet(0.5):
                        pass
            finally:
                for lst in listeners.values():
                    lst.close()
        assert turns >= 3
        for s, other in (("Blue", "Red"), ("Red", "Blue")):
            pushed = listeners[s].all
            assert sum(m.event == "resolved" for m in pushed) >= turns
            for m in pushed:
                if m.data.get("result"):
                    break  # after the result everything is public
                text = str(m.data)
                leaked = sorted(x for x in secrets[s] if x in text)
                assert not leaked, f"{s} was pushed {leaked[0]!r} in {m}"
                assert f"{other} only" not in text, m
    finally:
        srv.stop()
