"""Transfer of command (BF6-CMD-18..24, AMB-04..06): the automatic hand-over to the closest ship
that can take command, the rolled (involuntary) transfer when the flagship is disabled, and the
declared (voluntary) transfer between two slow ships close together.

Readings of the gaps and ambiguities are in ``docs/rules-gaps/command.md``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.divisions import (
    Division,
)
from battleline.rulesets.bf1900.planning import (
    illegal_order,
)
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.shiplog import ShipLog

#: Involuntary transfer succeeds when 1D6 + bonus reaches this (BF6-CMD-21).
INVOLUNTARY_TARGET = 5.0
#: Bonus per point of uneven flooding and per fire (BF6-CMD-22, AMB-04).
INVOLUNTARY_BONUS = 0.5
#: A voluntary transfer needs both ships at no more than this fraction of original speed.
VOLUNTARY_SPEED_FRACTION = 1.0 / 6.0
#: ... and the recipient within this fraction of a range bracket (BF6-CMD-19).
VOLUNTARY_RANGE_FRACTION = 0.25
# -- transfer of command ---------------------------------------------------------------------


def _can_command(log: ShipLog) -> bool:
    """Afloat, not sinking, not surrendered (AMB-05)."""
    return log.in_battle


def closest_successor(
    division: Division,
    logs: Mapping[str, ShipLog],
    poses: Mapping[str, Pose],
    *,
    qualified: bool = False,
) -> str | None:
    """The ship of the same division closest to the flagship that can take command (AMB-05).

    With ``qualified`` a CT-hit ship is passed over too (AMB-06, for voluntary transfers).
    Ties go to the ship earlier in the line.
    """
    flag = poses[division.flagship]
    best: tuple[float, int, str] | None = None
    for i, ship in enumerate(division.ships):
        log = logs[ship]
        if ship == division.flagship or not _can_command(log):
            continue
        if qualified and log.ct_hits:
            continue
        key = (flag.distance_to(poses[ship]), i, ship)
        if best is None or key < best:
            best = key
    return None if best is None else best[2]


def transfer_command(division: Division, to_ship: str, events: EventLog, reason: str) -> Division:
    """Move the division flag (and the fleet flag with it, if it flies there) to ``to_ship``."""
    old = division.flagship
    fleet = " and of the fleet" if division.fleet_flagship else ""
    events.emit(
        EventKind.COMMAND,
        f"{to_ship} takes command of {division.name}{fleet} from {old} ({reason})",
        ship=to_ship,
        division=division.name,
        old_flagship=old,
        fleet=division.fleet_flagship,
    )
    return division.with_(flagship=to_ship)


def involuntary_bonus(log: ShipLog) -> float:
    """+½ per point of uneven flooding and per fire aboard (BF6-CMD-22, AMB-04)."""
    return INVOLUNTARY_BONUS * (log.uneven_flooding_points + log.fires)


def involuntary_transfer(
    division: Division,
    logs: Mapping[str, ShipLog],
    poses: Mapping[str, Pose],
    dice: Dice,
    events: EventLog,
) -> Division:
    """The Command Phase check for an involuntary transfer (BF6-CMD-20..24).

    * flagship sunk or sinking: the closest ship takes over at once, no roll (BF6-CMD-24); the
      same for a flagship that has surrendered;
    * flagship with a steering (TR) or conning tower hit: roll 1D6; with the bonus (+½ per uneven
      flooding point and per fire) a total of 5 or more passes command (BF6-CMD-21/22, AMB-04).
      The Command Phase opens the turn, so any such hit is from an earlier turn, as BF6-CMD-21
      asks. Once the hit is repaired the rolls stop (BF6-CMD-23) because the trigger is gone.
    """
    flag = logs[division.flagship]
    successor = closest_successor(division, logs, poses)
    if not flag.in_battle:
        if successor is None:
            events.emit(
                EventKind.COMMAND,
                f"{division.name}: flagship {division.flagship} is lost and no ship can take over",
                ship=division.flagship,
                division=division.name,
            )
            return division
        what = "sunk" if flag.sunk else "sinking" if flag.sinking else "surrendered"
        return transfer_command(division, successor, events, f"flagship {what}; BF6-CMD-24")
    if not (flag.ct_hits or flag.tr_hits):
        return division
    if successor is None:
        return division
    roll = dice.d6("involuntary transfer of command", ship=division.flagship)
    bonus = involuntary_bonus(flag)
    hit = "conning tower" if flag.ct_hits else "steering"
    if roll + bonus >= INVOLUNTARY_TARGET:
        return transfer_command(
            division,
            successor,
            events,
            f"{hit} hit: 1D6 {roll} + {bonus:g} ≥ 5; BF6-CMD-21",
        )
    events.emit(
        EventKind.COMMAND,
        f"{division.flagship} keeps command of {division.name} "
        f"({hit} hit: 1D6 {roll} + {bonus:g} < 5; BF6-CMD-21)",
        ship=division.flagship,
        division=division.name,
        roll=roll,
        bonus=bonus,
    )
    return division


def voluntary_transfer(
    division: Division,
    to_ship: str,
    logs: Mapping[str, ShipLog],
    poses: Mapping[str, Pose],
    scale: Scale,
    last_moves: Mapping[str, float],
    events: EventLog,
) -> Division:
    """A declared transfer of the division flag to ``to_ship`` (BF6-CMD-19, AMB-06).

    Both ships must have moved no more than 1/6 of their original (top box) speed last turn; the
    flagship must have no CT hit; the recipient must be of the same division, afloat, not sinking,
    without a CT hit, and within ¼ of a range bracket.
    """
    name = division.name
    if to_ship not in division.ships:
        raise illegal_order(name, "BF6-CMD-19", f"{to_ship!r} is not a ship of this division")
    if to_ship == division.flagship:
        raise illegal_order(name, "BF6-CMD-19", f"{to_ship} is already the flagship")
    flag = logs[division.flagship]
    if flag.ct_hits:
        raise illegal_order(
            name,
            "BF6-CMD-19",
            f"flagship {flag.name} has a conning tower hit; no voluntary transfer",
        )
    target = logs[to_ship]
    if not _can_command(target) or target.ct_hits:
        raise illegal_order(
            name, "BF6-CMD-19", f"{to_ship} is not qualified to take command (AMB-06)"
        )
    for ship in (division.flagship, to_ship):
        limit = scale.knots_to_m_per_turn(logs[ship].cls.max_knots) * VOLUNTARY_SPEED_FRACTION
        moved = last_moves.get(ship, math.inf)
        if moved > limit + 1e-6:
            raise illegal_order(
                name,
                "BF6-CMD-19",
                f"{ship} moved {scale.fmt(moved)} last turn; a transfer needs both ships at no "
                f"more than 1/6 of original speed ({scale.fmt(limit)})",
            )
    reach = scale.bracket_m * VOLUNTARY_RANGE_FRACTION
    apart = poses[division.flagship].distance_to(poses[to_ship])
    if apart > reach + 1e-6:
        raise illegal_order(
            name,
            "BF6-CMD-19",
            f"{to_ship} is {scale.fmt(apart)} away; it must be within ¼ of a range bracket "
            f"({scale.fmt(reach)})",
        )
    return transfer_command(division, to_ship, events, "voluntary transfer; BF6-CMD-19")
