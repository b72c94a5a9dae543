"""Range rulers at true scale (BF6-GEN-09, BF6-MOV-04, REF-BF6-01, BF6-DZ-01..03).

The ruler runs from 0 to maximum gun range in the four range brackets. It is longer than any
page, so it is cut into strips of equal length, each bracket into as many strips as it needs;
glue them end to end at the join marks. Ticks every 100 m (500 m and 1 km longer) are labelled
in metres and in table units. Below the ruler, two gauges give the depth of the danger zone beyond
the target's leading edge in the 1st and 2nd brackets (``gunnery.danger_zone_m``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from battleline.printing.draw import BOLD, GREY, ITALIC, MARGIN
from battleline.printing.paper import Document, Paper, table_points
from battleline.printing.true_scale import FOOTER_H, HEADER_H, page_frame, text
from battleline.rulesets.bf1900.gunnery import danger_zone_m
from battleline.rulesets.bf1900.scales import BRACKETS, Scale

BAR_H = 14.0
STRIP_H = 52.0
TICK_M = 100.0
_BRACKET_SHADES = ((0.82, 0.82, 0.82), (0.92, 0.92, 0.92))


@dataclass(frozen=True, slots=True)
class Strip:
    """One piece of the ruler (``start_m`` to ``end_m``) or a danger-zone gauge."""

    start_m: float
    end_m: float
    bracket: int
    gauge: str = ""

    @property
    def length_m(self) -> float:
        """Metres of sea the strip spans."""
        return self.end_m - self.start_m


def ruler_strips(scale: Scale, paper: Paper) -> list[Strip]:
    """The ruler cut into strips that fit across ``paper``, then the danger-zone gauges."""
    room = paper.width - 2 * MARGIN - 20
    per_bracket = math.ceil(table_points(scale, scale.bracket_m) / room)
    piece = scale.bracket_m / per_bracket
    strips = [
        Strip(b * scale.bracket_m + i * piece, b * scale.bracket_m + (i + 1) * piece, b + 1)
        for b in range(BRACKETS)
        for i in range(per_bracket)
    ]
    for bracket in (1, 2):
        depth = danger_zone_m(bracket, scale.bracket_m)
        name = "1st" if bracket == 1 else "2nd"
        parts = math.ceil(table_points(scale, depth) / room)
        for i in range(parts):
            label = f"Danger zone, leading edge in the {name} bracket: {depth:g} m"
            if parts > 1:
                label += f" (part {i + 1} of {parts}, {depth / parts:.0f} m)"
            strips.append(Strip(i * depth / parts, (i + 1) * depth / parts, bracket, label))
    return strips


def _ticks(strip: Strip) -> list[float]:
    first = math.ceil(strip.start_m / TICK_M - 1e-9) * TICK_M
    n = math.floor((strip.end_m - first) / TICK_M + 1e-9)
    return [first + i * TICK_M for i in range(n + 1)]


def draw_strip(canvas: Canvas, strip: Strip, scale: Scale, x: float, top: float) -> float:
    """One strip with its top edge at ``top``; returns its length in points."""
    length = table_points(scale, strip.length_m)
    y = top - 12 - BAR_H
    shade = _BRACKET_SHADES[(strip.bracket - 1) % 2]
    canvas.setFillColorRGB(*shade)
    canvas.setLineWidth(0.6)
    canvas.rect(x, y, length, BAR_H, stroke=1, fill=1)
    canvas.setFillColorRGB(0, 0, 0)
    if strip.gauge:
        total = scale.fmt(danger_zone_m(strip.bracket, scale.bracket_m))
        text(canvas, x, top - 8, f"{strip.gauge}; the whole zone is {total}", size=7.5, font=BOLD)
        text(
            canvas,
            x,
            y - 10,
            "Lay it beyond the target's leading edge along the line of fire: an estimate that "
            "falls on the model, its base or this depth is a hit zone (BF6-DZ-01/02; none in "
            "the 3rd and 4th brackets, BF6-DZ-03).",
            size=6,
            font=ITALIC,
            colour=GREY,
        )
        return length
    rof = "ROF 2 allowed" if strip.bracket <= 2 else "beyond half range: ROF 1 at most"
    dz = danger_zone_m(strip.bracket, scale.bracket_m)
    zone = f"danger zone {dz:g} m" if dz else "no danger zone"
    head = (
        f"Bracket {strip.bracket}: {strip.start_m:.0f}-{strip.end_m:.0f} m  "
        f"({scale.fmt(strip.start_m, 1)} to {scale.fmt(strip.end_m, 1)}); {zone}; {rof}"
    )
    text(canvas, x, top - 8, head, size=7.5, font=BOLD)
    for m in _ticks(strip):
        tx = x + table_points(scale, m - strip.start_m)
        big = m % 1000 == 0
        mid = m % 500 == 0
        h = BAR_H if big else BAR_H * (0.6 if mid else 0.35)
        canvas.setLineWidth(0.8 if big else 0.4)
        canvas.line(tx, y, tx, y + h)
        if mid:
            text(canvas, tx, y - 8, f"{m:g} m", size=5.8, align="centre")
            text(canvas, tx, y - 15, scale.fmt(m), size=5.2, align="centre", colour=GREY)
    # join marks: the next strip is glued on here
    canvas.setDash(1, 1)
    canvas.line(x + length, y - 3, x + length, y + BAR_H + 3)
    canvas.setDash()
    if strip.end_m < scale.max_range_m:
        text(canvas, x + length + 3, y + 4, "join", size=5.5, font=ITALIC, colour=GREY)
    else:
        text(canvas, x + length + 3, y + 4, "max", size=5.5, font=BOLD)
    return length


def strips_per_page(paper: Paper) -> int:
    """How many strips a page holds."""
    return int((paper.height - 2 * MARGIN - HEADER_H - FOOTER_H) // STRIP_H)


def draw_rulers(doc: Document, scale: Scale) -> int:
    """The whole ruler and the gauges onto new true-scale pages of ``doc``; the page count."""
    strips = ruler_strips(scale, doc.paper)
    per_page = strips_per_page(doc.paper)
    pages = math.ceil(len(strips) / per_page)
    for n in range(pages):
        with doc.page(true_scale=True) as page:
            page_frame(
                page.canvas,
                doc.paper,
                scale,
                f"Range ruler ({n + 1}/{pages})",
                f"Four brackets of {scale.bracket_m:g} m = {scale.fmt(scale.bracket_m)}; maximum "
                f"range {scale.max_range_m:g} m = {scale.fmt(scale.max_range_m)} (REF-BF6-01). "
                "Cut out the strips and glue them end to end at the join marks.",
            )
            top = doc.paper.height - MARGIN - HEADER_H
            for i, strip in enumerate(strips[n * per_page : (n + 1) * per_page]):
                draw_strip(page.canvas, strip, scale, MARGIN, top - i * STRIP_H)
    return pages
