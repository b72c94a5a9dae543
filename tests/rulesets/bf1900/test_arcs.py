"""Arcs of fire: lettered positions and beam patterns (BF6-POS-01..11, BF6-BEAM-01..04/06)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.geometry import Pose, in_arc, unit
from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.arcs import (
    BEAM_CENTRED_135,
    BOW_ANCHORED_135,
    POSITION_ARCS,
    STERN_ANCHORED_135,
    arc_width,
    battery_layout,
    guns_bearing,
    mirror,
    position_arcs,
    side_layout,
    union_width,
)
from battleline.rulesets.bf1900.ship import GunClass, Mounting, Rating, ShipClass, ShipType
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog


def bears(position: str, theta: float) -> bool:
    return any(in_arc(theta, *a) for a in position_arcs(position))


def battery(pattern: int, guns: int, key: str = "sec") -> Mounting:
    return Mounting(
        key=key,
        gun_class=GunClass.SECONDARY,
        calibre_cm=15.2,
        rof=1,
        penetration=(5, 4, 2, None),
        guns=guns,
        shell_size=3,
        beam_pattern=pattern,
    )


def turret(position: str, guns: int = 2, key: str | None = None) -> Mounting:
    return Mounting(
        key=key or position,
        gun_class=GunClass.MAIN,
        calibre_cm=30.5,
        rof=0.5,
        penetration=(12, 9, 6, 4),
        guns=guns,
        shell_size=6,
        position=position,
    )


def ship(*mountings: Mounting) -> ShipLog:
    cls = ShipClass(
        name="Test",
        navy="test",
        type=ShipType.BATTLESHIP,
        year=1900,
        size=8,
        armour_vitals=9,
        armour_upperworks=4,
        upperworks_protection=Rating.GOOD,
        flood_protection=Rating.GOOD,
        stability="good",
        seaway="normal",
        armoured_deck=True,
        propulsion_knots=(18, 15, 12, 9, 6, 3),
        mountings=mountings,
    )
    return ShipLog("Fuji", cls)


def point_at(pose: Pose, theta: float, dist: float = 3000.0) -> tuple[float, float]:
    dx, dy = unit(pose.heading + theta)
    return pose.x + dx * dist, pose.y + dy * dist


# -- lettered positions ---------------------------------------------------------------------

# (position, bearings inside, bearings outside): starboard members and single positions.
CASES = [
    ("A", [227.5, 300, 0, 90, 132.5], [133, 180, 227]),  # BF6-POS-01
    ("C", [312.5, 0, 47.5, 90, 135], [135.5, 200, 312]),  # BF6-POS-02 (starboard gun)
    ("E", [0, 90, 135], [135.5, 359.5, 270]),  # BF6-POS-03
    ("O", [0, 150], [150.5, 359.5]),  # BF6-POS-04
    ("R", [15, 90, 165], [14.5, 165.5, 0]),  # BF6-POS-05
    ("U", [30, 180], [29.5, 180.5]),  # BF6-POS-06
    ("W", [45, 180], [44.5, 180.5]),  # BF6-POS-07
    ("Y", [45, 180, 227.5], [44.5, 228, 0]),  # BF6-POS-08 (starboard gun)
    ("Z", [47.5, 180, 312.5], [47, 313, 0]),  # BF6-POS-09
    ("stem", [312.5, 0, 47.5], [48, 312]),  # BF6-POS-10
    ("stern", [132.5, 180, 227.5], [132, 228]),  # BF6-POS-10
    ("centreline", [42.5, 137.5, 222.5, 317.5, 90, 270], [0, 180, 42, 138, 318]),  # BF6-POS-11
]


@pytest.mark.parametrize(("position", "inside", "outside"), CASES)
def test_BF6_POS_01_to_11_each_position_interval(
    position: str, inside: list[float], outside: list[float]
) -> None:
    """Each position's interval from the inventory, edges inclusive (AMB-15): BF6-POS-01,
    BF6-POS-02, BF6-POS-03, BF6-POS-04, BF6-POS-05, BF6-POS-06, BF6-POS-07, BF6-POS-08,
    BF6-POS-09, BF6-POS-10, BF6-POS-11."""
    for theta in inside:
        assert bears(position, theta), (position, theta)
    for theta in outside:
        assert not bears(position, theta), (position, theta)


def test_BF6_POS_01_and_09_A_and_Z_are_265_degrees() -> None:
    """BF6-POS-01, BF6-POS-09: A and Z cover 265°, blind 95° on the stern / bow."""
    assert arc_width(position_arcs("A")[0]) == 265.0
    assert arc_width(position_arcs("Z")[0]) == 265.0
    assert not bears("A", 180.0) and not bears("Z", 0.0)


def test_EX_BF6_07_B_C_total_arc_is_182_5_degrees() -> None:
    """EX-BF6-07 (BF6-POS-02): shared 95° bow arc plus own 135° side arc = 182.5° per gun."""
    assert union_width(position_arcs("C")) == 182.5
    assert union_width(position_arcs("B")) == 182.5
    assert union_width(position_arcs("Y")) == 182.5
    assert union_width(position_arcs("A")) == 265.0
    assert union_width(position_arcs("centreline")) == 190.0


def test_AMB_13_14_first_letter_is_port() -> None:
    """AMB-13, AMB-14: B, D, M, P, S, V, X are port; C, E, O, R, U, W, Y starboard."""
    for port, starboard in ("BC", "DE", "MO", "PR", "SU", "VW", "XY"):
        assert bears(port, 270.0) and not bears(port, 90.0)
        assert bears(starboard, 90.0) and not bears(starboard, 270.0)


def test_AMB_14_undefined_positions_raise() -> None:
    """AMB-14: N, Q and T have no arc; asking for one is a data error naming the position."""
    with pytest.raises(RulesDataError, match=r"'N'.*AMB-14"):
        position_arcs("N")


def test_mirror_maps_starboard_bow_arc_onto_port() -> None:
    """The port member is the mirror image θ → 360 − θ."""
    assert mirror(BOW_ANCHORED_135) == (225.0, 0.0)
    assert mirror(mirror(STERN_ANCHORED_135)) == STERN_ANCHORED_135
    assert position_arcs("D") == ((225.0, 0.0),)


@given(st.floats(min_value=0, max_value=360, exclude_max=True))
def test_property_position_and_its_mirror_are_symmetric(theta: float) -> None:
    """A position and its mirror are symmetric: θ in port ⇔ 360 − θ in starboard."""
    mirrored = (360.0 - theta) % 360.0
    for port, starboard in ("BC", "DE", "MO", "PR", "SU", "VW", "XY"):
        assert bears(port, theta) == bears(starboard, mirrored)
    for single in ("A", "Z", "stem", "stern", "centreline"):
        assert bears(single, theta) == bears(single, mirrored)


@given(st.sampled_from([0, 1, 2]), st.integers(0, 16), st.floats(0, 360, exclude_max=True))
def test_property_beam_patterns_are_symmetric(pattern: int, guns: int, theta: float) -> None:
    """BF6-BEAM-01: a pattern applies identically to port and starboard."""
    layout = battery_layout(battery(pattern, 2 * guns))
    port = sum(1 for g in layout if g.side == "port" and in_arc(theta, *g.arc))
    starboard = sum(
        1 for g in layout if g.side == "starboard" and in_arc((360.0 - theta) % 360.0, *g.arc)
    )
    assert port == starboard


# -- beam patterns ---------------------------------------------------------------------------


def test_BF6_BEAM_02_pattern_2_side_layout() -> None:
    """BF6-BEAM-02: two bow-anchored, two stern-anchored, the rest beam-centred, all 135°."""
    assert (
        side_layout(2, 6)
        == (BOW_ANCHORED_135,) * 2 + (STERN_ANCHORED_135,) * 2 + (BEAM_CENTRED_135,) * 2
    )
    assert all(arc_width(a) == 135.0 for a in side_layout(2, 6))
    assert BEAM_CENTRED_135 == (22.5, 157.5)


def test_BF6_BEAM_03_pattern_1_side_layout() -> None:
    """BF6-BEAM-03: one bow-anchored, one stern-anchored, the rest beam-centred."""
    assert side_layout(1, 4) == (BOW_ANCHORED_135, STERN_ANCHORED_135) + (BEAM_CENTRED_135,) * 2


def test_BF6_BEAM_04_pattern_0_all_beam_centred() -> None:
    """BF6-BEAM-04: every gun beam-centred."""
    assert side_layout(0, 3) == (BEAM_CENTRED_135,) * 3


def test_battery_boxes_alternate_sides_beam_guns_last() -> None:
    """Box order: sides alternate, each side bow, stern, beam; an odd gun goes to starboard."""
    layout = battery_layout(battery(2, 11))
    assert [g.side[0] for g in layout] == list("pspspspspss")
    beam = BEAM_CENTRED_135
    assert [g.arc for g in layout[-3:]] == [mirror(beam), beam, beam]
    assert [g.index for g in layout] == list(range(11))


def test_BF6_BEAM_01_battery_is_half_each_side_and_port_mirrors_starboard() -> None:
    """BF6-BEAM-01: half the guns each side; port arcs are the starboard arcs mirrored."""
    layout = battery_layout(battery(1, 6))
    port = [g.arc for g in layout if g.side == "port"]
    starboard = [g.arc for g in layout if g.side == "starboard"]
    assert len(port) == len(starboard) == 3
    assert port == [mirror(a) for a in starboard]


@pytest.mark.parametrize(("pattern", "ahead"), [(2, 4), (1, 2), (0, 0)])
def test_BF6_BEAM_06_guns_bearing_dead_ahead_and_astern(pattern: int, ahead: int) -> None:
    """BF6-BEAM-06: dead ahead (and dead astern) 4, 2, 0 guns bear in patterns 2, 1, 0."""
    log = ship(battery(pattern, 12))
    pose = Pose(0.0, 0.0, 0.0)
    assert guns_bearing(log, pose, point_at(pose, 0.0))[0].guns == ahead
    assert guns_bearing(log, pose, point_at(pose, 180.0))[0].guns == ahead


def test_EX_BF6_06_pattern_2_four_secondaries_dead_ahead() -> None:
    """EX-BF6-06: six-inch secondaries in Beam Pattern 2, target dead ahead: exactly 4 bear,
    2 from each side."""
    mount = battery(2, 10)
    log = ship(turret("A"), mount)
    pose = Pose(1000.0, -500.0, 37.0)
    result = guns_bearing(log, pose, point_at(pose, 0.0))
    by_key = {r.key: r for r in result}
    assert by_key["sec"].guns == 4
    sides = [g.side for g in battery_layout(mount) if in_arc(0.0, *g.arc)]
    assert sides.count("port") == 2 and sides.count("starboard") == 2
    assert by_key["A"].guns == 2


def test_guns_bearing_lists_every_mounting_and_skips_guns_out_of_action() -> None:
    """guns_bearing: per mounting, guns in action whose arc holds the target."""
    log = ship(turret("A"), turret("Z"), turret("C", 1), battery(2, 10))
    pose = Pose(0.0, 0.0, 90.0)  # heading east
    target = point_at(pose, 90.0)  # starboard beam
    counts = {r.key: (r.guns, r.in_arc) for r in guns_bearing(log, pose, target)}
    # starboard beam: A, Z, C bear; all 5 starboard secondaries bear.
    assert counts == {"A": (2, 2), "Z": (2, 2), "C": (1, 1), "sec": (5, 5)}
    log.positions["Z"].slashes = 1
    log.batteries["sec"][9] = Mark.DESTROYED  # the starboard beam gun
    log.batteries["sec"][8] = Mark.DAMAGED  # the port beam gun: irrelevant to starboard
    counts = {r.key: (r.guns, r.in_arc) for r in guns_bearing(log, pose, target)}
    assert counts["Z"] == (0, 2)
    assert counts["sec"] == (4, 5)
    # Dead astern: A cannot bear at all.
    astern = {r.key: r.in_arc for r in guns_bearing(log, pose, point_at(pose, 180.0))}
    assert astern["A"] == 0 and astern["Z"] == 2 and astern["C"] == 0


def test_every_named_position_has_arcs() -> None:
    """Every lettered pair, A, Z, stem, stern and centre-line has an arc table entry."""
    assert set(POSITION_ARCS) == set("ABCDEMOPRSUVWXYZ") | {"stem", "stern", "centreline"}
