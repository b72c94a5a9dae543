"""The Command Phase and the divisional part of the Movement Phase (BF6-CMD-01..32).

* :func:`validate_orders` checks a division's orders against the rules that need no dice.
* :func:`command_phase` runs the Command Phase for one side or both: removes lost ships, makes
  the automatic and rolled (involuntary) transfers of command, the declared (voluntary) ones,
  drop-outs and fleet messages, and returns each division's movement orders.
* :func:`plan_division_move` turns a division's movement orders into per-ship legs for
  :func:`battleline.rulesets.bf1900.movement.trace`; :func:`movement_phase` traces every division,
  stops ships at collisions (``resolve_tracks``) and keeps station for the next turn.

Readings of the gaps and ambiguities (AMB-01..09, REF-BF6-15) are in ``docs/rules-gaps/command.md``.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.divisions import (
    Division,
    Formation,
    Step,
    classify_formation,
    default_interval_m,
    formation_after_turn,
    path_length,
    split_path,
)
from battleline.rulesets.bf1900.movement import (
    Contact,
    Leg,
    Track,
    allowance_at,
    apply_steering,
    emit_contacts,
    resolve_tracks,
    trace,
    turn_radius_m,
)
from battleline.rulesets.bf1900.notation import (
    Arrow,
    DropOut,
    FleetMessage,
    Order,
    SetSpeed,
    Signal,
    Stop,
    TransferFlag,
    TurnInSuccession,
    TurnTogether,
    arrow_class,
    parse_orders,
)
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.table import Land

#: Involuntary transfer succeeds when 1D6 + bonus reaches this (BF6-CMD-21).
INVOLUNTARY_TARGET = 5.0
#: Bonus per point of uneven flooding and per fire (BF6-CMD-22, AMB-04).
INVOLUNTARY_BONUS = 0.5
#: A voluntary transfer needs both ships at no more than this fraction of original speed.
VOLUNTARY_SPEED_FRACTION = 1.0 / 6.0
#: ... and the recipient within this fraction of a range bracket (BF6-CMD-19).
VOLUNTARY_RANGE_FRACTION = 0.25
#: Turn shortfall, degrees, below which a turn counts as finished.
TURN_SLACK_DEG = 0.5

OrdersIn = str | Sequence[Order]


def _illegal(division: str, rule: str, reason: str) -> IllegalOrderError:
    return IllegalOrderError(f"division {division!r}: {reason} ({rule})")


def _orders(value: OrdersIn) -> tuple[Order, ...]:
    return parse_orders(value) if isinstance(value, str) else tuple(value)


# -- validation ----------------------------------------------------------------------------


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
        raise _illegal(division.name, "BF6-CMD-14", f"STOP cannot be combined with {others}")
    if sum(isinstance(o, SetSpeed) for o in orders) > 1:
        raise _illegal(division.name, "BF6-MOV-01", "only one speed order a turn")
    for o in orders:
        if isinstance(o, DropOut | TransferFlag) and o.ship not in division.ships:
            rule = "BF6-CMD-16" if isinstance(o, DropOut) else "BF6-CMD-19"
            raise _illegal(division.name, rule, f"{o.ship!r} is not a ship of this division")
    turns = [o for o in orders if isinstance(o, TurnInSuccession | TurnTogether)]
    if division.must_turn_out and not turns:
        raise _illegal(
            division.name,
            "BF6-CMD-17",
            f"{division.lead} has just dropped out and must turn out of the line this move",
        )


_ARROW_RANK = {Arrow.NONE: 0, Arrow.FORTY_FIVE: 1, Arrow.HORIZONTAL: 2}


def check_arrow(division: str, order: TurnInSuccession | TurnTogether, turned_deg: float) -> None:
    """Check a turn a ship made (signed, + starboard) against the arrow it was ordered with.

    The arrow binds the direction (BF6-CMD-07) and its class bounds the turn from above
    (BF6-CMD-06, AMB-01/02: no arrow covers under 45°, the 45° arrow up to but not including 90°,
    the horizontal arrow 90° or more). Turning less than the arrow asks is not an error here: a
    ship short of movement turns as far as it can (BF6-CMD-12).
    """
    if turned_deg * order.direction.sign < 0:
        side = "port" if turned_deg < 0 else "starboard"
        raise _illegal(
            division,
            "BF6-CMD-07",
            f"a turn to {side} under a {order.arrow} drawn to {order.direction.name.lower()}",
        )
    needed = arrow_class(turned_deg)
    if _ARROW_RANK[needed] > _ARROW_RANK[order.arrow]:
        raise _illegal(
            division,
            "BF6-CMD-06",
            f"a {abs(turned_deg):g}° turn needs the {needed}, not the {order.arrow} of {order}",
        )


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
        raise _illegal(name, "BF6-CMD-19", f"{to_ship!r} is not a ship of this division")
    if to_ship == division.flagship:
        raise _illegal(name, "BF6-CMD-19", f"{to_ship} is already the flagship")
    flag = logs[division.flagship]
    if flag.ct_hits:
        raise _illegal(
            name,
            "BF6-CMD-19",
            f"flagship {flag.name} has a conning tower hit; no voluntary transfer",
        )
    target = logs[to_ship]
    if not _can_command(target) or target.ct_hits:
        raise _illegal(name, "BF6-CMD-19", f"{to_ship} is not qualified to take command (AMB-06)")
    for ship in (division.flagship, to_ship):
        limit = scale.knots_to_m_per_turn(logs[ship].cls.max_knots) * VOLUNTARY_SPEED_FRACTION
        moved = last_moves.get(ship, math.inf)
        if moved > limit + 1e-6:
            raise _illegal(
                name,
                "BF6-CMD-19",
                f"{ship} moved {scale.fmt(moved)} last turn; a transfer needs both ships at no "
                f"more than 1/6 of original speed ({scale.fmt(limit)})",
            )
    reach = scale.bracket_m * VOLUNTARY_RANGE_FRACTION
    apart = poses[division.flagship].distance_to(poses[to_ship])
    if apart > reach + 1e-6:
        raise _illegal(
            name,
            "BF6-CMD-19",
            f"{to_ship} is {scale.fmt(apart)} away; it must be within ¼ of a range bracket "
            f"({scale.fmt(reach)})",
        )
    return transfer_command(division, to_ship, events, "voluntary transfer; BF6-CMD-19")


# -- dropping out --------------------------------------------------------------------------


def drop_out_eligible(division: Division, ship: str, logs: Mapping[str, ShipLog]) -> bool:
    """At least one more propulsion-box hit than the ship directly astern (BF6-CMD-16, AMB-07).

    Hits are destroyed + damaged + margin marks. The last ship of a line, with nobody astern, is
    eligible once it has one hit (AMB-07's suggested ruling).
    """
    hits = logs[ship].propulsion.hits
    astern = division.astern_of(ship)
    return hits >= (logs[astern].propulsion.hits if astern else 0) + 1


def drop_out(
    division: Division, ship: str, logs: Mapping[str, ShipLog], events: EventLog
) -> tuple[Division, Division]:
    """``ship`` leaves its division as a one-ship division (BF6-CMD-16/17).

    Returns (the division without it, the new one-ship division). The new division must turn out
    of the line in its next move (``must_turn_out``); the ships astern close the gap by station
    keeping (:func:`plan_division_move`). The flagship cannot drop out; transfer command first.
    """
    name = division.name
    if ship not in division.ships:
        raise _illegal(name, "BF6-CMD-16", f"{ship!r} is not a ship of this division")
    if len(division.ships) == 1:
        raise _illegal(name, "BF6-CMD-16", f"{ship} is already alone")
    if ship == division.flagship:
        raise _illegal(
            name, "BF6-CMD-17", f"{ship} is the flagship; transfer command before dropping out"
        )
    if not drop_out_eligible(division, ship, logs):
        astern = division.astern_of(ship)
        mine = logs[ship].propulsion.hits
        theirs = logs[astern].propulsion.hits if astern else 0
        who = f"{astern} astern has {theirs}" if astern else "it needs at least 1"
        raise _illegal(
            name,
            "BF6-CMD-16",
            f"{ship} has {mine} propulsion hit(s) and {who}; dropping out needs one more than "
            "the ship astern",
        )
    rest = division.without(ship)
    alone = Division(
        name=f"{name}/{ship}",
        side=division.side,
        ships=(ship,),
        flagship=ship,
        formation=Formation.LINE_AHEAD,
        interval_m=division.interval_m,
        must_turn_out=True,
    )
    events.emit(
        EventKind.COMMAND,
        f"{ship} drops out of {name} and steams as division {alone.name} (BF6-CMD-17)",
        ship=ship,
        division=name,
        new_division=alone.name,
    )
    return rest, alone


# -- fleet messages ------------------------------------------------------------------------


def surrender(division: Division, logs: Mapping[str, ShipLog], events: EventLog) -> None:
    """ "We Surrender" (BF6-CMD-32): every ship of the division strikes and leaves the battle."""
    for ship in division.ships:
        log = logs[ship]
        if log.sunk or log.surrendered:
            continue
        log.surrendered = True
        events.emit(
            EventKind.SURRENDER,
            f"{ship} signals 'We Surrender' and strikes her colours",
            ship=ship,
            division=division.name,
        )


def fleet_turn(signal: Signal) -> TurnTogether | None:
    """The simultaneous turn a fleet turn message orders (BF6-CMD-27/28, EX-BF6-16)."""
    deg = signal.message.turn_deg
    if deg is None or signal.direction is None:
        return None
    return TurnTogether(deg, signal.direction)


# -- the Command Phase ---------------------------------------------------------------------


@dataclass
class CommandResult:
    """What the Command Phase leaves for the Movement Phase."""

    divisions: dict[str, Division]
    movement_orders: dict[str, tuple[Order, ...]]
    signals: list[tuple[str, Signal]] = field(default_factory=list)


def prune_division(
    division: Division, logs: Mapping[str, ShipLog], events: EventLog
) -> Division | None:
    """Take ships no longer in the battle (sunk, sinking, surrendered) out of a division.

    Call it after :func:`involuntary_transfer`, which moves the flag off a lost flagship. Returns
    ``None`` when no ship of the division is left in the battle.
    """
    if not any(logs[s].in_battle for s in division.ships):
        return None
    out = division
    if not logs[out.flagship].in_battle:  # no successor was found: keep the first one left
        out = out.with_(flagship=next(s for s in out.ships if logs[s].in_battle))
    for ship in division.ships:
        log = logs[ship]
        if log.in_battle:
            continue
        out = out.without(ship)
        why = "sunk" if log.sunk else "sinking" if log.sinking else "surrendered"
        events.emit(
            EventKind.COMMAND,
            f"{ship} leaves {division.name}: {why}",
            ship=ship,
            division=division.name,
        )
    return out


def _pass_fleet_flag(
    lost: Division,
    divisions: dict[str, Division],
    poses: Mapping[str, Pose],
    events: EventLog,
) -> None:
    """The fleet flagship's division is gone: the nearest division flagship of that side takes
    the fleet (an extension of AMB-05; documented in ``docs/rules-gaps/command.md``)."""
    same_side = [d for d in divisions.values() if d.side == lost.side]
    if not same_side or lost.flagship not in poses:
        return
    where = poses[lost.flagship]
    best = min(same_side, key=lambda d: (where.distance_to(poses[d.flagship]), d.name))
    divisions[best.name] = best.with_(fleet_flagship=True)
    events.emit(
        EventKind.COMMAND,
        f"{best.flagship} of {best.name} takes command of the fleet",
        ship=best.flagship,
        division=best.name,
        fleet=True,
    )


def _check_known(divisions: Mapping[str, Division], orders: Mapping[str, object]) -> None:
    unknown = sorted(set(orders) - set(divisions))
    if unknown:
        raise IllegalOrderError(
            f"unknown division {unknown[0]!r} (known: {', '.join(sorted(divisions))}; BF6-CMD-02)"
        )


def check_orders(
    divisions: Mapping[str, Division],
    orders: Mapping[str, OrdersIn],
    logs: Mapping[str, ShipLog],
    poses: Mapping[str, Pose],
    scale: Scale,
    last_moves: Mapping[str, float],
) -> dict[str, tuple[Order, ...]]:
    """Check a side's Command Phase orders when they are submitted: no dice, nothing changed.

    Raises :class:`~battleline.errors.OrderSyntaxError` for bad text and
    :class:`~battleline.errors.IllegalOrderError` for an unknown division or an order that breaks
    a rule now (stop with another order, an impossible speed, an ineligible drop-out or transfer).
    Returns the parsed orders by division.
    """
    _check_known(divisions, orders)
    scratch = EventLog()
    parsed: dict[str, tuple[Order, ...]] = {}
    for name, value in orders.items():
        division = divisions[name]
        mine = _orders(value)
        validate_orders(division, mine)
        for o in mine:
            if isinstance(o, TransferFlag):
                division = voluntary_transfer(
                    division, o.ship, logs, poses, scale, last_moves, scratch
                )
        for o in mine:
            if isinstance(o, DropOut):
                division = drop_out(division, o.ship, logs, scratch)[0]
        plan_division_move(
            division, [o for o in mine if o.movement], poses, logs, scale, last_moves
        )
        parsed[name] = mine
    return parsed


def command_phase(
    divisions: Mapping[str, Division],
    orders: Mapping[str, OrdersIn],
    logs: Mapping[str, ShipLog],
    poses: Mapping[str, Pose],
    scale: Scale,
    last_moves: Mapping[str, float],
    dice: Dice,
    events: EventLog,
) -> CommandResult:
    """Run the Command Phase (BF6-CMD-01): orders are keyed by division name.

    Steps, in order:

    1. every order is checked (:func:`check_orders`), so an illegal one is rejected before any
       die is rolled or anything changes;
    2. flags pass off lost flagships (BF6-CMD-24) or by roll (BF6-CMD-20..23), and lost ships
       leave their divisions;
    3. declared flag transfers (BF6-CMD-19), then drop-outs (BF6-CMD-16/17); one that this
       phase's own events made impossible is cancelled with an event;
    4. fleet messages (BF6-CMD-25..32): "We Surrender" strikes the sender's ships, the two fleet
       turns replace the turns of every division of the side with a turn together (EX-BF6-16),
       the others are announced for the admirals.
    """
    checked = check_orders(divisions, orders, logs, poses, scale, last_moves)
    parsed = {name: checked.get(name, ()) for name in divisions}

    out: dict[str, Division] = {}
    lost_fleet_flag: list[Division] = []
    for name, division in divisions.items():
        moved = involuntary_transfer(division, logs, poses, dice, events)
        kept = prune_division(moved, logs, events)
        if kept is None:
            events.emit(
                EventKind.COMMAND,
                f"{name} has no ship left in the battle",
                side=division.side,
                division=name,
            )
            if division.fleet_flagship:
                lost_fleet_flag.append(division)
            continue
        out[name] = kept
    for lost in lost_fleet_flag:
        _pass_fleet_flag(lost, out, poses, events)

    movement: dict[str, tuple[Order, ...]] = {}
    signals: list[tuple[str, Signal]] = []
    for name in list(out):
        division = out[name]
        mine = parsed[name]
        for o in mine:
            if isinstance(o, TransferFlag):
                try:
                    division = voluntary_transfer(
                        division, o.ship, logs, poses, scale, last_moves, events
                    )
                except IllegalOrderError as exc:
                    _cancelled(events, division, o, exc)
        for o in mine:
            if isinstance(o, DropOut):
                try:
                    division, alone = drop_out(division, o.ship, logs, events)
                except IllegalOrderError as exc:
                    _cancelled(events, division, o, exc)
                    continue
                out[alone.name] = alone
                # It turns out of the line in this very move (BF6-CMD-17).
                movement[alone.name] = (TurnTogether(45, o.turn_out),)
        out[name] = division
        movement[name] = tuple(o for o in mine if o.movement)
        signals.extend((name, o) for o in mine if isinstance(o, Signal))

    _fleet_messages(out, movement, signals, logs, events)
    return CommandResult(out, movement, signals)


def _cancelled(events: EventLog, division: Division, order: Order, exc: IllegalOrderError) -> None:
    """A division's order that could not be carried out: its own side's news."""
    events.emit(
        EventKind.COMMAND,
        f"{division.name}: {order} cancelled: {exc}",
        side=division.side,
        division=division.name,
        order=str(order),
    )


def _fleet_messages(
    divisions: dict[str, Division],
    movement: dict[str, tuple[Order, ...]],
    signals: Sequence[tuple[str, Signal]],
    logs: Mapping[str, ShipLog],
    events: EventLog,
) -> None:
    """Carry out the fleet messages of one Command Phase (BF6-CMD-25..32)."""
    turned: set[str] = set()
    # The fleet flagship's messages are read first, so its fleet turn wins a clash.
    ordered = sorted(signals, key=lambda s: not divisions[s[0]].fleet_flagship)
    for sender, signal in ordered:
        division = divisions[sender]
        events.emit(
            EventKind.SIGNAL,
            f"{division.flagship} ({sender}) signals '{signal.message.wording}'"
            + (f" to {signal.direction.name.lower()}" if signal.direction else ""),
            ship=division.flagship,
            side=None,
            division=sender,
            message=signal.message.value,
            order=str(signal),
        )
        if signal.message is FleetMessage.SURRENDER:
            surrender(division, logs, events)
            movement[sender] = ()
            continue
        turn = fleet_turn(signal)
        if turn is None:
            continue
        for name, other in divisions.items():
            if other.side != division.side or name in turned:
                continue
            if any(logs[s].surrendered for s in other.ships):
                continue
            turned.add(name)
            keep = tuple(o for o in movement.get(name, ()) if isinstance(o, SetSpeed))
            movement[name] = (*keep, turn)
            events.emit(
                EventKind.COMMAND,
                f"{name} obeys '{signal.message.wording}': {turn} (EX-BF6-16)",
                side=other.side,
                division=name,
                order=str(turn),
            )


# -- the Movement Phase for divisions -----------------------------------------------------


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
                raise _illegal(
                    division.name,
                    "BF6-MOV-01",
                    f"{speed} is faster than {ship}'s top undamaged propulsion box "
                    f"({knots[ship]:g} kn)",
                )
            if wanted > hi + 1e-6:
                raise _illegal(
                    division.name,
                    "BF6-MOV-03",
                    f"{speed} ({scale.fmt(wanted)}) is more than one propulsion box faster than "
                    f"{ship} moved last turn; at most {scale.fmt(hi)} this turn",
                )
            if wanted < lo - 1e-6:
                raise _illegal(
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


#: How many plans :func:`plan_division_move` remembers: a turn of a big battle makes a few dozen.
PLAN_MEMO_SIZE = 128
#: An event the plan emits: text and data (BF6-CMD-09 notes).
_Note = tuple[str, dict[str, str]]
_PlanKey = tuple[object, ...]
_plan_memo: dict[_PlanKey, tuple[Scale, DivisionPlan, tuple[_Note, ...]]] = {}
_plan_memo_lock = threading.Lock()


def _plan_key(
    division: Division,
    orders: tuple[Order, ...],
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    scale: Scale,
    last_moves: Mapping[str, float],
) -> _PlanKey:
    """Everything :func:`_make_plan` reads, as immutable values (the scale is compared apart).

    Per ship of the division: its pose; its last move, or ``None`` when absent (absent and
    present differ: see :func:`_division_distance`); what it reads of the log — the available
    speed, ``sunk`` and the propulsion box speeds (:func:`allowance_at`), the class's turning
    circle, the TR hits and the rudder (:func:`turn_radius_m`, :func:`apply_steering`), and the
    class's type when the interval is the default (:meth:`Scale.base_size_m`). The log's name
    only appears in an error, and errors are never remembered.
    """
    default_interval = not division.interval_m
    per_ship = tuple(
        (
            poses[ship],
            last_moves.get(ship),
            log.speed_knots,
            log.sunk,
            log.propulsion.speeds,
            log.cls.turning_circle_m,
            log.tr_hits,
            log.rudder,
            log.cls.type if default_interval else None,
        )
        for ship in division.ships
        for log in (logs[ship],)
    )
    return division, orders, per_ship


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
    :func:`_make_plan`.

    A turn plans each division up to four times with the same inputs (the AI's check, the check
    on submission, the Command Phase and the Movement Phase), so plans are remembered, keyed on
    :func:`_plan_key` — every value the plan reads, all immutable (frozen dataclasses, tuples,
    floats, enums) — and the scale, compared by value. The plan is a pure function of these, so
    a remembered plan is the plan made afresh; its notes (BF6-CMD-09 events) are emitted again
    on every call. Floats that compare equal but differ (only ±0.0) reach the plan through
    comparisons and sums with non-zero terms, where they act alike. A plan that raises is not
    remembered. A remembered plan is shared: callers only read it.
    """
    orders = tuple(orders)
    key = _plan_key(division, orders, poses, logs, scale, last_moves)
    hit = _plan_memo.get(key)
    if hit is not None and (hit[0] is scale or hit[0] == scale):
        plan, notes = hit[1], hit[2]
        if events is not None:
            for text, data in notes:
                events.emit(
                    EventKind.COMMAND,
                    text,
                    side=division.side,
                    division=data["division"],
                    order=data["order"],
                )
        return plan
    found: list[_Note] = []
    plan = _make_plan(division, orders, poses, logs, scale, last_moves, events, found)
    with _plan_memo_lock:  # the web server may plan from several threads
        if len(_plan_memo) >= PLAN_MEMO_SIZE:
            del _plan_memo[next(iter(_plan_memo))]  # the oldest
        _plan_memo[key] = (scale, plan, tuple(found))
    return plan


def _make_plan(
    division: Division,
    orders: Sequence[Order],
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    scale: Scale,
    last_moves: Mapping[str, float],
    events: EventLog | None,
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
            if events is not None:
                events.emit(
                    EventKind.COMMAND,
                    text,
                    side=division.side,
                    division=division.name,
                    order=str(o),
                )
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


def finish_division_move(
    plan: DivisionPlan, tracks: Mapping[str, Track], events: EventLog | None = None
) -> Division:
    """The division after its move: wakes for line ahead, or the formation a turn together left
    it in (BF6-CMD-10), reversing the line when the turn put the rear ship in front."""
    division = plan.division.with_(must_turn_out=False)
    ships = division.ships
    if plan.together is None:
        if division.formation is not Formation.LINE_AHEAD or len(ships) == 1:
            return division.with_(wake=())
        lead = ships[0]
        lead_run = split_path(plan.paths[lead], tracks[lead].length_m, plan.radius_m[lead])[0]
        wake = []
        for ship in ships[1:]:
            # The follower's path to the lead's new position is its old wake plus the lead's run.
            whole = (*plan.wakes.get(ship, ()), *lead_run)
            rest = split_path(whole, tracks[ship].length_m, plan.radius_m[ship])[1]
            wake.append((ship, rest))
        return division.with_(wake=tuple(wake))
    # Every ship ran the same legs only if each made the whole turn (a ship dead in the water,
    # short of movement or with a jammed rudder did not): otherwise read the poses.
    same = all(abs(tracks[s].turned_deg - plan.together) <= TURN_SLACK_DEG for s in ships)
    if plan.clean_together and same:
        formation, reverse = formation_after_turn(division.formation, plan.together)
    else:
        formation, reverse = classify_formation([tracks[s].end for s in ships], 3.0)
    if reverse:
        division = division.reversed()
    division = division.with_(formation=formation, wake=())
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
) -> MovementResult:
    """Move every division at once (BF6-GEN-07): plan, trace, stop at contacts, keep station.

    ``last_moves`` in the result is each ship's actual move, or 0 for a ship that obeyed a stop
    order (it is dead in the water for the next turn's acceleration, BF6-CMD-13).
    """
    plans = {
        name: plan_division_move(d, orders.get(name, ()), poses, logs, scale, last_moves, events)
        for name, d in divisions.items()
    }
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


__all__ = [
    "CommandResult",
    "DivisionPlan",
    "MovementResult",
    "check_arrow",
    "check_orders",
    "closest_successor",
    "command_phase",
    "drop_out",
    "drop_out_eligible",
    "finish_division_move",
    "fleet_turn",
    "involuntary_bonus",
    "involuntary_transfer",
    "movement_phase",
    "plan_division_move",
    "prune_division",
    "surrender",
    "transfer_command",
    "validate_orders",
    "voluntary_transfer",
]
