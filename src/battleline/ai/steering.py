"""The command phase's look-ahead for collisions (BF6-MOV): predicted tracks, the table of other
ships' positions and tracks, and the search for a clear heading, vectorised with ``numpy``.

:func:`steer_clear` gives exactly the answer of the plain triple loop it replaced (every ship of
the division, every point of its predicted track, every obstacle point): a point is too close
when ``math.hypot(point - obstacle) < CLEARANCE_M`` and it is closer than the ship is to that
obstacle now. The arrays (all headings' tracks from :func:`track_grid`, squared distances) may
differ from that scalar arithmetic in the last bits, so they decide only what is beyond doubt:
a heading with a pair well inside both limits (by :data:`_SLACK` and :data:`_SLACK_M`) is
refused, one with no pair near them is clear, and a pair near a limit is settled by the scalar
formula on the exact track of :func:`predicted_track`. A heading is thus refused exactly when
the loop would refuse it.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, cast

import numpy as np
import numpy.typing as npt

from battleline.engine.geometry import Pose, bearing, norm360, signed_angle
from battleline.rulesets.bf1900.tracks import forced_turn

if TYPE_CHECKING:
    from battleline.ai.picture import Picture
    from battleline.rulesets.bf1900.divisions import Division

#: Closest a division plans to pass another ship, metres (bases are ~300 m long at small scale).
CLEARANCE_M = 550.0
#: The headings tried, as offsets from the wanted one, in order of preference.
OFFSETS = (0, 20, -20, 40, -40, 60, -60, 90, -90, 120, -120, 150, -150, 180)
#: A ship's run is looked at this far out, then at these fractions of the way.
FIRST_LOOK_M = 60.0
FRACTIONS = (0.15, 0.3, 0.5, 0.7, 0.85, 1.0)
#: At most this many points on a predicted track (the 60 m look and the fractions).
TRACK_POINTS = 1 + len(FRACTIONS)
#: Slack of the array test, relative and in metres: far above the last-bit differences between
#: ``numpy`` and :mod:`math` (sines, ``hypot``), far below anything a ship could notice.
_SLACK = 1e-9
_SLACK_M = 1e-6

Point = tuple[float, float]
Points = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]


def predicted_track(
    pose: Pose, heading: float, distance_m: float, radius_m: float = 0.0
) -> list[Point]:
    """Points along the run a ship would make (60 m out, then every sixth or so) that first turns
    onto ``heading`` on a circle of ``radius_m`` (turns come first, BF6-CMD-11) and then runs
    straight.

    The arithmetic is that of a point-by-point walk; the arc's end and the sines of a heading are
    worked out once rather than for every point (the same floating-point operations, so the same
    numbers). Without a turn (no turning circle, on course already) every point lies ahead.
    """
    delta = math.radians(signed_angle(heading - pose.heading))
    arc = min(distance_m, radius_m * abs(delta)) if radius_m > 0 else 0.0
    h0 = math.radians(pose.heading)
    start = (pose.x, pose.y, math.sin(h0), math.cos(h0))
    if arc <= 0:
        x, y, sin_h, cos_h = start
        return [
            (x + r * sin_h, y + r * cos_h)
            for r in [max(0.0, s - arc) for s in stations(distance_m)]
        ]
    end: tuple[float, float, float, float] | None = None  # where the arc ends, once reached
    out = []
    for s_m in stations(distance_m):
        on_arc = min(s_m, arc)
        if not on_arc > 0:
            x, y, sin_h, cos_h = start
        elif on_arc == arc and end is not None:
            x, y, sin_h, cos_h = end
        else:
            x, y, sin_h, cos_h = _along_arc(pose.x, pose.y, h0, on_arc, radius_m, delta)
            if on_arc == arc:
                end = (x, y, sin_h, cos_h)
        rest = max(0.0, s_m - arc)
        out.append((x + rest * sin_h, y + rest * cos_h))
    return out


def wake_track(
    pose: Pose, leader: Pose, leader_track: Sequence[Point], distance_m: float
) -> list[Point]:
    """Points along the run of a ship following her leader in line ahead through a turn in
    succession (BF6-CMD-05): she steams on to where the leader is now, then along the leader's
    track, so she turns only where the leader turned. Sampled at the same stations as
    :func:`predicted_track`."""
    path = [(pose.x, pose.y), (leader.x, leader.y), *leader_track]
    out: list[Point] = []
    legs = list(itertools.pairwise(path))
    done, leg = 0.0, 0
    for s_m in stations(distance_m):
        while leg < len(legs):
            (ax, ay), (bx, by) = legs[leg]
            length = math.hypot(bx - ax, by - ay)
            if s_m <= done + length or leg == len(legs) - 1:
                f = 0.0 if length <= 0 else min(1.0, (s_m - done) / length)
                out.append((ax + f * (bx - ax), ay + f * (by - ay)))
                break
            done += length
            leg += 1
    return out


def predicted_end(pose: Pose, heading: float, distance_m: float, radius_m: float = 0.0) -> Point:
    """The last point of :func:`predicted_track`, where the run ends, by the same operations
    (so the same numbers) without the points before it."""
    delta = math.radians(signed_angle(heading - pose.heading))
    arc = min(distance_m, radius_m * abs(delta)) if radius_m > 0 else 0.0
    h0 = math.radians(pose.heading)
    s_m = stations(distance_m)[-1]
    on_arc = min(s_m, arc)
    if arc <= 0 or not on_arc > 0:
        x, y, sin_h, cos_h = pose.x, pose.y, math.sin(h0), math.cos(h0)
    else:
        x, y, sin_h, cos_h = _along_arc(pose.x, pose.y, h0, on_arc, radius_m, delta)
    rest = max(0.0, s_m - arc)
    return x + rest * sin_h, y + rest * cos_h


def _along_arc(
    x: float, y: float, h: float, on_arc: float, radius_m: float, delta: float
) -> tuple[float, float, float, float]:
    """Position and the heading's sine and cosine after ``on_arc`` metres of a turn."""
    turned = on_arc / radius_m * (1 if delta > 0 else -1)
    # Chord of the arc, along the mean heading.
    chord = 2.0 * radius_m * math.sin(abs(turned) / 2.0)
    mean = h + turned / 2.0
    h = h + turned
    return x + chord * math.sin(mean), y + chord * math.cos(mean), math.sin(h), math.cos(h)


def as_points(points: Sequence[Point] | Points) -> Points:
    """Points as an ``(n, 2)`` float array."""
    return np.asarray(points, dtype=np.float64).reshape(-1, 2)


def steer_clear(
    poses: Sequence[Pose],
    wanted: float,
    distance_m: float,
    obstacles: Sequence[Point] | Points,
    radius_m: float = 0.0,
) -> float:
    """The first heading of ``wanted + OFFSETS`` on which no ship starting at ``poses`` runs
    within :data:`CLEARANCE_M` of an obstacle point, unless moving away from it; else ``wanted``
    (:func:`first_clear`).
    """
    found = first_clear(poses, wanted, distance_m, obstacles, radius_m)
    return wanted if found is None else found


def first_clear(
    poses: Sequence[Pose],
    wanted: float,
    distance_m: float,
    obstacles: Sequence[Point] | Points,
    radius_m: float = 0.0,
) -> float | None:
    """The first heading of ``wanted + OFFSETS`` on which no ship starting at ``poses`` runs
    within :data:`CLEARANCE_M` of an obstacle point, unless moving away from it; ``None`` when
    every heading does.

    Only obstacles a ship can reach this move are looked at. The wanted heading is tried first
    by the exact test alone (:func:`_clear_exactly`: a division is often clear on it). Else every
    heading's tracks are laid out at once (:func:`track_grid`) and measured against the
    obstacles (:func:`_near_misses`); only a heading whose verdict is in doubt is looked at again
    with the exact tracks of :func:`predicted_track` and :func:`math.hypot`. Inputs are finite.
    """
    obs = as_points(obstacles)
    if not len(obs):
        return wanted
    headings = [norm360(wanted + offset) for offset in OFFSETS]
    here = as_points([(p.x, p.y) for p in poses])
    now = np.hypot(here[:, 0, None] - obs[:, 0], here[:, 1, None] - obs[:, 1])  # (ships, obs)
    # No point of a run lies further from its start than the run is long: obstacles further off
    # than that and the clearance cannot be reached (a metre spare for rounding).
    reach = now < CLEARANCE_M + abs(distance_m) + 1.0
    if not reach.any():
        return headings[0]
    rows, cols = np.flatnonzero(reach.any(axis=1)), np.flatnonzero(reach.any(axis=0))
    ships = [poses[i] for i in rows.tolist()]
    obs = obs[cols]
    if _clear_exactly(ships, headings[0], distance_m, radius_m, obs.tolist()):
        # A division clear on the heading it wants: one exact look settles it, with no arrays.
        return headings[0]
    now = now[np.ix_(rows, cols)]
    xs, ys = track_grid(ships, headings, distance_m, radius_m)
    surely, maybe = _near_misses(xs, ys, obs, now)
    for i, heading in enumerate(headings):
        if surely[i]:
            continue
        if not maybe[i].any() or not _runs_close(
            ships, heading, distance_m, radius_m, obs, maybe[i]
        ):
            return heading
    return None


def least_close(
    poses: Sequence[Pose],
    wanted: float,
    distance_m: float,
    obstacles: Sequence[Point] | Points,
    radius_m: float = 0.0,
) -> float:
    """Of ``wanted + OFFSETS``, the heading whose tracks keep the division's ships farthest
    from the nearest obstacle point (the first such in the order of preference): the way out
    for ships already inside :data:`CLEARANCE_M` of a coast, where every heading runs nearer
    some point of it."""
    obs = as_points(obstacles)
    headings = [norm360(wanted + offset) for offset in OFFSETS]
    if not len(obs):
        return headings[0]
    xs, ys = track_grid(poses, headings, distance_m, radius_m)
    dx, dy = xs[..., None] - obs[:, 0], ys[..., None] - obs[:, 1]
    nearest = np.sqrt((dx * dx + dy * dy).min(axis=(1, 2, 3)))
    return headings[int(np.argmax(nearest))]


def _clear_exactly(
    poses: Sequence[Pose],
    heading: float,
    distance_m: float,
    radius_m: float,
    obstacles: Sequence[Sequence[float]],
) -> bool:
    """Whether no ship's exact track on ``heading`` (:func:`predicted_track`) comes within
    :data:`CLEARANCE_M` of an obstacle point and closer to it than the ship is now: the plain
    loop's verdict on one heading, every pair measured with :func:`math.hypot`."""
    for pose in poses:
        near = [(ox, oy, math.hypot(pose.x - ox, pose.y - oy)) for ox, oy in obstacles]
        for x, y in predicted_track(pose, heading, distance_m, radius_m):
            for ox, oy, now in near:
                gap = math.hypot(x - ox, y - oy)
                if gap < CLEARANCE_M and gap < now:
                    return False
    return True


def _near_misses(xs: Points, ys: Points, obs: Points, now: Points) -> tuple[list[bool], Mask]:
    """For track points ``xs``, ``ys`` (headings, ships, points), obstacles ``obs`` and the
    ships' present distances ``now`` to them: which headings surely run too close, and which
    (ship, point, obstacle) of each heading may.

    A pair runs too close when its distance is below both :data:`CLEARANCE_M` and ``now``. The
    limits are widened (``maybe``) or narrowed (``surely``) by :data:`_SLACK` and
    :data:`_SLACK_M`, so that the last-bit differences of the array arithmetic cannot put a pair
    on the wrong side: ``surely`` holds only where the exact test would refuse the heading, and
    ``maybe`` holds wherever it could.
    """
    dx, dy = xs[..., None] - obs[:, 0], ys[..., None] - obs[:, 1]
    gap2 = dx * dx + dy * dy  # (headings, ships, points, obstacles)
    outer = np.minimum(now * (1.0 + _SLACK) + _SLACK_M, CLEARANCE_M + _SLACK_M)
    inner = np.maximum(np.minimum(now * (1.0 - _SLACK) - _SLACK_M, CLEARANCE_M - _SLACK_M), 0.0)
    surely = cast(list[bool], (gap2 < (inner * inner)[:, None, :]).any(axis=(1, 2, 3)).tolist())
    return surely, gap2 < (outer * outer)[:, None, :]


def _runs_close(
    poses: Sequence[Pose],
    heading: float,
    distance_m: float,
    radius_m: float,
    obs: Points,
    maybe: Mask,
) -> bool:
    """Whether a ship's exact track on ``heading`` comes within :data:`CLEARANCE_M` of an
    obstacle and closer to it than the ship is now, trying only the ``maybe`` pairs (a
    ``(ships, points, obstacles)`` mask)."""
    tracks: dict[int, list[Point]] = {}
    for s, k, m in np.argwhere(maybe).tolist():
        pose = poses[s]
        if s not in tracks:
            tracks[s] = predicted_track(pose, heading, distance_m, radius_m)
        (x, y), (ox, oy) = tracks[s][k], obs[m].tolist()
        gap = math.hypot(x - ox, y - oy)
        if gap < CLEARANCE_M and gap < math.hypot(pose.x - ox, pose.y - oy):
            return True
    return False


@functools.lru_cache(maxsize=1024)
def stations(distance_m: float) -> tuple[float, ...]:
    """How far along a run of ``distance_m`` its predicted points lie, in order (cached: a pure
    function of one float; runs repeat from ship to ship and turn to turn)."""
    return tuple(sorted({min(FIRST_LOOK_M, distance_m), *(distance_m * f for f in FRACTIONS)}))


def track_grid(
    poses: Sequence[Pose], headings: Sequence[float], distance_m: float, radius_m: float = 0.0
) -> tuple[Points, Points]:
    """:func:`predicted_track` of every ship on every heading at once: the points' ``x`` and
    ``y``, each an array of shape ``(headings, ships, points)``.

    The same formulae with ``numpy``'s sines, which may differ from :mod:`math`'s in the last
    bit: good to a small fraction of a millimetre, not bit for bit (see :data:`_SLACK_M`). The
    turn's direction is decided exactly as in :func:`predicted_track` (``%`` on arrays is
    Python's ``%``), so a track never swings to the other side.
    """
    x0, y0, course = np.array([(p.x, p.y, p.heading) for p in poses], dtype=np.float64).T
    h0 = np.radians(course)[:, None]  # (ships, 1)
    at = np.array(stations(distance_m))  # (points,)
    turn = np.subtract.outer(np.array(headings, dtype=np.float64), course) % 360.0
    turn[turn == 360.0] = 0.0
    turn[turn > 180.0] -= 360.0
    delta = np.radians(turn)[:, :, None]  # (headings, ships, 1)
    if radius_m > 0:
        arc = np.minimum(distance_m, radius_m * np.abs(delta))
        turned = np.copysign(np.minimum(at, arc) / radius_m, delta)  # (headings, ships, points)
    else:
        arc = np.zeros_like(delta)
        turned = np.zeros(delta.shape[:2] + at.shape)
    chord = (2.0 * radius_m) * np.sin(np.abs(turned) / 2.0)
    mean = h0 + turned / 2.0
    h = h0 + turned
    rest = np.maximum(0.0, at - arc)
    x = x0[:, None] + chord * np.sin(mean) + rest * np.sin(h)
    y = y0[:, None] + chord * np.cos(mean) + rest * np.cos(h)
    return x, y


class ObstacleTable:
    """Every ship's position now and where it looks likely to be after the move, kept for one
    command phase: ships not yet planned straight on at their last move (``default_run_m`` when
    unknown), a division once planned along its planned course (:meth:`plan`).

    The points are one ``(ships, TRACK_POINTS + 1, 2)`` array, built at the first look and
    updated in place as divisions are planned; a shorter track is padded by repeating the ship's
    present position, which changes no clearance test.
    """

    def __init__(
        self, poses: Mapping[str, Pose], runs: Mapping[str, float], default_run_m: float
    ) -> None:
        self._poses = poses
        self._runs = runs
        self._default = default_run_m
        self._names = list(poses)
        self._index = {n: i for i, n in enumerate(self._names)}
        self._planned: dict[str, list[Point]] = {}
        self._blocks: Points | None = None

    def _block(self, name: str) -> list[Point]:
        pose = self._poses[name]
        track = self._planned.get(name)
        if track is None:
            track = predicted_track(pose, pose.heading, self._runs.get(name, self._default))
        here = (pose.x, pose.y)
        return [here, *track, *[here] * (TRACK_POINTS - len(track))]

    def plan(self, ship: str, track: list[Point]) -> None:
        """Take ``ship`` to follow ``track`` from now on."""
        self._planned[ship] = track
        if self._blocks is not None and ship in self._index:
            self._blocks[self._index[ship]] = self._block(ship)

    def around(self, ships: Iterable[str]) -> Points:
        """The obstacle points for a division of ``ships``: every other ship's."""
        if self._blocks is None:
            self._blocks = np.array([self._block(n) for n in self._names], dtype=np.float64)
            self._blocks = self._blocks.reshape(len(self._names), TRACK_POINTS + 1, 2)
        keep = np.ones(len(self._names), dtype=bool)
        for ship in ships:
            if ship in self._index:
                keep[self._index[ship]] = False
        return self._blocks[keep].reshape(-1, 2)


# -- after a collision, and dropping out -------------------------------------------------


#: After a collision the ship struck must lie at least this far off the bow, degrees.
COLLISION_CLEAR_DEG = 100.0


def clear_of_collision(
    picture: Picture, pairs: Sequence[tuple[str, str]], wanted: float | None
) -> float | None:
    """A heading that puts the ship each own ship struck last turn abaft her beam, nearest
    ``wanted`` (or her present heading); ``None`` when every such ship already lies clear.

    Ships that collided stop (BF6 collisions); if both then steam on as before, a ship with the
    other under her bow runs into her again. Turning until the other lies at least
    :data:`COLLISION_CLEAR_DEG` off the bow parts them.
    """
    if not pairs:
        return None
    base = picture.poses[pairs[0][0]].heading if wanted is None else wanted
    # The bearing of each ship struck from her own ship, worked out once for every heading tried.
    bearings = [
        bearing(here.x, here.y, there.x, there.y)
        for here, there in ((picture.poses[a], picture.poses[b]) for a, b in pairs)
    ]

    def clear(heading: float) -> bool:
        return all(abs(signed_angle(b - heading)) >= COLLISION_CLEAR_DEG for b in bearings)

    if clear(base):
        return None
    options = [norm360(base + d) for d in range(-180, 180, 5)]
    fine = [h for h in options if clear(h)]
    if not fine:
        return None
    return min(fine, key=lambda h: (abs(signed_angle(h - base)), h))


#: A ship that made less than this after a collision is jammed against the other, metres.
JAMMED_MOVE_M = 100.0


def pinned(
    picture: Picture, pairs: Sequence[tuple[str, str]], last_moves: Mapping[str, float]
) -> bool:
    """Whether a ship of these collisions is jammed with the ship she struck forward of her
    beam (she made less than :data:`JAMMED_MOVE_M` since) while she lies abaft the other's
    beam: the other can steam clear, and any move of hers, even the first metres of a turn,
    runs into the other again."""
    for own, other in pairs:
        here, there = picture.poses[own], picture.poses[other]
        if last_moves.get(own, math.inf) >= JAMMED_MOVE_M:
            continue
        ahead = abs(signed_angle(bearing(here.x, here.y, there.x, there.y) - here.heading))
        behind = abs(signed_angle(bearing(there.x, there.y, here.x, here.y) - there.heading))
        if ahead < COLLISION_CLEAR_DEG and behind >= COLLISION_CLEAR_DEG:
            return True
    return False


def drop_side(picture: Picture, division: Division, ship: str, preferred: str) -> str:
    """The side a ship drops out to: ``preferred`` (away from the enemy) unless a ship of her
    own division lies nearer on that beam than on the other (line abreast or echelon), so that
    she does not turn out into her neighbour."""
    here = picture.poses[ship]
    near = {"P": math.inf, "S": math.inf}
    for other in division.ships:
        if other == ship or other not in picture.poses:
            continue
        there = picture.poses[other]
        rel = signed_angle(here.bearing_to(there.x, there.y))
        if 30.0 <= abs(rel) <= 150.0:
            key = "S" if rel > 0 else "P"
            near[key] = min(near[key], here.distance_to(there))
    other_side = "S" if preferred == "P" else "P"
    if near[preferred] < near[other_side]:
        return other_side
    return preferred


def steering_lead(picture: Picture, division: Division, alive: Sequence[str]) -> str:
    """The ship a division's orders are judged from: its leader, unless her rudder is jammed
    (JP/JS) and another of its ships still steers, then the first such ship.

    A leader circling on a jammed rudder goes nowhere the orders say, and a turn together
    reckoned from her heading sends the rest of the line off at random: at Tsushima Kamimura's
    five followers had steamed into the Russian line at 1-3 km that way, Izumo circling 5 km
    astern of them (issue 12).
    """
    lead = division.lead
    if forced_turn(picture.own[lead].log) == 0:
        return lead
    free = [s for s in alive if forced_turn(picture.own[s].log) == 0]
    return free[0] if free else lead


__all__ = [
    "CLEARANCE_M",
    "COLLISION_CLEAR_DEG",
    "JAMMED_MOVE_M",
    "OFFSETS",
    "TRACK_POINTS",
    "ObstacleTable",
    "as_points",
    "clear_of_collision",
    "drop_side",
    "first_clear",
    "least_close",
    "pinned",
    "predicted_end",
    "predicted_track",
    "steer_clear",
    "steering_lead",
    "wake_track",
]
