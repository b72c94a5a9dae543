"""Divisions and formations (BF6-CMD-02, BF6-CMD-08, BF6-CMD-10, REF-BF6-15)."""

from __future__ import annotations

import doctest
import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.geometry import Pose
from battleline.errors import ScenarioError
from battleline.rulesets.bf1900 import divisions as divisions_module
from battleline.rulesets.bf1900.divisions import (
    Division,
    Formation,
    Step,
    classify_formation,
    default_interval_m,
    formation_after_turn,
    initial_wake,
    path_length,
    restores_line_ahead,
    split_path,
    station_poses,
)


def test_docstring_examples_hold() -> None:
    result = doctest.testmod(divisions_module)
    assert result.attempted >= 4 and result.failed == 0


def test_BF6_CMD_02_a_division_follows_its_lead_ship() -> None:
    d = Division("1st", "blue", ("Mikasa", "Shikishima", "Fuji", "Asahi"))
    assert d.lead == "Mikasa"
    assert d.flagship == "Mikasa"  # by default the lead carries the flag
    assert d.followers == ("Shikishima", "Fuji", "Asahi")
    assert d.astern_of("Fuji") == "Asahi"
    assert d.astern_of("Asahi") is None
    assert d.index("Fuji") == 2
    with pytest.raises(KeyError, match="'Yashima' is not in division '1st'"):
        d.index("Yashima")


def test_the_flagship_need_not_lead() -> None:
    d = Division("2nd", "blue", ("Izumo", "Iwate"), flagship="Iwate", fleet_flagship=True)
    assert d.lead == "Izumo" and d.flagship == "Iwate" and d.fleet_flagship


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"ships": ()}, "has no ships"),
        ({"ships": ("A", "A")}, "lists a ship twice"),
        ({"ships": ("A", "B"), "flagship": "C"}, "flagship 'C' is not one of its ships"),
        ({"ships": ("A",), "interval_m": -1.0}, "interval_m"),
    ],
)
def test_a_malformed_division_is_a_scenario_error(kwargs: dict[str, object], fragment: str) -> None:
    with pytest.raises(ScenarioError, match=fragment):
        Division("X", "red", **kwargs)  # type: ignore[arg-type]


def test_taking_a_ship_out_keeps_the_other_wakes() -> None:
    wake = (("B", (Step(500.0),)), ("C", (Step(1000.0),)))
    d = Division("1st", "red", ("A", "B", "C"), wake=wake)
    assert d.without("B").ships == ("A", "C")
    assert d.without("B").wake_of("C") == (Step(1000.0),)
    assert d.with_(flagship="B").without("A").wake == ()  # new lead: wakes forgotten
    with pytest.raises(ValueError, match="flagship"):
        d.without("A")


def test_station_bearings_of_the_formations() -> None:
    """REF-BF6-15 reconstructed: astern, abeam, on the quarter."""
    assert Formation.LINE_AHEAD.station_bearing == 180
    assert Formation.LINE_ABREAST_STARBOARD.station_bearing == 90
    assert Formation.LINE_ABREAST_PORT.station_bearing == 270
    assert Formation.ECHELON_STARBOARD.station_bearing == 135
    assert Formation.ECHELON_PORT.station_bearing == 225
    assert Formation.NONE.station_bearing is None


@pytest.mark.parametrize(
    ("before", "turn", "after", "reverse"),
    [
        (Formation.LINE_AHEAD, 90, Formation.LINE_ABREAST_STARBOARD, False),
        (Formation.LINE_AHEAD, -90, Formation.LINE_ABREAST_PORT, False),
        (Formation.LINE_AHEAD, 45, Formation.ECHELON_STARBOARD, False),
        (Formation.LINE_AHEAD, 180, Formation.LINE_AHEAD, True),
        (Formation.LINE_AHEAD, 30, Formation.NONE, False),
        (Formation.LINE_ABREAST_STARBOARD, -90, Formation.LINE_AHEAD, False),
        (Formation.LINE_ABREAST_STARBOARD, 90, Formation.LINE_AHEAD, True),
        (Formation.LINE_ABREAST_PORT, 90, Formation.LINE_AHEAD, False),
        (Formation.ECHELON_STARBOARD, -45, Formation.LINE_AHEAD, False),
        (Formation.ECHELON_STARBOARD, 45, Formation.LINE_ABREAST_STARBOARD, False),
        (Formation.NONE, 90, Formation.NONE, False),
    ],
)
def test_BF6_CMD_08_formation_after_a_turn_together(
    before: Formation, turn: float, after: Formation, reverse: bool
) -> None:
    assert formation_after_turn(before, turn) == (after, reverse)


@pytest.mark.parametrize("abreast", [Formation.LINE_ABREAST_PORT, Formation.LINE_ABREAST_STARBOARD])
def test_BF6_CMD_10_only_eight_point_turns_bring_line_abreast_back_to_line_ahead(
    abreast: Formation,
) -> None:
    """From line abreast exactly the 90° turns together (either side) restore line ahead."""
    good = [t for t in range(-359, 360) if restores_line_ahead(abreast, t)]
    assert good == [-270, -90, 90, 270]


@given(
    st.sampled_from([f for f in Formation if f is not Formation.NONE]),
    st.integers(2, 6),
    st.floats(0, 359.9),
    st.floats(100, 2000),
)
def test_station_poses_are_read_back_as_their_formation(
    formation: Formation, count: int, heading: float, interval: float
) -> None:
    poses = station_poses(Pose(1000.0, -500.0, heading), count, formation, interval)
    assert classify_formation(poses) == (formation, False)
    mirror = {
        Formation.LINE_ABREAST_PORT: Formation.LINE_ABREAST_STARBOARD,
        Formation.LINE_ABREAST_STARBOARD: Formation.LINE_ABREAST_PORT,
    }
    # Read backwards a line is the same line reversed; line abreast is the other side's abreast.
    expected = (mirror[formation], False) if formation in mirror else (formation, True)
    assert classify_formation(poses[::-1]) == expected
    assert all(math.isclose(a.distance_to(b), interval) for a, b in itertools.pairwise(poses))


def test_classify_spots_mixed_headings_and_crooked_lines() -> None:
    line = station_poses(Pose(0, 0, 0), 3, Formation.LINE_AHEAD, 500)
    assert classify_formation([line[0], line[1], Pose(line[2].x, line[2].y, 40)])[0] is (
        Formation.NONE
    )
    assert classify_formation([line[0], line[1], Pose(300, line[2].y, 0)])[0] is Formation.NONE
    assert classify_formation(line[:1]) == (Formation.LINE_AHEAD, False)


def test_initial_wake_runs_straight_to_the_lead() -> None:
    d = Division("1st", "red", ("A", "B", "C"))
    poses = dict(
        zip("ABC", station_poses(Pose(0, 0, 90), 3, Formation.LINE_AHEAD, 600), strict=True)
    )
    wake = dict(initial_wake(d, poses))
    assert path_length(wake["B"], 300) == pytest.approx(600)
    assert path_length(wake["C"], 300) == pytest.approx(1200)
    assert initial_wake(d.with_(formation=Formation.LINE_ABREAST_PORT), poses) == ()


def test_default_interval_is_two_base_lengths() -> None:
    assert default_interval_m([294.0, 235.0]) == pytest.approx(588.0)


steps_st = st.lists(
    st.one_of(
        st.floats(1, 1000).map(lambda d: Step(straight_m=d)),
        st.floats(-180, 180).filter(lambda t: abs(t) > 0.5).map(lambda t: Step(turn_deg=t)),
    ),
    max_size=6,
)


@given(steps_st, st.floats(0, 1.2), st.floats(50, 800))
def test_splitting_a_path_keeps_its_length_and_turn(
    steps: list[Step], fraction: float, radius: float
) -> None:
    total = path_length(steps, radius)
    head, rest = split_path(steps, fraction * total, radius)
    assert path_length(head, radius) + path_length(rest, radius) == pytest.approx(total, abs=1e-6)
    assert path_length(head, radius) == pytest.approx(min(fraction, 1) * total, abs=1e-6)
    turn = sum(s.turn_deg for s in steps)
    assert sum(s.turn_deg for s in head) + sum(s.turn_deg for s in rest) == pytest.approx(turn)
