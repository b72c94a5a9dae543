"""The combat chart tables as a printable PDF (BF6-GEN-02, REF-BF6-04/06/18).

The publisher's Combat Chart is lost; what prints here is battleline's chart data as loaded by
:func:`~battleline.rulesets.bf1900.charts.load_charts`, the same values the engine rolls
against. When the data says ``reconstructed = true`` (the packaged charts do) every page says so
in its title and footer. Tables flow down three columns a page: the AP and HE hit tables, the
Miscellaneous Damage chart, the Critical Effects lines, flooding occurrence and effects, uneven
flooding, sinking, damage control, command functions and torpedo hits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import stringWidth

from battleline.printing.draw import (
    BOLD,
    GREY,
    ITALIC,
    MARGIN,
    PAGE_H,
    PAGE_W,
    SHADE,
    Page,
    plain,
)
from battleline.printing.paper import PAPERS, Document, Paper
from battleline.rulesets.bf1900.charts import FACES, Charts, Codes, load_charts
from battleline.rulesets.bf1900.ship import FloodLevel

COLUMNS = 3
_GUTTER = 14.0
_ROW_H = 10.0
_FONT_SIZE = 6.5
_COL_W = (PAGE_W - 2 * MARGIN - (COLUMNS - 1) * _GUTTER) / COLUMNS
_TOP = MARGIN + 30
_BOTTOM = PAGE_H - MARGIN - 8


@dataclass(frozen=True, slots=True)
class Grid:
    """One printed table: a title, column heads and rows of cells (the first is the row head)."""

    title: str
    heads: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""

    @property
    def height(self) -> float:
        """Points the table takes, title and note included."""
        return 14 + _ROW_H * (1 + len(self.rows)) + (10 if self.note else 0) + 10


def _codes(codes: Codes) -> str:
    return ", ".join(codes) if codes else "-"


def _level(level: FloodLevel) -> str:
    return "-" if level is FloodLevel.NONE else level.name.capitalize()


def _location_die(locations: Sequence[str | None]) -> str:
    """The location die in runs: "1 vitals, 2-3 upperworks, 4-6 miss"."""
    runs: list[tuple[int, int, str]] = []
    for face, loc in zip(FACES, locations, strict=True):
        name = loc or "miss"
        if runs and runs[-1][2] == name:
            runs[-1] = (runs[-1][0], face, name)
        else:
            runs.append((face, face, name))
    return ", ".join(f"{a}-{b} {n}" if a < b else f"{a} {n}" for a, b, n in runs)


def chart_grids(charts: Charts) -> list[Grid]:
    """Every chart table as printable grids, in print order."""
    grids: list[Grid] = []
    for table in (charts.ap, charts.he):
        ammo = table.ammo.value
        where = _location_die(table.locations)
        heads = ("1D6", *(c.name for c in table.columns))
        for loc, cells in table.cells.items():
            rows = tuple(
                (str(f), *(_codes(c) for c in row)) for f, row in zip(FACES, cells, strict=True)
            )
            grids.append(
                Grid(
                    f"{ammo} hits: {loc}",
                    heads,
                    rows,
                    f"Location 1D6: {where}; penetration x{table.penetration_factor:g}",
                )
            )
    grids.append(
        Grid(
            "Miscellaneous damage",
            ("1D6", "codes"),
            tuple((str(f), _codes(c)) for f, c in zip(FACES, charts.misc, strict=True)),
        )
    )
    crit_rows = tuple(
        (line.replace("_", " "), *(_codes(c) for c in cells))
        for line, cells in charts.critical_lines.items()
    )
    grids.append(Grid("Critical effects", ("line", *map(str, FACES)), crit_rows))
    occ_rows = tuple(
        (str(f), *(_level(lv) for lv in row))
        for f, row in zip(FACES, charts.occurrence, strict=True)
    )
    grids.append(
        Grid(
            "Flooding occurrence",
            ("1D6", *charts.flood_column_names),
            occ_rows,
            "Column: weapon size as % of the target's size",
        )
    )
    eff_rows = tuple(
        (_level(lv), *(_codes(c) for c in cells)) for lv, cells in charts.effects.items()
    )
    grids.append(Grid("Flooding effects", ("level", *map(str, FACES)), eff_rows))
    for axis, effects in charts.uneven.items():
        rows = tuple((str(i), str(e)) for i, e in enumerate(effects, start=1))
        name = "side to side" if axis == "side" else "fore and aft"
        grids.append(Grid(f"Uneven flooding, {name}", ("points", "effect"), rows))
    sink_rows = tuple(
        (str(r.points), f"{r.lo}-{r.hi}" if r.lo < r.hi else str(r.lo), str(r.turns))
        for r in charts.sinking
    )
    grids.append(Grid("Sinking", ("points", "1D6 sinks", "turns"), sink_rows))
    grids.append(
        Grid(
            "Damage control",
            ("action", "1D6"),
            tuple((a.replace("_", " "), f"{lo}-{hi}") for a, (lo, hi) in charts.repair.items()),
        )
    )
    grids.append(
        Grid(
            "Command functions",
            ("function", "1D6"),
            tuple(
                (f.replace("_", " ").lower(), f"{lo}-{hi}")
                for f, (lo, hi) in charts.command.items()
            ),
        )
    )
    courses = list(dict.fromkeys(c for c, _ in charts.torpedo))
    aspects = list(dict.fromkeys(a for _, a in charts.torpedo))
    torp_rows = tuple(
        (c.replace("_", " "), *(f"{charts.torpedo[(c, a)]}+" for a in aspects)) for c in courses
    )
    grids.append(Grid("Torpedo hits", ("course", *aspects), torp_rows, "1D6 score needed to hit"))
    return grids


def _widths(grid: Grid) -> list[float]:
    """Column widths: each column's widest cell, the spare width shared out evenly (or all
    shrunk in proportion when the cells are too wide)."""
    natural = [
        max(stringWidth(plain(row[i]), BOLD, _FONT_SIZE) for row in (grid.heads, *grid.rows)) + 6
        for i in range(len(grid.heads))
    ]
    total = sum(natural)
    if total > _COL_W:
        return [w * _COL_W / total for w in natural]
    spare = (_COL_W - total) / len(natural)
    return [w + spare for w in natural]


def _draw_grid(page: Page, grid: Grid, x: float, top: float) -> None:
    page.text(x, top + 9, grid.title, size=8.5, font=BOLD, width=_COL_W)
    top += 14
    widths = _widths(grid)
    page.rect(x, top, _COL_W, _ROW_H, fill=SHADE, line=0.3)
    for r, row in enumerate((grid.heads, *grid.rows)):
        cx = x
        y = top + r * _ROW_H
        for i, (cell, w) in enumerate(zip(row, widths, strict=False)):
            font = BOLD if r == 0 or i == 0 else "Helvetica"
            page.text(cx + 2, y + 7.5, cell, size=_FONT_SIZE, font=font, width=w - 3)
            cx += w
        page.line(x, y + _ROW_H, x + _COL_W, y + _ROW_H, width=0.25)
    bottom = top + _ROW_H * (1 + len(grid.rows))
    page.rect(x, top, _COL_W, bottom - top, line=0.6)
    if grid.note:
        page.text(x, bottom + 8, grid.note, size=6, font=ITALIC, colour=GREY, width=_COL_W)


def _page_frame(page: Page, charts: Charts) -> None:
    recon = charts.reconstructed
    title = "Combat chart tables (1D6)" + (" - RECONSTRUCTED" if recon else "")
    page.text(MARGIN, MARGIN + 14, title, size=15, font=BOLD)
    page.text(
        PAGE_W - MARGIN,
        MARGIN + 14,
        f"chart data {charts.version}, {charts.source}",
        size=7.5,
        colour=GREY,
        align="right",
    )
    page.line(MARGIN, MARGIN + 20, PAGE_W - MARGIN, MARGIN + 20, width=1.2)
    foot = (
        "Reconstructed by battleline: the publisher's Combat Chart is lost; these are the values "
        "the engine uses (docs/rules-gaps/charts.md)."
        if recon
        else "Chart values from the user's chart files."
    )
    page.text(MARGIN, PAGE_H - MARGIN + 10, foot, size=6.5, font=BOLD if recon else "Helvetica")


def draw_charts(doc: Document, charts: Charts) -> int:
    """Draw every chart table onto as many new sheets of ``doc`` as needed; the page count."""
    grids = chart_grids(charts)
    page = doc.sheet()
    _page_frame(page, charts)
    pages, column, top = 1, 0, _TOP
    for grid in grids:
        if top + grid.height > _BOTTOM and top > _TOP:
            column += 1
            top = _TOP
            if column == COLUMNS:
                doc.end()
                page = doc.sheet()
                _page_frame(page, charts)
                pages, column = pages + 1, 0
        _draw_grid(page, grid, MARGIN + column * (_COL_W + _GUTTER), top)
        top += grid.height
    doc.end()
    return pages


def write_charts(
    path: str | Path, charts: Charts | None = None, paper: Paper | None = None
) -> Path:
    """Write the chart tables (the packaged ones unless ``charts`` is given) to ``path``."""
    charts = charts or load_charts()
    title = "Combat chart tables (1D6)" + (" - reconstructed" if charts.reconstructed else "")
    doc = Document(path, paper or PAPERS["a4"], title)
    draw_charts(doc, charts)
    return doc.save()
