"""The fast sight search of the observation model (issue 11, §4; BF6-LOS-01, BF6-LOS-02) gives
the answers of the plain one it replaced: every own ship ranked by funnel-to-funnel range, the
nearest whose line crosses no land and lies within ``visibility_m`` is the observer."""

from __future__ import annotations

import math
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_observation import SCENARIO  # same directory (pytest puts it on sys.path)

from battleline.engine.geometry import Pose
from battleline.game import new_game
from battleline.rulesets.bf1900.observation import _coasts, sighted
from battleline.rulesets.bf1900.ruleset import scale_of
from battleline.rulesets.bf1900.scenario import get_scenario
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.bf1900.table import funnel_point


def _reference(state: Bf1900State, side: str) -> dict[str, str]:
    """The search as first written: rank all own ships for every target, walk the ranking."""
    logs, scale = state.logs, scale_of(state)
    own = [n for n, log in logs.items() if log.side == side and log.afloat]
    enemy = [n for n, log in logs.items() if log.side != side and log.afloat]
    funnels = {
        n: funnel_point(state.poses[n], scale.base_size_m(logs[n].cls)[0]) for n in own + enemy
    }
    limit = get_scenario(state.scenario).visibility_m
    coasts = _coasts(state.scenario)
    out: dict[str, str] = {}
    for target in enemy:
        tx, ty = funnels[target]
        ranked = sorted(
            (math.hypot(funnels[s][0] - tx, funnels[s][1] - ty), i) for i, s in enumerate(own)
        )
        for d, i in ranked:
            if limit is not None and d > limit:
                break
            if coasts is None or not coasts.blockers_of_segment(funnels[own[i]], (tx, ty)):
                out[target] = own[i]
                break
    return out


coordinate = st.floats(-6000, 6000, allow_nan=False)
pose = st.builds(Pose, coordinate, coordinate, st.floats(0, 359.9, allow_nan=False))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(poses=st.lists(pose, min_size=6, max_size=6), visibility=st.sampled_from(["", 3000]))
def test_the_fast_search_finds_the_observer_the_plain_one_finds(
    tmp_path: Path, poses: list[Pose], visibility: str | int
) -> None:
    """Random poses of the six ships among the Rock and the Reef, with and without a visibility
    limit: the same ships seen, from the same observers, in the same order, for both sides."""
    extra = f"visibility_m = {visibility}" if visibility else ""
    path = tmp_path / f"sight{visibility}.toml"
    path.write_text(SCENARIO.format(extra=extra), encoding="utf-8")
    state = new_game(str(path), 1).state
    state.poses = dict(zip(state.poses, poses, strict=True))
    for side in state.sides:
        fast = sighted(state, side)
        slow = _reference(state, side)
        assert list(fast.items()) == list(slow.items())
