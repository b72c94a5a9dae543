"""The torpedo arc test with its arcs prepared once equals the plain ``in_arc`` loop
(BF6-TORP-09, BF6-TORP-10, AMB-19)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.geometry import in_arc
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.ship import TorpedoMount
from battleline.rulesets.bf1900.torpedoes import LAUNCH_ARCS, Arc, bearing_arc, launch_arcs

_EDGES = sorted({edge + d for arcs in LAUNCH_ARCS.values() for arc in arcs for edge in arc
                 for d in (-1e-9, -5e-10, 0.0, 5e-10, 1e-9, 360.0, -360.0)})  # fmt: skip
_THETAS = st.sampled_from(_EDGES) | st.floats(-720.0, 720.0, allow_nan=False)


def _reference(mount: TorpedoMount, theta: float) -> Arc | None:
    for arc in launch_arcs(mount):
        if in_arc(theta, *arc):
            return arc
    return None


@given(st.sampled_from(sorted(LAUNCH_ARCS)), _THETAS)
def test_bearing_arc_equals_the_in_arc_loop(position: str, theta: float) -> None:
    """BF6-TORP-09/10: the same arc (or none) for any bearing, edges included (AMB-15)."""
    mount = TorpedoMount("t", 2, position, 3)
    assert bearing_arc(mount, theta) == _reference(mount, theta)


def test_bearing_arc_of_an_unknown_position_is_still_an_error() -> None:
    with pytest.raises(IllegalOrderError, match="unknown position"):
        bearing_arc(TorpedoMount("k", 1, "keel", 4), 0.0)


def test_launch_arcs_cannot_be_changed_under_the_prepared_copy() -> None:
    with pytest.raises(TypeError):
        LAUNCH_ARCS["bow"] = ((0.0, 10.0),)  # type: ignore[index]
