"""The web API: hidden simultaneous orders between players on different machines (BF6-GEN-07).

Two human sides play the cruiser duel through FastAPI's ``TestClient``, each through the seat it
claimed with its invite; the raw JSON each side receives is searched for the other side's sealed
orders, estimates and ship log. Every test that takes ``client`` or ``db`` runs on SQLite and on
PostgreSQL (``conftest.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from battleline.engine import GameRecord, submit
from battleline.game import new_game, verify
from battleline.server.app import create_app
from battleline.server.store import GameStore, StaleGameError, database_url, digest
from server.server_helpers import Seat, start

BLUE_COMMAND = "Blue cruiser: SPD15 TS10S"
RED_COMMAND = "Red cruiser: SPD16"
BLUE_GUNNERY = "Yoshino: Kasagi @5150 AP A:1 Z:1"
RED_GUNNERY = "Kasagi: Yoshino @4870 AP A:1 Z:1"
CONTACT_KEYS = {
    "name",
    "cls",
    "type",
    "size",
    "pose",
    "fires",
    "sinking",
    "surrendered",
    "observer",
    "observed",
    "stopped",
    "listing",
}


def _logs_in(node: Any) -> Iterator[dict[str, Any]]:
    """Every ship log (a dict with propulsion boxes) anywhere in a JSON document."""
    if isinstance(node, dict):
        if "propulsion" in node:
            yield node
        for value in node.values():
            yield from _logs_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from _logs_in(value)


def to_gunnery(seats: dict[str, Seat]) -> None:
    assert seats["Blue"].order(1, "command", BLUE_COMMAND).json()["resolved"] is False
    out = seats["Red"].order(1, "command", RED_COMMAND).json()
    assert out["resolved"] is True and out["phase"] == "gunnery"


def test_scenarios_listed(client: TestClient) -> None:
    listed = {s["id"]: s for s in client.get("/api/scenarios").json()}
    assert listed["cruiser-duel"]["sides"] == ["Blue", "Red"]
    assert listed["tsushima-1905"]["sides"] == ["Russia", "Japan"]


def test_BF6_GEN_07_two_humans_play_a_phase_with_sealed_orders(client: TestClient) -> None:
    """Both sides order at once; nothing of one side's sealed orders reaches the other early."""
    made, seats = start(client)
    blue, red, umpire = seats["Blue"], seats["Red"], seats["umpire"]
    assert made["invites"][0]["url"].endswith(
        f"#game={made['game_id']}&invite={made['invites'][0]['invite']}"
    )
    assert "seed" not in json.dumps(made)
    first = blue.view()
    assert (first["side"], first["turn"], first["phase"]) == ("Blue", 1, "command")
    assert first["waiting_for"] == ["Blue", "Red"]
    assert "seed" not in first  # the seed would let a player foresee the dice

    assert blue.order(1, "command", BLUE_COMMAND).json()["waiting_for"] == ["Red"]
    assert blue.view()["my_orders"] == [BLUE_COMMAND]
    red_sees = red.raw_view()
    assert "TS10S" not in red_sees and BLUE_COMMAND not in red_sees
    assert json.loads(red_sees)["my_orders"] is None

    out = red.order(1, "command", RED_COMMAND).json()
    assert (out["turn"], out["phase"], out["resolved"]) == (1, "gunnery", True)
    # Once resolved, each side's orders stay its own.
    assert f"Blue: {BLUE_COMMAND}" not in red.raw_view()
    assert f"Blue: {BLUE_COMMAND}" in blue.raw_view()

    # Gunnery: Red's sealed range estimate stays sealed until Blue is in too.
    assert red.order(1, "gunnery", RED_GUNNERY).status_code == 200
    blue_sees = blue.raw_view()
    assert "@4870" not in blue_sees and "Kasagi: Yoshino" not in blue_sees
    assert "@4870" in json.dumps(umpire.get("umpire").json()["pending"])  # the string is real
    seen = json.loads(blue_sees)
    assert [s["name"] for s in seen["own"]] == ["Yoshino"]
    assert [c["name"] for c in seen["contacts"]] == ["Kasagi"]
    assert set(seen["contacts"][0]) == CONTACT_KEYS  # no log, no orders of the enemy
    logs = list(_logs_in(seen))
    assert [log["name"] for log in logs] == ["Yoshino"] and {log["side"] for log in logs} == {
        "Blue"
    }
    assert '"side":"Red"' not in blue_sees and '"class":"Kasagi"' not in blue_sees
    assert blue.get("picture.svg").text.count("@4870") == 0

    done = blue.order(1, "gunnery", BLUE_GUNNERY).json()
    assert done["resolved"] is True and done["phase"] != "gunnery"
    assert f"Red: {RED_GUNNERY}" not in blue.raw_view()  # the estimate stays Red's own
    assert f"Red: {RED_GUNNERY}" in red.raw_view()


def test_view_since_skips_events_already_sent(client: TestClient) -> None:
    _, seats = start(client)
    r = seats["Blue"].get("view")
    total = int(r.headers["X-Battleline-Events"])
    assert total == len(r.json()["events"]) >= 1
    assert seats["Blue"].get("view", since=total).json()["events"] == []


def test_bad_tokens_are_refused_with_403(client: TestClient) -> None:
    made, seats = start(client)
    _other, other_seats = start(client)
    game = made["game_id"]
    for token in ("", "not-a-token", other_seats["Blue"].token, seats["umpire"].token):
        r = client.get(f"/api/games/{game}/view", headers={"X-Battleline-Token": token})
        assert r.status_code == 403, token
    r = client.post(
        f"/api/games/{game}/orders",
        headers={"X-Battleline-Token": other_seats["Red"].token},
        json={"turn": 1, "phase": "command", "lines": [RED_COMMAND]},
    )
    assert r.status_code == 403
    assert seats["Blue"].get("umpire").status_code == 403
    assert seats["Blue"].get("picture.svg").status_code == 200
    assert Seat(client, game, "wrong").get("picture.svg").status_code == 403
    # The token works in the query string and as a bearer token too.
    assert (
        client.get(f"/api/games/{game}/view", params={"token": seats["Red"].token}).json()["side"]
        == "Red"
    )
    bearer = {"Authorization": f"Bearer {seats['Red'].token}"}
    assert client.get(f"/api/games/{game}/view", headers=bearer).status_code == 200
    assert client.get("/api/games/nosuchgame/view", headers=bearer).status_code == 404


def test_bad_orders_are_refused_with_422_naming_the_problem(client: TestClient) -> None:
    _, seats = start(client)
    blue = seats["Blue"]
    r = blue.order(1, "command", "Blue cruiser: SPD15 XX")
    assert r.status_code == 422 and "'XX'" in r.json()["detail"]
    r = blue.order(1, "command", "Red cruiser: SPD15")
    assert r.status_code == 422 and "Red cruiser" in r.json()["detail"]
    assert blue.view()["my_orders"] is None  # nothing sealed
    to_gunnery(seats)
    r = blue.order(1, "gunnery", "Mikasa: Kasagi @5000 A:1")
    assert r.status_code == 422 and "Mikasa" in r.json()["detail"]
    check = client.post(
        f"/api/games/{blue.game}/check",
        headers={"X-Battleline-Token": blue.token},
        json={"turn": 1, "phase": "gunnery", "lines": [BLUE_GUNNERY]},
    )
    assert check.json() == {"ok": True} and blue.view()["my_orders"] is None


def test_stale_turn_or_phase_is_refused_with_409(client: TestClient) -> None:
    _, seats = start(client)
    assert seats["Blue"].order(2, "command", BLUE_COMMAND).status_code == 409
    assert seats["Blue"].order(1, "gunnery", BLUE_GUNNERY).status_code == 409
    to_gunnery(seats)
    r = seats["Blue"].order(1, "command", BLUE_COMMAND)
    assert r.status_code == 409 and "turn 1 gunnery" in r.json()["detail"]


def test_an_ai_side_plays_automatically(client: TestClient) -> None:
    """Red is the computer's: once Blue is in, Red's orders are generated and the phase resolves."""
    made, seats = start(client, ai=["Red"])
    assert [s["human"] for s in made["invites"]] == [True, False] and "Red" not in seats
    out = seats["Blue"].order(1, "command", BLUE_COMMAND).json()
    assert out["resolved"] is True and out["phase"] == "gunnery"
    out = seats["Blue"].order(1, "gunnery", BLUE_GUNNERY).json()
    assert out["resolved"] is True
    umpire = seats["umpire"].get("umpire").json()
    assert "record" not in umpire and umpire["state"]["seed"] is None  # secret until the end
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    with store.locked(made["game_id"]) as live:
        record = GameRecord.of(live.game)
    assert {(o.phase, o.side) for o in record.orders} >= {("command", "Red"), ("gunnery", "Red")}
    assert verify(record)[0]  # the AI's orders are recorded: the game replays exactly


def test_creation_errors_are_422(client: TestClient) -> None:
    bad = client.post("/api/games", json={"scenario": "cruiser-dual"})
    assert bad.status_code == 422 and "cruiser-duel" in bad.json()["detail"]
    assert "tsushima-1905" in bad.json()["detail"]  # the whole list of built-in names
    r = client.post("/api/games", json={"scenario": "cruiser-duel", "ai": ["Green"]})
    assert r.status_code == 422 and "Green" in r.json()["detail"]
    r = client.post("/api/games", json={"scenario": "cruiser-duel", "ai": ["Blue", "Red"]})
    assert r.status_code == 422 and "human" in r.json()["detail"]


def test_restart_on_the_same_database_loses_nothing(db: str) -> None:
    with TestClient(create_app(db, allow_seed=True)) as c:
        _, seats = start(c)
        to_gunnery(seats)
        assert seats["Blue"].order(1, "gunnery", BLUE_GUNNERY).status_code == 200
        before = seats["umpire"].get("umpire").json()
        tokens = {side: s.token for side, s in seats.items()}
        game = seats["Blue"].game
    with TestClient(create_app(db)) as c:  # a new server: nothing cached
        again = {side: Seat(c, game, t) for side, t in tokens.items()}
        after = again["umpire"].get("umpire").json()
        assert after["state_hash"] == before["state_hash"]
        assert after["pending"] == {"Blue": [BLUE_GUNNERY]}  # sealed orders survive
        assert again["Blue"].view()["my_orders"] == [BLUE_GUNNERY]
        assert again["Red"].order(1, "gunnery", RED_GUNNERY).json()["resolved"] is True
        assert f"Blue: {BLUE_GUNNERY}" in again["Blue"].raw_view()
    # The same game played straight through the engine reaches the same state.
    ref = new_game("cruiser-duel", 7)
    for side, turn, phase, lines in (
        ("Blue", 1, "command", BLUE_COMMAND),
        ("Red", 1, "command", RED_COMMAND),
        ("Blue", 1, "gunnery", BLUE_GUNNERY),
        ("Red", 1, "gunnery", RED_GUNNERY),
    ):
        submit(ref, side, [lines], turn=turn, phase=phase)
    with TestClient(create_app(db)) as c:
        final = Seat(c, game, tokens["umpire"]).get("umpire").json()
    assert final["state_hash"] == GameRecord.of(ref).final_hash


def test_store_sees_another_writer(db: str) -> None:
    """Two workers on one database: a stale copy is refused, a fresh read reloads."""
    one, two = GameStore(db), GameStore(db)
    live, seats = one.add(new_game("cruiser-duel", 3), "cruiser-duel", ())
    side, token = two.claim(live.id, seats.invites["Blue"])
    assert side == "Blue" and one.role(live.id, token) == "Blue"
    assert one.role(live.id, seats.invites["Blue"]) is None  # an invite is not a seat
    assert one.role(live.id, "guess") is None and one.role("other", token) is None
    theirs = two.get(live.id)
    theirs.game.submit("Blue", [BLUE_COMMAND], turn=1, phase="command")
    two.save(theirs)
    live.game.submit("Red", [RED_COMMAND], turn=1, phase="command")
    with pytest.raises(StaleGameError):
        one.save(live)
    fresh = one.get(live.id)
    assert fresh.game.pending.texts == {"Blue": (BLUE_COMMAND,)}
    one.close()
    two.close()


def test_credentials_are_stored_hashed(sqlite_db: str) -> None:
    store = GameStore(sqlite_db)
    live, seats = store.add(new_game("cruiser-duel", 3), "cruiser-duel", ["Red"])
    assert set(seats.invites) == {"Blue"}
    _side, token = store.claim(live.id, seats.invites["Blue"])
    store.close()  # the WAL is folded into the file
    raw = Path(sqlite_db).read_bytes()
    for secret in (seats.invites["Blue"], token, seats.umpire):
        assert secret.encode() not in raw and digest(secret).encode() in raw


def test_database_urls() -> None:
    assert database_url(None) == "sqlite:///battleline.sqlite3"
    assert database_url("games.db") == "sqlite:///games.db"
    assert database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"


def test_web_new_prints_the_id_and_invites(db: str) -> None:
    from typer.testing import CliRunner

    from battleline.cli import app

    out = CliRunner().invoke(app, ["web-new", "cruiser-duel", "--db", db, "--ai", "Red"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    game = lines[0].split()[1].rstrip(":")
    invite = lines[2].split("invite ")[1]
    assert "Red: played by the computer" in out.output and "secret" in lines[0]
    store = GameStore(db)
    assert store.role(game, invite) is None  # an invite opens nothing until claimed
    side, token = store.claim(game, invite)
    assert side == "Blue" and store.role(game, token) == "Blue"
    store.close()


def test_the_schema_compiles_for_postgresql() -> None:
    """The same tables serve PostgreSQL (no server needed: the DDL is compiled, not run)."""
    from sqlalchemy.dialects import postgresql
    from sqlalchemy.schema import CreateTable

    from battleline.server.tables import GameRow

    tables = GameRow.metadata.sorted_tables
    names = [t.name for t in tables]
    assert names[0] == "games"  # every other table refers to it
    assert set(names) == {
        "games",
        "scenario_texts",
        "game_clocks",
        "invites",
        "orders",
        "sealed",
        "tokens",
        "chat",
        "presence",
        "umpire_actions",
    }
    ddl = "\n".join(str(CreateTable(t).compile(dialect=postgresql.dialect())) for t in tables)
    assert "seed BIGINT" in ddl and "FOREIGN KEY(game_id) REFERENCES games (id)" in ddl


def test_web_new_stores_a_scenario_file_with_its_game(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The admin's file is read once by the CLI; the game then needs neither it nor its copy."""
    from typer.testing import CliRunner

    from battleline.cli import app

    source = Path(__file__).parents[2] / "src/battleline/rulesets/bf1900/data/scenarios"
    mine = tmp_path / "mine.toml"
    mine.write_text((source / "01-cruiser-duel.toml").read_text(encoding="utf-8"))
    monkeypatch.setenv("BATTLELINE_SCENARIO_DIR", str(tmp_path / "copies"))
    out = CliRunner().invoke(app, ["web-new", str(mine), "--db", db, "--ai", "Red"])
    assert out.exit_code == 0, out.output
    game = out.output.split()[1].rstrip(":")
    mine.unlink()
    store = GameStore(db, tmp_path / "elsewhere")
    assert store.get(game).ref.startswith("upload-")
    assert list((tmp_path / "elsewhere").glob("upload-*.toml"))  # written again from the db
    store.close()
    bad = CliRunner().invoke(app, ["web-new", str(mine), "--db", db])
    assert bad.exit_code != 0 and "cannot read" in str(bad.exception)
