"""1D12 Damage Step Three: damage control and command actions (BF12-DC, BF12-REP, BF12-CMDA).

The notation is the 1D6 one (``bf1900.damage.declarations``) plus ``FIRE`` (put out one fire,
DIFF-06); actions the 1D12 Damage Control chart lacks (``BR``, ``HVY``, ``DC``, ``SECURE``,
``FREE``; DIFF-05) are refused. Each declaration is one damage die:

* the pool is the propulsion boxes not destroyed as of the Command Phase (BF12-DC-03/04);
* a damage event takes up to 2 dice (BF12-DC-02); the dice are spread one per event first and
  each is its own attempt, so an event is repaired if any of its dice succeeds (AMB-49);
* the values: main, propulsion, steering 12; secondary 11–12; fire 11–12; sink modifier 10–12;
  flood magazine and counterflood 4–12; recover CT 7–12 (BF12-REP-02..05, BF12-CMDA-02..06);
* a CT hit bars Flood Magazine, Counterflood and Scuttle, not repairs (BF12-CMDA-01, BF12-REP-07);
* counterflooding needs uneven flooding, floods the less flooded opposing compartment to the
  level chosen, and a failure locks nothing (BF12-CMDA-03/04, DIFF-19); scuttling rolls a
  counterflood in each compartment short of Severe, one die each (BF12-CMDA-05);
* Recover CT is rolled here, and only once a turn: "may roll once each turn" (BF12-CMDA-06,
  AMB-55), so the two-dice cap of BF12-DC-02 does not apply to it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900.damage.declarations import DCAction, DCDeclaration
from battleline.rulesets.bf1900.damage.declarations import parse_declaration as parse_1d6
from battleline.rulesets.bf1900.damage.locations import position_compartment, raise_flooding
from battleline.rulesets.bf1900.damage.step3 import counterflood_zones
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, GunClass
from battleline.rulesets.bf1900.shiplog import Mark, RudderState, ShipLog
from battleline.rulesets.bf1900_12.charts import DIE, Charts12

#: Dice one damage event may take (BF12-DC-02, DIFF-02).
DICE_PER_EVENT = 2
FIRE = "FIRE"
#: Action → row of the Damage Control chart.
CHART_ROWS: dict[str, str] = {
    "P": "propulsion",
    "M": "main",
    "ST": "steering",
    "R": "rudder",
    "S": "secondary",
    FIRE: "fire",
    "SINK-1": "sink_modifier",
    "FLOODMAG": "flood_magazine",
    "CF": "counterflood",
    "SCUTTLE": "counterflood",
    "RECOVER-CT": "recover_ct",
}
#: Command actions a CT hit bars (BF12-CMDA-01).
COMMAND_ACTIONS = frozenset({"FLOODMAG", "CF", "SCUTTLE"})
#: Actions rolled at most once a turn, whatever BF12-DC-02 allows (BF12-CMDA-06).
ONCE_A_TURN = frozenset({"RECOVER-CT"})


@dataclass(frozen=True, slots=True)
class DC12Declaration:
    """One damage die declared for ``ship``: ``action`` a key of :data:`CHART_ROWS`."""

    ship: str
    action: str
    target: str | None = None
    level: FloodLevel | None = None

    @property
    def text(self) -> str:
        """The notation."""
        out = self.action + (f":{self.target}" if self.target else "")
        return out + (f"={self.level.name.lower()}" if self.level is not None else "")

    @property
    def event(self) -> tuple[str, str | None]:
        """The damage event addressed (action and target)."""
        return self.action, self.target


def parse_declarations(ship: str, text: str) -> list[DC12Declaration]:
    """Parse ``P; M:A; FIRE; CF:port=heavy`` (``;`` or ``,`` between items)."""
    out = []
    for part in re.split(r"[;,]", text):
        raw = part.strip()
        if not raw:
            continue
        if raw.upper() == FIRE:
            out.append(DC12Declaration(ship, FIRE))
            continue
        d: DCDeclaration = parse_1d6(ship, raw)
        if d.action.value not in CHART_ROWS:
            raise OrderSyntaxError(
                f"{ship}: damage control {raw!r}: the 1D12 Damage Control chart has no such "
                f"action (DIFF-05); use one of {', '.join(CHART_ROWS)}"
            )
        out.append(DC12Declaration(ship, d.action.value, d.target, d.level))
    return out


def _illegal(log: ShipLog, decl: DC12Declaration, reason: str, rule: str) -> IllegalOrderError:
    return IllegalOrderError(f"{log.name}: damage control {decl.text}: {reason} ({rule})")


def events_for(log: ShipLog, decl: DC12Declaration) -> int:
    """How many damage events the declaration could address now; raises for a bad target."""
    a = decl.action
    if a == "P":
        return log.propulsion.margin + log.propulsion.damaged
    if a == "ST":
        return log.tr_hits
    if a == "R":
        return int(log.rudder is not RudderState.FREE)
    if a == FIRE:
        return log.fires
    if a in ("SINK-1", "SCUTTLE"):
        return 1
    if a == "RECOVER-CT":
        return int(log.ct_hits > 0)
    if a == "CF":
        zone = Compartment(decl.target) if decl.target else None
        if not counterflood_zones(log):
            raise _illegal(log, decl, "only a ship with uneven flooding may counterflood",
                           "BF12-CMDA-03")  # fmt: skip
        if zone not in counterflood_zones(log):
            raise _illegal(log, decl, "counterflood the less flooded opposing compartment",
                           "BF12-CMDA-03")  # fmt: skip
        return 1
    key = decl.target or ""
    try:
        mount = log.cls.mounting(key)
    except KeyError:
        raise _illegal(
            log, decl, f"{log.cls.name} has no mounting {key!r}", "BF12-REP-01"
        ) from None
    if a == "S" and mount.gun_class not in (GunClass.SECONDARY, GunClass.TERTIARY, GunClass.BOAT):
        raise _illegal(log, decl, f"{key} is not a secondary or smaller weapon", "BF12-REP-03")
    if a in ("M", "FLOODMAG") and (mount.gun_class is not GunClass.MAIN or not mount.is_lettered):
        raise _illegal(log, decl, f"{key} is not a main position", "BF12-REP-02, BF12-CMDA-02")
    if not mount.is_lettered:
        return sum(1 for m in log.batteries[key] if m is Mark.DAMAGED)
    pos = log.positions[key]
    if a == "FLOODMAG":
        if pos.magazine_flooded:
            raise _illegal(log, decl, f"{key}'s magazine is already flooded", "BF12-CMDA-02")
        return 1
    if pos.destroyed or pos.magazine_flooded:
        raise _illegal(log, decl, f"{key} is out for good and cannot be repaired", "BF12-REP-01")
    return pos.slashes


def validate_declarations(log: ShipLog, decls: Sequence[DC12Declaration], pool: int) -> None:
    """Check one ship's declarations: not sinking (BF12-SINK-02), command actions not under a
    CT hit (BF12-CMDA-01), at most 2 dice per event (BF12-DC-02) and one Recover CT roll a turn
    (BF12-CMDA-06), no more dice than the pool (BF12-DC-03)."""
    used: dict[tuple[str, str | None], int] = {}
    for decl in decls:
        if log.sunk or log.sinking is not None:
            raise _illegal(log, decl, "a sinking ship does no damage control", "BF12-SINK-02")
        if decl.action in COMMAND_ACTIONS and log.ct_hits:
            raise _illegal(log, decl, "barred while the ship suffers a CT hit", "BF12-CMDA-01")
        available = events_for(log, decl)
        used[decl.event] = used.get(decl.event, 0) + 1
        if decl.action in ONCE_A_TURN and available and used[decl.event] > 1:
            raise _illegal(log, decl, "the ship may roll once each turn", "BF12-CMDA-06")
        if used[decl.event] > available * DICE_PER_EVENT:
            what = "nothing to address" if available == 0 else f"only {available} to address"
            raise _illegal(log, decl, f"{what}; at most 2 dice per damage event", "BF12-DC-02")
    if len(decls) > pool:
        raise IllegalOrderError(
            f"{log.name}: damage control needs {len(decls)} dice but the ship has {pool} "
            "(propulsion boxes not destroyed, BF12-DC-03)"
        )


def run_step_three(
    log: ShipLog,
    decls: Sequence[DC12Declaration],
    pool: int,
    charts: Charts12,
    dice: Dice,
    events: EventLog,
) -> None:
    """Step Three for one ship: drop what Steps One and Two made impossible, then roll each
    event's dice together (BF12-DC-01, AMB-49)."""
    if log.sunk or not decls:
        return
    if log.sinking is not None:
        events.emit(EventKind.NOTE, f"{log.name}: sinking, no damage control (BF12-SINK-02)",
                    ship=log.name)  # fmt: skip
        return
    kept: list[DC12Declaration] = []
    for decl in decls:
        try:
            validate_declarations(log, [*kept, decl], pool)
        except IllegalOrderError as err:
            events.emit(EventKind.NOTE, f"dropped: {err}", ship=log.name, declaration=decl.text)
            continue
        kept.append(decl)
    groups: dict[tuple[str, str | None], list[DC12Declaration]] = {}
    for decl in kept:
        groups.setdefault(decl.event, []).append(decl)
    for (action, _), group in groups.items():
        if log.sunk:
            return
        if action == "SCUTTLE":
            _scuttle(log, charts, dice, events, pool - len(kept) + 1)
            continue
        lo, hi = charts.repair_range(CHART_ROWS[action])
        addressed = min(len(group), events_for(log, group[0]))
        successes = [False] * addressed
        for i, decl in enumerate(group):
            roll = dice.roll(DIE, f"damage control {decl.text}", ship=log.name)
            ok = lo <= roll <= hi
            successes[i % addressed] |= ok
            events.emit(
                EventKind.COMMAND_FUNCTION if action in COMMAND_ACTIONS else EventKind.REPAIR,
                f"{log.name}: {decl.text} rolls {roll} (needs {lo}–{hi}) → "
                + ("success" if ok else "failed"),
                ship=log.name,
                declaration=decl.text,
                roll=roll,
                success=ok,
            )
        for _ in range(sum(successes)):
            outcome = _apply(log, group[0], events)
            events.emit(EventKind.REPAIR, f"{log.name}: {outcome}", ship=log.name)


def _apply(log: ShipLog, decl: DC12Declaration, events: EventLog) -> str:
    a = decl.action
    if a == "P":
        what = log.propulsion.repair()  # the margin first (BF12-PROP-04)
        return "propulsion access repaired" if what == "margin" else "propulsion box repaired"
    if a == "ST":
        log.tr_hits -= 1
        return "one steering hit erased"
    if a == "R":
        log.rudder = RudderState.FREE
        return "rudder repaired"
    if a == FIRE:
        if log.fires_external:
            log.fires_external -= 1
        else:
            log.fires_internal -= 1
        return f"a fire is put out ({log.fires} burning; BF12-REP-04)"
    if a == "SINK-1":
        log.sink_roll_bonus = 1
        return "this turn's sink roll moves 1 in her favour (BF12-REP-05, AMB-51)"
    if a == "RECOVER-CT":
        log.ct_hits = 0
        return "a new commander takes over (BF12-CMDA-06)"
    if a == "FLOODMAG":
        key = decl.target or ""
        log.positions[key].magazine_flooded = True
        zone = position_compartment(log.cls.mounting(key))
        old = log.compartments[zone].level
        raise_flooding(log, zone, FloodLevel(min(int(old) + 1, int(FloodLevel.SEVERE))), events)
        return f"{key}'s magazine flooded, out of commission (BF12-CMDA-02)"
    if a == "CF":
        zone, level = Compartment(decl.target or ""), decl.level or FloodLevel.LIGHT
        state = log.compartments[zone]
        state.level = max(state.level, level)
        state.counterflooded = True
        return f"{zone.value} counterflooded to {state.level.name.title()} (BF12-CMDA-04)"
    key = decl.target or ""
    if key in log.positions:
        log.positions[key].slashes -= 1
        return f"one slash on {key} repaired"
    marks = log.batteries[key]
    marks[marks.index(Mark.DAMAGED)] = Mark.NONE
    return f"one {key} gun repaired"


def _scuttle(log: ShipLog, charts: Charts12, dice: Dice, events: EventLog, dice_left: int) -> None:
    """A counterflood roll in each compartment short of Severe; success makes it Severe
    (BF12-CMDA-05). Step Four's sink roll then decides."""
    lo, hi = charts.repair_range("counterflood")
    zones = [z for z, s in log.compartments.items() if s.level < FloodLevel.SEVERE]
    for zone in zones[: max(dice_left, 0)]:
        roll = dice.roll(DIE, f"scuttle: counterflood {zone.value}", ship=log.name)
        ok = lo <= roll <= hi
        if ok:
            state = log.compartments[zone]
            state.level, state.counterflooded = FloodLevel.SEVERE, True
        events.emit(
            EventKind.COMMAND_FUNCTION,
            f"{log.name}: scuttle {zone.value} rolls {roll} (needs {lo}–{hi}) → "
            + ("Severe" if ok else "failed"),
            ship=log.name,
            roll=roll,
            success=ok,
        )


__all__ = [
    "CHART_ROWS",
    "DICE_PER_EVENT",
    "ONCE_A_TURN",
    "DC12Declaration",
    "DCAction",
    "events_for",
    "parse_declarations",
    "run_step_three",
    "validate_declarations",
]
