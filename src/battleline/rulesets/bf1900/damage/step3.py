"""Damage Step Three: damage control (BF6-DC, BF6-REP, BF6-CF).

:func:`validate_declarations` checks a ship's declarations against its log (for order submission
and again at the start of Step Three); :func:`resolve_damage_control` rolls them. All Step Three
actions are simultaneous (BF6-DC-01): eligibility is judged on the log as the step begins.

Readings (``docs/rules-gaps/damage.md``): every action, command functions included, spends one DC
die (AMB-29); a damage event is one slash, one propulsion mark, one hit on a line, one zone's
flooding, one sink roll or one command attempt (AMB-28); scuttling spends one die per zone still
short of Severe.
"""

from __future__ import annotations

from collections.abc import Sequence

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.damage.context import DamageCharts
from battleline.rulesets.bf1900.damage.declarations import DCAction, DCDeclaration
from battleline.rulesets.bf1900.damage.locations import position_compartment, raise_flooding
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, GunClass
from battleline.rulesets.bf1900.shiplog import Mark, RudderState, ShipLog

_OPPOSITE = {
    Compartment.FORWARD: Compartment.AFT,
    Compartment.AFT: Compartment.FORWARD,
    Compartment.PORT: Compartment.STARBOARD,
    Compartment.STARBOARD: Compartment.PORT,
}


def _illegal(log: ShipLog, decl: DCDeclaration, reason: str, rule: str) -> IllegalOrderError:
    return IllegalOrderError(f"{log.name}: damage control {decl.text}: {reason} ({rule})")


def counterflood_zones(log: ShipLog) -> set[Compartment]:
    """Zones a counterflood may fill: the less flooded side of each uneven axis (BF6-CF-04,
    AMB-31)."""
    zones: set[Compartment] = set()
    c = log.compartments
    for a, b in ((Compartment.PORT, Compartment.STARBOARD), (Compartment.FORWARD, Compartment.AFT)):
        if c[a].level > c[b].level:
            zones.add(b)
        elif c[b].level > c[a].level:
            zones.add(a)
    return zones


def scuttle_dice(log: ShipLog) -> int:
    """Dice a scuttling attempt spends: one per zone not yet Severe, as far as dice allow."""
    short = sum(1 for s in log.compartments.values() if s.level < FloodLevel.SEVERE)
    return min(short, log.dc_dice)


def dice_needed(log: ShipLog, decls: Sequence[DCDeclaration]) -> int:
    """DC dice the declarations spend (one each; a scuttle one per zone, BF6-DC-02)."""
    return sum(scuttle_dice(log) if d.action is DCAction.SCUTTLE else 1 for d in decls)


def _events_for(log: ShipLog, decl: DCDeclaration) -> int:
    """How many damage events of this kind the declaration could address (BF6-DC-02, AMB-28).

    Raises for a target that is missing, destroyed or out of commission.
    """
    a = decl.action
    if a is DCAction.REPAIR_P:
        return log.propulsion.margin + log.propulsion.damaged
    if a is DCAction.REPAIR_BR:
        return log.bridge_hits
    if a is DCAction.REPAIR_ST:
        return log.tr_hits
    if a is DCAction.REPAIR_DC:
        return sum(1 for m in log.dc_boxes if m is Mark.DAMAGED)
    if a is DCAction.REPAIR_R:
        return int(log.rudder not in (RudderState.FREE, RudderState.SECURED))
    if a is DCAction.SECURE_R:
        if log.rudder is not RudderState.FREE:
            raise _illegal(log, decl, f"only a free, undamaged rudder can be secured "
                           f"(rudder is {log.rudder.value})", "BF6-REP-10")  # fmt: skip
        return 1
    if a is DCAction.FREE_R:
        if log.rudder is not RudderState.SECURED:
            raise _illegal(log, decl, "the rudder is not secured", "BF6-REP-10")
        return 1
    if a in (DCAction.SINK_MINUS_1, DCAction.SCUTTLE):
        return 1
    if a is DCAction.RECOVER_CT:
        return int(log.ct_hits > 0)
    if a in (DCAction.REPAIR_M, DCAction.FLOOD_MAGAZINE, DCAction.REPAIR_S):
        return _position_events(log, decl)
    if a is DCAction.STOP_HVY_FL:
        zone = decl.compartment
        assert zone is not None
        state = log.compartments[zone]
        if state.level is FloodLevel.SEVERE:
            raise _illegal(log, decl, "severe flooding cannot be contained", "BF6-REP-08")
        # A counterflooded zone triggers no Step One roll, so there is nothing to contain.
        return int(
            state.level is FloodLevel.HEAVY and not state.contained and not state.counterflooded
        )
    if a is DCAction.COUNTERFLOOD:
        zone = decl.compartment
        assert zone is not None and decl.level is not None
        if not counterflood_zones(log):
            raise _illegal(
                log, decl, "only a ship with uneven flooding may counterflood", "BF6-CF-04"
            )
        if zone in log.counterflood_locked:
            raise _illegal(log, decl, f"a counterflood of {zone.value} already failed this phase",
                           "BF6-CF-05")  # fmt: skip
        if zone not in counterflood_zones(log):
            raise _illegal(log, decl, f"{zone.value} is not the zone opposite the flooding",
                           "BF6-CF-04, AMB-31")  # fmt: skip
        if decl.level <= log.compartments[zone].level:
            raise _illegal(log, decl, f"{zone.value} is already at "
                           f"{log.compartments[zone].level.name.title()}", "BF6-CF-05")  # fmt: skip
        return 1
    raise AssertionError(f"unhandled action {a}")  # pragma: no cover


def _position_events(log: ShipLog, decl: DCDeclaration) -> int:
    key = decl.target or ""
    try:
        mount = log.cls.mounting(key)
    except KeyError:
        raise _illegal(
            log, decl, f"{log.cls.name} has no mounting {key!r}", "BF6-DTYPE-02"
        ) from None
    if decl.action is DCAction.REPAIR_S:
        if mount.gun_class not in (GunClass.SECONDARY, GunClass.TERTIARY):
            raise _illegal(
                log, decl, f"{key} is not a secondary or tertiary mounting", "BF6-REP-09"
            )
    elif mount.gun_class is not GunClass.MAIN or not mount.is_lettered:
        raise _illegal(log, decl, f"{key} is not a main position", "BF6-REP-07, BF6-CF-03")
    if not mount.is_lettered:
        return sum(1 for m in log.batteries[key] if m is Mark.DAMAGED)
    pos = log.positions[key]
    if decl.action is DCAction.FLOOD_MAGAZINE:
        if pos.magazine_flooded:
            raise _illegal(log, decl, f"{key}'s magazine is already flooded", "BF6-CF-03")
        return 1
    if pos.destroyed:
        raise _illegal(log, decl, f"{key} is destroyed and cannot be repaired", "BF6-REP-01")
    if pos.magazine_flooded:
        raise _illegal(log, decl, f"{key}'s magazine is flooded: out of commission for good",
                       "BF6-CF-03")  # fmt: skip
    return pos.slashes


def validate_declarations(
    log: ShipLog, decls: Sequence[DCDeclaration], *, dice_per_event: int = 1
) -> None:
    """Check one ship's Step Three declarations against its log; raise
    :class:`IllegalOrderError` naming the ship and the rule broken.

    A sinking ship does no damage control (BF6-SINK-03); a CT hit bars command functions but
    Recover CT (BF6-CF-01, AMB-39); one die per damage event (BF6-DC-02); no more dice than
    unmarked DC boxes (BF6-DC-04, EX-BF6-09); nothing destroyed is repaired (BF6-REP-01).
    ``dice_per_event`` is the per-event cap, a setting: 1 in this edition, 2 in the 1D12 one
    (DIFF-02).
    """
    check = DeclarationCheck(log, dice_per_event=dice_per_event)
    for decl in decls:
        check.take(decl)
    check.check_dice()


class DeclarationCheck:
    """:func:`validate_declarations` one declaration at a time.

    Whoever builds a list by trying one more declaration after another (Step Three keeping the
    orders still possible, an admiral planning) would otherwise re-check the whole list at every
    step. The log does not change while a list is checked, so the earlier declarations would pass
    again exactly as before: only the newcomer and the dice total need checking, which
    :meth:`add` does, with the same errors the whole list gives.
    """

    def __init__(self, log: ShipLog, *, dice_per_event: int = 1) -> None:
        self.log = log
        self.dice_per_event = dice_per_event
        self.needed = scuttle_dice(log) if log.scuttling else 0
        self._counts: dict[tuple[str, str | None], int] = {}

    def take(self, decl: DCDeclaration) -> None:
        """The checks of one declaration in its list (not the dice total); count it in."""
        key, count = self._check(decl)
        self._counts[key] = count
        self.needed += scuttle_dice(self.log) if decl.action is DCAction.SCUTTLE else 1

    def check_dice(self, needed: int | None = None) -> None:
        """Raise if the declarations taken (or ``needed`` dice) exceed the DC dice
        (BF6-DC-04)."""
        needed = self.needed if needed is None else needed
        log = self.log
        if needed > log.dc_dice:
            raise IllegalOrderError(
                f"{log.name}: damage control needs {needed} DC dice but only {log.dc_dice} "
                "unmarked DC boxes remain (BF6-DC-04)"
            )

    def add(self, decl: DCDeclaration) -> None:
        """Take ``decl`` if the declarations taken so far and ``decl`` are valid together;
        otherwise raise as :func:`validate_declarations` would, and take nothing."""
        key, count = self._check(decl)
        cost = scuttle_dice(self.log) if decl.action is DCAction.SCUTTLE else 1
        self.check_dice(self.needed + cost)
        self._counts[key] = count
        self.needed += cost

    def _check(self, decl: DCDeclaration) -> tuple[tuple[str, str | None], int]:
        """Raise if ``decl`` is illegal after those taken; else its count key and new count."""
        log = self.log
        if decl.ship != log.name:
            raise _illegal(log, decl, f"declared for {decl.ship!r}, not this ship", "BF6-DC-01")
        if log.sunk or log.sinking is not None:
            raise _illegal(log, decl, "a sinking ship conducts no damage control", "BF6-SINK-03")
        action = decl.action
        if log.scuttling and action is DCAction.SCUTTLE:
            raise _illegal(log, decl, "the scuttling is already under way", "BF6-CF-06")
        if log.ct_hits and action is not DCAction.RECOVER_CT and action.is_command_function:
            raise _illegal(
                log,
                decl,
                "command functions are barred while a conning-tower hit stands",
                "BF6-CF-01",
            )
        available = _events_for(log, decl)
        key = (str(action), str(decl.target) if decl.target is not None else None)
        count = self._counts.get(key, 0) + 1
        if count > available * self.dice_per_event:
            what = "nothing to address" if available == 0 else f"only {available} to address"
            raise _illegal(log, decl, f"{what}; one DC die per damage event", "BF6-DC-02")
        return key, count


def usable_declarations(
    log: ShipLog, decls: Sequence[DCDeclaration], events: EventLog, *, dice_per_event: int = 1
) -> list[DCDeclaration]:
    """The declarations still possible now, in order; the rest dropped with a note.

    Step One and Two may have changed the log since the orders were written (BF6-DMG-03,
    EX-BF6-09), so an order that became impossible is dropped rather than failing the turn.
    """
    kept: list[DCDeclaration] = []
    check = DeclarationCheck(log, dice_per_event=dice_per_event)
    for decl in decls:
        try:
            check.add(decl)
        except IllegalOrderError as err:
            events.emit(EventKind.NOTE, f"dropped: {err}", ship=log.name, declaration=decl.text)
            continue
        kept.append(decl)
    return kept


def _succeeds(charts: DamageCharts, decl: DCDeclaration, roll: int) -> tuple[bool, int, int]:
    key = decl.action.chart_key
    if decl.action.is_command_function:
        lo, hi = charts.command_range(key)
    else:
        lo, hi = charts.repair_range(key)
    return lo <= roll <= hi, lo, hi


def resolve_damage_control(
    log: ShipLog,
    decls: Sequence[DCDeclaration],
    charts: DamageCharts,
    dice: Dice,
    events: EventLog,
) -> None:
    """Roll each declaration (one DC die each) and apply the successes (BF6-REP-02..11,
    BF6-CF-03..07). ``decls`` must already be valid (see :func:`usable_declarations`)."""
    if log.scuttling and not any(d.action is DCAction.SCUTTLE for d in decls):
        _scuttle(log, charts, dice, events)
    for decl in decls:
        if log.sunk:  # scuttled or capsized: nothing left to repair
            return
        if decl.action is DCAction.SCUTTLE:
            log.scuttling = True
            events.emit(
                EventKind.COMMAND_FUNCTION,
                f"{log.name}: scuttling announced; it cannot be called off (BF6-CF-06)",
                ship=log.name,
            )
            _scuttle(log, charts, dice, events)
            continue
        roll = dice.d6(f"damage control {decl.text}", ship=log.name)
        ok, lo, hi = _succeeds(charts, decl, roll)
        kind = EventKind.COMMAND_FUNCTION if decl.action.is_command_function else EventKind.REPAIR
        outcome = _apply(log, decl, events) if ok else _fail(log, decl)
        events.emit(
            kind,
            f"{log.name}: {decl.text} rolls {roll} (needs {lo}–{hi}) → {outcome}",
            ship=log.name,
            declaration=decl.text,
            roll=roll,
            success=ok,
        )


def _fail(log: ShipLog, decl: DCDeclaration) -> str:
    if decl.action is DCAction.COUNTERFLOOD and decl.compartment is not None:
        log.counterflood_locked.add(decl.compartment)
        return f"failed; no more counterflooding of {decl.compartment.value} this phase"
    return "failed"


def _apply(log: ShipLog, decl: DCDeclaration, events: EventLog) -> str:
    a = decl.action
    if a is DCAction.REPAIR_P:
        what = log.propulsion.repair()  # the margin first (BF6-PROP-04)
        return "propulsion access repaired" if what == "margin" else "propulsion box repaired"
    if a is DCAction.REPAIR_BR:
        log.bridge_hits -= 1
        return "bridge hit repaired"
    if a is DCAction.REPAIR_ST:
        log.tr_hits -= 1
        return "one TR hit erased"
    if a is DCAction.REPAIR_DC:
        log.dc_boxes[log.dc_boxes.index(Mark.DAMAGED)] = Mark.NONE
        return "DC box repaired"
    if a is DCAction.REPAIR_R:
        log.rudder = RudderState.FREE
        return "rudder repaired"
    if a is DCAction.SECURE_R:
        log.rudder = RudderState.SECURED
        return "rudder secured on the centre-line (RC)"
    if a is DCAction.FREE_R:
        log.rudder = RudderState.FREE
        return "rudder freed"
    if a is DCAction.SINK_MINUS_1:
        log.sink_roll_bonus = 1
        return "−1 on this turn's sink roll"
    if a is DCAction.RECOVER_CT:
        log.ct_hits = 0
        return "command re-established"
    if a is DCAction.STOP_HVY_FL:
        zone = decl.compartment
        assert zone is not None
        log.compartments[zone].contained = True
        return f"Hvy flooding in {zone.value} contained"
    if a in (DCAction.REPAIR_M, DCAction.REPAIR_S):
        return _repair_gun(log, decl.target or "")
    if a is DCAction.FLOOD_MAGAZINE:
        return _flood_magazine(log, decl.target or "", events)
    if a is DCAction.COUNTERFLOOD:
        zone, level = decl.compartment, decl.level
        assert zone is not None and level is not None
        state = log.compartments[zone]
        state.level = level
        state.counterflooded = True
        return f"{zone.value} counterflooded to {level.name.title()}"
    raise AssertionError(f"unhandled action {a}")  # pragma: no cover


def _repair_gun(log: ShipLog, key: str) -> str:
    """One slash or one damaged pattern gun repaired (BF6-REP-03, BF6-REP-07/09)."""
    if key in log.positions:
        pos = log.positions[key]
        pos.slashes -= 1
        left = f"{pos.slashes} slash{'es' * (pos.slashes != 1)} left"
        return f"one slash on {key} repaired ({'back in action' if pos.in_action else left})"
    marks = log.batteries[key]
    marks[marks.index(Mark.DAMAGED)] = Mark.NONE
    return f"one {key} gun repaired"


def _flood_magazine(log: ShipLog, key: str, events: EventLog) -> str:
    """The position is out for good and its zone gains one level (BF6-CF-03, EX-BF6-17)."""
    log.positions[key].magazine_flooded = True
    zone = position_compartment(log.cls.mounting(key))
    old = log.compartments[zone].level
    raise_flooding(log, zone, FloodLevel(min(int(old) + 1, int(FloodLevel.SEVERE))), events)
    return f"{key}'s magazine flooded; {zone.value} now {log.compartments[zone].level.name.title()}"


def _scuttle(log: ShipLog, charts: DamageCharts, dice: Dice, events: EventLog) -> None:
    """Counterflood every zone to Severe, one die each (BF6-CF-06). Any success loses the ship:
    all four Severe → it sinks, some → it capsizes (AMB-32)."""
    lo, hi = charts.command_range("COUNTERFLOOD")
    flooded = 0
    for zone in [z for z, s in log.compartments.items() if s.level < FloodLevel.SEVERE][
        : scuttle_dice(log)
    ]:
        roll = dice.d6(f"scuttle: counterflood {zone.value}", ship=log.name)
        ok = lo <= roll <= hi
        if ok:
            state = log.compartments[zone]
            state.level, state.counterflooded = FloodLevel.SEVERE, True
            flooded += 1
        events.emit(
            EventKind.COMMAND_FUNCTION,
            f"{log.name}: scuttle {zone.value} rolls {roll} (needs {lo}–{hi}) → "
            f"{'flooded Severe' if ok else 'failed'}",
            ship=log.name,
            roll=roll,
            success=ok,
        )
    if not flooded:
        return
    full = all(s.level is FloodLevel.SEVERE for s in log.compartments.values())
    log.sunk = True
    log.lost_reason = "scuttled" if full else "capsized"
    events.emit(
        EventKind.SUNK,
        f"{log.name}: {'scuttled, she goes down' if full else 'capsizes while scuttling'} "
        "(BF6-CF-06, AMB-32)",
        ship=log.name,
        reason=log.lost_reason,
    )
