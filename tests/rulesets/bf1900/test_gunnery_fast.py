"""Fast paths of the gunnery checks equal the general algorithms they replace.

* :func:`battery_flow` (closed form by min-cut) equals :func:`max_flow` on the same network, and
  the integer-node :func:`max_flow` equals the original string-keyed Edmonds–Karp (BF6-ROF-07);
* :func:`bearing_guns` (arcs grouped and cached per battery) equals a gun-by-gun ``in_arc`` count
  over :func:`battery_layout` (BF6-BEAM-01..04, BF6-POS-01..11, AMB-15).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from itertools import pairwise

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from battleline.engine.geometry import in_arc
from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.arcs import (
    POSITION_ARCS,
    battery_layout,
    battery_spans,
    bearing_guns,
    mount_spans,
    position_arcs,
)
from battleline.rulesets.bf1900.gunnery import CUT_TARGETS, battery_flow, max_flow
from battleline.rulesets.bf1900.ship import GunClass, Mounting
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog
from conftest import plain_class


def reference_max_flow(cap: Mapping[tuple[str, str], int], source: str, sink: str) -> int:
    """The original Edmonds–Karp on string-keyed dicts, kept as the reference."""
    residual: dict[str, dict[str, int]] = {}
    for (u, v), c in cap.items():
        residual.setdefault(u, {})[v] = residual.get(u, {}).get(v, 0) + c
        residual.setdefault(v, {}).setdefault(u, 0)
    flow = 0
    while True:
        parent: dict[str, str] = {source: source}
        queue = deque([source])
        while queue and sink not in parent:
            u = queue.popleft()
            for v, c in residual.get(u, {}).items():
                if c > 0 and v not in parent:
                    parent[v] = u
                    queue.append(v)
        if sink not in parent:
            return flow
        path = [sink]
        while path[-1] != source:
            path.append(parent[path[-1]])
        path.reverse()
        push = min(residual[u][v] for u, v in pairwise(path))
        for u, v in pairwise(path):
            residual[u][v] -= push
            residual[v][u] += push
        flow += push


def network(
    supply: list[int], caps: list[list[int]], demand: list[int]
) -> dict[tuple[str, str], int]:
    """The battery network as the original check built it."""
    cap: dict[tuple[str, str], int] = {}
    for i, (a, row) in enumerate(zip(supply, caps, strict=True)):
        cap[("src", f"g{i}")] = a
        for j, c in enumerate(row):
            if c:
                cap[(f"g{i}", f"t{j}")] = c
    for j, n in enumerate(demand):
        cap[(f"t{j}", "sink")] = n
    return cap


@st.composite
def battery_networks(draw: st.DrawFn, max_targets: int = CUT_TARGETS + 2) -> tuple:
    k = draw(st.integers(1, max_targets))
    groups = draw(st.integers(0, 4))
    supply = [draw(st.integers(0, 12)) for _ in range(groups)]
    caps = [[draw(st.sampled_from([0, 0, 1, 2, 3, 4, 6, 8])) for _ in range(k)] for _ in supply]
    demand = [draw(st.integers(-2, 12)) for _ in range(k)]
    return supply, caps, demand


@given(battery_networks())
@example(([4], [[4]], [5]))
@example(([2, 2], [[2, 2], [0, 2]], [3, 1]))
@example(([], [], [1, 2]))
def test_BF6_ROF_07_battery_flow_equals_max_flow(net: tuple) -> None:
    """BF6-ROF-07: the min-cut closed form gives exactly the maximum flow of the battery network
    (one target, several targets, and beyond the cut limit where it runs the flow itself)."""
    supply, caps, demand = net
    cap = network(supply, caps, demand)
    want = reference_max_flow(cap, "src", "sink")
    assert battery_flow(supply, caps, demand) == want
    assert max_flow(cap, "src", "sink") == want


@given(battery_networks(max_targets=1))
def test_BF6_ROF_07_one_target_closed_form(net: tuple) -> None:
    """BF6-ROF-07, one target: min(n, Σ over groups bearing of min(guns × ROF, guns × rate))."""
    supply, caps, demand = net
    n = max(demand[0], 0)
    assert battery_flow(supply, caps, demand) == min(
        n, sum(min(a, row[0]) for a, row in zip(supply, caps, strict=True))
    )


edges = st.dictionaries(
    st.tuples(st.sampled_from("sabcdet"), st.sampled_from("sabcdet")).filter(
        lambda e: e[0] != e[1]
    ),
    st.integers(-1, 9),
    max_size=20,
)


@given(edges)
def test_max_flow_equals_string_keyed_edmonds_karp(cap: dict[tuple[str, str], int]) -> None:
    """The integer-node max_flow finds the same value on arbitrary small networks, including
    anti-parallel edges, zero and negative capacities, and a sink not in any edge."""
    assert max_flow(cap, "s", "t") == reference_max_flow(cap, "s", "t")


# -- bearing_guns ---------------------------------------------------------------------------


def mount_ship(mount: Mounting) -> ShipLog:
    return ShipLog(
        "Fuji", plain_class((mount,), armour_upperworks=4, propulsion_knots=(18, 15, 12, 9, 6, 3))
    )


def battery(pattern: int, guns: int) -> Mounting:
    return Mounting(
        "sec", GunClass.SECONDARY, 15.2, 2, (5, 4, 2, None), guns, 3, beam_pattern=pattern
    )


thetas = st.floats(0.0, 360.0, exclude_max=True) | st.sampled_from(
    [0.0, 22.5, 45.0, 47.5, 132.5, 135.0, 157.5, 180.0, 227.5, 312.5, 359.999999999]
)


@given(
    st.sampled_from([0, 1, 2]),
    st.integers(1, 12),
    st.lists(st.sampled_from(list(Mark)), max_size=14),
    thetas,
)
def test_BF6_BEAM_battery_bearing_equals_gun_by_gun_count(
    pattern: int, guns: int, marks: list[Mark], theta: float
) -> None:
    """BF6-BEAM-01..04: guns counted per arc group equal guns counted one by one with in_arc,
    for any damage marks (a short mark list leaves the missing boxes out of action)."""
    mount = battery(pattern, guns)
    log = mount_ship(mount)
    log.batteries["sec"] = marks
    layout = battery_layout(mount)
    in_arc_guns = [g for g in layout if in_arc(theta, *g.arc)]
    ready = [g for g in in_arc_guns if g.index < len(marks) and marks[g.index] is Mark.NONE]
    got = bearing_guns(log, mount, theta)
    assert (got.guns, got.in_arc) == (len(ready), len(in_arc_guns))
    assert sorted(i for _, idx in mount_spans(mount) for i in idx) == list(range(guns))
    assert mount_spans(mount) == battery_spans(pattern, guns)


@given(st.sampled_from(sorted(POSITION_ARCS)), thetas, st.booleans())
def test_BF6_POS_position_bearing_equals_in_arc(position: str, theta: float, hit: bool) -> None:
    """BF6-POS-01..11, AMB-15: a lettered position bears exactly when in_arc says so."""
    mount = Mounting(position, GunClass.MAIN, 30.5, 0.5, (12, 9, 6, 4), 2, 6, position=position)
    log = mount_ship(mount)
    log.positions[position].slashes = 1 if hit else 0
    bears = any(in_arc(theta, *a) for a in position_arcs(position))
    got = bearing_guns(log, mount, theta)
    assert got.in_arc == (2 if bears else 0)
    assert got.guns == (0 if hit or not bears else 2)


def test_AMB_14_bearing_guns_on_a_position_without_arc_raises() -> None:
    """AMB-14: N, Q and T have no arc; asking whether they bear is a data error."""
    mount = Mounting("N", GunClass.MAIN, 30.5, 0.5, (12, 9, 6, 4), 2, 6, position="N")
    with pytest.raises(RulesDataError, match="AMB-14"):
        bearing_guns(mount_ship(mount), mount, 0.0)


def test_bearing_guns_on_a_mounting_with_neither_position_nor_pattern_raises() -> None:
    mount = Mounting("odd", GunClass.SECONDARY, 15.2, 2, (5, 4, 2, None), 4, 3)
    log = mount_ship(battery(1, 4))
    log.batteries["odd"] = [Mark.NONE] * 4
    with pytest.raises(ValueError, match="not a beam-pattern battery"):
        bearing_guns(log, mount, 0.0)
