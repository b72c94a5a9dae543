"""Drawing at true scale: sectors and bands of a circle, the calibration bar, and the frame of
every true-scale page (title, scale line, calibration bar, the "print at 100 %" warning).

Coordinates here are canvas points with ``y`` growing upwards (reportlab's own), on an unscaled
page of :class:`~battleline.printing.paper.Paper` size. Bearings are relative bearings, degrees
clockwise from the bow; on a card the bow points up the page.
"""

from __future__ import annotations

import math

from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from battleline.printing.draw import BOLD, FONT, GREY, INK, ITALIC, MARGIN, plain
from battleline.printing.paper import PT_PER_IN, PT_PER_MM, Paper
from battleline.rulesets.bf1900.scales import Scale

#: Length of the calibration bar: 100 mm, and 4 in beside it.
CALIBRATION_MM = 100.0
CALIBRATION_IN = 4.0
#: Height of the band the page frame keeps free at the top and the bottom of the page.
HEADER_H = 44.0
FOOTER_H = 40.0


def math_angle(bearing: float) -> float:
    """A relative bearing (clockwise from the bow, the bow up the page) as reportlab's angle
    (counter-clockwise from the +x axis)."""
    return 90.0 - bearing


def rim_point(cx: float, cy: float, r: float, bearing: float) -> tuple[float, float]:
    """The point at ``r`` points from the centre on relative bearing ``bearing``."""
    a = math.radians(bearing)
    return cx + r * math.sin(a), cy + r * math.cos(a)


def sector(
    canvas: Canvas,
    cx: float,
    cy: float,
    r: float,
    start: float,
    width: float,
    *,
    inner: float = 0.0,
    fill: tuple[float, float, float] | None = None,
    line: float = 0.6,
) -> None:
    """The clockwise arc ``[start, start + width]`` as a filled sector of radius ``r`` (or a band
    between ``inner`` and ``r``), centred on (cx, cy)."""
    path = canvas.beginPath()
    # reportlab draws counter-clockwise from the clockwise arc's far edge, start + width.
    far = math_angle(start + width)
    if inner > 0:
        path.arc(cx - r, cy - r, cx + r, cy + r, far, width)
        path.arcTo(cx - inner, cy - inner, cx + inner, cy + inner, far + width, -width)
    else:
        path.moveTo(cx, cy)
        path.arcTo(cx - r, cy - r, cx + r, cy + r, far, width)
    path.close()
    canvas.setLineWidth(line)
    if fill is not None:
        canvas.setFillColorRGB(*fill)
    canvas.drawPath(path, stroke=1, fill=1 if fill is not None else 0)
    canvas.setFillColorRGB(*INK)


def text(
    canvas: Canvas,
    x: float,
    y: float,
    value: str,
    *,
    size: float = 7.0,
    font: str = FONT,
    align: str = "left",
    colour: tuple[float, float, float] = INK,
) -> None:
    """One line of text with its baseline at ``y``."""
    canvas.setFont(font, size)
    canvas.setFillColorRGB(*colour)
    value = plain(value)
    if align == "centre":
        canvas.drawCentredString(x, y, value)
    elif align == "right":
        canvas.drawRightString(x, y, value)
    else:
        canvas.drawString(x, y, value)
    canvas.setFillColorRGB(*INK)


def calibration_bar(canvas: Canvas, x: float, y: float) -> float:
    """A 100 mm bar in 10 mm steps and a 4 in bar in ½ in steps, from (x, y); returns the width
    used. If either does not measure its length, the page was not printed at 100 %."""
    mm_len = CALIBRATION_MM * PT_PER_MM
    canvas.setLineWidth(0.5)
    for i in range(10):
        canvas.setFillColorRGB(*((0.0, 0.0, 0.0) if i % 2 == 0 else (1.0, 1.0, 1.0)))
        canvas.rect(x + i * mm_len / 10, y, mm_len / 10, 5, stroke=0, fill=1)
    canvas.setFillColorRGB(*INK)
    canvas.rect(x, y, mm_len, 5, stroke=1, fill=0)
    text(canvas, x, y + 8, "0", size=6)
    text(canvas, x + mm_len, y + 8, "100 mm", size=6, align="centre")
    in_x = x + mm_len + 30
    in_len = CALIBRATION_IN * PT_PER_IN
    for i in range(8):
        canvas.setFillColorRGB(*((0.0, 0.0, 0.0) if i % 2 == 0 else (1.0, 1.0, 1.0)))
        canvas.rect(in_x + i * in_len / 8, y, in_len / 8, 5, stroke=0, fill=1)
    canvas.setFillColorRGB(*INK)
    canvas.rect(in_x, y, in_len, 5, stroke=1, fill=0)
    text(canvas, in_x, y + 8, "0", size=6)
    text(canvas, in_x + in_len, y + 8, "4 in", size=6, align="centre")
    return in_x + in_len - x


def page_frame(canvas: Canvas, paper: Paper, scale: Scale, title: str, rule: str) -> None:
    """Title and scale at the top; the calibration bar and the print warning at the foot."""
    top = paper.height - MARGIN
    text(canvas, MARGIN, top - 12, title, size=14, font=BOLD)
    text(
        canvas,
        paper.width - MARGIN,
        top - 12,
        f"{scale.label}, models {scale.model_scale}",
        size=9,
        align="right",
    )
    canvas.setLineWidth(1.0)
    canvas.line(MARGIN, top - 18, paper.width - MARGIN, top - 18)
    for i, line in enumerate(simpleSplit(plain(rule), ITALIC, 6.5, paper.width - 2 * MARGIN)[:2]):
        text(canvas, MARGIN, top - 28 - 8 * i, line, size=6.5, font=ITALIC, colour=GREY)
    calibration_bar(canvas, MARGIN, MARGIN + 4)
    text(
        canvas,
        MARGIN,
        MARGIN + 26,
        'Print at 100 % ("actual size"): the bars below must measure 100 mm and 4 in.',
        size=7,
        font=BOLD,
    )
    text(
        canvas,
        paper.width - MARGIN,
        MARGIN + 26,
        f"battleline - true-scale play aid ({paper.name.upper()}); "
        + ("reconstructed scale values" if scale.reconstructed else "scale values from your file"),
        size=6,
        colour=GREY,
        align="right",
    )


def nice_metres(limit_m: float) -> float:
    """The largest round distance not above ``limit_m``: a multiple of a tenth of the power of
    ten below it (370 m under 376 m, 180 m under 188 m, 1200 m under 1250 m)."""
    if limit_m <= 0:
        raise ValueError(f"no room for a distance: {limit_m!r} m")
    step = 10.0 ** math.floor(math.log10(limit_m)) / 10
    return float(math.floor(limit_m / step) * step)


def points_per_unit(scale: Scale) -> float:
    """Points in one of the scale's table units."""
    return PT_PER_MM if scale.table_unit == "mm" else PT_PER_IN
