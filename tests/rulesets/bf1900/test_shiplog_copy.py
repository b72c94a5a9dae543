"""The ship log's fast copy and derived values against slow references (BF6-DMG-01, REF-BF6-05).

``ShipLog.copy`` is written out field by field for speed; these tests make sure no field is
forgotten, nothing mutable is shared, and that the quicker ``speed_knots``, ``dc_dice`` and
``guns_in_action`` give what the plain formulas give, on hypothesis-generated damaged logs.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, ShipClass
from battleline.rulesets.bf1900.shiplog import (
    CompartmentState,
    Mark,
    PositionState,
    PropulsionBoxes,
    RudderState,
    ShipLog,
    SinkingState,
)
from conftest import FakeUneven, cruiser, destroyer, lozenge, majestic, make_log

_CLASSES = (majestic, lozenge, cruiser, destroyer)
#: Values that are immutable and may be shared between a log and its copy.
_IMMUTABLE = (str, int, float, bool, tuple, frozenset, type(None), ShipClass, FakeUneven)

marks = st.sampled_from(list(Mark))


@st.composite
def damaged_logs(draw: st.DrawFn) -> ShipLog:
    """A log of one of the test classes with random marks in every area."""
    log = make_log(draw(st.sampled_from(_CLASSES))())
    p = log.propulsion
    p.destroyed = draw(st.integers(0, len(p.speeds)))
    p.damaged = draw(st.integers(0, len(p.speeds) - p.destroyed))
    p.margin = draw(st.integers(0, 3))
    log.dc_boxes = [draw(marks) for _ in log.dc_boxes]
    for state in log.compartments.values():
        state.level = draw(st.sampled_from(list(FloodLevel)))
        state.contained = draw(st.booleans())
        state.counterflooded = draw(st.booleans())
    for pos in log.positions.values():
        pos.slashes = draw(st.integers(0, 3))
        pos.destroyed = draw(st.booleans())
        pos.magazine_flooded = draw(st.booleans())
    for key, boxes in log.batteries.items():
        log.batteries[key] = [draw(marks) for _ in boxes]
    for key in log.torpedoes_left:
        log.torpedoes_left[key] = draw(st.integers(0, 4))
    log.searchlights = [draw(marks) for _ in log.searchlights]
    log.fires_external = draw(st.integers(0, 3))
    log.fires_internal = draw(st.integers(0, 3))
    log.tr_hits = draw(st.integers(0, 4))
    log.rudder = draw(st.sampled_from(list(RudderState)))
    if draw(st.booleans()):
        log.sinking = SinkingState(draw(st.integers(1, 4)), draw(st.booleans()))
    log.sunk = draw(st.booleans())
    log.surrendered = draw(st.booleans())
    log.rof_half_fired_last_turn = set(draw(st.lists(st.sampled_from(["A", "Z", "sec"]))))
    log.counterflood_locked = set(draw(st.lists(st.sampled_from(list(Compartment)))))
    for axis in draw(st.lists(st.sampled_from(["side", "fore_aft"]), unique=True)):
        log.uneven[axis] = FakeUneven(
            axis, 1, speed_boxes=draw(st.integers(0, 3)), dc_boxes=draw(st.integers(0, 3))
        )
    return log


def _assert_independent(a: Any, b: Any, where: str) -> None:
    """``b`` equals ``a`` and shares no mutable object with it, however deep."""
    assert type(a) is type(b), where
    if isinstance(a, _IMMUTABLE):
        assert a == b, where
        return
    assert a is not b, f"{where} is shared"
    if isinstance(a, dict):
        assert list(a) == list(b), where
        for k in a:
            _assert_independent(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _assert_independent(x, y, f"{where}[{i}]")
    elif isinstance(a, set):
        assert a == b, where
    else:
        for name in type(a).__slots__:
            _assert_independent(getattr(a, name), getattr(b, name), f"{where}.{name}")


@given(damaged_logs())
def test_copy_copies_every_field_and_shares_nothing_mutable(log: ShipLog) -> None:
    """Every slot of the log (and of its boxes) is in the copy; only immutable values are
    shared, so marking the copy never marks the original (BF6-DMG-01)."""
    new = log.copy()
    _assert_independent(log, new, "log")
    assert new.to_dict() == log.to_dict()
    assert new == log


@given(damaged_logs())
def test_copy_equals_a_deepcopy(log: ShipLog) -> None:
    """The hand-written copy gives what ``copy.deepcopy`` gives (the class aside, shared)."""
    new = log.copy()
    deep = copy.deepcopy(log)
    assert new == deep
    assert new.cls is log.cls


def test_each_box_record_copies_itself() -> None:
    """The small records' own ``copy`` methods: equal, independent."""
    records: list[Any] = [
        PropulsionBoxes((18.0, 15.0, 10.0), 1, 1, 2),
        PositionState(2, True, True),
        CompartmentState(FloodLevel.HEAVY, True, True),
        SinkingState(2, True),
    ]
    for record in records:
        twin = record.copy()
        assert twin == record and twin is not record
        assert type(twin) is type(record)


def test_a_copy_of_a_fresh_log_is_a_fresh_log() -> None:
    """A copy made without ``__init__`` still equals a newly built log (BF6-GEN-04)."""
    for make in _CLASSES:
        log = make_log(make())
        assert log.copy() == ShipLog(log.name, log.cls)


def _speed_reference(log: ShipLog) -> float:
    """BF6-SINK-03, BF6-MOV-01: the plain formula ``speed_knots`` must equal."""
    if log.sinking or log.sunk:
        return 0.0
    p = log.propulsion
    index = p.destroyed + p.damaged + sum(e.speed_boxes for e in log.uneven.values())
    return p.speeds[index] if index < len(p.speeds) else 0.0


@given(damaged_logs())
def test_speed_knots_matches_the_plain_formula(log: ShipLog) -> None:
    """BF6-MOV-01, BF6-SINK-03, BF6-DMG-11: top undamaged box, moved down by uneven flooding,
    zero when sinking or sunk."""
    assert log.speed_knots == _speed_reference(log)


@given(damaged_logs())
def test_dc_dice_matches_the_plain_formula(log: ShipLog) -> None:
    """BF6-DC-04: unmarked DC boxes less those lost to uneven flooding, never below zero."""
    unmarked = sum(1 for m in log.dc_boxes if m is Mark.NONE)
    lost = sum(e.dc_boxes for e in log.uneven.values())
    assert log.dc_dice == max(0, unmarked - lost)


@given(damaged_logs())
def test_guns_in_action_matches_the_plain_formula(log: ShipLog) -> None:
    """BF6-LET-02, BF6-REP-03: a lettered position fires all its guns only when in action; a
    battery fires its unmarked boxes."""
    for mount in log.cls.mountings:
        if mount.is_lettered:
            expected = mount.guns if log.positions[mount.key].in_action else 0
        else:
            expected = sum(1 for m in log.batteries[mount.key] if m is Mark.NONE)
        assert log.guns_in_action(mount.key) == expected
