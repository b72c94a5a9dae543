"""The admiral's speed orders: the best legal speed for a division (BF6-MOV-01/03/06), on the
propulsion boxes' own distances so that a rounding error never costs a box (issue 12, item 1).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from battleline.ai.picture import Picture
from battleline.rulesets.bf1900.divisions import Division
from battleline.rulesets.bf1900.movement import allowance_at
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.shiplog import ShipLog

#: A speed order may exceed the limit by this much, metres (floating-point error only).
BOX_TOLERANCE_M = 1e-6
#: A MOVE event gives the distance to 0.1 m, so last turn's move is known to within this.
LAST_MOVE_ROUNDING_M = 0.06


def at_box(log: ShipLog, scale: Scale, last_move_m: float) -> float:
    """Last turn's move as the admiral saw it, put exactly on a propulsion box's distance when
    it is within the event's rounding of one: she made that box's distance, as ordered, so she
    may rise one box above it now (BF6-MOV-03)."""
    boxes = scale.box_distances_m(log.propulsion.speeds)
    box = min(boxes, key=lambda b: abs(b - last_move_m), default=math.inf)
    return box if abs(box - last_move_m) <= LAST_MOVE_ROUNDING_M else last_move_m


def speed_order(
    picture: Picture, division: Division, last_moves: Mapping[str, float], full: bool
) -> list[str]:
    """``SPDn`` at the best legal speed for every ship (BF6-MOV-01/03/06), or none when unsure.

    The limits come from the rules' own
    :func:`~battleline.rulesets.bf1900.movement.move_allowance_m`, with last turn's move as the
    admiral saw its own ships move; a speed that any ship cannot make is never written.
    """
    if not full:
        return []
    lo_all, hi_all, top = 0.0, math.inf, math.inf
    scale = picture.scale
    for ship in division.ships:
        log = picture.own[ship].log
        if ship not in last_moves:
            return []
        last = last_moves[ship]
        knots = log.speed_knots  # read once: worked out afresh on every read
        snapped = at_box(log, scale, last)
        if snapped != last:
            bounds = [allowance_at(log, scale, snapped, knots)]
        else:
            bounds = [
                allowance_at(log, scale, max(0.0, last + d), knots)
                for d in (-LAST_MOVE_ROUNDING_M, 0.0, LAST_MOVE_ROUNDING_M)
            ]
        lo = max(b[0] for b in bounds)
        hi = min(b[1] for b in bounds)
        if hi <= 0.0:
            continue
        lo_all, hi_all = max(lo_all, lo), min(hi_all, hi)
        top = min(top, scale.knots_to_m_per_turn(knots))
    wanted = min(hi_all, top)
    if not math.isfinite(wanted) or wanted <= 0.0:
        return []
    # The speed is written to 0.1 kn. Propulsion boxes are whole tenths of a knot, so the
    # nearest tenth is the box itself when the limit is a box: ordering a hair below it would
    # leave the ship under that box, and next turn's ceiling the same box again (BF6-MOV-03).
    exact = scale.m_per_turn_to_knots(wanted)
    knots = round(exact, 1)
    if scale.knots_to_m_per_turn(knots) > wanted + BOX_TOLERANCE_M:
        knots = math.floor(exact * 10.0 - 1e-6) / 10.0
    metres = scale.knots_to_m_per_turn(knots)
    if knots <= 0.0 or metres < lo_all + 1.0 or metres > wanted + BOX_TOLERANCE_M:
        return []
    return [f"SPD{knots:g}"]


__all__ = ["BOX_TOLERANCE_M", "LAST_MOVE_ROUNDING_M", "at_box", "speed_order"]
