"""The geometry of a torpedo launch: launch arcs, the run and its length, land across it, and the
course and aspect the hit chart is read with (BF6-TORP-04, BF6-TORP-09/10, BF12C-TH-02/03,
REF-BF6-18).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Literal, Protocol

from battleline.engine.geometry import Pose, in_arc, norm360, signed_angle, unit
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.ship import ShipClass, TorpedoMount

Course = Literal["converging", "diverging", "stationary_nets"]
ShotAspect = Literal["rake", "beam"]
Arc = tuple[float, float]

#: Launch arcs by tube position, as closed clockwise intervals of relative bearing
#: (BF6-TORP-09/10, BF6-POS-11, BF6-BEAM-05, AMB-19). Two arcs = one on each side.
LAUNCH_ARCS: Mapping[str, tuple[Arc, ...]] = MappingProxyType(
    {
        "bow": ((330.0, 30.0),),
        "stern": ((150.0, 210.0),),
        "starboard": ((60.0, 120.0),),
        "port": ((240.0, 300.0),),
        "centreline": ((42.5, 137.5), (222.5, 317.5)),
        "beam": ((60.0, 120.0), (240.0, 300.0)),
    }
)

#: The target's front and rear arcs for a rake shot: 95° centred on bow and stern (AMB-54).
RAKE_ARCS: tuple[Arc, ...] = ((312.5, 47.5), (132.5, 227.5))

_SIDE_OF_ARC: Mapping[Arc, str] = {
    (60.0, 120.0): "starboard",
    (240.0, 300.0): "port",
    (42.5, 137.5): "starboard",
    (222.5, 317.5): "port",
}

# -- geometry: arcs, range, land, course and aspect ------------------------------------------


def launch_arcs(mount: TorpedoMount) -> tuple[Arc, ...]:
    """The arcs a mount may launch into (BF6-TORP-09/10, AMB-19)."""
    try:
        return tuple(LAUNCH_ARCS[mount.position])
    except KeyError:
        raise IllegalOrderError(
            f"torpedo mount {mount.key!r}: unknown position {mount.position!r}; "
            f"use one of {', '.join(LAUNCH_ARCS)}"
        ) from None


def bearing_arc(mount: TorpedoMount, theta: float) -> Arc | None:
    """The arc of ``mount`` that holds relative bearing ``theta``, or ``None`` if out of arc.

    The same test as :func:`~battleline.engine.geometry.in_arc` on each of
    :func:`launch_arcs`, with each arc's width worked out once (:data:`_ARC_TESTS`): the AI asks
    this for every mount and target every turn.
    """
    tests = _ARC_TESTS.get(mount.position)
    if tests is None:
        tests = tuple(map(_arc_test, launch_arcs(mount)))  # raises for an unknown position
    for arc, start, upto in tests:
        offset = (theta - start) % 360.0  # norm360(theta - start)
        if offset == 360.0:
            offset = 0.0
        if offset <= upto or offset >= _FULL_TURN:
            return arc
    return None


def _arc_test(arc: Arc, eps: float = 1e-9) -> tuple[Arc, float, float]:
    """``(arc, start, upto)``: ``theta`` is in the arc when ``norm360(theta - start)`` is at most
    ``upto`` or at least :data:`_FULL_TURN`, exactly as ``in_arc(theta, *arc)`` decides."""
    start, end = arc
    width = norm360(end - start)
    if width == 0.0 and end != start:
        width = 360.0
    return arc, start, width + eps


#: Where ``in_arc`` (default ``eps``) counts a bearing just short of the arc's start as inside.
_FULL_TURN = 360.0 - 1e-9
#: The launch arcs of each tube position, prepared for :func:`bearing_arc`; a pure function of
#: the read-only :data:`LAUNCH_ARCS`.
_ARC_TESTS: Mapping[str, tuple[tuple[Arc, float, float], ...]] = MappingProxyType(
    {position: tuple(map(_arc_test, arcs)) for position, arcs in LAUNCH_ARCS.items()}
)


def launching_side(mount: TorpedoMount, arc: Arc) -> str:
    """Where the launch marker goes: 'bow', 'stern', 'port' or 'starboard' (BF6-TORP-03)."""
    if mount.position in ("bow", "stern"):
        return mount.position
    return _SIDE_OF_ARC[arc]


class BaseSizes(Protocol):
    """What the torpedo step needs from the game scale (``scales.Scale``)."""

    def base_size_m(self, cls: ShipClass) -> tuple[float, float]:
        """(length, width) of a ship's base in metres."""
        ...


def aim_point(firer: Pose, target: Pose, base: tuple[float, float] | None) -> tuple[float, float]:
    """Where a torpedo's run ends: the nearest point of the target's base to the launcher's
    centre, or the target's centre when no base size is known (REF-BF6-18)."""
    if base is None:
        return target.x, target.y
    dx, dy = unit(target.heading)
    vx, vy = firer.x - target.x, firer.y - target.y
    ahead = vx * dx + vy * dy
    starboard = vx * dy - vy * dx
    half_l, half_w = base[0] / 2.0, base[1] / 2.0
    ahead = min(max(ahead, -half_l), half_l)
    starboard = min(max(starboard, -half_w), half_w)
    return target.offset(ahead, starboard)


def torpedo_run(
    firer: Pose, target: Pose, base: tuple[float, float] | None
) -> tuple[float, float, float, float]:
    """The straight run (x0, y0, x1, y1) from the launcher's centre to the aim point."""
    x1, y1 = aim_point(firer, target, base)
    return firer.x, firer.y, x1, y1


def run_length(run: tuple[float, float, float, float]) -> float:
    """Length of a run in metres: the torpedo range that must not exceed the mount's range."""
    x0, y0, x1, y1 = run
    return math.hypot(x1 - x0, y1 - y0)


def course_relation(a: Pose, b: Pose) -> Course:
    """Converging or diverging (BF12C-TH-02, EX-BF12C-07).

    The practical test: if either ship's bow points even slightly away from the other ship (the
    other lies more than 90° off its bow), the courses diverge. Otherwise they converge.
    """
    if a.x == b.x and a.y == b.y:
        return "converging"
    for me, other in ((a, b), (b, a)):
        if abs(signed_angle(me.bearing_to(other.x, other.y))) > 90.0 + 1e-9:
            return "diverging"
    return "converging"


def shot_aspect(firer: Pose, target: Pose) -> ShotAspect:
    """Rake if launched from inside the target's front or rear arc, else beam (BF12C-TH-03).

    The front and rear arcs are 95° centred on bow and stern, edges included (AMB-54).
    """
    theta = target.bearing_to(firer.x, firer.y)
    return "rake" if any(in_arc(theta, *arc) for arc in RAKE_ARCS) else "beam"


def land_blocks(run: tuple[float, float, float, float], land: Sequence[Any]) -> bool:
    """True if the straight run passes through land (BF6-TORP-04).

    Ship bases never block a torpedo; only land does. Grazing a coastline does not block, as for
    line of sight. Each land item is a shapely geometry or holds one as ``geometry`` or
    ``polygon``.
    """
    if not land:
        return False
    from shapely.geometry import LineString

    x0, y0, x1, y1 = run
    line = LineString([(x0, y0), (x1, y1)]) if (x0, y0) != (x1, y1) else None
    if line is None:
        return False
    for item in land:
        geom = _geometry(item)
        if bool(line.intersects(geom)) and not bool(line.touches(geom)):
            return True
    return False


def _geometry(item: Any) -> Any:
    for name in ("geometry", "polygon"):
        geom = getattr(item, name, None)
        if geom is not None:
            return geom
    return item
