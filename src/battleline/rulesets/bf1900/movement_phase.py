"""The Movement Phase: every division moves at once (BF6-GEN-07, BF6-MOV-01..07, BF6-CMD-10..13).

:func:`movement_phase` carries out each division's planned move
(:mod:`battleline.rulesets.bf1900.planning`), traces every ship, stops ships at collisions and
groundings (``resolve_tracks``), narrates the moves, and keeps station for the next turn
(:func:`finish_division_move`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.divisions import (
    Division,
    Formation,
    classify_formation,
    formation_after_turn,
    split_path,
)
from battleline.rulesets.bf1900.movement import Contact, Track, emit_contacts, resolve_tracks, trace
from battleline.rulesets.bf1900.notation import Order
from battleline.rulesets.bf1900.planning import TURN_SLACK_DEG, DivisionPlan, PlannedMove, plan_move
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.table import Land


def finish_division_move(
    plan: DivisionPlan, tracks: Mapping[str, Track], events: EventLog | None = None
) -> Division:
    """The division after its move: wakes for line ahead, or the formation a turn together left
    it in (BF6-CMD-10), reversing the line when the turn put the rear ship in front."""
    division = plan.division
    ships = division.ships
    if plan.together is None:
        if division.formation is not Formation.LINE_AHEAD or len(ships) == 1:
            return division.with_(must_turn_out=False, wake=())
        lead = ships[0]
        lead_run = split_path(plan.paths[lead], tracks[lead].length_m, plan.radius_m[lead])[0]
        wake = []
        for ship in ships[1:]:
            # The follower's path to the lead's new position is its old wake plus the lead's run.
            whole = (*plan.wakes.get(ship, ()), *lead_run)
            rest = split_path(whole, tracks[ship].length_m, plan.radius_m[ship])[1]
            wake.append((ship, rest))
        return division.with_(must_turn_out=False, wake=tuple(wake))
    # Every ship ran the same legs only if each made the whole turn (a ship dead in the water,
    # short of movement or with a jammed rudder did not): otherwise read the poses.
    same = all(abs(tracks[s].turned_deg - plan.together) <= TURN_SLACK_DEG for s in ships)
    if plan.clean_together and same:
        formation, reverse = formation_after_turn(division.formation, plan.together)
    else:
        formation, reverse = classify_formation([tracks[s].end for s in ships], 3.0)
    if reverse:
        division = division.reversed()
    division = division.with_(formation=formation, wake=(), must_turn_out=False)
    if events is not None and (formation is not plan.division.formation or reverse):
        flip = f", {division.lead} now leading" if reverse else ""
        events.emit(
            EventKind.COMMAND,
            f"{division.name} is now in {formation}{flip} (BF6-CMD-10)",
            side=division.side,
            division=division.name,
            formation=formation.value,
        )
    return division


@dataclass
class MovementResult:
    """The Movement Phase's outcome for the divisions given to it."""

    poses: dict[str, Pose]
    tracks: dict[str, Track]
    divisions: dict[str, Division]
    last_moves: dict[str, float]
    contacts: list[Contact]


def movement_phase(
    divisions: Mapping[str, Division],
    orders: Mapping[str, Sequence[Order]],
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    scale: Scale,
    last_moves: Mapping[str, float],
    events: EventLog,
    land: Sequence[Land] = (),
    planned: Mapping[str, PlannedMove] | None = None,
) -> MovementResult:
    """Move every division at once (BF6-GEN-07): plan, trace, stop at contacts, keep station.

    A division whose move was planned on submission (``planned``, still fitting its orders)
    makes that move; the others are planned now. ``last_moves`` in the result is each ship's
    actual move, or 0 for a ship that obeyed a stop order (it is dead in the water for the next
    turn's acceleration, BF6-CMD-13).
    """
    plans: dict[str, DivisionPlan] = {}
    for name, d in divisions.items():
        mine = orders.get(name, ())
        move = (planned or {}).get(name)
        if move is None or not move.fits(d, mine):
            move = plan_move(d, mine, poses, logs, scale, last_moves)
        move.emit_notes(events)
        plans[name] = move.plan
    raw: dict[str, Track] = {}
    for plan in plans.values():
        for ship, legs in plan.legs.items():
            raw[ship] = trace(ship, poses[ship], legs, plan.radius_m[ship], plan.allowance_m[ship])
    sizes = {s: scale.base_size_m(logs[s].cls) for s in poses if s in logs}
    # Sunk ships are gone from the table (as for sight, BF6-SINK-05): wrecks block nobody.
    stationary = {
        s: p for s, p in poses.items() if s not in raw and s in sizes and not logs[s].sunk
    }
    tracks, contacts = resolve_tracks(raw, sizes, land, stationary)
    emit_contacts(events, contacts)

    new_divisions: dict[str, Division] = {}
    new_last: dict[str, float] = dict(last_moves)
    new_poses: dict[str, Pose] = dict(poses)
    for name, plan in plans.items():
        for ship in plan.division.ships:
            track = tracks[ship]
            new_poses[ship] = track.end
            new_last[ship] = 0.0 if plan.stopping else track.length_m
            _narrate(events, name, plan, track, scale)
        new_divisions[name] = finish_division_move(plan, tracks, events)
    return MovementResult(new_poses, tracks, new_divisions, new_last, contacts)


def _narrate(
    events: EventLog, division: str, plan: DivisionPlan, track: Track, scale: Scale
) -> None:
    ship = track.ship
    turned = track.turned_deg
    turn = ""
    if abs(turned) >= TURN_SLACK_DEG:
        turn = f", turning {abs(turned):.0f}° to {'starboard' if turned > 0 else 'port'}"
    stop = "; stopped (BF6-CMD-13)" if plan.stopping else ""
    events.emit(
        EventKind.MOVE,
        f"{ship} moves {scale.fmt(track.length_m)} ({track.length_m:.0f} m){turn}, "
        f"now heading {track.end.heading:03.0f}°{stop}",
        ship=ship,
        division=division,
        distance_m=round(track.length_m, 1),
        turned_deg=round(turned, 1),
        x=round(track.end.x, 1),
        y=round(track.end.y, 1),
        heading=round(track.end.heading, 1),
    )
    is_lead = ship == plan.division.lead
    if (is_lead or plan.together is not None) and not plan.stopping:
        wanted = plan.ordered_turn.get(ship, 0.0)
        if (
            abs(wanted) - abs(turned) > TURN_SLACK_DEG
            and track.length_m < plan.allowance_m[ship] + 1e-6
        ):
            events.emit(
                EventKind.MOVE,
                f"{ship} turns only {abs(turned):.0f}° of the {abs(wanted):.0f}° ordered: "
                "not enough movement (BF6-CMD-12)",
                ship=ship,
                division=division,
                ordered_deg=wanted,
                turned_deg=round(turned, 1),
            )


__all__ = ["MovementResult", "finish_division_move", "movement_phase"]
