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
from functools import lru_cache

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import LineString, Polygon, STRtree

from battleline.engine.geometry import Pose
from battleline.errors import ScenarioError

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
    """Many base rectangles at once (vectorised; used by collision checks over whole fleets)."""
    rad = np.radians(heading)
    ax, ay = np.sin(rad), np.cos(rad)  # unit vector ahead
    sx, sy = ay, -ax  # unit vector to starboard
    hl, hw = np.asarray(length) / 2.0, np.asarray(width) / 2.0
    corners = np.empty((len(x), 4, 2))
    for i, (fa, fs) in enumerate(((1, 1), (1, -1), (-1, -1), (-1, 1))):
        corners[:, i, 0] = x + fa * hl * ax + fs * hw * sx
        corners[:, i, 1] = y + fa * hl * ay + fs * hw * sy
    return shapely.polygons(corners)  # type: ignore[no-any-return]


def funnel_point(pose: Pose, length_m: float) -> Point:
    """The forward funnel: :data:`FUNNEL_FRACTION` × base length ahead of centre."""
    return pose.offset(FUNNEL_FRACTION * length_m, 0.0)


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
    """A spatial index (shapely ``STRtree``) over ship bases and land, for line-of-sight checks.

    Names returned are ship names (keys of ``footprints``) and land names. A segment that merely
    touches a base or a coast counts as blocked by it.
    """

    def __init__(self, footprints: Mapping[str, Polygon], land: Sequence[Land] = ()) -> None:
        self.names: list[str] = [*footprints, *(piece.name for piece in land)]
        self.geoms: list[Polygon] = [*footprints.values(), *(piece.polygon for piece in land)]
        self.is_land: list[bool] = [False] * len(footprints) + [True] * len(land)
        self._tree = STRtree(self.geoms)

    def blockers_of_segment(
        self, a: Point, b: Point, exclude: set[str] | frozenset[str] = frozenset()
    ) -> list[str]:
        """Names of the bases and land the segment ``a``–``b`` crosses, ships first, then land."""
        return self.blockers_of_segments([(a, b)], [exclude])[0]

    def blockers_of_segments(
        self,
        segments: Sequence[tuple[Point, Point]],
        excludes: Sequence[set[str] | frozenset[str]] | None = None,
    ) -> list[list[str]]:
        """:meth:`blockers_of_segment` for many segments in one vectorised tree query."""
        if not segments:
            return []
        coords = np.asarray(segments, dtype=float).reshape(len(segments), 2, 2)
        lines = shapely.linestrings(coords)
        seg_idx, geom_idx = self._tree.query(lines, predicate="intersects")
        found: list[list[int]] = [[] for _ in segments]
        for s, g in zip(seg_idx.tolist(), geom_idx.tolist(), strict=True):
            found[s].append(g)
        out: list[list[str]] = []
        for s, hits in enumerate(found):
            skip = excludes[s] if excludes is not None else frozenset()
            hits.sort()  # ships were indexed before land
            out.append([self.names[g] for g in hits if self.names[g] not in skip])
        return out

    def land_crossed(self, a: Point, b: Point) -> list[str]:
        """Only the land the segment crosses (torpedoes ignore ship bases, REF-BF6-18)."""
        line = LineString([a, b])
        idx = self._tree.query(line, predicate="intersects")
        return [self.names[g] for g in sorted(idx.tolist()) if self.is_land[g]]
