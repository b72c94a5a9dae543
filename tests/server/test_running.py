"""Running a game over HTTP, on both stores: turn deadlines, the umpire's actions (resolve an
overdue phase, hand an absent side to the computer and take it back), the lobby, and once the
battle is over its after-action report and its replay.

The deadline clock is the store's ``now``, set by the tests (no sleeping).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from battleline.rulesets.bf1900.secrets import leaks
from server.server_helpers import Seat, start

T0 = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


class Clock:
    """The store's clock, moved on by hand."""

    def __init__(self) -> None:
        self.at = T0

    def __call__(self) -> datetime:
        return self.at

    def wait(self, **delta: float) -> None:
        self.at += timedelta(**delta)


@pytest.fixture
def clock(client: TestClient) -> Clock:
    c = Clock()
    client.app.state.store.now = c  # type: ignore[attr-defined]
    return c


def _post(seat: Seat, what: str, body: dict[str, Any]) -> Any:
    return seat.client.post(
        f"/api/games/{seat.game}/{what}", headers={"X-Battleline-Token": seat.token}, json=body
    )


def _umpire(seats: dict[str, Seat]) -> dict[str, Any]:
    r = seats["umpire"].get("umpire")
    assert r.status_code == 200, r.text
    return dict(r.json())


def _live(client: TestClient, game: str) -> Any:
    return client.app.state.store.get(game).game  # type: ignore[attr-defined]


def test_the_deadline_is_set_at_creation_shown_and_changed_by_the_umpire(
    client: TestClient, clock: Clock
) -> None:
    made, seats = start(client, deadline_minutes=30)
    shown = client.get(f"/api/games/{made['game_id']}/clock").json()
    assert shown["deadline_minutes"] == 30 and shown["seconds_left"] == 30 * 60
    assert shown["deadline_at"] == (T0 + timedelta(minutes=30)).isoformat()
    clock.wait(minutes=10)
    assert client.get(f"/api/games/{made['game_id']}/clock").json()["seconds_left"] == 20 * 60

    put = client.put(
        f"/api/games/{made['game_id']}/deadline",
        headers={"X-Battleline-Token": seats["umpire"].token},
        json={"minutes": 60},
    )
    assert put.status_code == 200, put.text
    assert put.json()["seconds_left"] == 50 * 60  # the phase keeps the time it opened
    refused = client.put(
        f"/api/games/{made['game_id']}/deadline",
        headers={"X-Battleline-Token": seats["Blue"].token},
        json={"minutes": 1},
    )
    assert refused.status_code == 403
    bad = client.post("/api/games", json={"scenario": "cruiser-duel", "deadline_minutes": 0})
    assert bad.status_code == 422 and "deadline_minutes" in bad.text

    # The next phase opens on the clock of the save that opened it.
    clock.wait(minutes=5)
    assert seats["Blue"].order(1, "command", "Blue cruiser: SPD15").json()["sealed"]
    assert seats["Red"].order(1, "command").json()["resolved"]
    now = client.get(f"/api/games/{made['game_id']}/clock").json()
    assert (now["phase"], now["seconds_left"]) == ("gunnery", 60 * 60)
    assert now["phase_opened_at"] == (T0 + timedelta(minutes=15)).isoformat()


def test_resolve_is_refused_before_the_deadline_and_gives_no_orders_after(
    client: TestClient, clock: Clock
) -> None:
    """Both sides' orders are sealed before a phase resolves (BF6-GEN-07); once the deadline has
    passed the umpire seals "no orders" for the absent side and the phase resolves."""
    _made, seats = start(client, deadline_minutes=30)
    umpire = seats["umpire"]
    assert seats["Blue"].order(1, "command", "Blue cruiser: SPD15").json()["sealed"]
    clock.wait(minutes=29, seconds=30)
    early = _post(umpire, "resolve", {"turn": 1, "phase": "command"})
    assert early.status_code == 409
    assert "0 min 30 s left" in early.json()["detail"]
    stale = _post(umpire, "resolve", {"turn": 1, "phase": "gunnery"})
    assert stale.status_code == 409 and "turn 1 command" in stale.json()["detail"]

    clock.wait(seconds=30)
    done = _post(umpire, "resolve", {"turn": 1, "phase": "command"})
    assert done.status_code == 200, done.text
    assert done.json()["no_orders"] == ["Red"] and done.json()["phase"] == "gunnery"
    # The record holds Red's empty submission, so a replay of it is the same game.
    record = [(o["turn"], o["phase"], o["side"], o["orders"]) for o in _record(client, umpire)]
    assert (1, "command", "Red", []) in record
    assert (1, "command", "Blue", ["Blue cruiser: SPD15"]) in record
    running = umpire.get("umpire/running").json()
    assert [a["action"] for a in running["actions"]] == ["resolve"]
    assert running["actions"][0]["no_orders"] == ["Red"]

    # A game without a deadline is never resolved by the umpire.
    _, other = start(client)
    none = _post(other["umpire"], "resolve", {"turn": 1, "phase": "command"})
    assert none.status_code == 409 and "has none" in none.json()["detail"]


def _record(client: TestClient, umpire: Seat) -> list[dict[str, Any]]:
    """The game's record as the engine would replay it (read from the store's live game)."""
    game = _live(client, umpire.game)
    return [
        {"turn": o.turn, "phase": o.phase, "side": o.side, "orders": list(o.orders)}
        for o in game.history
    ]


def test_side_credentials_are_refused_on_umpire_routes(client: TestClient) -> None:
    _made, seats = start(client, deadline_minutes=5)
    for side in ("Blue", "Red"):
        seat = seats[side]
        for what, body in (
            ("resolve", {"turn": 1, "phase": "command"}),
            ("hand-to-ai", {"side": "Red"}),
            ("take-back", {"side": "Red"}),
        ):
            assert _post(seat, what, body).status_code == 403, what
        assert seat.get("umpire/running").status_code == 403
        assert seat.get("umpire/picture.svg").status_code == 403
    assert _post(seats["umpire"], "hand-to-ai", {"side": "Green"}).status_code == 422
    svg = seats["umpire"].get("umpire/picture.svg")
    assert svg.status_code == 200 and svg.text.lstrip().startswith("<")


def test_an_absent_side_handed_to_the_ai_is_played_then_taken_back(client: TestClient) -> None:
    _made, seats = start(client)
    blue, red, umpire = seats["Blue"], seats["Red"], seats["umpire"]
    assert blue.order(1, "command", "Blue cruiser: SPD15").json()["resolved"] is False
    handed = _post(umpire, "hand-to-ai", {"side": "Red"})
    assert handed.status_code == 200, handed.text
    assert handed.json()["ai_sides"] == ["Red"] and handed.json()["phase"] == "gunnery"
    assert _post(umpire, "hand-to-ai", {"side": "Red"}).status_code == 409
    # Red's credential still reads its view, but gives no orders while the computer plays it.
    assert red.view()["side"] == "Red"
    assert red.order(1, "gunnery").status_code == 409
    assert client.get(f"/api/games/{red.game}/clock").json()["computer_sides"] == ["Red"]
    # The computer answers each phase Blue seals.
    for phase in ("gunnery", "torpedo", "damage"):
        view = blue.view()
        if view["phase"] != phase:
            continue
        got = blue.order(view["turn"], view["phase"])
        assert got.status_code == 200 and got.json()["resolved"], got.text
    assert blue.view()["turn"] == 2
    history = _record(client, umpire)
    assert any(o["side"] == "Red" and o["turn"] == 1 and o["phase"] == "gunnery" for o in history)

    back = _post(umpire, "take-back", {"side": "Red"})
    assert back.status_code == 200 and back.json()["ai_sides"] == []
    turn = blue.view()["turn"]
    assert blue.order(turn, "command").json()["resolved"] is False  # Red is awaited again
    assert red.order(turn, "command").json()["resolved"] is True
    # A computer side from the start has no seat to take back to.
    _, other = start(client, ai=["Red"])
    refused = _post(other["umpire"], "take-back", {"side": "Red"})
    assert refused.status_code == 409 and "no seat" in refused.json()["detail"]


def test_the_lobby_reports_good_and_bad_seats(client: TestClient) -> None:
    made, seats = start(client)
    _, ai_game = start(client, ai=["Red"])
    seats["Blue"].order(1, "command", "Blue cruiser: SPD15")
    asked = [
        {"game": made["game_id"], "token": seats["Blue"].token},
        {"game": made["game_id"], "token": seats["Red"].token, "side": "Red"},
        {"game": made["game_id"], "token": "not-a-token"},
        {"game": "no-such-game", "token": seats["Blue"].token},
        {"game": "x" * 300, "token": ""},
        {"game": ai_game["Blue"].game, "token": ai_game["Blue"].token},
        {"game": made["game_id"], "token": seats["umpire"].token},
    ]
    r = client.post("/api/lobby", json={"seats": asked})
    assert r.status_code == 200, r.text
    got = r.json()["seats"]
    assert [e["ok"] for e in got] == [True, True, False, False, False, True, True]
    blue, red = got[0], got[1]
    assert (blue["side"], blue["must_move"], blue["phase"]) == ("Blue", False, "command")
    assert (red["side"], red["must_move"]) == ("Red", True)
    assert blue["title"] == "Cruiser duel" or blue["title"]
    assert got[2]["problem"].startswith("token:") and got[3]["problem"].startswith("game:")
    assert got[5]["must_move"] is True and got[6]["role"] == "umpire"
    assert client.post("/api/lobby", json={"seats": [{"game": 1}]}).status_code == 422


def _play_to_the_end(client: TestClient, scenario: str) -> tuple[dict[str, Any], dict[str, Seat]]:
    """The umpire hands the one human side to the computer too: it plays the battle out."""
    made, seats = start(client, ai=[], scenario=scenario)
    human = next(i["side"] for i in made["invites"] if i["human"])
    others = [i["side"] for i in made["invites"] if i["side"] != human]
    for side in others:
        _post(seats["umpire"], "hand-to-ai", {"side": side})
    done = _post(seats["umpire"], "hand-to-ai", {"side": human})
    assert done.status_code == 200 and done.json()["finished"], done.text
    return made, seats


def test_aar_and_replay_are_refused_before_the_end(client: TestClient) -> None:
    made, _ = start(client)
    for what in ("aar", "replay", "replay.svg"):
        r = client.get(f"/api/games/{made['game_id']}/{what}")
        assert r.status_code == 409 and "over" in r.json()["detail"], what


def test_the_aar_agrees_with_the_games_own_events(client: TestClient) -> None:
    made, seats = _play_to_the_end(client, "cruiser-duel")
    report = client.get(f"/api/games/{made['game_id']}/aar").json()
    events = _umpire(seats)["events"]
    given: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    rounds: Counter[str] = Counter()
    for e in events:
        d = e.get("data", {})
        if e["kind"] == "hit":
            given[d["firer"]] += d["hits"]
            taken[e["ship"]] += d["hits"]
        elif e["kind"] in ("splash", "hit_zone"):
            rounds[d["firer"]] += d["rounds"]
    ships = {s["name"]: s for s in report["ships"]}
    assert set(ships) == {"Yoshino", "Kasagi"}
    assert sum(given.values()) > 0
    for name, s in ships.items():
        assert (s["hits_given"], s["hits_taken"], s["rounds"]) == (
            given[name],
            taken[name],
            rounds[name],
        )
        assert s["accuracy"] == round(given[name] / rounds[name], 4)
    state = _umpire(seats)["state"]
    assert report["verdict"] == client.get(f"/api/games/{made['game_id']}").json()["result"]
    assert {k: v["points"] for k, v in report["sides"].items()} == state["result"]["points"]
    assert report["lacks"] == {} and report["points_by_ship"] is True


@pytest.mark.parametrize(
    ("scenario", "lacking"),
    [("cruiser-duel-1d12", set()), ("tgd-duel", {"zones"}), ("dba-tutorial", {"zones", "rounds"})],
)
def test_every_ruleset_has_an_aar(client: TestClient, scenario: str, lacking: set[str]) -> None:
    made, _ = _play_to_the_end(client, scenario)
    report = client.get(f"/api/games/{made['game_id']}/aar").json()
    assert set(report["lacks"]) == lacking
    assert report["verdict"] and report["ships"]
    given = sum(s["hits_given"] for s in report["ships"])
    taken = sum(s["hits_taken"] for s in report["ships"])
    assert given > 0
    if scenario == "dba-tutorial":  # attacks on one ship in a phase make one result
        assert 0 < taken <= given and "hits_taken" in report["notes"]
    else:
        assert given == taken
    lost = sum(v["ships_lost"] for v in report["sides"].values())
    assert lost == sum(
        1 for s in report["ships"] if s["fate"] in ("sunk", "sinking", "surrendered")
    )


def test_the_replay_steps_reproduce_the_recorded_game(client: TestClient) -> None:
    made, seats = _play_to_the_end(client, "cruiser-duel")
    game = made["game_id"]
    first = client.get(f"/api/games/{game}/replay").json()
    steps = first["steps"]
    assert first["step"] == 0 and steps[0] == [1, "command"] and steps[-1][1] == "end"
    umpire = _umpire(seats)
    events: list[dict[str, Any]] = []
    for i in range(len(steps)):
        frame = client.get(f"/api/games/{game}/replay", params={"step": i}).json()
        assert [frame["turn"], frame["phase"]] == steps[i]
        events += frame["events"]
    assert events == umpire["events"]  # every event, each in the phase that made it
    last = client.get(f"/api/games/{game}/replay", params={"step": len(steps) - 1}).json()
    assert last["state"] == {**umpire["state"], "scenario": last["state"]["scenario"]}
    by_name = client.get(f"/api/games/{game}/replay", params={"turn": 2, "phase": "gunnery"})
    assert by_name.json()["step"] == steps.index([2, "gunnery"])
    assert client.get(f"/api/games/{game}/replay", params={"step": 10_000}).status_code == 404
    svg = client.get(f"/api/games/{game}/replay.svg", params={"step": 1})
    assert svg.status_code == 200 and "<svg" in svg.text


@pytest.fixture
def unlimited(db: str, scenario_dir: Any) -> Any:
    """A client without the rate limit (a whole game's scan asks hundreds of times a second)."""
    from battleline.server.app import create_app
    from battleline.server.limits import Limits

    app = create_app(db, allow_seed=True, scenario_dir=scenario_dir, limits=Limits.unlimited_rate())
    with TestClient(app) as c:
        yield c


def test_the_lobby_and_clock_keep_each_sides_secrets(unlimited: TestClient) -> None:
    """Over a whole game the running routes a side may call never show it the enemy's secrets
    (the ruleset's secrecy check, as the conformance suite scans a view)."""
    client = unlimited
    made, seats = start(client, deadline_minutes=10)
    game = made["game_id"]
    for _ in range(40):
        live = _live(client, game)
        if live.finished:
            break
        for side in ("Blue", "Red"):
            secrets = {s for s in live.ruleset.secrets(live.state, side) if s}
            text = client.post(
                "/api/lobby", json={"seats": [{"game": game, "token": seats[side].token}]}
            ).text
            text += client.get(f"/api/games/{game}/clock").text
            assert not leaks(text, secrets), side
        view = seats["Blue"].view()
        for side in list(view["waiting_for"]):
            seats[side].order(view["turn"], view["phase"])
    assert _live(client, game).state.turn > 2


def test_the_umpires_table_names_no_seed_before_the_end(client: TestClient) -> None:
    """The umpire's true table is drawn with the seed left out while the game is on (the seed
    stays secret from everyone until the battle ends); text drawn as text to look for it."""
    import matplotlib

    seed = 987654321123
    _, seats = start(client, seed=seed)
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        svg = seats["umpire"].get("umpire/picture.svg").text
    assert "turn 1" in svg and "seed secret" in svg and str(seed) not in svg


def test_a_database_from_before_clocks_gets_them_on_first_start(db: str, scenario_dir: Any) -> None:
    """Games stored before the clock tables existed open as before, with no deadline, and the
    umpire can give them one: the tables are made on the server's first start."""
    from sqlalchemy import create_engine, text

    from battleline.server.app import create_app

    with TestClient(create_app(db, allow_seed=True, scenario_dir=scenario_dir)) as c:
        made, seats = start(c)
    engine = create_engine(db if "://" in db else f"sqlite:///{db}")
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE umpire_actions"))
        conn.execute(text("DROP TABLE game_clocks"))
    engine.dispose()
    with TestClient(create_app(db, allow_seed=True, scenario_dir=scenario_dir)) as c:
        game = made["game_id"]
        assert c.get(f"/api/games/{game}/clock").json()["deadline_minutes"] is None
        umpire = seats["umpire"].token
        got = c.put(
            f"/api/games/{game}/deadline",
            headers={"X-Battleline-Token": umpire},
            json={"minutes": 5},
        )
        assert got.status_code == 200 and got.json()["deadline_minutes"] == 5
        blue = Seat(c, game, seats["Blue"].token)
        assert blue.order(1, "command", "Blue cruiser: SPD15").status_code == 200


def test_web_new_sets_the_deadline(db: str) -> None:
    from typer.testing import CliRunner

    from battleline.cli import app
    from battleline.server.clocks import clock_of
    from battleline.server.store import GameStore

    out = CliRunner().invoke(app, ["web-new", "cruiser-duel", "--db", db, "--deadline", "45"])
    assert out.exit_code == 0, out.output
    assert "deadline: 45 minutes a phase" in out.output and "/umpire#game=" in out.output
    game = out.output.split()[1].rstrip(":")
    store = GameStore(db)
    try:
        clock = clock_of(store, game)
        assert clock is not None and clock.deadline_minutes == 45
    finally:
        store.close()
    bad = CliRunner().invoke(app, ["web-new", "cruiser-duel", "--db", db, "--deadline", "0"])
    assert bad.exit_code != 0 and "--deadline" in bad.output


@pytest.mark.parametrize("scenario", ["cruiser-duel-1d12", "tgd-duel", "dba-tutorial"])
def test_every_rulesets_replay_is_its_record(unlimited: TestClient, scenario: str) -> None:
    """The replay of each ruleset steps through its whole event log, phase by phase, and ends
    on the final state; the picture is the ruleset's own."""
    made, seats = _play_to_the_end(unlimited, scenario)
    game = made["game_id"]
    steps = unlimited.get(f"/api/games/{game}/replay").json()["steps"]
    events: list[dict[str, Any]] = []
    for i in range(len(steps)):
        events += unlimited.get(f"/api/games/{game}/replay", params={"step": i}).json()["events"]
    umpire = _umpire(seats)
    assert events == umpire["events"]
    last = unlimited.get(f"/api/games/{game}/replay", params={"step": len(steps) - 1}).json()
    assert last["state"]["turn"] == umpire["state"]["turn"] and steps[-1][1] == "end"
    svg = unlimited.get(f"/api/games/{game}/replay.svg", params={"step": len(steps) // 2})
    assert svg.status_code == 200 and "<svg" in svg.text


def test_an_uploaded_scenario_takes_a_deadline_too(client: TestClient) -> None:
    from server.test_safety import UPLOADED

    r = client.post(
        "/api/games/upload",
        params={"ai": "Red", "deadline_minutes": 90},
        content=UPLOADED.encode("utf-8"),
        headers={"Content-Type": "application/toml"},
    )
    assert r.status_code == 201, r.text
    clock = client.get(f"/api/games/{r.json()['game_id']}/clock").json()
    assert clock["deadline_minutes"] == 90
    too_long = client.post(
        "/api/games/upload",
        params={"deadline_minutes": 10**6},
        content=UPLOADED.encode("utf-8"),
    )
    assert too_long.status_code == 422
