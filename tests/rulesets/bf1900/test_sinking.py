"""Damage Step Four: flooding points, listing, the sink roll and sinking (BF6-DMG-12/13,
BF6-SINK-01..05, AMB-24/25/26, EX-DRV-04/05, EX-BF6-18)."""

from __future__ import annotations

from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.bf1900.damage.step4 import (
    abandon_guns_roll,
    count_down,
    run_step_four,
    sink_roll,
    update_listing,
)
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel
from battleline.rulesets.bf1900.shiplog import ShipLog, SinkingState
from battleline.testing import FixedDice
from conftest import FakeCharts, FakeUneven, majestic, make_log

F, P, S, A = Compartment.FORWARD, Compartment.PORT, Compartment.STARBOARD, Compartment.AFT


def _flooded(**levels: FloodLevel) -> ShipLog:
    log = make_log(majestic())
    zones = {"forward": F, "port": P, "starboard": S, "aft": A}
    for zone, level in levels.items():
        log.compartments[zones[zone]].level = level
    return log


def test_EX_DRV_04_four_points_no_roll_five_points_roll() -> None:
    """BF6-SINK-01: 4 flooding points → no sink roll; Moderate 2 + Heavy 3 = 5 → a roll."""
    charts = FakeCharts(sink_default=(6, 6, 3))
    four = _flooded(forward=FloodLevel.SEVERE)
    assert four.flooding_points == 4
    assert not sink_roll(four, charts, FixedDice([]), EventLog())  # no die asked for
    five = _flooded(forward=FloodLevel.MODERATE, aft=FloodLevel.HEAVY)
    dice = FixedDice([5])
    assert five.flooding_points == 5
    assert not sink_roll(five, charts, dice, EventLog())
    dice.assert_consumed()


def test_BF6_SINK_01_02_inside_the_range_sinks_in_the_printed_turns() -> None:
    """BF6-SINK-01: a roll inside the row's range sinks her; BF6-SINK-02: in its turns."""
    charts = FakeCharts(sink={6: (5, 6, 3)})
    log = _flooded(forward=FloodLevel.HEAVY, aft=FloodLevel.HEAVY)
    events = EventLog()
    assert sink_roll(log, charts, FixedDice([5]), events)
    assert log.sinking == SinkingState(turns_left=3)
    assert not log.in_battle and log.speed_knots == 0  # BF6-SINK-03
    assert "she is sinking, 3 turns left" in events.of_kind(EventKind.SINKING)[0].text


def test_AMB_24_only_the_dc_minus_one_modifies_the_roll() -> None:
    """BF6-REP-11: a stored −1 turns a 6 into a 5, outside a 6–6 range; used up this turn."""
    charts = FakeCharts(sink={6: (6, 6, 1)})
    log = _flooded(forward=FloodLevel.HEAVY, aft=FloodLevel.HEAVY)
    log.sink_roll_bonus = 1
    log.fires_external = 6  # fires and uneven flooding do not modify it (unmodified roll)
    events = EventLog()
    assert not sink_roll(log, charts, FixedDice([6]), events)
    assert log.sink_roll_bonus == 0
    assert "sink roll 6 −1 = 5 against 6–6" in events.events[-1].text
    assert sink_roll(log, charts, FixedDice([6]), EventLog())  # next turn: no bonus left


def test_sink_bonus_expires_even_without_a_roll() -> None:
    log = _flooded(forward=FloodLevel.LIGHT)
    log.sink_roll_bonus = 1
    sink_roll(log, FakeCharts(), FixedDice([]), EventLog())
    assert log.sink_roll_bonus == 0


def test_AMB_25_countdown_from_the_next_turn() -> None:
    """Sinking in 2 turns: afloat after the first further Step Four, gone after the second."""
    charts = FakeCharts(sink={8: (1, 6, 2)})
    log = _flooded(forward=FloodLevel.SEVERE, aft=FloodLevel.SEVERE)
    events = EventLog()
    run_step_four(log, charts, FixedDice([1]), events)  # this turn: begins to sink
    assert log.sinking is not None and log.sinking.turns_left == 2 and log.afloat
    run_step_four(log, charts, FixedDice([]), events)  # no second sink roll
    assert log.sinking.turns_left == 1 and log.afloat  # BF6-SINK-05: still an obstacle
    run_step_four(log, charts, FixedDice([]), events)
    assert log.sunk and log.lost_reason == "sank"
    assert events.of_kind(EventKind.SUNK)
    count_down(log, events)  # nothing more happens to a sunk ship
    assert log.sinking.turns_left == 0


def test_EX_DRV_05_crews_keep_firing_on_3_abandon_on_4() -> None:
    """BF6-SINK-04: 1–3 the sinking ship fires its active guns; 4–6 never again (AMB-26)."""
    log = make_log(majestic())
    assert abandon_guns_roll(log, FixedDice([]), EventLog())  # not sinking: no roll
    log.sinking = SinkingState(3)
    assert abandon_guns_roll(log, FixedDice([3]), EventLog())
    assert not log.sinking.guns_abandoned
    assert not abandon_guns_roll(log, FixedDice([4]), EventLog())
    assert log.sinking.guns_abandoned
    assert not abandon_guns_roll(log, FixedDice([]), EventLog())  # for good, no more rolls
    log.sunk = True
    assert not abandon_guns_roll(log, FixedDice([]), EventLog())


def test_BF6_DMG_13_listing_effects_from_the_chart_and_EX_BF6_18_words() -> None:
    charts = FakeCharts(uneven={("side", 2): FakeUneven("side", 2, tr_hits=1, speed_boxes=1)})
    log = _flooded(port=FloodLevel.HEAVY, starboard=FloodLevel.LIGHT, forward=FloodLevel.LIGHT)
    events = EventLog()
    update_listing(log, charts, events)
    assert log.uneven == {
        "side": FakeUneven("side", 2, tr_hits=1, speed_boxes=1),
        "fore_aft": FakeUneven("fore_aft", 1, tr_hits=1),
    }
    assert log.uneven_tr_hits == 2
    assert log.speed_knots == 14
    text = events.of_kind(EventKind.LISTING)[0].text
    assert "down by the bows and list to port" in text


def test_BF6_DMG_11_corrected_disparity_removes_the_effects() -> None:
    """The effect is recomputed each Step Four and vanishes when the zones are even."""
    charts = FakeCharts()
    log = _flooded(port=FloodLevel.HEAVY)
    update_listing(log, charts, EventLog())
    assert log.uneven and log.uneven_tr_hits == 3
    log.compartments[S].level = FloodLevel.HEAVY  # counterflooded level with port
    events = EventLog()
    update_listing(log, charts, events)
    assert log.uneven == {} and log.uneven_tr_hits == 0
    assert "even keel" in events.events[-1].text


def test_step_four_skips_sunk_ships() -> None:
    log = _flooded(forward=FloodLevel.SEVERE, aft=FloodLevel.SEVERE)
    log.sunk = True
    events = EventLog()
    run_step_four(log, FakeCharts(), FixedDice([]), events)
    assert len(events) == 0


def test_AMB_24_setting_strictly_unmodified_ignores_the_bonus() -> None:
    charts = FakeCharts(sink={6: (6, 6, 1)})
    log = _flooded(forward=FloodLevel.HEAVY, aft=FloodLevel.HEAVY)
    log.sink_roll_bonus = 1
    assert sink_roll(log, charts, FixedDice([6]), EventLog(), dc_bonus=False)
    assert log.sink_roll_bonus == 0
