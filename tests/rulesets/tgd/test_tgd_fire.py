"""The TGD fire procedure (TGD-FIRE-01..03, TGD-RNG-01, TGD-HIT-01..07, EX-TGD-07..09,
AMB-56, AMB-58, AMB-60, AMB-66, AMB-68)."""

from __future__ import annotations

import pytest

from battleline.engine.events import EventKind, EventLog
from battleline.errors import IllegalOrderError
from battleline.rulesets.tgd.card import load_card
from battleline.rulesets.tgd.cardlog import CardLog
from battleline.rulesets.tgd.charts import HitNumber, load_charts
from battleline.rulesets.tgd.fire import (
    FireOrder,
    fire,
    modified_hit_number,
    roll_to_hit,
    select_batteries,
    to_hit,
)
from battleline.testing import FixedDice

CHARTS = load_charts()


def ship(name: str) -> CardLog:
    return CardLog(load_card(name))


def order(
    strength: int,
    rng: float,
    bearing: float = 90.0,
    aspect: float = 90.0,
    *,
    arcs: tuple[str, ...] = (),
    target_halted: bool = False,
) -> FireOrder:
    return FireOrder(strength, rng, bearing, aspect, arcs, target_halted)


def test_EX_TGD_07_range_is_strength_times_ten_boundary_included() -> None:
    """TGD-RNG-01, AMB-58: Pelayo's strength-6 guns reach 60; 61 is out of range."""
    pelayo = ship("Pelayo")
    assert len(select_batteries(pelayo, order(6, 60.0))) == 2
    with pytest.raises(IllegalOrderError, match=r"Pelayo: .*maximum range 60 \(TGD-RNG-01\)"):
        select_batteries(pelayo, order(6, 61.0))


def test_EX_TGD_08_range_11_hits_on_5_or_6_and_strength_1_cannot_reach() -> None:
    """EX-TGD-08: TGD-HIT-01/03."""
    assert CHARTS.hit_number(11) == HitNumber(5)
    dice = FixedDice([5, 6, 4, 3, 2, 1])
    assert roll_to_hit(dice, 6, HitNumber(5), ship="Retvisan") == 2
    dice.assert_consumed()
    with pytest.raises(IllegalOrderError, match="TGD-RNG-01"):
        select_batteries(ship("Pelayo"), order(1, 11.0))


@pytest.mark.parametrize(
    ("rng", "entry"),
    [(9.9, "4+"), (10, "5+"), (19.9, "5+"), (20, "6+"), (46.9, "6 then 4+"), (47, "6 then 5+")],
)
def test_AMB_56_band_edges(rng: float, entry: str) -> None:
    """TGD-HIT-03: 10 starts the 5+ band and 20 starts the next (AMB-56)."""
    assert str(CHARTS.hit_number(rng)) == entry


def test_EX_TGD_09_range_47_keeps_the_sixes_and_rolls_them_again() -> None:
    """EX-TGD-09: TGD-HIT-04: {6, 6, 3, 5} → re-roll two dice → {5, 2} → one hit."""
    assert CHARTS.hit_number(47) == HitNumber(5, 6)
    dice = FixedDice([6, 6, 3, 5, 5, 2])
    assert roll_to_hit(dice, 4, HitNumber(5, 6), ship="Pelayo") == 1
    dice.assert_consumed()
    # no six, no second roll
    dice = FixedDice([5, 5, 4])
    assert roll_to_hit(dice, 3, HitNumber(5, 6), ship="Pelayo") == 0
    dice.assert_consumed()


def test_EX_TGD_09_only_strength_5_and_up_reach_range_47() -> None:
    """EX-TGD-09."""
    pelayo = ship("Pelayo")
    assert select_batteries(pelayo, order(5, 47.0, bearing=0.0))
    with pytest.raises(IllegalOrderError, match="TGD-RNG-01"):
        select_batteries(ship("Iowa"), order(3, 47.0, bearing=0.0))


def test_TGD_HIT_02_us_and_japanese_ships_hit_at_plus_one() -> None:
    """TGD-HIT-02."""
    for nation, mod in (("spanish", 0), ("chinese", 0), ("russian", 0), ("us", 1), ("japanese", 1)):
        hit = to_hit(CHARTS, 15, nation=nation, rake=False, stationary=False)
        assert hit.total == mod
        assert hit.final.need == 5 - mod


def test_TGD_HIT_05_06_rake_and_stationary_each_add_one_and_stack() -> None:
    """AMB-60: modifiers stack."""
    hit = to_hit(CHARTS, 25, nation="us", rake=True, stationary=True)
    assert [name for name, _ in hit.modifiers] == ["us gunnery", "rake", "stationary target"]
    assert hit.final == HitNumber(3)


def test_AMB_60_modifiers_go_on_the_last_roll_and_a_natural_1_always_misses() -> None:
    assert modified_hit_number(HitNumber(5, 6), 1) == HitNumber(4, 6)  # the first 6 stays
    assert modified_hit_number(HitNumber(4), 3) == HitNumber(2)
    dice = FixedDice([1, 2])
    assert roll_to_hit(dice, 2, HitNumber(2), ship="Iowa") == 1
    dice.assert_consumed()
    dice = FixedDice([5, 6, 4, 1])  # first roll 5 fails even with the +1; 6 → re-roll 4 hits
    assert roll_to_hit(dice, 2, modified_hit_number(HitNumber(5, 6), 1), ship="Iowa") == 1
    with pytest.raises(AssertionError):
        dice.assert_consumed()


def test_TGD_FIRE_01_AMB_68_one_strength_per_action_all_that_bear_or_those_named() -> None:
    pelayo = ship("Pelayo")
    fired = select_batteries(pelayo, order(5, 30.0, bearing=0.0))
    assert [str(b) for _, b in fired] == ["fp 5x1", "fs 5x1"]
    named = select_batteries(pelayo, order(5, 30.0, bearing=0.0, arcs=("fs",)))
    assert [str(b) for _, b in named] == ["fs 5x1"]
    assert all(b.strength == 6 for _, b in select_batteries(pelayo, order(6, 30.0)))
    with pytest.raises(IllegalOrderError, match=r"no strength-4 guns .*TGD-FIRE-01"):
        select_batteries(pelayo, order(4, 30.0))
    with pytest.raises(IllegalOrderError, match="TGD-FIRE-01"):
        select_batteries(pelayo, order(5, 30.0, arcs=("p",)))


def test_TGD_FIRE_03_target_in_the_arc_of_every_gun() -> None:
    """Pelayo's strength-5 guns at a target on the starboard beam: only fs bears."""
    pelayo = ship("Pelayo")
    assert [str(b) for _, b in select_batteries(pelayo, order(5, 30.0))] == ["fs 5x1"]
    with pytest.raises(IllegalOrderError, match=r"fp 5x1 does not bear .*TGD-FIRE-03"):
        select_batteries(pelayo, order(5, 30.0, arcs=("fp", "fs")))
    with pytest.raises(IllegalOrderError, match=r"battery bears on .*\(TGD-FIRE-03\)"):
        select_batteries(pelayo, order(2, 15.0, bearing=180.0))


def test_TGD_FIRE_02_fire_a_battery_see_the_result_then_pick_the_next_target() -> None:
    """Two actions in one phase at two targets; a battery that fired cannot fire again."""
    pelayo, iowa, oregon = ship("Pelayo"), ship("Iowa"), ship("Oregon")
    events = EventLog()
    dice = FixedDice([1])
    first = fire(
        pelayo, iowa, order(5, 30.0, 0.0, arcs=("fp",)), charts=CHARTS, dice=dice, events=events
    )
    assert (first.target, first.hits) == ("Iowa", 0)
    dice.push(1)
    second = fire(
        pelayo, oregon, order(5, 30.0, 0.0, arcs=("fs",)), charts=CHARTS, dice=dice, events=events
    )
    assert second.target == "Oregon"
    dice.assert_consumed()
    with pytest.raises(IllegalOrderError, match=r"has fired this phase; .*\(TGD-FIRE-01\)"):
        fire(pelayo, oregon, order(5, 30.0, 0.0), charts=CHARTS, dice=dice, events=events)
    pelayo.new_fire_phase()
    assert len(select_batteries(pelayo, order(5, 30.0, 0.0))) == 2


def test_TGD_HIT_06_halted_target_gives_plus_one() -> None:
    """TGD-HIT-06."""
    events = EventLog()
    dice = FixedDice([4])  # 1 gun at range 15: chart 5+, stationary +1 → 4+ hits
    dice.push(4)  # location 4: superstructure
    res = fire(
        ship("Pelayo"),
        ship("Dingyuan"),
        order(2, 15.0, 0.0, 0.0 + 90, target_halted=True),
        charts=CHARTS,
        dice=dice,
        events=events,
    )
    dice.assert_consumed()
    assert res.to_hit.modifiers == (("stationary target", 1),)
    assert res.hits == 1


def test_TGD_HIT_07_AMB_66_the_ship_that_stopped_the_target_fires_on_without_the_bonus() -> None:
    mikasa, iowa, pelayo = ship("Mikasa"), ship("Iowa"), ship("Pelayo")
    pelayo.hull_centre_hits = pelayo.card.hull_centre - 1
    events = EventLog()
    # Mikasa's f+a strength 6 (4 guns) at 15: 5+ japanese +1 → 4+. One hit, location 6, 3 knots.
    dice = FixedDice([4, 1, 1, 1, 6, 3])
    res = fire(mikasa, pelayo, order(6, 15.0), charts=CHARTS, dice=dice, events=events)
    dice.assert_consumed()
    assert res.hits == 1 and pelayo.immobile and pelayo.stopped_by == "Mikasa"
    assert any("TGD-HIT-07" in e.text for e in events.of_kind(EventKind.NOTE))
    # Mikasa fires its secondaries at the stopped Pelayo: still no stationary bonus.
    dice = FixedDice([1] * 7)
    again = fire(
        mikasa, pelayo, order(2, 15.0, 270.0, 90.0), charts=CHARTS, dice=dice, events=events
    )
    assert ("stationary target", 1) not in again.to_hit.modifiers
    # Iowa, a later attacker in the same phase, gets the +1.
    dice = FixedDice([1, 1])
    later = fire(
        iowa,
        pelayo,
        order(6, 15.0, 0.0, 45.0, arcs=("f",)),
        charts=CHARTS,
        dice=dice,
        events=events,
    )
    assert ("stationary target", 1) in later.to_hit.modifiers
    # Next fire phase: Mikasa gets it too.
    pelayo.new_fire_phase()
    mikasa.new_fire_phase()
    dice = FixedDice([1] * 4)
    next_phase = fire(mikasa, pelayo, order(6, 15.0), charts=CHARTS, dice=dice, events=events)
    assert ("stationary target", 1) in next_phase.to_hit.modifiers


def test_rake_modifier_applied_from_the_aspect() -> None:
    dice = FixedDice([1])
    res = fire(
        ship("Pelayo"),
        ship("Retvisan"),
        order(2, 15.0, 0.0, 10.0),
        charts=CHARTS,
        dice=dice,
        events=EventLog(),
    )
    assert res.to_hit.modifiers == (("rake", 1),)


def test_sunk_ships_neither_fire_nor_are_fired_at() -> None:
    pelayo, iowa = ship("Pelayo"), ship("Iowa")
    iowa.sunk = True
    with pytest.raises(IllegalOrderError, match="Iowa has sunk"):
        fire(pelayo, iowa, order(6, 20.0), charts=CHARTS, dice=FixedDice([]), events=EventLog())
    with pytest.raises(IllegalOrderError, match="Iowa: has sunk"):
        fire(iowa, pelayo, order(6, 20.0), charts=CHARTS, dice=FixedDice([]), events=EventLog())
    with pytest.raises(IllegalOrderError, match="itself"):
        fire(pelayo, pelayo, order(6, 20.0), charts=CHARTS, dice=FixedDice([]), events=EventLog())
