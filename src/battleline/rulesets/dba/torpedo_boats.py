"""2nd Class TBs: basing, tactical launch and rough weather (DBA-BAS-01, DBA-TBL-01..06,
DBA-RW-03).

With the ``tb_launch`` option a stopped, uncrippled mother ship that has not moved this spell
(AMB-97) may launch the 2nd Class TBs it carries (and was paid for): one NIP each, at most one a
spell from a battleship or cruiser and two from a TB carrier or merchant auxiliary. It may not
fire that spell; the TB goes on its own base abeam and may move in its side's next spell; if the
mother is damaged, crippled or sunk that spell, the TB shares the result. TBs launched before the
battle need no rule (DBA-TBL-01): they are simply bought and moved. (DBA-TBL-07, flavour: the
TB-carrying ships and the carriers Vulcan and Foudre are in Annex A.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose, unit
from battleline.errors import IllegalOrderError, ScenarioError
from battleline.rulesets.dba.factors import TORPEDO_CRAFT, ShipFactors, ShipType
from battleline.rulesets.dba.options import DEFAULT_OPTIONS, Options
from battleline.rulesets.dba.status import ShipStatus, apply_result
from battleline.rulesets.dba.tables import CoreTables, Result

LAUNCH_NIPS = 1  # DBA-TBL-02
#: Launches a spell by mother type (DBA-TBL-03).
CARRIER_LIMIT = 2
WARSHIP_LIMIT = 1
CARRIERS = frozenset({ShipType.TB_CARRIER, ShipType.MERCHANT_AUXILIARY})


def check_base(ships: Sequence[ShipFactors]) -> None:
    """DBA-BAS-01 (AMB-91): one ship, or up to two TBD/TB, or one scout cruiser or TGB with one
    TBD/TB."""
    names = ", ".join(s.name for s in ships) or "nothing"
    if len(ships) == 1:
        return
    if len(ships) == 2:
        kinds = sorted((s.type for s in ships), key=lambda t: t in TORPEDO_CRAFT)
        if all(k in TORPEDO_CRAFT for k in kinds):
            return
        if kinds[0] in (ShipType.SCOUT_CRUISER, ShipType.TGB) and kinds[1] in TORPEDO_CRAFT:
            return
    raise ScenarioError(
        f"base with {names}: a base holds one ship, up to two TBD/TB, or one scout cruiser or "
        "TGB with one TBD/TB (DBA-BAS-01)"
    )


def launch_limit(mother: ShipFactors) -> int:
    """TBs a mother may launch each spell (DBA-TBL-03)."""
    return CARRIER_LIMIT if mother.type in CARRIERS else WARSHIP_LIMIT


@dataclass(frozen=True, slots=True)
class Launch:
    """One TB launched."""

    tb: ShipStatus
    mother: str
    nips: int
    pose: Pose | None
    #: The first spell in which the TB may move (its side's next spell, DBA-TBL-05).
    moves_from_spell: int


def abeam(pose: Pose, distance: float, *, starboard: bool) -> Pose:
    """A pose beside the mother ship, same heading."""
    dx, dy = unit(pose.heading)
    s = distance if starboard else -distance
    return Pose(pose.x + dy * s, pose.y - dx * s, pose.heading)


def launch_tb(
    mother: ShipStatus,
    tb: ShipFactors,
    *,
    spell: int,
    launched_this_spell: int,
    options: Options = DEFAULT_OPTIONS,
    pose: Pose | None = None,
    base_width: float = 185.2,
    starboard: bool = True,
    name: str | None = None,
    log: EventLog | None = None,
) -> Launch:
    """Launch one 2nd Class TB in a tactical situation (DBA-TBL-02..05)."""
    who = mother.name
    if not options.tb_launch:
        raise IllegalOrderError(f"{who}: tactical TB launch is not in play (option 'tb_launch')")
    if tb.type is not ShipType.TB_2:
        raise IllegalOrderError(f"{who}: only 2nd Class TBs are launched (DBA-TBL-02)")
    if mother.tbs_carried <= 0:
        raise IllegalOrderError(f"{who}: carries no paid-for TB to launch (DBA-TBL-02)")
    if mother.crippled or mother.sunk:
        raise IllegalOrderError(f"{who}: a crippled mother ship cannot launch (DBA-TBL-02)")
    if not mother.stopped or mother.moved_this_spell:
        raise IllegalOrderError(
            f"{who}: must be stopped and not have moved this spell to launch (DBA-TBL-02, AMB-97)"
        )
    limit = launch_limit(mother.ship)
    if launched_this_spell >= limit:
        raise IllegalOrderError(f"{who}: may launch at most {limit} TB(s) a spell (DBA-TBL-03)")
    mother.tbs_carried -= 1
    mother.no_fire_this_spell = True  # DBA-TBL-04
    label = name or f"{who} TB {mother.ship.carries_tbs - mother.tbs_carried}"
    status = ShipStatus(tb, side=mother.side, squadron=mother.squadron, name=label, stopped=True)
    where = abeam(pose, base_width, starboard=starboard) if pose is not None else None
    if log is not None:
        log.emit(
            EventKind.NOTE,
            f"{who} launches {label} abeam (1 NIP); {who} may not fire this spell",
            ship=who,
        )
    return Launch(status, who, LAUNCH_NIPS, where, spell + 2)


def share_fate(
    mother: ShipStatus,
    result: Result,
    launched: Iterable[ShipStatus],
    *,
    log: EventLog | None = None,
    core: CoreTables | None = None,
) -> list[Result]:
    """DBA-TBL-06: a TB launched this spell suffers its mother's damaged/crippled/sunk result."""
    if result is Result.NONE:
        return []
    return [
        apply_result(
            tb, result, cause=f"sharing {mother.name}'s fate (DBA-TBL-06)", log=log, core=core
        )
        for tb in launched
    ]


def rough_weather_withdrawals(
    ships: Iterable[ShipStatus], options: Options = DEFAULT_OPTIONS
) -> list[str]:
    """DBA-RW-03: in rough weather 2nd Class TBs return to port or their mother ship."""
    if not options.rough_weather:
        return []
    return [s.name for s in ships if s.ship.type is ShipType.TB_2 and not s.sunk]
