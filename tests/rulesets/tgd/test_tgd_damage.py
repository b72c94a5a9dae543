"""TGD hit location, penetration, armour, damage and referred hits (TGD-LOC, TGD-PEN, TGD-ARM,
TGD-DMG, TGD-REFD; EX-TGD-10..15, EX-DRV-08, EX-DRV-09; AMB-57, AMB-61..64)."""

from __future__ import annotations

import pytest

from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.tgd.card import load_card
from battleline.rulesets.tgd.cardlog import CardLog
from battleline.rulesets.tgd.charts import load_charts
from battleline.rulesets.tgd.damage import (
    announce,
    apply_location,
    modified_strength,
    nearest_battery,
    penetrates,
    resolve_hits,
    roll_locations,
)
from battleline.testing import FixedDice

CHARTS = load_charts()


def ship(name: str = "Pelayo") -> CardLog:
    return CardLog(load_card(name))


def hit(log: CardLog, location: int, dice: list[int] | None = None, aspect: float | None = None):
    script = FixedDice(dice or [])
    events = EventLog()
    effect = apply_location(log, location, charts=CHARTS, dice=script, events=events, aspect=aspect)
    script.assert_consumed()
    return effect, events


def wreck_topside(log: CardLog) -> None:
    log.lost = {(loc, i) for loc, i, _ in log.card.batteries()}
    log.superstructure_hits = len(log.card.superstructure)


def test_EX_TGD_10_locations_sorted_and_announced_with_the_strength() -> None:
    """TGD-LOC-01, TGD-LOC-02: dice {5, 2, 6, 5} → "four strength three hits in locations 2, 5,
    5 and 6"."""
    dice = FixedDice([5, 2, 6, 5])
    locations = roll_locations(dice, 4, ship="Pelayo")
    dice.assert_consumed()
    assert locations == [2, 5, 5, 6]
    assert announce(locations, 3) == "four strength three hits in locations 2, 5, 5 and 6"
    assert announce([4], 6) == "one strength six hit in location 4"


@pytest.mark.parametrize(("rng", "strength"), [(19, 4), (19.5, 4), (20, 3), (40, 3), (41, 2)])
def test_EX_DRV_08_penetration_modifier_by_range(rng: float, strength: int) -> None:
    """TGD-PEN-01, AMB-57: strength 3 is 4 under 20, 3 from 20 to 40, 2 over 40."""
    assert modified_strength(3, rng, CHARTS) == strength


def test_EX_DRV_09_TGD_ARM_01_strictly_greater_than_the_armour_penetrates() -> None:
    assert not penetrates(4, 4)
    assert penetrates(5, 4)
    assert not penetrates(3, 4)


def test_EX_TGD_11_TGD_ARM_02_hit_and_ping_called_and_pings_do_no_damage() -> None:
    """EX-TGD-11, TGD-ARM-02:
    Strength 3 at range 25 (no modifier) on Pelayo: location 1 (armour 4) pings, location 4
    (armour 0) hits. TGD-DMG-01: only the hit does damage."""
    pelayo = ship()
    events = EventLog()
    dice = FixedDice([4, 1])
    results = resolve_hits(
        pelayo, 2, strength=3, rng=25, charts=CHARTS, dice=dice, events=events, attacker="Iowa"
    )
    dice.assert_consumed()
    assert [(r.location, r.call) for r in results] == [(1, "ping"), (4, "hit")]
    assert not pelayo.lost
    assert pelayo.superstructure_hits == 1
    calls = [e.text for e in events.of_kind(EventKind.HIT)]
    assert "Pelayo: two strength three hits in locations 1 and 4" in calls
    assert any(t.endswith("armour 4: ping") for t in calls)


def test_EX_TGD_12_a_shell_from_ahead_destroys_the_bow_gun_first() -> None:
    """EX-TGD-12:
    TGD-DMG-02, AMB-61: ff 2x1 sits in front of the f 6x1, so it goes first; then f, then a."""
    pelayo = ship()
    effect, _ = hit(pelayo, 1, aspect=0.0)
    assert effect == ("battery ff 2x1 destroyed", ())
    assert hit(pelayo, 1, aspect=10.0)[0][0] == "battery f 6x1 destroyed"
    assert hit(pelayo, 1, aspect=0.0)[0][0] == "battery a 6x1 destroyed"
    assert pelayo.location_empty(1)


def test_TGD_DMG_02_from_astern_the_aft_gun_goes_first_and_the_whole_battery_is_lost() -> None:
    pelayo = ship()
    assert nearest_battery(pelayo, 1, 180.0) == (1, 1)  # a 6x1
    iowa = ship("Iowa")
    effect, _ = hit(iowa, 3, aspect=90.0)  # starboard beam: the s 1x3 battery, all three guns
    assert effect[0] == "battery s 1x3 destroyed"
    assert (3, 1) in iowa.lost and (3, 0) not in iowa.lost


def test_TGD_DMG_03_04_secondary_and_tertiary_columns_lose_the_nearest_battery() -> None:
    """TGD-DMG-03 (location 2) and TGD-DMG-04 (location 3) follow the location-1 rule."""
    pelayo = ship()
    assert hit(pelayo, 2, aspect=300.0)[0][0] == "battery fp 5x1 destroyed"
    assert hit(pelayo, 3, aspect=100.0)[0][0] == "battery s 1x6 destroyed"


def test_AMB_61_a_tie_goes_to_the_first_battery_on_the_card() -> None:
    pelayo = ship()
    assert nearest_battery(pelayo, 1, 90.0) == (1, 0)  # ff, f and a all on the centreline
    assert nearest_battery(pelayo, 1, None) == (1, 0)


def test_EX_TGD_13_funnel_hit_costs_two_knots() -> None:
    """EX-TGD-13:
    TGD-DMG-05: Pelayo's superstructure reads S F S F; the second hit holes a funnel."""
    pelayo = ship()
    assert hit(pelayo, 4)[0][0] == "S crossed off"
    assert pelayo.speed == 16
    effect, events = hit(pelayo, 4)
    assert effect[0] == "F crossed off, -2 knots"
    assert pelayo.speed == 14
    assert any("speed 16 → 14 knots" in e.text for e in events)


def test_TGD_DMG_06_bow_stern_hull_two_knots_each_then_immobile_then_nothing() -> None:
    """TGD-DMG-06."""
    pelayo = ship()
    for n in range(1, pelayo.card.hull_ends):
        hit(pelayo, 5)
        assert pelayo.speed == 16 - 2 * n and not pelayo.immobile
    effect, events = hit(pelayo, 5)
    assert effect[0].endswith("immobile")
    assert pelayo.immobile and pelayo.speed == 0
    assert any("can no longer move" in e.text for e in events)
    assert any("speed 12 → 0 knots" in e.text for e in events)
    assert hit(pelayo, 5)[0][0] == "no effect (every H gone)"
    assert pelayo.hull_end_hits == pelayo.card.hull_ends


def test_TGD_DMG_07_centre_hull_loses_a_d6_of_knots_per_H_then_immobile() -> None:
    """TGD-DMG-07."""
    pelayo = ship()
    hit(pelayo, 6, [5])
    assert pelayo.speed == 11
    hit(pelayo, 6, [6])
    assert pelayo.speed == 5
    effect, _ = hit(pelayo, 6, [6])  # AMB-63: knots never below 0
    assert effect[0] == "H crossed off, -6 knots, immobile"
    assert pelayo.speed == 0 and pelayo.immobile and not pelayo.sunk


def _centre_gone(name: str = "Pelayo") -> CardLog:
    log = ship(name)
    log.hull_centre_hits = log.card.hull_centre
    return log


def test_EX_TGD_14_battleship_saves_on_2_and_sinks_on_1() -> None:
    """EX-TGD-14: TGD-DMG-08."""
    pelayo = _centre_gone()
    assert hit(pelayo, 6, [2])[0][0] == "saved from sinking"
    assert not pelayo.sunk
    effect, events = hit(pelayo, 6, [1])
    assert effect[0] == "sunk" and pelayo.sunk
    assert events.of_kind(EventKind.SUNK)


def test_EX_TGD_14_topside_wrecked_subtracts_one_so_a_natural_2_sinks() -> None:
    """EX-TGD-14."""
    pelayo = _centre_gone()
    wreck_topside(pelayo)
    assert pelayo.topside_wrecked
    assert hit(pelayo, 6, [2])[0][0] == "sunk"
    wrecked = _centre_gone()
    wreck_topside(wrecked)
    assert hit(wrecked, 6, [3])[0][0] == "saved from sinking"


def test_REF_TGD_05_other_ship_types_use_their_own_save_number() -> None:
    """Reconstructed: a protected cruiser (CP) needs 4+."""
    zhiyuan = _centre_gone("Zhiyuan")
    assert CHARTS.save_number("CP") == 4
    assert hit(zhiyuan, 6, [4])[0][0] == "saved from sinking"
    assert hit(zhiyuan, 6, [3])[0][0] == "sunk"
    assert hit(zhiyuan, 1)[0][0] == "no effect (already sunk)"


def test_AMB_64_topside_wrecked_counts_missing_columns_as_destroyed() -> None:
    dingyuan = ship("Dingyuan")
    wreck_topside(dingyuan)
    assert dingyuan.topside_wrecked
    dingyuan.superstructure_hits = 0
    assert not dingyuan.topside_wrecked


def test_TGD_REFD_01_02_emptied_gun_column_passes_the_hit_to_location_4() -> None:
    """TGD-REFD-01, TGD-REFD-02: a hit on an emptied location 2 lands on location 4."""
    pelayo = ship()
    pelayo.lost = {(2, 0), (2, 1)}
    effect, events = hit(pelayo, 2)
    assert effect == ("S crossed off", (4,))
    assert any("referred to location 4" in e.text for e in events)


def test_TGD_REFD_03_empty_superstructure_passes_to_3_then_2_then_1() -> None:
    pelayo = ship()
    pelayo.superstructure_hits = 4
    assert hit(pelayo, 4, aspect=90.0)[0] == ("battery s 1x6 destroyed", (3,))
    pelayo.lost |= {(3, 0), (3, 1)}
    assert hit(pelayo, 4, aspect=0.0)[0] == ("battery fp 5x1 destroyed", (2,))
    pelayo.lost |= {(2, 0), (2, 1)}
    assert hit(pelayo, 4, aspect=0.0)[0] == ("battery ff 2x1 destroyed", (1,))
    # a hit on an empty location 3 goes to 4, then on to the first column with guns left
    assert hit(pelayo, 3, aspect=0.0)[0] == ("battery f 6x1 destroyed", (4, 1))


def test_EX_TGD_15_everything_topside_gone_means_burning_furiously() -> None:
    """EX-TGD-15: TGD-REFD-03; AMB-62: later referred hits do nothing more."""
    pelayo = ship()
    wreck_topside(pelayo)
    effect, events = hit(pelayo, 4)
    assert effect == ("burning furiously", ())
    assert pelayo.burning
    assert any("burning furiously" in e.text for e in events.of_kind(EventKind.FIRE))
    assert hit(pelayo, 1)[0] == ("burning furiously", (4,))
    assert pelayo.speed == 16 and pelayo.hull_centre_hits == 0


def test_TGD_REFD_04_TGD_ARM_03_referred_hits_ignore_armour_but_the_rolled_location_keeps_it() -> (
    None
):
    """TGD-REFD-04, TGD-ARM-03:
    AMB-62: the hit must beat the rolled location's armour (kept when emptied); once through,
    the referred hit lands with no second check."""
    pelayo = ship()
    pelayo.lost = {(1, 0), (1, 1), (1, 2)}  # location 1 emptied, armour 4 still there
    pelayo.superstructure_hits = 4  # location 4 emptied too
    dice = FixedDice([1, 1])
    weak = resolve_hits(pelayo, 2, strength=1, rng=30, charts=CHARTS, dice=dice, events=EventLog())
    assert [r.call for r in weak] == ["ping", "ping"]
    assert len(pelayo.lost) == 3
    dice = FixedDice([1])
    strong = resolve_hits(
        pelayo, 1, strength=5, rng=15, charts=CHARTS, dice=dice, events=EventLog()
    )
    # 6 beats armour 4 at location 1; referred via 4 to location 3, on to the p 1x6 battery
    assert strong[0].call == "hit" and strong[0].referred == (4, 3)
    assert (3, 0) in pelayo.lost


def test_TGD_LOC_01_a_location_die_per_hit_then_the_damage_dice() -> None:
    """Three hits roll three locations (sorted 4, 5, 6); the centre hit then rolls its knots."""
    pelayo = ship()
    dice = FixedDice([6, 5, 4, 3])
    results = resolve_hits(
        pelayo, 3, strength=6, rng=30, charts=CHARTS, dice=dice, events=EventLog()
    )
    dice.assert_consumed()
    assert [r.location for r in results] == [4, 5, 6]
    assert pelayo.speed == 16 - 2 - 3
