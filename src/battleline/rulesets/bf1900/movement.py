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

This module holds the speed allowance; turning circles and tracks are
:mod:`~battleline.rulesets.bf1900.tracks`, collisions and groundings
:mod:`~battleline.rulesets.bf1900.collisions`. Every name it held before stays importable here.
"""

from __future__ import annotations

import bisect
import math

from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.collisions import (
    BROAD_SLACK_M,
    Contact,
    emit_contacts,
)

# importable here as before the split
from battleline.rulesets.bf1900.collisions import _Sweep as _Sweep
from battleline.rulesets.bf1900.easing import resolve_tracks
from battleline.rulesets.bf1900.pose_grid import grid_poses, track_poses
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.tracks import (
    ARC_STEP_DEG,
    EPS_M,
    Leg,
    Track,
    apply_steering,
    forced_turn,
    stay,
    trace,
    turn_radius_m,
)

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


# Every name this module held before it was split stays importable from here.
__all__ = [
    "ARC_STEP_DEG",
    "BROAD_SLACK_M",
    "EPS_M",
    "SPEED_RESOLUTION_KN",
    "Contact",
    "Leg",
    "Track",
    "allowance_at",
    "apply_steering",
    "box_distances_m",
    "check_move",
    "emit_contacts",
    "forced_turn",
    "grid_poses",
    "move_allowance_m",
    "reached_m",
    "resolve_tracks",
    "stay",
    "trace",
    "track_poses",
    "turn_radius_m",
]
