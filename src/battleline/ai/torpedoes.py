"""The admiral's torpedo launches (BF6-TORP-02..10): launch when a worthwhile target is, by eye,
well inside range. Reads only the admiral's :class:`~battleline.ai.picture.Picture`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from battleline.ai.picture import Picture, is_flotilla
from battleline.ai.tactics import LAUNCH_FRACTION
from battleline.errors import BattlelineError
from battleline.rulesets.bf1900.torpedoes import (
    TorpedoLaunch,
    bearing_arc,
    runs_shallow,
    validate_launches,
)


def launch_plan(picture: Picture, eye: Callable[[float], float]) -> list[TorpedoLaunch]:
    """Launches at the best target each loaded mount bears on and, by eye, can reach."""
    launches: list[TorpedoLaunch] = []
    for ship in picture.able():
        log = ship.log
        shallow = runs_shallow(log.cls)
        targets = sorted(
            (c for c in picture.targets() if shallow or c.size > 4),
            key=lambda c: (-c.size, picture.seen_m(ship.name, c.name), c.name),
        )
        for mount in log.cls.torpedoes:
            left = log.torpedoes_left.get(mount.key, 0)
            if left <= 0:
                continue
            for c in targets:
                there = picture.poses[c.name]
                if bearing_arc(mount, ship.pose.bearing_to(there.x, there.y)) is None:
                    continue
                if eye(ship.pose.distance_to(there)) > mount.range_m * LAUNCH_FRACTION:
                    continue
                flotilla = is_flotilla(ship.type)
                if mount.position == "beam":
                    count = math.ceil(mount.tubes / 2) if flotilla else 1
                else:
                    count = left if flotilla else 1
                launches.append(TorpedoLaunch(ship.name, mount.key, c.name, min(count, left)))
                break
    return legal_launches(picture, launches)


def legal_launches(picture: Picture, launches: Sequence[TorpedoLaunch]) -> list[TorpedoLaunch]:
    """The launches the rules accept on the table as seen; a refused salvo is cut to one."""
    kept: list[TorpedoLaunch] = []
    for launch in launches:
        for attempt in (launch, TorpedoLaunch(launch.firer, launch.mount, launch.target, 1)):
            try:
                validate_launches([*kept, attempt], picture.poses, picture.logs, picture.scale, ())
            except BattlelineError:
                continue
            kept.append(attempt)
            break
    return kept


__all__ = [
    "launch_plan",
    "legal_launches",
]
