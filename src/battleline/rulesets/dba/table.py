"""Measuring on the table: bases, distances between base edges, arcs and the end-on corridor.

A base is 2 cables long and 1 wide (reconstructed core; torpedo craft use the same base). Range
bands are read from the distance between the nearest points of two bases (REF-DBA-01).
"""

from __future__ import annotations

import math
from functools import lru_cache

from shapely import Polygon

from battleline.engine.geometry import Pose, norm360
from battleline.rulesets.dba.combat import Arc, TargetEdge, arc_of
from battleline.rulesets.dba.factors import RangeBand
from battleline.rulesets.dba.tables import load_core


def base_metres() -> float:
    """A base's length in metres."""
    return load_core().base_metres


def footprint(pose: Pose, length: float, width: float | None = None) -> Polygon:
    """The rectangle of a base (``width`` defaults to half the length)."""
    half_l = length / 2.0
    half_w = (length / 2.0 if width is None else width) / 2.0
    corners = [
        pose.offset(a, b)
        for a, b in ((half_l, half_w), (half_l, -half_w), (-half_l, -half_w), (-half_l, half_w))
    ]
    return Polygon(corners)


@lru_cache(maxsize=4096)
def _gap(a: Pose, b: Pose, base: float) -> float:
    return float(footprint(a, base).distance(footprint(b, base)))


def distance_bases(a: Pose, b: Pose) -> float:
    """Distance between the nearest points of two bases, in bases."""
    base = base_metres()
    return _gap(a, b, base) / base


def band_of(a: Pose, b: Pose) -> RangeBand | None:
    """The range band between two bases (``None`` beyond extreme)."""
    return load_core().band(distance_bases(a, b))


def edge_facing(target: Pose, frm: Pose) -> TargetEdge:
    """The target's base edge that faces a point."""
    seen = arc_of(target.bearing_to(frm.x, frm.y))
    if seen.broadside:
        return TargetEdge.BROADSIDE
    return TargetEdge.BOW if seen is Arc.BOW else TargetEdge.STERN


def measure(shooter: Pose, target: Pose) -> tuple[float, Arc, TargetEdge]:
    """Distance in bases, the shooter's arc on the target, the target's facing edge."""
    return (
        distance_bases(shooter, target),
        arc_of(shooter.bearing_to(target.x, target.y)),
        edge_facing(target, shooter),
    )


def in_corridor(shooter: Pose, target: Pose) -> bool:
    """Is any part of the target's base between the lines extending the shooter's base sides,
    ahead or astern? (DBA-BSA-01, AMB-90)"""
    core = load_core()
    reach = (core.range_bands[RangeBand.EXTREME] + 2) * core.base_metres
    strip = footprint(shooter, 2 * reach, width=core.base_metres / 2)
    return bool(strip.intersects(footprint(target, core.base_metres)))


def bearing(frm: Pose, to: Pose) -> float:
    """True bearing from one base centre to another, degrees clockwise from north."""
    return norm360(math.degrees(math.atan2(to.x - frm.x, to.y - frm.y)))
