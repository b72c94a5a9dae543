"""Moving every ship at once, with two ships that lie against each other eased apart.

:func:`resolve_tracks` is the Movement Phase's contact rule (collisions and groundings,
``docs/rules-gaps/scales-and-movement.md``): the sweep of :func:`~battleline.rulesets.bf1900.
collisions.sweep_tracks`, with a pair whose bases lie against each other at the start of the
move (as a collision leaves them) not tested against each other unless they would end it
overlapping, and then with the one that has the other under her bow giving way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import shapely
from shapely import STRtree

from battleline.engine.geometry import Pose, bearing, signed_angle
from battleline.rulesets.bf1900.collisions import Contact, sweep_tracks
from battleline.rulesets.bf1900.table import Land, footprint, footprints
from battleline.rulesets.bf1900.tracks import Track

#: Two bases this close at the start of a move lie against each other (ships that collided stop
#: a sub-step short of contact, at most a third of the narrowest base apart), metres beyond that.
ALONGSIDE_M = 1.0


def resolve_tracks(
    tracks: Mapping[str, Track],
    sizes: Mapping[str, tuple[float, float]],
    land: Sequence[Land],
    stationary: Mapping[str, Pose],
) -> tuple[dict[str, Track], list[Contact]]:
    """Move every ship together and stop it at its first contact with land or another base
    (:func:`sweep_tracks`), easing apart two ships that lie against each other at the start.

    A ship that ran into another stops a sub-step short of her; with bases a model long and
    turning circles a few base lengths across, she could then never turn clear of a ship under
    her bow without her base sweeping over the other's, and two such ships stayed jammed for the
    rest of the game. So a pair lying against each other at the start (:func:`lying_against`)
    is not tested against each other during the move, as a pair already touching is not,
    unless the two would end it overlapping: then the move is swept again with that pair tested
    as usual. (A digital adaptation: the seeds have no collision rule; at the table the players
    would ease the models apart.)
    """
    eased = lying_against(tracks, sizes, stationary)
    held: dict[str, Track] = {}  # ships that give way: they keep their place this move
    while True:
        moves = {**tracks, **held}
        out, contacts = sweep_tracks(moves, sizes, land, stationary, eased)
        poses = {n: out[n].end if n in out else stationary[n] for n in (*moves, *stationary)}
        stuck = {pair for pair in eased if _overlap(poses, sizes, *pair)}
        if not stuck:
            return out, contacts
        for a, b in sorted(stuck):
            giver = _gives_way(moves, stationary, a, b)
            if giver is None or giver in held:
                eased.discard((a, b))
            else:
                held[giver] = moves[giver].cut(0.0)


def _gives_way(
    tracks: Mapping[str, Track], stationary: Mapping[str, Pose], a: str, b: str
) -> str | None:
    """Of two ships lying against each other that would end the move overlapping, the one that
    gives way and keeps her place while the other steams clear: of those under way, the one
    with the other nearer dead ahead, if forward of her beam. ``None`` when neither has."""
    start = {n: tracks[n].start if n in tracks else stationary[n] for n in (a, b)}

    def off_bow(own: str, other: str) -> float:
        here, there = start[own], start[other]
        return abs(signed_angle(bearing(here.x, here.y, there.x, there.y) - here.heading))

    under_way = [
        (off_bow(own, other), own)
        for own, other in ((a, b), (b, a))
        if own in tracks and tracks[own].length_m > 0
    ]
    if not under_way:
        return None
    angle, giver = min(under_way)
    return giver if angle < 90.0 else None


def _overlap(
    poses: Mapping[str, Pose], sizes: Mapping[str, tuple[float, float]], a: str, b: str
) -> bool:
    """Whether the bases of ships ``a`` and ``b`` overlap at ``poses``."""
    return bool(footprint(poses[a], *sizes[a]).intersects(footprint(poses[b], *sizes[b])))


def lying_against(
    tracks: Mapping[str, Track],
    sizes: Mapping[str, tuple[float, float]],
    stationary: Mapping[str, Pose],
) -> set[tuple[str, str]]:
    """Pairs of ships (names in order) whose bases lie within a sub-step (a third of the
    narrowest base, and :data:`ALONGSIDE_M`) of each other at the start of the move without
    touching, at least one of them moving."""
    names = sorted(set(tracks) | set(stationary))
    if len(names) < 2 or not any(t.length_m > 0 for t in tracks.values()):
        return set()
    starts = [tracks[n].start if n in tracks else stationary[n] for n in names]
    lengths = np.array([sizes[n][0] for n in names])
    widths = np.array([sizes[n][1] for n in names])
    polys = footprints(
        np.array([p.x for p in starts]),
        np.array([p.y for p in starts]),
        np.array([p.heading for p in starts]),
        lengths,
        widths,
    )
    gap = max(float(widths.min()) / 3.0, 1.0) + ALONGSIDE_M
    a, b = STRtree(polys).query(polys, predicate="dwithin", distance=gap)
    moving = {n for n in tracks if tracks[n].length_m > 0}
    return {
        (names[i], names[j])
        for i, j in zip(a.tolist(), b.tolist(), strict=True)
        if i < j
        and (names[i] in moving or names[j] in moving)
        and not shapely.intersects(polys[i], polys[j])
    }


__all__ = ["ALONGSIDE_M", "lying_against", "resolve_tracks"]
