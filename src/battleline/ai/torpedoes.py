"""The admiral's torpedo launches (BF6-TORP-02..10): launch when a worthwhile target is, by eye,
well inside range. Reads only the admiral's :class:`~battleline.ai.picture.Picture`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import cast

import numpy as np

from battleline.ai.picture import Picture, is_flotilla
from battleline.ai.steering import predicted_end, predicted_track, track_grid
from battleline.ai.tactics import LAUNCH_FRACTION
from battleline.engine.geometry import Pose, bearing, in_arc, norm360, signed_angle
from battleline.errors import BattlelineError
from battleline.rulesets.bf1900.arcs import Arc
from battleline.rulesets.bf1900.ship import TorpedoMount
from battleline.rulesets.bf1900.torpedoes import (
    TorpedoLaunch,
    launch_arcs,
    runs_shallow,
    validate_launches,
)
from battleline.rulesets.bf1900.view import Contact, OwnShip


def _in_arcs(theta: float, arcs: Sequence[Arc]) -> bool:
    """True if relative bearing ``theta`` lies in any of ``arcs`` (as :func:`bearing_arc`)."""
    return any(in_arc(theta, *arc) for arc in arcs)


def _torpedo_targets(picture: Picture, ship: OwnShip, targets: Sequence[Contact]) -> list[Contact]:
    """The targets worth a ship's torpedoes, biggest then nearest first: only ships larger than
    size 4 unless its torpedoes run shallow (BF6-TORP-06/07)."""
    shallow = runs_shallow(ship.log.cls)
    return sorted(
        (c for c in targets if shallow or c.size > 4),
        key=lambda c: (-c.size, picture.seen_m(ship.name, c.name), c.name),
    )


def _salvo(ship: OwnShip, mount: TorpedoMount, left: int) -> int:
    """Torpedoes in one launch: a flotilla fires a beam mount's side or all a mount has left; a
    big ship one at a time."""
    flotilla = is_flotilla(ship.type)
    if mount.position == "beam":
        count = math.ceil(mount.tubes / 2) if flotilla else 1
    else:
        count = left if flotilla else 1
    return min(count, left)


def launch_plan(picture: Picture, eye: Callable[[float], float]) -> list[TorpedoLaunch]:
    """Launches at the best target each loaded mount bears on and, by eye, can reach.

    Each target's relative bearing is worked out once per ship and each mount's arcs once, not
    once per (mount, target) pair; ``eye`` is asked (and so draws from the admiral's generator)
    only for a target in arc, in the order of mounts and targets.
    """
    launches: list[TorpedoLaunch] = []
    contacts = picture.targets()
    poses = picture.poses
    for ship in picture.able():
        left_of = ship.log.torpedoes_left
        loaded = [(m, left_of.get(m.key, 0)) for m in ship.log.cls.torpedoes]
        loaded = [(m, left) for m, left in loaded if left > 0]
        targets = _torpedo_targets(picture, ship, contacts) if loaded else []
        if not targets:
            continue
        here = ship.pose
        # Torpedo craft fire at any range that looks within reach: the umpire refuses a launch
        # that is really out of range, and the boat may not live to close further. A big ship
        # keeps her torpedoes for a target well inside range.
        flotilla = is_flotilla(ship.type)
        reach_fraction = FLOTILLA_LAUNCH_FRACTION if flotilla else LAUNCH_FRACTION
        there = [poses[c.name] for c in targets]
        thetas = [here.bearing_to(p.x, p.y) for p in there]
        for mount, left in loaded:
            arcs = launch_arcs(mount)
            for c, pose, theta in zip(targets, there, thetas, strict=True):
                if not _in_arcs(theta, arcs):
                    continue
                reach = mount.range_m * reach_fraction
                if eye(here.distance_to(pose)) > (reach if flotilla else min(reach, CLOSE_M)):
                    continue
                launches.append(
                    TorpedoLaunch(ship.name, mount.key, c.name, _salvo(ship, mount, left))
                )
                break
    return legal_launches(picture, launches)


#: Torpedo craft launch at a target that looks within this fraction of the torpedo range.
FLOTILLA_LAUNCH_FRACTION = 1.0
#: A big ship keeps her torpedoes for close quarters: a target that looks within this many
#: metres (reconstructed, issue 12). The battleships and cruisers of 1894-1905 carried tubes for
#: a melee; at longer range a torpedo on its slow setting ran for minutes and was easily
#: avoided, and in the fleet actions of the period no big ship's torpedo is known to have hit.
CLOSE_M = 1500.0
#: Headings an attack run tries, degrees apart.
RUN_STEP_DEG = 5
#: A flotilla aims to end its move this far into its torpedo range (reconstructed): near enough
#: that an error of the eye does not put the target out of range, far enough not to ram her.
RUN_FRACTION = 0.7
#: ... and never nearer than this, metres.
RUN_MIN_M = 450.0
#: An attack run keeps its boats this far from every enemy ship on the way, metres (funnel to
#: the ship's seen position; reconstructed): a boat that runs into a ship at anchor stops under
#: her guns (BF6-COL), which no torpedo-boat captain would choose.
CLEAR_M = 250.0


def attack_run(
    picture: Picture,
    ships: Sequence[str],
    target: str,
    run_m: Mapping[str, float],
    radius_m: float,
    target_run_m: float,
) -> float:
    """The heading for a flotilla's attack run on ``target`` (BF6-TORP-02..10).

    Every heading is tried. Each ship's move (``run_m``) is predicted, turning circle first and
    then straight on (:func:`~battleline.ai.steering.predicted_track`), against where the target
    will be when she has run ``target_run_m`` on her seen heading. The heading that leaves most
    ships with the target in the arc of a loaded mount, within :data:`RUN_FRACTION` of its
    range and no nearer than :data:`RUN_MIN_M`, wins; the least turn among equals. When no
    heading gets a ship there this move, the run makes for the point :data:`RUN_FRACTION` of
    torpedo range from where the target will be: an interception course, not a chase of her
    wake. Headings whose track passes within :data:`CLEAR_M` of an enemy ship come last (fewest
    such boats first).
    """
    aim = picture.poses[target]
    tx, ty = picture.funnels[target]
    h = math.radians(aim.heading)
    tx, ty = tx + target_run_m * math.sin(h), ty + target_run_m * math.cos(h)
    mounts = {
        s: [
            (launch_arcs(m), m.range_m)
            for m in picture.own[s].log.cls.torpedoes
            if picture.own[s].log.torpedoes_left.get(m.key, 0) > 0
        ]
        for s in ships
    }
    lead = picture.poses[ships[0]]
    reach = max((r for ms in mounts.values() for _, r in ms), default=0.0)
    best: tuple[float, float, float, float] | None = None
    best_heading = lead.heading
    enemies = [c.pose for c in picture.targets()]
    headings = [norm360(lead.heading + step) for step in range(0, 360, RUN_STEP_DEG)]
    poses = picture.poses
    ends = {s: [predicted_end(poses[s], h, run_m[s], radius_m) for h in headings] for s in ships}
    fouls = {s: foul_headings(poses[s], headings, run_m[s], radius_m, enemies) for s in ships}
    for i, heading in enumerate(headings):
        ready, miss, foul = 0, 0.0, 0
        for s in ships:
            foul += fouls[s][i]
            end = ends[s][i]
            d = math.dist(end, (tx, ty))
            theta = norm360(bearing(end[0], end[1], tx, ty) - heading)
            if any(
                RUN_MIN_M <= d <= RUN_FRACTION * r and _in_arcs(theta, arcs)
                for arcs, r in mounts[s]
            ):
                ready += 1
            miss += abs(d - max(RUN_MIN_M, RUN_FRACTION * reach))
        score = (
            float(foul),
            -float(ready),
            miss if not ready else 0.0,
            abs(signed_angle(heading - lead.heading)),
        )
        if best is None or score < best:
            best, best_heading = score, heading
    return best_heading


#: Slack of the array test in :func:`foul_headings`, metres: far above the last-bit differences
#: between :func:`~battleline.ai.steering.track_grid` and the exact tracks, far below anything a
#: boat could notice.
_SLACK_M = 1e-6


def foul_headings(
    pose: Pose,
    headings: Sequence[float],
    run_m: float,
    radius_m: float,
    enemies: Sequence[Pose],
) -> list[bool]:
    """For each heading, whether the boat's track on it passes within :data:`CLEAR_M` of an
    enemy ship: ``any(math.hypot(x - e.x, y - e.y) < CLEAR_M ...)`` over the points of
    :func:`~battleline.ai.steering.predicted_track` and the enemies.

    Every heading's track is laid out at once (:func:`~battleline.ai.steering.track_grid`,
    good to a small fraction of a millimetre) and its squared distances to every enemy taken
    in one ``numpy`` pass; they settle every heading but one with a point within
    :data:`_SLACK_M` of the limit, whose exact track is then measured with :func:`math.hypot`.
    The answers are those of the plain loop.
    """
    if not enemies:
        return [False] * len(headings)
    xs, ys = track_grid([pose], headings, run_m, radius_m)  # (headings, 1, points)
    there = np.array([(e.x, e.y) for e in enemies], dtype=np.float64)
    dx = xs[:, 0, :, None] - there[:, 0]
    dy = ys[:, 0, :, None] - there[:, 1]
    gap2 = dx * dx + dy * dy  # (headings, points, enemies)
    inner, outer = (CLEAR_M - _SLACK_M) ** 2, (CLEAR_M + _SLACK_M) ** 2
    surely = cast(list[bool], (gap2 < inner).any(axis=(1, 2)).tolist())
    maybe = cast(list[bool], (gap2 < outer).any(axis=(1, 2)).tolist())
    return [
        sure
        or (
            close
            and any(
                math.hypot(x - e.x, y - e.y) < CLEAR_M
                for x, y in predicted_track(pose, heading, run_m, radius_m)
                for e in enemies
            )
        )
        for heading, sure, close in zip(headings, surely, maybe, strict=True)
    ]


def legal_launches(picture: Picture, launches: Sequence[TorpedoLaunch]) -> list[TorpedoLaunch]:
    """The launches the rules accept on the table as seen; a refused salvo is cut to one.

    Each launch is checked with the launches already kept *for the same firer* only:
    :func:`validate_launches` lets earlier launches count against a later one only by the same
    firer (its tubes and its sides), so the answer is the one the whole list ``[*kept, launch]``
    would give.
    """
    kept: list[TorpedoLaunch] = []
    by_firer: dict[str, list[TorpedoLaunch]] = {}
    for launch in launches:
        mine = by_firer.setdefault(launch.firer, [])
        for attempt in (launch, TorpedoLaunch(launch.firer, launch.mount, launch.target, 1)):
            try:
                validate_launches([*mine, attempt], picture.poses, picture.logs, picture.scale, ())
            except BattlelineError:
                continue
            mine.append(attempt)
            kept.append(attempt)
            break
    return kept


__all__ = [
    "CLEAR_M",
    "CLOSE_M",
    "FLOTILLA_LAUNCH_FRACTION",
    "RUN_FRACTION",
    "RUN_MIN_M",
    "RUN_STEP_DEG",
    "attack_run",
    "foul_headings",
    "launch_plan",
    "legal_launches",
]
