"""The admiral's damage control: flooding the magazine of a wrecked turret while a fire burns
inside (BF6-CF-03, BF6-MAIN-03), played through the rules' own Step Three."""

from __future__ import annotations

from battleline.ai.damage_control import dc_plan, magazines_to_flood
from battleline.engine.events import EventLog
from battleline.rulesets.bf1900.charts import load_charts
from battleline.rulesets.bf1900.damage.phase import run_step_three
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.testing import FixedDice
from conftest import majestic


def _wrecked(fire: bool) -> ShipLog:
    log = ShipLog("Majestic", majestic())
    log.positions["A"].destroyed = True
    log.fires_internal = 1 if fire else 0
    return log


def test_a_wrecked_turret_s_magazine_is_flooded_while_a_fire_burns_inside() -> None:
    """Majestic's A is destroyed and a fire burns inside: her admiral floods A's magazine, the
    rules roll it (3 is within 3-6), and the forward zone takes one level of water."""
    log = _wrecked(fire=True)
    assert magazines_to_flood(log) == ["A"]
    plan = dc_plan(log)
    assert [(d.action.value, d.target) for d in plan][:1] == [("FLOODMAG", "A")]
    dice = FixedDice([3] + [6] * (len(plan) - 1))
    run_step_three(log, plan, load_charts(), dice, EventLog(), 1)
    assert log.positions["A"].magazine_flooded
    assert log.compartments[Compartment.FORWARD].level is FloodLevel.LIGHT


def test_no_magazine_is_flooded_without_a_fire_or_when_the_water_would_be_too_much() -> None:
    assert magazines_to_flood(_wrecked(fire=False)) == []
    log = _wrecked(fire=True)
    log.compartments[Compartment.FORWARD].level = FloodLevel.MODERATE  # would go to Heavy
    assert magazines_to_flood(log) == []
    log = _wrecked(fire=True)
    log.compartments[Compartment.AFT].level = FloodLevel.HEAVY
    log.compartments[Compartment.PORT].level = FloodLevel.LIGHT  # 4 points: one more rolls to sink
    assert magazines_to_flood(log) == []
