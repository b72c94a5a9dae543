"""The ship log routes: a side's own logs box by box (BF6-GEN-04, REF-BF6-05), and of an enemy
ship only what shows from the bridge — over a whole game, for both sides, never a secret."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from battleline.rulesets.bf1900.log_layout import COMPARTMENT_TITLE
from battleline.server.app import create_app
from battleline.server.limits import Limits
from server.mirror import Twin
from server.server_helpers import Seat, start

SEED = 11
ENEMY_KEYS = {"own", "name", "class", "type", "size", "seen", "seen_from", "note"}


@pytest.fixture
def unlimited(db: str, scenario_dir: Path) -> Iterator[TestClient]:
    """A client without the rate limit (a whole game's reads come fast)."""
    app = create_app(db, allow_seed=True, scenario_dir=scenario_dir, limits=Limits.unlimited_rate())
    with TestClient(app) as c:
        yield c


def _marks(log: dict[str, Any], section: str) -> list[list[str]]:
    part = next(s for s in log["sections"] if s["id"] == section)
    return [[b["mark"] for b in r["boxes"]] for r in part["rows"]]


def _row(log: dict[str, Any], section: str, label: str) -> dict[str, Any]:
    part = next(s for s in log["sections"] if s["id"] == section)
    row: dict[str, Any] = next(r for r in part["rows"] if r["label"].startswith(label))
    return row


def _sender(seats: dict[str, Seat]) -> Any:
    def send(side: str, turn: int, phase: str, lines: Any) -> None:
        r = seats[side].order(turn, phase, *lines)
        assert r.status_code == 200, r.text

    return send


def _same_as_the_log(shown: dict[str, Any], log: Any) -> None:
    """The page's boxes are the log's marks: propulsion, DC, flooding, fires, torpedoes."""
    p = log.propulsion
    speed = _marks(shown, "propulsion")[0]
    assert speed.count("cross") == p.destroyed and speed.count("slash") == p.damaged
    assert _marks(shown, "propulsion")[1] == ["slash"] * p.margin
    assert _marks(shown, "dc")[0] == [("none", "slash", "cross")[int(m)] for m in log.dc_boxes]
    for comp, state in log.compartments.items():
        row = _row(shown, "flooding", COMPARTMENT_TITLE[comp])
        levels = [b["label"] for b in row["boxes"][:4] if b["mark"] == "slash"]
        assert levels == ([] if not state.level else [["L", "M", "Hvy", "Sev"][state.level - 1]])
        assert row["boxes"][2]["frame"] == ("closed" if state.contained else "open")
        assert row["boxes"][5]["mark"] == ("slash" if state.counterflooded else "none")
    ext = _row(shown, "fires", "External")
    assert [b["mark"] for b in ext["boxes"]].count("slash") + ext["over"] == log.fires_external
    for t in log.cls.torpedoes:
        row = _row(shown, "torpedoes", f"Torpedoes, {t.position}")
        assert [b["mark"] for b in row["boxes"]].count("none") == log.torpedoes_left[t.key]
    for key, pos in log.positions.items():
        box = next(r for r in _marks_rows(shown) if r["label"].endswith(f"({key})"))["boxes"][0]
        assert box["slashes"] == pos.slashes and (box["mark"] == "cross") == pos.destroyed


def _all_marks(shown: dict[str, Any]) -> list[str]:
    return [b["mark"] for s in shown["sections"] for r in s["rows"] for b in r["boxes"]]


def _marks_rows(shown: dict[str, Any]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = next(s for s in shown["sections"] if s["id"] == "armament")["rows"]
    return rows


def _same_as_the_card(shown: dict[str, Any], card: Any) -> None:
    """A TGD card page's boxes are the card's marks: batteries lost, S/F letters, H boxes."""
    lost = sum(
        b["mark"] == "cross"
        for s in shown["sections"]
        if s["id"] in ("location-1", "location-2", "location-3")
        for r in s["rows"]
        for b in r["boxes"]
    )
    assert lost == len(card.lost)
    hull = next(s for s in shown["sections"] if s["id"] == "location-6")["rows"][0]["boxes"]
    assert [b["mark"] for b in hull].count("cross") == min(card.hull_centre_hits, len(hull))
    assert shown["speed_knots"] == card.speed


@pytest.mark.parametrize("scenario", ["cruiser-duel", "cruiser-duel-1d12", "tgd-duel"])
def test_BF6_GEN_04_own_logs_in_full_enemy_only_as_seen_and_no_secret_over_a_game(
    unlimited: TestClient, scenario: str
) -> None:
    """Both sides read /shiplog and /shiplog/{ship} after every phase of a whole game (each
    ruleset with a log page); each answer holds none of the other side's secrets of that moment
    (``secrets(state, side)``), the own logs (TGD: cards, TGD-CARD-01..03) match the true ones box
    for box, and an enemy is only what shows of her."""
    made, seats = start(unlimited, seed=SEED, scenario=scenario)
    twin = Twin(made["scenario"], SEED)
    send = _sender(seats)
    marked = 0
    while True:
        for side in twin.game.state.sides:
            secrets = twin.secrets(side)
            r = seats[side].get("shiplog")
            assert r.status_code == 200, r.text
            assert r.headers["cache-control"] == "no-store"
            leaked = [s for s in secrets if s in r.text]
            assert not leaked, f"{twin.moment}: {side} was sent {leaked[:3]}"
            body = r.json()
            assert {s["name"] for s in body["ships"]} == {
                n for n, lg in twin.game.state.logs.items() if lg.side == side
            }
            for ship in body["ships"]:
                if scenario.startswith("tgd"):
                    _same_as_the_card(ship, twin.game.state.cards[ship["name"]])
                else:
                    _same_as_the_log(ship, twin.game.state.logs[ship["name"]])
                marked += sum(m != "none" for m in _all_marks(ship))
            for enemy in body["enemies"]:
                assert set(enemy) == ENEMY_KEYS and enemy["own"] is False
                assert twin.game.state.logs[enemy["name"]].side != side
            for name in [s["name"] for s in body["ships"]] + [e["name"] for e in body["enemies"]]:
                one = seats[side].get(f"shiplog/{name}")
                assert one.status_code == 200, one.text
                assert not [s for s in secrets if s in one.text]
                assert one.json()["name"] == name
        if twin.finished:
            break
        twin.step(send)
    assert twin.phases > 20 and marked > 0  # a whole game, with damage marked on the logs
    umpire = seats["umpire"].get("umpire").json()
    assert umpire["state_hash"] == twin.hash()  # the twin played the server's game


def test_an_enemy_ship_gives_her_contact_never_her_log(client: TestClient) -> None:
    _, seats = start(client, seed=SEED)
    blue = seats["Blue"].get("shiplog").json()
    assert blue["side"] == "Blue" and blue["enemies"], "the duel starts in sight"
    enemy = blue["enemies"][0]
    one = seats["Blue"].get(f"shiplog/{enemy['name']}")
    assert one.json() == enemy
    for private in ("sections", "details", "speed_knots", "torpedoes", "dc", "pose", "x"):
        assert private not in one.json()
    own = seats["Blue"].get("shiplog/Yoshino").json()
    assert own["own"] is True and own["name"] == "Yoshino"
    ids = [s["id"] for s in own["sections"]]
    assert ids == [
        "armament", "propulsion", "dc", "flooding", "fires", "command", "torpedoes", "sinking",
    ]  # fmt: skip
    hvy = _row(own, "flooding", "Forward")["boxes"][2]
    assert hvy["label"] == "Hvy" and hvy["frame"] == "open"
    assert [b["label"] for b in _row(own, "command", "R rudder")["boxes"]] == [
        "R/",
        "RC",
        "JP",
        "JS",
    ]
    assert _row(own, "propulsion", "Speed boxes")["boxes"][0]["sub"].endswith("mm")


def test_unknown_ship_and_wrong_seats_are_refused(client: TestClient) -> None:
    made, seats = start(client, seed=SEED)
    r = seats["Blue"].get("shiplog/Nobody")
    assert r.status_code == 404 and "'Nobody'" in r.json()["detail"]
    assert seats["umpire"].get("shiplog").status_code == 403
    assert client.get(f"/api/games/{made['game_id']}/shiplog").status_code == 403
    assert client.get("/api/games/nope/shiplog", params={"token": "x"}).status_code == 404
    long = seats["Blue"].get("shiplog/" + "x" * 101)
    assert long.status_code == 422 and "ship" in long.json()["detail"]


@pytest.mark.parametrize(
    ("scenario", "why"),
    [("dba-tutorial", "the dba ruleset has no ship-log page")],
)
def test_rulesets_without_a_log_page_say_why(client: TestClient, scenario: str, why: str) -> None:
    _, seats = start(client, scenario=scenario)
    side = next(s for s in seats if s != "umpire")
    for path in ("shiplog", "shiplog/anything"):
        r = seats[side].get(path)
        assert r.status_code == 404 and why in r.json()["detail"], r.text
