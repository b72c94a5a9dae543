"""The sweep of collision checks (BF6-MOV, collisions and groundings) against the plain algorithm.

``reference_resolve_tracks`` is the first, plain version of
:func:`~battleline.rulesets.bf1900.collisions.sweep_tracks` (every base drawn at every sub-step);
the broad-phase version must give exactly the same tracks and contacts, in the same order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import example, given, settings
from hypothesis import strategies as st
from shapely import STRtree

from battleline.engine.events import EventKind
from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.collisions import sweep_tracks
from battleline.rulesets.bf1900.easing import lying_against
from battleline.rulesets.bf1900.movement import (
    EPS_M,
    Contact,
    Leg,
    Track,
    allowance_at,
    grid_poses,
    move_allowance_m,
    resolve_tracks,
    stay,
    trace,
    track_poses,
)
from battleline.rulesets.bf1900.scales import load_scales
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.table import Land, footprints
from conftest import plain_class


def reference_resolve_tracks(
    tracks: Mapping[str, Track],
    sizes: Mapping[str, tuple[float, float]],
    land: Sequence[Land],
    stationary: Mapping[str, Pose],
    eased: set[tuple[str, str]] | frozenset[tuple[str, str]] = frozenset(),
) -> tuple[dict[str, Track], list[Contact]]:
    """Move every ship together and stop it at its first contact with land or another base.

    All ships move at once, each at an even pace along its own track. A ship whose next step would
    overlap land stops at its last clear position (GROUNDING); two bases that would overlap both
    stop at their last clear positions (COLLISION, naming both ships). ``sizes`` gives every
    ship's (length, width) in metres. Bases already touching at the start are not reported.
    """
    names = sorted(set(tracks) | set(stationary))
    missing = [n for n in names if n not in sizes]
    if missing:
        raise ValueError(f"no base size for {', '.join(missing)}")
    all_tracks: dict[str, Track] = {
        n: tracks[n] if n in tracks else stay(n, stationary[n]) for n in names
    }
    moving = [n for n in names if all_tracks[n].length_m > 0]
    if not moving:
        return dict(tracks), []
    lengths = np.array([sizes[n][0] for n in names])
    widths = np.array([sizes[n][1] for n in names])
    step_m = max(float(widths.min()) / 3.0, 1.0)
    longest = max(all_tracks[n].length_m for n in moving)
    n_steps = min(4000, max(1, math.ceil(longest / step_m)))
    land_tree = STRtree([piece.polygon for piece in land]) if land else None

    stopped: dict[str, float] = {}  # ship -> distance at which it stopped
    contacts: list[Contact] = []

    def geoms_at(frac: float) -> Any:
        poses = [
            all_tracks[n].pose_at(stopped.get(n, frac * all_tracks[n].length_m)) for n in names
        ]
        xs = np.array([p.x for p in poses])
        ys = np.array([p.y for p in poses])
        hs = np.array([p.heading for p in poses])
        return footprints(xs, ys, hs, lengths, widths)

    def base_at(i: int, frac: float) -> Any:
        n = names[i]
        p = all_tracks[n].pose_at(frac * all_tracks[n].length_m)
        one = footprints(
            np.array([p.x]),
            np.array([p.y]),
            np.array([p.heading]),
            lengths[i : i + 1],
            widths[i : i + 1],
        )
        return one[0]

    def overlaps(geoms: Any) -> list[tuple[int, int]]:
        tree = STRtree(geoms)
        a, b = tree.query(geoms, predicate="intersects")
        return sorted({(int(i), int(j)) for i, j in zip(a, b, strict=True) if i < j})

    start = geoms_at(0.0)
    touching = set(overlaps(start)) | {(names.index(a), names.index(b)) for a, b in eased}
    aground: set[tuple[int, int]] = set()
    if land_tree is not None:
        a, b = land_tree.query(start, predicate="intersects")
        aground = {(int(i), int(j)) for i, j in zip(a, b, strict=True)}

    for k in range(1, n_steps + 1):
        frac = k / n_steps
        prev = (k - 1) / n_steps
        while True:
            active = [n for n in moving if n not in stopped]
            if not active:
                break
            geoms = geoms_at(frac)
            new_stops: dict[str, float] = {}
            for i, j in overlaps(geoms):
                if (i, j) in touching:
                    continue
                a_name, b_name = names[i], names[j]
                if a_name in stopped and b_name in stopped:
                    continue
                if a_name not in moving and b_name not in moving:
                    continue
                spot = shapely.intersection(geoms[i], geoms[j]).centroid
                # The ship still under way is the one that ran into the other; of two under way,
                # each whose own step alone carries her onto the other (both if both or neither).
                a_under_way = a_name in moving and a_name not in stopped
                b_under_way = b_name in moving and b_name not in stopped
                first, second = (a_name, b_name) if a_under_way else (b_name, a_name)
                runners: tuple[int, ...] = (i, j)
                if a_under_way and b_under_way:
                    ran = tuple(
                        r
                        for r, o in ((i, j), (j, i))
                        if base_at(r, frac).intersects(base_at(o, prev))
                    )
                    runners = ran if len(ran) == 1 else (i, j)
                if runners == (j,):
                    first, second = b_name, a_name
                both_stop = len(runners) == 2
                stop = "both stop" if both_stop else f"{first} stops"
                contacts.append(
                    Contact(
                        EventKind.COLLISION,
                        first,
                        second,
                        float(spot.x),
                        float(spot.y),
                        f"{first} collides with {second} at "
                        f"({spot.x:.0f} m, {spot.y:.0f} m); {stop}",
                        both_stop,
                    )
                )
                if both_stop:
                    touching.add((i, j))
                for n in (names[r] for r in runners):
                    if n in moving and n not in stopped:
                        new_stops[n] = prev * all_tracks[n].length_m
            if land_tree is not None:
                a, b = land_tree.query(geoms, predicate="intersects")
                for i, j in sorted(zip(a.tolist(), b.tolist(), strict=True)):
                    n = names[i]
                    if (i, j) in aground or n not in moving or n in stopped:
                        continue
                    spot = shapely.intersection(geoms[i], land[j].polygon).centroid
                    contacts.append(
                        Contact(
                            EventKind.GROUNDING,
                            n,
                            land[j].name,
                            float(spot.x),
                            float(spot.y),
                            f"{n} runs aground on {land[j].name} at "
                            f"({spot.x:.0f} m, {spot.y:.0f} m) and stops",
                        )
                    )
                    aground.add((i, j))
                    new_stops.setdefault(n, prev * all_tracks[n].length_m)
            if not new_stops:
                break
            stopped.update(new_stops)

    out: dict[str, Track] = {}
    for n in tracks:
        out[n] = all_tracks[n].cut(stopped[n]) if n in stopped else tracks[n]
    return out, contacts


CLASS = plain_class()


legs = st.lists(
    st.one_of(
        st.builds(lambda d: Leg("straight", d), st.floats(0, 1500)),
        st.builds(lambda t: Leg("turn", turn_deg=t), st.floats(-200, 200)),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=200)
@given(
    st.lists(
        st.tuples(legs, st.floats(50, 1500), st.floats(0, 3000), st.floats(0, 1)),
        min_size=1,
        max_size=4,
    ),
    st.floats(0, 360, exclude_max=True),
    st.integers(1, 300),
)
def test_grid_poses_are_bit_identical_with_pose_at(
    plans: list[tuple[list[Leg], float, float, float]], heading: float, n: int
) -> None:
    """The vectorised poses of tracks of all kinds at once (traced, cut short, standing still,
    of different lengths and numbers of points) equal ``pose_at`` exactly."""
    tracks = [stay("S", Pose(1.0, 2.0, heading))]
    for steps, radius, allowance, cut in plans:
        full = trace("S", Pose(123.4, -56.7, heading), steps, radius, allowance)
        tracks += [full, full.cut(cut * full.length_m)]
    xs, ys, hs = grid_poses(tracks, n)
    for row, track in enumerate(tracks):
        for k in range(n + 1):
            p = track.pose_at((k / n) * track.length_m)
            assert (xs[row, k], ys[row, k], hs[row, k]) == (p.x, p.y, p.heading)


def test_track_poses_of_a_track_without_points_uses_the_scalar_way() -> None:
    start, end = Pose(0.0, 0.0, 10.0), Pose(0.0, 100.0, 10.0)
    track = Track("S", start, end, 100.0, ((0.0, 0.0),), 0.0)
    xs, ys, hs = track_poses(track, 4)
    assert list(zip(xs, ys, hs, strict=True)) == [
        (p.x, p.y, p.heading) for p in (track.pose_at(k / 4 * 100.0) for k in range(5))
    ]


ISLE = Land.from_coords("Isle", [(-400, 900), (300, 900), (300, 1400), (-400, 1400)])
REEF = Land.from_coords("Reef", [(800, -900), (1200, -900), (1000, -500)])

ship = st.tuples(
    st.floats(-1200, 1200),
    st.floats(-1200, 1200),
    st.floats(0, 360, exclude_max=True),
    legs,
    st.floats(0, 2000),
    st.sampled_from([(300.0, 100.0), (150.0, 40.0), (450.0, 120.0)]),
    st.booleans(),
)


def _compare(
    ships: Sequence[tuple[float, float, float, list[Leg], float, tuple[float, float], bool]],
    land: Sequence[Land],
) -> list[Contact]:
    tracks: dict[str, Track] = {}
    still: dict[str, Pose] = {}
    sizes: dict[str, tuple[float, float]] = {}
    for i, (x, y, h, steps, allowance, size, moves) in enumerate(ships):
        name = f"S{i:02d}"
        sizes[name] = size
        if moves:
            tracks[name] = trace(name, Pose(x, y, h), steps, 300, allowance)
        else:
            still[name] = Pose(x, y, h)
    eased = lying_against(tracks, sizes, still)
    got = sweep_tracks(tracks, sizes, land, still, eased)
    assert got == reference_resolve_tracks(tracks, sizes, land, still, eased)
    return resolve_tracks(tracks, sizes, land, still)[1]


@settings(max_examples=300, deadline=None)
@given(st.lists(ship, min_size=1, max_size=10), st.booleans())
def test_property_broad_phase_finds_the_same_contacts_in_the_same_order(
    ships: list[tuple[float, float, float, list[Leg], float, tuple[float, float], bool]],
    with_land: bool,
) -> None:
    """Crowded ships, moving and stationary, some near land: the same stops and contacts."""
    _compare(ships, [ISLE, REEF] if with_land else [])


def test_a_crowded_melee_gives_the_same_collisions_and_groundings() -> None:
    """Forty ships converging on a point amid two islands: many contacts, identical to the
    plain algorithm, some of them collisions and some groundings."""
    rng = np.random.default_rng(5)
    ships = []
    for i in range(40):
        angle = 2 * math.pi * i / 40
        x, y = 2500 * math.sin(angle), 2500 * math.cos(angle)
        heading = (math.degrees(angle) + 180 + rng.uniform(-20, 20)) % 360
        turn = Leg("turn", turn_deg=float(rng.uniform(-60, 60)))
        steps = [Leg("straight", float(rng.uniform(500, 1500))), turn, Leg("straight", 2000)]
        ships.append((x, y, heading, steps, 3000.0, (300.0, 100.0), i % 7 != 0))
    contacts = _compare(ships, [ISLE, REEF])
    kinds = {c.kind for c in contacts}
    assert kinds == {EventKind.COLLISION, EventKind.GROUNDING}


@given(
    st.lists(st.floats(0, 40), min_size=1, max_size=8).map(tuple),
    st.sampled_from(sorted(load_scales())),
)
def test_cached_box_distances_equal_the_plain_conversion(
    speeds: tuple[float, ...], scale_name: str
) -> None:
    """BF6-MOV-01: the cached box distances are exactly the converted positive boxes, sorted."""
    scale = load_scales()[scale_name]
    expected = sorted({scale.knots_to_m_per_turn(k) for k in speeds if k > 0})
    assert list(scale.box_distances_m(speeds)) == expected


@given(
    st.lists(st.floats(0.5, 30), min_size=1, max_size=6).map(lambda v: tuple(sorted(v)[::-1])),
    st.floats(0, 3000),
)
@example(knots=(12.0, 11.5), last_move=1052.0)  # a tenth of a knot short of the 11.5 kn box
def test_move_allowance_takes_the_lowest_box_above_last_move(
    knots: tuple[float, ...], last_move: float
) -> None:
    """BF6-MOV-03, AMB-09: the cap is the lowest box above last move (the top box if none is),
    no more than the top undamaged box; the minimum is half of last move (BF6-MOV-06). A last
    move within a tenth of a knot (the orders' resolution) below a box has reached that box."""
    scale = load_scales()["small"]
    log = ShipLog("Test", replace(CLASS, propulsion_knots=knots))
    boxes = sorted({scale.knots_to_m_per_turn(k) for k in knots})
    last_tenths = math.floor(scale.m_per_turn_to_knots(last_move) * 10 + 0.5) / 10
    reached = scale.knots_to_m_per_turn(last_tenths + 0.1)
    above = [b for b in boxes if b > reached + EPS_M]
    top = scale.knots_to_m_per_turn(log.speed_knots)
    hi = min(above[0] if above else boxes[-1], top)
    expected = (min(scale.min_move_fraction * last_move, hi), hi)
    assert move_allowance_m(log, scale, last_move) == expected
    assert allowance_at(log, scale, last_move, log.speed_knots) == expected


def test_columns_piling_up_behind_a_crossing_ship_give_the_same_contacts() -> None:
    """A ship cuts across the head of a column of twenty and the followers run into the stopped
    ships one after another, while a second column passes clear: identical to the plain
    algorithm, stop by stop."""
    ships = [
        (0.0, -i * 400.0, 0.0, [Leg("straight", 2500)], 2500.0, (300.0, 100.0), True)
        for i in range(20)
    ]
    ships += [
        (2000.0, 20000 + i * 400.0, 180.0, [Leg("straight", 2500)], 2500.0, (300.0, 100.0), True)
        for i in range(20)
    ]
    ships.append((1000.0, 1000.0, 270.0, [Leg("straight", 2500)], 2500.0, (300.0, 100.0), True))
    contacts = _compare(ships, [])
    assert len(contacts) > 1


@pytest.mark.parametrize("gap_m", [0.0, 0.004, 0.02, 0.5, 1.5])
def test_ships_running_alongside_a_hair_apart_give_the_same_contacts(gap_m: float) -> None:
    """Two columns side by side, their bases ``gap_m`` apart (touching, inside the broad
    phase's centimetre of slack, or outside it), one converging by a hair: the same stops and
    contacts as the plain algorithm (BF6-MOV-05 collisions)."""
    width = 40.0
    ships = [
        (0.0, -i * 400.0, 0.0, [Leg("straight", 1500)], 1500.0, (150.0, width), True)
        for i in range(3)
    ]
    x = width + gap_m
    ships += [
        (x, -i * 400.0, 0.0, [Leg("straight", 1500)], 1500.0, (150.0, width), True)
        for i in range(2)
    ]
    ships.append((x, -800.0, 359.99, [Leg("straight", 1500)], 1500.0, (150.0, width), True))
    _compare(ships, [])
