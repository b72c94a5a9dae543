"""Damage locations (BF6-LOC-01, BF6-FLD-01/02, BF6-MAIN-01/02, BF6-SEC-02, AMB-21/30/34/35)."""

from __future__ import annotations

import pytest

from battleline.engine.events import EventLog
from battleline.rulesets.bf1900.damage.locations import (
    choose,
    flood_compartment,
    gun_targets,
    locate_main_hit,
    position_compartment,
    raise_flooding,
)
from battleline.rulesets.bf1900.hits import Aspect
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, GunClass
from battleline.rulesets.bf1900.shiplog import Mark
from battleline.testing import FixedDice
from conftest import cruiser, lozenge, majestic, make_log

F, P, S, A = Compartment.FORWARD, Compartment.PORT, Compartment.STARBOARD, Compartment.AFT


@pytest.mark.parametrize(
    ("aspect", "expected"),
    [
        (Aspect.PORT, [F, F, P, P, A, A]),  # EX-BF6-15 (a)
        (Aspect.STARBOARD, [F, F, S, S, A, A]),
        (Aspect.AHEAD, [F, F, P, P, S, S]),  # EX-BF6-15 (b)
        (Aspect.ASTERN, [A, A, P, P, S, S]),  # AMB-21, by mirroring
    ],
)
def test_EX_BF6_15_flooding_lands_on_the_embattled_side(
    aspect: Aspect, expected: list[Compartment]
) -> None:
    """BF6-FLD-01: 1D6 in thirds over the three zones of the embattled side (AMB-21)."""
    dice = FixedDice([1, 2, 3, 4, 5, 6])
    assert [flood_compartment(dice, aspect, "X") for _ in range(6)] == expected
    dice.assert_consumed()


def test_EX_BF6_15c_explosion_flooding_any_of_four_rerolls_5_6() -> None:
    """BF6-FLD-01 (c): explosion flooding lands in any of the 4 zones (AMB-21: re-roll 5–6)."""
    dice = FixedDice([1, 2, 3, 4, 5, 6, 4])
    assert [flood_compartment(dice, None, "X") for _ in range(5)] == [F, P, S, A, A]
    dice.assert_consumed()


def test_BF6_FLD_02_four_compartments() -> None:
    """BF6-FLD-02."""
    assert [c.value for c in Compartment] == [
        "forward",
        "port amidships",
        "starboard amidships",
        "aft",
    ]


def test_BF6_DMG_12_raise_flooding_keeps_most_severe() -> None:
    log, ev = make_log(majestic()), EventLog()
    assert raise_flooding(log, P, FloodLevel.MODERATE, ev)
    assert not raise_flooding(log, P, FloodLevel.LIGHT, ev)
    assert log.compartments[P].level is FloodLevel.MODERATE
    assert raise_flooding(log, P, FloodLevel.SEVERE, ev)
    assert log.flooding_points == 4


def test_AMB_33_new_heavy_hit_breaks_containment() -> None:
    """BF6-REP-08: a new Heavy-or-worse result in a contained zone cancels the containment."""
    log, ev = make_log(majestic()), EventLog()
    raise_flooding(log, F, FloodLevel.HEAVY, ev)
    log.compartments[F].contained = True
    raise_flooding(log, F, FloodLevel.MODERATE, ev)  # lighter: containment stands
    assert log.compartments[F].contained
    assert not raise_flooding(log, F, FloodLevel.HEAVY, ev)  # same level, still a new Hvy hit
    assert not log.compartments[F].contained
    assert any("breaks the containment" in e.text for e in ev)


def test_damage_flooding_above_counterflood_clears_the_counterflood_mark() -> None:
    log, ev = make_log(majestic()), EventLog()
    state = log.compartments[S]
    state.level, state.counterflooded = FloodLevel.LIGHT, True
    raise_flooding(log, S, FloodLevel.LIGHT, ev)
    assert state.counterflooded
    raise_flooding(log, S, FloodLevel.HEAVY, ev)
    assert not state.counterflooded


def test_EX_BF6_14_two_turrets_1_to_3_forward_4_to_6_aft() -> None:
    """EX-BF6-14: BF6-MAIN-01 (AMB-35 default): two main positions split 1–3 / 4–6."""
    log = make_log(majestic())
    dice = FixedDice([1, 2, 3, 4, 5, 6])
    hits = [locate_main_hit(log, dice, Aspect.PORT) for _ in range(6)]
    assert [m.key for m in hits if m] == ["A", "A", "A", "Z", "Z", "Z"]
    dice.assert_consumed()


def test_BF6_LET_01_destroyed_position_still_located() -> None:
    log = make_log(majestic())
    log.positions["A"].destroyed = True
    hit = locate_main_hit(log, FixedDice([2]), Aspect.AHEAD)
    assert hit is not None and hit.key == "A"


def test_AMB_34_lozenge_thirds_with_embattled_wing() -> None:
    """BF6-MAIN-02: lozenge ships split 1D6 into thirds; 3–4 is the embattled wing turret."""
    log = make_log(lozenge())
    for face, aspect, key in [
        (1, Aspect.PORT, "A"),
        (2, Aspect.STARBOARD, "A"),
        (3, Aspect.PORT, "P"),
        (4, Aspect.PORT, "P"),
        (3, Aspect.STARBOARD, "R"),
        (4, Aspect.STARBOARD, "R"),
        (5, Aspect.PORT, "Z"),
        (6, Aspect.STARBOARD, "Z"),
    ]:
        hit = locate_main_hit(log, FixedDice([face]), aspect)
        assert hit is not None and hit.key == key, (face, aspect)


def test_AMB_34_lozenge_from_ahead_second_die_picks_the_wing() -> None:
    log = make_log(lozenge())
    dice = FixedDice([3, 2, 4, 5])
    first = locate_main_hit(log, dice, Aspect.AHEAD)
    second = locate_main_hit(log, dice, None)
    assert first is not None and first.key == "P"
    assert second is not None and second.key == "R"
    dice.assert_consumed()


def test_no_main_positions_gives_none() -> None:
    from dataclasses import replace

    cls = majestic()
    cls = replace(cls, mountings=tuple(m for m in cls.mountings if m.gun_class != GunClass.MAIN))
    assert locate_main_hit(make_log(cls), FixedDice([]), Aspect.PORT) is None


def test_choose_bands_rerolls_and_big_dice() -> None:
    """The Randomizer stand-in (REF-BF6-11): halves, thirds, re-rolls for 4–5, dN beyond 6."""
    assert choose(FixedDice([]), ["x"], "p", "s") == "x"
    assert choose(FixedDice([4]), ["a", "b"], "p", "s") == "b"
    assert choose(FixedDice([4]), ["a", "b", "c"], "p", "s") == "b"
    d = FixedDice([6, 5, 4])
    assert choose(d, ["a", "b", "c", "d"], "p", "s") == "d"
    d.assert_consumed()
    assert choose(FixedDice([6, 5]), list("abcde"), "p", "s") == "e"
    assert choose(FixedDice([6]), list("abcdef"), "p", "s") == "f"
    assert choose(FixedDice([7]), list("abcdefgh"), "p", "s") == "g"
    with pytest.raises(ValueError):
        choose(FixedDice([]), [], "p", "s")


def test_AMB_30_position_compartments() -> None:
    loz, maj, cru = lozenge(), majestic(), cruiser()
    assert position_compartment(maj.mounting("A")) is F
    assert position_compartment(maj.mounting("Z")) is A
    assert position_compartment(loz.mounting("P")) is P  # from the ship data
    assert position_compartment(loz.mounting("R")) is S
    assert position_compartment(cru.mounting("D")) is F
    assert position_compartment(cru.mounting("W")) is A


def test_BF6_SEC_02_gun_targets_whole_ship_and_BF6_PAT_01_exhausted_battery() -> None:
    """S/T targets come from the whole ship; a beam pattern with no undamaged gun drops out."""
    log = make_log(cruiser())
    assert [m.key for m in gun_targets(log, GunClass.SECONDARY)] == ["D", "E", "V", "W"]
    log.positions["D"].destroyed = True  # lettered positions stay targets (BF6-LET-01)
    assert len(gun_targets(log, GunClass.SECONDARY)) == 4
    log.batteries["tert"] = [Mark.DAMAGED] * 8
    assert gun_targets(log, GunClass.TERTIARY) == []
