"""Line of sight, forward funnel to forward funnel (BF6-LOS-01/02, BF6-SINK-05)."""

from __future__ import annotations

import math

import pytest

from battleline.engine.geometry import Pose
from battleline.errors import UnknownNameError
from battleline.rulesets.bf1900.gunnery import sight_lines
from battleline.rulesets.bf1900.los import SightLines
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.ship import Rating, ShipClass, ShipType
from battleline.rulesets.bf1900.shiplog import ShipLog, SinkingState
from battleline.rulesets.bf1900.table import Land

SIZE = (500.0, 200.0)  # base length and width in metres


def sight(
    poses: dict[str, Pose], land: tuple[Land, ...] = (), afloat: set[str] | None = None
) -> SightLines:
    return SightLines(poses, dict.fromkeys(poses, SIZE), land, afloat)


def test_BF6_LOS_01_line_runs_funnel_to_funnel_not_centre_to_centre() -> None:
    """BF6-LOS-01: the line joins the forward funnels (50 m ahead of centre here).

    Both ships head east, so the funnel line is x = 50 while the centre line is x = 0. A base
    spanning x ∈ [-160, 40] cuts the centre line only; one spanning [-40, 160] cuts both.
    """
    a, b = Pose(0.0, 0.0, 90.0), Pose(0.0, 3000.0, 90.0)
    beside = sight({"A": a, "B": b, "C": Pose(-60.0, 1500.0, 0.0)})
    assert beside.funnels["A"] == pytest.approx((50.0, 0.0))
    assert beside.clear("A", "B")
    across = sight({"A": a, "B": b, "C": Pose(60.0, 1500.0, 0.0)})
    assert not across.clear("A", "B")
    assert across.blockers("A", "B") == ("C",)


def test_BF6_LOS_02_blocked_by_another_ships_base_but_not_by_the_ends() -> None:
    """BF6-LOS-02: a third ship's base blocks; the firer's and target's own bases do not."""
    poses = {"A": Pose(0, 0, 0), "B": Pose(0, 4000, 0), "C": Pose(2000, 2000, 0)}
    s = sight(poses)
    assert s.clear("A", "B") and s.clear("B", "A")
    poses["C"] = Pose(0, 2000, 90)
    s = sight(poses)
    assert not s.clear("A", "B") and not s.clear("B", "A")
    assert s.clear("A", "C") and s.clear("C", "B")


def test_BF6_LOS_02_blocked_by_land() -> None:
    """BF6-LOS-02: land on the line blocks it, and is named."""
    island = Land.from_coords("Tsushima", [(-300, 1800), (300, 1800), (300, 2200), (-300, 2200)])
    s = sight({"A": Pose(0, 0, 0), "B": Pose(0, 4000, 0), "C": Pose(3000, 0, 0)}, (island,))
    assert s.blockers("A", "B") == ("Tsushima",)
    assert s.clear("A", "C")


def _log(name: str) -> ShipLog:
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
        mountings=(),
    )
    return ShipLog(name, cls, side="x")


def _scale() -> Scale:
    return Scale(
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


def test_BF6_SINK_05_sinking_ship_blocks_until_sunk() -> None:
    """BF6-SINK-05: a sinking ship still blocks line of sight; once sunk it does not."""
    poses = {"A": Pose(0, 0, 0), "B": Pose(0, 4000, 0), "C": Pose(0, 2000, 90)}
    logs = {n: _log(n) for n in poses}
    logs["C"].sinking = SinkingState(turns_left=2)
    assert sight_lines(poses, logs, _scale()).blockers("A", "B") == ("C",)
    logs["C"].sunk = True
    lines = sight_lines(poses, logs, _scale())
    assert lines.clear("A", "B")
    with pytest.raises(UnknownNameError):
        lines.clear("A", "C")


def test_grazing_a_base_corner_blocks() -> None:
    """A line touching a base's edge counts as passing it (the table index's reading)."""
    # C's base spans x ∈ [0, 200] (heading north, width 200 centred on x=100); line is x=0.
    s = sight({"A": Pose(0, -50, 0), "B": Pose(0, 3950, 0), "C": Pose(100, 2000, 0)})
    assert s.funnels["A"] == pytest.approx((0.0, 0.0))
    assert s.blockers("A", "B") == ("C",)


def test_visible_from_and_cache_are_consistent() -> None:
    """visible_from agrees with clear(), both ways round."""
    poses = {
        "A": Pose(0, 0, 0),
        "B": Pose(0, 4000, 0),
        "C": Pose(0, 2000, 90),
        "D": Pose(3000, 0, 0),
    }
    s = sight(poses)
    assert s.visible_from("A") == ["C", "D"]
    assert [b for b in poses if b != "B" and s.clear("B", b)] == ["C", "D"]


def test_forty_ships_a_side_in_one_query() -> None:
    """80 ships, every pair primed at once (speed is measured in benchmarks/, not here)."""
    poses = {}
    for i in range(40):
        poses[f"R{i}"] = Pose(i * 700.0, 0.0, 90.0)
        poses[f"B{i}"] = Pose(i * 700.0 + 350.0, 6000.0 + 40.0 * math.sin(i), 270.0)
    s = sight(poses)
    names = list(poses)
    s.prime((a, b) for i, a in enumerate(names) for b in names[i + 1 :])
    seen = sum(len(s.visible_from(n)) for n in names)
    # Ships in line abreast hide each other along their own line; across the gap they see.
    assert s.clear("R0", "B0") and not s.clear("R0", "R2")
    assert seen > 0
