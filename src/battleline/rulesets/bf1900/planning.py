"""The divisional part of the Movement Phase: plans and moves (BF6-CMD-04..17, BF6-MOV-01..07).

* :func:`validate_orders` checks a division's orders against the rules that need no dice.
* :func:`plan_move` turns a division's movement orders, when they are submitted, into a
  :class:`PlannedMove`: per-ship legs for :func:`battleline.rulesets.bf1900.movement.trace`. The
  plan travels with the sealed orders and is what the Movement Phase carries out.
* The Movement Phase that carries the plans out, stops ships at collisions and keeps station is
  :mod:`battleline.rulesets.bf1900.movement_phase`.

The Command Phase itself (transfers of command, drop-outs, fleet messages) is in
:mod:`battleline.rulesets.bf1900.command`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.divisions import (
    Division,
    Formation,
    Step,
    default_interval_m,
    path_length,
    split_path,
)
from battleline.rulesets.bf1900.movement import (
    Leg,
    allowance_at,
    apply_steering,
    turn_radius_m,
)
from battleline.rulesets.bf1900.notation import (
    DropOut,
    Order,
    SetSpeed,
    Stop,
    TransferFlag,
    TurnInSuccession,
    TurnTogether,
)
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.shiplog import ShipLog

#: Turn shortfall, degrees, below which a turn counts as finished.
TURN_SLACK_DEG = 0.5


def illegal_order(division: str, rule: str, reason: str) -> IllegalOrderError:
    """The error for an order of ``division`` that breaks ``rule``."""
    return IllegalOrderError(f"division {division!r}: {reason} ({rule})")


def validate_orders(division: Division, orders: Sequence[Order]) -> None:
    """Reject orders that break a rule whatever the dice (raises :class:`IllegalOrderError`).

    * a stop order with any other movement order (BF6-CMD-14);
    * more than one speed order (a division steams at one speed a turn, BF6-MOV-01);
    * a drop-out or flag transfer naming a ship of another division (BF6-CMD-16, BF6-CMD-19);
    * a ship that has just dropped out given no turn to leave the line (BF6-CMD-17).

    A turn in succession to a division not in line ahead is *not* rejected: it is carried out as a
    simultaneous turn (BF6-CMD-09).
    """
    movement = [o for o in orders if o.movement]
    if any(isinstance(o, Stop) for o in movement) and len(movement) > 1:
        others = " ".join(str(o) for o in movement if not isinstance(o, Stop))
        raise illegal_order(division.name, "BF6-CMD-14", f"STOP cannot be combined with {others}")
    if sum(isinstance(o, SetSpeed) for o in orders) > 1:
        raise illegal_order(division.name, "BF6-MOV-01", "only one speed order a turn")
    for o in orders:
        if isinstance(o, DropOut | TransferFlag) and o.ship not in division.ships:
            rule = "BF6-CMD-16" if isinstance(o, DropOut) else "BF6-CMD-19"
            raise illegal_order(division.name, rule, f"{o.ship!r} is not a ship of this division")
    turns = [o for o in orders if isinstance(o, TurnInSuccession | TurnTogether)]
    if division.must_turn_out and not turns:
        raise illegal_order(
            division.name,
            "BF6-CMD-17",
            f"{division.lead} has just dropped out and must turn out of the line this move",
        )


@dataclass(frozen=True)
class DivisionPlan:
    """One division's move, ready to trace: legs, allowance and radius per ship.

    ``paths`` holds each ship's intended path (as :class:`Step` pieces), ``wakes`` the followers'
    wakes at the start of the move and ``lead_steps`` the turns in succession of this move, for
    station keeping; ``together`` is the total simultaneous turn made (``None`` if none).
    """

    division: Division
    legs: dict[str, tuple[Leg, ...]]
    allowance_m: dict[str, float]
    radius_m: dict[str, float]
    paths: dict[str, tuple[Step, ...]]
    wakes: dict[str, tuple[Step, ...]]
    lead_steps: tuple[Step, ...]
    ordered_turn: dict[str, float]
    stopping: bool
    together: float | None
    clean_together: bool


def _division_distance(
    division: Division,
    orders: Sequence[Order],
    allowances: Mapping[str, tuple[float, float]],
    knots: Mapping[str, float],
    scale: Scale,
    last_moves: Mapping[str, float],
) -> float:
    """The distance the division steams this turn (before each follower's station keeping);
    ``knots`` is each ship's available speed (``ShipLog.speed_knots``)."""
    able = [s for s in division.ships if allowances[s][1] > 0]
    if not able:
        return 0.0
    speed = next((o for o in orders if isinstance(o, SetSpeed)), None)
    if speed is not None:
        wanted = scale.knots_to_m_per_turn(speed.knots)
        for ship in able:
            lo, hi = allowances[ship]
            top = scale.knots_to_m_per_turn(knots[ship])
            if wanted > top + 1e-6:
                raise illegal_order(
                    division.name,
                    "BF6-MOV-01",
                    f"{speed} is faster than {ship}'s top undamaged propulsion box "
                    f"({knots[ship]:g} kn)",
                )
            if wanted > hi + 1e-6:
                raise illegal_order(
                    division.name,
                    "BF6-MOV-03",
                    f"{speed} ({scale.fmt(wanted)}) is more than one propulsion box faster than "
                    f"{ship} moved last turn; at most {scale.fmt(hi)} this turn",
                )
            if wanted < lo - 1e-6:
                raise illegal_order(
                    division.name,
                    "BF6-MOV-06",
                    f"{speed} ({scale.fmt(wanted)}) is below {ship}'s minimum movement "
                    f"{scale.fmt(lo)}; use STOP to come to a stop",
                )
        return wanted
    lead = division.lead if division.lead in able else able[0]
    lo = max(allowances[s][0] for s in able)
    hi = min(allowances[s][1] for s in able)
    return max(min(last_moves.get(lead, hi), hi), min(lo, hi))


def _legs(steps: Iterable[Step]) -> tuple[Leg, ...]:
    out: list[Leg] = []
    for s in steps:
        if s.turn_deg:
            out.append(Leg("turn", 0.0, s.turn_deg))
        elif s.straight_m > 1e-9:
            out.append(Leg("straight", s.straight_m))
    return tuple(out)


def _straight_wake(ship: str, lead: str, poses: Mapping[str, Pose]) -> tuple[Step, ...]:
    p, q = poses[ship], poses[lead]
    dx, dy = math.sin(math.radians(p.heading)), math.cos(math.radians(p.heading))
    ahead = (q.x - p.x) * dx + (q.y - p.y) * dy
    return (Step(straight_m=ahead),) if ahead > 1e-6 else ()


#: An event the plan emits: text and data (BF6-CMD-09 notes).
_Note = tuple[str, dict[str, str]]


def plan_division_move(
    division: Division,
    orders: Sequence[Order],
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    scale: Scale,
    last_moves: Mapping[str, float],
    events: EventLog | None = None,
) -> DivisionPlan:
    """Turn a division's movement orders into per-ship legs (BF6-CMD-04..15): see
    :func:`_make_plan`; its notes go to ``events`` when given. Raises ``IllegalOrderError`` for
    orders the rules refuse now."""
    move = plan_move(division, orders, poses, logs, scale, last_moves)
    if events is not None:
        move.emit_notes(events)
    return move.plan


@dataclass(frozen=True)
class PlannedMove:
    """A division's move as planned when its orders were submitted: what the Movement Phase
    carries out, unless the Command Phase changed the division or its orders (a flag passed, a
    ship lost or dropped out, a fleet turn), when the move is planned again. ``notes`` are the
    plan's BF6-CMD-09 events, emitted when the move is made."""

    division: Division
    orders: tuple[Order, ...]
    plan: DivisionPlan
    notes: tuple[_Note, ...]

    def fits(self, division: Division, orders: Sequence[Order]) -> bool:
        """Whether this plan is the move of ``division`` under ``orders``."""
        return self.division == division and self.orders == tuple(orders)

    def emit_notes(self, events: EventLog) -> None:
        """Record the plan's notes, as the move is made (its side's own events)."""
        for text, data in self.notes:
            events.emit(
                EventKind.COMMAND,
                text,
                side=self.division.side,
                division=data["division"],
                order=data["order"],
            )


def plan_move(
    division: Division,
    orders: Sequence[Order],
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    scale: Scale,
    last_moves: Mapping[str, float],
) -> PlannedMove:
    """Plan a division's move now (on submission), keeping its notes for the Movement Phase."""
    notes: list[_Note] = []
    orders = tuple(orders)
    plan = _make_plan(division, orders, poses, logs, scale, last_moves, notes)
    return PlannedMove(division, orders, plan, tuple(notes))


def _make_plan(
    division: Division,
    orders: Sequence[Order],
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    scale: Scale,
    last_moves: Mapping[str, float],
    notes: list[_Note],
) -> DivisionPlan:
    """Turn a division's movement orders into per-ship legs (BF6-CMD-04..15).

    * Turns come at the very start of the move, in the order written (BF6-CMD-11, BF6-CMD-15),
      then the ships run straight with what is left.
    * Turn in succession (BF6-CMD-05): the lead turns at once; the pivot is where it starts its
      turn (AMB-03). Each follower runs along its wake to the pivot and turns there, so the line
      stays a line. A follower that does not reach the pivot this move turns there next move.
    * Turn together (BF6-CMD-08): every ship turns at once, where it is. A turn in succession
      given out of line ahead, or after a turn together in the same move, is carried out as a
      turn together (BF6-CMD-09) and an event says so.
    * Stop (BF6-CMD-13): each ship covers its minimum movement and is then stopped.
    * Speed: ``SPDn`` sets the division's speed (BF6-MOV-01/03); without it the division keeps
      last turn's distance, slowed to what its slowest ship can make. Followers in line ahead
      steam a little faster or slower to keep their station interval (BF6-CMD-17, gap closing).
    """
    validate_orders(division, orders)
    ships = division.ships
    knots = {s: logs[s].speed_knots for s in ships}  # read once: worked out on every read
    allowances = {
        s: allowance_at(
            logs[s],
            scale,
            last_moves[s] if s in last_moves else scale.knots_to_m_per_turn(knots[s]),
            knots[s],
        )
        for s in ships
    }
    radius = {s: turn_radius_m(logs[s], scale) for s in ships}
    stopping = any(isinstance(o, Stop) for o in orders)
    distance = _division_distance(division, orders, allowances, knots, scale, last_moves)
    interval = division.interval_m or default_interval_m(
        [scale.base_size_m(logs[s].cls)[0] for s in ships]
    )

    in_line = division.formation is Formation.LINE_AHEAD
    lead_steps: list[Step] = []
    together_at: float | None = None
    after: list[Step] = []
    for o in orders:
        if not isinstance(o, TurnInSuccession | TurnTogether):
            continue
        succession = isinstance(o, TurnInSuccession)
        if succession and (not in_line or together_at is not None):
            why = (
                f"{division.name} is in {division.formation}"
                if not in_line
                else "a turn together came first"
            )
            text = f"{division.name}: {o} carried out as a turn together ({why}; BF6-CMD-09)"
            data = {"division": division.name, "order": str(o)}
            notes.append((text, data))
            succession = False
        step = Step(turn_deg=float(o.signed_deg))
        if succession:
            lead_steps.append(step)
        else:
            if together_at is None:
                together_at = path_length(lead_steps, radius[division.lead])
            after.append(step)

    wakes = dict(division.wake)
    clean = not lead_steps and division.formation is not Formation.NONE
    legs: dict[str, tuple[Leg, ...]] = {}
    allowance: dict[str, float] = {}
    paths: dict[str, tuple[Step, ...]] = {}
    used_wakes: dict[str, tuple[Step, ...]] = {}
    ordered: dict[str, float] = {}
    for i, ship in enumerate(ships):
        lo, hi = allowances[ship]
        r = radius[ship]
        wake: tuple[Step, ...] = ()
        if in_line and i > 0:
            wake = wakes.get(ship) or _straight_wake(ship, division.lead, poses)
            if any(s.turn_deg for s in wake):
                clean = False
        if stopping:
            d = lo
        elif in_line and i > 0 and together_at is None:
            d = distance + (path_length(wake, r) - i * interval)
        else:
            d = distance
        d = min(max(d, lo), hi)
        used_wakes[ship] = wake
        base = (*wake, *lead_steps)
        if together_at is not None:
            base = split_path(base, together_at, r)[0]
        path = (*base, *after, Step(straight_m=d + 1.0))
        paths[ship] = path
        ordered[ship] = sum(s.turn_deg for s in path)
        legs[ship] = apply_steering(logs[ship], _legs(path), r)
        allowance[ship] = d
    return DivisionPlan(
        division=division,
        legs=legs,
        allowance_m=allowance,
        radius_m=radius,
        paths=paths,
        wakes=used_wakes,
        lead_steps=tuple(lead_steps),
        ordered_turn=ordered,
        stopping=stopping,
        together=None if together_at is None else sum(s.turn_deg for s in after),
        clean_together=clean,
    )


__all__ = [
    "TURN_SLACK_DEG",
    "DivisionPlan",
    "PlannedMove",
    "illegal_order",
    "plan_division_move",
    "plan_move",
    "validate_orders",
]
