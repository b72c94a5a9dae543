"""The Damage Phase runner: Steps One to Four in order over all ships (BF6-DMG-02/03).

Fire between the sides is simultaneous, but the steps are not: each step finishes for every ship
before the next begins, and its results pre-empt the later steps without undoing damage already
done (EX-BF6-08/09/10). Damage-control declarations were written before the phase; at the start of
Step Three those that Steps One and Two made impossible are dropped with a note (the order was legal
when given), and a sinking ship's are all dropped (BF6-SINK-03).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.bf1900.charts import Charts
from battleline.rulesets.bf1900.crews import Laying
from battleline.rulesets.bf1900.damage.codes import apply_codes
from battleline.rulesets.bf1900.damage.declarations import DCDeclaration
from battleline.rulesets.bf1900.damage.step1 import fire_and_flooding
from battleline.rulesets.bf1900.damage.step2 import resolve_hits
from battleline.rulesets.bf1900.damage.step3 import resolve_damage_control, usable_declarations
from battleline.rulesets.bf1900.damage.step4 import run_step_four
from battleline.rulesets.bf1900.hits import ShellSet, TorpedoHit
from battleline.rulesets.bf1900.outward import announced
from battleline.rulesets.bf1900.shells import NavyShells
from battleline.rulesets.bf1900.shiplog import ShipLog


@dataclass(frozen=True, slots=True)
class DamageSettings:
    """Readings that are settings (``docs/rules-gaps/damage.md``).

    * ``sink_roll_dc_bonus``: the DC "−1 this turn's sink roll" counts against the "unmodified"
      sink roll (AMB-24, the default); ``False`` ignores it;
    * ``dice_per_event``: DC dice one damage event may take: 1 here (BF6-DC-02), 2 in the 1D12
      edition (DIFF-02).
    """

    sink_roll_dc_bonus: bool = True
    dice_per_event: int = 1


STEPS = (
    "Step One: fire and flooding",
    "Step Two: hits",
    "Step Three: damage control",
    "Step Four: sinking and listing",
)


def _step(events: EventLog, number: int) -> None:
    events.emit(EventKind.PHASE, f"Damage {STEPS[number - 1]}", public=True, step=number)


def run_damage_phase(
    logs: Mapping[str, ShipLog],
    shell_sets: Sequence[ShellSet],
    torpedo_hits: Sequence[TorpedoHit],
    declarations: Mapping[str, Sequence[DCDeclaration]],
    charts: Charts,
    dice: Dice,
    events: EventLog,
    *,
    settings: DamageSettings = DamageSettings(),
    navy_shells: NavyShells | None = None,
    laying: Mapping[str, Laying] | None = None,
) -> None:
    """Run the whole Damage Phase on ``logs`` in place (BF6-DMG-02..13, BF6-SINK, BF6-DC).

    ``declarations`` maps a ship's name to its Step Three declarations (validated when ordered
    with :func:`~battleline.rulesets.bf1900.damage.step3.validate_declarations`); ``navy_shells``
    and ``laying`` are Step Two's shell quality by navy and laying die by firing ship.
    """
    for log in logs.values():
        log.counterflood_locked.clear()  # a failed counterflood locks a zone for one phase only

    # Every step ends by telling the table what shows of the ships it changed (burning, stopped,
    # listing, sinking, gone under); the logs themselves stay their owners' (issue 11 §3).
    _step(events, 1)
    with announced(logs, events):
        for log in logs.values():
            fire_and_flooding(log, charts, dice, events, apply_codes)

    _step(events, 2)
    with announced(logs, events):
        resolve_hits(
            logs, shell_sets, torpedo_hits, charts, dice, events, apply_codes, navy_shells, laying
        )

    _step(events, 3)
    for name in declarations:
        if name not in logs:
            events.emit(EventKind.NOTE, f"damage control for unknown ship {name!r} ignored")
    with announced(logs, events):
        for name, log in logs.items():
            run_step_three(
                log, declarations.get(name, ()), charts, dice, events, settings.dice_per_event
            )

    _step(events, 4)
    with announced(logs, events):
        for log in logs.values():
            run_step_four(log, charts, dice, events, dc_bonus=settings.sink_roll_dc_bonus)


def run_step_three(
    log: ShipLog,
    decls: Sequence[DCDeclaration],
    charts: Charts,
    dice: Dice,
    events: EventLog,
    dice_per_event: int = 1,
) -> None:
    """Step Three for one ship: re-check the declarations against the log now, then roll them."""
    if log.sunk:
        return
    if log.sinking is not None:
        if decls:
            events.emit(
                EventKind.NOTE,
                f"{log.name}: sinking, no damage control (BF6-SINK-03)",
                ship=log.name,
            )
        return
    kept = usable_declarations(log, decls, events, dice_per_event=dice_per_event)
    if kept or log.scuttling:
        resolve_damage_control(log, kept, charts, dice, events)
