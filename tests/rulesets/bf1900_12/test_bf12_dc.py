"""1D12 damage control: the pool, two dice per event, repair values, command actions (BF12-DC-01,
BF12-DC-02, BF12-DC-03, BF12-DC-04, BF12-REP-01, BF12-REP-02, BF12-REP-03, BF12-REP-04,
BF12-REP-05, BF12-REP-06, BF12-REP-07, BF12-CMDA-01, BF12-CMDA-02, BF12-CMDA-03, BF12-CMDA-04,
BF12-CMDA-05, BF12-CMDA-06, BF12C-DCC-01)."""

from __future__ import annotations

import pytest
from bf12_helpers import CHARTS, ctx, kinds, mikasa, shells

from battleline.engine.events import EventKind, EventLog
from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900.damage.codes import apply_codes
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog
from battleline.rulesets.bf1900_12.damage import fire_and_flooding, run_damage_phase
from battleline.rulesets.bf1900_12.dc import (
    parse_declarations,
    run_step_three,
    validate_declarations,
)
from battleline.rulesets.bf1900_12.edition import dc_pool
from battleline.testing import FixedDice


def _dc(log: ShipLog, text: str, values: list[int], pool: int = 6) -> EventLog:
    dice, events = FixedDice(values), EventLog()
    run_step_three(log, parse_declarations(log.name, text), pool, CHARTS, dice, events)
    dice.assert_consumed()
    return events


def test_EX_DRV_07_and_BF12_DC_03_04_pool_is_propulsion_boxes_not_destroyed() -> None:
    """EX-DRV-07, BF12-DC-03, BF12-DC-04, DIFF-03: 6 boxes, 2 destroyed and 3 damaged → 4 dice;
    damaged boxes still count."""
    log = mikasa()
    assert dc_pool(log) == 6
    log.propulsion.destroyed, log.propulsion.damaged = 2, 3
    assert dc_pool(log) == 4
    log.positions["A"].slashes = 3
    log.positions["Z"].slashes = 3
    with pytest.raises(IllegalOrderError, match="BF12-DC-03"):
        validate_declarations(log, parse_declarations("Mikasa", "M:A; M:A; M:Z; M:Z; P"), 4)


def test_AMB_50_pool_counted_before_the_damage_phase() -> None:
    """BF12-DC-03, AMB-50, DIFF-30: a box destroyed in this turn's Step Two does not cut this
    turn's dice: six declared dice all roll."""
    log = mikasa()
    log.positions["A"].slashes = 3
    decls = {"Mikasa": parse_declarations("Mikasa", "M:A; M:A; M:A; M:A; M:A; M:A")}
    # Step Two: penetration 16 vs 12 → column "3,4", face 11 → Px. Step Three: six 1s.
    dice, events = FixedDice([11] + [1] * 6), EventLog()
    s = shells("Asahi", "Mikasa", rounds=1, penetration=16)
    run_damage_phase({"Mikasa": log}, [s], [], decls, CHARTS, dice, events)
    dice.assert_consumed()
    assert log.propulsion.destroyed == 1
    assert len(events.of_kind(EventKind.REPAIR)) == 6


def test_BF12_DC_02_and_AMB_49_two_dice_on_one_event() -> None:
    """BF12-DC-02, AMB-49: one slash takes at most 2 dice; it is repaired if either succeeds,
    and only once."""
    log = mikasa()
    log.positions["A"].slashes = 1
    with pytest.raises(IllegalOrderError, match="BF12-DC-02"):
        validate_declarations(log, parse_declarations("Mikasa", "M:A; M:A; M:A"), 6)
    _dc(log, "M:A; M:A", [12, 12])
    assert log.positions["A"].slashes == 0


def test_BF12C_DCC_01_and_BF12_REP_06_each_slash_its_own_roll() -> None:
    """BF12C-DCC-01, BF12-REP-06: two slashes, one die each: one success leaves one slash and
    the turret out of action."""
    log = mikasa()
    log.positions["A"].slashes = 2
    _dc(log, "M:A; M:A", [12, 11])
    assert log.positions["A"].slashes == 1 and not log.positions["A"].in_action


@pytest.mark.parametrize(
    ("text", "setup", "fail", "ok"),
    [
        ("M:A", "main", 11, 12),  # BF12-REP-02
        ("P", "prop", 11, 12),  # BF12-REP-02
        ("ST", "steer", 11, 12),  # BF12-REP-02
        ("S:sec", "sec", 10, 11),  # BF12-REP-03
        ("FIRE", "fire", 10, 11),  # BF12-REP-04
        ("SINK-1", "none", 9, 10),  # BF12-REP-05
        ("RECOVER-CT", "ct", 6, 7),  # BF12-CMDA-06
    ],
)
def test_BF12_REP_02_to_05_repair_values(text: str, setup: str, fail: int, ok: int) -> None:
    """BF12-REP-02, BF12-REP-03, BF12-REP-04, BF12-REP-05, BF12-CMDA-06, BF12-DC-01:
    main/propulsion/steering need 12, secondary and fire 11–12, the sink modifier 10–12, recovering
    from a CT hit 7–12."""

    def fresh() -> ShipLog:
        log = mikasa()
        log.positions["A"].slashes = 1 if setup == "main" else 0
        log.propulsion.damaged = 1 if setup == "prop" else 0
        log.tr_hits = 1 if setup == "steer" else 0
        log.batteries["sec"][0] = Mark.DAMAGED if setup == "sec" else Mark.NONE
        log.fires_external = 1 if setup == "fire" else 0
        log.ct_hits = 1 if setup == "ct" else 0
        return log

    def state(log: ShipLog) -> tuple[object, ...]:
        return (
            log.positions["A"].slashes,
            log.propulsion.damaged,
            log.tr_hits,
            log.batteries["sec"][0],
            log.fires,
            log.ct_hits,
            log.sink_roll_bonus,
        )

    failed, done = fresh(), fresh()
    before = state(failed)
    _dc(failed, text, [fail])
    _dc(done, text, [ok])
    assert state(failed) == before
    assert state(done) != before


def test_BF12_REP_01_destroyed_items_cannot_be_repaired() -> None:
    """BF12-REP-01: a destroyed turret (full X) takes no repair."""
    log = mikasa()
    log.positions["A"].destroyed = True
    with pytest.raises(IllegalOrderError, match="BF12-REP-01"):
        validate_declarations(log, parse_declarations("Mikasa", "M:A"), 6)


def test_BF12_REP_07_and_BF12_CMDA_01_ct_hit_bars_only_command_actions() -> None:
    """BF12-REP-07, BF12-CMDA-01, DIFF-08: under a CT hit repairs go on; Flood Magazine and
    Counterflood are barred."""
    log = mikasa()
    log.ct_hits = 1
    log.positions["A"].slashes = 1
    validate_declarations(log, parse_declarations("Mikasa", "M:A; RECOVER-CT"), 6)
    for text in ("FLOODMAG:A", "CF:starboard=light"):
        with pytest.raises(IllegalOrderError, match="BF12-CMDA-01"):
            validate_declarations(log, parse_declarations("Mikasa", text), 6)


def test_EX_BF12_05_flood_magazine() -> None:
    """EX-BF12-05, BF12-CMDA-02, BF12-MAIN-04: 4+ floods the magazine: the compartment gains a
    level, the turret is out for good and later hits need no critical roll; 3 fails."""
    log = mikasa()
    _dc(log, "FLOODMAG:A", [3])
    assert not log.positions["A"].magazine_flooded
    _dc(log, "FLOODMAG:A", [4])
    assert log.positions["A"].magazine_flooded
    assert log.compartments[Compartment.FORWARD].level is FloodLevel.LIGHT
    dice = FixedDice([1])  # the location die only: no critical roll
    apply_codes(log, ["M"], ctx(dice))
    dice.assert_consumed()
    with pytest.raises(IllegalOrderError, match="BF12-REP-01"):
        validate_declarations(log, parse_declarations("Mikasa", "M:A"), 6)


def test_BF12_CMDA_03_04_counterflood() -> None:
    """BF12-CMDA-03, BF12-CMDA-04, DIFF-19: only with uneven flooding, into the opposing
    compartment, to any level, on 4–12; a failure locks nothing; the counterflooded compartment
    never rolls criticals."""
    log = mikasa()
    with pytest.raises(IllegalOrderError, match="BF12-CMDA-03"):
        validate_declarations(log, parse_declarations("Mikasa", "CF:starboard=heavy"), 6)
    log.compartments[Compartment.PORT].level = FloodLevel.HEAVY
    with pytest.raises(IllegalOrderError, match="BF12-CMDA-03"):
        validate_declarations(log, parse_declarations("Mikasa", "CF:forward=heavy"), 6)
    _dc(log, "CF:starboard=heavy", [3])
    assert log.compartments[Compartment.STARBOARD].level is FloodLevel.NONE
    _dc(log, "CF:starboard=heavy", [4])
    state = log.compartments[Compartment.STARBOARD]
    assert state.level is FloodLevel.HEAVY and state.counterflooded
    dice = FixedDice([1])  # only the port Heavy rolls in Step One
    fire_and_flooding(log, CHARTS, dice, EventLog())
    dice.assert_consumed()


def test_BF12_CMDA_05_scuttle_rolls_each_compartment() -> None:
    """BF12-CMDA-05: a counterflood roll in each of the 4 compartments, each success Severe."""
    log = mikasa()
    _dc(log, "SCUTTLE", [4, 5, 12, 3])
    levels = [s.level for s in log.compartments.values()]
    assert levels.count(FloodLevel.SEVERE) == 3


def test_DIFF_05_actions_the_1d12_chart_lacks_are_refused() -> None:
    """DIFF-05, DIFF-06: no bridge, Stop Hvy FL, DC-box or rudder-securing repairs; FIRE is an
    action."""
    assert parse_declarations("Mikasa", "FIRE; P")[0].action == "FIRE"
    for text in ("BR", "HVY:forward", "DC", "SECURE"):
        with pytest.raises(OrderSyntaxError, match="DIFF-05"):
            parse_declarations("Mikasa", text)


def test_BF12_DC_01_dropped_when_steps_one_and_two_made_it_impossible() -> None:
    """BF12-DC-01: declarations still possible are rolled; one that became impossible is
    dropped with a note, no die."""
    log = mikasa()
    events = _dc(log, "M:A", [])
    assert "dropped" in " ".join(kinds(events, EventKind.NOTE))


def test_BF12_CMDA_06_recover_ct_rolls_once_each_turn() -> None:
    """BF12-CMDA-06, AMB-55: seed 001 — "The controlling player of a vessel with a CT hit may roll
    once each turn in an attempt to reestablish command of a vessel." The two-dice cap of
    BF12-DC-02 does not give Recover CT a second die."""
    log = mikasa()
    log.ct_hits = 1
    validate_declarations(log, parse_declarations("Mikasa", "RECOVER-CT"), 6)
    with pytest.raises(IllegalOrderError, match=r"once each turn.*BF12-CMDA-06"):
        validate_declarations(log, parse_declarations("Mikasa", "RECOVER-CT; RECOVER-CT"), 6)
    # In Step Three a second die is dropped unrolled: one die only, a failure leaves the CT hit.
    events = _dc(log, "RECOVER-CT; RECOVER-CT", [6])
    assert log.ct_hits == 1
    assert any("once each turn" in t for t in kinds(events, EventKind.NOTE))
    assert len(kinds(events, EventKind.COMMAND_FUNCTION) + kinds(events, EventKind.REPAIR)) == 1
    # The next turn it may roll again, and 7 recovers.
    _dc(log, "RECOVER-CT", [7])
    assert log.ct_hits == 0
