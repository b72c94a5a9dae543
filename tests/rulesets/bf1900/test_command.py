"""Divisional orders carried out in the Movement Phase, and fleet messages (BF6-CMD-01..15,
BF6-CMD-25..32; EX-BF6-01, EX-BF6-16)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose, signed_angle
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.command import (
    check_and_plan,
    check_arrow,
    command_phase,
    validate_orders,
)
from battleline.rulesets.bf1900.divisions import (
    Division,
    Formation,
    classify_formation,
    station_poses,
)
from battleline.rulesets.bf1900.movement_phase import MovementResult, movement_phase
from battleline.rulesets.bf1900.notation import (
    Direction,
    Order,
    SetSpeed,
    TurnInSuccession,
    TurnTogether,
    parse_orders,
)
from battleline.rulesets.bf1900.planning import plan_division_move
from battleline.rulesets.bf1900.scales import load_scales
from battleline.rulesets.bf1900.ship import Rating, ShipClass, ShipType
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.testing import FixedDice

SMALL = load_scales()["small"]
KN15 = SMALL.knots_to_m_per_turn(15)  # 1389 m in a 3-minute turn
RADIUS = 300.0


def make_class(knots: tuple[float, ...] = (18, 15, 12, 9, 6, 3)) -> ShipClass:
    return ShipClass(
        name="Test",
        navy="RN",
        type=ShipType.BATTLESHIP,
        year=1900,
        size=8,
        armour_vitals=9,
        armour_upperworks=6,
        upperworks_protection=Rating.GOOD,
        flood_protection=Rating.GOOD,
        stability="good",
        seaway="normal",
        armoured_deck=True,
        propulsion_knots=knots,
        mountings=(),
        turning_circle_m=2 * RADIUS,
    )


CLS = make_class()


class Fleet:
    """Divisions, logs and poses for one test, moved phase by phase."""

    def __init__(self) -> None:
        self.divisions: dict[str, Division] = {}
        self.logs: dict[str, ShipLog] = {}
        self.poses: dict[str, Pose] = {}
        self.last: dict[str, float] = {}
        self.events = EventLog()
        self.tracks: list[MovementResult] = []

    def add(
        self,
        name: str,
        ships: Sequence[str],
        lead: Pose,
        formation: Formation = Formation.LINE_AHEAD,
        interval: float = 600.0,
        side: str = "blue",
        last: float = KN15,
        **kw: object,
    ) -> Division:
        poses = station_poses(lead, len(ships), formation, interval)
        for ship, pose in zip(ships, poses, strict=True):
            self.logs[ship] = ShipLog(ship, CLS, side=side)
            self.poses[ship] = pose
            self.last[ship] = last
        division = Division(name, side, tuple(ships), formation=formation, interval_m=interval)
        division = division.with_(**kw) if kw else division
        self.divisions[name] = division
        return division

    def move(self, orders: Mapping[str, str] | None = None) -> MovementResult:
        parsed = {k: parse_orders(v) for k, v in (orders or {}).items()}
        result = movement_phase(
            self.divisions, parsed, self.poses, self.logs, SMALL, self.last, self.events
        )
        self.divisions, self.poses, self.last = result.divisions, result.poses, result.last_moves
        self.tracks.append(result)
        return result

    def command(
        self, orders: Mapping[str, str], dice: FixedDice | None = None
    ) -> dict[str, tuple[Order, ...]]:
        dice = dice or FixedDice([])
        result = command_phase(
            self.divisions, orders, self.logs, self.poses, SMALL, self.last, dice, self.events
        )
        self.divisions = result.divisions
        return result.movement_orders

    def texts(self, kind: EventKind) -> list[str]:
        return [e.text for e in self.events.of_kind(kind)]


def _near(track_points: Sequence[tuple[float, float]], x: float, y: float) -> float:
    return min(math.hypot(px - x, py - y) for px, py in track_points)


# -- turn in succession ---------------------------------------------------------------------


def test_EX_BF6_01_turn_in_succession_90_to_starboard() -> None:
    """BF6-CMD-05: every ship turns 90° to starboard at the leader's pivot; still in line ahead."""
    fleet = Fleet()
    names = ["Majestic", "Magnificent", "Hannibal", "Prince George"]
    fleet.add("Channel", names, Pose(0, 0, 0), interval=600)
    order = TurnInSuccession(90, Direction.STARBOARD)
    assert order.arrow.name == "HORIZONTAL"
    first = fleet.move({"Channel": str(order)})
    second = fleet.move()
    for ship in names:
        turned = first.tracks[ship].turned_deg + second.tracks[ship].turned_deg
        assert turned == pytest.approx(90.0)
        points = first.tracks[ship].points + second.tracks[ship].points
        assert _near(points, 0.0, 0.0) < 1e-6, f"{ship} never passed the pivot"
        check_arrow("Channel", order, turned)
    # A port turn under a starboard arrow is illegal (BF6-CMD-07).
    with pytest.raises(IllegalOrderError, match="BF6-CMD-07"):
        check_arrow("Channel", order, -90.0)
    end = [fleet.poses[s] for s in names]
    assert classify_formation(end) == (Formation.LINE_AHEAD, False)
    assert end[0].heading == pytest.approx(90.0)
    assert all(a.distance_to(b) == pytest.approx(600.0) for a, b in itertools.pairwise(end))
    assert fleet.divisions["Channel"].formation is Formation.LINE_AHEAD


def test_a_follower_short_of_the_pivot_turns_there_next_move() -> None:
    """AMB-03: the pivot stays where the lead began its turn, across Movement Phases."""
    fleet = Fleet()
    fleet.add("1st", ["A", "B", "C"], Pose(0, 0, 0), interval=800)
    first = fleet.move({"1st": "TS90S"})
    # C started 1,600 m astern and ran 1,389 m: not yet at the pivot, so it has not turned.
    assert first.tracks["C"].turned_deg == 0.0
    wake = fleet.divisions["1st"].wake_of("C")
    assert wake is not None and wake[0].straight_m == pytest.approx(1600 - KN15)
    second = fleet.move()
    assert second.tracks["C"].turned_deg == pytest.approx(90.0)
    assert _near(second.tracks["C"].points, 0.0, 0.0) < 1e-6


@settings(max_examples=15, deadline=None)
@given(
    ships=st.integers(2, 4),
    turn=st.integers(1, 180),
    side=st.sampled_from(list(Direction)),
    interval=st.floats(600, 900),
    knots=st.sampled_from([9, 12, 15, 18]),
    heading=st.floats(0, 359),
)
def test_turn_in_succession_keeps_line_ahead_through_one_pivot(
    ships: int, turn: int, side: Direction, interval: float, knots: float, heading: float
) -> None:
    """Property (BF6-CMD-05, AMB-03): every ship passes the same pivot and the line reforms.

    A lead too slow to finish the turn in one move turns as far as it can (BF6-CMD-12), and the
    followers copy exactly the turn it made.
    """
    fleet = Fleet()
    names = [f"S{i}" for i in range(ships)]
    speed = SMALL.knots_to_m_per_turn(knots)
    fleet.add("1st", names, Pose(100.0, 200.0, heading), interval=interval, last=speed)
    order = TurnInSuccession(turn, side)
    results = [fleet.move({"1st": str(order)})]
    need = (ships - 1) * interval + RADIUS * math.radians(turn)
    while len(results) * speed < need + speed:
        results.append(fleet.move())
    for ship in names:
        points = [p for r in results for p in r.tracks[ship].points]
        assert _near(points, 100.0, 200.0) < 1e-6
        made = side.sign * min(turn, math.degrees(speed / RADIUS))
        assert sum(r.tracks[ship].turned_deg for r in results) == pytest.approx(made)
        assert all(r.tracks[ship].length_m == pytest.approx(speed) for r in results)
    end = [fleet.poses[s] for s in names]
    assert classify_formation(end) == (Formation.LINE_AHEAD, False)
    assert signed_angle(end[0].heading - heading - made) == pytest.approx(0, abs=1e-6)
    for a, b in itertools.pairwise(end):
        assert a.distance_to(b) == pytest.approx(interval, abs=1e-3)


@pytest.mark.parametrize(
    ("order", "turned", "ok"),
    [
        ("TS30S", 30.0, True),
        ("TS30S", 44.0, True),
        ("TS30S", 50.0, False),
        ("TS60S", 89.0, True),
        ("TS60S", 95.0, False),
        ("TS90S", 20.0, True),  # short of movement (BF6-CMD-12)
        ("TT120P", -150.0, True),
    ],
)
def test_BF6_CMD_06_AMB_02_the_arrow_class_caps_the_turn(
    order: str, turned: float, ok: bool
) -> None:
    turn = Order.parse(order)
    assert isinstance(turn, TurnInSuccession | TurnTogether)
    if ok:
        check_arrow("1st", turn, turned)
    else:
        with pytest.raises(IllegalOrderError, match="BF6-CMD-06"):
            check_arrow("1st", turn, turned)


# -- turns together, formations --------------------------------------------------------------


def test_BF6_CMD_08_turn_together_every_ship_turns_at_once() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B", "C"], Pose(0, 0, 0), interval=600)
    before = dict(fleet.poses)
    result = fleet.move({"1st": "TT90S"})
    moves = {
        (round(result.poses[s].x - before[s].x, 6), round(result.poses[s].y - before[s].y, 6))
        for s in "ABC"
    }
    assert len(moves) == 1  # the same legs for every ship
    assert all(result.tracks[s].turned_deg == pytest.approx(90.0) for s in "ABC")
    assert fleet.divisions["1st"].formation is Formation.LINE_ABREAST_STARBOARD


def test_BF6_CMD_09_turn_in_succession_out_of_line_ahead_becomes_simultaneous() -> None:
    """Not rejected: carried out as a turn together, and an event says so."""
    fleet = Fleet()
    fleet.add("1st", ["A", "B", "C"], Pose(0, 0, 0), Formation.LINE_ABREAST_STARBOARD)
    validate_orders(fleet.divisions["1st"], parse_orders("TS90P"))  # no error
    result = fleet.move({"1st": "TS90P"})
    assert all(result.tracks[s].turned_deg == pytest.approx(-90.0) for s in "ABC")
    assert any(
        "TS90P carried out as a turn together" in t and "BF6-CMD-09" in t
        for t in fleet.texts(EventKind.COMMAND)
    )
    # From line abreast to starboard a turn of 8 points to port restores line ahead (BF6-CMD-10).
    assert fleet.divisions["1st"].formation is Formation.LINE_AHEAD
    assert fleet.divisions["1st"].ships == ("A", "B", "C")


def test_BF6_CMD_10_line_abreast_turning_towards_the_line_reverses_it() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B", "C"], Pose(0, 0, 0), Formation.LINE_ABREAST_STARBOARD)
    fleet.move({"1st": "TT90S"})
    division = fleet.divisions["1st"]
    assert division.formation is Formation.LINE_AHEAD
    assert division.ships == ("C", "B", "A") and division.lead == "C"
    assert division.flagship == "A"  # the flag does not move
    assert classify_formation([fleet.poses[s] for s in division.ships]) == (
        Formation.LINE_AHEAD,
        False,
    )
    assert any("C now leading" in t for t in fleet.texts(EventKind.COMMAND))
    # A turn in succession is legal again next turn and keeps the reversed line.
    fleet.move({"1st": "TS45P"})
    fleet.move()
    fleet.move()
    assert classify_formation([fleet.poses[s] for s in ("C", "B", "A")])[0] is Formation.LINE_AHEAD


def test_a_turn_together_that_fits_no_formation_leaves_none() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B"], Pose(0, 0, 0))
    fleet.move({"1st": "TT30S"})
    assert fleet.divisions["1st"].formation is Formation.NONE
    fleet.move({"1st": "TS30P"})  # carried out together: back in line ahead
    assert fleet.divisions["1st"].formation is Formation.LINE_AHEAD


# -- execution order, shortfall, stop --------------------------------------------------------


def test_BF6_CMD_04_without_orders_a_division_steams_straight_on() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B"], Pose(0, 0, 45))
    result = fleet.move()
    for ship in "AB":
        assert result.tracks[ship].turned_deg == 0.0
        assert result.tracks[ship].length_m == pytest.approx(KN15)
        assert result.poses[ship].heading == pytest.approx(45.0)


def test_BF6_CMD_11_turns_come_first_then_straight() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A"], Pose(0, 0, 0))
    result = fleet.move({"1st": "TT90S"})
    track = result.tracks["A"]
    arc = RADIUS * math.pi / 2
    assert track.pose_at(arc).heading == pytest.approx(90.0)
    assert (track.end.x, track.end.y) == pytest.approx((RADIUS + KN15 - arc, RADIUS))


def test_BF6_CMD_12_a_turn_too_big_is_done_as_far_as_possible() -> None:
    fleet = Fleet()
    slow = SMALL.knots_to_m_per_turn(6)  # 556 m: not enough for a 180° arc of 942 m
    fleet.add("1st", ["A"], Pose(0, 0, 0), last=slow)
    result = fleet.move({"1st": "TS180S"})
    assert result.tracks["A"].turned_deg == pytest.approx(math.degrees(slow / RADIUS))
    assert any("BF6-CMD-12" in t for t in fleet.texts(EventKind.MOVE))


def test_BF6_CMD_13_stop_covers_the_minimum_movement_then_stops() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B"], Pose(0, 0, 0))
    result = fleet.move({"1st": "STOP"})
    minimum = SMALL.min_move_fraction * KN15
    assert result.tracks["A"].length_m == pytest.approx(minimum)
    assert result.last_moves["A"] == 0.0 and result.last_moves["B"] == 0.0
    assert any("stopped (BF6-CMD-13)" in t for t in fleet.texts(EventKind.MOVE))
    # Dead stop: next turn it may only work up to its lowest propulsion box (BF6-MOV-03).
    with pytest.raises(IllegalOrderError, match="BF6-MOV-03"):
        fleet.move({"1st": "SPD6"})
    fleet.move({"1st": "SPD3"})
    assert fleet.tracks[-1].tracks["A"].length_m == pytest.approx(SMALL.knots_to_m_per_turn(3))


@pytest.mark.parametrize("text", ["STOP TS90S", "TT45P STOP", "SPD10 STOP"])
def test_BF6_CMD_14_stop_with_another_order_is_rejected(text: str) -> None:
    division = Division("3rd Cruisers", "red", ("A",))
    with pytest.raises(IllegalOrderError) as err:
        validate_orders(division, parse_orders(text))
    assert "'3rd Cruisers'" in str(err.value) and "BF6-CMD-14" in str(err.value)


def test_BF6_CMD_14_stop_with_a_fleet_message_is_allowed() -> None:
    validate_orders(Division("1st", "red", ("A",)), parse_orders("STOP SIG ENGAGE"))


def test_BF6_CMD_15_multiple_commands_run_left_to_right() -> None:
    east, west = Fleet(), Fleet()
    east.add("1st", ["A"], Pose(0, 0, 0))
    west.add("1st", ["A"], Pose(0, 0, 0))
    a = east.move({"1st": "TS90S TS90P"}).poses["A"]
    b = west.move({"1st": "TS90P TS90S"}).poses["A"]
    assert a.heading == pytest.approx(0.0) and b.heading == pytest.approx(0.0)
    assert a.x == pytest.approx(2 * RADIUS) and b.x == pytest.approx(-2 * RADIUS)


def test_turn_together_after_turn_in_succession_turns_every_ship_then() -> None:
    """A TS after a TT in one move is done together too (documented reading)."""
    fleet = Fleet()
    fleet.add("1st", ["A", "B"], Pose(0, 0, 0))
    fleet.move({"1st": "TT45S TS45S"})
    assert any("a turn together came first" in t for t in fleet.texts(EventKind.COMMAND))
    assert fleet.tracks[-1].tracks["B"].turned_deg == pytest.approx(90.0)
    assert fleet.divisions["1st"].formation is Formation.LINE_ABREAST_STARBOARD


# -- speed -------------------------------------------------------------------------------------


def test_speed_order_sets_the_distance() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B"], Pose(0, 0, 0), last=SMALL.knots_to_m_per_turn(9))
    result = fleet.move({"1st": "SPD12"})
    assert result.tracks["A"].length_m == pytest.approx(SMALL.knots_to_m_per_turn(12))


def test_speed_increase_beyond_one_box_is_rejected() -> None:
    """BF6-MOV-03 (EX-BF6-03 at this scale): 9 knots last turn, 15 knots asked."""
    fleet = Fleet()
    fleet.add("2nd Division", ["A"], Pose(0, 0, 0), last=SMALL.knots_to_m_per_turn(9))
    with pytest.raises(IllegalOrderError) as err:
        fleet.move({"2nd Division": "SPD15"})
    assert "'2nd Division'" in str(err.value) and "BF6-MOV-03" in str(err.value)


def test_speed_above_the_top_undamaged_box_is_rejected() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B"], Pose(0, 0, 0), last=SMALL.knots_to_m_per_turn(12))
    fleet.logs["B"].propulsion.damaged = 2  # top box now 12 knots
    with pytest.raises(IllegalOrderError, match=r"B's top undamaged propulsion box .*BF6-MOV-01"):
        fleet.move({"1st": "SPD15"})


def test_speed_below_the_minimum_is_rejected() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A"], Pose(0, 0, 0))
    with pytest.raises(IllegalOrderError, match=r"use STOP.*BF6-MOV-06"):
        fleet.move({"1st": "SPD3"})


def test_only_one_speed_order_a_turn() -> None:
    with pytest.raises(IllegalOrderError, match="BF6-MOV-01"):
        validate_orders(Division("1st", "red", ("A",)), parse_orders("SPD10 SPD12"))


def test_the_slowest_ship_holds_the_division_back() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B"], Pose(0, 0, 0))
    fleet.logs["B"].propulsion.damaged = 2  # 12 knots at most
    result = fleet.move()
    assert result.tracks["A"].length_m == pytest.approx(SMALL.knots_to_m_per_turn(12))


def test_followers_close_a_gap_in_the_line() -> None:
    """BF6-CMD-17: ships astern close up on the ship ahead (station keeping)."""
    fleet = Fleet()
    fleet.add("1st", ["A", "B", "C"], Pose(0, 0, 0), interval=600)
    fleet.divisions["1st"] = fleet.divisions["1st"].without("B")
    del fleet.poses["B"]  # gone from the table
    gap0 = fleet.poses["A"].distance_to(fleet.poses["C"])
    result = fleet.move()
    assert result.tracks["C"].length_m > result.tracks["A"].length_m
    assert fleet.poses["A"].distance_to(fleet.poses["C"]) < gap0
    for _ in range(4):
        fleet.move()
    assert fleet.poses["A"].distance_to(fleet.poses["C"]) == pytest.approx(600.0, abs=1.0)


# -- the Command Phase and fleet messages ------------------------------------------------------


def test_BF6_CMD_01_command_phase_hands_movement_orders_on() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B"], Pose(0, 0, 0))
    orders = fleet.command({"1st": "SPD15 TS90S SIG ENGAGE"})
    assert orders["1st"] == (SetSpeed(15), TurnInSuccession(90, Direction.STARBOARD))


def test_BF6_CMD_02_divisional_orders_bind_only_their_division() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B"], Pose(0, 0, 0))
    fleet.add("2nd", ["C", "D"], Pose(3000, 0, 0))
    result = fleet.move({"1st": "TT90P"})
    assert result.tracks["A"].turned_deg == pytest.approx(-90.0)
    assert result.tracks["C"].turned_deg == 0.0 and result.tracks["D"].turned_deg == 0.0


def test_an_unknown_division_is_rejected() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A"], Pose(0, 0, 0))
    with pytest.raises(IllegalOrderError, match=r"unknown division '9th'.*BF6-CMD-02"):
        fleet.command({"9th": "TS90S"})
    with pytest.raises(IllegalOrderError, match="unknown division '9th'"):
        check_and_plan(
            fleet.divisions, {"9th": "TS90S"}, fleet.logs, fleet.poses, SMALL, fleet.last
        )


def test_check_and_plan_finds_every_illegal_order_before_resolution() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B"], Pose(0, 0, 0), last=SMALL.knots_to_m_per_turn(12))
    args = (fleet.logs, fleet.poses, SMALL, fleet.last)
    parsed, moves = check_and_plan(fleet.divisions, {"1st": "SPD15 TS90S"}, *args)
    assert parsed["1st"] == parse_orders("SPD15 TS90S")
    assert moves["1st"].fits(fleet.divisions["1st"], parse_orders("SPD15 TS90S"))
    with pytest.raises(IllegalOrderError, match="BF6-MOV-03"):
        check_and_plan(fleet.divisions, {"1st": "SPD18"}, *args)
    with pytest.raises(IllegalOrderError, match="BF6-CMD-16"):
        check_and_plan(fleet.divisions, {"1st": "DROP B"}, *args)
    with pytest.raises(IllegalOrderError, match="BF6-CMD-19"):
        check_and_plan(fleet.divisions, {"1st": "FLAG B"}, *args)
    assert fleet.events.events == []  # nothing was narrated or changed


def test_BF6_CMD_03_fleet_messages_are_signals_between_divisions() -> None:
    """BF6-CMD-03:
    BF6-CMD-26, BF6-CMD-29, BF6-CMD-30, BF6-CMD-31: the advisory messages are announced as
    signals and change no division's orders."""
    fleet = Fleet()
    fleet.add("1st", ["A"], Pose(0, 0, 0))
    fleet.add("Destroyers", ["D1"], Pose(2000, 0, 0))
    orders = fleet.command({"1st": "SIG ENGAGE SIG FOLLOW", "Destroyers": "SIG TORPEDO SIG RECALL"})
    signals = fleet.events.of_kind(EventKind.SIGNAL)
    assert [e.data["message"] for e in signals] == ["ENGAGE", "FOLLOW", "TORPEDO", "RECALL"]
    assert "A (1st) signals 'Engage Enemy'" in signals[0].text
    assert orders == {"1st": (), "Destroyers": ()}


@pytest.mark.parametrize(("text", "turn"), [("SIG TURN16 S", 180.0), ("SIG TURN8 P", -90.0)])
def test_EX_BF6_16_fleet_turn_orders(text: str, turn: float) -> None:
    """BF6-CMD-27, BF6-CMD-28: every division of the side turns together 16 or 8 points that way."""
    fleet = Fleet()
    fleet.add("1st", ["A", "B"], Pose(0, 0, 0), fleet_flagship=True)
    fleet.add("2nd", ["C", "D"], Pose(2500, 0, 0))
    fleet.add("Enemy", ["X", "Y"], Pose(0, 6000, 180), side="red")
    orders = fleet.command({"1st": text, "2nd": "TS45S SPD15"})
    expected = TurnTogether(int(abs(turn)), Direction.STARBOARD if turn > 0 else Direction.PORT)
    assert orders["1st"] == (expected,)
    assert orders["2nd"] == (SetSpeed(15), expected)  # its own turn is replaced
    assert orders["Enemy"] == ()
    result = fleet.move(orders={k: " ".join(map(str, v)) for k, v in orders.items()})
    for ship in "ABCD":
        assert result.tracks[ship].turned_deg == pytest.approx(turn)
    assert result.tracks["X"].turned_deg == 0.0
    if abs(turn) == 180:
        assert fleet.divisions["1st"].ships == ("B", "A")  # the rear ship now leads
    assert any("EX-BF6-16" in t for t in fleet.texts(EventKind.COMMAND))


def test_BF6_CMD_32_we_surrender_ends_the_ships_part() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B"], Pose(0, 0, 0))
    fleet.add("2nd", ["C"], Pose(3000, 0, 0))
    orders = fleet.command({"1st": "SIG SURRENDER TS90S"})
    assert fleet.logs["A"].surrendered and fleet.logs["B"].surrendered
    assert not fleet.logs["C"].surrendered
    assert orders["1st"] == ()
    assert [e.ship for e in fleet.events.of_kind(EventKind.SURRENDER)] == ["A", "B"]
    fleet.command({})
    assert "1st" not in fleet.divisions and "2nd" in fleet.divisions


def test_plan_gives_each_ship_its_legs_and_allowance() -> None:
    fleet = Fleet()
    division = fleet.add("1st", ["A", "B"], Pose(0, 0, 0))
    plan = plan_division_move(
        division, parse_orders("TS90S"), fleet.poses, fleet.logs, SMALL, fleet.last
    )
    assert [leg.kind for leg in plan.legs["A"]] == ["turn", "straight"]
    assert [leg.kind for leg in plan.legs["B"]] == ["straight", "turn", "straight"]
    assert plan.legs["B"][0].distance_m == pytest.approx(600.0)
    assert plan.allowance_m == {"A": pytest.approx(KN15), "B": pytest.approx(KN15)}


def test_a_ship_that_cannot_turn_with_the_rest_breaks_the_formation() -> None:
    fleet = Fleet()
    fleet.add("1st", ["A", "B", "C"], Pose(0, 0, 0))
    fleet.logs["C"].propulsion.damaged = 6  # dead in the water (BF6-MOV-07)
    result = fleet.move({"1st": "TT90S"})
    assert result.tracks["C"].length_m == 0.0
    assert fleet.divisions["1st"].formation is Formation.NONE


@settings(max_examples=20, deadline=None)
@given(
    formation=st.sampled_from([f for f in Formation if f is not Formation.NONE]),
    turn=st.sampled_from([45, 90, 135, 180]),
    side=st.sampled_from(list(Direction)),
    heading=st.floats(0, 359),
)
def test_turn_together_keeps_the_ships_places_relative_to_each_other(
    formation: Formation, turn: int, side: Direction, heading: float
) -> None:
    """Property (BF6-CMD-08, BF6-CMD-10): the formation worked out from the turn is the one the
    ships are really in afterwards."""
    fleet = Fleet()
    fleet.add("1st", ["A", "B", "C"], Pose(0, 0, heading), formation, interval=700)
    before = dict(fleet.poses)
    fleet.move({"1st": f"TT{turn}{side.value}"})
    moved = {
        (round(fleet.poses[s].x - before[s].x, 6), round(fleet.poses[s].y - before[s].y, 6))
        for s in "ABC"
    }
    assert len(moved) == 1
    division = fleet.divisions["1st"]
    assert classify_formation([fleet.poses[s] for s in division.ships]) == (
        division.formation,
        False,
    )
