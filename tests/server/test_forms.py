"""The order forms over HTTP: ``GET /forms`` answers what the rules allow for known positions,
``POST /compose`` writes the ruleset's own notation, and a refusal names every problem with its
field. Both stores (``client`` here is the API without its rate limit: these tests ask many
checks in a row)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from battleline.ai.base import admiral_factory, legal_lines
from battleline.engine.flow import admiral_seed
from battleline.game import new_game
from battleline.rulesets.bf1900.secrets import leaks
from battleline.server.app import create_app
from battleline.server.limits import Limits
from server.server_helpers import Seat, start

#: A seed of cruiser-duel where the turn-1 broadsides below damage Yoshino, so that turn 2's
#: Damage Phase asks Blue for damage control (found by playing the orders below).
DC_SEED = 2
DIVISION = {"Blue": "Blue cruiser", "Red": "Red cruiser"}
SHIP = {"Blue": "Yoshino", "Red": "Kasagi"}


@pytest.fixture
def client(db: str, scenario_dir: Path) -> Iterator[TestClient]:
    """The API on both stores without the rate limit."""
    app = create_app(db, allow_seed=True, scenario_dir=scenario_dir, limits=Limits.unlimited_rate())
    with TestClient(app) as c:
        yield c


def forms(seat: Seat) -> dict[str, Any]:
    r = seat.get("forms")
    assert r.status_code == 200, r.text
    return dict(r.json())


def post(seat: Seat, what: str, body: dict[str, Any]) -> Any:
    return seat.client.post(
        f"/api/games/{seat.game}/{what}", headers={"X-Battleline-Token": seat.token}, json=body
    )


def compose(seat: Seat, form: dict[str, Any]) -> dict[str, Any]:
    f = forms(seat)
    r = post(seat, "compose", {"turn": f["turn"], "phase": f["phase"], "form": form})
    assert r.status_code == 200, r.text
    return dict(r.json())


def check(seat: Seat, lines: list[str], fields: list[str] | None = None) -> Any:
    f = forms(seat)
    body: dict[str, Any] = {"turn": f["turn"], "phase": f["phase"], "lines": lines}
    if fields is not None:
        body["fields"] = fields
    return post(seat, "check", body)


def true_range(made: dict[str, Any], seats: dict[str, Seat], a: str, b: str) -> int:
    """The range between two ships from the umpire's picture (the test's knowledge, not a
    player's)."""
    poses = seats["umpire"].get("umpire").json()["state"]["poses"]
    p, q = poses[a], poses[b]
    return round(math.hypot(p["x"] - q["x"], p["y"] - q["y"]))


def until(seats: dict[str, Seat], reached: Callable[[dict[str, Any]], bool]) -> None:
    """Seal no orders for every side asked, phase after phase, until ``reached`` (at most three
    turns on, and never past the end)."""
    for _ in range(15):
        f = forms(seats["Blue"])
        if reached(f):
            return
        assert not f["finished"], f
        for side in ("Blue", "Red"):
            if forms(seats[side])["waiting"]:
                assert seats[side].order(f["turn"], f["phase"]).status_code == 200, f
    raise AssertionError(f"not reached: {forms(seats['Blue'])}")


def to_gunnery(seats: dict[str, Seat], blue_speed: str = "19.2") -> None:
    for side, line in (("Blue", f"Blue cruiser: SPD{blue_speed}"), ("Red", None)):
        r = seats[side].order(1, "command", *([line] if line else []))
        assert r.status_code == 200, r.text


def broadside(seat: Seat, estimate: int) -> list[str]:
    """Every gun that bears, as many rounds as the form offers at ``estimate``."""
    ship = forms(seat)["form"]["ships"][0]
    target = ship["targets"][0]
    rounds = {}
    for m in target["mounts"]:
        choices = next(r["choices"] for r in m["rounds"] if estimate <= r["upto_m"])
        if choices:
            rounds[m["key"]] = choices[-1]
    filled = {
        "ships": {
            ship["name"]: {
                "targets": [
                    {"target": target["name"], "estimate": estimate, "ammo": "HE", "rounds": rounds}
                ]
            }
        }
    }
    return list(compose(seat, filled)["lines"])


# -- command ---------------------------------------------------------------------------------


def test_command_form_offers_the_speeds_of_bf6_mov_03(client: TestClient) -> None:
    """BF6-MOV-03 (one box up a turn), BF6-MOV-01 (top undamaged box) and BF6-MOV-06 (minimum
    movement): the form's bounds are exactly where the check starts to refuse."""
    _, seats = start(client)
    blue = seats["Blue"]
    form = forms(blue)["form"]
    assert form["kind"] == "command"
    (division,) = form["divisions"]
    speed = division["speed"]
    assert speed["last"] == 18.0 and speed["min"] < speed["last"] < speed["max"]
    assert all(speed["min"] <= k <= speed["max"] for k in speed["choices"])
    for knots in (speed["min"], speed["max"], *speed["choices"]):
        r = check(blue, [f"Blue cruiser: SPD{knots:g}"])
        assert r.status_code == 200, (knots, r.text)
    over = check(blue, [f"Blue cruiser: SPD{speed['max'] + 0.1:.1f}"], ["command/Blue cruiser"])
    assert over.status_code == 422
    (problem,) = over.json()["problems"]
    assert "BF6-MOV-03" in problem["message"] or "BF6-MOV-01" in problem["message"]
    assert problem["field"] == "command/Blue cruiser/speed" and problem["line"] == 0
    under = check(blue, [f"Blue cruiser: SPD{speed['min'] - 0.1:.1f}"])
    assert under.status_code == 422 and "BF6-MOV-06" in under.json()["detail"]
    assert [s["message"] for s in form["signals"]][-1] == "SURRENDER"  # BF6-CMD-32 allowed
    assert division["drop_out"] == [] and division["flag_to"] == []  # one ship: BF6-CMD-16/19


def test_compose_writes_the_notation_of_every_command_order(client: TestClient) -> None:
    _, seats = start(client)
    made = compose(
        seats["Blue"],
        {
            "divisions": {
                "Blue cruiser": {
                    "speed": "15.3",
                    "turns": [
                        {"mode": "TS", "degrees": 45, "side": "P"},
                        {"mode": "TT", "degrees": "90", "side": "S"},
                    ],
                    "stop": False,
                    "signal": {"message": "TURN8", "side": "P"},
                }
            }
        },
    )
    assert made["lines"] == ["Blue cruiser: SPD15.3 TS45P TT90S SIG TURN8 P"]
    assert made["fields"] == ["command/Blue cruiser"] and made["problems"] == []
    bad = compose(seats["Blue"], {"divisions": {"Blue cruiser": {"turns": [{"degrees": 0}]}}})
    assert bad["problems"] == [
        {
            "line": None,
            "field": "command/Blue cruiser/turn/0",
            "message": "turn: give a whole number of degrees, 1 to 360",
        }
    ]


def test_stale_compose_and_unknown_fields_are_refused(client: TestClient) -> None:
    _, seats = start(client)
    r = post(seats["Blue"], "compose", {"turn": 2, "phase": "command", "form": {}})
    assert r.status_code == 409 and "open phase is turn 1 command" in r.json()["detail"]
    r = post(seats["Blue"], "compose", {"turn": 1, "phase": "command", "form": {}, "x": 1})
    assert r.status_code == 422 and "x" in r.json()["detail"]
    assert seats["umpire"].get("forms").status_code == 403


# -- gunnery ---------------------------------------------------------------------------------


def test_mountings_that_bear_agree_with_the_gunnery_check(client: TestClient) -> None:
    """Per target, the form lists exactly the mountings the gunnery check lets bear (BF6-POS,
    BF6-BEAM), with the rounds ROF allows in the estimate's bracket (BF6-ROF-01/04/05/06/07)
    and none where the gun cannot reach (BF6-GUN-04)."""
    made, seats = start(client)
    to_gunnery(seats)
    blue = seats["Blue"]
    form = forms(blue)["form"]
    assert form["kind"] == "gunnery"
    (ship,) = form["ships"]
    (target,) = ship["targets"]
    assert target["name"] == "Kasagi"
    offered = {m["key"]: m for m in target["mounts"]}
    assert {"A", "Z", "P"} <= set(offered) and "R" not in offered  # Kasagi is to port
    for mounting in ship["mountings"]:
        key = mounting["key"]
        if key not in offered:
            r = check(blue, [f"Yoshino: Kasagi @4000 {key}:1"])
            assert r.status_code == 422 and "cannot bear" in r.json()["detail"], key
            assert "bearing" not in r.json()["detail"]  # the true bearing would fix her position
            continue
        for bracket in offered[key]["rounds"]:
            estimate = int(bracket["upto_m"]) - 100
            choices = bracket["choices"]
            if not choices:
                r = check(blue, [f"Yoshino: Kasagi @{estimate} {key}:1"])
                assert r.status_code == 422 and "BF6-GUN-04" in r.json()["detail"], key
                continue
            for n in choices:
                r = check(blue, [f"Yoshino: Kasagi @{estimate} {key}:{n}"])
                assert r.status_code == 200, (key, estimate, n, r.text)
            r = check(blue, [f"Yoshino: Kasagi @{estimate} {key}:{choices[-1] + 1}"])
            assert r.status_code == 422, (key, estimate)
    text = blue.get("forms").text
    assert str(true_range(made, seats, "Yoshino", "Kasagi")) not in text


def test_every_problem_is_answered_next_to_its_field(client: TestClient) -> None:
    """Two bad entries and one clash of two good ones: three problems, each with its field;
    ``detail`` joins them for old clients."""
    _, seats = start(client)
    to_gunnery(seats)
    blue = seats["Blue"]
    filled = {
        "ships": {
            "Yoshino": {
                "targets": [
                    {
                        "target": "Kasagi",
                        "estimate": 4000,
                        "ammo": "AP",
                        "rounds": {"A": 2, "sec": 9},
                    },
                ]
            }
        }
    }
    made = compose(blue, filled)
    assert made["lines"] == ["Yoshino: Kasagi @4000 AP A:2 sec:9"]
    good = ["Yoshino: Kasagi @3000 P:1", "Yoshino: Kasagi @3500 Z:1"]  # fine one by one
    lines = [*made["lines"], "Yoshino: Kasagi @20000 Z:1", *good]
    fields = [*made["fields"], *["gunnery/Yoshino/Kasagi"] * 3]
    r = check(blue, lines, fields)
    assert r.status_code == 422
    problems = r.json()["problems"]
    assert [(p["line"], p["field"]) for p in problems] == [
        (0, "gunnery/Yoshino/Kasagi/rounds/sec"),
        (1, "gunnery/Yoshino/Kasagi/estimate"),
        (3, "gunnery/Yoshino/Kasagi/estimate"),
    ]
    assert "BF6-ROF-07" in problems[0]["message"] or "BF6-ROF-01" in problems[0]["message"]
    assert "BF6-GUN-04" in problems[1]["message"]
    assert "second range estimate" in problems[2]["message"]
    assert r.json()["detail"] == "; ".join(p["message"] for p in problems)
    sealed = post(blue, "orders", {"turn": 1, "phase": "gunnery", "lines": lines})
    assert sealed.status_code == 422 and len(sealed.json()["problems"]) == 3
    assert blue.view()["my_orders"] is None  # nothing was sealed


def test_a_flood_of_clashing_lines_is_answered_quickly(client: TestClient) -> None:
    """300 entries for one target, each fine alone: the clashes are named up to MAX_CLASHES,
    found by bisection, so the answer stays quick."""
    from battleline.game import MAX_CLASHES

    _, seats = start(client)
    to_gunnery(seats)
    lines = [f"Yoshino: Kasagi @{3000 + i} P:1" for i in range(300)]
    began = time.perf_counter()
    r = check(seats["Blue"], lines)
    assert r.status_code == 422
    problems = r.json()["problems"]
    assert [p["line"] for p in problems] == list(range(1, MAX_CLASHES + 1))
    assert all("second range estimate" in p["message"] for p in problems)
    assert time.perf_counter() - began < 10


# -- torpedoes and damage control --------------------------------------------------------------


def _close_duel() -> str:
    """cruiser-duel with the cruisers some 700 m apart: inside torpedo range."""
    from importlib.resources import files

    text = (files("battleline.rulesets.bf1900") / "data/scenarios/01-cruiser-duel.toml").read_text()
    return (
        text.replace('id = "cruiser-duel"', 'id = "close-duel"')
        .replace("y = 5000", "y = 500")
        .replace("x = 500", "x = 0")
    )


def _to_torpedo(seats: dict[str, Seat]) -> None:
    to_gunnery(seats, "18")
    for side in ("Blue", "Red"):
        assert seats[side].order(1, "gunnery").status_code == 200


def test_torpedo_form_counts_the_tubes_left(client: TestClient) -> None:
    """BF6-TORP-03: the tubes left per mount go down by the launch; BF6-BEAM-05: a beam mount
    offers half its tubes a side; BF6-TORP-09/10: the arcs shown are the mount's."""
    _, seats = start(client, scenario=None, scenario_text=_close_duel())
    _to_torpedo(seats)
    blue = seats["Blue"]
    form = forms(blue)["form"]
    assert form["kind"] == "torpedo" and form["targets"] == ["Kasagi"]
    mounts = {m["key"]: m for m in form["ships"][0]["mounts"]}
    assert mounts["beam"]["left"] == 4 and mounts["beam"]["most"] == 2
    assert mounts["bow"]["left"] == 1 and mounts["bow"]["arcs"] == [[330.0, 30.0]]
    assert "Kasagi" in mounts["beam"]["targets"] and "Kasagi" not in mounts["bow"]["targets"]
    made = compose(
        blue,
        {
            "ships": {
                "Yoshino": {
                    "launches": [
                        {"mount": "beam", "target": "Kasagi", "count": 2},
                        {"mount": "bow", "target": ""},
                    ]
                }
            }
        },
    )
    assert made["lines"] == ["Yoshino: TT beam -> Kasagi x2"]
    assert (
        post(blue, "orders", {"turn": 1, "phase": "torpedo", "lines": made["lines"]}).status_code
        == 200
    )
    seats["Red"].order(1, "torpedo")
    until(seats, lambda f: f["turn"] == 2 and f["phase"] == "torpedo")
    mounts = {m["key"]: m for m in forms(blue)["form"]["ships"][0]["mounts"]}
    assert mounts["beam"]["left"] == 2


def _to_damage_control(seats: dict[str, Seat], made: dict[str, Any]) -> None:
    """Turn 1 broadsides at the true range, Red strikes on turn 2: Blue's damage control."""
    to_gunnery(seats)
    est = true_range(made, seats, "Yoshino", "Kasagi")
    for side in ("Blue", "Red"):
        r = seats[side].order(1, "gunnery", *broadside(seats[side], est))
        assert r.status_code == 200, r.text
    until(seats, lambda f: f["phase"] == "command")
    assert seats["Red"].order(2, "command", "Red cruiser: SIG SURRENDER").status_code == 200
    assert seats["Blue"].order(2, "command").status_code == 200
    until(seats, lambda f: f["phase"] == "damage")
    assert forms(seats["Blue"])["turn"] == 2, f"seed {DC_SEED} no longer damages Yoshino"


def test_damage_control_offers_what_the_damage_allows(client: TestClient) -> None:
    """BF6-DC-02 (one die per damage event), BF6-DC-04 (no more dice than boxes): every offered
    declaration passes the check up to its count and fails one beyond; repairs are offered only
    for damage the ship has."""
    made, seats = start(client, seed=DC_SEED)
    _to_damage_control(seats, made)
    blue = seats["Blue"]
    form = forms(blue)["form"]
    assert form["kind"] == "damage"
    (ship,) = form["ships"]
    log = next(s for s in blue.view()["own"] if s["name"] == "Yoshino")["log"]
    offered = {d["code"]: d["most"] for d in ship["offered"]}
    assert 0 < ship["dice"] <= sum(1 for box in log["dc_boxes"] if box == 0)  # BF6-DC-04
    prop = log["propulsion"]
    assert ("P" in offered) == (prop["damaged"] + prop["margin"] > 0)
    assert ("BR" in offered) == (log["bridge_hits"] > 0)
    for key, pos in log["positions"].items():
        repairable = pos["slashes"] > 0 and not pos["destroyed"]
        assert (f"M:{key}" in offered) == repairable, key
    for code, most in offered.items():
        assert check(blue, [f"Yoshino: {'; '.join([code] * most)}"]).status_code == 200, code
        if most < ship["dice"]:
            r = check(blue, [f"Yoshino: {'; '.join([code] * (most + 1))}"], ["damage/Yoshino"])
            assert r.status_code == 422, code
    code = next(iter(offered))
    made_dc = compose(blue, {"ships": {"Yoshino": {code: 1}}})
    assert made_dc["lines"] == [f"Yoshino: {code}"]
    r = post(blue, "orders", {"turn": 2, "phase": "damage", "lines": made_dc["lines"]})
    assert r.status_code == 200 and r.json()["result"] is not None


# -- secrecy ---------------------------------------------------------------------------------


@pytest.mark.parametrize("scenario", ["cruiser-duel", "tgd-duel", "dba-tutorial"])
def test_forms_answers_keep_every_secret_through_a_whole_game(
    client: TestClient, scenario: str
) -> None:
    """The admirals play both human seats over HTTP; a mirror game with the same seed and
    orders gives the secrets. No /forms answer carries any (true ranges, enemy coordinates,
    logs, torpedo counts), and every target offered is a ship the side sees."""
    _, seats = start(client, seed=5, scenario=scenario)
    mirror = new_game(scenario, 5)
    sides = mirror.state.sides
    make = admiral_factory(mirror.ruleset.name)
    admirals = {s: make(s, admiral_seed(5, i)) for i, s in enumerate(sides)}
    scanned = 0
    while not mirror.finished:
        turn, phase = mirror.state.turn, mirror.spec.name
        for side in sides:
            text = seats[side].get("forms").text
            hidden = mirror.ruleset.secrets(mirror.state, side)
            assert leaks(text, hidden) == [], (turn, phase, side)
            scanned += 1
            seen = {c.name for c in mirror.view(side).contacts}
            form = seats[side].get("forms").json()["form"] or {}
            assert set(form.get("targets", ())) <= seen
            for ship in form.get("ships", ()):
                assert {t["name"] for t in ship.get("targets", ())} <= seen
                for m in ship.get("mounts", ()):
                    assert set(m.get("targets", ())) <= seen
        for side in list(mirror.pending.waiting_for):
            lines = admirals[side].orders(mirror.view(side), phase)
            lines = legal_lines(mirror, side, lines)
            assert seats[side].order(turn, phase, *lines).status_code == 200
            mirror.submit(side, lines, turn=turn, phase=phase)
    assert scanned > 20
    assert forms(seats[sides[0]])["finished"] and forms(seats[sides[0]])["form"] is None


def test_the_other_rulesets_borrow_the_forms_or_fall_back(client: TestClient) -> None:
    """1D12 and TGD play bf1900's command phase, so they borrow its forms (``PARTS_FROM``);
    TGD adds its own form for a fire step."""
    for scenario in ("cruiser-duel-1d12", "tgd-duel"):
        _, seats = start(client, scenario=scenario)
        side = next(s for s in seats if s != "umpire")
        form = forms(seats[side])["form"]
        assert form is not None and form["kind"] == "command", scenario
        division = form["divisions"][0]
        r = check(seats[side], [f"{division['name']}: SPD{division['speed']['max']:g}"])
        assert r.status_code == 200, (scenario, r.text)
        for s in (s for s in seats if s != "umpire"):
            assert seats[s].order(1, "command").status_code == 200
        after = forms(seats[side])
        if scenario == "tgd-duel":  # TGD's own fire-step form (TGD-FIRE-01/02)
            firing = next(s for s in seats if s != "umpire" and forms(seats[s])["waiting"])
            fire = forms(seats[firing])["form"]
            assert after["phase"].startswith("fire") and fire["kind"] == "tgd-fire"
            ship = fire["ships"][0]
            made = compose(
                seats[firing],
                {
                    "ships": {
                        ship["name"]: {
                            "target": fire["targets"][0],
                            "strength": ship["strengths"][0],
                            "arcs": [],
                        }
                    }
                },
            )
            assert made["lines"] == [
                f"{ship['name']}: {ship['strengths'][0]} -> {fire['targets'][0]}"
            ]
            assert check(seats[firing], made["lines"]).status_code == 200
        else:
            assert after["form"]["kind"] == "gunnery"


def test_dba_forms_offer_the_bases_the_check_allows(client: TestClient) -> None:
    """DBA's own forms: the speller's moves offer exactly the bases its check accepts
    (DBA-TYPE-01 speeds, the squadron's NIPs); the fire form's targets are the enemy on the
    table; both write lines the phase accepts."""
    _, seats = start(client, scenario="dba-tutorial")
    blue, red = seats["Blue"], seats["Red"]
    form = forms(blue)["form"]
    assert form["kind"] == "dba-move" and forms(blue)["waiting"] and not forms(red)["waiting"]
    for unit in form["units"]:
        for k in range(9):
            ok = check(blue, [f"{unit['name']}: {k}"]).status_code == 200
            assert ok == (k in unit["bases"]), (unit["name"], k)
    squadron = next(u for u in form["units"] if u["squadron"])
    made = compose(
        blue,
        {
            "units": {
                squadron["name"]: {
                    "action": "move",
                    "degrees": 45,
                    "side": "P",
                    "bases": squadron["bases"][-1],
                }
            }
        },
    )
    assert made["lines"] == [f"{squadron['name']}: T-45 {squadron['bases'][-1]}"]
    assert (
        post(blue, "orders", {"turn": 1, "phase": "move-1", "lines": made["lines"]}).status_code
        == 200
    )
    fire = forms(red)["form"]
    assert fire["kind"] == "dba-fire"
    assert set(fire["targets"]) == {s["name"] for s in blue.view()["own"]}
    shooter = fire["ships"][0]
    made = compose(red, {"ships": {shooter["name"]: {"guns": [fire["targets"][0], ""]}}})
    assert made["lines"] == [f"{shooter['name']} -> {fire['targets'][0]}"]
    assert check(red, made["lines"]).status_code == 200
