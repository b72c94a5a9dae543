"""Game scales (REF-BF6-01, REF-BF6-14): conversions, brackets, bases, loading and validation."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.errors import RulesDataError, UnknownNameError
from battleline.rulesets.bf1900.scales import get_scale, load_scales
from battleline.rulesets.bf1900.ship import Rating, ShipClass, ShipType

SCALES = load_scales()


def make_class(ship_type: ShipType = ShipType.BATTLESHIP) -> ShipClass:
    return ShipClass(
        name="Test",
        navy="RN",
        type=ship_type,
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


def test_REF_BF6_01_public_distances_per_km_match_the_surviving_table() -> None:
    """The three public scales: 85 mm, 17 cm and 10.5 in per km, and their derived rows;
    distances are in millimetres or inches by scale (BF6-GEN-09)."""
    small, medium, large = SCALES["small"], SCALES["medium"], SCALES["large"]
    assert (small.table_unit, medium.table_unit, large.table_unit) == ("mm", "mm", "in")
    assert small.to_table(1000) == pytest.approx(85)
    assert medium.to_table(1000) == pytest.approx(170)
    assert large.to_table(1000) == pytest.approx(10.5)
    # the surviving table's nautical-mile and 1000-yard rows
    assert round(small.to_table(1852)) == 157
    assert round(medium.to_table(1852) / 10) == 31
    assert large.to_table(1852) == pytest.approx(19.5, abs=0.1)
    assert round(small.to_table(914.4)) == 78
    assert round(medium.to_table(914.4) / 10) == 16
    assert {s.model_scale for s in SCALES.values()} >= {"1/6000", "1/1200"}
    assert all(s.reconstructed for s in SCALES.values())


@pytest.mark.parametrize("name", sorted(SCALES))
def test_REF_BF6_01_four_brackets_and_max_range_in_every_scale(name: str) -> None:
    """Four equal brackets; half range divides the 2nd and 3rd; the 4th ends at max range
    (BF6-GUN-04); beyond it no bracket."""
    s = SCALES[name]
    assert s.max_range_m == pytest.approx(4 * s.bracket_m)
    assert s.bracket(0) == 1
    assert s.bracket(s.bracket_m) == 1
    assert s.bracket(s.bracket_m + 0.01) == 2
    assert s.bracket(s.max_range_m / 2) == 2
    assert s.bracket(s.max_range_m / 2 + 0.01) == 3
    assert s.bracket(s.max_range_m) == 4
    assert s.bracket(s.max_range_m + 0.01) is None
    with pytest.raises(ValueError):
        s.bracket(-1)


def test_turn_length_converts_knots_to_distance_per_turn() -> None:
    """A 3-minute turn: 20 knots run one nautical mile per turn."""
    s = SCALES["small"]
    assert s.turn_minutes == 3
    assert s.knots_to_m_per_turn(20) == pytest.approx(1852)
    assert s.m_per_turn_to_knots(1852) == pytest.approx(20)


def test_base_sizes_by_type_convert_from_table_units() -> None:
    small, large = SCALES["small"], SCALES["large"]
    length, width = small.base_size_m(make_class())
    assert (length, width) == pytest.approx((25 / 85 * 1000, 8 / 85 * 1000))
    tb = small.base_size_m(make_class(ShipType.TORPEDO_BOAT))
    assert tb[0] < length and tb[1] < width
    assert large.base_size_m(make_class()) == pytest.approx((5.0 / 10.5 * 1000, 1.25 / 10.5 * 1000))
    for s in SCALES.values():
        for t in ShipType:
            lo, wi = s.base_size_m(make_class(t))
            assert 0 < wi <= lo


def test_default_turning_circles_by_type() -> None:
    s = SCALES["small"]
    assert s.default_turning_circle_m(ShipType.TORPEDO_BOAT) < s.default_turning_circle_m(
        ShipType.BATTLESHIP
    )


@given(st.floats(0, 50_000), st.sampled_from(sorted(SCALES)))
def test_same_battle_at_every_scale_metres_round_trip(metres: float, name: str) -> None:
    """Everything internal is metres; table units only convert at the edges."""
    s = SCALES[name]
    assert s.from_table(s.to_table(metres)) == pytest.approx(metres, abs=1e-6)
    assert s.bracket(metres) == SCALES["small"].bracket(metres)


def test_user_entered_distances() -> None:
    small, large = SCALES["small"], SCALES["large"]
    assert small.parse("85") == pytest.approx(1000)
    assert small.parse("85mm") == pytest.approx(1000)
    assert small.parse("8.5 cm") == pytest.approx(1000)
    assert small.parse("1.2km") == pytest.approx(1200)
    assert large.parse("10.5") == pytest.approx(1000)
    assert large.parse('10.5"') == pytest.approx(1000)
    assert large.parse("1200 m") == pytest.approx(1200)
    assert small.fmt(1000) == "85 mm"
    assert large.fmt(1000) == "10.5 in"
    with pytest.raises(ValueError, match="cannot read"):
        small.parse("far")


def test_get_scale_by_name_and_unknown_name() -> None:
    assert get_scale("small").units_per_km == 85
    with pytest.raises(UnknownNameError, match="scale 'tiny'"):
        get_scale("tiny")


GOOD = (Path(__file__).parents[3] / "src/battleline/rulesets/bf1900/data/scales.toml").read_text()


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "scales.toml"
    p.write_text(text)
    return p


def test_user_file_replaces_the_built_in_table(tmp_path: Path) -> None:
    text = GOOD.replace("bracket_m = 2500.0", "bracket_m = 3000.0").replace(
        "max_range_m = 10000.0", "max_range_m = 12000.0"
    )
    scales = load_scales(write(tmp_path, text))
    assert scales["small"].max_range_m == 12000
    assert get_scale("large", write(tmp_path, text)).bracket(3001) == 2
    assert load_scales()["small"].max_range_m == 10000  # the built-in file is untouched


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("units_per_km = 85.0", "units_per_km = -85.0", "units_per_km"),
        ("units_per_km = 85.0", "", "units_per_km"),
        ('table_unit = "in"', 'table_unit = "furlong"', "table_unit"),
        ("max_range_m = 10000.0", "max_range_m = 9000.0", "max_range_m"),
        ("TB = [10.0, 4.0]", "", "TB"),
        ("TB = [10.0, 4.0]", "TB = [4.0, 10.0]", "TB"),
        ("TB = [10.0, 4.0]", 'TB = [10.0, "wide"]', "TB"),
        ("TB = 300.0", "TB = 0", "TB"),
        ("engine_steering_factor = 3.0", "engine_steering_factor = 0.5", "engine_steering_factor"),
        ("reconstructed = true", 'reconstructed = "yes"', "reconstructed"),
        ("min_move_fraction = 0.5", "min_move_fraction = 1.5", "min_move_fraction"),
    ],
)
def test_malformed_scales_file_names_the_field(
    tmp_path: Path, old: str, new: str, field: str
) -> None:
    assert old in GOOD
    with pytest.raises(RulesDataError) as info:
        load_scales(write(tmp_path, GOOD.replace(old, new, 1)))
    assert info.value.field == field
    assert "scales.toml" in str(info.value)


def test_unreadable_or_invalid_toml_is_a_rules_data_error(tmp_path: Path) -> None:
    with pytest.raises(RulesDataError, match="not valid TOML"):
        load_scales(write(tmp_path, "[scales\n"))
    with pytest.raises(RulesDataError, match="cannot read"):
        load_scales(tmp_path / "missing.toml")


def test_scale_is_frozen() -> None:
    s = SCALES["small"]
    with pytest.raises(AttributeError):
        s.units_per_km = 1.0  # type: ignore[misc]
    assert math.isclose(s.from_table(85), 1000)
