"""A plain SVG of a DBA table: each side's bases where they stand, their tracks, and a mark for
ships crippled (amber) or sunk (grey cross). Written by hand, no plotting library needed."""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

from battleline.errors import BattlelineError
from battleline.rulesets.dba.state import DbaState
from battleline.rulesets.dba.table import base_metres, footprint

_COLOURS = ("#1f4e9c", "#b22222")
_SIZE = 800
_MARGIN = 40


def draw_svg(state: DbaState) -> str:
    """The SVG text of the table."""
    base = base_metres()
    points = [(p.x, p.y) for p in state.poses.values()]
    for track in state.tracks.values():
        points.extend(track)
    xs, ys = [x for x, _ in points], [y for _, y in points]
    lo_x, hi_x = min(xs) - base, max(xs) + base
    lo_y, hi_y = min(ys) - base, max(ys) + base
    span = max(hi_x - lo_x, hi_y - lo_y, base)
    scale = (_SIZE - 2 * _MARGIN) / span

    def px(x: float, y: float) -> tuple[float, float]:
        return _MARGIN + (x - lo_x) * scale, _SIZE - _MARGIN - (y - lo_y) * scale

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_SIZE}" height="{_SIZE}" '
        f'viewBox="0 0 {_SIZE} {_SIZE}">',
        f'<rect width="{_SIZE}" height="{_SIZE}" fill="#dfe9f2"/>',
        f'<text x="{_MARGIN}" y="24" font-size="16">{escape(state.title or state.scenario)}'
        f" (turn {state.turn})</text>",
    ]
    for i, side in enumerate(state.sides):  # the legend: each side in its colour
        out.append(
            f'<text x="{_MARGIN + i * 160}" y="46" font-size="13" fill="{_COLOURS[i % 2]}">'
            f"■ {escape(side)}</text>"
        )
    if state.result is not None:
        out.append(
            f'<text x="{_MARGIN}" y="{_SIZE - 12}" font-size="13">'
            f"{escape(state.result.line())}</text>"
        )
    for name, s in state.ships.items():
        colour = _COLOURS[state.sides.index(s.side) % 2]
        start = state.tracks.get(name, [])
        if start:
            pts = " ".join(f"{a:.1f},{b:.1f}" for a, b in (px(x, y) for x, y in start))
            out.append(
                f'<polyline points="{pts}" fill="none" stroke="{colour}" '
                'stroke-width="1" stroke-dasharray="4 3"/>'
            )
        pose = state.poses[name]
        corners = footprint(pose, base).exterior.coords
        poly = " ".join(f"{a:.1f},{b:.1f}" for a, b in (px(x, y) for x, y in corners))
        fill = "#888888" if s.sunk else "#e0a020" if s.crippled else colour
        out.append(f'<polygon points="{poly}" fill="{fill}" stroke="black" stroke-width="0.5"/>')
        tx, ty = px(pose.x, pose.y)
        label = f"{name}{' (sunk)' if s.sunk else ''}"
        out.append(f'<text x="{tx + 8:.1f}" y="{ty - 6:.1f}" font-size="11">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def draw(state: DbaState, path: str) -> str:
    """Write the SVG to ``path`` (which must end in .svg); the path written."""
    target = Path(path)
    if target.suffix.lower() != ".svg":
        raise BattlelineError(f"{path}: the DBA picture is an SVG; give a path ending in .svg")
    target.write_text(draw_svg(state), encoding="utf-8")
    return str(target)
