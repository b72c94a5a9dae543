"""The order notation: parse and print alike (BF6-CMD-05..08, 13..17, 19, 25..32)."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.errors import OrderSyntaxError
from battleline.rulesets.bf1900 import notation
from battleline.rulesets.bf1900.notation import (
    Arrow,
    Direction,
    DropOut,
    FleetMessage,
    Order,
    SetSpeed,
    Signal,
    Stop,
    TransferFlag,
    TurnInSuccession,
    TurnTogether,
    arrow_class,
    format_orders,
    parse_orders,
)


def test_docstring_examples_hold() -> None:
    result = doctest.testmod(notation)
    assert result.attempted >= 8 and result.failed == 0


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("TS90S", TurnInSuccession(90, Direction.STARBOARD)),
        ("TT45P", TurnTogether(45, Direction.PORT)),
        ("STOP", Stop()),
        ("SPD12", SetSpeed(12)),
        ("SPD12.5", SetSpeed(12.5)),
        ("SIG ENGAGE", Signal(FleetMessage.ENGAGE)),
        ("SIG TURN16 S", Signal(FleetMessage.TURN16, Direction.STARBOARD)),
        ("SIG TURN8 P", Signal(FleetMessage.TURN8, Direction.PORT)),
        ("SIG FOLLOW", Signal(FleetMessage.FOLLOW)),
        ("SIG TORPEDO", Signal(FleetMessage.TORPEDO)),
        ("SIG RECALL", Signal(FleetMessage.RECALL)),
        ("SIG SURRENDER", Signal(FleetMessage.SURRENDER)),
        ("DROP Kaiser", DropOut("Kaiser")),
        ("DROP Kaiser P", DropOut("Kaiser", Direction.PORT)),
        ('DROP "Kaiser Friedrich III"', DropOut("Kaiser Friedrich III")),
        ("FLAG Fuji", TransferFlag("Fuji")),
        ('FLAG "Tri Sviatitelia"', TransferFlag("Tri Sviatitelia")),
    ],
)
def test_each_order_reads_and_writes_its_text(text: str, order: Order) -> None:
    assert Order.parse(text) == order
    assert str(order) == text
    assert repr(order) == f"Order.parse({text!r})"


def test_reading_ignores_case_and_accepts_commas() -> None:
    """Several orders, left to right (BF6-CMD-15)."""
    orders = parse_orders("spd14, ts90s  tt45p,sig turn16s")
    assert orders == (
        SetSpeed(14),
        TurnInSuccession(90, Direction.STARBOARD),
        TurnTogether(45, Direction.PORT),
        Signal(FleetMessage.TURN16, Direction.STARBOARD),
    )
    assert format_orders(orders) == "SPD14 TS90S TT45P SIG TURN16 S"


def test_no_text_is_no_order() -> None:
    """Straight ahead needs no order (BF6-CMD-04)."""
    assert parse_orders("") == ()
    assert parse_orders(" , ") == ()
    assert format_orders(()) == ""


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("TS90X", "unknown token 'TS90X'"),
        ("TS0S", "1 to 360"),
        ("TT361P", "1 to 360"),
        ("SPD12.55", "tenths"),
        ("SPD", "unknown token"),
        ("SIG", "needs a message"),
        ("SIG HOORAY", "unknown fleet message 'HOORAY'"),
        ("SIG TURN16", "must name a side"),
        ("SIG TURN8 X", "expected a side P or S"),
        ("SIG ENGAGE S", "unknown token 'S'"),
        ("DROP", "needs a ship name"),
        ('FLAG "Fuji', "unbalanced double quote"),
        ('"Fuji"', "must follow DROP or FLAG"),
    ],
)
def test_bad_text_is_a_syntax_error_quoting_it(text: str, fragment: str) -> None:
    with pytest.raises(OrderSyntaxError) as err:
        parse_orders(text)
    assert f"{text!r}" in str(err.value)
    assert fragment in str(err.value)


def test_order_parse_wants_exactly_one_order() -> None:
    with pytest.raises(OrderSyntaxError, match="expected one order, found 2"):
        Order.parse("TS90S TT45P")
    with pytest.raises(OrderSyntaxError, match="found 0"):
        Order.parse("")


def test_syntax_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        Order.parse("HELLO")


@pytest.mark.parametrize(
    ("turn", "arrow"),
    [(44, Arrow.NONE), (45, Arrow.FORTY_FIVE), (89, Arrow.FORTY_FIVE), (90, Arrow.HORIZONTAL)],
)
def test_EX_DRV_01_arrow_class_boundaries(turn: int, arrow: Arrow) -> None:
    """EX-DRV-01:
    BF6-CMD-06: under 45° no arrow, 45°–<90° the 45° arrow, 90° and more horizontal."""
    assert arrow_class(turn) is arrow
    assert arrow_class(-turn) is arrow
    assert TurnInSuccession(turn, Direction.PORT).arrow is arrow


def test_arrows_are_direction_specific() -> None:
    """BF6-CMD-07: the side is part of the order; port turns are negative."""
    assert Order.parse("TS90P") != Order.parse("TS90S")
    assert TurnInSuccession(90, Direction.PORT).signed_deg == -90
    assert TurnTogether(30, Direction.STARBOARD).signed_deg == 30


def test_BF6_CMD_25_the_seven_recommended_messages() -> None:
    assert [m.wording for m in FleetMessage] == [
        "Engage Enemy",
        "Turn 16 points together",
        "Turn 8 points together",
        "Follow Me",
        "Torpedo Attack",
        "Recall",
        "We Surrender",
    ]


def test_BF6_CMD_27_28_fleet_turns_are_16_and_8_points_and_need_a_side() -> None:
    assert FleetMessage.TURN16.turn_deg == 180
    assert FleetMessage.TURN8.turn_deg == 90
    assert FleetMessage.ENGAGE.turn_deg is None
    with pytest.raises(OrderSyntaxError):
        Signal(FleetMessage.TURN8)
    with pytest.raises(OrderSyntaxError):
        Signal(FleetMessage.RECALL, Direction.PORT)


def test_movement_orders_are_told_apart_from_messages() -> None:
    """Only arrows, the dot and speed count as 'other orders' for BF6-CMD-14."""
    movement = [o.movement for o in parse_orders("TS90S TT45P STOP SPD5 SIG ENGAGE DROP A FLAG B")]
    assert movement == [True, True, True, True, False, False, False]


def test_ship_names_must_be_quotable() -> None:
    with pytest.raises(OrderSyntaxError):
        DropOut('Bad"Name')
    with pytest.raises(OrderSyntaxError):
        TransferFlag("  ")


# -- round trip ------------------------------------------------------------------------------

directions = st.sampled_from(list(Direction))
names = st.text(
    alphabet=st.characters(blacklist_characters='"', blacklist_categories=("Cs", "Cc")),
    min_size=1,
    max_size=20,
).filter(lambda s: s.strip() == s and s.strip() != "")
orders_st: st.SearchStrategy[Order] = st.one_of(
    st.builds(TurnInSuccession, st.integers(1, 360), directions),
    st.builds(TurnTogether, st.integers(1, 360), directions),
    st.just(Stop()),
    st.builds(SetSpeed, st.integers(0, 600).map(lambda t: t / 10)),
    st.builds(
        Signal,
        st.sampled_from([m for m in FleetMessage if m.turn_deg is None]),
    ),
    st.builds(Signal, st.sampled_from([FleetMessage.TURN8, FleetMessage.TURN16]), directions),
    st.builds(DropOut, names, st.none() | directions),
    st.builds(TransferFlag, names),
)


@given(orders_st)
def test_one_order_round_trips(order: Order) -> None:
    assert Order.parse(str(order)) == order
    assert str(Order.parse(str(order))) == str(order)


@given(st.lists(orders_st, max_size=6))
def test_order_lists_round_trip(orders: list[Order]) -> None:
    text = format_orders(orders)
    assert parse_orders(text) == tuple(orders)
    assert format_orders(parse_orders(text)) == text
