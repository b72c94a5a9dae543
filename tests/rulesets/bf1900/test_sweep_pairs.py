"""The collision sweep's pair filter (``collisions._Sweep._may_meet``): a pair it drops is never
near at any sub-step, so the broad phase finds the same pairs (BF6-MOV-01/05 collisions)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.collisions import _Sweep
from battleline.rulesets.bf1900.movement import Leg, trace

legs = st.lists(
    st.one_of(
        st.builds(lambda d: Leg("straight", d), st.floats(0, 1500)),
        st.builds(lambda t: Leg("turn", turn_deg=t), st.floats(-200, 200)),
    ),
    min_size=1,
    max_size=3,
)
ship = st.tuples(
    legs,
    st.floats(-3000, 3000),
    st.floats(-3000, 3000),
    st.floats(0, 360, exclude_max=True),
    st.floats(0, 1500),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(ship, min_size=2, max_size=8), st.integers(1, 60))
def test_dropped_pairs_are_never_near(
    ships: list[tuple[list[Leg], float, float, float, float]], n_steps: int
) -> None:
    """Every pair the circle test finds near, at any pair of sub-steps, is kept."""
    tracks = [
        trace("S", Pose(x, y, h), steps, 300.0, allowance) for steps, x, y, h, allowance in ships
    ]
    n = len(tracks)
    sweep = _Sweep(tracks, np.full(n, 120.0), np.full(n, 20.0), n_steps, ())
    for a in range(n):
        for b in range(a + 1, n):
            dx = sweep.x[a][:, None] - sweep.x[b][None, :]
            dy = sweep.y[a][:, None] - sweep.y[b][None, :]
            if np.any(dx * dx + dy * dy <= sweep.reach2[a, b]):
                assert sweep.upper[a, b]
            assert not sweep.upper[b, a]


def test_far_apart_pair_is_dropped() -> None:
    """Two ships steaming apart, miles from each other, are never tested."""
    tracks = [
        trace("A", Pose(0.0, 0.0, 0.0), [Leg("straight", 500.0)], 300.0, 500.0),
        trace("B", Pose(9000.0, 0.0, 90.0), [Leg("straight", 500.0)], 300.0, 500.0),
        trace("C", Pose(0.0, 100.0, 0.0), [Leg("straight", 500.0)], 300.0, 500.0),
    ]
    sweep = _Sweep(tracks, np.full(3, 120.0), np.full(3, 20.0), 10, ())
    assert not sweep.upper[0, 1] and not sweep.upper[1, 2]
    assert sweep.upper[0, 2]
