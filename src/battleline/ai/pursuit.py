"""Pursuit: how far off the bearing a battle line steers while it closes the range.

A line that closes does so obliquely, :data:`CLOSE_ANGLE_DEG` off the bearing, so that its
broadside guns keep bearing. Against an enemy who is running away, that course may not close at
all: at 40° off, a 20-knot squadron gains only 15 knots along the bearing, and an 18-knot enemy
steaming straight away opens the range. A period admiral with the stronger squadron then
steered for the enemy if he could catch him (Kamimura closing from 8 to about 5.5 km on
Jessen's cruisers off Ulsan, 14 August 1904, while Rurik fell behind). One who was not the
stronger kept his distance and let him go (Togo at the Yellow Sea, who would not risk Japan's
only battleships to finish a squadron with more of them), and a stern chase of a faster enemy
gains nothing but the loss of the broadside.

Everything here reads only an admiral's :class:`~battleline.ai.picture.Picture`.
"""

from __future__ import annotations

import math

from battleline.ai.picture import Picture, fire_balance
from battleline.engine.geometry import bearing, signed_angle

#: A closing line steers this far off the bearing, guns bearing, degrees.
CLOSE_ANGLE_DEG = 40.0
#: A line pursues only when its own visible weight of fire is at least this many times the
#: enemy's (reconstructed: the same margin at which a side with an objective breaks off).
PURSUE_RATIO = 1.25
#: In a pursuit the line gains at least this share of its own run along the bearing each move
#: (reconstructed: about two knots for a 20-knot squadron).
PURSUE_GAIN = 0.1


def opening_run_m(picture: Picture, lead: str, enemy: str, enemy_run_m: float) -> float:
    """How far ``enemy`` draws away from ``lead`` along the bearing this move, metres, at her
    seen heading and ``enemy_run_m`` (negative when she comes closer)."""
    here = picture.poses[lead]
    to_enemy = bearing(here.x, here.y, *picture.funnels[enemy])
    off = math.radians(signed_angle(picture.poses[enemy].heading - to_enemy))
    return enemy_run_m * math.cos(off)


def pursuit_angles(
    picture: Picture, lead: str, enemy: str, run_m: float, enemy_run_m: float | None
) -> tuple[float, float] | None:
    """``(closing, holding)``: degrees off the bearing at which the line led by ``lead`` closes
    on ``enemy`` in a pursuit, and at which it keeps the range; ``None`` when this is no
    pursuit.

    It is one when the scenario has the side pursue (``[[sides]] pursue``), the side outguns
    the enemy in sight by :data:`PURSUE_RATIO` and the enemy is seen drawing away, but slower
    than the line can steam. The line then closes as far off the
    bearing as still gains :data:`PURSUE_GAIN` of its own run (``run_m``) along it (at most
    :data:`CLOSE_ANGLE_DEG`; straight for her when even that gain is out of reach), and at the
    range it wants it steers as far off as keeps pace with her, instead of turning beam-on and
    dropping astern.
    """
    if not picture.view.pursue or enemy_run_m is None or run_m <= 0.0:
        return None
    if fire_balance(picture) * PURSUE_RATIO > 1.0:
        return None
    away = opening_run_m(picture, lead, enemy, enemy_run_m)
    if away <= 0.0 or away >= run_m:
        # Coming on, or drawing away faster than the line can steam: a stern chase would only
        # give up the broadside.
        return None
    need = (away + PURSUE_GAIN * run_m) / run_m
    closing = 0.0 if need >= 1.0 else min(CLOSE_ANGLE_DEG, math.degrees(math.acos(need)))
    holding = math.degrees(math.acos(min(1.0, away / run_m)))
    return closing, holding


__all__ = [
    "CLOSE_ANGLE_DEG",
    "PURSUE_GAIN",
    "PURSUE_RATIO",
    "opening_run_m",
    "pursuit_angles",
]
