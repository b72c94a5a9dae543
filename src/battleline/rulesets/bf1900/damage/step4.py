"""Damage Step Four: sinking and listing (BF6-DMG-12/13, BF6-SINK-01..04).

* Flooding points are the sum of the four zones' levels (BF6-DMG-12).
* Uneven flooding: each uneven axis looks up ``charts.uneven_flooding``; the effect is stored on
  the log and recomputed every Step Four, so it vanishes once the disparity is corrected
  (BF6-DMG-11/13, EX-BF6-10). Damage control cannot repair it.
* At 5 or more points the ship makes a sink roll, unmodified except for the DC −1 (BF6-SINK-01,
  AMB-24). Inside the row's range it begins to sink, going down after the printed number of
  turns, counted from the next turn (BF6-SINK-02, AMB-25).
* A sinking ship that wants to fire rolls to keep its gun crews (BF6-SINK-04, AMB-26).
"""

from __future__ import annotations

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.bf1900.damage.context import DamageCharts
from battleline.rulesets.bf1900.shiplog import ShipLog, SinkingState

#: Total flooding points that call for a sink roll (BF6-SINK-01, EX-DRV-04).
SINK_ROLL_POINTS = 5


def update_listing(log: ShipLog, charts: DamageCharts, events: EventLog) -> None:
    """Recompute the uneven-flooding effects from the zones now (BF6-DMG-13, EX-BF6-18).

    The effects replace last turn's: a corrected disparity leaves none (BF6-DMG-11, EX-BF6-10).
    """
    before = dict(log.uneven)
    log.uneven = {}
    for axis, diff in (
        ("side", log.side_to_side_difference),
        ("fore_aft", log.fore_aft_difference),
    ):
        if diff > 0:
            log.uneven[axis] = charts.uneven_flooding(axis, diff)
    log.uneven_tr_hits = sum(e.tr_hits for e in log.uneven.values())
    if log.uneven:
        effects = "; ".join(f"{axis}: {effect}" for axis, effect in log.uneven.items())
        events.emit(
            EventKind.LISTING,
            f"{log.name}: {' and '.join(log.listing)} "
            f"({log.side_to_side_difference} side, {log.fore_aft_difference} fore/aft) → {effects}",
            ship=log.name,
            listing=list(log.listing),
            side_points=log.side_to_side_difference,
            fore_aft_points=log.fore_aft_difference,
        )
    elif before:
        events.emit(
            EventKind.LISTING,
            f"{log.name}: back on an even keel, listing effects gone",
            ship=log.name,
        )


def sink_roll(
    log: ShipLog, charts: DamageCharts, dice: Dice, events: EventLog, *, dc_bonus: bool = True
) -> bool:
    """Roll for sinking if the ship has 5+ flooding points; returns whether it began to sink.

    The only modifier is the DC "−1 this turn's sink roll" (AMB-24), used up by this roll.
    ``dc_bonus=False`` reads "unmodified" strictly: the −1 is ignored (a setting, AMB-24).
    """
    points = log.flooding_points
    bonus, log.sink_roll_bonus = log.sink_roll_bonus, 0
    if not dc_bonus:
        bonus = 0
    if points < SINK_ROLL_POINTS or log.sinking is not None or log.sunk:
        return False
    row = charts.sink_roll(points)
    if row is None:
        return False
    lo, hi, turns = row
    face = dice.d6(f"sink roll ({points} flooding points)", ship=log.name)
    roll = face - bonus
    sinks = lo <= roll <= hi
    mod = f" −{bonus} = {roll}" if bonus else ""
    events.emit(
        EventKind.SINKING if sinks else EventKind.NOTE,
        f"{log.name}: sink roll {face}{mod} against {lo}–{hi} → "
        + (f"she is sinking, {turns} turn{'s' * (turns != 1)} left" if sinks else "stays afloat"),
        ship=log.name,
        roll=face,
        modified=roll,
        points=points,
        sinks=sinks,
    )
    if sinks:
        log.sinking = SinkingState(turns_left=turns)
    return sinks


def count_down(log: ShipLog, events: EventLog) -> None:
    """A sinking ship is one turn nearer the bottom; at zero it is gone (AMB-25)."""
    if log.sinking is None or log.sunk:
        return
    log.sinking.turns_left -= 1
    if log.sinking.turns_left <= 0:
        log.sunk = True
        log.lost_reason = log.lost_reason or "sank"
        events.emit(EventKind.SUNK, f"{log.name}: goes under", ship=log.name)
    else:
        events.emit(
            EventKind.SINKING,
            f"{log.name}: sinking, {log.sinking.turns_left} turn"
            f"{'s' * (log.sinking.turns_left != 1)} left",
            ship=log.name,
            turns_left=log.sinking.turns_left,
        )


def run_step_four(
    log: ShipLog, charts: DamageCharts, dice: Dice, events: EventLog, *, dc_bonus: bool = True
) -> None:
    """Step Four for one ship: count down an earlier sinking, list, then the sink roll."""
    if log.sunk:
        return
    count_down(log, events)
    if log.sunk:
        return
    update_listing(log, charts, events)
    sink_roll(log, charts, dice, events, dc_bonus=dc_bonus)


def abandon_guns_roll(log: ShipLog, dice: Dice, events: EventLog) -> bool:
    """The sinking ship's gun-crew roll at the start of a Gunnery Phase (BF6-SINK-04, EX-DRV-05).

    Returns whether the ship may fire its active guns this phase: 1–3 yes, 4–6 the crews
    abandon every gun for the rest of the game. A ship not sinking fires without a roll; one whose
    crews have gone never fires again and rolls no more.
    """
    if log.sunk:
        return False
    if log.sinking is None:
        return True
    if log.sinking.guns_abandoned:
        return False
    face = dice.d6("gun crews stand by their guns?", ship=log.name)
    if face >= 4:
        log.sinking.guns_abandoned = True
        events.emit(
            EventKind.SINKING,
            f"{log.name}: crews roll {face} → they abandon the guns for good",
            ship=log.name,
            roll=face,
        )
        return False
    events.emit(
        EventKind.SINKING,
        f"{log.name}: crews roll {face} → they keep firing",
        ship=log.name,
        roll=face,
    )
    return True
