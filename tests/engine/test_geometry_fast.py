"""The inlined geometry helpers give bit-identical answers to their plain compositions.

``bearing``, ``Pose.bearing_to``, ``signed_angle`` and ``in_arc`` inline :func:`norm360` for speed,
``Pose.forward`` and ``Pose.offset`` inline :func:`unit`;
these properties check them against the straightforward formulas (AMB-15 inclusive arc edges).
"""

from __future__ import annotations

import math

from hypothesis import example, given
from hypothesis import strategies as st

from battleline.engine.geometry import (
    Pose,
    bearing,
    in_arc,
    norm360,
    relative_bearing,
    signed_angle,
    unit,
)

angles = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
coords = st.floats(min_value=-1e5, max_value=1e5, allow_nan=False)
tiny = st.sampled_from([0.0, -0.0, -1e-20, 1e-20, -5e-324, 360.0, -360.0, 720.0, 180.0, -180.0])


def ref_bearing(x0: float, y0: float, x1: float, y1: float) -> float:
    return norm360(math.degrees(math.atan2(x1 - x0, y1 - y0)))


def ref_signed(deg: float) -> float:
    d = norm360(deg)
    return d - 360.0 if d > 180.0 else d


def ref_in_arc(theta: float, start: float, end: float, eps: float = 1e-9) -> bool:
    width = norm360(end - start)
    if width == 0.0 and end != start:
        width = 360.0
    return norm360(theta - start) <= width + eps or norm360(theta - start) >= 360.0 - eps


@given(coords, coords, coords, coords)
@example(0.0, 0.0, -1e-300, 1.0)
@example(0.0, 0.0, 0.0, 0.0)
def test_bearing_equals_norm360_of_atan2(x0: float, y0: float, x1: float, y1: float) -> None:
    assert bearing(x0, y0, x1, y1) == ref_bearing(x0, y0, x1, y1)


@given(coords, coords, angles | tiny, coords, coords)
@example(0.0, 0.0, 0.0, -1e-300, 1.0)
def test_bearing_to_equals_relative_bearing_of_bearing(
    x: float, y: float, heading: float, px: float, py: float
) -> None:
    got = Pose(x, y, heading).bearing_to(px, py)
    assert got == relative_bearing(heading, ref_bearing(x, y, px, py))
    assert 0.0 <= got < 360.0


@given(angles | tiny)
def test_signed_angle_equals_reference(deg: float) -> None:
    assert signed_angle(deg) == ref_signed(deg)


@given(
    angles | tiny,
    angles | tiny,
    angles | tiny,
    st.sampled_from([1e-9, 0.0, -1e-9, 1e-3]),
)
@example(-1e-20, 0.0, 90.0, 1e-9)
@example(-1e-20, 10.0, 10.0, -1e-9)
@example(5.0, 10.0, 10.0, 1e-9)
@example(370.0, 10.0, 370.0, 1e-9)
def test_in_arc_equals_reference(theta: float, start: float, end: float, eps: float) -> None:
    """AMB-15: the closed clockwise arc test is unchanged by inlining norm360."""
    assert in_arc(theta, start, end, eps) == ref_in_arc(theta, start, end, eps)


@given(coords, coords, angles | tiny, coords, coords)
def test_forward_and_offset_equal_their_unit_vector_formulas(
    x: float, y: float, heading: float, ahead: float, starboard: float
) -> None:
    pose = Pose(x, y, heading)
    dx, dy = unit(heading)
    assert pose.forward(ahead) == Pose(x + dx * ahead, y + dy * ahead, heading)
    assert pose.offset(ahead, starboard) == (
        x + dx * ahead + dy * starboard,
        y + dy * ahead - dx * starboard,
    )
