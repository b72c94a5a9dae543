"""Movement (BF6-MOV): allowance, turning circles, tracks, collisions and groundings."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose, norm360, signed_angle
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.movement import (
    Leg,
    apply_steering,
    check_move,
    emit_contacts,
    forced_turn,
    move_allowance_m,
    resolve_tracks,
    trace,
    turn_radius_m,
)
from battleline.rulesets.bf1900.scales import load_scales
from battleline.rulesets.bf1900.ship import Rating, ShipClass, ShipType
from battleline.rulesets.bf1900.shiplog import RudderState, ShipLog, SinkingState
from battleline.rulesets.bf1900.table import Land, footprint, front_edge

SMALL = load_scales()["small"]


def make_class(knots: tuple[float, ...], circle_m: float = 600.0) -> ShipClass:
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
        turning_circle_m=circle_m,
    )


def mm_ship(name: str = "Majestic") -> ShipLog:
    """A ship whose boxes are 120, 100, 80, 60, 40, 20 mm per turn at the small scale."""
    knots = tuple(
        SMALL.m_per_turn_to_knots(SMALL.from_table(mm)) for mm in (120, 100, 80, 60, 40, 20)
    )
    return ShipLog(name, make_class(knots))


def mm(allowance: tuple[float, float]) -> tuple[float, float]:
    return SMALL.to_table(allowance[0]), SMALL.to_table(allowance[1])


# -- speed ---------------------------------------------------------------------------------


def test_EX_BF6_03_speed_rises_by_one_box_over_last_turns_move() -> None:
    """EX-BF6-03: a 120 mm ship in 20 mm boxes that moved 20 mm may move at most 40 mm
    (BF6-MOV-03)."""
    log = mm_ship()
    allowance = move_allowance_m(log, SMALL, SMALL.from_table(20))
    assert mm(allowance)[1] == pytest.approx(40)
    check_move("Majestic", SMALL.from_table(40), allowance, SMALL)
    with pytest.raises(
        IllegalOrderError, match=r"Majestic.*41 mm.*maximum 40 mm.*BF6-MOV-01/MOV-03"
    ):
        check_move("Majestic", SMALL.from_table(41), allowance, SMALL)
    with pytest.raises(IllegalOrderError):
        check_move("Majestic", SMALL.from_table(120), allowance, SMALL)


def test_AMB_09_uneven_last_move_rises_to_the_next_box_only() -> None:
    """AMB-09: the cap is the lowest box above last turn's move (BF6-MOV-03)."""
    log = mm_ship()
    assert mm(move_allowance_m(log, SMALL, SMALL.from_table(30)))[1] == pytest.approx(40)
    assert mm(move_allowance_m(log, SMALL, 0.0))[1] == pytest.approx(20)
    assert mm(move_allowance_m(log, SMALL, SMALL.from_table(120)))[1] == pytest.approx(120)


def test_BF6_MOV_01_maximum_is_the_top_undamaged_box() -> None:
    """BF6-MOV-01: damaged and destroyed boxes never count towards the available speed."""
    log = mm_ship()
    log.propulsion.damage()
    log.propulsion.destroy()
    assert mm(move_allowance_m(log, SMALL, SMALL.from_table(120)))[1] == pytest.approx(80)
    log.propulsion.repair()
    assert mm(move_allowance_m(log, SMALL, SMALL.from_table(120)))[1] == pytest.approx(100)


def test_BF6_MOV_02_a_ship_may_move_less_than_its_maximum() -> None:
    """BF6-MOV-02: any move between the minimum and the maximum is legal."""
    log = mm_ship()
    allowance = move_allowance_m(log, SMALL, SMALL.from_table(60))
    assert mm(allowance) == pytest.approx((30, 80))
    check_move("Majestic", SMALL.from_table(50), allowance, SMALL)
    track = trace("Majestic", Pose(0, 0, 0), [Leg("straight", SMALL.from_table(50))], 300, 1e9)
    assert SMALL.to_table(track.length_m) == pytest.approx(50)


def test_BF6_MOV_06_AMB_08_minimum_movement_is_half_last_turns_move() -> None:
    """BF6-MOV-06, AMB-08: ships carry their way; at least half of last turn's move, even when
    stopping (BF6-CMD-13)."""
    log = mm_ship()
    allowance = move_allowance_m(log, SMALL, SMALL.from_table(100))
    assert mm(allowance) == pytest.approx((50, 120))
    with pytest.raises(IllegalOrderError, match=r"Majestic.*49 mm.*minimum 50 mm.*BF6-MOV-06"):
        check_move("Majestic", SMALL.from_table(49), allowance, SMALL)
    # a stopped ship may stay stopped
    assert move_allowance_m(log, SMALL, 0.0)[0] == 0.0


def test_minimum_never_exceeds_a_damaged_maximum() -> None:
    log = mm_ship()
    for _ in range(5):
        log.propulsion.damage()
    lo, hi = mm(move_allowance_m(log, SMALL, SMALL.from_table(120)))
    assert hi == pytest.approx(20) and lo == pytest.approx(20)


def test_BF6_MOV_07_dead_in_the_water_once_the_last_box_is_marked() -> None:
    """BF6-MOV-07: no movement once every box is marked."""
    log = mm_ship()
    for _ in range(6):
        log.propulsion.damage()
    assert move_allowance_m(log, SMALL, SMALL.from_table(20)) == (0.0, 0.0)
    with pytest.raises(IllegalOrderError, match="BF6-MOV-07"):
        check_move("Majestic", 1.0, (0.0, 0.0), SMALL)


def test_BF6_SINK_03_a_sinking_ship_does_not_move() -> None:
    """BF6-SINK-03: a sinking ship makes no further movement."""
    log = mm_ship()
    log.sinking = SinkingState(turns_left=2)
    assert move_allowance_m(log, SMALL, SMALL.from_table(100)) == (0.0, 0.0)


def test_negative_last_move_is_refused() -> None:
    with pytest.raises(ValueError, match="Majestic"):
        move_allowance_m(mm_ship(), SMALL, -1.0)


# -- turning -------------------------------------------------------------------------------


def test_BF6_MOV_04_distance_is_measured_from_the_front_edge() -> None:
    """BF6-MOV-04: a straight move of d carries the front edge exactly d along the heading."""
    start = Pose(100, 200, 60)
    track = trace("Majestic", start, [Leg("straight", 1000)], 300, 1000)
    a, b = front_edge(start, 294), front_edge(track.end, 294)
    assert math.dist(a, b) == pytest.approx(1000)
    assert track.end.heading == pytest.approx(60)


def test_EX_BF6_02_BF6_MOV_05_turning_along_the_circle_charges_the_arc_length() -> None:
    """EX-BF6-02, BF6-MOV-05: the figure's case, about 85 mm of movement spent sliding along
    the turning circle, is charged as arc length."""
    radius = turn_radius_m(mm_ship(), SMALL)
    assert radius == 300.0
    spent = SMALL.from_table(85)
    track = trace("Majestic", Pose(0, 0, 0), [Leg("turn", turn_deg=360)], radius, spent)
    assert SMALL.to_table(track.length_m) == pytest.approx(85)
    assert track.turned_deg == pytest.approx(math.degrees(spent / radius))
    centre = (radius, 0.0)  # starboard turn from heading north: centre lies to the east
    for p in track.points:
        assert math.dist(p, centre) == pytest.approx(radius)
    assert track.end.heading == pytest.approx(norm360(track.turned_deg))


def test_port_turn_goes_the_other_way() -> None:
    track = trace("Majestic", Pose(0, 0, 0), [Leg("turn", turn_deg=-90)], 300, 10_000)
    assert track.end.x == pytest.approx(-300) and track.end.y == pytest.approx(300)
    assert track.end.heading == pytest.approx(270)
    assert track.length_m == pytest.approx(300 * math.pi / 2)


def test_BF6_CMD_12_a_turn_that_cannot_finish_turns_as_far_as_it_can() -> None:
    """BF6-CMD-12: no penalty, the ship just turns as far as its movement allows."""
    quarter = 300 * math.pi / 2
    legs = [Leg("turn", turn_deg=180), Leg("straight", 500)]
    track = trace("Majestic", Pose(0, 0, 0), legs, 300, quarter)
    assert track.turned_deg == pytest.approx(90)
    assert track.length_m == pytest.approx(quarter)
    assert track.end.heading == pytest.approx(90)


def test_BF6_CMD_11_movement_left_after_the_turn_goes_straight_on() -> None:
    """BF6-CMD-11: once the turn is made, the rest of the move runs along the new heading."""
    quarter = 300 * math.pi / 2
    legs = [Leg("turn", turn_deg=90), Leg("straight", 500)]
    track = trace("Majestic", Pose(0, 0, 0), legs, 300, quarter + 200)
    assert (track.end.x, track.end.y) == pytest.approx((500, 300))
    assert track.length_m == pytest.approx(quarter + 200)


def test_REF_BF6_13_tr_hits_and_rudder_damage_widen_the_circle() -> None:
    """REF-BF6-13 (reconstructed): TR hits, R/ and RC widen the turning circle."""
    log = mm_ship()
    assert turn_radius_m(log, SMALL) == 300
    log.tr_hits = 1
    assert turn_radius_m(log, SMALL) == pytest.approx(450)
    log.tr_hits = 2
    assert turn_radius_m(log, SMALL) == pytest.approx(600)
    log.tr_hits = 0
    log.rudder = RudderState.DAMAGED
    assert turn_radius_m(log, SMALL) == pytest.approx(450)
    log.rudder = RudderState.SECURED  # RC: steering by the engines (BF6-REP-10)
    assert turn_radius_m(log, SMALL) == pytest.approx(900)
    assert forced_turn(log) == 0


def test_REF_BF6_13_jammed_rudder_forces_the_turn_that_way() -> None:
    """REF-BF6-13 (reconstructed): a jammed rudder turns every leg to the jammed side."""
    log = mm_ship()
    log.rudder = RudderState.JAMMED_STARBOARD
    assert turn_radius_m(log, SMALL) == 300 and forced_turn(log) == 1
    legs = apply_steering(log, [Leg("straight", 400), Leg("turn", turn_deg=-30)], 300)
    cost = 400 + 300 * math.radians(30)
    assert len(legs) == 1 and legs[0].kind == "turn"
    assert legs[0].distance_m == pytest.approx(cost)
    assert legs[0].turn_deg == pytest.approx(math.degrees(cost / 300))
    track = trace("Majestic", Pose(0, 0, 0), legs, 300, 10_000)
    assert track.turned_deg > 0 and track.length_m == pytest.approx(cost)
    log.rudder = RudderState.JAMMED_PORT
    assert forced_turn(log) == -1
    assert apply_steering(log, [Leg("straight", 300)], 300)[0].turn_deg < 0
    assert apply_steering(log, [], 300) == ()
    log.rudder = RudderState.FREE
    assert apply_steering(log, [Leg("straight", 300)], 300) == (Leg("straight", 300),)


def test_bad_legs_and_radius_are_refused() -> None:
    with pytest.raises(ValueError):
        Leg("straight", 100, 10)
    with pytest.raises(ValueError):
        Leg("straight", -1)
    with pytest.raises(ValueError):
        Leg("zigzag", 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Majestic"):
        trace("Majestic", Pose(0, 0, 0), [], 0, 100)


legs_strategy = st.lists(
    st.one_of(
        st.builds(lambda d: Leg("straight", d), st.floats(0, 3000)),
        st.builds(lambda t: Leg("turn", turn_deg=t), st.floats(-400, 400)),
    ),
    max_size=6,
)


@given(
    legs_strategy,
    st.floats(50, 2000),
    st.floats(0, 5000),
    st.floats(0, 360, exclude_max=True),
)
def test_property_no_track_exceeds_the_allowance_and_tracks_are_continuous(
    legs: list[Leg], radius: float, allowance: float, heading: float
) -> None:
    start = Pose(10.0, -20.0, heading)
    track = trace("S", start, legs, radius, allowance)
    assert track.length_m <= allowance + 1e-6
    assert track.length_m <= sum(leg.cost_m(radius) for leg in legs) + 1e-6
    assert track.points[0] == (start.x, start.y)
    assert track.points[-1] == pytest.approx((track.end.x, track.end.y))
    assert track.distances[-1] == pytest.approx(track.length_m)
    for p, q, d0, d1 in zip(
        track.points, track.points[1:], track.distances, track.distances[1:], strict=False
    ):
        assert d1 >= d0 - 1e-9  # non-decreasing, up to float rounding (a 1e-217 m leg)
        assert math.dist(p, q) <= d1 - d0 + 1e-6  # no jumps: chord never longer than the path
    assert signed_angle(track.end.heading - heading - track.turned_deg) == pytest.approx(
        0, abs=1e-6
    )


@given(st.floats(-720, 720).filter(lambda t: abs(t) > 1e-3), st.floats(50, 2000))
def test_property_distance_spent_on_an_arc_equals_r_theta(turn: float, radius: float) -> None:
    track = trace("S", Pose(0, 0, 0), [Leg("turn", turn_deg=turn)], radius, 1e9)
    assert track.turned_deg == pytest.approx(turn)
    assert track.length_m == pytest.approx(radius * math.radians(abs(turn)))


@given(legs_strategy, st.floats(50, 2000), st.floats(0, 5000), st.floats(0, 1))
def test_property_cut_track_is_a_prefix(
    legs: list[Leg], radius: float, allowance: float, frac: float
) -> None:
    track = trace("S", Pose(0, 0, 30), legs, radius, allowance)
    cut = track.cut(frac * track.length_m)
    assert cut.length_m == pytest.approx(frac * track.length_m)
    assert (cut.end.x, cut.end.y) == pytest.approx((cut.points[-1][0], cut.points[-1][1]))
    assert cut.pose_at(cut.length_m) == cut.end


# -- collisions and groundings -------------------------------------------------------------

SIZE = (300.0, 100.0)


def test_head_on_collision_stops_both_ships_and_names_them() -> None:
    a = trace("Asahi", Pose(0, 0, 90), [Leg("straight", 1000)], 300, 1000)
    b = trace("Mikasa", Pose(1500, 0, 270), [Leg("straight", 1000)], 300, 1000)
    out, contacts = resolve_tracks(
        {"Asahi": a, "Mikasa": b}, {"Asahi": SIZE, "Mikasa": SIZE}, [], {}
    )
    assert [(c.kind, c.ship, c.other) for c in contacts] == [
        (EventKind.COLLISION, "Asahi", "Mikasa")
    ]
    # they meet in the middle: each stops about 600 m along, just short of touching
    assert out["Asahi"].length_m == pytest.approx(600, abs=40)
    assert out["Mikasa"].length_m == pytest.approx(600, abs=40)
    pa, pb = footprint(out["Asahi"].end, *SIZE), footprint(out["Mikasa"].end, *SIZE)
    assert not pa.intersects(pb)
    assert contacts[0].x == pytest.approx(750, abs=40)
    log = EventLog()
    (event,) = emit_contacts(log, contacts)
    assert event.kind is EventKind.COLLISION and event.ship == "Asahi"
    assert event.data["other"] == "Mikasa"
    assert "Asahi collides with Mikasa" in event.text


def test_ship_running_into_a_stationary_ship_stops_it_alone() -> None:
    a = trace("Fuji", Pose(0, 0, 0), [Leg("straight", 2000)], 300, 2000)
    out, contacts = resolve_tracks(
        {"Fuji": a}, {"Fuji": SIZE, "Chen Yuen": SIZE}, [], {"Chen Yuen": Pose(0, 1200, 90)}
    )
    assert [(c.ship, c.other) for c in contacts] == [("Fuji", "Chen Yuen")]
    assert "Chen Yuen" not in out
    assert out["Fuji"].end.y < 1200 - 50 - 150 + 1e-6


def test_grounding_on_land_names_the_land() -> None:
    isle = Land.from_coords("Hai-yang", [(-500, 1000), (500, 1000), (500, 1500), (-500, 1500)])
    a = trace("Yoshino", Pose(0, 0, 0), [Leg("straight", 2000)], 300, 2000)
    out, contacts = resolve_tracks({"Yoshino": a}, {"Yoshino": SIZE}, [isle], {})
    assert [(c.kind, c.ship, c.other) for c in contacts] == [
        (EventKind.GROUNDING, "Yoshino", "Hai-yang")
    ]
    assert out["Yoshino"].end.y == pytest.approx(850, abs=40)
    assert not footprint(out["Yoshino"].end, *SIZE).intersects(isle.polygon)
    log = EventLog()
    emit_contacts(log, contacts)
    assert log.events[0].data["land"] == "Hai-yang"
    assert "runs aground on Hai-yang" in log.events[0].text


def test_ships_that_pass_clear_are_untouched_and_touching_at_start_is_not_reported() -> None:
    # two ships in line ahead, bases touching, steaming on together
    a = trace("Lead", Pose(0, 300, 0), [Leg("straight", 1000)], 300, 1000)
    b = trace("Second", Pose(0, 0, 0), [Leg("straight", 1000)], 300, 1000)
    c = trace("Passer", Pose(1000, 0, 0), [Leg("straight", 1000)], 300, 1000)
    tracks = {"Lead": a, "Second": b, "Passer": c}
    sizes = {n: SIZE for n in tracks}
    out, contacts = resolve_tracks(tracks, sizes, [], {})
    assert contacts == []
    assert out == tracks


def test_no_moving_ships_means_nothing_happens() -> None:
    out, contacts = resolve_tracks({}, {"X": SIZE}, [], {"X": Pose(0, 0, 0)})
    assert out == {} and contacts == []
    with pytest.raises(ValueError, match="no base size for X"):
        resolve_tracks({}, {}, [], {"X": Pose(0, 0, 0)})


def test_resolving_eighty_ships() -> None:
    """Two columns of 40 steaming past each other, and one ship crossing ahead of a column."""
    tracks = {}
    sizes = {}
    for i in range(40):
        for side, x, h in (("J", 0.0, 0.0), ("C", 2000.0, 180.0)):
            name = f"{side}{i}"
            y = -i * 400.0 if side == "J" else 20000 + i * 400.0
            tracks[name] = trace(name, Pose(x, y, h), [Leg("straight", 2500)], 300, 2500)
            sizes[name] = SIZE
    tracks["X"] = trace("X", Pose(1000, 1000, 270), [Leg("straight", 2500)], 300, 2500)
    sizes["X"] = SIZE
    out, contacts = resolve_tracks(tracks, sizes, [], {})
    # X cuts across the head of the J column; the followers then run into the stopped ships
    assert {contacts[0].ship, contacts[0].other} == {"J0", "X"}
    assert all(c.ship.startswith("J") or c.ship == "X" for c in contacts)
    assert out["X"].length_m < 2500
    assert all(out[f"C{i}"] == tracks[f"C{i}"] for i in range(40))


ship_strategy = st.tuples(
    st.floats(-1500, 1500),
    st.floats(-1500, 1500),
    st.floats(0, 360, exclude_max=True),
    legs_strategy,
    st.floats(0, 2500),
)


@given(st.lists(ship_strategy, min_size=2, max_size=6))
def test_property_resolved_bases_never_end_overlapping(
    ships: list[tuple[float, float, float, list[Leg], float]],
) -> None:
    """Ships cannot pass through other ships: after resolution no two bases that were apart at
    the start overlap, and no track is longer than planned."""
    tracks = {
        f"S{i}": trace(f"S{i}", Pose(x, y, h), legs, 300, allowance)
        for i, (x, y, h, legs, allowance) in enumerate(ships)
    }
    sizes = dict.fromkeys(tracks, SIZE)
    out, _ = resolve_tracks(tracks, sizes, [], {})
    names = sorted(tracks)
    for i, a in enumerate(names):
        assert out[a].length_m <= tracks[a].length_m + 1e-9
        for b in names[i + 1 :]:
            at_start = footprint(tracks[a].start, *SIZE).intersects(
                footprint(tracks[b].start, *SIZE)
            )
            if not at_start:
                assert not footprint(out[a].end, *SIZE).intersects(footprint(out[b].end, *SIZE))


def test_a_ship_struck_from_astern_steams_on_and_only_the_one_that_ran_in_stops() -> None:
    """Issue 12's pile-ups: Fuji, faster, runs into Shikishima ahead of her in the line. Fuji
    stops; Shikishima, struck from astern, makes her whole move, so the line behind her does not
    jam on a ship that was only struck (``_Sweep.runners``)."""
    ahead = trace("Shikishima", Pose(0, 400, 0), [Leg("straight", 300)], 300, 300)
    behind = trace("Fuji", Pose(0, 0, 0), [Leg("straight", 900)], 300, 900)
    sizes = {"Shikishima": SIZE, "Fuji": SIZE}
    out, contacts = resolve_tracks({"Shikishima": ahead, "Fuji": behind}, sizes, [], {})
    assert [(c.ship, c.other, c.both_stop) for c in contacts] == [("Fuji", "Shikishima", False)]
    assert out["Shikishima"].length_m == pytest.approx(300)
    assert out["Fuji"].length_m < 900
    assert not footprint(out["Fuji"].end, *SIZE).intersects(footprint(out["Shikishima"].end, *SIZE))
    log = EventLog()
    emit_contacts(log, contacts)
    assert any(e.text == "Fuji collides with Shikishima; Fuji stops" for e in log.events)


def test_a_ship_jammed_bow_on_against_a_stopped_ship_can_turn_away() -> None:
    """The movement deadlock of issue 12: Fuji ran into the stopped Chen Yuen and stopped a
    sub-step short of her side; turning away, her base sweeps over Chen Yuen's in the first
    metres. Lying against each other at the start, the two are eased apart (``lying_against``),
    unless the move would end with them overlapping."""
    first = trace("Fuji", Pose(0, 0, 0), [Leg("straight", 2000)], 300, 2000)
    stopped = {"Chen Yuen": Pose(0, 1200, 90)}
    sizes = {"Fuji": SIZE, "Chen Yuen": SIZE}
    out, contacts = resolve_tracks({"Fuji": first}, sizes, [], stopped)
    assert [(c.ship, c.other) for c in contacts] == [("Fuji", "Chen Yuen")]
    jammed = out["Fuji"].end
    away = trace("Fuji", jammed, [Leg("turn", turn_deg=-150)], 300, 900)
    out, contacts = resolve_tracks({"Fuji": away}, sizes, [], stopped)
    assert contacts == []
    assert out["Fuji"].length_m == pytest.approx(away.length_m)
    # Pressing on into her, to end the move on her, she gives way: she keeps her place.
    ahead = trace("Fuji", jammed, [Leg("straight", 100)], 300, 100)
    out, contacts = resolve_tracks({"Fuji": ahead}, sizes, [], stopped)
    assert out["Fuji"].length_m == 0.0
    assert out["Fuji"].end == jammed
