"""Victory (reconstructed): which ships are crippled, each ship's fate, the points the enemy scores
for her by the scenario's victory conditions, and the verdict.
"""

from __future__ import annotations

from battleline.engine.state import Result
from battleline.rulesets.bf1900.flood_tables import SINK_ROLL_FROM
from battleline.rulesets.bf1900.scenario import Scenario, get_scenario
from battleline.rulesets.bf1900.ship import GunClass
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.state import Bf1900State

# -- victory ---------------------------------------------------------------------------------


def crippled(log: ShipLog) -> bool:
    """Crippled (reconstructed): dead in the water, flooded enough to roll to sink each turn
    (BF6-SINK-01, EX-DRV-04),
    or half or more of its main-gun positions and batteries out of action."""
    if log.propulsion.available <= 0.0 or log.flooding_points >= SINK_ROLL_FROM:
        return True
    mains = log.cls.mountings_of(GunClass.MAIN)
    if not mains:
        return False
    out = sum(1 for m in mains if log.guns_of(m) == 0)
    return 2 * out >= len(mains)


def ship_fate(log: ShipLog) -> str:
    """One word for the summary table: sunk, sinking, surrendered, crippled, damaged, intact."""
    if log.sunk:
        return "sunk"
    if log.sinking is not None:
        return "sinking"
    if log.surrendered:
        return "surrendered"
    if crippled(log):
        return "crippled"
    return "damaged" if _damaged(log) else "intact"


def _damaged(log: ShipLog) -> bool:
    """Any damage on her log: propulsion hits, flooding, fire, a position out of action, a DC
    box used."""
    return bool(
        log.propulsion.hits
        or log.flooding_points
        or log.fires
        or any(not p.in_action for p in log.positions.values())
        or log.dc_dice < len(log.dc_boxes)
    )


def intact(log: ShipLog) -> bool:
    """Whether :func:`ship_fate` says "intact", asking the cheap questions first (the gate of
    every Damage Phase asks it of every ship)."""
    if log.sunk or log.sinking is not None or log.surrendered or _damaged(log):
        return False
    return not crippled(log)


def ship_points(log: ShipLog, scenario: Scenario) -> tuple[float, str]:
    """The victory points the enemy scores for one ship and why: sunk (or sinking, or struck
    where that counts as sunk) ``sunk_per_size`` × size, crippled or struck ``crippled_per_size``
    × size, otherwise none."""
    v = scenario.victory
    fate = ship_fate(log)
    size = log.cls.size
    if fate in ("sunk", "sinking") or (fate == "surrendered" and v.surrender_counts_as_sunk):
        return v.sunk_per_size * size, f"{fate}: {v.sunk_per_size:g} × size {size}"
    if fate in ("crippled", "surrendered"):
        return v.crippled_per_size * size, f"{fate}: {v.crippled_per_size:g} × size {size}"
    return 0.0, fate


def points_against(state: Bf1900State, side: str, scenario: Scenario) -> float:
    """Victory points the enemies of ``side`` have scored against its ships."""
    return sum(ship_points(log, scenario)[0] for log in state.logs.values() if log.side == side)


def verdict(state: Bf1900State, reason: str) -> Result:
    """Points for ships sunk (or surrendered) and crippled, by size; the winner needs a lead of
    at least the scenario's margin of the larger score, else a draw."""
    sc = get_scenario(state.scenario)
    a, b = state.sides
    points = {a: points_against(state, b, sc), b: points_against(state, a, sc)}
    hi = max(points.values())
    lead = abs(points[a] - points[b])
    winner = None
    if hi > 0 and lead >= sc.victory.margin * hi and lead > 0:
        winner = a if points[a] > points[b] else b
    return Result(winner, points, reason)
