"""The flotilla's attack run and the turn clear of a collision (BF6-TORP-02..10, BF6-COL): the
short cuts of :mod:`battleline.ai.torpedoes` and :mod:`battleline.ai.steering` give exactly the
answers of the plain loops below, which are the code they replaced."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.ai.steering import (
    COLLISION_CLEAR_DEG,
    clear_of_collision,
    predicted_end,
    predicted_track,
)
from battleline.ai.torpedoes import CLEAR_M, foul_headings
from battleline.engine.geometry import Pose, bearing, norm360, signed_angle

Point = tuple[float, float]

coord = st.floats(-8000.0, 8000.0)
angle = st.floats(0.0, 360.0, exclude_max=True)
poses = st.builds(Pose, coord, coord, angle)


def reference_fouls(
    pose: Pose, headings: list[float], run: float, radius: float, enemies: list[Pose]
) -> list[bool]:
    return [
        any(
            math.hypot(x - e.x, y - e.y) < CLEAR_M
            for x, y in predicted_track(pose, heading, run, radius)
            for e in enemies
        )
        for heading in headings
    ]


runs_m = st.one_of(st.just(400.0), st.just(0.0), st.floats(0.0, 2500.0))
radii = st.one_of(st.just(0.0), st.floats(100.0, 2000.0))


@st.composite
def runs(draw: st.DrawFn) -> tuple[Pose, list[float], float, float, list[Pose]]:
    """A boat, the headings of an attack run, her run and turning radius, and enemy ships near
    her tracks, some exactly :data:`CLEAR_M` from a point of one (the case the array test hands
    back to the exact one)."""
    pose, run, radius = draw(poses), draw(runs_m), draw(radii)
    headings = [
        norm360(pose.heading + step) for step in range(0, 360, draw(st.sampled_from((5, 45))))
    ]
    enemies: list[Pose] = []
    for _ in range(draw(st.integers(0, 12))):
        track = predicted_track(pose, draw(st.sampled_from(headings)), run, radius)
        x, y = draw(st.sampled_from(track))
        rho = draw(st.one_of(st.just(CLEAR_M), st.floats(0.0, 3000.0)))
        theta = math.radians(draw(angle))
        enemies.append(Pose(x + rho * math.sin(theta), y + rho * math.cos(theta), draw(angle)))
    return pose, headings, run, radius, enemies


@settings(max_examples=300)
@given(runs())
def test_BF6_TORP_foul_headings_are_the_plain_loop(
    run: tuple[Pose, list[float], float, float, list[Pose]],
) -> None:
    """Which headings of an attack run pass within :data:`CLEAR_M` of an enemy ship: the same
    verdicts as the point-by-point loop over the exact tracks, enemies on the limit included."""
    pose, headings, run_m, radius, enemies = run
    expected = reference_fouls(pose, headings, run_m, radius, enemies)
    assert foul_headings(pose, headings, run_m, radius, enemies) == expected


@given(poses, angle, runs_m, radii)
def test_BF6_CMD_11_predicted_end_is_the_tracks_last_point(
    pose: Pose, heading: float, run: float, radius: float
) -> None:
    """Where a run ends, worked out alone, is the last point of the whole track, bit for bit."""
    assert (
        predicted_end(pose, heading, run, radius) == predicted_track(pose, heading, run, radius)[-1]
    )


def reference_clear_of_collision(
    picture: Any, pairs: list[tuple[str, str]], wanted: float | None
) -> float | None:
    if not pairs:
        return None
    base = picture.poses[pairs[0][0]].heading if wanted is None else wanted

    def off(heading: float, own: str, other: str) -> float:
        here, there = picture.poses[own], picture.poses[other]
        return abs(signed_angle(bearing(here.x, here.y, there.x, there.y) - heading))

    if all(off(base, a, b) >= COLLISION_CLEAR_DEG for a, b in pairs):
        return None
    options = [norm360(base + d) for d in range(-180, 180, 5)]
    fine = [h for h in options if all(off(h, a, b) >= COLLISION_CLEAR_DEG for a, b in pairs)]
    if not fine:
        return None
    return min(fine, key=lambda h: (abs(signed_angle(h - base)), h))


@given(st.lists(poses, min_size=2, max_size=5), st.one_of(st.none(), angle), st.data())
def test_BF6_COL_the_turn_clear_of_a_collision_is_the_plain_loop(
    ships: list[Pose], wanted: float | None, data: st.DataObject
) -> None:
    """The heading that puts every ship struck abaft the beam: bearings worked out once give
    the heading the loop over every heading and pair gives."""
    picture = SimpleNamespace(poses={f"s{i}": p for i, p in enumerate(ships)})
    names = list(picture.poses)
    pairs = data.draw(
        st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)), max_size=3)
    )
    pairs = [(a, b) for a, b in pairs if a != b]
    expected = reference_clear_of_collision(picture, pairs, wanted)
    assert clear_of_collision(picture, pairs, wanted) == expected  # type: ignore[arg-type]
