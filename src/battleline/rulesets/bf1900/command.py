"""The Command Phase (BF6-CMD-01..32).

* :func:`check_and_plan` checks a side's orders when they are submitted and plans each
  division's move (:mod:`battleline.rulesets.bf1900.planning`, where the Movement Phase is).
* :func:`command_phase` runs the Command Phase for one side or both: removes lost ships, makes
  the automatic and rolled (involuntary) transfers of command, the declared (voluntary) ones,
  drop-outs and fleet messages, and returns each division's movement orders with the moves
  planned on submission that still fit.

Transfer of command is :mod:`~battleline.rulesets.bf1900.transfer`, dropping out
:mod:`~battleline.rulesets.bf1900.drop_out`; every name this module held before stays importable.

Readings of the gaps and ambiguities (AMB-01..09, REF-BF6-15) are in ``docs/rules-gaps/command.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.divisions import (
    Division,
)
from battleline.rulesets.bf1900.drop_out import drop_out, drop_out_eligible
from battleline.rulesets.bf1900.notation import (
    Arrow,
    DropOut,
    FleetMessage,
    Order,
    SetSpeed,
    Signal,
    TransferFlag,
    TurnInSuccession,
    TurnTogether,
    arrow_class,
    parse_orders,
)
from battleline.rulesets.bf1900.planning import (
    PlannedMove,
    illegal_order,
    plan_move,
    validate_orders,
)
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.transfer import (
    INVOLUNTARY_BONUS,
    INVOLUNTARY_TARGET,
    VOLUNTARY_RANGE_FRACTION,
    VOLUNTARY_SPEED_FRACTION,
    closest_successor,
    involuntary_bonus,
    involuntary_transfer,
    transfer_command,
    voluntary_transfer,
)

OrdersIn = str | Sequence[Order]


def _orders(value: OrdersIn) -> tuple[Order, ...]:
    return parse_orders(value) if isinstance(value, str) else tuple(value)


# -- validation ----------------------------------------------------------------------------


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
        raise illegal_order(
            division,
            "BF6-CMD-07",
            f"a turn to {side} under a {order.arrow} drawn to {order.direction.name.lower()}",
        )
    needed = arrow_class(turned_deg)
    if _ARROW_RANK[needed] > _ARROW_RANK[order.arrow]:
        raise illegal_order(
            division,
            "BF6-CMD-06",
            f"a {abs(turned_deg):g}° turn needs the {needed}, not the {order.arrow} of {order}",
        )


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
    #: The moves planned on submission that still fit their divisions (the others are planned
    #: again in the Movement Phase).
    plans: dict[str, PlannedMove] = field(default_factory=dict)


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


def check_and_plan(
    divisions: Mapping[str, Division],
    orders: Mapping[str, OrdersIn],
    logs: Mapping[str, ShipLog],
    poses: Mapping[str, Pose],
    scale: Scale,
    last_moves: Mapping[str, float],
) -> tuple[dict[str, tuple[Order, ...]], dict[str, PlannedMove]]:
    """Check a side's Command Phase orders when they are submitted, and plan each division's move.

    No dice are rolled and nothing changes. Raises :class:`~battleline.errors.OrderSyntaxError`
    for bad text and :class:`~battleline.errors.IllegalOrderError` for an unknown division or an
    order that breaks a rule now (stop with another order, an impossible speed, an ineligible
    drop-out or transfer). Returns the parsed orders by division, and the move each division's
    orders make (:func:`plan_move`), planned for the division as the side's own transfers and
    drop-outs leave it.
    """
    _check_known(divisions, orders)
    scratch = EventLog()
    parsed: dict[str, tuple[Order, ...]] = {}
    plans: dict[str, PlannedMove] = {}
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
        moves = [o for o in mine if o.movement]
        plans[name] = plan_move(division, moves, poses, logs, scale, last_moves)
        parsed[name] = mine
    return parsed, plans


def command_phase(
    divisions: Mapping[str, Division],
    orders: Mapping[str, OrdersIn],
    logs: Mapping[str, ShipLog],
    poses: Mapping[str, Pose],
    scale: Scale,
    last_moves: Mapping[str, float],
    dice: Dice,
    events: EventLog,
    planned: Mapping[str, PlannedMove] | None = None,
) -> CommandResult:
    """Run the Command Phase (BF6-CMD-01): orders are keyed by division name.

    ``planned`` holds the moves planned when the orders were submitted (:func:`check_and_plan`);
    the result passes on those that still fit their division and its movement orders, for the
    Movement Phase to carry out.

    Steps, in order:

    1. every order is checked (:func:`check_and_plan`), so an illegal one is rejected before any
       die is rolled or anything changes;
    2. flags pass off lost flagships (BF6-CMD-24) or by roll (BF6-CMD-20..23), and lost ships
       leave their divisions;
    3. declared flag transfers (BF6-CMD-19), then drop-outs (BF6-CMD-16/17); one that this
       phase's own events made impossible is cancelled with an event;
    4. fleet messages (BF6-CMD-25..32): "We Surrender" strikes the sender's ships, the two fleet
       turns replace the turns of every division of the side with a turn together (EX-BF6-16),
       the others are announced for the admirals.
    """
    if planned is None:
        checked, planned = check_and_plan(divisions, orders, logs, poses, scale, last_moves)
    else:
        checked = {name: _orders(value) for name, value in orders.items()}
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
    still = {
        name: move
        for name, move in planned.items()
        if name in out and move.fits(out[name], movement.get(name, ()))
    }
    return CommandResult(out, movement, signals, still)


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


# Every name this module held before transfer of command and dropping out moved out stays
# importable from here.
__all__ = [
    "INVOLUNTARY_BONUS",
    "INVOLUNTARY_TARGET",
    "VOLUNTARY_RANGE_FRACTION",
    "VOLUNTARY_SPEED_FRACTION",
    "CommandResult",
    "OrdersIn",
    "check_and_plan",
    "check_arrow",
    "closest_successor",
    "command_phase",
    "drop_out",
    "drop_out_eligible",
    "fleet_turn",
    "involuntary_bonus",
    "involuntary_transfer",
    "prune_division",
    "surrender",
    "transfer_command",
    "validate_orders",
    "voluntary_transfer",
]
