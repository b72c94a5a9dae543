"""Damage Step Three: declarations, validation and resolution (BF6-DC, BF6-REP, BF6-CF)."""

from __future__ import annotations

import pytest

from battleline.engine.events import EventKind, EventLog
from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900.damage.codes import apply_codes
from battleline.rulesets.bf1900.damage.declarations import (
    DCAction,
    DCDeclaration,
    format_declaration,
    format_declarations,
    parse_declaration,
    parse_declarations,
)
from battleline.rulesets.bf1900.damage.step3 import (
    counterflood_zones,
    resolve_damage_control,
    usable_declarations,
    validate_declarations,
)
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel
from battleline.rulesets.bf1900.shiplog import Mark, RudderState, ShipLog, SinkingState
from battleline.testing import FixedDice
from conftest import FakeCharts, ctx_for, destroyer, lozenge, majestic, make_log

F, P, S, A = Compartment.FORWARD, Compartment.PORT, Compartment.STARBOARD, Compartment.AFT


def _decls(log: ShipLog, text: str) -> list[DCDeclaration]:
    return parse_declarations(log.name, text)


def _resolve(
    log: ShipLog, text: str, rolls: list[int], charts: FakeCharts | None = None
) -> EventLog:
    decls = _decls(log, text)
    validate_declarations(log, decls)
    dice, events = FixedDice(rolls), EventLog()
    resolve_damage_control(log, decls, charts or FakeCharts(), dice, events)
    dice.assert_consumed()
    return events


# -- notation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "P",
        "BR",
        "M:A",
        "ST",
        "HVY:forward",
        "S:sec",
        "DC",
        "R",
        "SECURE",
        "FREE",
        "SINK-1",
        "FLOODMAG:Z",
        "CF:port amidships=heavy",
        "SCUTTLE",
        "RECOVER-CT",
    ],
)
def test_notation_round_trips(text: str) -> None:
    decl = parse_declaration("Mikasa", text)
    assert format_declaration(decl) == text
    assert parse_declaration("Mikasa", decl.text) == decl


def test_notation_aliases_and_lists() -> None:
    decls = parse_declarations("Mikasa", "p; hvy: fwd, cf:stbd=3 ; cf:Port=medium")
    assert decls == [
        DCDeclaration("Mikasa", DCAction.REPAIR_P),
        DCDeclaration("Mikasa", DCAction.STOP_HVY_FL, F),
        DCDeclaration("Mikasa", DCAction.COUNTERFLOOD, S, FloodLevel.HEAVY),
        DCDeclaration("Mikasa", DCAction.COUNTERFLOOD, P, FloodLevel.MODERATE),  # AMB-42
    ]
    assert format_declarations(decls[:2]) == "P; HVY:forward"
    assert parse_declarations("Mikasa", "  ") == []
    assert decls[2].compartment is S


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("FIX", "unknown damage-control action"),
        ("M", "needs a position"),
        ("HVY", "needs a zone"),
        ("HVY:middle", "unknown zone"),
        ("CF:port", "needs a zone and a level"),
        ("CF:port=drenched", "unknown flooding level"),
        ("P:A", "takes no target"),
    ],
)
def test_bad_notation_is_a_syntax_error_naming_the_ship(text: str, fragment: str) -> None:
    with pytest.raises(OrderSyntaxError, match=f"Mikasa: .*{fragment}"):
        parse_declaration("Mikasa", text)


def test_BF6_CF_02_read_message_is_not_a_damage_control_action() -> None:
    """BF6-CF-02: The Read Message functions belong to the Command Phase, not Step Three."""
    with pytest.raises(OrderSyntaxError, match="unknown damage-control action"):
        parse_declaration("Mikasa", "READ-MESSAGE")
    assert "READ_MESSAGE_1" not in {a.chart_key for a in DCAction}


def test_command_functions_and_chart_rows() -> None:
    assert DCAction.FLOOD_MAGAZINE.is_command_function
    assert not DCAction.SINK_MINUS_1.is_command_function
    assert DCAction.REPAIR_BR.chart_key == "P_BR" and DCAction.SCUTTLE.chart_key == "COUNTERFLOOD"


# -- validation ----------------------------------------------------------------------------------


def test_BF6_DC_02_one_die_per_damage_event() -> None:
    log = make_log(majestic())
    log.propulsion.damage()
    validate_declarations(log, _decls(log, "P"))
    with pytest.raises(
        IllegalOrderError, match=r"Majestic: .*one DC die per damage event \(BF6-DC-02\)"
    ):
        validate_declarations(log, _decls(log, "P; P"))
    log.propulsion.margin = 1  # margin + damaged box = two events
    validate_declarations(log, _decls(log, "P; P"))
    with pytest.raises(IllegalOrderError, match="BF6-DC-02"):
        validate_declarations(log, _decls(log, "BR"))  # no bridge hit to address


def test_BF6_DC_04_no_more_dice_than_unmarked_boxes() -> None:
    log = make_log(destroyer())  # three DC boxes
    log.propulsion.damaged = 4
    validate_declarations(log, _decls(log, "P; P; P"))
    with pytest.raises(IllegalOrderError, match=r"needs 4 DC dice but only 3 .*BF6-DC-04"):
        validate_declarations(log, _decls(log, "P; P; P; P"))


def test_EX_BF6_09_dc_box_lost_in_step_one_is_not_usable() -> None:
    """EX-BF6-09: BF6-DMG-10: N boxes, a DC hit in Step One → only N − 1 dice in Step Three."""
    log = make_log(majestic())
    log.propulsion.damaged = 6
    six = _decls(log, "P; P; P; P; P; P")
    validate_declarations(log, six)
    apply_codes(log, ["DC"], ctx_for(FakeCharts(), FixedDice([])))  # Step One hit
    assert log.dc_dice == 5
    with pytest.raises(IllegalOrderError, match="BF6-DC-04"):
        validate_declarations(log, six)
    events = EventLog()
    kept = usable_declarations(log, six, events)
    assert len(kept) == 5
    assert any(
        "dropped" in e.text and "BF6-DC-04" in e.text for e in events.of_kind(EventKind.NOTE)
    )


def test_BF6_REP_01_destroyed_items_are_never_repaired() -> None:
    log = make_log(majestic())
    log.positions["A"].destroyed = True
    log.positions["A"].slashes = 1
    with pytest.raises(IllegalOrderError, match=r"A is destroyed .*BF6-REP-01"):
        validate_declarations(log, _decls(log, "M:A"))
    log.propulsion.destroyed = 2
    with pytest.raises(IllegalOrderError, match="BF6-DC-02"):
        validate_declarations(log, _decls(log, "P"))  # destroyed boxes are no damage event
    log.batteries["sec"][0] = Mark.DESTROYED
    with pytest.raises(IllegalOrderError, match="BF6-DC-02"):
        validate_declarations(log, _decls(log, "S:sec"))


def test_BF6_CF_01_ct_hit_bars_command_functions_except_recover_AMB_39() -> None:
    log = make_log(majestic())
    log.ct_hits = 1
    log.propulsion.damage()
    with pytest.raises(IllegalOrderError, match=r"conning-tower hit stands \(BF6-CF-01\)"):
        validate_declarations(log, _decls(log, "FLOODMAG:A"))
    with pytest.raises(IllegalOrderError, match="BF6-CF-01"):
        validate_declarations(log, _decls(log, "SCUTTLE"))
    # BF6-REP-04: repairs go on; Recover CT is the exception (BF6-CF-07).
    validate_declarations(log, _decls(log, "P; RECOVER-CT"))
    with pytest.raises(IllegalOrderError, match="BF6-DC-02"):
        validate_declarations(log, _decls(log, "RECOVER-CT; RECOVER-CT"))  # once a turn


def test_BF6_SINK_03_sinking_ship_does_no_damage_control() -> None:
    log = make_log(majestic())
    log.propulsion.damage()
    log.sinking = SinkingState(2)
    with pytest.raises(IllegalOrderError, match="BF6-SINK-03"):
        validate_declarations(log, _decls(log, "P"))


def test_targets_must_exist_and_fit_the_action() -> None:
    log = make_log(majestic())
    with pytest.raises(IllegalOrderError, match="no mounting 'Q'"):
        validate_declarations(log, _decls(log, "M:Q"))
    with pytest.raises(IllegalOrderError, match="not a main position"):
        validate_declarations(log, _decls(log, "FLOODMAG:sec"))
    with pytest.raises(IllegalOrderError, match="not a secondary or tertiary"):
        validate_declarations(log, _decls(log, "S:A"))
    with pytest.raises(IllegalOrderError, match="declared for 'Hood'"):
        validate_declarations(log, [DCDeclaration("Hood", DCAction.REPAIR_P)])


def test_BF6_CF_04_counterflood_needs_uneven_flooding_and_the_opposite_zone() -> None:
    log = make_log(majestic())
    with pytest.raises(IllegalOrderError, match=r"uneven flooding .*BF6-CF-04"):
        validate_declarations(log, _decls(log, "CF:port=light"))
    log.compartments[P].level = FloodLevel.HEAVY
    log.compartments[F].level = FloodLevel.LIGHT
    assert counterflood_zones(log) == {S, A}
    validate_declarations(log, _decls(log, "CF:starboard=heavy; CF:aft=light"))
    with pytest.raises(IllegalOrderError, match="AMB-31"):
        validate_declarations(log, _decls(log, "CF:port=severe"))
    log.compartments[S].level = FloodLevel.MODERATE
    with pytest.raises(IllegalOrderError, match="already at Moderate"):
        validate_declarations(log, _decls(log, "CF:starboard=moderate"))


def test_BF6_REP_08_stop_hvy_only_for_uncontained_heavy() -> None:
    log = make_log(majestic())
    log.compartments[F].level = FloodLevel.SEVERE
    with pytest.raises(IllegalOrderError, match="severe flooding cannot be contained"):
        validate_declarations(log, _decls(log, "HVY:forward"))
    log.compartments[A].level = FloodLevel.MODERATE
    with pytest.raises(IllegalOrderError, match="BF6-DC-02"):
        validate_declarations(log, _decls(log, "HVY:aft"))


def test_BF6_REP_10_secure_needs_a_free_rudder() -> None:
    log = make_log(majestic())
    log.rudder = RudderState.DAMAGED
    with pytest.raises(IllegalOrderError, match="BF6-REP-10"):
        validate_declarations(log, _decls(log, "SECURE"))
    with pytest.raises(IllegalOrderError, match="BF6-REP-10"):
        validate_declarations(log, _decls(log, "FREE"))


def test_BF6_DC_01_simultaneous_a_box_repaired_now_gives_no_die_now() -> None:
    """Eligibility is judged as the step begins: repairing a DC box adds no die this step."""
    log = make_log(destroyer())
    log.dc_boxes[0] = Mark.DAMAGED  # two dice
    log.propulsion.damaged = 2
    validate_declarations(log, _decls(log, "DC; P"))
    with pytest.raises(IllegalOrderError, match="BF6-DC-04"):
        validate_declarations(log, _decls(log, "DC; P; P"))


# -- resolution ---------------------------------------------------------------------------------


def test_BF6_REP_05_only_the_named_repair_is_made() -> None:
    """The player names the repair before rolling: M:Z repairs Z, never A."""
    log = make_log(majestic())
    log.positions["A"].slashes = 1
    log.positions["Z"].slashes = 1
    _resolve(log, "M:Z", [6])
    assert (log.positions["A"].slashes, log.positions["Z"].slashes) == (1, 0)


def test_BF6_REP_02_success_within_the_chart_range() -> None:
    """BF6-REP-02."""
    charts = FakeCharts(repair={"P_BR": (5, 6)})
    log = make_log(majestic())
    log.propulsion.damaged = 2
    events = _resolve(log, "P; P", [4, 5], charts)
    assert log.propulsion.damaged == 1
    texts = [e.text for e in events.of_kind(EventKind.REPAIR)]
    assert texts == [
        "Majestic: P rolls 4 (needs 5–6) → failed",
        "Majestic: P rolls 5 (needs 5–6) → propulsion box repaired",
    ]


def test_BF6_REP_06_margin_first_then_box_and_bridge() -> None:
    """BF6-REP-06."""
    log = make_log(majestic())
    log.propulsion.damaged, log.propulsion.margin = 6, 1
    log.bridge_hits = 1
    _resolve(log, "P; BR", [6, 6])
    assert (log.propulsion.margin, log.propulsion.damaged, log.bridge_hits) == (0, 6, 0)


def test_BF6_REP_03_each_slash_repaired_separately_and_REP_07() -> None:
    """BF6-REP-03 each slash is one repair; BF6-REP-07 Repair M and ST (one TR hit each)."""
    log = make_log(majestic())
    log.positions["A"].slashes = 2
    log.tr_hits = 2
    _resolve(log, "M:A; ST", [6, 6])
    assert log.positions["A"].slashes == 1
    assert not log.positions["A"].in_action  # still out with one slash left
    assert log.guns_in_action("A") == 0 and log.tr_hits == 1
    _resolve(log, "M:A", [4])
    assert log.positions["A"].in_action


def test_BF6_REP_08_stop_hvy_contains() -> None:
    log = make_log(majestic())
    log.compartments[P].level = FloodLevel.HEAVY
    _resolve(log, "HVY:port", [6])
    assert log.compartments[P].contained


def test_BF6_REP_09_repair_s_dc_r() -> None:
    """BF6-REP-09."""
    log = make_log(majestic())
    log.batteries["sec"][11] = Mark.DAMAGED
    log.dc_boxes[0] = Mark.DAMAGED
    log.rudder = RudderState.JAMMED_PORT
    _resolve(log, "S:sec; DC; R", [6, 6, 6])
    assert log.batteries["sec"] == [Mark.NONE] * 12
    assert log.dc_dice == 6
    assert log.rudder is RudderState.FREE


def test_BF6_REP_10_secure_and_disengage() -> None:
    log = make_log(majestic())
    _resolve(log, "SECURE", [5])
    assert log.rudder is RudderState.SECURED
    _resolve(log, "FREE", [5])
    assert log.rudder is RudderState.FREE


def test_BF6_REP_11_sink_minus_one_is_stored() -> None:
    log = make_log(majestic())
    _resolve(log, "SINK-1", [6])
    assert log.sink_roll_bonus == 1


def test_EX_BF6_17_flood_magazine_steps_the_level() -> None:
    """BF6-CF-03: none → light; heavy → severe; the position is out for good."""
    log = make_log(majestic())
    _resolve(log, "FLOODMAG:A", [3])
    assert log.compartments[F].level is FloodLevel.LIGHT
    assert log.positions["A"].magazine_flooded and not log.positions["A"].in_action
    log.compartments[A].level = FloodLevel.HEAVY
    _resolve(log, "FLOODMAG:Z", [6])
    assert log.compartments[A].level is FloodLevel.SEVERE
    with pytest.raises(IllegalOrderError, match="BF6-CF-03"):
        validate_declarations(log, _decls(log, "FLOODMAG:Z"))
    log.positions["A"].slashes = 1
    with pytest.raises(IllegalOrderError, match="out of commission"):
        validate_declarations(log, _decls(log, "M:A"))
    # A later hit on it calls for no Critical Effects roll: only the location die is used.
    dice = FixedDice([1])
    apply_codes(log, ["M"], ctx_for(FakeCharts(), dice))
    dice.assert_consumed()


def test_flood_magazine_failure_below_range() -> None:
    charts = FakeCharts(command={"FLOOD_MAGAZINE": (4, 6)})
    log = make_log(lozenge())
    _resolve(log, "FLOODMAG:P", [3], charts)
    assert not log.positions["P"].magazine_flooded
    _resolve(log, "FLOODMAG:P", [4], charts)
    assert log.compartments[P].level is FloodLevel.LIGHT  # the wing's own zone (AMB-30)


def test_BF6_CF_05_counterflood_success_and_failure_lock() -> None:
    """BF6-CF-05."""
    log = make_log(majestic())
    log.compartments[P].level = FloodLevel.HEAVY
    log.compartments[F].level = FloodLevel.MODERATE
    _resolve(log, "CF:starboard=heavy; CF:aft=moderate", [6, 1])
    assert log.compartments[S].level is FloodLevel.HEAVY and log.compartments[S].counterflooded
    assert log.compartments[A].level is FloodLevel.NONE
    assert log.counterflood_locked == {A}
    with pytest.raises(IllegalOrderError, match="already failed this phase"):
        validate_declarations(log, _decls(log, "CF:aft=moderate"))


def test_BF6_CF_07_recover_ct() -> None:
    log = make_log(majestic())
    log.ct_hits = 2
    _resolve(log, "RECOVER-CT", [6])
    assert log.ct_hits == 0
    validate_declarations(log, _decls(log, "FLOODMAG:A"))  # command restored


def test_BF6_CF_06_scuttle_all_zones_sinks() -> None:
    log = make_log(majestic())
    events = _resolve(log, "SCUTTLE", [6, 6, 6, 6])
    assert log.sunk and log.lost_reason == "scuttled"
    assert all(s.level is FloodLevel.SEVERE for s in log.compartments.values())
    assert events.of_kind(EventKind.SUNK)


def test_AMB_32_partial_scuttle_capsizes() -> None:
    log = make_log(majestic())
    _resolve(log, "SCUTTLE", [6, 1, 1, 1])
    assert log.sunk and log.lost_reason == "capsized"


def test_BF6_CF_06_scuttle_cannot_be_called_off() -> None:
    """All rolls fail: the scuttling goes on in the next Step Three by itself."""
    log = make_log(majestic())
    _resolve(log, "SCUTTLE", [1, 1, 1, 1])
    assert log.scuttling and not log.sunk
    with pytest.raises(IllegalOrderError, match="already under way"):
        validate_declarations(log, _decls(log, "SCUTTLE"))
    log.propulsion.damaged = 3
    with pytest.raises(IllegalOrderError, match="BF6-DC-04"):
        validate_declarations(log, _decls(log, "P; P; P"))  # the scuttle takes four dice
    validate_declarations(log, _decls(log, "P; P"))
    dice, events = FixedDice([6, 6, 6, 6]), EventLog()
    resolve_damage_control(log, [], FakeCharts(), dice, events)
    dice.assert_consumed()
    assert log.sunk and log.lost_reason == "scuttled"


def test_AMB_29_command_functions_spend_dice() -> None:
    log = make_log(destroyer())
    log.propulsion.damaged = 3
    with pytest.raises(IllegalOrderError, match="BF6-DC-04"):
        validate_declarations(log, _decls(log, "P; P; P; FLOODMAG:A"))


def test_DIFF_02_dice_per_event_setting() -> None:
    """The 1D12 edition lets two DC dice work on one damage event (a setting)."""
    log = make_log(majestic())
    log.propulsion.damage()
    validate_declarations(log, _decls(log, "P; P"), dice_per_event=2)
    with pytest.raises(IllegalOrderError, match="BF6-DC-02"):
        validate_declarations(log, _decls(log, "P; P; P"), dice_per_event=2)


def test_counterflooded_heavy_needs_no_containment_and_scuttle_ends_the_step() -> None:
    """BF6-CF-04: a counterflooded zone triggers nothing, so Stop Hvy FL has nothing to do;
    once scuttled, no more DC dice are rolled."""
    log = make_log(majestic())
    state = log.compartments[S]
    state.level, state.counterflooded = FloodLevel.HEAVY, True
    with pytest.raises(IllegalOrderError, match="BF6-DC-02"):
        validate_declarations(log, _decls(log, "HVY:starboard"))
    log2 = make_log(majestic())
    log2.bridge_hits = 1
    _resolve(log2, "SCUTTLE; BR", [6, 6, 6, 6])  # four zone rolls, then no BR roll
    assert log2.sunk and log2.bridge_hits == 1
