"""Ship movement: speed allowance, turning circles, tracks, collisions and groundings (BF6-MOV).

* The most a ship may move is its top undamaged propulsion box, converted by the scale
  (BF6-MOV-01); it may rise by at most one box's worth over last turn's actual move (BF6-MOV-03,
  AMB-09) and must cover at least the scale's ``min_move_fraction`` of last turn's move (BF6-MOV-06,
  AMB-08, reconstructed). A ship may always move less than its maximum (BF6-MOV-02).
* A dead-in-the-water ship (BF6-MOV-07) and a sinking ship (BF6-SINK-03) do not move.
* Turns follow the turning circle and are charged the arc length r·θ (BF6-MOV-05, EX-BF6-02); a turn
  that the allowance cannot finish turns as far as it can (BF6-CMD-12).
* Ships cannot pass through land or other bases: :func:`resolve_tracks` moves every ship together
  and stops both ships at first contact, reporting COLLISION or GROUNDING.

All distances are metres of sea; a :class:`Track` follows the centre of the base. Measuring from
the front edge (BF6-MOV-04) moves the whole base the same distance, so it needs no correction.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Literal

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import STRtree

from battleline.engine.events import Event, EventKind, EventLog
from battleline.engine.geometry import Pose, norm360, unit
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.shiplog import RudderState, ShipLog
from battleline.rulesets.bf1900.table import Land, footprints

#: Largest angle between two recorded points of a turning arc, degrees.
ARC_STEP_DEG = 3.0
#: Slack, in metres, when comparing distances built from conversions.
EPS_M = 1e-6
#: The resolution of a speed order, knots (``SPD12.5``: tenths). A last move that is, to the
#: nearest tenth, within this much of a propulsion box counts as having reached that box
#: (BF6-MOV-03), so an order rounded down to the tenth below a box never costs the ship that box.
SPEED_RESOLUTION_KN = 0.1


# -- speed ---------------------------------------------------------------------------------


def box_distances_m(log: ShipLog, scale: Scale) -> list[float]:
    """Every propulsion box of the class as a distance per turn, lowest first."""
    return list(scale.box_distances_m(log.propulsion.speeds))


def move_allowance_m(log: ShipLog, scale: Scale, last_move_m: float) -> tuple[float, float]:
    """(minimum, maximum) distance this ship may move this turn, in metres.

    * maximum: the top undamaged box (BF6-MOV-01), but no more than the lowest box above last
      turn's actual move — one box's worth of acceleration (BF6-MOV-03, AMB-09, EX-BF6-03). A
      last move within one tenth of a knot (the orders' resolution, :func:`reached_m`) below a
      box counts as that box, so a ship ordered to full speed each turn works up one box a turn;
    * minimum: ``scale.min_move_fraction`` × last move, never above the maximum (BF6-MOV-06,
      AMB-08: ships carry their way and cannot stop dead in one turn);
    * (0, 0) when dead in the water (BF6-MOV-07) or sinking (BF6-SINK-03).
    """
    return allowance_at(log, scale, last_move_m, log.speed_knots)


def allowance_at(
    log: ShipLog, scale: Scale, last_move_m: float, speed_knots: float
) -> tuple[float, float]:
    """:func:`move_allowance_m` for a caller that has read ``log.speed_knots`` already (it is
    worked out afresh on every read)."""
    if last_move_m < 0 or not math.isfinite(last_move_m):
        raise ValueError(f"{log.name}: last turn's move must be ≥ 0 m, not {last_move_m!r}")
    top = scale.knots_to_m_per_turn(speed_knots)
    if top <= 0 or log.sunk:
        return 0.0, 0.0
    boxes = scale.box_distances_m(log.propulsion.speeds)
    above = bisect.bisect_right(boxes, reached_m(scale, last_move_m))  # lowest box above it
    cap = boxes[above] if above < len(boxes) else boxes[-1]
    maximum = min(cap, top)
    minimum = min(scale.min_move_fraction * last_move_m, maximum)
    return minimum, maximum


def reached_m(scale: Scale, last_move_m: float) -> float:
    """The speed a last move counts as for the box it has reached (BF6-MOV-03), in metres: the
    move in knots to the nearest tenth (the orders' resolution), plus one tenth. Comparing in
    tenths makes the rule deaf to metre-sized conversion noise, so an order rounded down to the
    tenth below a box, or a station-keeping follower a few metres short, still reaches it."""
    tenths = math.floor(scale.m_per_turn_to_knots(last_move_m) * 10.0 + 0.5) / 10.0
    return scale.knots_to_m_per_turn(tenths + SPEED_RESOLUTION_KN) + EPS_M


def check_move(ship: str, distance_m: float, allowance: tuple[float, float], scale: Scale) -> None:
    """Reject a planned move outside this turn's (minimum, maximum), naming the ship and rule."""
    lo, hi = allowance
    if distance_m > hi + EPS_M:
        rule = "BF6-MOV-07" if hi == 0 else "BF6-MOV-01/MOV-03"
        raise IllegalOrderError(
            f"{ship}: a move of {scale.fmt(distance_m)} exceeds this turn's maximum "
            f"{scale.fmt(hi)} (speed rises by at most one propulsion box a turn; {rule})"
        )
    if distance_m < lo - EPS_M:
        raise IllegalOrderError(
            f"{ship}: a move of {scale.fmt(distance_m)} is below this turn's minimum "
            f"{scale.fmt(lo)} (a ship cannot lose way that fast; BF6-MOV-06, AMB-08)"
        )


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


# -- contacts ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Contact:
    """A collision between two bases, or a base grounding on land, found while moving."""

    kind: EventKind  # EventKind.COLLISION or EventKind.GROUNDING
    ship: str
    other: str  # the other ship, or the land's name
    x: float
    y: float
    text: str

    @property
    def data(self) -> dict[str, Any]:
        """Structured event data."""
        key = "other" if self.kind is EventKind.COLLISION else "land"
        return {key: self.other, "x": round(self.x, 1), "y": round(self.y, 1)}

    def emit(self, log: EventLog) -> Event:
        """Record this contact in an event log.

        The detailed event (with the point of contact, which lies on the ship's own base) is
        seen by the sides of the ships involved; everyone sees a short public event without
        coordinates: two ships collide, or one runs aground (issue 11 §3).
        """
        is_collision = self.kind is EventKind.COLLISION
        other_side = log.owners.get(self.other) if is_collision else None
        seen_by = (other_side,) if other_side is not None else ()
        event = log.emit(self.kind, self.text, ship=self.ship, seen_by=seen_by, **self.data)
        if is_collision:
            told = f"{self.ship} collides with {self.other}; both stop"
            log.emit(self.kind, told, ship=self.ship, public=True, other=self.other)
        else:
            told = f"{self.ship} runs aground on {self.other} and stops"
            log.emit(self.kind, told, ship=self.ship, public=True, land=self.other)
        return event


#: Slack, metres, added to each half of a base's length and width in the broad phase of
#: collisions. A corner's rounding error is about 1e-11 m at table coordinates, so a centimetre
#: still lets through every pair that can touch; a metre (as before) also let through ships
#: merely running alongside, and so tested them with shapely at every sub-step.
BROAD_SLACK_M = 0.01


def track_poses(
    track: Track, n_steps: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(x, y, heading) of ``track.pose_at((k / n_steps) * track.length_m)`` for k = 0..n_steps
    (one row of :func:`grid_poses`)."""
    xs, ys, hs = grid_poses([track], n_steps)
    return xs[0], ys[0], hs[0]


def grid_poses(
    paths: Sequence[Track], n_steps: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Arrays (track, sub-step) of x, y and heading: ``paths[i].pose_at((k / n_steps) *
    paths[i].length_m)`` for k = 0..n_steps.

    Vectorised over tracks and sub-steps but bit-identical with :meth:`Track.pose_at`: every
    element goes through the same IEEE operations in the same order (``np.mod`` is Python's
    float ``%``, ``searchsorted`` is ``bisect_right``). Rows are padded to the longest track;
    padded values are computed but never chosen.
    """
    n = len(paths)
    lengths = np.array([t.length_m for t in paths])
    s = (np.arange(n_steps + 1) / n_steps)[None, :] * lengths[:, None]
    counts = np.array([len(t.distances) for t in paths], dtype=np.intp)
    width = max(2, int(counts.max()))
    dist = np.full((n, width), np.inf)
    px, py, turns = np.zeros((n, width)), np.zeros((n, width)), np.zeros((n, width))
    if counts.sum():
        owner = np.repeat(np.arange(n), counts)
        col = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        total = int(counts.sum())
        dist[owner, col] = np.fromiter(
            chain.from_iterable(t.distances for t in paths), float, total
        )
        turns[owner, col] = np.fromiter(chain.from_iterable(t.turns for t in paths), float, total)
        flat = chain.from_iterable(chain.from_iterable(t.points) for t in paths)
        pts = np.fromiter(flat, float, 2 * total).reshape(-1, 2)
        px[owner, col], py[owner, col] = pts[:, 0], pts[:, 1]
    last = np.maximum(counts - 2, 0)[:, None]
    i = np.empty(s.shape, dtype=np.intp)
    for r, c in enumerate(counts.tolist()):
        i[r] = np.searchsorted(dist[r, :c], s[r], side="right") - 1
    i = np.minimum(np.maximum(i, 0), last)
    j = i + 1
    row = np.arange(n)[:, None]
    d0, d1 = dist[row, i], dist[row, j]
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(d1 <= d0, 0.0, (s - d0) / (d1 - d0))
        xs = px[row, i] + f * (px[row, j] - px[row, i])
        ys = py[row, i] + f * (py[row, j] - py[row, i])
        start_h = np.array([t.start.heading for t in paths])[:, None]
        hs = np.mod(start_h + (turns[row, i] + f * (turns[row, j] - turns[row, i])), 360.0)
    hs = np.where(hs == 360.0, 0.0, hs)
    at_end = s >= lengths[:, None]
    at_start = ~at_end & ((s <= 0) | (counts == 0)[:, None])
    starts = [(t.start.x, t.start.y, norm360(t.start.heading + 0.0)) for t in paths]
    ends = [(t.end.x, t.end.y, t.end.heading) for t in paths]
    out = []
    for k, v in enumerate((xs, ys, hs)):
        first = np.array([p[k] for p in starts])[:, None]
        final = np.array([p[k] for p in ends])[:, None]
        out.append(np.where(at_end, final, np.where(at_start, first, v)))
    for r, c in zip(*np.nonzero(~at_end & ~at_start & (counts < 2)[:, None]), strict=True):
        p = paths[r].pose_at(float(s[r, c]))  # a track of one point: the scalar way
        out[0][r, c], out[1][r, c], out[2][r, c] = p.x, p.y, p.heading
    return out[0], out[1], out[2]


class _Sweep:
    """Every base's pose at every collision sub-step, and a broad phase for contacts.

    ``at[i]`` is the sub-step whose pose ship ``i`` holds: the current one while it moves, the
    one before it stopped once stopped (a ship stops at the previous sub-step's distance, a point
    of the same grid). The broad phase is a separating-axis test of the two rectangles grown by
    :data:`BROAD_SLACK_M` on every side, far more than rounding can move a drawn corner, so a
    pair it separates cannot intersect; a base can only touch land whose bounding box meets the
    square of its half-diagonal around its centre. Only bases that pass are drawn and handed to
    shapely, which then finds exactly the contacts a test of every base finds.
    """

    def __init__(
        self,
        paths: Sequence[Track],
        lengths: NDArray[np.float64],
        widths: NDArray[np.float64],
        n_steps: int,
        land: Sequence[Land],
    ) -> None:
        self.x, self.y, self.h = grid_poses(paths, n_steps)
        rad = np.radians(self.h)
        self.ux, self.uy = np.sin(rad), np.cos(rad)  # unit vector ahead
        self.n_steps = n_steps
        self.lengths, self.widths = lengths, widths
        self.half_l = lengths / 2.0 + BROAD_SLACK_M
        self.half_w = widths / 2.0 + BROAD_SLACK_M
        reach = np.hypot(self.half_l, self.half_w)
        self.reach2 = np.add.outer(reach, reach) ** 2
        self.rows = np.arange(len(paths))
        # Pairs i < j that may come near at all: the only pairs the broad phase tests.
        self.upper = (self.rows[:, None] < self.rows[None, :]) & self._may_meet(reach)
        self.near_land = np.zeros(self.x.shape, dtype=bool)
        if land:
            box = shapely.bounds(np.array([piece.polygon for piece in land]))
            r = reach[:, None, None]
            x, y = self.x[:, :, None], self.y[:, :, None]
            self.near_land = (
                (x - r <= box[:, 2])
                & (x + r >= box[:, 0])
                & (y - r <= box[:, 3])
                & (y + r >= box[:, 1])
            ).any(axis=2)
        self.at = np.zeros(len(paths), dtype=np.intp)

    def _may_meet(self, reach: NDArray[np.float64]) -> NDArray[np.bool_]:
        """(ship, ship): False for a pair that the circle test of :meth:`_may_overlap` fails at
        every sub-step, whatever poses each holds: the boxes round their whole tracks lie
        further apart on x or on y than their reaches plus a metre. A metre is far more than
        rounding can move a difference of coordinates, so a pair dropped here is never near."""
        lo_x, hi_x = self.x.min(axis=1), self.x.max(axis=1)
        lo_y, hi_y = self.y.min(axis=1), self.y.max(axis=1)
        gap = np.add.outer(reach, reach) + 1.0
        apart = (lo_x[None, :] - hi_x[:, None] > gap) | (lo_x[:, None] - hi_x[None, :] > gap)
        apart |= (lo_y[None, :] - hi_y[:, None] > gap) | (lo_y[:, None] - hi_y[None, :] > gap)
        meet: NDArray[np.bool_] = ~apart
        return meet

    def _may_overlap(
        self, a: NDArray[np.intp], b: NDArray[np.intp], cols: NDArray[np.intp]
    ) -> NDArray[np.bool_]:
        """(pair, step): whether ships ``a[p]`` and ``b[p]`` may overlap when ship ``i`` holds
        the pose of sub-step ``cols[i, step]``. First the circles round the grown bases, then,
        for the pairs whose circles meet, every axis of either base (none may separate them)."""
        x, y = self.x[self.rows[:, None], cols], self.y[self.rows[:, None], cols]
        dx, dy = x[a] - x[b], y[a] - y[b]
        near: NDArray[np.bool_] = dx * dx + dy * dy <= self.reach2[a, b][:, None]
        p, k = np.nonzero(near)
        if len(p) == 0:
            return near
        ia, ib = a[p], b[p]
        ca, cb = cols[ia, k], cols[ib, k]
        uxa, uya, uxb, uyb = self.ux[ia, ca], self.uy[ia, ca], self.ux[ib, cb], self.uy[ib, cb]
        ex, ey = dx[p, k], dy[p, k]
        cos = np.abs(uxa * uxb + uya * uyb)
        sin = np.abs(uxa * uyb - uya * uxb)
        la, wa, lb, wb = self.half_l[ia], self.half_w[ia], self.half_l[ib], self.half_w[ib]
        apart = np.abs(ex * uxa + ey * uya) > la + lb * cos + wb * sin
        apart |= np.abs(ex * uya - ey * uxa) > wa + lb * sin + wb * cos
        apart |= np.abs(ex * uxb + ey * uyb) > lb + la * cos + wa * sin
        apart |= np.abs(ex * uyb - ey * uxb) > wb + la * sin + wa * cos
        near[p, k] = ~apart
        return near

    def near_pairs(self, skip: NDArray[np.bool_]) -> NDArray[np.bool_]:
        """Pairs i < j, not masked by ``skip``, whose bases may overlap now."""
        near = np.zeros_like(skip)
        a, b = np.nonzero(self.upper & ~skip)
        if len(a):
            near[a, b] = self._may_overlap(a, b, self.at[:, None])[:, 0]
        return near

    def busy_steps(
        self,
        k0: int,
        skip: NDArray[np.bool_],
        halted: NDArray[np.bool_],
        landing: NDArray[np.bool_],
    ) -> NDArray[np.bool_]:
        """For each sub-step from ``k0`` on, whether any pair not masked by ``skip`` may overlap,
        or any ship flagged in ``landing`` may touch land, if the ships not ``halted`` go on and
        the halted ones stay where they are. The test is :meth:`near_pairs`' own arithmetic, so
        a step found idle here has no near pair there either."""
        cols = np.where(halted[:, None], self.at[:, None], np.arange(k0, self.n_steps + 1))
        by_land = self.near_land[self.rows[:, None], cols] & landing[:, None]
        busy: NDArray[np.bool_] = np.any(by_land, axis=0)
        a, b = np.nonzero(self.upper & ~skip)
        if len(a):
            busy |= np.any(self._may_overlap(a, b, cols), axis=0)
        return busy

    def by_land(self) -> NDArray[np.bool_]:
        """Ships whose base may touch land now."""
        near: NDArray[np.bool_] = self.near_land[self.rows, self.at]
        return near

    def geoms(self, ships: Sequence[int]) -> _Bases:
        """The base polygons of ``ships`` (indices, ascending) at their current sub-steps."""
        idx = np.asarray(ships, dtype=np.intp)
        at = self.at[idx]
        polys = footprints(
            self.x[idx, at], self.y[idx, at], self.h[idx, at], self.lengths[idx], self.widths[idx]
        )
        return _Bases(list(ships), polys)


@dataclass(frozen=True)
class _Bases:
    """Base polygons of some ships: ``polys[n]`` is the base of ship index ``ships[n]``."""

    ships: list[int]
    polys: NDArray[np.object_]

    def __getitem__(self, ship: int) -> Any:
        return self.polys[self.ships.index(ship)]

    def overlaps(self) -> list[tuple[int, int]]:
        """Pairs of ship indices (i < j) whose bases intersect, sorted."""
        a, b = STRtree(self.polys).query(self.polys, predicate="intersects")
        keys = self.ships
        pairs = {(keys[i], keys[j]) for i, j in zip(a.tolist(), b.tolist(), strict=True) if i < j}
        return sorted(pairs)

    def groundings(self, ships: Sequence[int], land_tree: STRtree) -> list[tuple[int, int]]:
        """Pairs (ship index, land piece) of the given ships whose shapes intersect, sorted."""
        if not ships:
            return []
        rows = [self.ships.index(i) for i in ships]
        a, b = land_tree.query(self.polys[rows], predicate="intersects")
        return sorted((ships[i], j) for i, j in zip(a.tolist(), b.tolist(), strict=True))


def _involved(near: NDArray[np.bool_], extra: NDArray[np.bool_]) -> list[int]:
    """Indices of the ships in a near pair or flagged in ``extra``, ascending."""
    mask = near.any(axis=0) | near.any(axis=1) | extra
    return [int(i) for i in np.flatnonzero(mask)]


def resolve_tracks(
    tracks: Mapping[str, Track],
    sizes: Mapping[str, tuple[float, float]],
    land: Sequence[Land],
    stationary: Mapping[str, Pose],
) -> tuple[dict[str, Track], list[Contact]]:
    """Move every ship together and stop it at its first contact with land or another base.

    All ships move at once, each at an even pace along its own track. A ship whose next step would
    overlap land stops at its last clear position (GROUNDING); two bases that would overlap both
    stop at their last clear positions (COLLISION, naming both ships). ``sizes`` gives every
    ship's (length, width) in metres. Bases already touching at the start are not reported.

    The move is cut into sub-steps of a third of the narrowest base; at each, only the bases the
    broad phase of :class:`_Sweep` lets through are drawn and tested.
    """
    names = sorted(set(tracks) | set(stationary))
    missing = [n for n in names if n not in sizes]
    if missing:
        raise ValueError(f"no base size for {', '.join(missing)}")
    all_tracks: dict[str, Track] = {
        n: tracks[n] if n in tracks else stay(n, stationary[n]) for n in names
    }
    moving = [n for n in names if all_tracks[n].length_m > 0]
    if not moving:
        return dict(tracks), []
    lengths = np.array([sizes[n][0] for n in names])
    widths = np.array([sizes[n][1] for n in names])
    step_m = max(float(widths.min()) / 3.0, 1.0)
    longest = max(all_tracks[n].length_m for n in moving)
    n_steps = min(4000, max(1, math.ceil(longest / step_m)))
    land_tree = STRtree([piece.polygon for piece in land]) if land else None
    sweep = _Sweep([all_tracks[n] for n in names], lengths, widths, n_steps, land)
    index = {n: i for i, n in enumerate(names)}
    under_way = np.array([n in moving for n in names])
    halted = np.zeros(len(names), dtype=bool)  # ships in ``stopped``
    # Pairs whose overlap is never reported: neither ship moving, or touching already.
    skip = ~np.logical_or.outer(under_way, under_way)
    nowhere = np.zeros(len(names), dtype=bool)

    stopped: dict[str, float] = {}  # ship -> distance at which it stopped
    contacts: list[Contact] = []

    start = sweep.geoms(_involved(sweep.near_pairs(np.zeros_like(skip)), sweep.by_land()))
    touching = set(start.overlaps())
    for i, j in touching:
        skip[i, j] = True
    aground: set[tuple[int, int]] = set()
    if land_tree is not None:
        aground = set(start.groundings([i for i in start.ships if sweep.by_land()[i]], land_tree))

    # Whether a sub-step can find anything at all; planned again whenever a ship stops.
    busy = np.ones(n_steps + 1, dtype=bool)
    busy[1:] = sweep.busy_steps(1, skip, halted, under_way if land_tree is not None else nowhere)
    for k in range(1, n_steps + 1):
        if not busy[k]:  # nothing can be found at this sub-step
            continue
        prev = (k - 1) / n_steps
        while True:
            active = [n for n in moving if n not in stopped]
            if not active or not busy[k]:
                break
            sweep.at[~halted] = k
            near = sweep.near_pairs(skip | np.logical_and.outer(halted, halted))
            landing = sweep.by_land() & under_way & ~halted if land_tree is not None else nowhere
            ships = _involved(near, landing)
            if not ships:
                break
            geoms = sweep.geoms(ships)
            new_stops: dict[str, float] = {}
            for i, j in geoms.overlaps():
                if (i, j) in touching:
                    continue
                a_name, b_name = names[i], names[j]
                if a_name in stopped and b_name in stopped:
                    continue
                if a_name not in moving and b_name not in moving:
                    continue
                spot = shapely.intersection(geoms[i], geoms[j]).centroid
                # The ship still under way is the one that ran into the other.
                a_under_way = a_name in moving and a_name not in stopped
                first, second = (a_name, b_name) if a_under_way else (b_name, a_name)
                contacts.append(
                    Contact(
                        EventKind.COLLISION,
                        first,
                        second,
                        float(spot.x),
                        float(spot.y),
                        f"{first} collides with {second} at "
                        f"({spot.x:.0f} m, {spot.y:.0f} m); both stop",
                    )
                )
                touching.add((i, j))
                skip[i, j] = True
                for n in (a_name, b_name):
                    if n in moving and n not in stopped:
                        new_stops[n] = prev * all_tracks[n].length_m
            if land_tree is not None:
                for i, j in geoms.groundings([i for i in ships if landing[i]], land_tree):
                    n = names[i]
                    if (i, j) in aground or n not in moving or n in stopped:
                        continue
                    spot = shapely.intersection(geoms[i], land[j].polygon).centroid
                    contacts.append(
                        Contact(
                            EventKind.GROUNDING,
                            n,
                            land[j].name,
                            float(spot.x),
                            float(spot.y),
                            f"{n} runs aground on {land[j].name} at "
                            f"({spot.x:.0f} m, {spot.y:.0f} m) and stops",
                        )
                    )
                    aground.add((i, j))
                    new_stops.setdefault(n, prev * all_tracks[n].length_m)
            if not new_stops:
                break
            stopped.update(new_stops)
            for n in new_stops:  # a stopped ship keeps the previous sub-step's pose
                halted[index[n]] = True
                sweep.at[index[n]] = k - 1
            landing = under_way & ~halted if land_tree is not None else nowhere
            busy[k:] = sweep.busy_steps(
                k, skip | np.logical_and.outer(halted, halted), halted, landing
            )

    out: dict[str, Track] = {}
    for n in tracks:
        out[n] = all_tracks[n].cut(stopped[n]) if n in stopped else tracks[n]
    return out, contacts


def emit_contacts(log: EventLog, contacts: Sequence[Contact]) -> list[Event]:
    """Record every contact as a COLLISION or GROUNDING event."""
    return [c.emit(log) for c in contacts]
