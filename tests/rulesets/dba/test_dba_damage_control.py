"""Damage Control, step 4 of the spell (DBA-SEQ-01, DBA-DC-01, DBA-RW-04, DBA-NET-04,
EX-DRV-13, AMB-69)."""

from __future__ import annotations

import pytest

from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.dba.damage_control import (
    FloodingOutcome,
    damage_control_step,
    stop_flooding,
)
from battleline.rulesets.dba.factors import load_annex_a
from battleline.rulesets.dba.options import Options
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.tables import Result
from battleline.testing import FixedDice

A = load_annex_a()
ROUGH = Options(rough_weather=True)


def flooding(name: str = "Majestic", **kw: object) -> ShipStatus:
    return ShipStatus(A[name], side="red", flooding=True, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("roll", "outcome", "still"),
    [
        (6, FloodingOutcome.STOPPED, False),
        (5, FloodingOutcome.CONTINUES, True),
        (2, FloodingOutcome.CONTINUES, True),
        (1, FloodingOutcome.WORSENED, True),
    ],
)
def test_EX_DRV_13_calm_weather(roll: int, outcome: FloodingOutcome, still: bool) -> None:
    """DBA-DC-01: 6 stops, 2–5 continues, 1 continues and adds a damaged marker."""
    s = flooding()
    dice = FixedDice([roll])
    r = stop_flooding(s, dice)
    dice.assert_consumed()
    assert r.outcome is outcome and s.flooding is still
    assert s.damage == (1 if roll == 1 else 0)


def test_EX_DRV_13_rough_weather_confirm_roll() -> None:
    """DBA-RW-04: 6 then 4 stops it; 6 then 3 ruptures the repair."""
    s = flooding()
    dice = FixedDice([6, 4])
    assert stop_flooding(s, dice, options=ROUGH).outcome is FloodingOutcome.STOPPED
    assert not s.flooding
    s = flooding()
    dice = FixedDice([6, 3, 6, 1])
    r = stop_flooding(s, dice, options=ROUGH)
    assert r.outcome is FloodingOutcome.RUPTURED and s.flooding and r.rolls == (6, 3)
    # attempts continue next spell
    assert stop_flooding(s, dice, options=ROUGH).outcome is FloodingOutcome.RUPTURED
    dice.assert_consumed()


def test_DBA_DC_01_a_one_can_cripple_or_sink_like_gunfire() -> None:
    s = flooding(damage=2)
    stop_flooding(s, FixedDice([1]))
    assert s.crippled and not s.sunk
    r = stop_flooding(s, FixedDice([1]))
    assert s.sunk and r.damage is Result.SUNK


def test_DBA_SEQ_01_step_rolls_only_for_the_spellers_flooding_ships() -> None:
    """AMB-69: the speller is the side whose spell it is."""
    red = [flooding("Majestic"), ShipStatus(A["Oregon"], side="red"), flooding("Mikasa")]
    blue = ShipStatus(A["Brooklyn"], side="blue", flooding=True)
    log = EventLog()
    dice = FixedDice([6, 3], log=log)
    out = damage_control_step([*red, blue], "red", dice, log=log)
    dice.assert_consumed()
    assert [r.ship for r in out] == ["Majestic", "Mikasa"]
    assert not red[0].flooding and red[2].flooding and blue.flooding
    assert any("bulkheads hold" in e.text for e in log.of_kind(EventKind.REPAIR))


def test_DBA_NET_04_fouled_ship_cuts_free_on_5_or_6_in_damage_control() -> None:
    s = ShipStatus(A["Majestic"], side="red", fouled=True, stopped=True)
    opts = Options(nets=True)
    damage_control_step([s], "red", FixedDice([4]), options=opts)
    assert s.fouled  # fouling is never permanent, but a 4 does not free it
    damage_control_step([s], "red", FixedDice([5]), options=opts)
    assert not s.fouled
