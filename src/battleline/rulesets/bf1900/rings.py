"""Convex rings of the table's bases: exact separating-axis tests in floating point.

A base is a convex quadrilateral. :func:`convex_ring` and :func:`base_rings` keep its corners
counter-clockwise when the turn signs are certain, :func:`ring_extent` gives its box and an
enclosing disc, and :func:`segment_meets_ring` tells whether a segment meets it, or that
floating point cannot be sure (then shapely judges). Used by the sight-line index,
:class:`~battleline.rulesets.bf1900.table.Obstacles`.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

Point = tuple[float, float]

#: Relative error bound for the sign of a 2×2 orientation determinant in floating point.
#: Shewchuk's bound for ``orient2d`` is about 3.3e-16 of the sum of the two products' magnitudes;
#: this is far wider, so a sign this filter calls certain is certainly the exact sign.
_ORIENT_EPS = 1e-12

#: A convex polygon as its vertices, counter-clockwise, without the closing point.
Ring = tuple[Point, ...]


def _orient(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> int:
    """Sign of the turn a → b → p (1 left, -1 right), or 0 when floating point cannot tell."""
    t1 = (bx - ax) * (py - ay)
    t2 = (by - ay) * (px - ax)
    det = t1 - t2
    bound = _ORIENT_EPS * (abs(t1) + abs(t2))
    return 1 if det > bound else -1 if det < -bound else 0


@lru_cache(maxsize=8192)
def convex_ring(coords: tuple[Point, ...]) -> Ring | None:
    """The corners of a closed ring of 3 or 4 corners, counter-clockwise, if it is certainly a
    strictly convex polygon; ``None`` otherwise (then only shapely may judge it).

    Cached on the coordinates (a tuple of floats): the same bases recur in every sight-line
    index of a turn.
    """
    pts = coords[:-1] if len(coords) > 1 and coords[0] == coords[-1] else coords
    if len(pts) not in (3, 4):  # with at most 4 corners, equal turns mean convex and simple
        return None
    turns = {_orient(*pts[i - 2], *pts[i - 1], *pts[i]) for i in range(len(pts))}
    if turns == {1}:
        return pts
    if turns == {-1}:
        return pts[::-1]
    return None


#: A bounding box ``(minx, miny, maxx, maxy)``.
Box = tuple[float, float, float, float]
#: A disc ``(x, y, radius)`` holding a polygon.
Disc = tuple[float, float, float]


@lru_cache(maxsize=8192)
def ring_extent(ring: Ring) -> tuple[Box, Disc]:
    """A convex ring's bounding box (its extreme coordinates: exactly the polygon's envelope)
    and a disc surely holding it: centred on the mean of the corners, its radius the farthest
    corner's distance widened by far more than any rounding (1e-9 relative plus a micrometre).

    Cached on the ring (a tuple of floats), like :func:`convex_ring`.
    """
    xs, ys = [x for x, _ in ring], [y for _, y in ring]
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    radius = max(math.hypot(x - cx, y - cy) for x, y in ring)
    return (min(xs), min(ys), max(xs), max(ys)), (cx, cy, radius * (1.0 + 1e-9) + 1e-6)


def base_rings(
    corners: NDArray[np.float64],
) -> tuple[list[Ring | None], list[tuple[Box, Disc] | None]]:
    """:func:`convex_ring` and :func:`ring_extent` of many four-corner bases at once (corners
    of shape (bases, 4, 2), as :func:`footprint_corners` draws them).

    The turn signs are :func:`_orient`'s operations in its order on each number, so a ring is
    certain, turned or refused exactly as there; the disc's centre sums the corners in the
    ring's order as ``sum`` does. Only the radius may differ from ``math.hypot``'s in the last
    bit, far inside the disc's widening, so the disc still surely holds the base.
    """
    if len(corners) == 0:
        return [], []
    xs, ys = corners[:, :, 0], corners[:, :, 1]
    ax, ay = xs[:, _TWO_BEFORE], ys[:, _TWO_BEFORE]  # corner i's ring neighbours i - 2, i - 1
    bx, by = xs[:, _BEFORE], ys[:, _BEFORE]
    t1 = (bx - ax) * (ys - ay)
    t2 = (by - ay) * (xs - ax)
    det, bound = t1 - t2, _ORIENT_EPS * (np.abs(t1) + np.abs(t2))
    ccw: NDArray[np.bool_] = np.all(det > bound, axis=1)
    cw: NDArray[np.bool_] = np.all(det < -bound, axis=1)
    ring = np.where(cw[:, None, None], corners[:, ::-1], corners)
    xs, ys = ring[:, :, 0], ring[:, :, 1]
    cx = (((xs[:, 0] + xs[:, 1]) + xs[:, 2]) + xs[:, 3]) / 4.0
    cy = (((ys[:, 0] + ys[:, 1]) + ys[:, 2]) + ys[:, 3]) / 4.0
    radius = np.hypot(xs - cx[:, None], ys - cy[:, None]).max(axis=1) * (1.0 + 1e-9) + 1e-6
    extent = np.column_stack(
        (xs.min(axis=1), ys.min(axis=1), xs.max(axis=1), ys.max(axis=1), cx, cy, radius)
    )
    rings: list[Ring | None] = []
    extents: list[tuple[Box, Disc] | None] = []
    rows = zip((ccw | cw).tolist(), ring.tolist(), extent.tolist(), strict=True)
    for ok, pts, (x0, y0, x1, y1, x, y, r) in rows:
        if ok:
            rings.append(tuple(map(tuple, pts)))
            extents.append(((x0, y0, x1, y1), (x, y, r)))
        else:
            rings.append(None)
            extents.append(None)
    return rings, extents


#: For each corner of a four-corner ring, the one before it and the one two before.
_BEFORE = np.array([3, 0, 1, 2])
_TWO_BEFORE = np.array([2, 3, 0, 1])


def segment_meets_ring(a: Point, b: Point, ring: Ring) -> bool | None:
    """Whether the closed segment a–b meets a convex polygon (boundary included), by separating
    axes; ``None`` when a determinant is too close to 0 for floating point to be sure.

    They are disjoint exactly when the segment's line has every corner strictly on one side, or
    some edge has both ends of the segment strictly outside it. Every sign used is certain (the
    arithmetic of :func:`_orient`, inlined), so a True or False answer is the exact one, the one
    shapely gives.
    """
    eps = _ORIENT_EPS
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    left = right = unsure = False
    for vx, vy in ring:  # the segment's line against every corner
        t1, t2 = dx * (vy - ay), dy * (vx - ax)
        det, bound = t1 - t2, eps * (abs(t1) + abs(t2))
        if det > bound:
            left = True
        elif det < -bound:
            right = True
        else:
            unsure = True
    if not (left and right):  # not surely crossed by the line
        if not unsure:
            return False
    else:
        unsure = False
    px, py = ring[-1]
    for vx, vy in ring:  # every edge against both ends of the segment
        ex, ey = vx - px, vy - py
        t1, t2 = ex * (ay - py), ey * (ax - px)
        det, bound = t1 - t2, eps * (abs(t1) + abs(t2))
        side_a = 1 if det > bound else -1 if det < -bound else 0
        t1, t2 = ex * (by - py), ey * (bx - px)
        det, bound = t1 - t2, eps * (abs(t1) + abs(t2))
        side_b = 1 if det > bound else -1 if det < -bound else 0
        if side_a < 0 and side_b < 0:
            return False
        if side_a < 1 and side_b < 1:  # neither end surely inside, nor both surely outside
            unsure = True
        px, py = vx, vy
    return None if unsure else True
