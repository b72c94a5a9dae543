"""Turning circles and ship tracks: the circle a ship turns on now, what a jammed rudder does, the
legs of a move and the track its base centre follows (BF6-MOV-05, BF6-CMD-11/12, REF-BF6-13).

All distances are metres of sea; a :class:`Track` follows the centre of the base.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from battleline.engine.geometry import Pose, norm360, unit
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.shiplog import RudderState, ShipLog

#: Largest angle between two recorded points of a turning arc, degrees.
ARC_STEP_DEG = 3.0
#: Slack, in metres, when comparing distances built from conversions.
EPS_M = 1e-6
# -- steering ------------------------------------------------------------------------------


def turn_radius_m(log: ShipLog, scale: Scale) -> float:
    """Radius of the circle the ship turns on now (BF6-MOV-05, REF-BF6-13, reconstructed).

    The class's ``turning_circle_m`` is a diameter. Each TR hit on the ST line widens it by
    ``steering.tr_hit_widening`` of the original; a damaged rudder (R/) multiplies it by
    ``damaged_rudder_factor``; a secured rudder (RC) means steering by the engines and multiplies it
    by ``engine_steering_factor``. A jammed rudder (JP/JS) keeps the circle but forces the ship to
    turn that way (:func:`forced_turn`).
    """
    st = scale.steering
    diameter = log.cls.turning_circle_m * (1.0 + st.tr_hit_widening * log.tr_hits)
    if log.rudder is RudderState.DAMAGED:
        diameter *= st.damaged_rudder_factor
    elif log.rudder is RudderState.SECURED:
        diameter *= st.engine_steering_factor
    return diameter / 2.0


def forced_turn(log: ShipLog) -> int:
    """+1 if the rudder is jammed to starboard, −1 if to port, 0 if the ship steers freely."""
    if log.rudder is RudderState.JAMMED_STARBOARD:
        return 1
    if log.rudder is RudderState.JAMMED_PORT:
        return -1
    return 0


# -- legs and tracks -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Leg:
    """One piece of a move: straight ahead, or a turn along the turning circle.

    ``turn_deg`` is signed, + = starboard. A turn leg costs the arc length r·|θ| at the ship's
    radius; if ``distance_m`` is also given it caps the distance spent on the arc.
    """

    kind: Literal["straight", "turn"]
    distance_m: float = 0.0
    turn_deg: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in ("straight", "turn"):
            raise ValueError(f"a leg is 'straight' or 'turn', not {self.kind!r}")
        if self.distance_m < 0 or not math.isfinite(self.distance_m):
            raise ValueError(f"a leg's distance must be ≥ 0 m, not {self.distance_m!r}")
        if self.kind == "straight" and self.turn_deg != 0:
            raise ValueError("a straight leg cannot turn")
        if not math.isfinite(self.turn_deg):
            raise ValueError("a turn must be a finite angle")

    def cost_m(self, radius_m: float) -> float:
        """Movement this leg spends if completed."""
        if self.kind == "straight":
            return self.distance_m
        arc = radius_m * math.radians(abs(self.turn_deg))
        return min(arc, self.distance_m) if self.distance_m > 0 else arc


def apply_steering(log: ShipLog, legs: Sequence[Leg], radius_m: float) -> tuple[Leg, ...]:
    """The legs a ship really follows: a jammed rudder (JP/JS) turns the whole move that way.

    A jammed ship keeps its ordered distance but spends all of it circling to the jammed side
    (REF-BF6-13, the "uncontrollable spin" that securing the rudder guards against, BF6-REP-10).
    """
    side = forced_turn(log)
    if side == 0:
        return tuple(legs)
    total = sum(leg.cost_m(radius_m) for leg in legs)
    if total <= 0:
        return ()
    return (Leg("turn", total, side * math.degrees(total / radius_m)),)


@dataclass(frozen=True)
class Track:
    """The path of a ship's base centre over one move.

    ``points`` are (x, y) in metres from ``start`` to ``end``; ``distances`` and ``turns`` give, for
    each point, the path length and the signed turn made so far. ``length_m`` is the movement
    spent, arcs counted at r·θ.
    """

    ship: str
    start: Pose
    end: Pose
    length_m: float
    points: tuple[tuple[float, float], ...]
    turned_deg: float
    distances: tuple[float, ...] = field(default=(), repr=False)
    turns: tuple[float, ...] = field(default=(), repr=False)

    def _at(self, s: float) -> tuple[float, float, float]:
        """(x, y, signed turn so far) after ``s`` metres along the track."""
        if not self.distances or s <= 0:
            return self.start.x, self.start.y, 0.0
        if s >= self.length_m:
            return self.end.x, self.end.y, self.turned_deg
        i = bisect.bisect_right(self.distances, s) - 1
        i = min(max(i, 0), len(self.distances) - 2)
        d0, d1 = self.distances[i], self.distances[i + 1]
        f = 0.0 if d1 <= d0 else (s - d0) / (d1 - d0)
        (x0, y0), (x1, y1) = self.points[i], self.points[i + 1]
        turn = self.turns[i] + f * (self.turns[i + 1] - self.turns[i])
        return x0 + f * (x1 - x0), y0 + f * (y1 - y0), turn

    def pose_at(self, s: float) -> Pose:
        """The pose after ``s`` metres along the track (clamped to the track)."""
        if s >= self.length_m:
            return self.end
        x, y, turn = self._at(s)
        return Pose(x, y, norm360(self.start.heading + turn))

    def cut(self, s: float) -> Track:
        """This track stopped after ``s`` metres."""
        if s >= self.length_m:
            return self
        s = max(s, 0.0)
        x, y, turn = self._at(s)
        keep = max(1, bisect.bisect_right(self.distances, s))
        pts, dists, turns = self.points[:keep], self.distances[:keep], self.turns[:keep]
        if dists[-1] < s:
            pts, dists, turns = (*pts, (x, y)), (*dists, s), (*turns, turn)
        end = Pose(x, y, norm360(self.start.heading + turn))
        return Track(self.ship, self.start, end, s, pts, turn, dists, turns)


def trace(ship: str, pose: Pose, legs: Sequence[Leg], radius_m: float, allowance_m: float) -> Track:
    """Follow ``legs`` from ``pose`` until the allowance runs out (BF6-MOV-01/02/05, CMD-11/12).

    Straight legs run along the heading; turn legs run along a circle of ``radius_m`` whose centre
    lies abeam on the turning side, charging r·θ. A turn the allowance cannot finish turns as far
    as it can (BF6-CMD-12). Anything left of the allowance after the last leg is not used.
    """
    if radius_m <= 0 or not math.isfinite(radius_m):
        raise ValueError(f"{ship}: the turning radius must be positive, not {radius_m!r}")
    if allowance_m < 0 or not math.isfinite(allowance_m):
        raise ValueError(f"{ship}: the allowance must be ≥ 0 m, not {allowance_m!r}")
    x, y, h = pose.x, pose.y, pose.heading
    pts: list[tuple[float, float]] = [(x, y)]
    dists: list[float] = [0.0]
    turns: list[float] = [0.0]
    used = 0.0
    turned = 0.0
    for leg in legs:
        left = allowance_m - used
        if left <= EPS_M:
            break
        if leg.kind == "straight":
            d = min(leg.distance_m, left)
            if d <= 0:
                continue
            dx, dy = unit(h)
            x, y = x + dx * d, y + dy * d
            used += d
            pts.append((x, y))
            dists.append(used)
            turns.append(turned)
            continue
        arc = min(leg.cost_m(radius_m), left)
        if arc <= 0 or leg.turn_deg == 0:
            continue
        side = 1.0 if leg.turn_deg > 0 else -1.0
        theta = math.degrees(arc / radius_m)  # degrees actually turned
        cx, cy = unit(h + side * 90.0)
        cx, cy = x + radius_m * cx, y + radius_m * cy
        steps = max(1, math.ceil(theta / ARC_STEP_DEG))
        for k in range(1, steps + 1):
            phi = theta * k / steps
            hk = h + side * phi
            ux, uy = unit(hk - side * 90.0)
            pts.append((cx + radius_m * ux, cy + radius_m * uy))
            dists.append(used + arc * k / steps)
            turns.append(turned + side * phi)
        x, y = pts[-1]
        h = norm360(h + side * theta)
        used += arc
        turned += side * theta
    end = Pose(x, y, norm360(h))
    return Track(ship, pose, end, used, tuple(pts), turned, tuple(dists), tuple(turns))


def stay(ship: str, pose: Pose) -> Track:
    """The track of a ship that does not move."""
    return Track(ship, pose, pose, 0.0, ((pose.x, pose.y),), 0.0, (0.0,), (0.0,))
