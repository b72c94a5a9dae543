"""``GET /api/games/{id}/table``: the table as the side sees it (issue 13, item 4), over HTTP.

Own ships stand at their true poses, enemy ships only where the side's view sees them, and a ship
out of sight is absent; the arcs of fire the table draws are the ones the gunnery check applies
(BF6-POS-01..11, BF6-BEAM-01..06), the move allowance is the one the Command Phase check and the
movement apply (BF6-MOV-01, BF6-MOV-03, BF6-MOV-06); no answer carries a string the ruleset's
``secrets`` names, over a whole game; ``?turn=N`` gives back what was shown when turn N opened.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from battleline.engine.geometry import Pose, in_arc
from battleline.rulesets import get_ruleset
from battleline.rulesets.bf1900.scales import get_scale
from battleline.rulesets.bf1900.secrets import leaks
from battleline.rulesets.bf1900.table import funnel_point
from battleline.server import adapter_table
from battleline.server.app import create_app
from battleline.server.limits import Limits
from server.server_helpers import Seat, start

CRUISER_DUEL = (
    Path(__file__).parents[2] / "src/battleline/rulesets/bf1900/data/scenarios/01-cruiser-duel.toml"
).read_text(encoding="utf-8")
#: The cruiser duel with a second Red cruiser far beyond the visibility limit.
OUT_OF_SIGHT = (
    CRUISER_DUEL.replace('id = "cruiser-duel"', 'id = "cruiser-duel-scout"\nvisibility_m = 9000')
    + """
[[sides.divisions]]
name = "Red scout"
x = 0
y = 40000
heading = 270
speed = 18
ships = [{ name = "Chitose", class = "Kasagi" }]
"""
)


@pytest.fixture
def fast_client(db: str, scenario_dir: Path) -> Iterator[TestClient]:
    """A client of a server without the rate limit (a whole TGD game is many requests)."""
    app = create_app(db, allow_seed=True, scenario_dir=scenario_dir, limits=Limits.unlimited_rate())
    with TestClient(app) as c:
        yield c


def _state(client: TestClient, game: str) -> Any:
    """The live game's true state (the umpire's knowledge, for checking the answers)."""
    with client.app.state.store.locked(game) as live:  # type: ignore[attr-defined]
        return live.game.state


def _play_to(seat: Seat, phase: str) -> dict[str, Any]:
    """Seal empty orders (the AI answers) until ``phase`` opens."""
    for _ in range(20):
        v = seat.view()
        if v["phase"] == phase:
            return v
        assert seat.order(v["turn"], v["phase"]).status_code == 200
    raise AssertionError(f"no {phase} phase")


def test_own_ship_at_its_true_pose_and_the_enemy_where_the_view_sees_her(
    client: TestClient,
) -> None:
    _, seats = start(client, ai=["Red"])
    blue = seats["Blue"]
    _play_to(blue, "gunnery")
    body = blue.get("table").json()
    state = _state(client, blue.game)
    (own,) = body["own"]
    true = state.poses["Yoshino"]
    assert (own["x"], own["y"], own["heading"]) == (
        round(true.x, 1),
        round(true.y, 1),
        round(true.heading, 1),
    )
    assert own["division"] == "Blue cruiser" and own["track"][-1] == [own["x"], own["y"]]
    length, width = get_scale("small").base_size_m(state.logs["Yoshino"].cls)
    assert (own["length_m"], own["width_m"]) == (round(length, 1), round(width, 1))
    (enemy,) = body["enemy"]
    (contact,) = blue.view()["contacts"]
    assert enemy["name"] == contact["name"] == "Kasagi" and enemy["observed"] is True
    assert (enemy["x"], enemy["y"]) == (
        round(contact["pose"]["x"], 1),
        round(contact["pose"]["y"], 1),
    )
    kasagi = state.poses["Kasagi"]
    assert math.hypot(enemy["x"] - kasagi.x, enemy["y"] - kasagi.y) > 1.0  # not the truth
    assert "arcs" not in enemy and "move_allowance_m" not in enemy


def test_a_ship_out_of_sight_is_absent(client: TestClient) -> None:
    _, seats = start(client, ai=["Red"], scenario=None, scenario_text=OUT_OF_SIGHT)
    body = seats["Blue"].get("table").json()
    assert [e["name"] for e in body["enemy"]] == ["Kasagi"]
    assert "Chitose" not in seats["Blue"].get("table").text
    assert "Chitose" in _state(client, seats["Blue"].game).logs  # she is in the game


def test_land_is_the_scenarios(client: TestClient) -> None:
    _, seats = start(client, ai=["United States"], scenario="santiago-1898")
    body = seats["Spain"].get("table").json()
    land = _state(client, seats["Spain"].game).land
    assert len(body["land"]) == len(land) == 2
    assert body["land"][0]["points"][0] == [round(land[0][0][0], 1), round(land[0][0][1], 1)]


def _bears(mount: dict[str, Any], theta: float) -> bool:
    return any(
        g["ready"] and any(in_arc(theta, a, b) for a, b in g["arcs"]) for g in mount["groups"]
    )


def test_arcs_of_fire_agree_with_the_gunnery_check(client: TestClient) -> None:
    """Each mounting the table says bears on Kasagi is accepted by the gunnery check; each it
    says cannot bear is refused for its arc (BF6-POS-01, BF6-POS-05, BF6-POS-09, BF6-BEAM-03)."""
    _, seats = start(client, ai=["Red"])
    blue = seats["Blue"]
    v = _play_to(blue, "gunnery")
    (own,) = blue.get("table").json()["own"]
    state = _state(client, blue.game)
    kasagi = state.poses["Kasagi"]
    aim = funnel_point(kasagi, get_scale("small").base_size_m(state.logs["Kasagi"].cls)[0])
    theta = Pose(own["x"], own["y"], own["heading"]).bearing_to(*aim)
    verdicts = {}
    for mount in own["arcs"]:
        line = f"Yoshino: Kasagi @2000 AP {mount['mounting']}:1"
        r = client.post(
            f"/api/games/{blue.game}/check",
            headers={"X-Battleline-Token": blue.token},
            json={"turn": v["turn"], "phase": "gunnery", "lines": [line]},
        )
        verdicts[mount["mounting"]] = r.status_code
        if _bears(mount, theta):
            assert r.status_code == 200, (mount["mounting"], theta, r.text)
        else:
            assert r.status_code == 422 and "cannot bear" in r.json()["detail"], r.text
    assert 200 in verdicts.values() and 422 in verdicts.values(), (theta, verdicts)


def test_move_allowance_is_the_movement_rules(client: TestClient) -> None:
    """The table's most and least: the Command Phase check takes the speed of the most and
    refuses a tenth of a knot more (BF6-MOV-03); the ship then moves exactly the most; a STOP
    moves the least (BF6-MOV-06)."""
    for order, key in (("SPD{top}", "max"), ("STOP", "min")):
        _, seats = start(client, ai=["Red"])
        blue = seats["Blue"]
        (own,) = blue.get("table").json()["own"]
        allowance = own["move_allowance_m"]
        scale = get_scale("small")
        top = round(scale.m_per_turn_to_knots(allowance["max"]), 1)  # orders are in tenths
        if key == "max":
            too_fast = client.post(
                f"/api/games/{blue.game}/check",
                headers={"X-Battleline-Token": blue.token},
                json={
                    "turn": 1,
                    "phase": "command",
                    "lines": [f"Blue cruiser: SPD{top + 0.1:.1f}"],
                },
            )
            assert too_fast.status_code == 422 and "BF6-MOV-03" in too_fast.json()["detail"]
        line = "Blue cruiser: " + order.format(top=f"{top:.1f}")
        assert blue.order(1, "command", line).status_code == 200
        moved = [e for e in blue.view()["events"] if e["kind"] == "move" and e["ship"] == "Yoshino"]
        assert moved[0]["data"]["distance_m"] == allowance[key]


def test_bad_turn_is_refused_naming_the_field(client: TestClient) -> None:
    _, seats = start(client, ai=["Red"])
    blue = seats["Blue"]
    for bad in ("0", "-1", "x", "2"):
        r = blue.get("table", turn=bad)
        assert r.status_code == 422 and r.json()["detail"].startswith("turn:"), (bad, r.text)
    assert seats["umpire"].get("table").status_code == 403
    assert Seat(client, blue.game, "wrong").get("table").status_code == 403


def test_dba_table_is_its_view(fast_client: TestClient) -> None:
    """DBA's open table: own and enemy bases where they stand (the view's contacts), arcs from
    the fire rules (DBA-TGT-01), the move allowance of the speed limit (DBA-MOV-01), no turning
    circle; no answer holds a string DBA's ``secrets`` names, over a whole game."""
    _, seats = start(fast_client, ai=["Japan"], scenario="yalu")
    china = seats["China"]
    rules = get_ruleset("dba")
    scans = 0
    first: dict[str, Any] = {}
    for _ in range(100):
        v = china.view()
        if v["result"] is not None:
            break
        r = china.get("table")
        assert r.status_code == 200, r.text
        body = r.json()
        state = _state(fast_client, china.game)
        assert leaks(r.text, rules.secrets(state, "China")) == []
        scans += 1
        first = first if scans > 1 else body
        for own in body["own"]:
            pose = state.poses[own["name"]]
            assert (own["x"], own["y"]) == (round(pose.x, 1), round(pose.y, 1))
            assert own["turning_radius_m"] is None and own["move_allowance_m"]["per"] == "spell"
            assert {a["mounting"] for a in own["arcs"]} <= {"bow", "starboard", "stern", "port"}
        seen = {c["name"]: c["pose"] for c in v["contacts"]}
        assert {e["name"] for e in body["enemy"]} == set(seen)
        for e in body["enemy"]:
            assert (e["x"], e["y"]) == (
                round(seen[e["name"]]["x"], 1),
                round(seen[e["name"]]["y"], 1),
            )
        assert china.order(v["turn"], v["phase"]).status_code == 200
    assert scans > 3
    adapter_table.clear_cache()
    again = china.get("table", turn=1).json()
    assert again["turns_seen"] > 1 and _strip(again) == _strip(first)


def test_tgd_table_draws_the_cards_arcs(fast_client: TestClient) -> None:
    """TGD: bf1900's table with each own battery's region: the fore arc (270°, blind astern,
    TGD-ARC-02) reaches its full range dead ahead and nothing dead astern; a port battery
    (TGD-ARC-03) bears to port and not to starboard; no battery reaches past strength × 10 range
    units (TGD-RNG-01). No answer holds a string TGD's ``secrets`` names, over a whole game."""
    _, seats = start(fast_client, ai=["Russia"], scenario="tgd-duel")
    blue = seats["Japan"]
    rules = get_ruleset("tgd")
    body = blue.get("table").json()
    assert body["ruleset"] == "tgd" and body["arcs_drawn"] is True
    arcs = {a["label"].split()[0]: a for a in body["own"][0]["arcs"]}
    fore = dict(map(tuple, arcs["f"]["groups"][0]["outline"]))
    assert fore[0.0] == arcs["f"]["max_range_m"] > 0 and fore[180.0] == 0.0
    port = dict(map(tuple, arcs["p"]["groups"][0]["outline"]))
    assert port[270.0] == arcs["p"]["max_range_m"] and port[90.0] == 0.0
    assert port[0.0] == 0.0 < port[355.0] < arcs["p"]["max_range_m"]  # the side band: a sliver
    for a in body["own"][0]["arcs"]:
        assert max(r for _, r in a["groups"][0]["outline"]) <= a["max_range_m"]
    for _ in range(200):
        v = blue.view()
        if v["result"] is not None:
            break
        r = blue.get("table")
        assert r.status_code == 200
        assert leaks(r.text, rules.secrets(_state(fast_client, blue.game), "Japan")) == []
        assert blue.order(v["turn"], v["phase"]).status_code == 200


def test_a_ruleset_without_a_table_part_answers_404(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, seats = start(client, ai=["Red"])
    monkeypatch.setattr(adapter_table, "ruleset_part", lambda _name, _part: None)
    r = seats["Blue"].get("table")
    assert r.status_code == 404 and "this ruleset has no table" in r.json()["detail"]


def test_secrets_never_reach_the_table_and_past_turns_come_back_as_shown(
    client: TestClient,
) -> None:
    """A whole game: every /table answer to Blue passes the ruleset's secrets() scan for the
    state it was served at; after the cache is dropped (as after a restart) ``?turn=N`` gives
    back what was shown when turn N opened, and passes the scan for that moment."""
    _, seats = start(client, ai=["Red"], seed=11)
    blue = seats["Blue"]
    rules = get_ruleset("bf1900")
    shown: dict[int, tuple[str, set[str]]] = {}
    for _ in range(200):
        v = blue.view()
        if v["result"] is not None:
            break
        state = _state(client, blue.game)
        secrets = rules.secrets(state, "Blue")
        text = blue.get("table").text
        assert leaks(text, secrets) == [], (v["turn"], v["phase"])
        if v["phase"] == "command":
            shown[v["turn"]] = (text, secrets)
        assert blue.order(v["turn"], v["phase"]).status_code == 200
    assert len(shown) >= 10
    adapter_table.clear_cache()
    last = blue.get("table").json()
    assert last["live"] and last["turns_seen"] == max(shown)
    for turn, (text, secrets) in shown.items():
        again = blue.get("table", turn=turn)
        assert again.status_code == 200
        then, now = dict(_strip(again.json())), dict(_strip(_json(text)))
        if turn < last["turns_seen"]:
            assert then == now, turn
            assert leaks(again.text, secrets) == [], turn


def _json(text: str) -> dict[str, Any]:
    import json

    out: dict[str, Any] = json.loads(text)
    return out


def _strip(body: dict[str, Any]) -> dict[str, Any]:
    """The table less the fields that say when it was asked for."""
    return {k: v for k, v in body.items() if k not in ("turns_seen", "live")}
