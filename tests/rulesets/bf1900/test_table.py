"""Table geometry: base footprints, funnel and front-edge points, land, the obstacle index."""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.geometry import Pose
from battleline.errors import ScenarioError
from battleline.rulesets.bf1900.table import (
    FUNNEL_FRACTION,
    Land,
    Obstacles,
    footprint,
    front_edge,
    funnel_point,
)


def test_footprint_long_axis_lies_along_the_heading() -> None:
    north = footprint(Pose(0, 0, 0), 300, 100)
    minx, miny, maxx, maxy = north.bounds
    assert (maxx - minx, maxy - miny) == pytest.approx((100, 300))
    east = footprint(Pose(1000, 500, 90), 300, 100)
    minx, miny, maxx, maxy = east.bounds
    assert (minx, miny, maxx, maxy) == pytest.approx((850, 450, 1150, 550))


@given(
    st.floats(-1e4, 1e4),
    st.floats(-1e4, 1e4),
    st.floats(0, 360, exclude_max=True),
    st.floats(10, 500),
    st.floats(5, 100),
)
def test_footprint_is_a_rectangle_centred_on_the_pose(
    x: float, y: float, h: float, length: float, width: float
) -> None:
    poly = footprint(Pose(x, y, h), length, width)
    assert poly.is_valid
    assert poly.area == pytest.approx(length * width, rel=1e-6)
    assert poly.centroid.x == pytest.approx(x, abs=1e-6)
    assert poly.centroid.y == pytest.approx(y, abs=1e-6)
    fx, fy = front_edge(Pose(x, y, h), length)
    assert poly.boundary.distance(shapely.Point(fx, fy)) == pytest.approx(0, abs=1e-6)
    assert math.dist((fx, fy), (x, y)) == pytest.approx(length / 2)


def test_funnel_point_stands_ahead_of_centre() -> None:
    assert FUNNEL_FRACTION == 0.1
    assert funnel_point(Pose(0, 0, 0), 200) == pytest.approx((0, 20))
    assert funnel_point(Pose(0, 0, 90), 200) == pytest.approx((20, 0))


def test_BF6_MOV_04_front_edge_is_the_middle_of_the_bow_edge() -> None:
    assert front_edge(Pose(10, 10, 180), 200) == pytest.approx((10, -90))


def test_land_from_coordinates_and_bad_outlines() -> None:
    isle = Land.from_coords("Hai-yang Island", [(0, 0), (1000, 0), (1000, 800), (0, 800)])
    assert isle.polygon.area == pytest.approx(800_000)
    with pytest.raises(ScenarioError, match="three"):
        Land.from_coords("Rock", [(0, 0), (1, 1)])
    with pytest.raises(ScenarioError, match="crosses itself"):
        Land.from_coords("Bowtie", [(0, 0), (10, 10), (10, 0), (0, 10)])
    with pytest.raises(ScenarioError, match="finite"):
        Land.from_coords("Void", [(0, 0), (math.nan, 1), (1, 0)])


def test_obstacles_report_bases_and_land_on_a_segment() -> None:
    bases = {
        "Mikasa": footprint(Pose(0, 0, 90), 300, 100),
        "Asahi": footprint(Pose(0, 2000, 90), 300, 100),
        "Fuji": footprint(Pose(1500, 0, 90), 300, 100),
    }
    isle = Land.from_coords("Isle", [(700, -200), (900, -200), (900, 200), (700, 200)])
    obs = Obstacles(bases, [isle])
    # Mikasa firing east at a point beyond Fuji: the island and Fuji block, Mikasa is excluded
    assert obs.blockers_of_segment((0, 0), (3000, 0), {"Mikasa"}) == ["Fuji", "Isle"]
    assert obs.blockers_of_segment((0, 0), (1500, 0), {"Mikasa", "Fuji"}) == ["Isle"]
    assert obs.blockers_of_segment((0, 0), (0, 2000), {"Mikasa", "Asahi"}) == []
    assert obs.land_crossed((0, 0), (3000, 0)) == ["Isle"]
    assert obs.land_crossed((0, 0), (0, 2000)) == []
    many = obs.blockers_of_segments(
        [((0, 0), (3000, 0)), ((0, 0), (0, 2000))], [{"Mikasa"}, {"Mikasa"}]
    )
    assert many == [["Fuji", "Isle"], ["Asahi"]]
    assert obs.blockers_of_segments([]) == []


def test_obstacles_with_eighty_ships() -> None:
    """80 bases and every ship-to-ship sight line (6,320 segments) answered in one batch call."""
    poses = {f"S{i}": Pose((i % 10) * 800.0, (i // 10) * 900.0, 45.0) for i in range(80)}
    bases = {n: footprint(p, 300, 90) for n, p in poses.items()}
    obs = Obstacles(bases, [Land.from_coords("Isle", [(3000, 3000), (3500, 3000), (3200, 3600)])])
    pairs = [(a, b) for a in poses for b in poses if a != b]
    segs = [((poses[a].x, poses[a].y), (poses[b].x, poses[b].y)) for a, b in pairs]
    out = obs.blockers_of_segments(segs, [{a, b} for a, b in pairs])
    assert len(out) == len(pairs)
    # a line along a row of ships is blocked by those in between
    i = pairs.index(("S0", "S9"))
    assert out[i] == [f"S{k}" for k in range(1, 9)]
