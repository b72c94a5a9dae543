"""The table as one side sees it, as plain JSON for the web page's SVG (issue 13, item 4).

:func:`table` is the ``web_table`` part of the bf1900 family (found through
:func:`battleline.rulesets.ruleset_part`; the 1D12 edition and TGD borrow it). It is built from
the side's view (:func:`battleline.engine.view.view`) and from the side's *own* ships' entries
of the state, never from an enemy ship's:

* own ships: true pose, base size at the game's scale, division, track, outward signs, and the
  rules' data the page draws when one is selected: each mounting's arcs of fire with the guns in
  each arc and its longest range (BF6-POS, BF6-BEAM, BF6-GUN-04), the turning circle
  (BF6-MOV-05) and this turn's move allowance (BF6-MOV-01/03/06);
* enemy ships only as the view's contacts show them (observed pose; absent when not seen);
* the scenario's land, the scale and its range brackets (REF-BF6-01);
* markers from the events the side may see: splashes and hit markers where they fell, fires
  (their smoke shows across the table), torpedo tracks between where the side knows the firer
  and the target to be.

Markers are those of the open turn and the one before it, so the page still shows last turn's
fall of shot while the side writes its orders. Nothing here measures a range to an enemy ship:
the page draws range rings round own ships only (range is judged by eye, BF6-GUN-02).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from battleline.engine.events import Event, EventKind
from battleline.engine.geometry import Pose, norm360
from battleline.engine.view import view
from battleline.errors import BattlelineError, RulesDataError
from battleline.rulesets.bf1900.arcs import battery_spans, position_arcs
from battleline.rulesets.bf1900.gunnery_checks import arc_rule
from battleline.rulesets.bf1900.movement import move_allowance_m, turn_radius_m
from battleline.rulesets.bf1900.outward import Signs
from battleline.rulesets.bf1900.scales import BRACKETS, Scale, get_scale
from battleline.rulesets.bf1900.scenario import get_scenario, lookup_class
from battleline.rulesets.bf1900.ship import Mounting
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.bf1900.view import OwnShip, SideView

if TYPE_CHECKING:
    from battleline.engine.flow import Game

#: Rulesets that fire with bf1900's arcs of fire. Another ruleset borrowing this part (TGD: its
#: guns are on its cards, with their own arcs, TGD-ARC) gets no arcs rather than wrong ones.
ARCS_OF: frozenset[str] = frozenset({"bf1900", "bf1900-1d12"})
#: Marker events: the fall of shot (splash or hit zone) where it was seen.
_FALLS = {EventKind.SPLASH: "splash", EventKind.HIT_ZONE: "hit"}
#: Least distance between two drawn points of a ship's track, metres.
TRACK_STEP_M = 100.0
#: Margin round what the side knows, metres, for the extent the page first shows.
MARGIN_M = 2000.0


def _r(value: float) -> float:
    """A coordinate or distance to the decimetre (the events' own rounding)."""
    return round(float(value), 1)


def _pose(pose: Pose) -> dict[str, float]:
    return {"x": _r(pose.x), "y": _r(pose.y), "heading": _r(norm360(pose.heading))}


def mounting_arcs(log: ShipLog, mount: Mounting, scale: Scale) -> dict[str, Any] | None:
    """One mounting as the page draws it: its arcs, the guns (and guns in action) in each, its
    longest range. ``None`` for a position the rules give no arc (AMB-14)."""
    groups: list[dict[str, Any]] = []
    if mount.position is not None:
        try:
            arcs = position_arcs(mount.position)
        except RulesDataError:
            return None
        ready = mount.guns if log.positions[mount.key].in_action else 0
        groups.append({"arcs": [list(a) for a in arcs], "guns": mount.guns, "ready": ready})
    else:
        marks = log.batteries[mount.key]
        for (start, width), idx in battery_spans(mount.beam_pattern or 0, mount.guns):
            ready = sum(1 for i in idx if i < len(marks) and marks[i] is Mark.NONE)
            arc = [start, norm360(start + width)]
            groups.append({"arcs": [arc], "guns": len(idx), "ready": ready})
    reach = [i + 1 for i, p in enumerate(mount.penetration) if p is not None]
    longest = min(max(reach) * scale.bracket_m, scale.max_range_m) if reach else 0.0
    return {
        "mounting": mount.key,
        "label": mount.label or mount.key,
        "gun_class": mount.gun_class.value,
        "calibre_cm": mount.calibre_cm,
        "rof": mount.rof,
        "guns": mount.guns,
        "rule": arc_rule(mount),
        "groups": groups,
        "max_range_m": _r(longest),
    }


def _marks(log: ShipLog) -> list[str]:
    """The signs an own ship shows (what the enemy sees of her too), and whether she is out."""
    signs = Signs.of(log)
    shown = ("burning", "stopped", "listing", "sinking", "sunk", "struck")
    marks = [m for m in shown if getattr(signs, m)]
    if not log.in_battle and not log.sunk:
        marks.append("out of the battle")
    return marks


def track(points: Sequence[tuple[float, float]]) -> list[list[float]]:
    """A ship's track thinned for drawing: a point at least :data:`TRACK_STEP_M` from the one
    before (turning arcs are recorded every few degrees), and always the last."""
    out: list[list[float]] = []
    for i, (x, y) in enumerate(points):
        last = i == len(points) - 1
        if out and not last:
            px, py = out[-1]
            if (x - px) ** 2 + (y - py) ** 2 < TRACK_STEP_M**2:
                continue
        out.append([_r(x), _r(y)])
    return out


def _own(ship: OwnShip, state: Bf1900State, scale: Scale, arcs: bool) -> dict[str, Any]:
    """One own ship in full (the state is read for this ship's own entries only)."""
    log = ship.log
    length, width = scale.base_size_m(log.cls)
    last = state.moved_last_m.get(ship.name, scale.knots_to_m_per_turn(log.speed_knots))
    low, high = move_allowance_m(log, scale, last)
    mounts = [mounting_arcs(log, m, scale) for m in log.cls.mountings] if arcs else []
    return {
        "name": ship.name,
        "class": ship.cls,
        "type": ship.type,
        "division": ship.division,
        **_pose(ship.pose),
        "length_m": _r(length),
        "width_m": _r(width),
        "speed_knots": ship.speed_knots,
        "marks": _marks(log),
        "track": track(state.tracks.get(ship.name, [])),
        "arcs": [m for m in mounts if m is not None],
        "turning_radius_m": _r(turn_radius_m(log, scale)),
        "move_allowance_m": {"min": _r(low), "max": _r(high)},
    }


def _enemy(seen: SideView, scale: Scale) -> list[dict[str, Any]]:
    """The enemy ships the side sees, where it sees them (the view's contacts)."""
    out = []
    for c in seen.contacts:
        try:
            length, width = scale.base_size_m(lookup_class(c.cls))
        except (ValueError, BattlelineError):
            length, width = 100.0, 20.0
        signs = (
            ("burning", c.fires),
            ("stopped", c.stopped),
            ("listing", c.listing),
            ("sinking", c.sinking),
            ("struck", c.surrendered),
        )
        marks = [m for m, on in signs if on]
        if c.surrendered:
            marks.append("struck")
        out.append(
            {
                "name": c.name,
                "class": c.cls,
                "type": c.type,
                **_pose(c.pose),
                "length_m": _r(length),
                "width_m": _r(width),
                "observed": c.observed,
                "marks": marks,
            }
        )
    return out


def _where_moved(
    events: Sequence[Event], own: set[str]
) -> dict[tuple[int, str], tuple[float, float]]:
    """Where each own ship ended each turn's move (her own move events)."""
    out: dict[tuple[int, str], tuple[float, float]] = {}
    for e in events:
        if e.kind is EventKind.MOVE and e.ship in own and "x" in e.data:
            out[(e.turn, e.ship)] = (float(e.data["x"]), float(e.data["y"]))
    return out


def markers(seen: SideView, events: Sequence[Event], turns: Iterable[int]) -> list[dict[str, Any]]:
    """Splashes, hit markers, fires and torpedo tracks of ``turns`` that the side has seen."""
    wanted = set(turns)
    known = {s.name: (s.pose.x, s.pose.y) for s in seen.own}
    known.update({c.name: (c.pose.x, c.pose.y) for c in seen.contacts})
    moved = _where_moved(events, {s.name for s in seen.own})
    out: list[dict[str, Any]] = []
    for e in events:
        if e.turn not in wanted:
            continue
        fall = _FALLS.get(e.kind)
        if fall is not None and "x" in e.data:
            out.append(
                {
                    "kind": fall,
                    "turn": e.turn,
                    "x": _r(e.data["x"]),
                    "y": _r(e.data["y"]),
                    "fall": str(e.data.get("fall", fall)),
                    "firer": e.data.get("firer"),
                    "target": e.data.get("target"),
                }
            )
        elif e.kind is EventKind.TORPEDO_LAUNCH and e.public and e.ship:
            target = str(e.data.get("target", ""))
            start = moved.get((e.turn, e.ship), known.get(e.ship))
            end = moved.get((e.turn, target), known.get(target))
            if start is not None and end is not None:
                out.append(
                    {
                        "kind": "torpedo",
                        "turn": e.turn,
                        "from": [_r(start[0]), _r(start[1])],
                        "to": [_r(end[0]), _r(end[1])],
                        "firer": e.ship,
                        "target": target,
                    }
                )
    burning = [s.name for s in seen.own if Signs.of(s.log).burning]
    burning += [c.name for c in seen.contacts if c.fires]
    for name in burning:  # an external fire's smoke shows across the table
        x, y = known[name]
        out.append({"kind": "fire", "turn": seen.turn, "x": _r(x), "y": _r(y), "ship": name})
    return out


def _land(scenario: str) -> list[dict[str, Any]]:
    """The scenario's land (public: the same for both sides)."""
    try:
        entries = get_scenario(scenario).land
    except BattlelineError:
        return []
    return [{"name": p.name, "points": [[_r(x), _r(y)] for x, y in p.points]} for p in entries]


def _extent(points: Iterable[tuple[float, float]]) -> dict[str, float]:
    xs, ys = [], []
    for x, y in points:
        xs.append(x)
        ys.append(y)
    if not xs:
        xs, ys = [0.0], [0.0]
    return {
        "min_x": _r(min(xs) - MARGIN_M),
        "min_y": _r(min(ys) - MARGIN_M),
        "max_x": _r(max(xs) + MARGIN_M),
        "max_y": _r(max(ys) + MARGIN_M),
    }


def _scale(scale: Scale) -> dict[str, Any]:
    return {
        "name": scale.name,
        "label": scale.label,
        "table_unit": scale.table_unit,
        "units_per_km": scale.units_per_km,
        "bracket_m": scale.bracket_m,
        "max_range_m": scale.max_range_m,
        "range_brackets_m": [
            _r(min(n * scale.bracket_m, scale.max_range_m)) for n in range(1, BRACKETS + 1)
        ],
        "turn_minutes": scale.turn_minutes,
    }


def _first_event_of(game: Game[Bf1900State, SideView], turn: int) -> int:
    """The index of the game's first event of ``turn`` or later (the log is in turn order), so
    the view hands over only the events the markers are drawn from."""
    events = game.events.events
    return bisect.bisect_left(events, turn, key=lambda e: e.turn)


def table(game: Game[Bf1900State, SideView], side: str) -> dict[str, Any]:
    """The table as ``side`` sees it at the open phase (see the module docstring)."""
    state = game.state
    seen = view(game, side, since=_first_event_of(game, state.turn - 1))
    scale = get_scale(seen.scale)
    arcs = game.ruleset.name in ARCS_OF
    own = [_own(s, state, scale, arcs) for s in seen.own]
    enemy = _enemy(seen, scale)
    land = _land(state.scenario)
    events = list(seen.events)
    points: list[tuple[float, float]] = [(s["x"], s["y"]) for s in own + enemy]
    points += [(x, y) for s in own for x, y in s["track"]]
    points += [(x, y) for p in land for x, y in p["points"]]
    return {
        "ruleset": game.ruleset.name,
        "side": seen.side,
        "turn": seen.turn,
        "phase": seen.phase,
        "result": seen.result,
        "scale": _scale(scale),
        "extent": _extent(points),
        "land": land,
        "own": own,
        "enemy": enemy,
        "markers": markers(seen, events, (seen.turn, seen.turn - 1)),
        "arcs_drawn": arcs,
    }


__all__ = ["ARCS_OF", "markers", "mounting_arcs", "table"]
