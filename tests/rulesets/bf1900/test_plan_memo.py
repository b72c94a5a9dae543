"""The memo of division plans (``command.plan_division_move``): a remembered plan is the plan
made afresh, its BF6-CMD-09 notes are emitted on every call, and every input the plan reads
changes the key."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900 import command
from battleline.rulesets.bf1900.command import DivisionPlan, plan_division_move
from battleline.rulesets.bf1900.divisions import Division, Formation, station_poses
from battleline.rulesets.bf1900.notation import parse_orders
from battleline.rulesets.bf1900.scales import load_scales
from battleline.rulesets.bf1900.shiplog import RudderState, ShipLog
from conftest import plain_class

SMALL = load_scales()["small"]
KN15 = SMALL.knots_to_m_per_turn(15)
CLS = plain_class(propulsion_knots=(18.0, 15.0, 12.0, 9.0, 6.0, 3.0), turning_circle_m=600.0)

SHIPS = ("A", "B", "C")


def _setup(
    formation: Formation = Formation.LINE_AHEAD, heading: float = 0.0, last: float = KN15
) -> tuple[Division, dict[str, Pose], dict[str, ShipLog], dict[str, float]]:
    poses = dict(zip(SHIPS, station_poses(Pose(0, 0, heading), 3, formation, 600.0), strict=True))
    logs = {s: ShipLog(s, CLS, side="blue") for s in SHIPS}
    division = Division("1st", "blue", SHIPS, formation=formation, interval_m=600.0)
    return division, poses, logs, {s: last for s in SHIPS}


def _fresh(*args: object) -> DivisionPlan:
    """The plan made without the memo."""
    division, orders, poses, logs, scale, last = args
    return command._make_plan(
        division,  # type: ignore[arg-type]
        tuple(orders),  # type: ignore[call-overload]
        poses,  # type: ignore[arg-type]
        logs,  # type: ignore[arg-type]
        scale,  # type: ignore[arg-type]
        last,  # type: ignore[arg-type]
        None,
        [],
    )


@pytest.fixture(autouse=True)
def _empty_memo() -> None:
    command._plan_memo.clear()


@settings(max_examples=40, deadline=None)
@given(
    text=st.sampled_from(["", "TS90S", "TT45P", "SPD12 TS45P TT90S", "STOP", "TS30S TS30S"]),
    heading=st.floats(0.0, 359.0),
    last=st.floats(0.9 * KN15, KN15),
)
def test_remembered_plan_equals_the_fresh_plan(text: str, heading: float, last: float) -> None:
    """BF6-CMD-04..15: the second call returns what a fresh planning gives."""
    command._plan_memo.clear()
    division, poses, logs, moves = _setup(heading=heading, last=last)
    orders = parse_orders(text)
    first = plan_division_move(division, orders, poses, logs, SMALL, moves)
    again = plan_division_move(division, list(orders), dict(poses), logs, SMALL, dict(moves))
    assert again is first
    assert again == _fresh(division, orders, poses, logs, SMALL, moves)


def test_BF6_CMD_09_note_emitted_on_every_call() -> None:
    """A turn in succession out of line ahead is announced each time the move is planned."""
    division, poses, logs, moves = _setup(Formation.LINE_ABREAST_STARBOARD)
    orders = parse_orders("TS90P")
    for _ in range(2):
        events = EventLog()
        plan_division_move(division, orders, poses, logs, SMALL, moves, events)
        texts = [e.text for e in events.of_kind(EventKind.COMMAND)]
        assert len(texts) == 1 and "carried out as a turn together" in texts[0]
    assert len(command._plan_memo) == 1


def _rudder(logs: dict[str, ShipLog], poses: dict[str, Pose], moves: dict[str, float]) -> None:
    logs["B"].rudder = RudderState.JAMMED_PORT


def _tr_hit(logs: dict[str, ShipLog], poses: dict[str, Pose], moves: dict[str, float]) -> None:
    logs["A"].tr_hits = 1


def _box(logs: dict[str, ShipLog], poses: dict[str, Pose], moves: dict[str, float]) -> None:
    logs["C"].propulsion.damaged = 2


def _pose(logs: dict[str, ShipLog], poses: dict[str, Pose], moves: dict[str, float]) -> None:
    poses["C"] = Pose(poses["C"].x, poses["C"].y - 200.0, poses["C"].heading)


def _last(logs: dict[str, ShipLog], poses: dict[str, Pose], moves: dict[str, float]) -> None:
    moves["A"] = KN15 / 2


def _missing(logs: dict[str, ShipLog], poses: dict[str, Pose], moves: dict[str, float]) -> None:
    del moves["A"]


@pytest.mark.parametrize("change", [_rudder, _tr_hit, _box, _pose, _last, _missing])
def test_every_input_changes_the_plan(change: object) -> None:
    """After a change to what the plan reads, the plan is made afresh (BF6-MOV-01/03/05)."""
    division, poses, logs, moves = _setup()
    orders = parse_orders("TS90S")
    before = plan_division_move(division, orders, poses, logs, SMALL, moves)
    change(logs, poses, moves)  # type: ignore[operator]
    after = plan_division_move(division, orders, poses, logs, SMALL, moves)
    assert after == _fresh(division, orders, poses, logs, SMALL, moves)
    assert after != before
    assert len(command._plan_memo) == 2


def test_another_scale_is_not_served_the_remembered_plan() -> None:
    """The scale is part of what the plan reads (BF6-MOV-01 converts boxes with it)."""
    division, poses, logs, moves = _setup()
    orders = parse_orders("TS90S")
    plan_division_move(division, orders, poses, logs, SMALL, moves)
    slow = dataclasses.replace(SMALL, turn_minutes=SMALL.turn_minutes * 2)
    plan = plan_division_move(division, orders, poses, logs, slow, moves)
    assert plan == _fresh(division, orders, poses, logs, slow, moves)


def test_BF6_MOV_03_refused_plan_is_not_remembered() -> None:
    """An order the rules refuse raises on every call."""
    division, poses, logs, moves = _setup(last=0.0)
    orders = parse_orders("SPD15")
    for _ in range(2):
        with pytest.raises(IllegalOrderError, match="BF6-MOV-03"):
            plan_division_move(division, orders, poses, logs, SMALL, moves)
    assert not command._plan_memo


def test_memo_is_bounded() -> None:
    """At most ``PLAN_MEMO_SIZE`` plans are kept."""
    division, poses, logs, _ = _setup()
    for k in range(command.PLAN_MEMO_SIZE + 5):
        plan_division_move(division, (), poses, logs, SMALL, {s: k for s in SHIPS})
    assert len(command._plan_memo) == command.PLAN_MEMO_SIZE
