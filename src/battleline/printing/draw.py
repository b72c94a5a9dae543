"""Drawing primitives shared by the printed play aids: a page measured from the top, boxes
with pencil marks (a slash for damaged, an X for destroyed), and short labelled text.

Everything is drawn with the PDF base fonts (Helvetica), so the text stays selectable and
searchable in the file; they cover Western European text (cp1252), enough for the ship
database's names.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from battleline.rulesets.bf1900.shiplog import Mark

#: The design frame of the sheets: A4 landscape, in points (1/72 in). ``paper.Document`` fits it
#: to the paper in use; the true-scale aids use the paper's own size instead.
_A4_LANDSCAPE: tuple[float, float] = landscape(A4)
PAGE_W, PAGE_H = _A4_LANDSCAPE
MARGIN = 28.0
FONT = "Helvetica"
BOLD = "Helvetica-Bold"
ITALIC = "Helvetica-Oblique"
INK = (0.0, 0.0, 0.0)
GREY = (0.45, 0.45, 0.45)
SHADE = (0.9, 0.9, 0.9)


_PLAIN = str.maketrans({"\u2264": "<=", "\u2265": ">=", "\u2192": "->", "\u2212": "-"})


def plain(text: str) -> str:
    """``text`` in the base fonts' encoding (cp1252): a few symbols spelt out, anything else
    the fonts cannot draw replaced by '?'."""
    return text.translate(_PLAIN).encode("cp1252", "replace").decode("cp1252")


def fit(text: str, width: float, font: str = FONT, size: float = 8.0) -> str:
    """``text`` (made :func:`plain`) cut with an ellipsis to fit ``width`` points."""
    text = plain(text)
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "...", font, size) > width:
        text = text[:-1]
    return text + "..."


@dataclass
class Page:
    """A canvas page addressed from its top-left corner (``top`` grows downwards).

    ``height`` is the page height in the canvas's units: the design frame's unless the page is
    drawn unscaled on a paper of another size.
    """

    canvas: Canvas
    height: float = PAGE_H

    def _y(self, top: float) -> float:
        return self.height - top

    def text(
        self,
        x: float,
        top: float,
        text: str,
        *,
        size: float = 8.0,
        font: str = FONT,
        width: float | None = None,
        align: str = "left",
        colour: tuple[float, float, float] = INK,
    ) -> None:
        """One line of text whose baseline is at ``top``; cut to ``width`` if given."""
        c = self.canvas
        text = fit(text, width, font, size) if width is not None else plain(text)
        c.setFont(font, size)
        if colour != INK:
            c.setFillColorRGB(*colour)
        if align == "centre":
            c.drawCentredString(x, self._y(top), text)
        elif align == "right":
            c.drawRightString(x, self._y(top), text)
        else:
            c.drawString(x, self._y(top), text)
        if colour != INK:
            c.setFillColorRGB(*INK)

    def rect(
        self,
        x: float,
        top: float,
        w: float,
        h: float,
        *,
        line: float = 0.6,
        fill: tuple[float, float, float] | None = None,
        dashed: bool = False,
    ) -> None:
        """A rectangle from its top-left corner."""
        c = self.canvas
        c.setLineWidth(line)
        if dashed:
            c.setDash(2, 2)
        if fill is not None:
            c.setFillColorRGB(*fill)
        c.rect(x, self._y(top + h), w, h, stroke=1, fill=1 if fill is not None else 0)
        if fill is not None:
            c.setFillColorRGB(*INK)
        if dashed:
            c.setDash()

    def line(self, x0: float, top0: float, x1: float, top1: float, *, width: float = 0.6) -> None:
        """A straight line between two points."""
        self.canvas.setLineWidth(width)
        self.canvas.line(x0, self._y(top0), x1, self._y(top1))

    def box(
        self, x: float, top: float, size: float, mark: Mark = Mark.NONE, label: str = ""
    ) -> None:
        """A square box, optionally labelled inside, with a pencil mark drawn over it."""
        self.rect(x, top, size, size)
        if label:
            fsize = min(6.5, size * 0.5)
            self.text(
                x + size / 2, top + size / 2 + fsize * 0.35, label, size=fsize, align="centre"
            )
        self.mark(x, top, size, size, mark)

    def mark(self, x: float, top: float, w: float, h: float, mark: Mark) -> None:
        """A slash (damaged) or an X (destroyed) across a box."""
        if mark is Mark.NONE:
            return
        self.line(x + 1, top + h - 1, x + w - 1, top + 1, width=1.2)
        if mark is Mark.DESTROYED:
            self.line(x + 1, top + 1, x + w - 1, top + h - 1, width=1.2)

    def boxes(
        self,
        x: float,
        top: float,
        marks: list[Mark],
        *,
        size: float = 11.0,
        gap: float = 2.0,
        per_row: int | None = None,
        numbered: bool = False,
    ) -> float:
        """A run of boxes, wrapped after ``per_row``; returns the height used."""
        if not marks:
            return 0.0
        per_row = per_row or len(marks)
        for i, mark in enumerate(marks):
            row, col = divmod(i, per_row)
            label = str(i + 1) if numbered else ""
            self.box(x + col * (size + gap), top + row * (size + gap), size, mark, label)
        rows = (len(marks) + per_row - 1) // per_row
        return rows * (size + gap) - gap

    def heading(self, x: float, top: float, text: str, width: float) -> float:
        """A section title with a rule under it; returns the height used."""
        self.text(x, top + 9, text.upper(), size=8, font=BOLD)
        self.line(x, top + 12, x + width, top + 12, width=0.8)
        return 16.0


def boxes_height(count: int, per_row: int, size: float = 11.0, gap: float = 2.0) -> float:
    """The height :meth:`Page.boxes` needs for ``count`` boxes."""
    if count <= 0:
        return 0.0
    rows = (count + per_row - 1) // per_row
    return rows * (size + gap) - gap
