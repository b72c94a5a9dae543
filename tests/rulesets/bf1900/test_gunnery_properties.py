"""Properties of the Gunnery Phase (hypothesis).

* a hit zone is found exactly when the estimate lies within the target's extent plus its danger
  zone along the line of sight (BF6-MEAS-03/04, BF6-DZ-01..03, AMB-17/18), checked against an
  independent shapely construction;
* a side's view of the pending gunnery log never holds the other side's estimates (BF6-GUN-01);
* the gunnery log notation round-trips;
* split fire: a lettered position's legal splits are whole salvos within ROF (BF6-ROF-06), and a
  beam battery's are exactly those meeting Hall's condition over its guns' arcs (BF6-ROF-07).
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from shapely import LineString
from shapely import Point as ShapelyPoint

from battleline.engine.geometry import Pose, in_arc
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.arcs import battery_layout
from battleline.rulesets.bf1900.gunnery import (
    GunneryEntry,
    measure,
    sight_lines,
    validate_entries,
)
from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.ship import GunClass, Mounting, Rating, ShipClass, ShipType
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.table import footprint, funnel_point

SCALE = Scale(
    name="test",
    label="test",
    model_scale="1/2400",
    table_unit="mm",
    units_per_km=100.0,
    bracket_m=2500.0,
    max_range_m=10000.0,
    turn_minutes=3.0,
    bases=tuple((t.value, 50.0, 20.0) for t in ShipType),
)
SIZE = (500.0, 200.0)

TURRET = Mounting("C", GunClass.SECONDARY, 15.2, 2, (5, 4, 2, None), 2, 3, position="C")
BATTERY = Mounting("sec", GunClass.SECONDARY, 15.2, 2, (5, 4, 2, None), 10, 3, beam_pattern=2)
CLASS = ShipClass(
    name="Test",
    navy="test",
    type=ShipType.BATTLESHIP,
    year=1900,
    size=8,
    armour_vitals=9,
    armour_upperworks=4,
    upperworks_protection=Rating.GOOD,
    flood_protection=Rating.GOOD,
    stability="good",
    seaway="normal",
    armoured_deck=True,
    propulsion_knots=(18, 15, 12, 9, 6, 3),
    mountings=(TURRET, BATTERY),
)
# Firer at the origin heading north; targets all at bracket 2 and unblocked.
TARGETS = {
    "T1": Pose(0.0, 3000.0, 0.0),  # dead ahead
    "T2": Pose(3000.0, 0.0, 0.0),  # starboard beam
    "T3": Pose(-3000.0, 0.0, 0.0),  # port beam
    "T4": Pose(-2000.0, 2000.0, 315.0),  # 315°
}


def table() -> tuple[dict[str, Pose], dict[str, ShipLog]]:
    poses = {"Fuji": Pose(0.0, 0.0, 0.0), **TARGETS}
    return poses, {n: ShipLog(n, CLASS, side="J" if n == "Fuji" else "R") for n in poses}


def legal(texts: list[str]) -> bool:
    poses, logs = table()
    try:
        validate_entries([GunneryEntry.parse(t) for t in texts], poses, logs, SCALE)
    except IllegalOrderError:
        return False
    return True


# -- hit zones -------------------------------------------------------------------------------

coord = st.floats(-5000, 5000, allow_nan=False)
heading = st.floats(0, 360, exclude_max=True)


@given(
    coord,
    coord,
    heading,
    st.floats(800, 9000),
    heading,
    heading,
    st.floats(-400, 1500),
)
# Pinned cases, broadside target 3000 m north (leading edge in bracket 2, depth ~200 m) and
# 1500 m north (bracket 1): just inside and just outside each danger zone.
@example(0.0, 0.0, 0.0, 3000.0, 0.0, 90.0, 600.0)
@example(0.0, 0.0, 0.0, 3000.0, 0.0, 90.0, 700.0)
@example(0.0, 0.0, 0.0, 1500.0, 0.0, 90.0, 1200.0)
@example(0.0, 0.0, 0.0, 1500.0, 0.0, 90.0, 1300.0)
@example(0.0, 0.0, 0.0, 6000.0, 0.0, 90.0, 150.0)
@example(0.0, 0.0, 0.0, 6000.0, 0.0, 90.0, 250.0)
def test_property_hit_zone_iff_estimate_within_extent_plus_danger_zone(
    fx: float, fy: float, fh: float, dist_c: float, brg: float, th: float, offset: float
) -> None:
    """BF6-MEAS-03, BF6-MEAS-04, BF6-DZ-01, BF6-DZ-02, BF6-DZ-03: hit ⇔ the estimate
    point is on the target's base, or between its leading edge and the leading edge plus the
    bracket's danger zone.

    The target stands ``dist_c`` from the firer on bearing ``brg``; the estimate is drawn near
    it (``offset`` from its leading edge) so every edge of base and danger zone is exercised."""
    tx = fx + dist_c * math.sin(math.radians(brg))
    ty = fy + dist_c * math.cos(math.radians(brg))
    firer, target = Pose(fx, fy, fh), Pose(tx, ty, th)
    f = funnel_point(firer, SIZE[0])
    g = funnel_point(target, SIZE[0])
    dist = math.dist(f, g)
    assume(800.0 < dist < 9500.0)
    base = footprint(target, *SIZE)
    assume(base.distance(ShapelyPoint(f)) > 1.0)
    u = ((g[0] - f[0]) / dist, (g[1] - f[1]) / dist)
    ray = LineString([f, (f[0] + u[0] * 20000.0, f[1] + u[1] * 20000.0)])
    crossing = ray.intersection(base)
    origin = ShapelyPoint(f)
    leading = origin.distance(crossing)
    far = max(origin.distance(ShapelyPoint(c)) for c in crossing.coords)
    bracket = SCALE.bracket(leading)
    danger = {1: 1250.0, 2: 625.0}.get(bracket or 0, 0.0)
    estimate = leading + offset
    assume(estimate > 0)
    for edge in (leading, far, leading + danger):
        assume(abs(estimate - edge) > 1e-3)
    point = ShapelyPoint(f[0] + u[0] * estimate, f[1] + u[1] * estimate)
    on_base = base.distance(point) < 1e-6
    expected = on_base or leading <= estimate <= leading + danger
    entry = GunneryEntry("Fuji", "T", estimate, rounds=(("C", 2),))
    m = measure(entry, f, target, SIZE, SCALE)
    assert m.hit is expected
    assert m.leading_m == pytest.approx(leading, abs=1e-6)
    assert m.point == pytest.approx((point.x, point.y))


# -- notation --------------------------------------------------------------------------------

name = st.from_regex(r"[A-Z][a-z]{1,8}( [A-Z][a-z]{1,8})?", fullmatch=True)


@given(
    name,
    name,
    st.one_of(st.integers(1, 10000).map(float), st.integers(10, 99999).map(lambda n: n / 10)),
    st.sampled_from(list(Ammo)),
    st.dictionaries(
        st.from_regex(r"[A-Za-z][a-z0-9]{0,3}", fullmatch=True),
        st.integers(1, 20),
        min_size=1,
        max_size=5,
    ),
)
def test_property_notation_round_trips(
    firer: str, target: str, estimate: float, ammo: Ammo, rounds: dict[str, int]
) -> None:
    """The gunnery log notation parses back to the same entry (docs/gunnery-log.md)."""
    entry = GunneryEntry(firer, target, estimate, ammo, tuple(rounds.items()))
    assert GunneryEntry.parse(str(entry)) == entry
    assert str(GunneryEntry.parse(str(entry))) == str(entry)


# -- split fire ------------------------------------------------------------------------------


@given(st.dictionaries(st.sampled_from(["T1", "T2", "T4"]), st.integers(1, 5), min_size=1))
def test_property_BF6_ROF_06_lettered_position_fires_whole_salvos(split: dict[str, int]) -> None:
    """BF6-ROF-06, AMB-12: a two-gun ROF-2 turret's split is legal iff every part is a whole
    2-gun salvo and there are at most 2 salvos."""
    texts = [f"Fuji: {t} @3000 C:{n}" for t, n in split.items()]
    expected = all(n % 2 == 0 for n in split.values()) and sum(split.values()) <= 4
    assert legal(texts) is expected


@given(st.dictionaries(st.sampled_from(list(TARGETS)), st.integers(1, 12), min_size=1))
def test_property_BF6_ROF_07_battery_split_meets_halls_condition(split: dict[str, int]) -> None:
    """BF6-ROF-07: single guns allocate freely; legal iff for every set of targets the rounds
    sent at it do not exceed 2 × the guns bearing on at least one of them (Hall's condition)."""
    poses, _ = table()
    sight = sight_lines(poses, table()[1], SCALE)
    layout = battery_layout(BATTERY)
    bearing = {
        t: {g.index for g in layout if in_arc(poses["Fuji"].bearing_to(*sight.funnels[t]), *g.arc)}
        for t in split
    }
    expected = all(
        sum(split[t] for t in subset) <= 2 * len(set().union(*(bearing[t] for t in subset)))
        for k in range(1, len(split) + 1)
        for subset in itertools.combinations(split, k)
    )
    texts = [f"Fuji: {t} @3000 sec:{n}" for t, n in split.items()]
    assert legal(texts) is expected
