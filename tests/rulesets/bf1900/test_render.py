"""The table picture: SVG and PNG files are written, deterministic, and show the ships."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.movement import Leg, trace
from battleline.rulesets.bf1900.render import render_table
from battleline.rulesets.bf1900.scales import get_scale
from battleline.rulesets.bf1900.table import Land

SIZE = (294.0, 94.0)


def scene() -> dict[str, object]:
    track = trace(
        "Mikasa", Pose(0, 0, 30), [Leg("straight", 500), Leg("turn", turn_deg=60)], 300, 1200
    )
    poses = {"Mikasa": track.end, "Fuji": Pose(0, -400, 30), "Retvizan": Pose(3000, 600, 200)}
    return {
        "poses": poses,
        "sizes": dict.fromkeys(poses, SIZE),
        "sides": {"Mikasa": "Japan", "Fuji": "Japan", "Retvizan": "Russia"},
        "land": [Land.from_coords("Encounter Rock", [(1500, -2500), (2200, -2400), (2000, -1900)])],
        "tracks": {"Mikasa": track.points},
        "markers": [(2900.0, 800.0, "hit"), (3200.0, 500.0, "splash")],
        "labels": {"Mikasa": "Mikasa (flag)"},
        "title": "Yellow Sea, turn 3",
        "scale": get_scale("small"),
    }


def test_svg_is_written_with_ships_land_labels_and_scale_bar(tmp_path: Path) -> None:
    out = render_table(tmp_path / "table.svg", **scene())  # type: ignore[arg-type]
    svg = out.read_text()
    assert out.suffix == ".svg" and svg.startswith("<?xml")
    for name in ("ship-Mikasa", "ship-Fuji", "ship-Retvizan", "land-Encounter Rock"):
        assert f'id="{name}"' in svg
    for text in ("Mikasa (flag)", "Retvizan", "Yellow Sea, turn 3", "Japan", "Russia", "50 mm"):
        assert text in svg


def test_svg_output_is_deterministic(tmp_path: Path) -> None:
    a = render_table(tmp_path / "a.svg", **scene())  # type: ignore[arg-type]
    b = render_table(tmp_path / "b.svg", **scene())  # type: ignore[arg-type]
    assert a.read_bytes() == b.read_bytes()
    assert "<dc:date>" not in a.read_text()


def colour_pixels(path: Path, colour: tuple[int, int, int]) -> int:
    rgb = imread(path)[..., :3]
    return int(np.all(np.abs(rgb - np.array(colour) / 255.0) < 0.02, axis=-1).sum())


def test_png_shows_tiny_ships_with_a_heading_marker(tmp_path: Path) -> None:
    """Ships 45 km apart are a few pixels long; the heading marker keeps each one visible."""
    russia = (0xB3, 0x26, 0x1E)  # second colour of the palette (sides sorted: Japan, Russia)
    corners = [(-5000.0, -5000.0, "corner"), (45_000.0, 25_000.0, "corner")]
    sides = {"Mikasa": "Japan", "Retvizan": "Russia"}
    both = {"Mikasa": Pose(0, 0, 90), "Retvizan": Pose(40_000, 20_000, 270)}
    with_ship = render_table(
        tmp_path / "sub" / "with.png", both, dict.fromkeys(both, SIZE), sides, markers=corners
    )
    assert with_ship.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    one = {"Mikasa": both["Mikasa"]}
    without = render_table(tmp_path / "without.png", one, {"Mikasa": SIZE}, sides, markers=corners)
    # the legend shows Russia's colour in both pictures; the ship itself adds a visible blob
    assert colour_pixels(with_ship, russia) - colour_pixels(without, russia) >= 30


def test_without_a_scale_the_bar_is_in_km_and_empty_table_still_draws(tmp_path: Path) -> None:
    out = render_table(tmp_path / "empty.svg", {}, {}, {})
    assert "km" in out.read_text()


def test_bad_requests_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.svg or \.png"):
        render_table(tmp_path / "table.jpg", {}, {}, {})
    with pytest.raises(ValueError, match="no base size for Fuji"):
        render_table(tmp_path / "t.svg", {"Fuji": Pose(0, 0, 0)}, {}, {"Fuji": "Japan"})
