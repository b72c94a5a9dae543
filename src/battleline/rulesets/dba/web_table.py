"""The DBA table as one side sees it, as the JSON the web page draws (issue 13, item 4).

DBA is played with bases on an open table, so the view gives every enemy base afloat where it
stands (``observed`` is false: no range-by-eye model here) and this part draws what the view
holds: own bases in full with their squadron, track and marks; enemy bases with what shows on
them (stopped, crippled, nets, the torpedo marker, DBA-TORP-07). There is no land in DBA's
scenarios.

For a selected own ship the page draws the four arcs (bow, starboard, stern, port: DBA-TGT-01,
:func:`~battleline.rulesets.dba.combat.arc_of`) out to the farthest band at which
:func:`~battleline.rulesets.dba.combat.fire_mode` lets her fire in that arc, each with the
attack factor it gives per band; the range bands as rings (REF-DBA-01: measured between base
edges, so a ring is drawn at the band plus half a base from her centre); and the bases she may
move this spell (her speed limit plus the free "2+" base, DBA-MOV-01). DBA has no turning
circle: a ship turns as part of her move (``turning_radius_m`` is ``None``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from battleline.engine.geometry import norm360
from battleline.engine.view import view
from battleline.errors import IllegalOrderError
from battleline.rulesets.dba.combat import Arc, fire_mode
from battleline.rulesets.dba.factors import BANDS, ShipFactors
from battleline.rulesets.dba.movement import free_extra_base, speed_limit
from battleline.rulesets.dba.options import Options
from battleline.rulesets.dba.state import DbaState
from battleline.rulesets.dba.tables import load_core
from battleline.rulesets.dba.view import DbaContact, DbaOwnShip, DbaSideView

if TYPE_CHECKING:
    from battleline.engine.flow import Game

#: The four arcs as relative bearings, edges inclusive (the beams are [45, 135] and [225, 315]).
ARCS: tuple[tuple[Arc, tuple[float, float]], ...] = (
    (Arc.BOW, (315.0, 45.0)),
    (Arc.STARBOARD, (45.0, 135.0)),
    (Arc.STERN, (135.0, 225.0)),
    (Arc.PORT, (225.0, 315.0)),
)
MARGIN_M = 2000.0


def _r(value: float) -> float:
    return round(float(value), 1)


def arc_fire(ship: ShipFactors, options: Options, may_fire: bool) -> list[dict[str, Any]]:
    """Each arc with the attack factor per band that :func:`fire_mode` allows there."""
    core = load_core()
    out = []
    for arc, (start, end) in ARCS:
        factors: list[str] = []
        reach = 0.0
        for band in BANDS:
            try:
                mode = fire_mode(ship, arc=arc, band=band, options=options, core=core)
            except IllegalOrderError:
                factors.append(f"{band.value} —")
                continue
            factors.append(f"{band.value} {mode.af}{' reduced' if mode.reduced else ''}")
            reach = core.range_bands[band]
        if not reach:
            continue
        out.append(
            {
                "mounting": arc.value,
                "label": "AF " + ", ".join(factors),
                "gun_class": "main",
                "rule": "DBA-TGT-01",
                "groups": [{"arcs": [[start, end]], "ready": int(may_fire)}],
                "max_range_m": _r((reach + 0.5) * core.base_metres),
            }
        )
    return out


def _marks(s: DbaOwnShip | DbaContact) -> list[str]:
    words = ("stopped", "crippled", "sunk", "nets_lowered", "fouled")
    marks = [w.replace("_", " ") for w in words if getattr(s, w)]
    if s.torpedo_marker:
        marks.append("torpedo marker")
    return marks


def _own(ship: DbaOwnShip, state: DbaState) -> dict[str, Any]:
    """One own ship (the state is read for this ship's own track only)."""
    core = load_core()
    status = ship.status
    bases = speed_limit(status, state.options, core)
    bases += 1 if bases and free_extra_base(status, state.options) else 0
    return {
        "name": ship.name,
        "class": ship.annex,
        "type": ship.type,
        "division": ship.squadron,
        "x": _r(ship.pose.x),
        "y": _r(ship.pose.y),
        "heading": _r(norm360(ship.pose.heading)),
        "length_m": _r(core.base_metres),
        "width_m": _r(core.base_metres / 2),
        "speed_knots": None,
        "speed": ship.speed,
        "marks": _marks(ship),
        "track": [[_r(x), _r(y)] for x, y in state.tracks.get(ship.name, [])],
        "arcs": arc_fire(status.ship, state.options, ship.may_fire),
        "turning_radius_m": None,
        "move_allowance_m": {"min": 0.0, "max": _r(bases * core.base_metres), "per": "spell"},
    }


def _enemy(c: DbaContact) -> dict[str, Any]:
    base = load_core().base_metres
    return {
        "name": c.name,
        "class": c.annex,
        "type": c.type,
        "x": _r(c.pose.x),
        "y": _r(c.pose.y),
        "heading": _r(norm360(c.pose.heading)),
        "length_m": _r(base),
        "width_m": _r(base / 2),
        "observed": False,
        "marks": _marks(c),
    }


def _scale() -> dict[str, Any]:
    core = load_core()
    return {
        "name": "bases",
        "label": f"DBA bases of {core.base_metres:g} m",
        "table_unit": "bases",
        "units_per_km": 1000.0 / core.base_metres,
        "bracket_m": None,
        "max_range_m": _r(core.range_bands[BANDS[-1]] * core.base_metres),
        "range_brackets_m": [_r((core.range_bands[b] + 0.5) * core.base_metres) for b in BANDS],
        "turn_minutes": None,
    }


def table(game: Game[DbaState, DbaSideView], side: str) -> dict[str, Any]:
    """The DBA table as ``side`` sees it at the open phase (see the module docstring)."""
    seen = view(game, side, since=len(game.events.events))
    state = game.state
    own = [_own(s, state) for s in seen.own]
    enemy = [_enemy(c) for c in seen.contacts]
    points = [(s["x"], s["y"]) for s in own + enemy]
    points += [(x, y) for s in own for x, y in s["track"]]
    xs, ys = [p[0] for p in points] or [0.0], [p[1] for p in points] or [0.0]
    return {
        "ruleset": game.ruleset.name,
        "side": seen.side,
        "turn": seen.turn,
        "phase": seen.phase,
        "result": seen.result,
        "scale": _scale(),
        "extent": {
            "min_x": _r(min(xs) - MARGIN_M),
            "min_y": _r(min(ys) - MARGIN_M),
            "max_x": _r(max(xs) + MARGIN_M),
            "max_y": _r(max(ys) + MARGIN_M),
        },
        "land": [],
        "own": own,
        "enemy": enemy,
        "markers": [],
        "arcs_drawn": True,
    }


__all__ = ["ARCS", "arc_fire", "table"]
