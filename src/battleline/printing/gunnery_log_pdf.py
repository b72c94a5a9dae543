"""The printable Gunnery Log (BF6-GEN-05, REF-BF6-08).

One sheet holds two division sections, one above the other. Each section has, at its far left,
the divisional command column (one cell a turn, numbered in its corner, where the order arrows
are drawn, BF6-CMD-02), then four ship columns, each headed by one ship's name and split into
the salvo's target, the guns assigned to it (BF6-TGT-02), the range estimate, the ammunition
(AP or HE) and the hits. A row of spare command boxes runs across the top of each section, for
arrows on turns when the division is not firing, so that no range box is wasted. A division of
more than four ships runs on into the next section.

Turn rows are never less than :data:`ROW_MIN_H` (5 mm) high however long the game: a sheet holds
at most :data:`ROWS_PER_SHEET` turns, and longer games continue on sheets headed "continued:
turns 13-24" and so on, the same two divisions on each, until the turn limit. The turns are
shared evenly between the sheets, and rows grow to fill a sheet up to :data:`ROW_MAX_H` (8 mm).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from battleline.printing.draw import BOLD, GREY, ITALIC, MARGIN, PAGE_H, PAGE_W, SHADE, Page
from battleline.printing.paper import PAPERS, Document, Paper

#: Ship columns in one division section (BF6-GEN-05).
SHIPS_PER_SECTION = 4
#: Division sections on one gunnery log sheet (BF6-GEN-05).
SECTIONS_PER_LOG = 2
#: The per-ship cells of a turn row (BF6-GEN-05: targets, range estimates, hits; BF6-TGT-02:
#: the guns assigned to each target).
SHIP_CELLS = ("Target", "Guns", "Range est.", "AP/HE", "Hits")
#: Spare command boxes across the top of each section (a count of our choosing).
SPARE_COMMAND_BOXES = 16
#: Least and greatest height of a turn row, points (5 mm and 8 mm).
ROW_MIN_H = 5 * 72 / 25.4
ROW_MAX_H = 8 * 72 / 25.4

_COMMAND_W = 52.0
_CELL_SHARE = (0.26, 0.18, 0.26, 0.11, 0.19)
_SECTION_GAP = 12.0
_TOP = MARGIN + 28
_BOTTOM = PAGE_H - MARGIN - 4
_FIXED = 19 + 14 + 5 + 26  # title bar, spare boxes, column heads
_SECTION_H = (_BOTTOM - _TOP - _SECTION_GAP) / 2
_ROWS_H = _SECTION_H - _FIXED
#: The most turn rows on one sheet; later turns go on continuation sheets.
ROWS_PER_SHEET = int(_ROWS_H // ROW_MIN_H)
#: The most turn rows printed in all (a scenario's largest turn limit).
MAX_TURNS = 200


@dataclass(frozen=True, slots=True)
class GunnerySection:
    """One division section: the division's name, its ships (at most four) in line order."""

    division: str
    ships: tuple[str, ...] = ()
    side: str = ""
    flagship: str = ""

    def __post_init__(self) -> None:
        if len(self.ships) > SHIPS_PER_SECTION:
            raise ValueError(
                f"division {self.division!r}: a gunnery log section has {SHIPS_PER_SECTION} ship "
                f"columns, not {len(self.ships)} (BF6-GEN-05); use division_sections()"
            )


def division_sections(
    division: str, ships: Sequence[str], *, side: str = "", flagship: str = ""
) -> list[GunnerySection]:
    """A division's sections: four ships to a section, continued as "(cont.)" when larger."""
    chunks = [
        tuple(ships[i : i + SHIPS_PER_SECTION]) for i in range(0, len(ships), SHIPS_PER_SECTION)
    ] or [()]
    return [
        GunnerySection(division if i == 0 else f"{division} (cont.)", chunk, side, flagship)
        for i, chunk in enumerate(chunks)
    ]


def log_pages(sections: Sequence[GunnerySection]) -> int:
    """Sheets needed for ``sections``: two sections a sheet, at least one sheet."""
    return max(1, math.ceil(len(sections) / SECTIONS_PER_LOG))


def turn_blocks(turns: int) -> list[range]:
    """The turns of each sheet: as few sheets as hold ``turns`` rows, shared out evenly."""
    if not 1 <= turns <= MAX_TURNS:
        raise ValueError(f"a gunnery log has 1 to {MAX_TURNS} turn rows, not {turns}")
    size = math.ceil(turns / math.ceil(turns / ROWS_PER_SHEET))
    return [range(first, min(first + size, turns + 1)) for first in range(1, turns + 1, size)]


def row_height(rows: int) -> float:
    """Height of each of ``rows`` turn rows on a sheet: the section's height shared out, at
    most :data:`ROW_MAX_H` (never below :data:`ROW_MIN_H`, as ``rows`` ≤ ROWS_PER_SHEET)."""
    return min(ROW_MAX_H, _ROWS_H / rows)


def _section(
    page: Page, section: GunnerySection | None, top: float, rows: range, unit: str
) -> None:
    left, width = MARGIN, PAGE_W - 2 * MARGIN
    ship_w = (width - _COMMAND_W) / SHIPS_PER_SECTION
    name = section.division if section else ""
    # Title bar.
    page.rect(left, top, width, 15, fill=SHADE, line=0.5)
    page.text(left + 4, top + 11, "Division:", size=8, colour=GREY)
    page.text(left + 44, top + 11, name or "_" * 30, size=9.5, font=BOLD, width=260)
    if section and section.flagship:
        page.text(left + 320, top + 11, f"flagship: {section.flagship}", size=8, width=200)
    if section and section.side:
        page.text(left + width - 4, top + 11, section.side, size=8, font=BOLD, align="right")
    top += 19
    # Spare command boxes (BF6-GEN-05).
    page.text(left, top + 10, "Spare command boxes", size=7, colour=GREY)
    box = 14.0
    for i in range(SPARE_COMMAND_BOXES):
        page.rect(left + 90 + i * (box + 4), top, box, box)
    top += box + 5
    # Column heads: turn, command, then one column per ship.
    head_h = 26.0
    page.rect(left, top, width, head_h, line=0.8)
    page.text(left + _COMMAND_W / 2, top + 12, "Command", size=7, font=BOLD, align="centre")
    page.text(left + _COMMAND_W / 2, top + 22, "turn / arrow", size=6, colour=GREY, align="centre")
    ships = list(section.ships) if section else []
    ships += [""] * (SHIPS_PER_SECTION - len(ships))
    for s, ship in enumerate(ships):
        x = left + _COMMAND_W + s * ship_w
        flag = " (flag)" if section and ship and ship == section.flagship else ""
        page.text(
            x + 4,
            top + 11,
            ship + flag if ship else "Ship: ________________",
            size=9 if ship else 7.5,
            font=BOLD if ship else ITALIC,
            width=ship_w - 8,
        )
        cx = x
        for label, share in zip(SHIP_CELLS, _CELL_SHARE, strict=True):
            w = ship_w * share
            text = f"{label} ({unit})" if label == "Range est." and unit else label
            page.text(cx + w / 2, top + 23, text, size=6, colour=GREY, align="centre", width=w)
            cx += w
    top += head_h
    # Turn rows: the turn number sits in the corner of the command cell, the far-left column.
    row_h = row_height(len(rows))
    for i, turn in enumerate(rows):
        y = top + i * row_h
        page.line(left, y + row_h, left + width, y + row_h, width=0.3)
        page.text(left + 2.5, y + 7, str(turn), size=6, colour=GREY)
    bottom = top + len(rows) * row_h
    page.rect(left, top - head_h, width, bottom - top + head_h, line=0.8)
    for s in range(SHIPS_PER_SECTION):
        x = left + _COMMAND_W + s * ship_w
        page.line(x, top - head_h, x, bottom, width=0.9)
        cx = x
        for share in _CELL_SHARE[:-1]:
            cx += ship_w * share
            page.line(cx, top - 10, cx, bottom, width=0.25)


def draw_gunnery_log(
    canvas: Canvas,
    sections: Sequence[GunnerySection],
    *,
    turns: int = 12,
    title: str = "",
    unit: str = "",
    first_turn: int = 1,
) -> None:
    """Draw one gunnery log sheet with up to two sections (blank ones are left to fill in),
    with rows for ``turns`` turns from ``first_turn`` (at most :data:`ROWS_PER_SHEET`)."""
    if len(sections) > SECTIONS_PER_LOG:
        raise ValueError(f"one gunnery log holds {SECTIONS_PER_LOG} division sections")
    if not 1 <= turns <= ROWS_PER_SHEET:
        raise ValueError(
            f"a gunnery log sheet has 1 to {ROWS_PER_SHEET} turn rows, not {turns}; "
            "write_gunnery_logs() adds continuation sheets"
        )
    rows = range(first_turn, first_turn + turns)
    page = Page(canvas)
    page.text(MARGIN, MARGIN + 14, "Gunnery Log", size=16, font=BOLD)
    if title:
        page.text(MARGIN + 130, MARGIN + 14, title, size=10, width=PAGE_W - 2 * MARGIN - 230)
    if first_turn > 1:
        page.text(
            PAGE_W - MARGIN, MARGIN + 14, f"continued: turns {rows.start}-{rows[-1]}", size=9,
            font=BOLD, align="right",
        )  # fmt: skip
    page.line(MARGIN, MARGIN + 20, PAGE_W - MARGIN, MARGIN + 20, width=1.2)
    padded: list[GunnerySection | None] = [*sections]
    padded += [None] * (SECTIONS_PER_LOG - len(padded))
    for i, section in enumerate(padded):
        _section(page, section, _TOP + i * (_SECTION_H + _SECTION_GAP), rows, unit)
    page.text(
        MARGIN,
        PAGE_H - MARGIN + 10,
        "battleline - Battlefleet 1900 (1D6) gunnery log (BF6-GEN-05). Draw order arrows in the "
        "command column; for each target write its name, the guns assigned (BF6-TGT-02), the "
        "range estimate, AP or HE, and hits.",
        size=6,
        colour=GREY,
    )


def sheets_of(sections: Sequence[GunnerySection], turns: int) -> list[tuple[int, range]]:
    """Every sheet to print as (index of its first section, its turns): each pair of sections
    through all its turn blocks, then the next pair."""
    return [
        (i * SECTIONS_PER_LOG, block)
        for i in range(log_pages(sections))
        for block in turn_blocks(turns)
    ]


def draw_gunnery_logs(
    doc: Document,
    sections: Sequence[GunnerySection],
    *,
    turns: int = 12,
    title: str = "",
    unit: str = "",
) -> int:
    """Every sheet for ``sections`` and ``turns`` onto ``doc``; returns the sheet count."""
    sheets = sheets_of(sections, turns)
    for first, block in sheets:
        with doc.page() as page:
            draw_gunnery_log(
                page.canvas,
                sections[first : first + SECTIONS_PER_LOG],
                turns=len(block),
                title=title,
                unit=unit,
                first_turn=block.start,
            )
    return len(sheets)


def write_gunnery_logs(
    path: str | Path,
    sections: Sequence[GunnerySection],
    *,
    turns: int = 12,
    title: str = "",
    unit: str = "",
    paper: Paper | None = None,
) -> Path:
    """Write gunnery log sheets for ``sections`` (two a sheet, continued every
    :data:`ROWS_PER_SHEET` turns) to the PDF at ``path``."""
    turn_blocks(turns)  # a bad turn count fails before the file is opened
    doc = Document(path, paper or PAPERS["a4"], "Gunnery logs" + (f": {title}" if title else ""))
    draw_gunnery_logs(doc, sections, turns=turns, title=title, unit=unit)
    return doc.save()
