"""Points values (DBA-PV-01/02, DBA-TYPE-08, EX-DRV-12).

PV = AF at normal range + AF at extreme range ("x" counts 0 and costs 1 more point)
   + DF (+1 more at DF 3, +3 more at DF 4) + maximum speed (−1 if "*")
   + 1 for special protection.
At DF 0 the total of every other term is halved (AMB-88). Halves round down. Monster-gun ships
use the mean of their two factors at each band, rounded down (DBA-PV-02, AMB-93). Bad sea boats,
broadside ships, inferior protection and rams cost nothing extra (DBA-TYPE-08).
"""

from __future__ import annotations

from dataclasses import dataclass

from battleline.rulesets.dba.factors import RangeBand, ShipFactors, SpeedMark
from battleline.rulesets.dba.tables import CoreTables, load_core


@dataclass(frozen=True, slots=True)
class PointsBreakdown:
    """Each term of a points value, for the referee's sheet."""

    af_normal: int
    af_extreme: int
    defence: int
    speed: int
    extreme_x: int
    slow_speed: int
    special_protection: int
    halved: bool
    total: int

    def __str__(self) -> str:
        terms = (
            f"AF normal {self.af_normal} + AF extreme {self.af_extreme} + DF {self.defence}"
            f" + speed {self.speed} {self.extreme_x:+d} (x) {self.slow_speed:+d} (*)"
            f" {self.special_protection:+d} (special)"
        )
        return f"{terms}{' halved (DF 0)' if self.halved else ''} = {self.total}"


def _af(ship: ShipFactors, band: RangeBand) -> int:
    main = ship.af.at(band) or 0
    if ship.monster_af is None:
        return main
    second = ship.monster_af.at(band) or 0
    return (main + second) // 2  # DBA-PV-02, AMB-93: mean, rounded down


def max_speed(ship: ShipFactors, core: CoreTables | None = None) -> int:
    """Maximum speed in bases for points: a "2+" ship counts its free move (reconstructed)."""
    core = core or load_core()
    bonus = core.points["fast_speed_bonus"] if ship.speed_mark is SpeedMark.FAST else 0
    return ship.speed + bonus


def points_breakdown(ship: ShipFactors, core: CoreTables | None = None) -> PointsBreakdown:
    """The DBA-PV-01 terms of one ship."""
    core = core or load_core()
    pts = core.points
    defence = ship.df + (pts["df3_bonus"] if ship.df == 3 else 0)
    defence += pts["df4_bonus"] if ship.df == 4 else 0
    extreme_x = pts["extreme_x"] if ship.af.extreme is None else 0
    slow = pts["slow_speed"] if ship.speed_mark is SpeedMark.SLOW else 0
    special = pts["special_protection"] if ship.special_protection else 0
    normal, extreme = _af(ship, RangeBand.NORMAL), _af(ship, RangeBand.EXTREME)
    speed = max_speed(ship, core)
    total = normal + extreme + defence + speed + extreme_x + slow + special
    halved = ship.df == 0
    if halved:
        total //= 2  # AMB-88: halve every other term (DF is 0), round down
    return PointsBreakdown(
        normal, extreme, defence, speed, extreme_x, slow, special, halved, max(total, 0)
    )


def points_value(ship: ShipFactors, core: CoreTables | None = None) -> int:
    """A ship's PV (DBA-PV-01/02)."""
    return points_breakdown(ship, core).total
