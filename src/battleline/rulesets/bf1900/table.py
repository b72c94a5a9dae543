"""The table: ship bases, funnel and front-edge points, land, and a spatial index.

Everything is in metres (``x`` east, ``y`` north) and headings are degrees clockwise from north
(see ``docs/geometry.md``). A ship's :class:`~battleline.engine.geometry.Pose` is the centre of its
base; the base is a rectangle with its long axis along the heading.

* The **front edge** (the middle of the bow edge of the base) is where moves are measured from
  (BF6-MOV-04). Moving the front edge ``d`` straight ahead moves the whole base ``d``.
* The **forward funnel** stands :data:`FUNNEL_FRACTION` of the base length ahead of the centre;
  ranges and line of sight are measured from it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import LineString, Polygon, STRtree

from battleline.engine.geometry import Pose
from battleline.errors import ScenarioError
from battleline.rulesets.bf1900.rings import (
    _BEFORE,
    _ORIENT_EPS,
    Box,
    Disc,
    Ring,
    base_rings,
    convex_ring,
    ring_extent,
    segment_meets_ring,
)

#: The forward funnel is this fraction of the base length ahead of the base centre.
FUNNEL_FRACTION = 0.1

Point = tuple[float, float]


@lru_cache(maxsize=8192)
def footprint(pose: Pose, length_m: float, width_m: float) -> Polygon:
    """The base rectangle centred on ``pose``, its long axis along the heading.

    Cached: poses are frozen and shapely geometries immutable, and the same bases are drawn
    many times a phase (every sight-line index built while orders are checked and resolved).
    """
    return footprints(
        np.array([pose.x]),
        np.array([pose.y]),
        np.array([pose.heading]),
        np.array([length_m]),
        np.array([width_m]),
    )[0]


def footprints(
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    heading: NDArray[np.float64],
    length: NDArray[np.float64],
    width: NDArray[np.float64],
) -> NDArray[np.object_]:
    """Many base rectangles at once (vectorised; used by collision checks over whole fleets):
    shapely polygons of :func:`footprint_corners`."""
    return shapely.polygons(footprint_corners(x, y, heading, length, width))  # type: ignore[no-any-return]


def footprint_corners(
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    heading: NDArray[np.float64],
    length: NDArray[np.float64],
    width: NDArray[np.float64],
) -> NDArray[np.float64]:
    """The four corners of many base rectangles, shape (bases, 4, 2).

    Corner ``i`` is ``centre + FA[i]·(length/2)·ahead + FS[i]·(width/2)·starboard``, all four
    corners of every base in one broadcast expression (same operations in the same order for
    each number as one corner at a time).
    """
    rad = np.radians(heading)
    ax, ay = np.sin(rad)[:, None], np.cos(rad)[:, None]  # unit vector ahead
    sx, sy = ay, -ax  # unit vector to starboard
    hl = (np.asarray(length) / 2.0)[:, None]
    hw = (np.asarray(width) / 2.0)[:, None]
    fa_hl, fs_hw = _AHEAD * hl, _ABEAM * hw
    corners = np.empty((len(x), 4, 2))
    corners[:, :, 0] = np.asarray(x)[:, None] + fa_hl * ax + fs_hw * sx
    corners[:, :, 1] = np.asarray(y)[:, None] + fa_hl * ay + fs_hw * sy
    return corners


#: Signs of the four corners of a base: ahead (bow +1, stern -1) and abeam (starboard +1).
_AHEAD = np.array([1, 1, -1, -1])
_ABEAM = np.array([1, -1, -1, 1])


def funnel_point(pose: Pose, length_m: float) -> Point:
    """The forward funnel: :data:`FUNNEL_FRACTION` × base length ahead of centre.

    ``pose.offset(FUNNEL_FRACTION * length_m, 0.0)`` inlined, term for term (hot path).
    """
    ahead = FUNNEL_FRACTION * length_m
    r = math.radians(pose.heading)
    dx, dy = math.sin(r), math.cos(r)
    return pose.x + dx * ahead + dy * 0.0, pose.y + dy * ahead - dx * 0.0


@lru_cache(maxsize=8192)
def base_ring(pose: Pose, length_m: float, width_m: float) -> Ring | None:
    """The corners of :func:`footprint` (exactly its coordinates) as a :func:`convex_ring`.

    Cached like :func:`footprint`, so a sight-line index need not read the polygons back.
    """
    coords = shapely.get_coordinates(footprint(pose, length_m, width_m)).tolist()
    return convex_ring(tuple((x, y) for x, y in coords))


def front_edge(pose: Pose, length_m: float) -> Point:
    """The middle of the base's bow edge, from which moves are measured (BF6-MOV-04)."""
    return pose.offset(length_m / 2.0, 0.0)


@dataclass(frozen=True)
class Land:
    """A named piece of land (an island, a coast, a shoal) as a polygon in metres."""

    name: str
    polygon: Polygon

    @classmethod
    def from_coords(cls, name: str, coords: Iterable[Sequence[float]]) -> Land:
        """Build land from ``[(x, y), ...]`` in metres; the ring closes itself.

        Raises :class:`ScenarioError` for fewer than three points or a self-crossing outline.
        """
        pts = [tuple(float(v) for v in p) for p in coords]
        if len(pts) < 3 or any(len(p) != 2 for p in pts):
            raise ScenarioError(f"land {name!r}: needs at least three (x, y) points in metres")
        if not all(math.isfinite(v) for p in pts for v in p):
            raise ScenarioError(f"land {name!r}: coordinates must be finite numbers")
        poly = Polygon(pts)
        if not poly.is_valid or poly.area <= 0:
            why = shapely.is_valid_reason(poly)
            raise ScenarioError(
                f"land {name!r}: outline crosses itself or encloses no area ({why})"
            )
        return cls(name, poly)


class Obstacles:
    """Ship bases and land, for line-of-sight checks.

    Names returned are ship names (keys of ``footprints``) and land names. A segment that merely
    touches a base or a coast counts as blocked by it.

    A segment is tested only against the obstacles whose bounding box meets its own. A base (a
    convex quadrilateral) is then judged by :func:`segment_meets_ring`; land, and the rare
    segment that float arithmetic cannot settle, go to shapely's ``intersects`` (prepared, as a
    shapely ``STRtree`` query does). Both give the exact answer, so the result is the same as a
    tree query with the ``intersects`` predicate.
    """

    #: The bases' corners and the land, when made by :meth:`of_bases` (polygons made late).
    _corners: NDArray[np.float64]
    _land: tuple[Land, ...]

    def __init__(
        self,
        footprints: Mapping[str, Polygon],
        land: Sequence[Land] = (),
        rings: Sequence[Ring | None] | None = None,
        extents: Sequence[tuple[Box, Disc] | None] | None = None,
    ) -> None:
        """``rings``, if given, are the :func:`convex_ring` of each footprint, in order (for
        bases from :func:`footprint`, :func:`base_ring`); otherwise they are read from the
        polygons. ``extents``, if given with them, are each ring's box and disc
        (:func:`ring_extent`, or :func:`base_rings` for many bases at once)."""
        polygons = list(footprints.values())
        self._geoms: list[Polygon] | None = [*polygons, *(piece.polygon for piece in land)]
        if rings is None:
            rings = _rings_of(polygons)
        self._index(list(footprints), land, rings, extents)

    @classmethod
    def of_bases(
        cls, names: Sequence[str], corners: NDArray[np.float64], land: Sequence[Land] = ()
    ) -> Obstacles:
        """Bases by name and their corners, shape (bases, 4, 2) (:func:`footprint_corners`),
        and ``land``: the obstacles ``Obstacles`` makes of the bases' polygons, but each
        polygon is only made when :attr:`geoms` is first read (a crossing of land, or a verdict
        floating point cannot settle), which most sight-line indexes never need. The rings
        are :func:`base_rings`: the polygons' own coordinates."""
        self = cls.__new__(cls)
        self._geoms = None
        self._corners, self._land = corners, tuple(land)
        self._index(names, land, *base_rings(corners))
        return self

    @property
    def geoms(self) -> list[Polygon]:
        """Every obstacle as a shapely polygon: the bases, then the land."""
        if self._geoms is None:
            bases = list(shapely.polygons(self._corners)) if len(self._corners) else []
            self._geoms = [*bases, *(piece.polygon for piece in self._land)]
        return self._geoms

    def _index(
        self,
        names: Sequence[str],
        land: Sequence[Land],
        rings: Sequence[Ring | None],
        extents: Sequence[tuple[Box, Disc] | None] | None,
    ) -> None:
        """The names, rings, boxes and discs of the bases ``names`` and of ``land``."""
        self.names: list[str] = [*names, *(piece.name for piece in land)]
        self.is_land: list[bool] = [False] * len(names) + [True] * len(land)
        self._tree_: STRtree | None = None
        self._rings: list[Ring | None] = [*rings, *(None for _ in land)]
        self._boxes: list[Box] = []
        self._discs: list[Disc | None] = []
        for g, ring in enumerate(self._rings):
            if ring is None:
                minx, miny, maxx, maxy = shapely.bounds(self.geoms[g]).tolist()
                self._boxes.append((minx, miny, maxx, maxy))
                self._discs.append(None)
            else:
                extent = extents[g] if extents is not None else None
                box, disc = extent if extent is not None else ring_extent(ring)
                self._boxes.append(box)
                self._discs.append(disc)

    @property
    def _tree(self) -> STRtree:
        """A shapely ``STRtree`` over every obstacle, built on first use (land crossings)."""
        if self._tree_ is None:
            self._tree_ = STRtree(self.geoms)
        return self._tree_

    def blockers_of_segment(
        self, a: Point, b: Point, exclude: set[str] | frozenset[str] = frozenset()
    ) -> list[str]:
        """Names of the bases and land the segment ``a``–``b`` crosses, ships first, then land."""
        return self._blockers(a, b, self._box_candidates(a, b), exclude)

    def blockers_of_segments(
        self,
        segments: Sequence[tuple[Point, Point]],
        excludes: Sequence[set[str] | frozenset[str]] | None = None,
    ) -> list[list[str]]:
        """:meth:`blockers_of_segment` for many segments at once.

        Above :data:`_LOOP_LIMIT` segment × obstacle pairs, every pair is first screened in one
        numpy broadcast (:meth:`_array_candidates`); only the survivors get the exact test.
        """
        if len(segments) * len(self.names) > _LOOP_LIMIT:
            ends = np.asarray(segments, dtype=float)  # read once for both passes
            seg_idx, geom_idx = self._screen(ends)
            verdicts = self._quad_verdicts(ends, seg_idx, geom_idx)
            names = self.names
            found: list[list[str]] = [[] for _ in segments]
            for s, g, v in zip(seg_idx.tolist(), geom_idx.tolist(), verdicts.tolist(), strict=True):
                if v == 0 or (excludes is not None and names[g] in excludes[s]):
                    continue
                a, b = segments[s]
                if v == 1 or self._meets(a, b, g):  # row-major: each segment's in index order
                    found[s].append(names[g])
            return found
        out: list[list[str]] = []
        for s, (a, b) in enumerate(segments):
            skip = excludes[s] if excludes is not None else frozenset()
            out.append(self._blockers(a, b, self._box_candidates(a, b), skip))
        return out

    def _array_candidates(self, segments: Sequence[tuple[Point, Point]]) -> list[list[int]]:
        """For each segment, in index order, the obstacles that pass :meth:`_screen`."""
        found: list[list[int]] = [[] for _ in segments]
        for s, g in zip(*(a.tolist() for a in self._screen(segments)), strict=True):
            found[s].append(g)  # row-major: each segment's obstacles in index order
        return found

    def _screen(
        self, segments: Sequence[tuple[Point, Point]] | NDArray[np.float64]
    ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """For each segment, in index order, the obstacles whose bounding box meets the segment's
        and (for a base) whose disc is not surely clear of the segment's line: the tests of
        :meth:`_box_candidates` and :meth:`_blockers`, for every (segment, obstacle) pair in one
        broadcast.

        Only a screen: both tests pass every obstacle the segment really touches (the box is the
        exact envelope, the disc holds the base with room to spare and the line test allows for
        rounding), so the exact test of the survivors gives the same answers as the loop.
        """
        seg = np.asarray(segments, dtype=float).reshape(len(segments), 4)
        ax, ay, bx, by = (seg[:, i : i + 1] for i in range(4))
        minx, miny, maxx, maxy, cx, cy, radius, has_disc = self._arrays
        meets_box = (
            (minx <= np.maximum(ax, bx))
            & (maxx >= np.minimum(ax, bx))
            & (miny <= np.maximum(ay, by))
            & (maxy >= np.minimum(ay, by))
        )
        dx, dy = bx - ax, by - ay
        reach = np.hypot(dx, dy) * (1.0 + 1e-12)
        t1, t2 = dx * (cy - ay), dy * (cx - ax)
        clear = np.abs(t1 - t2) - _ORIENT_EPS * (np.abs(t1) + np.abs(t2)) > radius * reach
        seg_idx, geom_idx = np.nonzero(meets_box & ~(clear & has_disc))
        return seg_idx, geom_idx

    def _quad_verdicts(
        self,
        segments: Sequence[tuple[Point, Point]] | NDArray[np.float64],
        seg_idx: NDArray[np.intp],
        geom_idx: NDArray[np.intp],
    ) -> NDArray[np.int8]:
        """:func:`segment_meets_ring` of every (segment, obstacle) pair at once, for the
        obstacles whose ring has four corners (every base): 1 meets, 0 does not, -1 for a pair
        it leaves to :meth:`_meets` (land, another ring, or a sign floating point cannot
        settle). The same operations in the same order on each number as the scalar test, so
        the same verdicts."""
        out = np.full(len(seg_idx), -1, dtype=np.int8)
        quads, has_quad = self._quads
        pick = np.flatnonzero(has_quad[geom_idx])
        if len(pick) == 0:
            return out
        seg = np.asarray(segments, dtype=float).reshape(len(segments), 4)[seg_idx[pick]]
        ax, ay, bx, by = (seg[:, i : i + 1] for i in range(4))
        ring = quads[geom_idx[pick]]
        vx, vy = ring[:, :, 0], ring[:, :, 1]
        eps = _ORIENT_EPS
        dx, dy = bx - ax, by - ay
        t1, t2 = dx * (vy - ay), dy * (vx - ax)  # the segment's line against every corner
        det, bound = t1 - t2, eps * (np.abs(t1) + np.abs(t2))
        left, right = (det > bound).any(axis=1), (det < -bound).any(axis=1)
        crossed = left & right
        unsure = ~crossed & ~((det > bound) | (det < -bound)).all(axis=1)
        apart = ~crossed & ~unsure
        px, py = vx[:, _BEFORE], vy[:, _BEFORE]  # each edge from ring[k - 1]
        ex, ey = vx - px, vy - py
        sides = []
        for qx, qy in ((ax, ay), (bx, by)):  # every edge against both ends of the segment
            t1, t2 = ex * (qy - py), ey * (qx - px)
            det, bound = t1 - t2, eps * (np.abs(t1) + np.abs(t2))
            sides.append(np.where(det > bound, 1, np.where(det < -bound, -1, 0)))
        side_a, side_b = sides
        apart |= ((side_a < 0) & (side_b < 0)).any(axis=1)
        unsure |= ((side_a < 1) & (side_b < 1)).any(axis=1)
        out[pick] = np.where(apart, 0, np.where(unsure, -1, 1))
        return out

    @cached_property
    def _quads(self) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        """Every obstacle's four-corner ring as rows (zeros where it has none), and which have
        one."""
        quads = np.zeros((len(self._rings), 4, 2))
        has = np.zeros(len(self._rings), dtype=bool)
        for g, ring in enumerate(self._rings):
            if ring is not None and len(ring) == 4:
                quads[g], has[g] = ring, True
        return quads, has

    @cached_property
    def _arrays(self) -> tuple[NDArray[np.float64], ...]:
        """Boxes and discs as rows for :meth:`_array_candidates` (a disc of 0 for land, unused)."""
        boxes = np.array(self._boxes, dtype=float).reshape(len(self._boxes), 4)
        discs = np.array(
            [d if d is not None else (0.0, 0.0, 0.0) for d in self._discs], dtype=float
        ).reshape(len(self._discs), 3)
        has_disc = np.array([d is not None for d in self._discs], dtype=bool)
        return (*boxes.T, *discs.T, has_disc)

    def _blockers(
        self, a: Point, b: Point, candidates: Iterable[int], skip: set[str] | frozenset[str]
    ) -> list[str]:
        """The candidates the segment a–b touches, less ``skip``.

        A base whose enclosing disc lies surely clear of the segment's line is passed over
        first: one determinant instead of the full :meth:`_meets` test.
        """
        ax, ay = a
        dx, dy = b[0] - ax, b[1] - ay
        reach = math.hypot(dx, dy) * (1.0 + 1e-12)
        found = []
        for g in candidates:
            disc = self._discs[g]
            if disc is not None:  # distance of the disc's centre from the line, times |b − a|
                t1, t2 = dx * (disc[1] - ay), dy * (disc[0] - ax)
                if abs(t1 - t2) - _ORIENT_EPS * (abs(t1) + abs(t2)) > disc[2] * reach:
                    continue
            name = self.names[g]
            if name not in skip and self._meets(a, b, g):
                found.append(name)
        return found

    def _box_candidates(self, a: Point, b: Point) -> list[int]:
        """Obstacles whose bounding box meets the segment's, in index order (a plain loop: cheaper
        than a tree query for one segment among a few dozen ships)."""
        lox, hix = (a[0], b[0]) if a[0] <= b[0] else (b[0], a[0])
        loy, hiy = (a[1], b[1]) if a[1] <= b[1] else (b[1], a[1])
        return [
            g
            for g, (minx, miny, maxx, maxy) in enumerate(self._boxes)
            if minx <= hix and maxx >= lox and miny <= hiy and maxy >= loy
        ]

    def _meets(self, a: Point, b: Point, g: int) -> bool:
        """Whether segment a–b touches obstacle ``g``: exact, by :func:`segment_meets_ring` when it
        can tell, else by shapely."""
        ring = self._rings[g]
        verdict = segment_meets_ring(a, b, ring) if ring is not None else None
        if verdict is None:
            line = shapely.linestrings([a, b])
            shapely.prepare(line)
            verdict = bool(shapely.intersects(line, self.geoms[g]))
        return verdict

    def land_crossed(self, a: Point, b: Point) -> list[str]:
        """Only the land the segment crosses (torpedoes ignore ship bases, REF-BF6-18)."""
        line = LineString([a, b])
        idx = self._tree.query(line, predicate="intersects")
        return [self.names[g] for g in sorted(idx.tolist()) if self.is_land[g]]


def _rings_of(polygons: Sequence[Polygon]) -> list[Ring | None]:
    """:func:`convex_ring` of each polygon (a polygon with holes has too many points to pass)."""
    if not polygons:
        return []
    coords, owner = shapely.get_coordinates(np.asarray(polygons, dtype=object), return_index=True)
    per_geom: list[list[Point]] = [[] for _ in polygons]
    for g, (x, y) in zip(owner.tolist(), coords.tolist(), strict=True):
        per_geom[g].append((x, y))
    return [convex_ring(tuple(pts)) for pts in per_geom]


#: Above this many segment × obstacle pairs, candidates are screened in one numpy broadcast.
_LOOP_LIMIT = 400
