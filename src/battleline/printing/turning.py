"""Turning-circle templates at true scale (BF6-GEN-02, BF6-MOV-05, EX-BF6-02, REF-BF6-13).

A turning class is one tactical diameter: the rows of the conversion table (diameter by the
ship's length, ``data/conversion.toml``) and the per-type defaults of the scales file for classes
whose data gives none. Each prints as a half disc of the class's radius at the table's scale; the
ship starts at the left end of the flat edge with its side against the rim and slides round it,
and the marks every 15° give the distance the turn costs (the arc length r·θ the engine charges,
``movement.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from battleline.printing.draw import BOLD, GREY, MARGIN
from battleline.printing.paper import Document, Paper, table_points
from battleline.printing.true_scale import FOOTER_H, HEADER_H, page_frame, rim_point, text
from battleline.rulesets.bf1900.conversion import ConversionTables, load_conversion
from battleline.rulesets.bf1900.scales import Scale

_PAD = 16.0
_LABEL_H = 30.0


@dataclass(frozen=True, slots=True)
class TurningClass:
    """One turning-circle diameter and the ships that turn on it."""

    diameter_m: float
    who: tuple[str, ...]

    @property
    def radius_m(self) -> float:
        """Half the diameter: the radius the engine turns on (``movement.turn_radius_m``)."""
        return self.diameter_m / 2.0


def turning_classes(scale: Scale, tables: ConversionTables | None = None) -> list[TurningClass]:
    """Every turning class, smallest first: the conversion table's rows by length and the
    scale's defaults by ship type."""
    tables = tables or load_conversion()
    who: dict[float, list[str]] = {}
    low = 0.0
    for max_length, diameter in tables.turning_circle:
        span = f"over {low:g} m long" if max_length >= 9999 else f"{low:g}-{max_length:g} m long"
        who.setdefault(diameter, []).append(span)
        low = max_length
    for kind, diameter in scale.turning_circles_m:
        who.setdefault(diameter, []).append(f"{kind} default")
    return [TurningClass(d, tuple(w)) for d, w in sorted(who.items())]


@dataclass(frozen=True, slots=True)
class Placed:
    """A template placed on a page: its class, the centre of its flat edge and radius (pt)."""

    cls: TurningClass
    page: int
    cx: float
    cy: float
    radius_pt: float


def place_templates(paper: Paper, scale: Scale, classes: list[TurningClass]) -> list[Placed]:
    """Rows of templates left to right, top to bottom, as many pages as needed."""
    left, right = MARGIN, paper.width - MARGIN
    top_limit = paper.height - MARGIN - HEADER_H
    bottom_limit = MARGIN + FOOTER_H
    placed: list[Placed] = []
    page, x, row_top, row_h = 0, left, top_limit, 0.0
    for cls in classes:
        r = table_points(scale, cls.radius_m)
        w, h = 2 * r + 2 * _PAD, r + _LABEL_H + _PAD
        if w > right - left or h > top_limit - bottom_limit:
            raise ValueError(
                f"a {cls.diameter_m:g} m turning circle is {scale.fmt(cls.diameter_m)} across "
                f"at {scale.label}: too large for {paper.name} paper"
            )
        if x + w > right:
            x, row_top, row_h = left, row_top - row_h, 0.0
        if row_top - h < bottom_limit:
            page, x, row_top, row_h = page + 1, left, top_limit, 0.0
        placed.append(Placed(cls, page, x + w / 2, row_top - h + _LABEL_H, r))
        x += w
        row_h = max(row_h, h)
    return placed


def draw_template(canvas: Canvas, p: Placed, scale: Scale) -> None:
    """One half disc: the rim, the flat edge, marks every 15° with the distance charged."""
    r, cx, cy = p.radius_pt, p.cx, p.cy
    path = canvas.beginPath()
    path.arc(cx - r, cy - r, cx + r, cy + r, 0, 180)
    path.close()
    canvas.setLineWidth(0.9)
    canvas.setFillColorRGB(0.93, 0.93, 0.93)
    canvas.drawPath(path, stroke=1, fill=1)
    canvas.setFillColorRGB(0, 0, 0)
    for turn in range(15, 180, 15):
        # bearing from the centre: the start (left end) is 270, turning over the top
        bearing = 270.0 + turn
        major = turn % 45 == 0
        x0, y0 = rim_point(cx, cy, r, bearing)
        x1, y1 = rim_point(cx, cy, r - (7 if major else 4), bearing)
        canvas.setLineWidth(0.5)
        canvas.line(x0, y0, x1, y1)
        if major:
            lx, ly = rim_point(cx, cy, r + 7, bearing)
            text(canvas, lx, ly - 2, f"{turn}\u00b0", size=6, align="centre")
            charged = p.cls.radius_m * math.radians(turn)
            if r > 40:
                ix, iy = rim_point(cx, cy, r - 16, bearing)
                text(canvas, ix, iy - 2, scale.fmt(charged), size=5.5, align="centre")
    canvas.setLineWidth(0.5)
    canvas.line(cx - 3, cy, cx + 3, cy)
    canvas.line(cx, cy, cx, cy + 3)
    text(canvas, cx - r, cy - 9, "start", size=5.5, colour=GREY, align="centre")
    title = f"{p.cls.diameter_m:g} m circle: radius {scale.fmt(p.cls.radius_m)}"
    text(canvas, cx, cy - 17, title, size=7, font=BOLD, align="centre")
    text(canvas, cx, cy - 25, ", ".join(p.cls.who), size=5.5, colour=GREY, align="centre")


def draw_turning_circles(doc: Document, scale: Scale) -> int:
    """Every turning class onto new true-scale pages of ``doc``; returns the page count."""
    placed = place_templates(doc.paper, scale, turning_classes(scale))
    pages = max(p.page for p in placed) + 1
    st = scale.steering
    for n in range(pages):
        with doc.page(true_scale=True) as page:
            page_frame(
                page.canvas,
                doc.paper,
                scale,
                f"Turning circles ({n + 1}/{pages})",
                "Hold the rim against the ship's side and slide her round it; the distance "
                "round the rim is charged to her move (BF6-MOV-05). Port turns: start from the "
                f"other end. Steering damage widens the diameter: +{st.tr_hit_widening:.0%} per "
                f"TR hit, x{st.damaged_rudder_factor:g} with R/, x{st.engine_steering_factor:g} "
                "with RC (REF-BF6-13).",
            )
            for p in placed:
                if p.page == n:
                    draw_template(page.canvas, p, scale)
    return pages
