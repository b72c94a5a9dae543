"""The table drawn as a picture (SVG or PNG, by the file's suffix).

Ships are drawn to scale as their bases, with a bow wedge showing the heading and, when a base is
too small to see, a heading marker of fixed size on top. Colours follow ``sides`` (a side or a
division per ship). Land, the tracks of the last move, splash and hit markers, labels, a title and
a scale bar complete the picture. Output is deterministic: no timestamps, fixed SVG ids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import matplotlib as mpl
from matplotlib.figure import Figure
from matplotlib.patches import Polygon as PolygonPatch
from matplotlib.ticker import FuncFormatter
from shapely.geometry import box

from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.table import Land, footprint

Point = tuple[float, float]

_EMPTY_TRACKS: Mapping[str, Sequence[Point]] = MappingProxyType({})
_EMPTY_LABELS: Mapping[str, str] = MappingProxyType({})
_EMPTY_TICKS: Mapping[str, Sequence[tuple[int, float, float]]] = MappingProxyType({})
_PALETTE = ("#1f4e9c", "#b3261e", "#2e7d32", "#e08a00", "#6a3d9a", "#00838f", "#8d6e63", "#ad1457")
_SEA = "#dbe9f4"
_LAND = "#d8c8a0"
_WIDTH_IN = 10.0
_DPI = 150
#: Bases shorter than this many pixels also get a fixed-size heading marker.
_MIN_PIXELS = 24.0


def _colours(sides: Mapping[str, str]) -> dict[str, str]:
    groups = sorted(set(sides.values()))
    return {g: _PALETTE[i % len(_PALETTE)] for i, g in enumerate(groups)}


def _extent(
    poses: Mapping[str, Pose],
    sizes: Mapping[str, tuple[float, float]],
    land: Sequence[Land],
    tracks: Mapping[str, Sequence[Point]],
    markers: Sequence[tuple[float, float, str]],
) -> tuple[float, float, float, float]:
    xs: list[float] = []
    ys: list[float] = []
    for name, pose in poses.items():
        reach = sizes.get(name, (0.0, 0.0))[0] / 2.0
        xs += [pose.x - reach, pose.x + reach]
        ys += [pose.y - reach, pose.y + reach]
    for pts in tracks.values():
        xs += [p[0] for p in pts]
        ys += [p[1] for p in pts]
    xs += [m[0] for m in markers]
    ys += [m[1] for m in markers]
    # Land frames the picture: an island or a rock whole, a coast larger than the battle
    # only where it lies near the ships (all of it would shrink them to a pile).
    near, span = None, 0.0
    if xs:
        span = max(max(xs) - min(xs), max(ys) - min(ys), 1000.0)
        reach = 0.1 * span
        near = box(min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach)
    for piece in land:
        lx0, ly0, lx1, ly1 = piece.polygon.bounds
        large = max(lx1 - lx0, ly1 - ly0) > span
        shape = piece.polygon if near is None or not large else piece.polygon.intersection(near)
        if not shape.is_empty:
            lx0, ly0, lx1, ly1 = shape.bounds
            xs += [lx0, lx1]
            ys += [ly0, ly1]
    if not xs:
        return -1000.0, -1000.0, 1000.0, 1000.0
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    span = max(x1 - x0, y1 - y0, 1000.0)
    pad = 0.08 * span
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    half_w = max(x1 - x0, 0.6 * span) / 2.0 + pad
    half_h = max(y1 - y0, 0.4 * span) / 2.0 + pad
    return cx - half_w, cy - half_h, cx + half_w, cy + half_h


_FATE_WORD = {"sunk": "sunk", "sinking": "sinking", "surrendered": "struck"}


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _place_label(
    x: float, y: float, w: float, h: float, placed: list[tuple[float, float, float, float]]
) -> tuple[float, float]:
    """The left-centre point of a ``w`` × ``h`` label near (x, y) that overlaps no label placed
    before (tried beside the ship, then stepped up and down, then further right); the chosen
    box is added to ``placed``."""
    for dx in (0.0, w * 0.5, w, w * 1.5, w * 2.0):
        for k in range(0, 13):
            dy = (k + 1) // 2 * h * (1 if k % 2 else -1)
            box = (x + dx, y + dy - h / 2, x + dx + w, y + dy + h / 2)
            if not any(_overlaps(box, other) for other in placed):
                placed.append(box)
                return x + dx, y + dy
    placed.append((x, y - h / 2, x + w, y + h / 2))
    return x, y


def _turn_ticks(ax: Any, ticks: Sequence[tuple[int, float, float]], colour: str) -> None:
    """A tick at each turn's end position on a track, numbered every few turns."""
    if not ticks:
        return
    _, xs, ys = zip(*ticks, strict=True)
    ax.plot(xs, ys, ls="", marker="o", ms=1.8, color=colour, zorder=2)
    every = int(_nice(max(1.0, len(ticks) / 6.0)))
    for turn, x, y in ticks:
        if turn % every == 0:
            ax.annotate(
                str(turn),
                (x, y),
                xytext=(2, 2),
                textcoords="offset points",
                fontsize=5,
                color=colour,
                zorder=2,
            )


def _nice(value: float) -> float:
    """The largest 1, 2 or 5 × 10ⁿ not above ``value``."""
    if value <= 0:
        return 1.0
    exp = 10.0 ** int(f"{value:e}".split("e")[1])
    for step in (5.0, 2.0, 1.0):
        if step * exp <= value:
            return step * exp
    return exp


def render_table(
    path: str | Path,
    poses: Mapping[str, Pose],
    sizes: Mapping[str, tuple[float, float]],
    sides: Mapping[str, str],
    land: Sequence[Land] = (),
    tracks: Mapping[str, Sequence[Point]] = _EMPTY_TRACKS,
    markers: Sequence[tuple[float, float, str]] = (),
    labels: Mapping[str, str] = _EMPTY_LABELS,
    title: str = "",
    scale: Scale | None = None,
    fates: Mapping[str, str] = _EMPTY_LABELS,
    ticks: Mapping[str, Sequence[tuple[int, float, float]]] = _EMPTY_TICKS,
) -> Path:
    """Draw the table to ``path`` (``.svg`` or ``.png``) and return the path.

    ``poses``/``sizes`` are base centres and (length, width) in metres; ``sides`` colours each
    ship by its side or division; ``tracks`` are point lists in metres; ``markers`` are
    ``(x, y, kind)`` with kind ``"splash"`` or ``"hit"`` (anything else is drawn as a plain dot);
    ``labels`` replace a ship's name on the picture; ``fates`` mark a ship ``"sunk"`` (grey
    hull crossed out), ``"sinking"`` (red ring) or ``"surrendered"`` (white flag, "struck").
    ``ticks`` are ``(turn, x, y)`` end-of-move positions: a dot each, the turn number every few
    turns; labels are
    placed so that none overlaps another (moved ones get a leader line).
    """
    out = Path(path)
    fmt = out.suffix.lower().lstrip(".")
    if fmt not in ("svg", "png"):
        raise ValueError(f"cannot draw to {out.name!r}: use a .svg or .png file name")
    missing = [n for n in poses if n not in sizes]
    if missing:
        raise ValueError(f"no base size for {', '.join(sorted(missing))}")

    x0, y0, x1, y1 = _extent(poses, sizes, land, tracks, markers)
    height_in = max(4.0, min(14.0, _WIDTH_IN * (y1 - y0) / (x1 - x0)))
    with mpl.rc_context({"svg.hashsalt": "battleline", "svg.fonttype": "none", "font.size": 8}):
        fig = Figure(figsize=(_WIDTH_IN, height_in), dpi=_DPI)
        ax = fig.add_subplot()
        ax.set_facecolor(_SEA)
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        ax.set_aspect("equal", adjustable="box")
        km = FuncFormatter(lambda v, _pos: f"{v / 1000:g}")
        ax.xaxis.set_major_formatter(km)
        ax.yaxis.set_major_formatter(km)
        ax.set_xlabel("east (km)")
        ax.set_ylabel("north (km)")
        ax.grid(True, color="white", linewidth=0.6)
        ax.set_axisbelow(True)

        for piece in land:
            ring = list(piece.polygon.exterior.coords)
            patch = PolygonPatch(ring, closed=True, facecolor=_LAND, edgecolor="#8a7a50", lw=0.8)
            patch.set_gid(f"land-{piece.name}")
            ax.add_patch(patch)
            shown = piece.polygon.intersection(box(x0, y0, x1, y1))  # its name where it shows
            c = (shown if not shown.is_empty else piece.polygon).representative_point()
            ax.annotate(
                piece.name, (c.x, c.y), ha="center", va="center", fontsize=7, style="italic"
            )

        colours = _colours(sides)
        colour_of = {n: colours.get(sides.get(n, ""), "#555555") for n in poses}
        metres_per_px = (x1 - x0) / (_WIDTH_IN * _DPI * 0.78)
        for name, pts in sorted(tracks.items()):
            if len(pts) >= 2:
                xs, ys = zip(*pts, strict=True)
                colour = colour_of.get(name, "#555555")
                ax.plot(xs, ys, ls="--", lw=0.9, color=colour, zorder=2)
        for name, marks in sorted(ticks.items()):
            _turn_ticks(ax, marks, colour_of.get(name, "#555555"))
        for name in sorted(poses):
            pose = poses[name]
            length, width = sizes[name]
            colour = colour_of[name]
            base = PolygonPatch(
                list(footprint(pose, length, width).exterior.coords),
                closed=True,
                facecolor=colour,
                edgecolor="black",
                lw=0.6,
                zorder=3,
            )
            base.set_gid(f"ship-{name}")
            ax.add_patch(base)
            bow = [
                pose.offset(length / 2.0, 0.0),
                pose.offset(length / 4.0, width / 2.0),
                pose.offset(length / 4.0, -width / 2.0),
            ]
            ax.add_patch(PolygonPatch(bow, closed=True, facecolor="white", lw=0, zorder=4))
            if length / metres_per_px < _MIN_PIXELS:
                ax.plot(
                    [pose.x],
                    [pose.y],
                    marker=(3, 0, -pose.heading),
                    markersize=7,
                    color=colour,
                    markeredgecolor="black",
                    markeredgewidth=0.5,
                    zorder=5,
                )
            fate = fates.get(name, "")
            if fate == "sunk":
                base.set_facecolor("#9e9e9e")
                ax.plot([pose.x], [pose.y], marker="x", ms=9, mew=1.6, color="black", zorder=6)
            elif fate == "sinking":
                ax.plot(
                    [pose.x],
                    [pose.y],
                    marker="o",
                    ms=12,
                    mfc="none",
                    mec="#d50000",
                    mew=1.4,
                    zorder=6,
                )
            elif fate == "surrendered":
                ax.plot(
                    [pose.x],
                    [pose.y],
                    marker="$\u2691$",
                    ms=9,
                    color="white",
                    mec="black",
                    mew=0.3,
                    zorder=6,
                )

        placed: list[tuple[float, float, float, float]] = []
        for name in sorted(poses, key=lambda n: (-poses[n].y, poses[n].x)):
            pose = poses[name]
            length, width = sizes[name]
            text = labels.get(name, name)
            fate = fates.get(name, "")
            if fate in _FATE_WORD and _FATE_WORD[fate] not in text:
                text = f"{text} ({_FATE_WORD[fate]})"
            right = footprint(pose, length, width).bounds[2]
            box_w = (len(text) * 7 * 0.55 + 6) * _DPI / 72 * metres_per_px
            box_h = 7 * 1.5 * _DPI / 72 * metres_per_px
            gap = 6 * _DPI / 72 * metres_per_px
            lx, ly = _place_label(right + gap, pose.y, box_w, box_h, placed)
            moved = abs(ly - pose.y) > 1e-6 or abs(lx - right - gap) > 1e-6
            ax.annotate(
                text,
                (right, pose.y),
                xytext=(lx, ly),
                textcoords="data",
                ha="left",
                va="center",
                fontsize=7,
                zorder=2.5,  # under the hulls, so a label never hides a ship
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.7},
                arrowprops={"arrowstyle": "-", "lw": 0.5, "color": "#444444"} if moved else None,
            )

        for x, y, kind in markers:
            if kind == "hit":
                ax.plot([x], [y], marker="X", ms=8, color="#d50000", mec="black", mew=0.5, zorder=7)
            elif kind == "splash":
                ax.plot([x], [y], marker="o", ms=7, color="white", mec="#1565c0", mew=1.2, zorder=7)
            else:
                ax.plot([x], [y], marker=".", ms=6, color="#333333", zorder=7)

        for group, colour in colours.items():
            ax.plot([], [], marker="s", ls="", color=colour, label=group)
        if colours:
            ax.legend(loc="upper right", fontsize=7, framealpha=0.85)

        # scale bar: a round number of table units (or of metres without a scale)
        span = x1 - x0
        if scale is not None:
            units = _nice(scale.to_table(span / 5.0))
            bar_m = scale.from_table(units)
            text = f"{units:g} {scale.table_unit} = {bar_m / 1000:.2f} km ({scale.label})"
        else:
            bar_m = _nice(span / 5.0)
            text = f"{bar_m / 1000:g} km"
        bx, by = x0 + 0.04 * span, y0 + 0.05 * (y1 - y0)
        ax.plot([bx, bx + bar_m], [by, by], color="black", lw=2.5, solid_capstyle="butt", zorder=8)
        ax.annotate(text, (bx, by), xytext=(0, 5), textcoords="offset points", fontsize=7)
        if title:
            ax.set_title(title, fontsize=10)
        fig.tight_layout()

        out.parent.mkdir(parents=True, exist_ok=True)
        metadata: dict[str, str | None] = (
            {"Date": None, "Creator": None} if fmt == "svg" else {"Software": None}
        )
        fig.savefig(out, format=fmt, metadata=metadata)
    return out
