"""Measure what a PDF page really draws: its content stream is read with pypdf, the current
transformation matrix is followed through q/Q/cm, and every path is turned into runs of Bézier
curves (each fitted to a circle) and rectangles, in points of the printed page."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pypdf.generic import ContentStream

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]
_PAINT = {"S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"}


@dataclass
class Run:
    """Consecutive curve segments: their anchor points, first (the start) to last."""

    anchors: list[Point]


@dataclass
class Shape:
    """One painted path: where it began, its straight-line points, its curve runs, its rects."""

    start: Point | None = None
    lines: list[Point] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    rects: list[tuple[float, float, float, float]] = field(default_factory=list)


def _mul(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + b * c2,
        a * b2 + b * d2,
        c * a2 + d * c2,
        c * b2 + d * d2,
        e * a2 + f * c2 + e2,
        e * b2 + f * d2 + f2,
    )


def _apply(m: Matrix, x: float, y: float) -> Point:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def shapes(page: Any) -> list[Shape]:
    """Every painted path of a pypdf page, in drawing order, in page points."""
    content = ContentStream(page.get_contents(), page.pdf)
    ctm: Matrix = (1, 0, 0, 1, 0, 0)
    stack: list[Matrix] = []
    out: list[Shape] = []
    cur = Shape()
    here: Point | None = None
    run: Run | None = None
    for operands, raw in content.operations:
        op = raw.decode() if isinstance(raw, bytes) else raw
        nums = [float(v) for v in operands] if op in {"cm", "m", "l", "c", "re"} else []
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = _mul((nums[0], nums[1], nums[2], nums[3], nums[4], nums[5]), ctm)
        elif op == "m":
            here = _apply(ctm, nums[0], nums[1])
            if cur.start is None:
                cur.start = here
            run = None
        elif op == "l":
            here = _apply(ctm, nums[0], nums[1])
            cur.lines.append(here)
            run = None
        elif op == "c":
            end = _apply(ctm, nums[4], nums[5])
            if run is None:
                run = Run([here] if here is not None else [])
                cur.runs.append(run)
            run.anchors.append(end)
            here = end
        elif op == "re":
            x, y = _apply(ctm, nums[0], nums[1])
            x2, y2 = _apply(ctm, nums[0] + nums[2], nums[1] + nums[3])
            cur.rects.append((min(x, x2), min(y, y2), abs(x2 - x), abs(y2 - y)))
        elif op in _PAINT:
            out.append(cur)
            cur, here, run = Shape(), None, None
    return out


def circle_through(p: Point, q: Point, r: Point) -> tuple[Point, float]:
    """Centre and radius of the circle through three points."""
    ax, ay = p
    bx, by = q
    cx, cy = r
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    ux = (ax**2 + ay**2) * (by - cy) + (bx**2 + by**2) * (cy - ay) + (cx**2 + cy**2) * (ay - by)
    uy = (ax**2 + ay**2) * (cx - bx) + (bx**2 + by**2) * (ax - cx) + (cx**2 + cy**2) * (bx - ax)
    centre = (ux / d, uy / d)
    return centre, math.dist(centre, p)


def bearing(centre: Point, p: Point) -> float:
    """Relative bearing of ``p`` seen from ``centre`` with the bow up the page."""
    return math.degrees(math.atan2(p[0] - centre[0], p[1] - centre[1])) % 360.0


@dataclass(frozen=True)
class Sector:
    """A sector drawn from a centre: its radius and its clockwise arc [start, end]."""

    centre: Point
    radius: float
    start: float
    end: float


def sectors(page: Any) -> list[Sector]:
    """Every path that starts at a centre, runs out to a rim and follows it: the arc cards."""
    found = []
    for s in shapes(page):
        if s.start is None or len(s.runs) != 1 or not s.lines:
            continue
        anchors = s.runs[0].anchors
        radii = [math.dist(s.start, p) for p in anchors]
        if max(radii) - min(radii) > 0.01 or radii[0] < 1:
            continue
        # drawn counter-clockwise on the page, i.e. from the clockwise end back to the start
        found.append(
            Sector(s.start, radii[0], bearing(s.start, anchors[-1]), bearing(s.start, anchors[0]))
        )
    return found


def arcs(page: Any) -> list[tuple[Point, float]]:
    """(centre, radius) of every curve run with three or more anchors that lie on one circle."""
    found = []
    for s in shapes(page):
        for run in s.runs:
            pts = run.anchors
            if len(pts) < 3:
                continue
            n = len(pts)
            if math.dist(pts[0], pts[-1]) < 0.01:  # a full circle: use three distinct anchors
                n -= 1
            centre, r = circle_through(pts[0], pts[n // 3 or 1], pts[(2 * n) // 3 or 2])
            if all(abs(math.dist(centre, p) - r) < 0.01 for p in pts):
                found.append((centre, r))
    return found


def rects(page: Any) -> list[tuple[float, float, float, float]]:
    """Every rectangle drawn with ``re`` (x, y, width, height), in page points."""
    return [r for s in shapes(page) for r in s.rects]
