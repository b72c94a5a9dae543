"""The ship log: fresh state, derived values, copies, the stable dump (BF6-DMG-01, REF-BF6-05)."""

from __future__ import annotations

import json

from battleline.rulesets.bf1900.ship import Compartment, FloodLevel
from battleline.rulesets.bf1900.shiplog import Mark, RudderState, SinkingState
from conftest import FakeUneven, cruiser, destroyer, lozenge, majestic, make_log


def test_EX_DRV_03_dc_dice_by_size() -> None:
    """BF6-DC-03: size 5 starts with 6 DC dice, size 4 and under with 3."""
    assert make_log(cruiser()).dc_dice == 6  # size 5
    assert make_log(majestic()).dc_dice == 6
    assert make_log(destroyer()).dc_dice == 3  # size 2
    assert len(make_log(destroyer()).dc_boxes) == 3


def test_BF6_DC_04_marked_boxes_reduce_dice() -> None:
    log = make_log(majestic())
    log.dc_boxes[0] = Mark.DAMAGED
    log.dc_boxes[3] = Mark.DESTROYED
    assert log.dc_dice == 4


def test_fresh_log_has_every_area_of_BF6_DMG_01() -> None:
    log = make_log(majestic())
    assert log.propulsion.available == 17
    assert set(log.compartments) == set(Compartment)
    assert set(log.positions) == {"A", "Z"}
    assert log.batteries["sec"] == [Mark.NONE] * 12
    assert log.torpedoes_left == {"beam": 4, "bow": 1}
    assert log.rudder is RudderState.FREE
    assert log.searchlights == [Mark.NONE, Mark.NONE]
    assert log.flooding_points == 0 and log.fires == 0
    assert log.in_battle and log.afloat


def test_BF6_SEC_03_boat_crews_always_manned_without_armoured_deck() -> None:
    assert make_log(destroyer()).boat_crews_deployed
    assert not make_log(majestic()).boat_crews_deployed


def test_BF6_DMG_12_flooding_points_are_the_sum_of_levels() -> None:
    log = make_log(majestic())
    log.compartments[Compartment.FORWARD].level = FloodLevel.HEAVY
    log.compartments[Compartment.PORT].level = FloodLevel.MODERATE
    assert log.flooding_points == 5
    assert log.uneven_flooding_points == 3 + 2


def test_EX_BF6_18_orientation_words() -> None:
    """Forward heavier → down by the bows; aft heavier → by the stern; a side → list to it."""
    log = make_log(majestic())
    assert log.listing == ()
    log.compartments[Compartment.FORWARD].level = FloodLevel.MODERATE
    assert log.listing == ("down by the bows",)
    log.compartments[Compartment.AFT].level = FloodLevel.HEAVY
    assert log.listing == ("down by the stern",)
    log.compartments[Compartment.STARBOARD].level = FloodLevel.LIGHT
    assert log.listing == ("down by the stern", "list to starboard")
    log.compartments[Compartment.PORT].level = FloodLevel.SEVERE
    assert log.listing == ("down by the stern", "list to port")


def test_guns_in_action_positions_and_batteries() -> None:
    log = make_log(lozenge())
    assert log.guns_in_action("P") == 1
    log.positions["P"].slashes = 1
    assert log.guns_in_action("P") == 0
    log.batteries["sec"][7] = Mark.DAMAGED
    assert log.guns_in_action("sec") == 7


def test_copy_is_deep_for_every_mutable_field() -> None:
    log = make_log(majestic())
    log.uneven["side"] = FakeUneven("side", 2)
    log.sinking = SinkingState(3)
    before = log.to_dict()
    new = log.copy()
    new.propulsion.damage()
    new.dc_boxes[0] = Mark.DAMAGED
    new.compartments[Compartment.AFT].level = FloodLevel.SEVERE
    new.positions["A"].slashes = 2
    new.batteries["sec"][0] = Mark.DESTROYED
    new.torpedoes_left["bow"] = 0
    new.searchlights[0] = Mark.DESTROYED
    new.sinking.turns_left = 1  # type: ignore[union-attr]
    new.counterflood_locked.add(Compartment.PORT)
    new.uneven.clear()
    new.rof_half_fired_last_turn.add("A")
    assert log.propulsion.damaged == 0
    assert log.dc_dice == 6
    assert log.compartments[Compartment.AFT].level is FloodLevel.NONE
    assert log.positions["A"].slashes == 0
    assert log.batteries["sec"][0] is Mark.NONE
    assert log.torpedoes_left["bow"] == 1
    assert log.searchlights[0] is Mark.NONE
    assert log.sinking is not None and log.sinking.turns_left == 3
    assert not log.counterflood_locked
    assert log.uneven == {"side": FakeUneven("side", 2)}
    assert not log.rof_half_fired_last_turn
    assert log.to_dict() == before


def test_to_dict_is_plain_json_with_sorted_keys() -> None:
    log = make_log(majestic())
    log.compartments[Compartment.PORT].level = FloodLevel.HEAVY
    log.counterflood_locked.add(Compartment.STARBOARD)
    log.sinking = SinkingState(2)
    log.uneven["side"] = FakeUneven("side", 3)
    d = log.to_dict()
    text = json.dumps(d)  # plain JSON
    assert json.dumps(d, sort_keys=True) == text  # keys already sorted at every level
    assert d["class"] == "Majestic"
    assert d["compartments"]["port amidships"] == {
        "contained": False,
        "counterflooded": False,
        "level": 3,
    }
    assert d["counterflood_locked"] == ["starboard amidships"]
    assert d["sinking"] == {"guns_abandoned": False, "turns_left": 2}
    assert d["uneven"]["side"] == {
        "axis": "side",
        "dc_boxes": 0,
        "difference": 3,
        "low_guns_silent": False,
        "speed_boxes": 0,
        "tr_hits": 0,
    }
    assert d["rudder"] == "R"
    assert d["propulsion"]["speeds"] == [17, 14, 11, 8, 5, 2]


def test_to_dict_same_state_same_dump() -> None:
    a, b = make_log(cruiser()), make_log(cruiser())
    a.fires_external = b.fires_external = 2
    assert json.dumps(a.to_dict()) == json.dumps(b.to_dict())
    b.tr_hits = 1
    assert a.to_dict() != b.to_dict()


def test_uneven_effects_take_speed_and_dc_dice_and_silence_low_guns() -> None:
    """BF6-DMG-13: the stored Uneven Flooding effect acts while it lasts."""
    log = make_log(majestic())
    log.compartments[Compartment.PORT].level = FloodLevel.HEAVY
    log.uneven["side"] = FakeUneven("side", 3, speed_boxes=2, dc_boxes=1, low_guns_silent=True)
    assert log.speed_knots == 11 and log.propulsion.available == 17
    assert log.dc_dice == 5
    assert log.low_sides == {"port"}
    log.compartments[Compartment.AFT].level = FloodLevel.LIGHT
    log.uneven["fore_aft"] = FakeUneven("fore_aft", 1, speed_boxes=5, low_guns_silent=True)
    assert log.speed_knots == 0
    assert log.low_sides == {"port", "stern"}
    log.uneven.clear()
    assert log.speed_knots == 17 and log.dc_dice == 6 and not log.low_sides


def test_sinking_ship_has_no_speed_and_is_out_of_battle() -> None:
    """BF6-SINK-03: a sinking ship makes no further movement."""
    log = make_log(majestic())
    log.sinking = SinkingState(2)
    assert log.speed_knots == 0
    assert not log.in_battle and log.afloat
