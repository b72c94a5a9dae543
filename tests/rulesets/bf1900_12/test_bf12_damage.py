"""The 1D12 Damage Phase: shell hits, flooding, criticals, locations, sinking (BF12-DMG, BF12C)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bf12_helpers import CHARTS, ctx, kinds, mikasa, mikasa_class, shells
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.bf1900.damage.codes import apply_codes
from battleline.rulesets.bf1900.damage.flooding import resolve_flood_hit
from battleline.rulesets.bf1900.damage.locations import flood_compartment, locate_main_hit
from battleline.rulesets.bf1900.damage.step4 import update_listing
from battleline.rulesets.bf1900.gunnery import GunneryEntry, Measurement, shell_sets
from battleline.rulesets.bf1900.hits import Aspect, TorpedoHit
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, GunClass
from battleline.rulesets.bf1900.shipdb import get_ship_class
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog
from battleline.rulesets.bf1900_12.damage import (
    bonus_rolls,
    fire_and_flooding,
    guns_before,
    resolve_hits,
    resolve_shell_set,
    resolve_torpedo_hit,
    run_damage_phase,
    shell_sets_by_size,
    sink_roll,
)
from battleline.rulesets.bf1900_12.edition import beam_sections, load_conversion, penetration_index
from battleline.testing import FixedDice


def _set(target_log: ShipLog, dice_values: list[int], **kw: Any) -> EventLog:
    dice, events = FixedDice(dice_values), EventLog()
    s = shells("Asahi", target_log.name, **kw)
    resolve_shell_set(target_log, [(s, s.rounds)], CHARTS, dice, events)
    dice.assert_consumed()
    return events


# -- Shell Hits (BF12C-SHL, BF12-DMG-04) -------------------------------------------------------


def test_EX_BF12C_03a_rolls_3_and_10_give_exactly_one_fire() -> None:
    """EX-BF12C-03 (a), BF12C-SHL-04: 18-14-10 at medium range (14) against a broadside 12-9
    (12): column "1,2", one d12 per round; {3, 10} → one Fire and nothing else."""
    log = mikasa()
    assert (log.cls.armour_vitals, log.cls.armour_upperworks) == (12, 9)
    events = _set(log, [3, 10], penetration=14)
    assert log.fires == 1
    assert all("column 1,2" in t for t in kinds(events, EventKind.DAMAGE) if "round" in t)


def test_EX_BF12C_03_the_index_18_14_10_and_its_14_come_from_the_data() -> None:
    """EX-BF12C-03, REF-BF12-03: seed 002 — "A 12 inch gun turret with a penetration index of
    18-14-10 fires a medium range broadside shot at a battleship with 12-9 armor. The shell
    penetration will be 14". Mikasa's 12-inch A turret gets the index 18-14-10 from the packaged
    ``data/edition.toml``; a hit zone whose leading edge is in gunnery bracket 2 (medium range)
    hands Step Two penetration 14, which against the 12 of a beam reads column "1,2", where
    {3, 10} is one fire."""
    conv = load_conversion()
    asahi = ShipLog("Asahi", mikasa_class(), "Blue")
    pen_1d6 = get_ship_class("Mikasa").mounting("A").penetration
    assert penetration_index(pen_1d6, conv) == (18, 14, 10)
    assert asahi.cls.mounting("A").penetration == (18, 14, 10, 10)
    entry = GunneryEntry.parse("Asahi: Mikasa @4000 AP A:2")
    medium = Measurement(entry, (0.0, 0.0), 3900.0, 4050.0, 0.0, 2, True, Aspect.PORT)
    (shell_set,) = shell_sets(medium, asahi, EventLog())
    assert shell_set.penetration == 14
    target = mikasa()
    dice, events = FixedDice([3, 10]), EventLog()
    run_damage_phase({"Asahi": asahi, "Mikasa": target}, [shell_set], [], {}, CHARTS, dice, events)
    dice.assert_consumed()
    assert target.fires == 1
    rounds = [t for t in kinds(events, EventKind.DAMAGE) if "round from Asahi" in t]
    assert len(rounds) == 2 and all("penetration 14 vs armour 12" in t for t in rounds)
    assert all("column 1,2" in t for t in rounds)


def test_EX_BF12C_03b_double_twelve_gives_two_floods_and_a_bonus_misc_roll() -> None:
    """EX-BF12C-03 (b), BF12C-SHL-07: {12, 12} → two FL hits (each an Occurrence roll in the
    "100>" column, 60 against 55) plus one bonus Misc Damage roll (a double within 9–12)."""
    log = mikasa()
    # 12, 12: the rounds; 1, 1: each FL's Occurrence roll (no flooding); 1: the Misc roll (SL).
    events = _set(log, [12, 12, 1, 1, 1], penetration=14)
    floods = [e for e in events.of_kind(EventKind.FLOODING) if e.data.get("column")]
    assert [e.data["column"] for e in floods] == ["100>", "100>"]
    assert "1 bonus Misc roll" in " ".join(kinds(events, EventKind.DAMAGE))
    assert log.searchlights.count(Mark.DESTROYED) == 1


def test_AMB_44_no_penetration_dice_earn_no_bonus() -> None:
    """AMB-44, BF12C-SHL-03: a double on the No Penetration portion earns nothing; penetration
    5 against 12 is at or below half the armour (left column, face 12 = P)."""
    log = mikasa()
    _set(log, [12, 12], penetration=5)
    assert log.propulsion.damaged == 2


def test_EX_BF12C_01_sets_by_ship_and_shell_size() -> None:
    """EX-BF12C-01, BF12C-SHL-06: 4 main rounds (A and Z) and 14 secondary rounds from one ship
    are exactly two sets, of 4 and 14 dice."""
    sets = [
        shells("Asahi", "Mikasa", mounting="A", rounds=2),
        shells("Asahi", "Mikasa", mounting="Z", rounds=2),
        shells("Asahi", "Mikasa", mounting="sec", rounds=14, calibre_cm=15.2, shell_size=24),
    ]
    groups = shell_sets_by_size(sets)
    assert [sum(s.rounds for s in g) for g in groups] == [4, 14]
    log, dice = mikasa(), FixedDice([1] * 4 + [1] * 14)
    resolve_hits({"Mikasa": log}, sets, [], {}, CHARTS, dice, EventLog())
    dice.assert_consumed()
    purposes = Counter(r.purpose for r in dice.history)
    assert sorted(purposes.values()) == [4, 14]


def test_EX_BF12C_02_bonus_roll_counting() -> None:
    """EX-BF12C-02, BF12C-SHL-07: a pair 9–12 → 1 Misc roll, triples → 2; below 9 nothing."""
    assert bonus_rolls([9, 9]) == 1
    assert bonus_rolls([11, 11, 11]) == 2
    assert bonus_rolls([9, 9, 12, 12, 3]) == 2
    assert bonus_rolls([8, 8, 8]) == 0
    assert bonus_rolls([9, 10, 11, 12]) == 0


@given(st.lists(st.integers(1, 12), max_size=30))
def test_bonus_rolls_property(faces: list[int]) -> None:
    """BF12C-SHL-07 (AMB-44): each further matching die 9–12 adds one roll, per value."""
    expected = sum(max(0, faces.count(v) - 1) for v in (9, 10, 11, 12))
    assert bonus_rolls(faces) == expected
    assert bonus_rolls(faces) <= max(0, len(faces) - 1)


def test_BF12_DMG_05_hits_from_guns_lost_in_step_one_are_removed() -> None:
    """BF12-DMG-05, DIFF-12: a firer's turret lost in Step One scores nothing; its rounds are
    removed before any die is rolled."""
    firer, target = mikasa("Asahi"), mikasa()
    logs = {"Asahi": firer, "Mikasa": target}
    before = guns_before(logs)
    firer.positions["A"].destroyed = True  # lost in Step One
    dice, events = FixedDice([]), EventLog()
    resolve_hits(logs, [shells("Asahi", "Mikasa", rounds=2)], [], before, CHARTS, dice, events)
    dice.assert_consumed()
    assert "BF12-DMG-05" in " ".join(kinds(events, EventKind.NOTE))
    # a battery that lost 7 of 14 guns keeps half its rounds
    logs2 = {"Asahi": mikasa("Asahi"), "Mikasa": mikasa()}
    before2 = guns_before(logs2)
    for i in range(7):
        logs2["Asahi"].batteries["sec"][i] = Mark.DESTROYED
    sec = shells("Asahi", "Mikasa", mounting="sec", rounds=14, calibre_cm=15.2, shell_size=24)
    dice2 = FixedDice([1] * 7)
    resolve_hits(logs2, [sec], [], before2, CHARTS, dice2, EventLog())
    dice2.assert_consumed()  # 7 of the 14 rounds rolled


def test_BF12_DMG_05_a_gun_lost_in_step_two_still_lands_its_rounds() -> None:
    """BF12-DMG-05, BF12-DMG-04: seed 001 — "All shell hits are considered to occur
    simultaneously. Hits scored by weapons which were then lost during the Fire & Flooding Step
    are removed". Only Step One removes rounds: Asahi's hit knocks out Mikasa's A turret in Step
    Two, and A's two rounds at Asahi still land (cruiser-duel-1d12 seed 4 removed them)."""
    asahi, mikasa_log = mikasa("Asahi"), mikasa()
    logs = {"Asahi": asahi, "Mikasa": mikasa_log}
    sets = [
        shells("Asahi", "Mikasa", rounds=1),  # 14 against 12: column "1,2"
        shells("Mikasa", "Asahi", rounds=2),
    ]
    # Asahi's round: 8 → M, location 1 → A, Main/TT critical 1 → nothing. Mikasa's A: 1, 2.
    dice, events = FixedDice([8, 1, 1, 1, 2]), EventLog()
    run_damage_phase(logs, sets, [], {}, CHARTS, dice, events)
    dice.assert_consumed()
    assert mikasa_log.positions["A"].slashes == 1
    assert mikasa_log.guns_in_action("A") == 0
    assert not [t for t in kinds(events, EventKind.NOTE) if "BF12-DMG-05" in t]
    rolled = [e for e in events.events if e.kind is EventKind.DAMAGE and "from Mikasa" in e.text]
    assert [e.data["roll"] for e in rolled] == [1, 2]


# -- Flooding (BF12C-FLOOD, BF12-FLD-01, BF12-DMG-06) --------------------------------------------


def test_EX_BF12C_04_size_60_against_55_moderate_then_px() -> None:
    """EX-BF12C-04, BF12C-FLOOD-02: "100>" column; Occurrence 8 → Moderate in a compartment
    chosen at random on the embattled side (d12 in thirds: 5 → port amidships); Effects 9 on the
    Moderate line → PX."""
    log, dice = mikasa(), FixedDice([8, 5, 9])
    level = resolve_flood_hit(log, ctx(dice, weapon_size=60), apply=apply_codes)
    dice.assert_consumed()
    assert level is FloodLevel.MODERATE
    assert log.compartments[Compartment.PORT].level is FloodLevel.MODERATE
    assert log.propulsion.destroyed == 1
    assert [r.sides for r in dice.history] == [12, 12, 12]


def test_EX_DRV_06_quarter_size_cutoff_rolls_nothing() -> None:
    """EX-DRV-06, BF12C-FLOOD-03: a size-13 shell cannot flood a size-55 ship; no die."""
    log, dice = mikasa(), FixedDice([])
    assert resolve_flood_hit(log, ctx(dice, weapon_size=13), apply=apply_codes) is FloodLevel.NONE
    dice.assert_consumed()


def test_EX_BF12_04_flooding_location_d12_in_thirds() -> None:
    """EX-BF12-04, BF12-FLD-01: port side → forward (1–4), port amidships (5–8), aft (9–12);
    from ahead → forward, port, starboard amidships; an explosion → any of the four."""

    def where(aspect: Aspect | None, face: int) -> Compartment:
        dice = FixedDice([face])
        out = flood_compartment(dice, aspect, "Mikasa", die=12)
        dice.assert_consumed()
        return out

    F, P, S, A = Compartment.FORWARD, Compartment.PORT, Compartment.STARBOARD, Compartment.AFT
    assert [where(Aspect.PORT, f) for f in (1, 4, 5, 8, 9, 12)] == [F, F, P, P, A, A]
    assert [where(Aspect.AHEAD, f) for f in (4, 5, 12)] == [F, P, S]
    assert [where(None, f) for f in (1, 4, 7, 12)] == [F, P, S, A]


def test_BF12_DMG_06_torpedo_occurrence_then_effects() -> None:
    """BF12-DMG-06: a torpedo (size 8 on the 1D6 scale → 96) against size 55 is one roll in the
    "150>" column, then the Effects line of the level."""
    log = mikasa()
    hit = TorpedoHit("Asahi", "Mikasa", "beam", 96, False, Aspect.STARBOARD)
    dice, events = FixedDice([8, 5, 1]), EventLog()  # heavy, starboard amidships, no effect
    resolve_torpedo_hit(log, hit, CHARTS, dice, events)
    dice.assert_consumed()
    assert log.compartments[Compartment.STARBOARD].level is FloodLevel.HEAVY
    assert [e.data["column"] for e in events.of_kind(EventKind.FLOODING) if "column" in e.data] == [
        "150>"
    ]


# -- Main and secondary locations (BF12-MAIN, BF12-SEC) --------------------------------------------


def test_EX_BF12_02_main_hit_location_1_to_6_forward_7_to_12_aft() -> None:
    """EX-BF12-02, BF12-MAIN-01: two turrets, d12: 1–6 A, 7–12 Z."""
    log = mikasa()
    for face, key in ((1, "A"), (6, "A"), (7, "Z"), (12, "Z")):
        dice = FixedDice([face])
        mount = locate_main_hit(log, dice, Aspect.PORT, die=12)
        assert mount is not None and mount.key == key


def test_BF12_MAIN_03_04_destroyed_turret_still_hit_and_checked() -> None:
    """BF12-MAIN-03, BF12-MAIN-04, BF12-LOC-01: a destroyed turret can be hit again (a wasted shot)
    and still needs the Main/TT critical roll; a flooded magazine skips it (BF12-CMDA-02)."""
    log = mikasa()
    log.positions["A"].destroyed = True
    dice, events = FixedDice([2, 1]), EventLog()  # location A, critical roll 1 (nothing)
    apply_codes(log, ["M"], ctx(dice, events))
    dice.assert_consumed()
    assert "already destroyed" in " ".join(kinds(events, EventKind.DAMAGE))
    assert events.of_kind(EventKind.CRITICAL)
    log.positions["Z"].magazine_flooded = True
    dice = FixedDice([9])  # location Z only
    apply_codes(log, ["M"], ctx(dice))
    dice.assert_consumed()


def test_BF12C_CRIT_05_main_12_goes_to_the_explosion_line() -> None:
    """BF12C-CRIT-05, BF12C-CRIT-06, BF12C-CRIT-02 (domino line): Main/TT 12 → Explosion; face 1 →
    F."""
    log, dice, events = mikasa(), FixedDice([1, 12, 1]), EventLog()
    apply_codes(log, ["M"], ctx(dice, events))
    dice.assert_consumed()
    assert log.fires == 1 and events.of_kind(EventKind.EXPLOSION)


def test_EX_BF12C_06_explosion_three_fires_and_a_200_roll() -> None:
    """EX-BF12C-06: "3F, 200FL" → three fires and one Occurrence roll in the "200" column."""
    log, dice, events = mikasa(), FixedDice([9, 1]), EventLog()
    apply_codes(log, ["EX"], ctx(dice, events))
    dice.assert_consumed()
    assert log.fires == 3
    assert [e.data["column"] for e in events.of_kind(EventKind.FLOODING)] == ["200>"]


def test_EX_BF12_03_one_S_hit_takes_a_secondary_and_a_boat_gun_from_the_embattled_side() -> None:
    """EX-BF12-03, BF12-SEC-01, BF12-SEC-03, BF12-SEC-04: one S → one position of each secondary-or-
    smaller type (secondary, tertiary, boat); pattern 1 rolls the section (d12 in thirds: 5 → mid),
    pattern 0 rolls nothing; all on the port (embattled) side: odd-numbered boxes."""
    log, dice = mikasa(), FixedDice([5])
    apply_codes(log, ["S"], ctx(dice, aspect=Aspect.PORT))
    dice.assert_consumed()
    damaged = {
        key: [i for i, m in enumerate(marks) if m is Mark.DAMAGED]
        for key, marks in log.batteries.items()
    }
    assert damaged == {"sec": [10], "ter": [18], "boat": [6]}
    assert all(i % 2 == 0 for v in damaged.values() for i in v)  # box 1, 3, … = port


def test_BF12_SEC_02_far_side_only_when_the_embattled_side_has_none() -> None:
    """BF12-SEC-02: with every port secondary out, an Sx from port takes a starboard one."""
    log = mikasa()
    marks = log.batteries["sec"]
    for i in range(0, 14, 2):
        marks[i] = Mark.DESTROYED
    dice = FixedDice([1])  # section fore on the starboard side
    apply_codes(log, ["Sx"], ctx(dice, aspect=Aspect.PORT))
    dice.assert_consumed()
    assert marks[1] is Mark.DESTROYED


def test_mikasa_pattern_1_sections_are_1_5_1() -> None:
    """BF12-SEC-03 (rules-context): Mikasa's beam-pattern-1 secondaries read "1, 5, 1" a side."""
    parts = beam_sections(mikasa_class().mounting("sec"))
    assert [len(parts[f"port {s}"]) for s in ("fore", "mid", "aft")] == [1, 5, 1]
    assert mikasa_class().mounting("sec").gun_class is GunClass.SECONDARY


def test_EX_BF12_01_and_BF12_PROP_destroyed_box_bumps_damaged_marks() -> None:
    """EX-BF12-01, BF12-PROP-01, BF12-PROP-02, BF12-PROP-03, BF12-PROP-04: 2 destroyed + 4
    damaged, a destroyed-box result → 3 destroyed, 3 damaged, 1 propulsion access in the
    margin; boxes go from the top down, one mark each."""
    log = mikasa()
    log.propulsion.destroyed, log.propulsion.damaged = 2, 4
    apply_codes(log, ["Px"], ctx(FixedDice([])))
    p = log.propulsion
    assert (p.destroyed, p.damaged, p.margin) == (3, 3, 1)
    assert p.available == 0.0
    assert p.repair() == "margin"  # BF12-PROP-04: access first


# -- Step One (BF12-DMG-03) ----------------------------------------------------------------------


def test_BF12_DMG_03_fire_and_flooding_lines_and_EX_BF12C_05() -> None:
    """BF12-DMG-03, BF12C-CRIT-03, BF12C-CRIT-04, EX-BF12C-05: one roll per fire (10 → Misc, here
    SL) and per heavy or severe compartment (11 → 150FL: an Occurrence roll in "150>")."""
    log = mikasa()
    log.fires_external = 1
    log.compartments[Compartment.FORWARD].level = FloodLevel.HEAVY
    log.compartments[Compartment.AFT].level = FloodLevel.MODERATE  # never rolls
    dice, events = FixedDice([10, 1, 11, 1]), EventLog()
    fire_and_flooding(log, CHARTS, dice, events)
    dice.assert_consumed()
    assert log.searchlights.count(Mark.DESTROYED) == 1
    assert [e.data["column"] for e in events.of_kind(EventKind.FLOODING)] == ["150>"]


def test_BF12C_CRIT_01_cyclic_fire_keeps_rolling_each_turn() -> None:
    """BF12C-CRIT-01: fire is cyclic — it rolls again every Step One while it burns."""
    log = mikasa()
    log.fires_external = 2
    for _ in range(2):
        dice = FixedDice([1, 1])
        fire_and_flooding(log, CHARTS, dice, EventLog())
        dice.assert_consumed()
    assert log.fires == 2


# -- Step Four (BF12-DMG-07, BF12-SINK, BF12-UNV) --------------------------------------------------


def test_EX_DRV_04_and_BF12_SINK_01_03_sink_roll() -> None:
    """EX-DRV-04, BF12-SINK-01, BF12-SINK-03, BF12C-SINKC-01: 4 points → no roll; 5 (Moderate 2 +
    Heavy 3) → a d12 in row 5 (12 sinks), then one more d12 is the turns left."""
    log = mikasa()
    log.compartments[Compartment.FORWARD].level = FloodLevel.HEAVY
    log.compartments[Compartment.AFT].level = FloodLevel.LIGHT
    dice = FixedDice([])
    assert not sink_roll(log, CHARTS, dice, EventLog())
    log.compartments[Compartment.AFT].level = FloodLevel.MODERATE
    assert log.flooding_points == 5
    dice = FixedDice([12, 7])
    assert sink_roll(log, CHARTS, dice, EventLog())
    dice.assert_consumed()
    assert log.sinking is not None and log.sinking.turns_left == 7


def test_BF12_REP_05_sink_modifier_moves_the_roll_in_her_favour() -> None:
    """BF12-SINK-01 (modified roll), BF12-REP-05, AMB-51: 12 − 1 = 11 misses row 5 (12)."""
    log = mikasa()
    log.compartments[Compartment.FORWARD].level = FloodLevel.HEAVY
    log.compartments[Compartment.AFT].level = FloodLevel.MODERATE
    log.sink_roll_bonus = 1
    dice = FixedDice([12])
    assert not sink_roll(log, CHARTS, dice, EventLog())
    dice.assert_consumed()
    assert log.sink_roll_bonus == 0


def test_BF12_SINK_02_04_a_sinking_ship_stops_and_smokes() -> None:
    """BF12-SINK-02, BF12-SINK-04: once sinking every weapon ceases fire, no more damage is tracked
    and no damage control is done; a burning ship makes smoke."""
    log = mikasa()
    log.fires_external = 1
    log.compartments[Compartment.FORWARD].level = FloodLevel.SEVERE
    log.compartments[Compartment.AFT].level = FloodLevel.LIGHT
    events = EventLog()
    assert sink_roll(log, CHARTS, FixedDice([12, 3]), events)
    assert log.sinking is not None and log.sinking.guns_abandoned
    assert events.of_kind(EventKind.SINKING)[0].data["smoke"] is True
    dice = FixedDice([])
    _set(log, [], rounds=2)  # no damage tracked: no die is rolled for the rounds
    fire_and_flooding(log, CHARTS, dice, EventLog())  # no Step One rolls either
    dice.assert_consumed()


def test_BF12_UNV_01_and_BF12C_UNV_uneven_flooding_comes_and_goes() -> None:
    """BF12-UNV-01, BF12C-UNV-01, BF12C-UNV-02, AMB-53: a side-to-side difference lists the ship
    with damage hits that no repair removes; evening the flooding removes them. Fore/aft hurts
    less."""
    log = mikasa()
    log.compartments[Compartment.PORT].level = FloodLevel.HEAVY
    update_listing(log, CHARTS, EventLog())
    side = log.uneven["side"]
    assert side.speed_boxes + side.tr_hits > 0
    fore = CHARTS.uneven_flooding("fore_aft", 3)
    assert (fore.speed_boxes + fore.tr_hits) < (side.speed_boxes + side.tr_hits)
    log.compartments[Compartment.STARBOARD].level = FloodLevel.HEAVY
    update_listing(log, CHARTS, EventLog())
    assert log.uneven == {}


def test_BF12_DMG_02_07_the_whole_phase_in_order() -> None:
    """BF12-DMG-02, BF12-DMG-07, BF12-DMG-01: Steps One to Four run in order; flooding points per
    compartment are 1, 2, 3, 4 (Light … Severe) and the ship log records the damage."""
    log = mikasa()
    log.compartments[Compartment.FORWARD].level = FloodLevel.SEVERE  # 4 points
    log.compartments[Compartment.AFT].level = FloodLevel.LIGHT  # 1 point
    # Step One: Sev FL rolls 1 (nothing). Step Four: 5 points, sink roll 1 (afloat).
    dice, events = FixedDice([1, 1]), EventLog()
    run_damage_phase({"Mikasa": log}, [], [], {}, CHARTS, dice, events)
    dice.assert_consumed()
    steps = [e.data["step"] for e in events.of_kind(EventKind.PHASE)]
    assert steps == [1, 2, 3, 4]
    assert log.flooding_points == 5 and log.sinking is None
