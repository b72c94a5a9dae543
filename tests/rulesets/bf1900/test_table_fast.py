"""The fast sight-line geometry gives exactly the answers of the shapely constructions it replaces
(BF6-LOS-01, BF6-LOS-02: a line touching a base is blocked by it).

* :meth:`Obstacles.blockers_of_segments` (bounding boxes, then an exact separating-axis test,
  else shapely) equals a shapely ``STRtree`` query with the ``intersects`` predicate, also for
  lines through corners, along edges and of zero length;
* :func:`segment_meets_ring` is never wrong when it answers, and the batch path's verdicts
  equal it pair for pair;
* :func:`footprints` (one broadcast) equals the corner-by-corner construction bit for bit;
* :func:`funnel_point` equals ``pose.offset``; :func:`base_ring` holds the footprint's corners,
  and :func:`ring_extent` its envelope and a disc around it.
"""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np
import pytest
import shapely
from hypothesis import example, given
from hypothesis import strategies as st
from shapely import STRtree

from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.rings import (
    base_rings,
    convex_ring,
    ring_extent,
    segment_meets_ring,
)
from battleline.rulesets.bf1900.table import (
    FUNNEL_FRACTION,
    Land,
    Obstacles,
    Point,
    base_ring,
    footprint,
    footprint_corners,
    footprints,
    funnel_point,
)


def reference_blockers(
    obs: Obstacles, segments: list[tuple[Point, Point]], excludes: list[set[str]]
) -> list[list[str]]:
    """The original vectorised STRtree query with the ``intersects`` predicate."""
    tree = STRtree(obs.geoms)
    coords = np.asarray(segments, dtype=float).reshape(len(segments), 2, 2)
    seg_idx, geom_idx = tree.query(shapely.linestrings(coords), predicate="intersects")
    found: list[list[int]] = [[] for _ in segments]
    for s, g in zip(seg_idx.tolist(), geom_idx.tolist(), strict=True):
        found[s].append(g)
    return [
        [obs.names[g] for g in sorted(hits) if obs.names[g] not in skip]
        for hits, skip in zip(found, excludes, strict=True)
    ]


headings = st.sampled_from([0.0, 90.0, 180.0, 270.0, 45.0, 30.0]) | st.floats(0, 360)
grid = st.integers(-4, 4).map(lambda v: v * 50.0)


@st.composite
def tables(draw: st.DrawFn) -> tuple[Obstacles, list[tuple[Point, Point]], list[set[str]]]:
    n = draw(st.integers(1, 5))
    poses = [Pose(draw(grid), draw(grid), draw(headings)) for _ in range(n)]
    sizes = [(draw(st.sampled_from([100.0, 200.0, 150.5])), 50.0) for _ in range(n)]
    bases = {f"S{i}": footprint(p, *sz) for i, (p, sz) in enumerate(zip(poses, sizes, strict=True))}
    land = []
    if draw(st.booleans()):
        land = [
            Land.from_coords("Isle", [(-100, -100), (100, -150), (120, 90), (0, 200), (-90, 60)])
        ]
    obs = Obstacles(bases, land)
    # Interesting points: corners, edge midpoints and thirds, centres, grid points.
    corners = [tuple(c) for c in shapely.get_coordinates(list(bases.values())).tolist()]
    pts: list[Point] = [(float(x), float(y)) for x, y in corners]
    for a, b in pairwise(corners):
        pts.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        pts.append((a[0] + (b[0] - a[0]) / 3, a[1] + (b[1] - a[1]) / 3))
    pts += [(p.x, p.y) for p in poses]
    point = st.sampled_from(pts) | st.tuples(grid, grid)
    segs = draw(st.lists(st.tuples(point, point), min_size=1, max_size=12))
    names = [*bases, "Isle"]
    excludes = [set(draw(st.lists(st.sampled_from(names), max_size=2))) for _ in segs]
    return obs, segs, excludes


@given(tables())
def test_BF6_LOS_02_blockers_equal_strtree_intersects(
    table: tuple[Obstacles, list[tuple[Point, Point]], list[set[str]]],
) -> None:
    """BF6-LOS-02: one segment at a time and in a batch (both candidate paths), the blockers are
    exactly those of the shapely tree query, touching included."""
    obs, segs, excludes = table
    want = reference_blockers(obs, segs, excludes)
    assert [
        obs.blockers_of_segment(a, b, ex) for (a, b), ex in zip(segs, excludes, strict=True)
    ] == want
    assert obs.blockers_of_segments(segs * 40, excludes * 40) == want * 40  # tree candidates


@given(tables())
def test_batched_verdicts_equal_the_scalar_test_pair_for_pair(
    table: tuple[Obstacles, list[tuple[Point, Point]], list[set[str]]],
) -> None:
    """The batch path judges every screened (segment, base) pair in one numpy pass: each
    verdict is the scalar :func:`segment_meets_ring`'s, unsure ones included (BF6-LOS-02)."""
    obs, segs, _ = table
    seg_idx, geom_idx = obs._screen(segs)
    verdicts = obs._quad_verdicts(segs, seg_idx, geom_idx).tolist()
    for s, g, v in zip(seg_idx.tolist(), geom_idx.tolist(), verdicts, strict=True):
        ring = obs._rings[g]
        scalar = None if ring is None else segment_meets_ring(*segs[s], ring)
        assert v == {True: 1, False: 0, None: -1}[scalar]


def test_BF6_LOS_02_touching_a_corner_or_running_along_an_edge_blocks() -> None:
    """BF6-LOS-02: a line through a corner, or along an edge, touches the base: blocked."""
    obs = Obstacles({"B": footprint(Pose(0.0, 0.0, 0.0), 200.0, 100.0)})
    assert obs.blockers_of_segment((0.0, -150.0), (100.0, -50.0)) == ["B"]  # through a corner
    assert obs.blockers_of_segment((0.0, -150.1), (100.0, -50.1)) == []  # just misses it
    assert obs.blockers_of_segment((50.0, -300.0), (50.0, 300.0)) == ["B"]  # along the edge
    assert obs.blockers_of_segment((50.0, 100.0), (150.0, 200.0)) == ["B"]  # from the corner
    assert obs.blockers_of_segment((50.0 + 1e-9, -300.0), (50.0 + 1e-9, 300.0)) == []
    assert obs.blockers_of_segment((60.0, 0.0), (60.0, 0.0)) == []


@given(
    st.lists(st.tuples(grid, grid), min_size=3, max_size=4, unique=True),
    st.tuples(grid, grid),
    st.tuples(grid, grid),
)
@example([(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)], (100.0, 100.0), (200.0, 0.0))
@example([(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)], (0.0, 0.0), (0.0, 0.0))
def test_segment_meets_ring_is_right_whenever_it_answers(
    corners: list[Point], a: Point, b: Point
) -> None:
    ring = convex_ring((*corners, corners[0]))
    if ring is None:  # not surely a convex polygon: left to shapely
        return
    poly = shapely.Polygon(corners)
    assert poly.is_valid and poly.convex_hull.equals(poly)
    verdict = segment_meets_ring(a, b, ring)
    if verdict is not None:
        assert verdict == shapely.intersects(shapely.LineString([a, b]), poly)


@given(st.lists(st.tuples(grid, grid, headings), min_size=1, max_size=6))
@example([(0.0, 0.0, 0.0), (50.0, -50.0, 90.0), (0.0, 0.0, 45.0)])
def test_base_rings_equal_convex_ring_and_ring_extent(
    poses: list[tuple[float, float, float]],
) -> None:
    """Many bases at once: the same rings, boxes and disc centres as one base at a time, bit for
    bit, and a radius within rounding of it (inside the disc's widening); a degenerate base
    (no width) is refused as there."""
    xs, ys, hs = (np.array(v, dtype=float) for v in zip(*poses, strict=True))
    widths = np.array([50.0 if i % 3 else 0.0 for i in range(len(poses))])
    corners = footprint_corners(xs, ys, hs, np.full(len(poses), 150.0), widths)
    rings, extents = base_rings(corners)
    for base, ring, extent in zip(corners.tolist(), rings, extents, strict=True):
        one = convex_ring(tuple((x, y) for x, y in base))
        assert ring == one
        if one is None:
            assert extent is None
            continue
        assert extent is not None
        (box, (cx, cy, r)), (want_box, (wx, wy, wr)) = extent, ring_extent(one)
        assert (box, cx, cy) == (want_box, wx, wy)
        assert r == pytest.approx(wr, rel=1e-14)


def test_convex_ring_orders_corners_counter_clockwise_and_rejects_the_rest() -> None:
    square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    assert convex_ring((*square, square[0])) == square
    assert convex_ring((*square[::-1], square[-1])) == square  # clockwise, turned round
    assert convex_ring(((0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0), (0.0, 0.0))) is None
    assert convex_ring(((0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (0.0, 1.0), (0.0, 0.0))) is None
    pentagon = ((0.0, 0.0), (2.0, 0.0), (3.0, 1.0), (1.0, 3.0), (-1.0, 1.0), (0.0, 0.0))
    assert convex_ring(pentagon) is None


@given(
    st.lists(
        st.tuples(
            st.floats(-1e5, 1e5),
            st.floats(-1e5, 1e5),
            st.floats(0, 360),
            st.floats(10, 500),
            st.floats(5, 100),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_footprints_broadcast_equals_corner_by_corner(rows: list[tuple[float, ...]]) -> None:
    x, y, heading, length, width = (np.array(col) for col in zip(*rows, strict=True))
    rad = np.radians(heading)
    ax, ay = np.sin(rad), np.cos(rad)
    sx, sy = ay, -ax
    hl, hw = length / 2.0, width / 2.0
    corners = np.empty((len(x), 4, 2))
    for i, (fa, fs) in enumerate(((1, 1), (1, -1), (-1, -1), (-1, 1))):
        corners[:, i, 0] = x + fa * hl * ax + fs * hw * sx
        corners[:, i, 1] = y + fa * hl * ay + fs * hw * sy
    got = shapely.get_coordinates(footprints(x, y, heading, length, width))
    want = shapely.get_coordinates(shapely.polygons(corners))
    assert np.array_equal(got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want))


@given(
    st.floats(-1e5, 1e5) | st.just(0.0),
    st.floats(-1e5, 1e5) | st.just(-0.0),
    st.floats(0, 360) | st.sampled_from([0.0, 90.0, 180.0, 270.0]),
    st.floats(10, 500),
    st.floats(5, 100),
)
def test_funnel_point_and_base_ring_equal_their_definitions(
    x: float, y: float, h: float, length: float, width: float
) -> None:
    pose = Pose(x, y, h)
    fx, fy = funnel_point(pose, length)
    ox, oy = pose.offset(FUNNEL_FRACTION * length, 0.0)
    assert (fx, fy) == (ox, oy)
    assert (np.signbit(fx), np.signbit(fy)) == (np.signbit(ox), np.signbit(oy))
    ring = base_ring(pose, length, width)
    poly = footprint(pose, length, width)
    coords = [tuple(c) for c in shapely.get_coordinates(poly).tolist()]
    assert ring is not None
    assert sorted(ring) == sorted(coords[:-1])
    box, (cx, cy, radius) = ring_extent(ring)
    assert box == tuple(poly.bounds)
    assert all(math.hypot(x - cx, y - cy) < radius for x, y in ring)
