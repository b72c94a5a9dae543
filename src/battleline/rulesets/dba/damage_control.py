"""Step 4 of the spell, Damage Control (DBA-SEQ-01, DBA-DC-01, DBA-RW-04, DBA-NET-04, EX-DRV-13).

For each flooding ship of the player whose spell it is (AMB-69), one D6: 6 stops the flooding
(in rough weather a second D6 must not be 1–3, or heavy seas rupture the repair), 2–5 it goes on,
1 it goes on and adds a damaged marker, which may cripple or sink the ship as gunfire damage
would. With nets in play a fouled ship cuts itself free on 5 or 6 (DBA-NET-04, AMB-87).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.dba.options import DEFAULT_OPTIONS, Options
from battleline.rulesets.dba.status import ShipStatus, apply_result
from battleline.rulesets.dba.tables import CoreTables, Result

STOP_ON = 6
WORSEN_ON = 1
RUPTURE_UP_TO = 3  # DBA-RW-04: 1, 2 or 3 ruptures the repair
CUT_FREE_FROM = 5  # DBA-NET-04


class FloodingOutcome(StrEnum):
    """What one damage-control roll did."""

    STOPPED = "stopped"
    CONTINUES = "continues"
    RUPTURED = "ruptured"
    WORSENED = "worsened"


@dataclass(frozen=True, slots=True)
class DamageControlResult:
    """One ship's damage-control outcome."""

    ship: str
    outcome: FloodingOutcome
    rolls: tuple[int, ...]
    damage: Result = Result.NONE


def stop_flooding(
    status: ShipStatus,
    dice: Dice,
    *,
    options: Options = DEFAULT_OPTIONS,
    log: EventLog | None = None,
    core: CoreTables | None = None,
) -> DamageControlResult:
    """One attempt to stop a ship's flooding (DBA-DC-01, DBA-RW-04)."""
    if not status.flooding or status.sunk:
        raise ValueError(f"{status.name} is not flooding")
    roll = dice.d6("stop flooding (DBA-DC-01)", ship=status.name)
    rolls: tuple[int, ...] = (roll,)
    damage = Result.NONE
    if roll == STOP_ON and options.rough_weather:
        confirm = dice.d6("heavy seas confirm repair (DBA-RW-04)", ship=status.name)
        rolls = (roll, confirm)
        outcome = FloodingOutcome.RUPTURED if confirm <= RUPTURE_UP_TO else FloodingOutcome.STOPPED
    elif roll == STOP_ON:
        outcome = FloodingOutcome.STOPPED
    elif roll == WORSEN_ON:
        outcome = FloodingOutcome.WORSENED
    else:
        outcome = FloodingOutcome.CONTINUES
    if outcome is FloodingOutcome.STOPPED:
        status.flooding = False
    text = {
        FloodingOutcome.STOPPED: "bulkheads hold, flooding stopped",
        FloodingOutcome.CONTINUES: "flooding continues",
        FloodingOutcome.RUPTURED: "heavy seas rupture the repair, flooding continues",
        FloodingOutcome.WORSENED: "flooding continues and adds a damaged marker",
    }[outcome]
    if log is not None:
        shown = " then ".join(str(r) for r in rolls)
        log.emit(
            EventKind.REPAIR,
            f"{status.name}: damage control rolls {shown} → {text}",
            ship=status.name,
            outcome=outcome.value,
        )
    if outcome is FloodingOutcome.WORSENED:
        damage = apply_result(status, Result.DAMAGED, cause="flooding", log=log, core=core)
    return DamageControlResult(status.name, outcome, rolls, damage)


def cut_free(status: ShipStatus, dice: Dice, *, log: EventLog | None = None) -> bool:
    """A net-fouled ship tries to cut the fouling away: 5 or 6 frees it (DBA-NET-04)."""
    if not status.fouled:
        raise ValueError(f"{status.name} is not fouled by its nets")
    roll = dice.d6("cut away fouled nets (DBA-NET-04)", ship=status.name)
    freed = roll >= CUT_FREE_FROM
    if freed:
        status.fouled = False
    if log is not None:
        log.emit(
            EventKind.REPAIR,
            f"{status.name}: cutting away nets rolls {roll} → "
            f"{'free' if freed else 'still fouled'}",
            ship=status.name,
        )
    return freed


def damage_control_step(
    ships: Iterable[ShipStatus],
    speller: str,
    dice: Dice,
    *,
    options: Options = DEFAULT_OPTIONS,
    log: EventLog | None = None,
    core: CoreTables | None = None,
) -> list[DamageControlResult]:
    """Step 4 for the speller's ships (AMB-69): each flooding ship rolls once, in order given."""
    results: list[DamageControlResult] = []
    for status in ships:
        if status.side != speller or status.sunk:
            continue
        if options.nets and status.fouled:
            cut_free(status, dice, log=log)
        if status.flooding:
            results.append(stop_flooding(status, dice, options=options, log=log, core=core))
    return results
