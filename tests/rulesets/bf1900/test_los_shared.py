"""Sight lines shared between every index over one table (BF6-LOS-01, BF6-LOS-02, BF6-SINK-05)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.los import SightLines, _corners
from battleline.rulesets.bf1900.table import Land, Obstacles, base_ring, footprint, funnel_point

SIZE = (500.0, 200.0)  # base length and width in metres


def reference(poses: dict[str, Pose], land: tuple[Land, ...], a: str, b: str) -> tuple[str, ...]:
    """The blockers of a–b from an index of this table alone, in the caller's order."""
    obstacles = Obstacles({n: footprint(p, *SIZE) for n, p in poses.items()}, land)
    ends = (funnel_point(poses[a], SIZE[0]), funnel_point(poses[b], SIZE[0]))
    return tuple(obstacles.blockers_of_segment(*ends, frozenset((a, b))))


def test_same_table_shares_one_index_whatever_the_order() -> None:
    """Two indexes of the same ships (in another order) share their answers; a table without a
    sunk ship is another table, in which that ship no longer blocks (BF6-SINK-05)."""
    poses = {"A": Pose(0, 0, 0), "B": Pose(0, 4000, 0), "C": Pose(0, 2000, 90)}
    first = SightLines(poses, dict.fromkeys(poses, SIZE))
    again = SightLines(dict(reversed(poses.items())), dict.fromkeys(poses, SIZE))
    assert first._table is again._table
    assert first.blockers("A", "B") == again.blockers("B", "A") == ("C",)
    without_c = SightLines(poses, dict.fromkeys(poses, SIZE), afloat={"A", "B"})
    assert without_c._table is not first._table
    assert without_c.clear("A", "B")


def test_land_is_part_of_the_table() -> None:
    """The same ships with land are another table: the land blocks there only (BF6-LOS-02)."""
    poses = {"A": Pose(0, 0, 0), "B": Pose(0, 4000, 0)}
    island = Land.from_coords("Tsushima", [(-100, 1900), (100, 1900), (0, 2100)])
    assert SightLines(poses, dict.fromkeys(poses, SIZE)).clear("A", "B")
    assert SightLines(poses, dict.fromkeys(poses, SIZE), [island]).blockers("A", "B") == (
        "Tsushima",
    )


ships = st.lists(
    st.tuples(
        st.integers(-6, 6).map(lambda i: i * 400.0),
        st.integers(-6, 6).map(lambda i: i * 400.0),
        st.sampled_from([0.0, 30.0, 45.0, 90.0, 135.0]),
    ),
    min_size=3,
    max_size=12,
    unique_by=lambda t: (t[0], t[1]),
)


@settings(max_examples=60, deadline=None)
@given(ships, st.randoms(use_true_random=False))
def test_shared_answers_equal_a_table_of_ones_own(
    found: list[tuple[float, float, float]], rnd: object
) -> None:
    """Whatever order the ships come in, and whichever pairs another index primed first, every
    answer (blockers in the caller's order, ships then land) is the one a fresh index of this
    table alone gives (BF6-LOS-01/02)."""
    import random

    assert isinstance(rnd, random.Random)
    names = [f"S{i:02d}" for i in range(len(found))]
    poses = {n: Pose(x, y, h) for n, (x, y, h) in zip(names, found, strict=True)}
    island = (Land.from_coords("Rock", [(-150, -150), (150, -150), (150, 150), (-150, 150)]),)
    pairs = [(a, b) for a in names for b in names if a != b]
    other = dict(poses)
    first = SightLines(other, dict.fromkeys(other, SIZE), island)
    first.prime(rnd.sample(pairs, len(pairs) // 2))  # someone else asks about some pairs first
    order = list(names)
    rnd.shuffle(order)
    mine = {n: poses[n] for n in order}
    lines = SightLines(mine, dict.fromkeys(mine, SIZE), island)
    lines.prime(rnd.sample(pairs, len(pairs) // 3))
    for a, b in pairs:
        assert lines.blockers(a, b) == reference(mine, island, a, b)


@settings(max_examples=80, deadline=None)
@given(ships, st.randoms(use_true_random=False))
def test_array_screen_and_loop_give_the_same_blockers(
    found: list[tuple[float, float, float]], rnd: object
) -> None:
    """BF6-LOS-02: the numpy screen of every (segment, obstacle) pair followed by the exact test
    gives exactly the blockers of the one-segment-at-a-time loop, and never drops an obstacle
    the segment touches."""
    import random

    assert isinstance(rnd, random.Random)
    names = [f"S{i:02d}" for i in range(len(found))]
    poses = {n: Pose(x, y, h) for n, (x, y, h) in zip(names, found, strict=True)}
    island = (Land.from_coords("Rock", [(-150, -150), (150, -150), (150, 150), (-150, 150)]),)
    obstacles = Obstacles({n: footprint(p, *SIZE) for n, p in poses.items()}, island)
    ends = [funnel_point(p, SIZE[0]) for p in poses.values()]
    corners = [c for n in names for c in base_ring(poses[n], *SIZE) or ()]
    points = ends + corners + [(0.0, 0.0), (150.0, 150.0)]
    segments = [(rnd.choice(points), rnd.choice(points)) for _ in range(120)]
    excludes = [frozenset(rnd.sample(names, 2)) for _ in segments]
    screened = obstacles._array_candidates(segments)
    loop = [
        obstacles.blockers_of_segment(a, b, ex)
        for (a, b), ex in zip(segments, excludes, strict=True)
    ]
    assert (
        obstacles.blockers_of_segments(segments, excludes) == loop
    )  # 120 × (n + 1) > the loop limit
    for (a, b), hits in zip(segments, screened, strict=True):
        assert hits == sorted(hits)
        assert set(obstacles.blockers_of_segment(a, b)) <= {obstacles.names[g] for g in hits}


@settings(max_examples=40, deadline=None)
@given(ships)
def test_table_footprints_equal_footprint_bit_for_bit(
    found: list[tuple[float, float, float]],
) -> None:
    """The shared table draws every base in one broadcast: the same corners as one at a time,
    and the same convex ring as the one read back from the polygon (``base_ring``)."""
    bases = tuple(
        (f"S{i:02d}", Pose(x, y, h + 0.3 * i), *SIZE) for i, (x, y, h) in enumerate(found)
    )
    obstacles = Obstacles.of_bases([b[0] for b in bases], _corners(bases))
    rings = obstacles._rings
    for (_, pose, length, width), poly, ring in zip(bases, obstacles.geoms, rings, strict=True):
        assert poly.exterior.coords[:] == footprint(pose, length, width).exterior.coords[:]
        assert ring == base_ring(pose, length, width)


def test_the_umpires_sight_lines_follow_the_table() -> None:
    """The umpire's index (``gunnery_checks.sight_lines``) is one object per table: the same
    poses and logs give it back, with its answers; a ship steaming out of the line or sinking
    gives another, in which she no longer blocks (BF6-LOS-02, BF6-SINK-05)."""
    from battleline.game import new_game
    from battleline.rulesets.bf1900.gunnery_checks import sight_lines
    from battleline.rulesets.bf1900.ruleset import scale_of

    state = new_game("cruiser-duel", 1).state
    a, b = list(state.logs)[:2]
    fa, fb = (funnel_point(state.poses[n], 100.0) for n in (a, b))
    poses = dict(state.poses)
    poses["Screen"] = Pose((fa[0] + fb[0]) / 2, (fa[1] + fb[1]) / 2, 0.0)
    logs = dict(state.logs)
    logs["Screen"] = state.logs[b].copy()
    scale = scale_of(state)
    first = sight_lines(poses, logs, scale)
    assert first.blockers(a, b) == ("Screen",)
    assert sight_lines(dict(poses), dict(logs), scale) is first
    poses["Screen"] = Pose(fa[0] + 50_000.0, fa[1], 0.0)
    assert sight_lines(poses, logs, scale).clear(a, b)
    poses["Screen"] = Pose((fa[0] + fb[0]) / 2, (fa[1] + fb[1]) / 2, 0.0)
    logs["Screen"] = logs["Screen"].copy()
    logs["Screen"].sunk = True
    assert sight_lines(poses, logs, scale).clear(a, b)


@settings(max_examples=40, deadline=None)
@given(ships, st.randoms(use_true_random=False))
def test_a_table_made_of_corners_answers_as_one_of_polygons(
    found: list[tuple[float, float, float]], rnd: object
) -> None:
    """BF6-LOS-02: ``Obstacles.of_bases`` (the shared table's index) gives the blockers of an
    index of the bases' polygons, one segment or many at once."""
    import random

    assert isinstance(rnd, random.Random)
    bases = tuple(
        (f"S{i:02d}", Pose(x, y, h + 0.3 * i), *SIZE) for i, (x, y, h) in enumerate(found)
    )
    names = [b[0] for b in bases]
    lazy = Obstacles.of_bases(names, _corners(bases))
    eager = Obstacles({n: footprint(p, length, width) for n, p, length, width in bases})
    ends = [funnel_point(p, length) for _, p, length, _ in bases] + [(0.0, 0.0)]
    segments = [(rnd.choice(ends), rnd.choice(ends)) for _ in range(60)]
    assert lazy.blockers_of_segments(segments) == eager.blockers_of_segments(segments)
    assert [lazy.blockers_of_segment(a, b) for a, b in segments[:5]] == [
        eager.blockers_of_segment(a, b) for a, b in segments[:5]
    ]


def test_a_table_made_of_corners_makes_no_polygon_it_does_not_need() -> None:
    """Lines past, through and between bases, with no land: the exact tests settle them all, so
    the index never makes a polygon; reading ``geoms`` makes them, the same as the footprints."""
    poses = {
        "A": Pose(0, 0, 0),
        "B": Pose(0, 4000, 0),
        "C": Pose(0, 2000, 90),
        "D": Pose(3000, 0, 45),
    }
    bases = tuple((n, p, *SIZE) for n, p in poses.items())
    lazy = Obstacles.of_bases(list(poses), _corners(bases))
    ends = {n: funnel_point(p, SIZE[0]) for n, p in poses.items()}
    pairs = [("A", "B"), ("A", "D"), ("B", "D"), ("C", "D")] * 30  # above the loop limit
    found = lazy.blockers_of_segments(
        [(ends[a], ends[b]) for a, b in pairs], [frozenset(p) for p in pairs]
    )
    assert found[:4] == [["C"], [], [], []]
    assert lazy.blockers_of_segment(ends["A"], ends["B"], frozenset("AB")) == ["C"]
    assert lazy._geoms is None
    assert [g.exterior.coords[:] for g in lazy.geoms] == [
        footprint(p, *SIZE).exterior.coords[:] for p in poses.values()
    ]
