"""Transfer of command and dropping out (BF6-CMD-16..24; EX-BF6-04; AMB-04..07)."""

from __future__ import annotations

import pytest

from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.command import (
    closest_successor,
    command_phase,
    drop_out,
    drop_out_eligible,
    involuntary_bonus,
    involuntary_transfer,
    voluntary_transfer,
)
from battleline.rulesets.bf1900.divisions import Division
from battleline.rulesets.bf1900.movement_phase import movement_phase
from battleline.rulesets.bf1900.notation import Direction, TurnTogether, parse_orders
from battleline.rulesets.bf1900.scales import load_scales
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, Rating, ShipClass, ShipType
from battleline.rulesets.bf1900.shiplog import ShipLog, SinkingState
from battleline.testing import FixedDice

SMALL = load_scales()["small"]
SLOW = 200.0  # metres last turn: under 1/6 of 18 knots (278 m a turn)

CLS = ShipClass(
    name="Test",
    navy="IJN",
    type=ShipType.BATTLESHIP,
    year=1900,
    size=8,
    armour_vitals=9,
    armour_upperworks=6,
    upperworks_protection=Rating.GOOD,
    flood_protection=Rating.GOOD,
    stability="good",
    seaway="normal",
    armoured_deck=True,
    propulsion_knots=(18, 15, 12, 9, 6, 3),
    mountings=(),
)


def setup(
    ships: tuple[str, ...] = ("Mikasa", "Shikishima", "Fuji", "Asahi"),
    fleet: bool = False,
) -> tuple[Division, dict[str, ShipLog], dict[str, Pose]]:
    """A line ahead heading north, 500 m apart, the lead carrying the flag."""
    division = Division("1st", "Japan", ships, fleet_flagship=fleet, interval_m=500.0)
    logs = {s: ShipLog(s, CLS, side="Japan") for s in ships}
    poses = {s: Pose(0.0, -500.0 * i, 0.0) for i, s in enumerate(ships)}
    return division, logs, poses


# -- involuntary transfer ------------------------------------------------------------------


def test_EX_BF6_04_six_fires_and_three_uneven_points_transfer_automatically() -> None:
    """+3 for fires and ≥ +1 for flooding: even a 1 reaches 5 (AMB-04). The fleet flag passes."""
    division, logs, poses = setup(fleet=True)
    flag = logs["Mikasa"]
    flag.ct_hits = 1
    flag.fires_external, flag.fires_internal = 4, 2
    flag.compartments[Compartment.PORT].level = FloodLevel.HEAVY  # 3 points port vs 0 starboard
    assert flag.uneven_flooding_points == 3
    assert involuntary_bonus(flag) >= 4.0
    events = EventLog()
    dice = FixedDice([1], log=events)
    after = involuntary_transfer(division, logs, poses, dice, events)
    dice.assert_consumed()
    assert after.flagship == "Shikishima"  # the closest ship
    assert after.fleet_flagship
    text = events.of_kind(EventKind.COMMAND)[-1].text
    assert "Shikishima takes command of 1st and of the fleet from Mikasa" in text
    assert events.of_kind(EventKind.ROLL)[0].data["purpose"] == "involuntary transfer of command"


@pytest.mark.parametrize(("roll", "passes"), [(4, False), (5, True), (6, True)])
def test_BF6_CMD_21_a_conning_tower_hit_transfers_on_5_or_6(roll: int, passes: bool) -> None:
    """BF6-CMD-21."""
    division, logs, poses = setup()
    logs["Mikasa"].ct_hits = 1
    dice = FixedDice([roll])
    after = involuntary_transfer(division, logs, poses, dice, EventLog())
    dice.assert_consumed()
    assert (after.flagship == "Shikishima") is passes


def test_BF6_CMD_20_a_steering_hit_also_calls_for_the_roll_without_slowing() -> None:
    """BF6-CMD-20."""
    division, logs, poses = setup()
    logs["Mikasa"].tr_hits = 1
    dice = FixedDice([6])
    after = involuntary_transfer(division, logs, poses, dice, EventLog())
    dice.assert_consumed()
    assert after.flagship == "Shikishima"


@pytest.mark.parametrize(
    ("fires", "uneven", "roll", "passes"),
    [(1, 0, 4, False), (2, 0, 4, True), (0, 1, 4, False), (1, 1, 4, True), (0, 3, 3, False)],
)
def test_BF6_CMD_22_half_a_point_per_fire_and_per_uneven_point(
    fires: int, uneven: int, roll: int, passes: bool
) -> None:
    """BF6-CMD-22."""
    division, logs, poses = setup()
    flag = logs["Mikasa"]
    flag.ct_hits = 1
    flag.fires_external = fires
    flag.compartments[Compartment.FORWARD].level = FloodLevel(uneven)
    assert involuntary_bonus(flag) == pytest.approx(0.5 * (fires + uneven))
    after = involuntary_transfer(division, logs, poses, FixedDice([roll]), EventLog())
    assert (after.flagship != "Mikasa") is passes


def test_BF6_CMD_23_a_repaired_flagship_keeps_command_and_the_rolls_stop() -> None:
    """BF6-CMD-23."""
    division, logs, poses = setup()
    logs["Mikasa"].ct_hits = 1
    events = EventLog()
    kept = involuntary_transfer(division, logs, poses, FixedDice([2]), events)
    assert kept.flagship == "Mikasa"
    assert "keeps command" in events.of_kind(EventKind.COMMAND)[-1].text
    logs["Mikasa"].ct_hits = 0  # Recover from CT Hit succeeded
    dice = FixedDice([])
    assert involuntary_transfer(kept, logs, poses, dice, events).flagship == "Mikasa"
    assert dice.draws == 0
    # ... a voluntary transfer is still allowed.
    moved = {"Mikasa": SLOW, "Shikishima": SLOW}
    after = voluntary_transfer(kept, "Shikishima", logs, poses, SMALL, moved, events)
    assert after.flagship == "Shikishima"


@pytest.mark.parametrize("fate", ["sunk", "sinking"])
def test_BF6_CMD_24_a_lost_flagship_hands_over_at_once(fate: str) -> None:
    division, logs, poses = setup(fleet=True)
    if fate == "sunk":
        logs["Mikasa"].sunk = True
    else:
        logs["Mikasa"].sinking = SinkingState(turns_left=2)
    dice = FixedDice([])
    events = EventLog()
    after = involuntary_transfer(division, logs, poses, dice, events)
    assert dice.draws == 0
    assert after.flagship == "Shikishima" and after.fleet_flagship
    assert f"flagship {fate}; BF6-CMD-24" in events.of_kind(EventKind.COMMAND)[-1].text


def test_AMB_05_the_closest_afloat_ship_of_the_same_division_takes_over() -> None:
    division, logs, poses = setup()
    logs["Shikishima"].sinking = SinkingState(turns_left=1)
    poses["Asahi"] = Pose(200.0, 0.0, 0.0)  # closer than Fuji
    assert closest_successor(division, logs, poses) == "Asahi"
    logs["Asahi"].surrendered = True
    assert closest_successor(division, logs, poses) == "Fuji"
    logs["Fuji"].sunk = True
    assert closest_successor(division, logs, poses) is None
    # With nobody left to take over there is no roll at all.
    logs["Mikasa"].ct_hits = 1
    dice = FixedDice([])
    assert involuntary_transfer(division, logs, poses, dice, EventLog()).flagship == "Mikasa"


def test_command_phase_moves_the_flag_off_a_sunk_flagship_and_drops_the_wreck() -> None:
    division, logs, poses = setup(fleet=True)
    logs["Mikasa"].sunk = True
    events = EventLog()
    result = command_phase({"1st": division}, {}, logs, poses, SMALL, {}, FixedDice([]), events)
    after = result.divisions["1st"]
    assert after.flagship == "Shikishima" and after.fleet_flagship
    assert after.ships == ("Shikishima", "Fuji", "Asahi")


def test_the_fleet_flag_passes_to_another_division_when_a_division_is_lost() -> None:
    one, logs, poses = setup(ships=("Mikasa",), fleet=True)
    two, logs2, poses2 = setup(ships=("Izumo", "Iwate"))
    two = Division("2nd", "Japan", two.ships)
    poses2 = {s: Pose(p.x + 1000, p.y, 0) for s, p in poses2.items()}
    logs |= logs2
    poses |= poses2
    logs["Mikasa"].sunk = True
    events = EventLog()
    result = command_phase(
        {"1st": one, "2nd": two}, {}, logs, poses, SMALL, {}, FixedDice([]), events
    )
    assert "1st" not in result.divisions
    assert result.divisions["2nd"].fleet_flagship
    assert any("Izumo of 2nd takes command of the fleet" in e.text for e in events)


# -- voluntary transfer --------------------------------------------------------------------


def test_BF6_CMD_19_voluntary_transfer_when_both_ships_are_slow_and_close() -> None:
    """BF6-CMD-18: the voluntary road; takes effect on declaration."""
    division, logs, poses = setup(fleet=True)
    moved = {s: SLOW for s in division.ships}
    result = command_phase(
        {"1st": division},
        {"1st": "FLAG Shikishima"},
        logs,
        poses,
        SMALL,
        moved,
        FixedDice([]),
        EventLog(),
    )
    assert result.divisions["1st"].flagship == "Shikishima"
    assert result.divisions["1st"].fleet_flagship


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ("ct", "conning tower hit; no voluntary transfer"),
        ("fast_flag", "Mikasa moved"),
        ("fast_target", "Fuji moved"),
        ("far", "within ¼ of a range bracket"),
        ("target_ct", "not qualified"),
        ("self", "already the flagship"),
        ("stranger", "not a ship of this division"),
    ],
)
def test_BF6_CMD_19_voluntary_transfer_conditions(change: str, fragment: str) -> None:
    division, logs, poses = setup()
    moved = {s: SLOW for s in division.ships}
    target = "Fuji"
    poses["Fuji"] = Pose(300.0, 0.0, 0.0)  # within 625 m (¼ of a 2,500 m bracket)
    if change == "ct":
        logs["Mikasa"].ct_hits = 1
    elif change == "fast_flag":
        moved["Mikasa"] = 300.0
    elif change == "fast_target":
        moved["Fuji"] = 300.0
    elif change == "far":
        poses["Fuji"] = Pose(700.0, 0.0, 0.0)
    elif change == "target_ct":
        logs["Fuji"].ct_hits = 1
    elif change == "self":
        target = "Mikasa"
    else:
        target = "Yashima"
    with pytest.raises(IllegalOrderError) as err:
        voluntary_transfer(division, target, logs, poses, SMALL, moved, EventLog())
    assert "division '1st'" in str(err.value) and "BF6-CMD-19" in str(err.value)
    assert fragment in str(err.value)


# -- dropping out --------------------------------------------------------------------------


def test_BF6_CMD_16_drop_out_needs_one_more_propulsion_hit_than_the_ship_astern() -> None:
    division, logs, _poses = setup()
    logs["Fuji"].propulsion.damage()
    logs["Asahi"].propulsion.damage()
    assert not drop_out_eligible(division, "Fuji", logs)  # 1 against 1
    logs["Fuji"].propulsion.destroy()  # destroyed boxes count too (AMB-07)
    assert drop_out_eligible(division, "Fuji", logs)
    logs["Shikishima"].propulsion.margin = 3  # margin damage counts (AMB-07)
    assert drop_out_eligible(division, "Shikishima", logs)  # 3 against Fuji's 2


def test_AMB_07_the_last_ship_needs_one_propulsion_hit() -> None:
    division, logs, _ = setup()
    assert not drop_out_eligible(division, "Asahi", logs)
    logs["Asahi"].propulsion.damage()
    assert drop_out_eligible(division, "Asahi", logs)


def test_BF6_CMD_16_an_ineligible_drop_out_is_rejected() -> None:
    division, logs, _ = setup()
    with pytest.raises(IllegalOrderError) as err:
        drop_out(division, "Fuji", logs, EventLog())
    assert "division '1st'" in str(err.value) and "BF6-CMD-16" in str(err.value)
    assert "Asahi astern has 0" in str(err.value)
    with pytest.raises(IllegalOrderError, match="transfer command before dropping out"):
        drop_out(division, "Mikasa", logs, EventLog())


def test_BF6_CMD_17_a_ship_drops_out_as_a_one_ship_division_and_turns_out() -> None:
    division, logs, poses = setup()
    logs["Shikishima"].propulsion.damage()
    last = {s: SMALL.knots_to_m_per_turn(12) for s in division.ships}
    events = EventLog()
    result = command_phase(
        {"1st": division},
        {"1st": "DROP Shikishima P SPD12"},
        logs,
        poses,
        SMALL,
        last,
        FixedDice([]),
        events,
    )
    rest, alone = result.divisions["1st"], result.divisions["1st/Shikishima"]
    assert rest.ships == ("Mikasa", "Fuji", "Asahi")
    assert alone.ships == ("Shikishima",) and alone.flagship == "Shikishima"
    assert alone.must_turn_out
    assert result.movement_orders["1st/Shikishima"] == (TurnTogether(45, Direction.PORT),)
    assert "BF6-CMD-17" in events.of_kind(EventKind.COMMAND)[-1].text
    moved = movement_phase(
        result.divisions, result.movement_orders, poses, logs, SMALL, last, events
    )
    assert moved.tracks["Shikishima"].turned_deg == pytest.approx(-45.0)
    assert not moved.divisions["1st/Shikishima"].must_turn_out
    # Fuji closes up on the ship ahead (Mikasa) instead of holding the old gap.
    assert moved.tracks["Fuji"].length_m > moved.tracks["Mikasa"].length_m


def test_BF6_CMD_17_the_dropped_ship_must_turn_out_in_its_next_move() -> None:
    division, logs, poses = setup()
    logs["Shikishima"].propulsion.damage()
    _, alone = drop_out(division, "Shikishima", logs, EventLog())
    with pytest.raises(IllegalOrderError, match=r"must turn out of the line.*BF6-CMD-17"):
        movement_phase(
            {alone.name: alone},
            {alone.name: parse_orders("SPD12")},
            {"Shikishima": poses["Shikishima"]},
            logs,
            SMALL,
            {"Shikishima": SMALL.knots_to_m_per_turn(12)},
            EventLog(),
        )


def test_a_drop_out_made_impossible_in_the_same_phase_is_cancelled() -> None:
    """Shikishima takes command by roll, so its declared drop-out cannot go ahead."""
    division, logs, poses = setup()
    logs["Mikasa"].ct_hits = 1
    logs["Shikishima"].propulsion.damage()
    events = EventLog()
    dice = FixedDice([6])
    result = command_phase(
        {"1st": division}, {"1st": "DROP Shikishima"}, logs, poses, SMALL, {}, dice, events
    )
    dice.assert_consumed()
    assert result.divisions["1st"].flagship == "Shikishima"
    assert set(result.divisions) == {"1st"}
    assert "DROP Shikishima cancelled" in events.of_kind(EventKind.COMMAND)[-1].text


def test_an_illegal_order_is_rejected_before_any_die_is_rolled() -> None:
    division, logs, poses = setup()
    logs["Mikasa"].ct_hits = 1
    dice = FixedDice([])
    with pytest.raises(IllegalOrderError, match="BF6-CMD-14"):
        command_phase(
            {"1st": division}, {"1st": "STOP TT90S"}, logs, poses, SMALL, {}, dice, EventLog()
        )
    assert dice.draws == 0
