"""TGD ship cards and battery notation (TGD-CARD-01..03, EX-TGD-01, REF-TGD-01)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.errors import OrderSyntaxError, RulesDataError, UnknownNameError
from battleline.rulesets.tgd.card import (
    ARC_CODES,
    Battery,
    card_names,
    format_battery,
    load_card,
    parse_battery,
)


def test_TGD_CARD_01_first_box_is_type_number_and_name() -> None:
    assert load_card("Pelayo").title == "BB1 Pelayo"
    assert load_card("iowa").title == "BB4 Iowa"


def test_TGD_CARD_02_three_gun_columns_primary_secondary_tertiary() -> None:
    """TGD-CARD-02."""
    pelayo = load_card("Pelayo")
    assert len(pelayo.columns) == 3
    assert pelayo.column_text(1) == "f 6x1, a 6x1, ff 2x1"
    assert pelayo.column_text(2) == "fp 5x1, fs 5x1"
    assert pelayo.column_text(3) == "p 1x6, s 1x6"


def test_REF_TGD_01_pelayo_card_keeps_every_known_value() -> None:
    pelayo = load_card("Pelayo")
    assert (pelayo.ship_type, pelayo.number, pelayo.speed, pelayo.nation) == (
        "BB",
        1,
        16,
        "spanish",
    )
    assert pelayo.strengths() == [6, 5, 2, 1]
    assert pelayo.reconstructed  # armour and boxes are ours


def test_EX_TGD_01_column_three_is_two_batteries_of_six_strength_one_guns() -> None:
    """TGD-CARD-03: 'p 1x6' and 's 1x6' are two batteries of six strength-1 guns each."""
    column = load_card("Pelayo").columns[2]
    assert column == (Battery("p", 1, 6), Battery("s", 1, 6))
    assert sum(b.guns for b in column) == 12
    assert {b.strength for b in column} == {1}


def test_TGD_CARD_03_battery_notation_parses_with_or_without_spaces() -> None:
    assert parse_battery("fp 5x1") == Battery("fp", 5, 1)
    assert parse_battery("FP5×1") == Battery("fp", 5, 1)
    assert parse_battery(" p+ 3 x 2 ") == Battery("p+", 3, 2)
    assert parse_battery("ff 2x1").max_range == 20


@pytest.mark.parametrize("text", ["fp 5", "zz 5x1", "f 0x1", "f 6x0", "6x1", ""])
def test_TGD_CARD_03_bad_battery_notation_names_the_ship_and_rule(text: str) -> None:
    with pytest.raises(OrderSyntaxError, match=r"Pelayo: battery .*TGD-"):
        parse_battery(text, ship="Pelayo")


@given(
    arc=st.sampled_from(ARC_CODES),
    strength=st.integers(1, 12),
    guns=st.integers(1, 20),
)
def test_EX_TGD_01_battery_notation_round_trips(arc: str, strength: int, guns: int) -> None:
    battery = Battery(arc, strength, guns)
    assert parse_battery(format_battery(battery)) == battery
    assert str(battery) == f"{arc} {strength}x{guns}"


def test_AMB_67_pelayo_has_two_strength_5_guns() -> None:
    """The seed's "has to strength five guns" reads as two strength-5 guns, one fp and one fs."""
    assert load_card("Pelayo").columns[1] == (Battery("fp", 5, 1), Battery("fs", 5, 1))


def test_every_packaged_card_loads_for_each_nation() -> None:
    names = card_names()
    assert {"Pelayo", "Infanta Maria Teresa", "Dingyuan", "Iowa", "Oregon", "Mikasa"} <= set(names)
    nations = {load_card(n).nation for n in names}
    assert nations == {"spanish", "chinese", "russian", "us", "japanese"}
    for name in names:
        card = load_card(name)
        assert len(card.armour) == 6
        assert card.hull_ends >= 1 and card.hull_centre >= 1


def test_unknown_card_suggests_names() -> None:
    with pytest.raises(UnknownNameError, match="Pelayo"):
        load_card("Pelay")


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "ship.toml"
    path.write_text(body, encoding="utf-8")
    return path


GOOD = """
name = "Test"
type = "CA"
number = 2
nation = "us"
speed = 20
columns = [["f 4x1"], [], ["c 1x2"]]
armour = [1, 1, 0, 0, 1, 2]
superstructure = "SF"
hull_ends = 1
hull_centre = 2
"""


def test_user_card_file_loads(tmp_path: Path) -> None:
    card = load_card(_write(tmp_path, GOOD))
    assert card.title == "CA2 Test"
    assert card.columns[1] == ()


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("armour = [1, 1, 0, 0, 1, 2]", "armour = [1, 1]", "armour"),
        ('superstructure = "SF"', 'superstructure = "SX"', "superstructure"),
        ('columns = [["f 4x1"], [], ["c 1x2"]]', 'columns = [["f 4y1"], [], []]', "columns[0]"),
        ("columns = [", "columns = [[], ", "columns"),
        ("hull_ends = 1", "hull_ends = 0", "hull_ends"),
        ("speed = 20", 'speed = "fast"', "speed"),
    ],
)
def test_malformed_card_raises_rules_data_error(
    tmp_path: Path, old: str, new: str, field: str
) -> None:
    with pytest.raises(RulesDataError) as info:
        load_card(_write(tmp_path, GOOD.replace(old, new)))
    assert info.value.field == field
    assert info.value.table == "card"
