"""The flotilla's attack run and the turn clear of a collision (BF6-TORP-02..10, BF6-COL): the
short cuts of :mod:`battleline.ai.torpedoes` and :mod:`battleline.ai.steering` give exactly the
answers of the plain loops below, which are the code they replaced."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.ai.steering import COLLISION_CLEAR_DEG, clear_of_collision, predicted_track
from battleline.ai.torpedoes import CLEAR_M, foul_tracks
from battleline.engine.geometry import Pose, bearing, norm360, signed_angle

Point = tuple[float, float]

coord = st.floats(-8000.0, 8000.0)
angle = st.floats(0.0, 360.0, exclude_max=True)
poses = st.builds(Pose, coord, coord, angle)


def reference_fouls(tracks: list[list[Point]], enemies: list[Pose]) -> list[bool]:
    return [
        any(math.hypot(x - e.x, y - e.y) < CLEAR_M for x, y in track for e in enemies)
        for track in tracks
    ]


@st.composite
def runs(draw: st.DrawFn) -> tuple[list[list[Point]], list[Pose]]:
    """Some boats' predicted tracks and enemy ships near them, some exactly :data:`CLEAR_M`
    from a point of a track (the case the array test hands back to the exact one)."""
    tracks = [
        predicted_track(draw(poses), draw(angle), draw(st.floats(0.0, 2500.0)), 300.0)
        for _ in range(draw(st.integers(0, 8)))
    ]
    enemies: list[Pose] = []
    for _ in range(draw(st.integers(0, 12))):
        if not tracks:
            break
        x, y = draw(st.sampled_from(draw(st.sampled_from(tracks))))
        rho = draw(st.one_of(st.just(CLEAR_M), st.floats(0.0, 3000.0)))
        theta = math.radians(draw(angle))
        enemies.append(Pose(x + rho * math.sin(theta), y + rho * math.cos(theta), draw(angle)))
    return tracks, enemies


@settings(max_examples=400)
@given(runs())
def test_BF6_TORP_foul_tracks_are_the_plain_loop(run: tuple[list[list[Point]], list[Pose]]) -> None:
    """Which attack-run tracks pass within :data:`CLEAR_M` of an enemy ship: the same verdicts
    as the point-by-point loop, enemies on the limit included."""
    tracks, enemies = run
    assert foul_tracks(tracks, enemies) == reference_fouls(tracks, enemies)


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
