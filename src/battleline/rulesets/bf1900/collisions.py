"""Collisions and groundings: ships cannot pass through land or other bases, so
:func:`resolve_tracks` moves every ship along its track at once and stops both ships at first
contact, and :func:`emit_contacts` reports each COLLISION or GROUNDING.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import STRtree

from battleline.engine.events import Event, EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.pose_grid import grid_poses
from battleline.rulesets.bf1900.table import Land, footprints
from battleline.rulesets.bf1900.tracks import Track, stay

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
    #: False when only ``ship`` stopped: she ran into ``other``, who steamed on.
    both_stop: bool = True

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
            stop = "both stop" if self.both_stop else f"{self.ship} stops"
            told = f"{self.ship} collides with {self.other}; {stop}"
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

    def runners(self, i: int, j: int, k: int) -> tuple[int, ...]:
        """Of two ships under way whose bases meet at sub-step ``k``, the ones that ran into the
        other: each whose own step from ``k - 1`` to ``k`` carries her base onto the other's
        base as it lay at ``k - 1``. Both when both do, or when neither does alone (they closed
        together). A ship struck from astern or abeam by one that ran into her steams on; she
        is not stopped by a blow she did not make, so a line does not pile up behind a ship that
        ran into the ship ahead."""
        idx = np.array([i, j, i, j], dtype=np.intp)
        at = np.array([k, k - 1, k - 1, k], dtype=np.intp)
        polys = footprints(
            self.x[idx, at], self.y[idx, at], self.h[idx, at], self.lengths[idx], self.widths[idx]
        )
        ran = tuple(
            ship
            for ship, (own, other) in ((i, (0, 1)), (j, (3, 2)))
            if shapely.intersects(polys[own], polys[other])
        )
        return ran if len(ran) == 1 else (i, j)

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


def sweep_tracks(
    tracks: Mapping[str, Track],
    sizes: Mapping[str, tuple[float, float]],
    land: Sequence[Land],
    stationary: Mapping[str, Pose],
    eased: set[tuple[str, str]] | frozenset[tuple[str, str]] = frozenset(),
) -> tuple[dict[str, Track], list[Contact]]:
    """Move every ship together and stop it at its first contact with land or another base.

    All ships move at once, each at an even pace along its own track. A ship whose next step would
    overlap land stops at its last clear position (GROUNDING); two bases that would overlap both
    stop at their last clear positions (COLLISION, naming both ships). ``sizes`` gives every
    ship's (length, width) in metres. Bases already touching at the start are not reported, nor
    are the ``eased`` pairs (names in order). Of two ships under way, only the one that ran into
    the other stops (:meth:`_Sweep.runners`).

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
    touching |= {(index[a], index[b]) for a, b in eased if a in index and b in index}
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
                # The ship still under way is the one that ran into the other; of two under way,
                # the one whose own step carries her into the other (both, if both or neither).
                a_under_way = a_name in moving and a_name not in stopped
                b_under_way = b_name in moving and b_name not in stopped
                runners = sweep.runners(i, j, k) if a_under_way and b_under_way else (i, j)
                first, second = (a_name, b_name) if a_under_way else (b_name, a_name)
                if runners == (j,):
                    first, second = b_name, a_name
                both_stop = len(runners) == 2
                stop = "both stop" if both_stop else f"{first} stops"
                contacts.append(
                    Contact(
                        EventKind.COLLISION,
                        first,
                        second,
                        float(spot.x),
                        float(spot.y),
                        f"{first} collides with {second} at "
                        f"({spot.x:.0f} m, {spot.y:.0f} m); {stop}",
                        both_stop,
                    )
                )
                if both_stop:  # one that ran in alone is tested again, halted, as she lies
                    touching.add((i, j))
                    skip[i, j] = True
                for n in (names[r] for r in runners):
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
