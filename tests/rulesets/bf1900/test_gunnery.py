"""The Gunnery Phase: gunnery log, validation, measuring, hit and danger zones, hand-off.

Rules: BF6-GUN-01..05, BF6-TGT-01/02, BF6-LOS-01/02, BF6-ROF-01..07, BF6-MEAS-01..04,
BF6-DZ-01..03, BF6-HIT-01, BF6-SINK-04; worked examples EX-BF6-05 and EX-DRV-05.

The table (metres; bases 500 × 200 m, forward funnel 50 m ahead of the centre): Fuji sits at
the origin heading north, its funnel at (0, 50). Targets:

* T1 (0, 3000) heading north, dead ahead: its base spans y ∈ [2750, 3250], so along the line of
  fire the leading edge is at 2700 m (bracket 2) and the far edge at 3200 m.
* T2 (3000, 0) heading north, on the starboard beam: funnel (3000, 50), line y = 50, leading edge
  2900 m, far edge 3100 m; Fuji is on its port side.
* T3 (-3000, 0) port beam; T4 (-2000, 2000) at 315°; T5 (4243, 4243) at 45°, 6000 m (bracket 3);
  T6 (0, -3000) dead astern.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from battleline.engine.events import Event, EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900.gunnery import (
    GunneryEntry,
    measure,
    parse_log,
    resolve_gunnery,
    validate_entries,
)
from battleline.rulesets.bf1900.hits import Ammo, Aspect, ShellSet
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.ship import GunClass, Mounting, Rating, ShipClass, ShipType
from battleline.rulesets.bf1900.shiplog import ShipLog, SinkingState
from battleline.testing import FixedDice

# -- fixtures ------------------------------------------------------------------------------

SCALE = Scale(
    name="test",
    label="test",
    model_scale="1/2400",
    table_unit="mm",
    units_per_km=100.0,
    bracket_m=2500.0,
    max_range_m=10000.0,
    turn_minutes=3.0,
    bases=tuple((t.value, 50.0, 20.0) for t in ShipType),
)


def mount(
    key: str,
    rof: float,
    guns: int,
    pen: tuple[int | None, int | None, int | None, int | None],
    *,
    position: str | None = None,
    pattern: int | None = None,
    gun_class: GunClass = GunClass.SECONDARY,
    calibre: float = 15.2,
    shell: int = 3,
) -> Mounting:
    return Mounting(
        key=key,
        gun_class=gun_class,
        calibre_cm=calibre,
        rof=rof,
        penetration=pen,
        guns=guns,
        shell_size=shell,
        position=position,
        beam_pattern=pattern,
    )


MOUNTINGS = (
    mount("A", 0.5, 2, (12, 9, 6, 4), position="A", gun_class=GunClass.MAIN, calibre=30.5, shell=6),
    mount("Z", 0.5, 2, (12, 9, 6, 4), position="Z", gun_class=GunClass.MAIN, calibre=30.5, shell=6),
    mount("C", 2, 2, (5, 4, 2, None), position="C"),  # the two-gun 15 cm ROF-2 turret
    mount("E", 1, 2, (5, 4, 2, None), position="E"),
    mount("sec", 2, 10, (5, 4, 2, None), pattern=2),
    mount("tert", 1, 8, (1, None, None, None), pattern=0, gun_class=GunClass.TERTIARY, shell=1),
    mount("cl", 1, 1, (5, 4, 2, None), position="centreline"),
)

CLASS = ShipClass(
    name="Fuji",
    navy="test",
    type=ShipType.BATTLESHIP,
    year=1897,
    size=8,
    armour_vitals=9,
    armour_upperworks=4,
    upperworks_protection=Rating.GOOD,
    flood_protection=Rating.GOOD,
    stability="good",
    seaway="normal",
    armoured_deck=True,
    propulsion_knots=(18, 15, 12, 9, 6, 3),
    mountings=MOUNTINGS,
)

TARGETS = {
    "T1": Pose(0.0, 3000.0, 0.0),
    "T2": Pose(3000.0, 0.0, 0.0),
    "T3": Pose(-3000.0, 0.0, 0.0),
    "T4": Pose(-2000.0, 2000.0, 315.0),
    "T5": Pose(6000 * math.sin(math.radians(45)), 6000 * math.cos(math.radians(45)), 45.0),
    "T6": Pose(0.0, -3000.0, 180.0),
}


def table(
    targets: dict[str, Pose] | None = None,
) -> tuple[dict[str, Pose], dict[str, ShipLog]]:
    poses = {"Fuji": Pose(0.0, 0.0, 0.0), **(TARGETS if targets is None else targets)}
    logs = {n: ShipLog(n, CLASS, side="Japan" if n == "Fuji" else "Russia") for n in poses}
    return poses, logs


def check(
    *texts: str, poses: dict[str, Pose] | None = None, logs: dict[str, ShipLog] | None = None
) -> None:
    p, lg = table()
    validate_entries([GunneryEntry.parse(t) for t in texts], poses or p, logs or lg, SCALE, turn=3)


def refused(*texts: str, rule: str, logs: dict[str, ShipLog] | None = None) -> str:
    with pytest.raises(IllegalOrderError) as info:
        check(*texts, logs=logs)
    msg = str(info.value)
    assert rule in msg, msg
    assert "Fuji" in msg and "turn 3" in msg
    return msg


# -- the gunnery log notation --------------------------------------------------------------


def test_gunnery_log_notation_round_trip() -> None:
    """Entries parse and print the same text (docs/gunnery-log.md)."""
    text = "Fuji: Mikasa @5200 AP A:2 Z:2 sec:4"
    entry = GunneryEntry.parse(text)
    assert entry == GunneryEntry(
        "Fuji", "Mikasa", 5200.0, Ammo.AP, (("A", 2), ("Z", 2), ("sec", 4))
    )
    assert str(entry) == text
    assert GunneryEntry.parse(str(entry)) == entry
    spaced = GunneryEntry.parse("Kaiser Friedrich III : Knyaz Suvorov @ 4750.5m HE tert:3")
    assert (spaced.firer, spaced.target, spaced.estimate_m) == (
        "Kaiser Friedrich III",
        "Knyaz Suvorov",
        4750.5,
    )
    assert str(spaced) == "Kaiser Friedrich III: Knyaz Suvorov @4750.5 tert:3"


def test_parse_log_skips_blanks_and_comments() -> None:
    log = parse_log("# turn 3\nFuji: T1 @3000 A:2\n\nFuji: T2 @2900 sec:2  # beam\n", side="Japan")
    assert [(e.target, e.side) for e in log] == [("T1", "Japan"), ("T2", "Japan")]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Fuji Mikasa @5200 A:2", "expected"),
        ("Fuji: Mikasa 5200 A:2", "expected"),
        ("Fuji: Mikasa @5200 AP", "assigns no guns"),
        ("Fuji: Mikasa @5200 A2", "'A2'"),
        ("Fuji: Mikasa @5200 A:2 A:2", "listed twice"),
        ("Fuji: Mikasa @5200 A:0", "at least 1"),
        ("Fuji: Mikasa @-5 A:2", "expected"),
    ],
)
def test_bad_notation_is_a_syntax_error(text: str, why: str) -> None:
    with pytest.raises(OrderSyntaxError, match=why):
        GunneryEntry.parse(text)


def test_BF6_GUN_02_ammunition_is_HE_unless_AP_written() -> None:
    """BF6-GUN-02: target, estimate and AP recorded; the default ammunition is HE."""
    assert GunneryEntry.parse("Fuji: T1 @3000 A:2").ammo is Ammo.HE
    assert GunneryEntry.parse("Fuji: T1 @3000 ap A:2").ammo is Ammo.AP


# -- validation ----------------------------------------------------------------------------


def test_BF6_TGT_01_several_targets_in_one_turn() -> None:
    """BF6-TGT-01: a ship may fire at several targets in one turn."""
    check("Fuji: T1 @3000 A:2", "Fuji: T2 @3000 E:2", "Fuji: T6 @3000 Z:2")


def test_BF6_TGT_02_two_estimates_for_one_target_refused() -> None:
    """BF6-TGT-02: one range estimate per target per turn."""
    msg = refused("Fuji: T1 @3000 A:2", "Fuji: T1 @3200 E:2", rule="BF6-TGT-02")
    assert "T1" in msg and "second range estimate" in msg


def test_BF6_TGT_02_unknown_mounting_and_unknown_target_refused() -> None:
    """BF6-TGT-02: the gun types assigned must be the ship's; the target must be on the table."""
    assert "no mounting 'Q'" in refused("Fuji: T1 @3000 Q:2", rule="BF6-TGT-02")
    assert "no ship 'Mikasa'" in refused("Fuji: Mikasa @3000 A:2", rule="BF6-TGT-02")


def test_BF6_GUN_04_estimate_beyond_maximum_range_refused() -> None:
    """BF6-GUN-04: the estimate may not exceed the scale's maximum gun range (10,000 m here)."""
    check("Fuji: T1 @10000 A:2")
    msg = refused("Fuji: T1 @10001 A:2", rule="BF6-GUN-04")
    assert "10000 m" in msg and "T1" in msg


def test_BF6_GUN_04_gun_without_penetration_at_the_bracket_refused() -> None:
    """A '-' penetration means the gun cannot fire at that bracket (by the estimate)."""
    check("Fuji: T2 @2400 tert:4")
    refused("Fuji: T2 @3000 tert:4", rule="BF6-GUN-04")


def test_BF6_LOS_01_02_no_fire_without_line_of_sight() -> None:
    """BF6-LOS-01, BF6-LOS-02: a ship between firer and target blocks fire; the error names it."""
    poses, logs = table()
    poses["T7"] = Pose(0.0, 6000.0, 90.0)  # behind T1
    logs["T7"] = ShipLog("T7", CLASS, side="Russia")
    with pytest.raises(
        IllegalOrderError, match=r"Fuji firing at T7: no line of sight: blocked by T1 \(BF6-LOS"
    ):
        validate_entries([GunneryEntry.parse("Fuji: T7 @6000 A:2")], poses, logs, SCALE)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Fuji: T1 @3000 Z:2", "BF6-POS-09"),  # Z is blind on the bow
        ("Fuji: T6 @3000 A:2", "BF6-POS-01"),  # A is blind on the stern
        ("Fuji: T3 @3000 C:2", "BF6-POS-02"),  # C is the starboard gun of B/C
        ("Fuji: T6 @3000 E:2", "BF6-POS-03"),
        ("Fuji: T1 @3000 tert:2", "BF6-BEAM-04"),  # pattern 0: beam-centred only
    ],
)
def test_target_out_of_arc_refused(text: str, rule: str) -> None:
    """Every assigned mounting must bear on the target (BF6-POS-01, BF6-POS-02, BF6-POS-03,
    BF6-POS-09, BF6-BEAM-04)."""
    msg = refused(text, rule=rule)
    assert "cannot bear" in msg


def test_BF6_POS_11_AMB_16_centre_line_gun_fires_to_either_beam_as_ROF_allows() -> None:
    """BF6-POS-11, AMB-16: a centre-line gun may take a target on either beam, but its single
    round at ROF 1 goes to one of them."""
    check("Fuji: T2 @3000 cl:1")
    check("Fuji: T3 @3000 cl:1")
    refused("Fuji: T1 @3000 cl:1", rule="BF6-POS-11")
    refused("Fuji: T2 @3000 cl:1", "Fuji: T3 @3000 cl:1", rule="BF6-ROF-03")


def test_BF6_ROF_01_guns_out_of_action_cannot_fire() -> None:
    """BF6-ROF-01: only guns in action fire; a damaged position cannot be assigned."""
    _, logs = table()
    logs["Fuji"].positions["A"].slashes = 1
    refused("Fuji: T1 @3000 A:2", rule="BF6-ROF-01", logs=logs)


def test_BF6_ROF_03_rof_1_one_round_per_gun() -> None:
    """BF6-ROF-03: ROF 1, one round per gun per turn, as one salvo at one target."""
    check("Fuji: T1 @3000 E:2")
    refused("Fuji: T1 @3000 E:4", rule="BF6-ROF-01")
    refused("Fuji: T1 @3000 E:2", "Fuji: T2 @3000 E:2", rule="BF6-ROF-03")


def test_BF6_ROF_04_rof_2_two_rounds_per_gun_in_brackets_1_and_2() -> None:
    """BF6-ROF-04: ROF 2 gives two rounds per gun at brackets 1–2 (by the estimate, AMB-11)."""
    check("Fuji: T1 @2000 C:4")
    check("Fuji: T1 @5000 C:4")
    refused("Fuji: T1 @3000 C:6", rule="BF6-ROF")


def test_BF6_ROF_05_capped_at_one_beyond_half_range() -> None:
    """BF6-ROF-05: in brackets 3–4 every gun fires at most one round per turn."""
    check("Fuji: T5 @6000 C:2")
    refused("Fuji: T5 @6000 C:4", rule="BF6-ROF-05")
    refused("Fuji: T5 @5001 sec:6", rule="BF6-ROF-05")  # 5 secondaries bear at 45°
    check("Fuji: T5 @6000 sec:5")
    # One salvo beyond half range and the second salvo at a nearer ship is fine.
    check("Fuji: T5 @6000 C:2", "Fuji: T1 @3000 C:2")


@pytest.mark.parametrize(
    ("split", "legal"),
    [
        ({"T1": 4}, True),
        ({"T1": 2, "T2": 2}, True),
        ({"T1": 1, "T2": 1, "T4": 1, "T5": 1}, False),
        ({"T1": 3, "T2": 1}, False),
        ({"T1": 2, "T2": 2, "T4": 2}, False),
    ],
)
def test_EX_BF6_05_two_gun_turret_rof_2_split(split: dict[str, int], legal: bool) -> None:
    """EX-BF6-05 (BF6-ROF-06, AMB-12): a two-gun 15 cm ROF-2 turret may put 4 rounds on one
    ship or 2 + 2 on two; 1+1+1+1 and 3+1 are refused, and so is a third salvo."""
    texts = [f"Fuji: {t} @3000 C:{n}" for t, n in split.items()]
    if legal:
        check(*texts)
    else:
        msg = refused(*texts, rule="BF6-ROF-06")
        assert "C" in msg


def test_BF6_ROF_07_single_guns_split_freely_within_their_arcs() -> None:
    """BF6-ROF-07: beam-pattern guns allocate rounds one gun at a time, unevenly if wished.

    Pattern 2, 10 guns at ROF 2: 4 bear dead ahead (T1), 5 on the starboard beam (T2); the two
    starboard bow guns bear on both, so together 7 guns give at most 14 rounds.
    """
    check("Fuji: T1 @3000 sec:3", "Fuji: T2 @3000 sec:5")
    check("Fuji: T1 @3000 sec:8", "Fuji: T2 @3000 sec:6")
    msg = refused("Fuji: T1 @3000 sec:8", "Fuji: T2 @3000 sec:7", rule="BF6-ROF-07")
    assert "8 at T1 + 7 at T2" in msg
    refused("Fuji: T1 @3000 sec:9", rule="BF6-ROF-01")


def test_BF6_ROF_02_AMB_10_half_rof_fires_on_alternate_turns() -> None:
    """BF6-ROF-02, AMB-10: a ROF-½ position fires only if it did not fire last turn."""
    poses, logs = table()
    events = EventLog()
    refused("Fuji: T1 @3000 A:4", rule="BF6-ROF-0")  # one salvo only
    resolve_gunnery(
        [GunneryEntry.parse("Fuji: T1 @3000 A:2")], poses, logs, SCALE, (), FixedDice([]), events
    )
    assert logs["Fuji"].rof_half_fired_last_turn == {"A"}
    msg = refused("Fuji: T1 @3000 A:2", rule="BF6-ROF-02", logs=logs)
    assert "still loading" in msg
    check("Fuji: T6 @3000 Z:2", logs=logs)
    resolve_gunnery(
        [GunneryEntry.parse("Fuji: T6 @3000 Z:2")], poses, logs, SCALE, (), FixedDice([]), events
    )
    assert logs["Fuji"].rof_half_fired_last_turn == {"Z"}
    check("Fuji: T1 @3000 A:2", logs=logs)


def test_BF6_SINK_04_abandoned_guns_and_surrendered_ships_cannot_fire() -> None:
    """BF6-SINK-04: once the crews abandon the guns, the ship may never fire again."""
    _, logs = table()
    logs["Fuji"].sinking = SinkingState(turns_left=2, guns_abandoned=True)
    refused("Fuji: T1 @3000 A:2", rule="BF6-SINK-04", logs=logs)
    _, logs = table()
    logs["Fuji"].surrendered = True
    refused("Fuji: T1 @3000 A:2", rule="BF6-CMD-32", logs=logs)


def test_submitting_side_may_only_order_its_own_ships() -> None:
    poses, logs = table()
    with pytest.raises(IllegalOrderError, match="not a ship of side 'Russia'"):
        validate_entries(
            [GunneryEntry.parse("Fuji: T1 @3000 A:2")], poses, logs, SCALE, side="Russia"
        )


# -- measuring -----------------------------------------------------------------------------


def shoot(text: str, targets: dict[str, Pose] | None = None) -> tuple[list[ShellSet], Event, Event]:
    """Fire one entry: its shell sets, its public marker and the umpire's measured note."""
    poses, logs = table(targets)
    events = EventLog()
    dice = FixedDice([])
    sets = resolve_gunnery([GunneryEntry.parse(text)], poses, logs, SCALE, (), dice, events)
    dice.assert_consumed()  # BF6-HIT-01: nothing is rolled in the Gunnery Phase
    marks = events.of_kind(EventKind.HIT_ZONE, EventKind.SPLASH)
    assert len(marks) == 1  # BF6-GUN-03: every estimate is measured and marked once
    assert marks[0].public and "leading_m" not in marks[0].data  # no true range at the table
    notes = [e for e in events.of_kind(EventKind.NOTE) if e.data.get("measured")]
    assert len(notes) == 1 and notes[0].side is None and not notes[0].public  # the umpire's
    return sets, marks[0], notes[0]


@pytest.mark.parametrize(
    ("estimate", "hit"),
    [
        (2699, False),
        (2700, True),
        (3000, True),
        (3200, True),
        (3325, True),
        (3326, False),
        (3400, False),
    ],
)
def test_BF6_MEAS_03_04_BF6_DZ_02_hit_zone_in_bracket_2(estimate: int, hit: bool) -> None:
    """BF6-GUN-03, BF6-MEAS-03, BF6-MEAS-04, BF6-DZ-02, AMB-18: leading edge 2700 m is in
    bracket 2, so the target area runs from 2700 m to 2700 + ¼ × 2500 = 3325 m (beyond the
    far edge at 3200 m). 3400 m would be inside a danger zone measured from the far edge;
    AMB-18 measures it from the leading edge."""
    _, mark, note = shoot(f"Fuji: T1 @{estimate} A:2", {"T1": TARGETS["T1"]})
    assert mark.kind is (EventKind.HIT_ZONE if hit else EventKind.SPLASH)
    assert (mark.data["x"], mark.data["y"]) == pytest.approx((0.0, 50.0 + estimate))
    assert mark.data["fall"] == ("hit" if hit else "short" if estimate < 2700 else "over")
    assert note.data["leading_m"] == pytest.approx(2700.0)
    assert note.data["zone_end_m"] == pytest.approx(3325.0)
    assert note.data["bracket"] == 2 and note.data["hit"] is hit


def test_BF6_MEAS_04_splash_marks_the_estimated_point_short_or_over() -> None:
    """BF6-MEAS-04: a miss puts a white splash at the estimated point. The table is told only
    "short" or "over" as seen from the firing ship; how far off is the umpire's."""
    _, mark, note = shoot("Fuji: T1 @2500 A:2", {"T1": TARGETS["T1"]})
    assert mark.kind is EventKind.SPLASH
    assert mark.text == "Fuji → T1: splash, white marker, short"
    assert mark.data["fall"] == "short" and "200" not in mark.text
    assert "200 m short" in note.text and note.data["off_m"] == pytest.approx(-200.0)
    _, mark, note = shoot("Fuji: T1 @3500 A:2", {"T1": TARGETS["T1"]})
    assert mark.data["fall"] == "over" and "175 m over" in note.text


def test_BF6_MEAS_02_measured_along_the_funnel_line() -> None:
    """BF6-MEAS-02: the estimate is laid from Fuji's funnel (0, 50) towards T2's (3000, 50)."""
    _, mark, note = shoot("Fuji: T2 @2950 E:2", {"T2": TARGETS["T2"]})
    assert mark.kind is EventKind.HIT_ZONE
    assert (mark.data["x"], mark.data["y"]) == pytest.approx((2950.0, 50.0))
    assert note.data["leading_m"] == pytest.approx(2900.0)


def test_BF6_DZ_01_half_bracket_in_bracket_1() -> None:
    """BF6-DZ-01: leading edge 1200 m (bracket 1): target area to 1200 + 1250 = 2450 m."""
    t = {"T1": Pose(0.0, 1500.0, 0.0)}
    assert shoot("Fuji: T1 @2450 A:2", t)[1].kind is EventKind.HIT_ZONE
    assert shoot("Fuji: T1 @2451 A:2", t)[1].kind is EventKind.SPLASH
    assert shoot("Fuji: T1 @1199 A:2", t)[1].kind is EventKind.SPLASH


def test_BF6_DZ_03_no_danger_zone_beyond_bracket_2() -> None:
    """BF6-DZ-03: leading edge 5700 m (bracket 3): only the base counts, 5700–6200 m."""
    t = {"T1": Pose(0.0, 6000.0, 0.0)}
    assert shoot("Fuji: T1 @6200 A:2", t)[1].kind is EventKind.HIT_ZONE
    assert shoot("Fuji: T1 @6201 A:2", t)[1].kind is EventKind.SPLASH


def test_measure_reports_extent_and_danger_zone() -> None:
    """measure(): leading and far edge along the line, danger zone and its end."""
    m = measure(
        GunneryEntry.parse("Fuji: T1 @3000 A:2"), (0.0, 50.0), TARGETS["T1"], (500.0, 200.0), SCALE
    )
    assert (m.leading_m, m.far_m, m.danger_m, m.bracket) == pytest.approx((2700, 3200, 625, 2))
    assert m.zone_end_m == pytest.approx(3325) and m.hit and m.aspect is Aspect.ASTERN


# -- the hand-off to Damage Step Two --------------------------------------------------------


def test_BF6_HIT_01_hit_zone_hands_shell_sets_to_step_two() -> None:
    """BF6-HIT-01, BF6-GUN-05: the hit zone gives one shell set per mounting, nothing rolled;
    penetration for the leading edge's bracket, aspect from where the firer lies."""
    sets, mark, _ = shoot("Fuji: T2 @3000 AP A:2 C:4 sec:10", {"T2": TARGETS["T2"]})
    assert mark.kind is EventKind.HIT_ZONE
    by_key = {s.mounting: s for s in sets}
    assert set(by_key) == {"A", "C", "sec"}
    a = by_key["A"]
    assert (a.firer, a.target, a.rounds, a.ammo, a.penetration, a.bracket) == (
        "Fuji",
        "T2",
        2,
        Ammo.AP,
        9,
        2,
    )
    assert (a.gun_class, a.calibre_cm, a.shell_size) == (GunClass.MAIN, 30.5, 6)
    assert a.aspect is Aspect.PORT  # T2 heads north; Fuji lies to its west
    assert by_key["sec"].rounds == 10 and by_key["sec"].penetration == 4


def test_BF6_HIT_01_penetration_by_the_leading_edge_bracket_not_the_estimate() -> None:
    """The leading edge at 2450 m is in bracket 1 though the estimate (2600 m) is in bracket 2."""
    sets, mark, _ = shoot("Fuji: T1 @2600 C:4", {"T1": Pose(0.0, 2750.0, 0.0)})
    assert mark.kind is EventKind.HIT_ZONE
    assert [(s.bracket, s.penetration) for s in sets] == [(1, 5)]


def test_no_shell_sets_from_a_splash() -> None:
    sets, mark, _ = shoot("Fuji: T1 @2000 A:2", {"T1": TARGETS["T1"]})
    assert mark.kind is EventKind.SPLASH and sets == []


def test_BF6_GUN_01_MEAS_01_nothing_is_measured_while_any_entry_is_illegal() -> None:
    """BF6-GUN-01, BF6-MEAS-01: all estimates are checked before any is measured."""
    poses, logs = table()
    events = EventLog()
    entries = [GunneryEntry.parse("Fuji: T1 @3000 A:2"), GunneryEntry.parse("Fuji: T6 @3000 A:2")]
    with pytest.raises(IllegalOrderError):
        resolve_gunnery(entries, poses, logs, SCALE, (), FixedDice([]), events)
    assert len(events) == 0


@pytest.mark.parametrize(("roll", "fires"), [(3, True), (4, False)])
def test_EX_DRV_05_BF6_SINK_04_sinking_ship_crews_roll(roll: int, fires: bool) -> None:
    """EX-DRV-05 (BF6-SINK-04, AMB-26): a sinking ship that wants to fire rolls 1D6 first;
    3 lets it fire, 4 means its crews abandon every gun for good."""
    poses, logs = table({"T1": TARGETS["T1"]})
    logs["Fuji"].sinking = SinkingState(turns_left=2)
    events = EventLog()
    dice = FixedDice([roll])
    sets = resolve_gunnery(
        [GunneryEntry.parse("Fuji: T1 @3000 A:2")], poses, logs, SCALE, (), dice, events
    )
    dice.assert_consumed()
    assert bool(sets) is fires
    assert logs["Fuji"].sinking is not None
    assert logs["Fuji"].sinking.guns_abandoned is not fires
    assert bool(events.of_kind(EventKind.HIT_ZONE)) is fires
    if not fires:
        assert "abandon" in events.of_kind(EventKind.SINKING)[0].text


def test_ships_that_do_not_fire_clear_their_half_rof_record() -> None:
    """AMB-10: the record is of last turn only; a turn without fire clears it."""
    poses, logs = table({"T1": TARGETS["T1"]})
    logs["T1"].rof_half_fired_last_turn = {"A"}
    resolve_gunnery(
        [GunneryEntry.parse("Fuji: T1 @3000 E:2")],
        poses,
        logs,
        SCALE,
        (),
        FixedDice([]),
        EventLog(),
    )
    assert logs["T1"].rof_half_fired_last_turn == set()
    assert logs["Fuji"].rof_half_fired_last_turn == set()


# -- secrecy -------------------------------------------------------------------------------


def test_BF6_GUN_01_estimates_stay_with_their_writer_through_a_played_gunnery_phase() -> None:
    """BF6-GUN-01, BF6-GUN-03, BF6-MEAS-04 through the game: while the log is sealed and after it
    is measured, the other side never reads an estimate; it sees each marker, and for a splash
    whether it fell over or short. The writer keeps its own lines."""
    from battleline.ai.base import StandInAdmiral, legal_lines
    from battleline.game import new_game

    game = new_game("cruiser-duel", 3)
    while game.spec.name != "gunnery":
        for side in game.pending.waiting_for:
            game.submit(side, [])
    a, b = game.state.sides
    lines = legal_lines(game, a, StandInAdmiral(a, 99).gunnery(game.view(a)))
    assert lines, "the duel opens inside gun range"
    start = len(game.events)
    game.submit(a, lines)
    estimates = {line.split("@", 1)[1].split()[0] for line in lines}
    sealed = game.view(b).to_json()
    assert not any(f"@{est}" in sealed for est in estimates)
    game.submit(b, [])
    theirs = game.view(b, since=start)
    mine = game.view(a, since=start)
    marks = [e for e in theirs.events if e.kind in (EventKind.SPLASH, EventKind.HIT_ZONE)]
    assert len(marks) == len(lines)  # every salvo's marker shows across the table
    assert all(e.data["fall"] in ("hit", "over", "short") for e in marks)
    dumped = json.dumps([e.to_dict() for e in theirs.events])
    for est in estimates:
        assert f"@{est}" not in dumped and f'"estimate_m": {float(est)}' not in dumped
    assert all(f"{a}: {line}" in [e.text for e in mine.events] for line in lines)


def test_the_resolution_receives_only_logs_the_whole_check_accepts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """BF6-GUN-01 through the game: the ruleset's resolver does not validate a gunnery log again
    (``checked=True``: each side's log was validated when sealed, on the same table). In a
    played game every log it resolves passes the whole check all the same, both sides' entries
    together, and an illegal one never reaches it: it is refused on submission."""
    from battleline.ai.base import play
    from battleline.game import new_game
    from battleline.rulesets.bf1900 import gunnery
    from battleline.rulesets.bf1900.gunnery_checks import sight_lines, validate_entries

    resolve = gunnery.resolve_gunnery
    resolved: list[int] = []

    def checking(*args: Any, **options: Any) -> Any:
        entries, poses, logs, scale, land = args[:5]
        assert options.get("checked") is True
        validate_entries(entries, poses, logs, scale, sight_lines(poses, logs, scale, land))
        resolved.append(len(entries))
        return resolve(*args, **options)

    monkeypatch.setattr(gunnery, "resolve_gunnery", checking)
    game = new_game("cruiser-duel", 3)
    while game.spec.name != "gunnery":
        for side in game.pending.waiting_for:
            game.submit(side, [])
    a = game.state.sides[0]
    with pytest.raises(IllegalOrderError):
        game.submit(a, ["Nowhere: Somebody @3000 A:2"])
    play(game)
    assert sum(resolved) > 0, "the duel fires"
