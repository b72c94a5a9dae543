"""The track picture (issue 14 item 1): labels never overlap, fates marked, turn ticks shown."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.render import _overlaps, _place_label, render_table
from battleline.rulesets.bf1900.scales import get_scale


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(-2000, 2000), st.floats(-2000, 2000)), min_size=1, max_size=25))
def test_placed_labels_never_overlap(points: list[tuple[float, float]]) -> None:
    """However the ships are piled up, each label box is clear of every other."""
    placed: list[tuple[float, float, float, float]] = []
    for x, y in points:
        _place_label(x, y, 900.0, 120.0, placed)
    assert len(placed) == len(points)
    clear = [not _overlaps(a, b) for i, a in enumerate(placed) for b in placed[i + 1 :]]
    # 13 heights × 5 columns are tried; 25 labels on one spot always find room.
    assert all(clear)


def test_a_pile_of_ships_gets_fates_and_turn_ticks(tmp_path: Path) -> None:
    """Five ships on nearly one spot (Santiago's squadron): every label drawn, fates named."""
    poses = {f"Ship {i}": Pose(10.0 * i, 5.0 * i, 90) for i in range(5)}
    fates = {"Ship 0": "sunk", "Ship 1": "sinking", "Ship 2": "surrendered"}
    out = render_table(
        tmp_path / "pile.svg",
        poses,
        dict.fromkeys(poses, (100.0, 20.0)),
        dict.fromkeys(poses, "Spain"),
        tracks={"Ship 4": [(0.0, 0.0), (500.0, 0.0), (1000.0, 0.0)]},
        scale=get_scale("small"),
        fates=fates,
        ticks={"Ship 4": [(1, 500.0, 0.0), (2, 1000.0, 0.0)]},
    )
    svg = out.read_text(encoding="utf-8")
    assert "Ship 0 (sunk)" in svg and "Ship 1 (sinking)" in svg and "Ship 2 (struck)" in svg
    assert "Ship 3" in svg and "Ship 4" in svg
    # The turn numbers by the track, in the ticks' small type (two ticks: each numbered).
    numbers = re.findall(r"font-size: 5px[^>]*>(\d+)</text>", svg)
    assert numbers == ["1", "2"]
