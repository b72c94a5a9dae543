"""The web forms' notation (``web_compose``) reads back as the orders the form gave:
parse(print(x)) == x for every phase's form, with hypothesis."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.rulesets.bf1900.damage.declarations import parse_declarations
from battleline.rulesets.bf1900.gunnery_log import GunneryEntry
from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.bf1900.notation import (
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
    parse_orders,
)
from battleline.rulesets.bf1900.torpedoes import TorpedoLaunch
from battleline.rulesets.bf1900.web_compose import compose, field_of

NAMES = st.sampled_from(["Yoshino", "Kaiser Friedrich III", "Fuji", "Ting Yuen"])
SIDES = st.sampled_from(["P", "S"])


@st.composite
def division_form(draw: st.DrawFn) -> tuple[dict[str, Any], list[Order]]:
    """A filled division form and the orders it means, in the order the form writes them."""
    expect: list[Order] = []
    form: dict[str, Any] = {}
    if draw(st.booleans()):
        form["flag"] = draw(NAMES)
        expect.append(TransferFlag(form["flag"]))
    if draw(st.booleans()):
        ship, side = draw(NAMES), draw(st.none() | SIDES)
        form["drop"] = {"ship": ship, "side": side}
        expect.append(DropOut(ship, None if side is None else Direction(side)))
    if draw(st.booleans()):
        tenths = draw(st.integers(0, 300))
        form["speed"] = str(tenths / 10)
        expect.append(SetSpeed(tenths / 10))
    form["turns"] = []
    for _ in range(draw(st.integers(0, 3))):
        mode, deg, side = (
            draw(st.sampled_from(["TS", "TT"])),
            draw(st.integers(1, 360)),
            draw(SIDES),
        )
        form["turns"].append({"mode": mode, "degrees": deg, "side": side})
        kind = TurnTogether if mode == "TT" else TurnInSuccession
        expect.append(kind(deg, Direction(side)))
    form["stop"] = draw(st.booleans())
    if form["stop"]:
        expect.append(Stop())
    if draw(st.booleans()):
        message = draw(st.sampled_from(list(FleetMessage)))
        side = draw(SIDES) if message.turn_deg is not None else None
        form["signal"] = {"message": message.value, "side": side}
        expect.append(Signal(message, None if side is None else Direction(side)))
    return form, expect


@settings(max_examples=150, deadline=None)
@given(division_form())
def test_command_form_reads_back_as_its_orders(case: tuple[dict[str, Any], list[Order]]) -> None:
    form, expect = case
    made = compose("command", {"divisions": {"1st Division": form}})
    assert made.problems == []
    if not expect:
        assert made.lines == []
        return
    (line,) = made.lines
    name, _, text = line.partition(": ")
    assert name == "1st Division" and made.fields == ["command/1st Division"]
    assert parse_orders(text) == tuple(expect)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 20_000),
    st.sampled_from(list(Ammo)),
    st.dictionaries(
        st.sampled_from(["A", "Z", "sec", "boat", "P"]), st.integers(1, 22), min_size=1
    ),
)
def test_gunnery_form_reads_back_as_its_entry(
    estimate: int, ammo: Ammo, rounds: dict[str, int]
) -> None:
    made = compose(
        "gunnery",
        {
            "ships": {
                "Fuji": {
                    "targets": [
                        {
                            "target": "Ting Yuen",
                            "estimate": estimate,
                            "ammo": ammo.value,
                            "rounds": rounds,
                        }
                    ]
                }
            }
        },
    )
    (line,) = made.lines
    entry = GunneryEntry.parse(line)
    assert entry == GunneryEntry("Fuji", "Ting Yuen", float(estimate), ammo, tuple(rounds.items()))
    assert made.fields == ["gunnery/Fuji/Ting Yuen"]


@given(NAMES, st.sampled_from(["bow", "beam", "stern"]), NAMES, st.integers(1, 6))
def test_torpedo_form_reads_back_as_its_launch(firer: str, mount: str, target: str, n: int) -> None:
    made = compose(
        "torpedo",
        {"ships": {firer: {"launches": [{"mount": mount, "target": target, "count": n}]}}},
    )
    (line,) = made.lines
    assert TorpedoLaunch.parse(line) == TorpedoLaunch(firer, mount, target, n)


@given(
    st.dictionaries(
        st.sampled_from(["P", "BR", "M:A", "HVY:forward", "CF:port amidships=heavy", "SINK-1"]),
        st.integers(0, 3),
        min_size=1,
    )
)
def test_damage_form_reads_back_as_its_declarations(counts: dict[str, int]) -> None:
    made = compose("damage", {"ships": {"Fuji": counts}})
    wanted = [code for code, n in counts.items() for _ in range(n)]
    if not wanted:
        assert made.lines == []
        return
    (line,) = made.lines
    ship, _, text = line.partition(": ")
    assert ship == "Fuji"
    assert [d.text for d in parse_declarations(ship, text)] == wanted


def test_bad_fields_are_named_not_raised() -> None:
    made = compose(
        "gunnery",
        {
            "ships": {
                "Fuji": {
                    "targets": [{"target": "Ting Yuen", "estimate": "far", "rounds": {"A": 2}}]
                }
            }
        },
    )
    assert made.lines == [] and made.problems == [
        ("gunnery/Fuji/Ting Yuen/estimate", "range estimate: give your estimate in metres")
    ]
    assert compose("command", {"divisions": "nonsense"}).lines == []
    assert compose("tgd-step-1", {}).problems[0][0] == "tgd-step-1"


def test_problems_go_to_the_field_the_message_names() -> None:
    base = "gunnery/Fuji/Ting Yuen"
    msg = "turn 1, gunnery: Fuji firing at Ting Yuen: mounting sec cannot bear (BF6-BEAM-03)"
    assert field_of(base, msg) == f"{base}/rounds/sec"
    assert field_of("command/1st", "division '1st': SPD30 is faster (BF6-MOV-01)") == (
        "command/1st/speed"
    )
    stop = "division '1st': STOP cannot be combined with SPD12 TS90S (BF6-CMD-14)"
    assert field_of("command/1st", stop) == "command/1st/stop"
    dc = "Fuji: damage control CF:port amidships=heavy: not opposite (BF6-CF-04, AMB-31)"
    assert field_of("damage/Fuji", dc) == "damage/Fuji/CF:port amidships=heavy"
    assert field_of("damage/Fuji", "Fuji: damage control P: nothing to address (BF6-DC-02)") == (
        "damage/Fuji/P"
    )
