"""The Battlefleet 1900 1D12 edition (version 2.0) as a ruleset: "bf1900-1d12".

The edition is a switch on the 1D6 ruleset (DIFF-01..32, ``docs/editions.md``): set-up, command,
movement and gunnery are the 1D6 modules unchanged (the 1D12 texts give only the damage rules and
the combat-chart overview); the ship values are converted to the 1D12 scale (``edition``); the
torpedo to-hit roll is a d12 on the 1D12 Torpedo Hits chart (BF12C-TH-01); the Damage Phase is
``damage.run_damage_phase`` with the 1D12 damage control (``dc``). A sinking ship never fires
(BF12-SINK-02), so the 1D6 gun-crew roll (BF6-SINK-04) never happens.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from battleline.engine.dice import SeededDice
from battleline.engine.events import EventLog
from battleline.engine.ruleset import PhaseSpec
from battleline.rulesets.bf1900 import ruleset as bf6
from battleline.rulesets.bf1900.orders import read_declarations
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.bf1900_12.charts import DIE, Charts12, load_charts
from battleline.rulesets.bf1900_12.damage import run_damage_phase
from battleline.rulesets.bf1900_12.dc import (
    DC12Declaration,
    parse_declarations,
    validate_declarations,
)
from battleline.rulesets.bf1900_12.edition import dc_pool, runs_under_size, to_1d12

NAME = "bf1900-1d12"
VERSION = "0.1"
ALIASES = ("battlefleet1900-v2", "bf1900-v2", "bf12", "bf1900-12")

Orders = Mapping[str, Any]


@lru_cache(maxsize=1)
def charts() -> Charts12:
    """The packaged 1D12 charts."""
    return load_charts()


def new_state(scenario: str, seed: int) -> Bf1900State:
    """The 1D6 set-up with every ship's values on the 1D12 scale (DIFF-23)."""
    state = bf6.new_state(scenario, seed)
    state.ruleset = f"{NAME}@{VERSION}"
    for log in state.logs.values():
        log.cls = to_1d12(log.cls)
    return state


def resolve_torpedo(state: Bf1900State, orders: Orders, dice: SeededDice, events: EventLog) -> None:
    """Launch and run torpedoes; each rolls a d12 on the Torpedo Hits chart (BF12C-TH-01..04).
    A normal-depth torpedo passes under a 1D12 size of 22 or less (BF6-TORP-07)."""
    bf6.torpedo_step(state, orders, dice, events, charts(), die=DIE, runs_under=runs_under_size())


def parse_damage_control(
    state: Bf1900State, side: str, texts: Sequence[str]
) -> list[DC12Declaration]:
    """Read ``<ship>: P; M:A; FIRE`` lines and check them (BF12-DC-01..04)."""
    return read_declarations(
        state,
        side,
        texts,
        parse_declarations,
        lambda log, decls: validate_declarations(log, decls, dc_pool(log)),
    )


def resolve_damage(state: Bf1900State, orders: Orders, dice: SeededDice, events: EventLog) -> None:
    """The 1D12 Damage Phase (BF12-DMG-02..07)."""
    run_damage_phase(
        state.logs,
        list(state.shell_sets),
        list(state.torpedo_hits),
        bf6.declared_by_ship(state, orders),
        charts(),
        dice,
        events,
    )


def _has_damage_control(state: Bf1900State, side: str) -> bool:
    return any(
        log.side == side
        and log.in_battle
        and log.sinking is None
        and dc_pool(log) > 0
        and bf6.ship_fate(log) != "intact"
        for log in state.logs.values()
    )


def _phase(name: str, **changes: Any) -> PhaseSpec[Bf1900State, Any]:
    spec = next(p for p in bf6.PHASES if p.name == name)
    return dataclasses.replace(spec, **changes)


PHASES: tuple[PhaseSpec[Bf1900State, Any], ...] = (
    _phase("command"),
    _phase("movement"),
    _phase("gunnery"),
    _phase("torpedo", resolver=resolve_torpedo, rules="BF6-TORP-01..11, BF12C-TH-01..04"),
    _phase(
        "damage",
        resolver=resolve_damage,
        parser=parse_damage_control,
        needs_orders=_has_damage_control,
        rules="BF12-DMG-02..07, BF12-DC-01..04",
    ),
)


class Ruleset(bf6.Ruleset):
    """The bf1900 1D12 edition as the engine sees it: the 1D6 edition's set-up, command, movement,
    gunnery, view and victory (sizes on the 1D12 scale), its own torpedo and damage phases."""

    name = NAME
    version = VERSION
    aliases = ALIASES
    phases = PHASES

    def new_state(self, scenario: str, seed: int) -> Bf1900State:
        """Set up a scenario on the 1D12 scale."""
        return new_state(scenario, seed)


#: Where :func:`battleline.rulesets.ruleset_part` finds the parts this ruleset borrows (bf1900's
#: web table, order forms and ship log, for the game it is played on).
PARTS_FROM = "battleline.rulesets.bf1900"
RULESET = Ruleset()
