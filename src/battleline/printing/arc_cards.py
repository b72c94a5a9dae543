"""Arc-of-fire cards at true scale (BF6-GEN-02, REF-BF6-09).

One card per lettered position (BF6-POS-01..09; the port member of each pair is the mirror of the
starboard one), stem, stern and centre-line (BF6-POS-10/11), one per beam pattern 0, 1 and 2
(BF6-BEAM-01..06), and one per torpedo tube position (BF6-TORP-09/10: 60° side, end and
beam-pattern tubes, 95° centre-line tubes). Every arc is read from the rules code
(``rulesets/bf1900/arcs.py`` and ``torpedoes.py``), never typed again here.

A card is a disc whose centre goes on the centre of the ship's base (bearings are taken from
there, as the engine does) with the bow line along the keel. The arcs are shaded sectors; where
one mounting has several arcs with different guns (the beam patterns) each arc is a band of its
own. The disc's radius is a round distance at the table's scale, and a battleship's base is drawn
at the centre to the same scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from battleline.printing.draw import BOLD, GREY, ITALIC, MARGIN
from battleline.printing.paper import Document, Paper, table_points
from battleline.printing.true_scale import (
    FOOTER_H,
    HEADER_H,
    nice_metres,
    page_frame,
    rim_point,
    sector,
    text,
)
from battleline.rulesets.bf1900.arcs import (
    POSITION_ARCS,
    Arc,
    arc_width,
    mirror,
    side_layout,
    union_width,
)
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.torpedoes import LAUNCH_ARCS

SHADES = ((0.72, 0.72, 0.72), (0.84, 0.84, 0.84), (0.93, 0.93, 0.93))
#: Grids tried for the cards, most cards a page first (columns, rows).
GRIDS = ((4, 2), (3, 2), (2, 1), (1, 1))
#: How far a card's disc must reach along a battleship's base: 95 % of the way to its ends.
BASE_REACH = 0.95
_LABEL_H = 34.0


@dataclass(frozen=True, slots=True)
class Band:
    """One shaded arc on a card: from ``inner`` to ``outer`` (fractions of the radius)."""

    arc: Arc
    label: str = ""
    inner: float = 0.0
    outer: float = 1.0


@dataclass(frozen=True, slots=True)
class ArcCard:
    """A card: its title, the rule it draws, its bands and a line of explanation."""

    title: str
    rule: str
    bands: tuple[Band, ...]
    note: str = ""


def _deg(value: float) -> str:
    return f"{value:g}\u00b0"


def _interval(arc: Arc) -> str:
    return f"[{arc[0]:g}, {arc[1]:g}]"


_POSITION_RULES = {
    "A": "BF6-POS-01", "B": "BF6-POS-02", "C": "BF6-POS-02", "D": "BF6-POS-03",
    "E": "BF6-POS-03", "M": "BF6-POS-04", "O": "BF6-POS-04", "P": "BF6-POS-05",
    "R": "BF6-POS-05", "S": "BF6-POS-06", "U": "BF6-POS-06", "V": "BF6-POS-07",
    "W": "BF6-POS-07", "X": "BF6-POS-08", "Y": "BF6-POS-08", "Z": "BF6-POS-09",
    "stem": "BF6-POS-10", "stern": "BF6-POS-10", "centreline": "BF6-POS-11",
}  # fmt: skip
_PAIRS = {
    letter: pair
    for pair in ("B/C", "D/E", "M-O", "P-R", "S-U", "V/W", "X/Y")
    for letter in (pair[0], pair[-1])
}
_PORT = frozenset("BDMPSVX")


def position_cards() -> list[ArcCard]:
    """A card for every position that has an arc in the rules, in the rules' order."""
    cards = []
    for key in _POSITION_RULES:
        arcs = POSITION_ARCS[key]
        if key in _PAIRS:
            side = "port" if key in _PORT else "starboard"
            title = f"{key}  ({side} gun of {_PAIRS[key]})"
        elif key == "centreline":
            title = "Centre-line"
        else:
            title = key if len(key) == 1 else key.capitalize()
        if key == "centreline":
            note = "either beam: " + " or ".join(_interval(a) for a in arcs)
        else:
            note = " + ".join(_interval(a) for a in arcs) + f" = {_deg(union_width(arcs))}"
        cards.append(ArcCard(title, _POSITION_RULES[key], tuple(Band(a) for a in arcs), note))
    return cards


def pattern_cards() -> list[ArcCard]:
    """One card per beam pattern: each side's bow-anchored, stern-anchored and beam-centred guns
    as three bands, with how many guns take each arc (BF6-BEAM-02..04)."""
    cards = []
    for pattern in (2, 1, 0):
        starboard = side_layout(pattern, 2 * pattern + 1)  # every arc the pattern uses
        groups: dict[Arc, int] = {}
        for arc in starboard:
            groups[arc] = groups.get(arc, 0) + 1
        arcs = list(groups)
        bands: list[Band] = []
        depth = 1.0 / len(arcs)
        for i, arc in enumerate(arcs):
            last = i == len(arcs) - 1
            label = "rest" if last else f"{groups[arc]} gun{'s' if groups[arc] > 1 else ''}"
            outer, inner = 1.0 - i * depth, 1.0 - (i + 1) * depth
            bands.append(Band(arc, label, inner, outer))
            bands.append(Band(mirror(arc), label, inner, outer))
        ahead = 2 * pattern
        note = f"135\u00b0 each; {ahead} guns bear dead ahead and {ahead} dead astern"
        rule = {2: "BF6-BEAM-02", 1: "BF6-BEAM-03", 0: "BF6-BEAM-04"}[pattern] + ", BF6-BEAM-06"
        cards.append(ArcCard(f"Beam pattern {pattern}", rule, tuple(bands), note))
    return cards


_TUBE_TITLES = {
    "bow": "Torpedo: bow tube",
    "stern": "Torpedo: stern tube",
    "starboard": "Torpedo: starboard tube",
    "port": "Torpedo: port tube",
    "centreline": "Torpedo: centre-line tubes",
    "beam": "Torpedo: beam-pattern tubes",
}


def torpedo_cards() -> list[ArcCard]:
    """One card per tube position (BF6-TORP-09/10, BF6-BEAM-05)."""
    cards = []
    for position, arcs in LAUNCH_ARCS.items():
        width = _deg(arc_width(arcs[0]))
        how = "either side" if len(arcs) > 1 else "one arc"
        note = f"{width}, {how}: " + " or ".join(_interval(a) for a in arcs)
        rule = "BF6-TORP-09, BF6-TORP-10" + (", BF6-BEAM-05" if position == "beam" else "")
        title = _TUBE_TITLES.get(position, f"Torpedo: {position} tubes")
        cards.append(ArcCard(f"{title} ({width})", rule, tuple(Band(a) for a in arcs), note))
    return cards


def all_cards() -> list[ArcCard]:
    """Every card, in print order."""
    return position_cards() + pattern_cards() + torpedo_cards()


@dataclass(frozen=True, slots=True)
class CardLayout:
    """Where the cards go on a page of ``paper``: a grid of cells and the disc radius."""

    paper: Paper
    scale: Scale
    radius_m: float
    radius_pt: float
    columns: int
    rows: int

    @property
    def cell_w(self) -> float:
        """Width of one cell, points."""
        return (self.paper.width - 2 * MARGIN) / self.columns

    @property
    def cell_h(self) -> float:
        """Height of one cell, points."""
        return (self.paper.height - 2 * MARGIN - HEADER_H - FOOTER_H) / self.rows

    @property
    def per_page(self) -> int:
        """Cards on one page."""
        return self.columns * self.rows

    def centre(self, index: int) -> tuple[float, float]:
        """Centre of the disc of the ``index``-th card on its page."""
        col, row = index % self.columns, (index // self.columns) % self.rows
        x = MARGIN + col * self.cell_w + self.cell_w / 2
        top = self.paper.height - MARGIN - HEADER_H
        y = top - row * self.cell_h - _LABEL_H - (self.cell_h - _LABEL_H) / 2
        return x, y


def _battleship_base(scale: Scale) -> tuple[float, float]:
    """(length, width) of a battleship's base in table units."""
    return next((a, b) for kind, a, b in scale.bases if kind == "BB")


def card_layout(paper: Paper, scale: Scale) -> CardLayout:
    """The grid with the most cards a page whose disc reaches the ends of a battleship's base
    (a radius of at least :data:`BASE_REACH` of half the base's length), and the largest round
    radius that fits its cells."""
    per_m = table_points(scale, 1000.0) / 1000.0
    half_base_pt = table_points(scale, scale.from_table(_battleship_base(scale)[0])) / 2
    layout: CardLayout | None = None
    for columns, rows in GRIDS:
        cell_w = (paper.width - 2 * MARGIN) / columns
        cell_h = (paper.height - 2 * MARGIN - HEADER_H - FOOTER_H) / rows
        room_pt = min(cell_w, cell_h - _LABEL_H) / 2 - 8
        radius_m = nice_metres(room_pt / per_m)
        layout = CardLayout(paper, scale, radius_m, table_points(scale, radius_m), columns, rows)
        if layout.radius_pt >= BASE_REACH * half_base_pt:
            break
    assert layout is not None
    return layout


def _base_outline(canvas: Canvas, cx: float, cy: float, scale: Scale) -> None:
    """A battleship's base at the scale, centred, its length along the bow line."""
    length, width = _battleship_base(scale)
    per = table_points(scale, scale.from_table(1.0))
    canvas.setLineWidth(0.4)
    canvas.setDash(1.5, 1.5)
    canvas.rect(cx - width * per / 2, cy - length * per / 2, width * per, length * per)
    canvas.setDash()


def draw_card(canvas: Canvas, card: ArcCard, layout: CardLayout, cx: float, cy: float) -> None:
    """One card with its disc centred on (cx, cy)."""
    r = layout.radius_pt
    label_top = cy + (layout.cell_h - _LABEL_H) / 2 + _LABEL_H - 6
    text(canvas, cx - layout.cell_w / 2 + 6, label_top - 4, card.title, size=8.5, font=BOLD)
    text(canvas, cx - layout.cell_w / 2 + 6, label_top - 14, card.note, size=6.2)
    radius = f"radius {layout.radius_m:g} m = {layout.scale.fmt(layout.radius_m)}"
    text(
        canvas,
        cx - layout.cell_w / 2 + 6,
        label_top - 23,
        f"{card.rule};  {radius}",
        size=5.8,
        colour=GREY,
    )
    for i, band in enumerate(card.bands):
        shade = SHADES[min(i // 2, len(SHADES) - 1)] if card.title.startswith("Beam") else None
        sector(
            canvas,
            cx,
            cy,
            r * band.outer,
            band.arc[0],
            arc_width(band.arc),
            inner=r * band.inner,
            fill=shade or SHADES[0],
            line=0.5,
        )
    canvas.setLineWidth(0.8)
    canvas.circle(cx, cy, r, stroke=1, fill=0)
    # rim ticks every 15 degrees, longer every 45
    for tick in range(0, 360, 15):
        x0, y0 = rim_point(cx, cy, r, tick)
        x1, y1 = rim_point(cx, cy, r - (6 if tick % 45 == 0 else 3), tick)
        canvas.setLineWidth(0.4)
        canvas.line(x0, y0, x1, y1)
    # the arcs' edges, labelled outside the rim
    edges = sorted({e for b in card.bands for e in b.arc})
    for deg in edges:
        x, y = rim_point(cx, cy, r + 6, deg)
        text(canvas, x, y - 2, f"{deg:g}", size=5.5, align="centre", colour=GREY)
    for band in card.bands:
        if band.label:
            mid = band.arc[0] + arc_width(band.arc) / 2
            x, y = rim_point(cx, cy, r * (band.inner + band.outer) / 2, mid)
            text(canvas, x, y - 2, band.label, size=5.5, align="centre")
    # bow line and centre cross
    canvas.setLineWidth(0.9)
    canvas.line(cx, cy, cx, cy + r)
    canvas.line(cx - 3, cy + r - 5, cx, cy + r)
    canvas.line(cx + 3, cy + r - 5, cx, cy + r)
    text(canvas, cx + 3, cy + r - 12, "bow", size=5.5, font=ITALIC)
    canvas.setLineWidth(0.5)
    canvas.line(cx - 4, cy, cx + 4, cy)
    canvas.line(cx, cy - 4, cx, cy + 4)
    _base_outline(canvas, cx, cy, layout.scale)


def cards_pages(count: int, layout: CardLayout) -> int:
    """Pages needed for ``count`` cards."""
    return max(1, math.ceil(count / layout.per_page))


def draw_cards(doc: Document, scale: Scale, cards: list[ArcCard] | None = None) -> int:
    """Every card (or ``cards``) onto new true-scale pages of ``doc``; returns the page count."""
    cards = all_cards() if cards is None else cards
    layout = card_layout(doc.paper, scale)
    per_page = layout.per_page
    pages = cards_pages(len(cards), layout)
    for p in range(pages):
        with doc.page(true_scale=True) as page:
            canvas = page.canvas
            page_frame(
                canvas,
                doc.paper,
                scale,
                f"Arcs of fire ({p + 1}/{pages})",
                "Centre on the centre of the base, bow line along the keel; a target bears if its "
                "forward funnel lies in a shaded arc (BF6-POS, BF6-BEAM, BF6-TORP-09/10). "
                "The dashed box is a battleship's base at this scale.",
            )
            for i, card in enumerate(cards[p * per_page : (p + 1) * per_page]):
                draw_card(canvas, card, layout, *layout.centre(i))
    return pages
