"""The command phase's collision look-ahead (BF6-MOV, turns first BF6-CMD-11): the vectorised
:mod:`battleline.ai.steering` gives exactly the answers of the plain point-by-point reference
below, which is the code it replaced."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.ai.steering import (
    CLEARANCE_M,
    OFFSETS,
    TRACK_POINTS,
    ObstacleTable,
    predicted_track,
    steer_clear,
    track_grid,
)
from battleline.engine.geometry import Pose, norm360, signed_angle

Point = tuple[float, float]

# -- the scalar reference (the code before vectorising) --------------------------------------

_FRACTIONS = (0.15, 0.3, 0.5, 0.7, 0.85, 1.0)


def reference_track(
    pose: Pose, heading: float, distance_m: float, radius_m: float = 0.0
) -> list[Point]:
    delta = math.radians(signed_angle(heading - pose.heading))
    arc = min(distance_m, radius_m * abs(delta)) if radius_m > 0 else 0.0
    out = []
    for s_m in sorted({min(60.0, distance_m), *(distance_m * f for f in _FRACTIONS)}):
        x, y, h = pose.x, pose.y, math.radians(pose.heading)
        on_arc = min(s_m, arc)
        if on_arc > 0:
            turned = on_arc / radius_m * (1 if delta > 0 else -1)
            chord = 2.0 * radius_m * math.sin(abs(turned) / 2.0)
            mean = h + turned / 2.0
            x, y, h = x + chord * math.sin(mean), y + chord * math.cos(mean), h + turned
        rest = max(0.0, s_m - arc)
        out.append((x + rest * math.sin(h), y + rest * math.cos(h)))
    return out


def reference_steer_clear(
    poses: Sequence[Pose],
    wanted: float,
    distance_m: float,
    obstacles: Sequence[Point],
    radius_m: float = 0.0,
) -> float:
    if not obstacles:
        return wanted
    for offset in (0, 20, -20, 40, -40, 60, -60, 90, -90, 120, -120, 150, -150, 180):
        heading = norm360(wanted + offset)
        clear = True
        for pose in poses:
            for x, y in reference_track(pose, heading, distance_m, radius_m):
                for ox, oy in obstacles:
                    gap = math.hypot(x - ox, y - oy)
                    if gap < CLEARANCE_M and gap < math.hypot(pose.x - ox, pose.y - oy):
                        clear = False
                        break
                if not clear:
                    break
            if not clear:
                break
        if clear:
            return heading
    return wanted


def reference_obstacles(
    poses: dict[str, Pose],
    mine: Sequence[str],
    planned: dict[str, list[Point]],
    last_moves: dict[str, float],
) -> list[Point]:
    out: list[Point] = []
    for name, pose in poses.items():
        if name in mine:
            continue
        out.append((pose.x, pose.y))
        if name in planned:
            out += planned[name]
        else:
            out += reference_track(pose, pose.heading, last_moves.get(name, 1000.0))
    return out


# -- strategies --------------------------------------------------------------------------------

coord = st.floats(-8000.0, 8000.0)
angle = st.floats(0.0, 360.0, exclude_max=True)
poses = st.builds(Pose, coord, coord, angle)
runs = st.one_of(st.just(400.0), st.just(0.0), st.floats(0.0, 2500.0))
radii = st.one_of(st.just(0.0), st.floats(100.0, 2000.0))


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[Pose], float, float, list[Point], float]:
    """A division, a wanted heading, a run, a turning radius and obstacles near the ships, some
    of them exactly at the clearance from a point of a predicted track."""
    ships = draw(st.lists(poses, min_size=1, max_size=4))
    wanted, run, radius = draw(angle), draw(runs), draw(radii)
    obstacles: list[Point] = []
    for _ in range(draw(st.integers(0, 30))):
        ship = draw(st.sampled_from(ships))
        dx, dy = draw(st.floats(-2500.0, 2500.0)), draw(st.floats(-2500.0, 2500.0))
        obstacles.append((ship.x + dx, ship.y + dy))
    for _ in range(draw(st.integers(0, 4))):
        ship = draw(st.sampled_from(ships))
        heading = norm360(wanted + draw(st.sampled_from(OFFSETS)))
        x, y = draw(st.sampled_from(reference_track(ship, heading, run, radius)))
        bearing = math.radians(draw(angle))
        obstacles.append((x + CLEARANCE_M * math.sin(bearing), y + CLEARANCE_M * math.cos(bearing)))
    return ships, wanted, run, obstacles, radius


# -- tests -------------------------------------------------------------------------------------


@given(poses, angle, runs, radii)
def test_BF6_CMD_11_predicted_track_is_the_reference_bit_for_bit(
    pose: Pose, heading: float, run: float, radius: float
) -> None:
    """Turn first on the turning circle, then straight on: the same numbers as point by point."""
    assert predicted_track(pose, heading, run, radius) == reference_track(
        pose, heading, run, radius
    )


@given(
    st.lists(poses, min_size=1, max_size=4), st.lists(angle, min_size=1, max_size=14), runs, radii
)
def test_track_grid_lays_out_every_ships_track_on_every_heading(
    ships: list[Pose], headings: list[float], run: float, radius: float
) -> None:
    """The array of all tracks agrees with the exact tracks to well under a millimetre."""
    xs, ys = track_grid(ships, headings, run, radius)
    exact = np.array([[reference_track(p, h, run, radius) for p in ships] for h in headings])
    assert xs.shape == ys.shape == exact.shape[:3]
    assert np.allclose(xs, exact[..., 0], rtol=0.0, atol=1e-7)
    assert np.allclose(ys, exact[..., 1], rtol=0.0, atol=1e-7)


@settings(max_examples=400)
@given(tables())
def test_BF6_MOV_steer_clear_gives_the_reference_heading(
    table: tuple[list[Pose], float, float, list[Point], float],
) -> None:
    """The vectorised search picks the same heading as the triple loop, obstacles on the
    clearance circle included (given as a list or as an array)."""
    ships, wanted, run, obstacles, radius = table
    expected = reference_steer_clear(ships, wanted, run, obstacles, radius)
    assert steer_clear(ships, wanted, run, obstacles, radius) == expected
    assert steer_clear(ships, wanted, run, np.array(obstacles).reshape(-1, 2), radius) == expected


def test_BF6_MOV_a_division_steers_round_a_ship_ahead_and_ignores_one_astern() -> None:
    """A ship dead ahead 900 m: the division turns off (on a 300 m turning circle) until its run
    passes clear; a ship astern, drawn away from, does not matter."""
    ship = Pose(0.0, 0.0, 0.0)
    ahead = [(0.0, 900.0)]
    heading = steer_clear([ship], 0.0, 800.0, ahead, 300.0)
    assert heading == reference_steer_clear([ship], 0.0, 800.0, ahead, 300.0)
    assert 40.0 <= abs(signed_angle(heading)) < 180.0
    assert steer_clear([ship], 0.0, 800.0, [(0.0, -300.0)], 300.0) == 0.0
    assert steer_clear([ship], 10.0, 800.0, []) == 10.0


def test_without_a_turning_circle_the_track_runs_on_along_the_present_heading() -> None:
    """Radius 0 (as for the other ships' tracks, straight on): the track keeps the ship's own
    heading whatever ``heading`` says, as the reference does."""
    ship = Pose(100.0, 0.0, 90.0)
    track = predicted_track(ship, 0.0, 400.0)
    assert track == reference_track(ship, 0.0, 400.0)
    assert track[0] == (160.0, pytest.approx(0.0))
    assert track[-1] == (500.0, pytest.approx(0.0))


def test_a_division_boxed_in_keeps_the_heading_it_wanted() -> None:
    """Ships all round within the clearance: no heading is clear, so the wanted one stands."""
    ship = Pose(0.0, 0.0, 90.0)
    ring = [(700.0 * math.sin(b), 700.0 * math.cos(b)) for b in np.linspace(0, 2 * math.pi, 36)]
    assert steer_clear([ship], 370.0, 1000.0, ring) == 370.0
    assert reference_steer_clear([ship], 370.0, 1000.0, ring) == 370.0


@given(
    st.dictionaries(st.text("ABCDEFGH", min_size=1, max_size=2), poses, min_size=1, max_size=8),
    st.data(),
)
def test_the_obstacle_table_holds_the_same_points_as_the_lists_it_replaced(
    ships: dict[str, Pose], data: st.DataObject
) -> None:
    """Every other ship's position and track: straight on at its last move (1000 m when not
    known), or along its planned track once its division is planned."""
    names = sorted(ships)
    last_moves = {n: data.draw(runs) for n in names if data.draw(st.booleans())}
    table = ObstacleTable(ships, last_moves, 1000.0)
    planned: dict[str, list[Point]] = {}
    for _ in range(3):
        mine = data.draw(st.lists(st.sampled_from(names), unique=True))
        got = {tuple(p) for p in table.around(mine).tolist()}
        assert got == set(reference_obstacles(ships, mine, planned, last_moves))
        for name in mine:
            pose = ships[name]
            track = predicted_track(pose, data.draw(angle), data.draw(runs), data.draw(radii))
            planned[name] = track
            table.plan(name, track)
    assert table.around([]).shape == (len(names) * (TRACK_POINTS + 1), 2)
