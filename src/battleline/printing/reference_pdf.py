"""Reference sheets: the damage-codes key, the scales and range-bracket table (REF-BF6-01,
BF6-DZ-01..03, REF-BF6-10), laid out as grids like the combat chart tables.

The key's wording is battleline's own, one short line per code; :data:`CODE_KEY` must name
exactly the codes the damage code mapping knows (``damage/codes.py``), and a test holds it to
that. The scale values come from the scales file, so a user's own file prints its own values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from battleline.printing.charts_pdf import _BOTTOM, _COL_W, _GUTTER, _TOP, COLUMNS, Grid, _draw_grid
from battleline.printing.draw import BOLD, GREY, MARGIN, PAGE_H, PAGE_W, Page
from battleline.printing.paper import PAPERS, Document, Paper
from battleline.rulesets.bf1900.gunnery import danger_zone_m
from battleline.rulesets.bf1900.scales import BRACKETS, Scale, load_scales

#: Every damage code with its name and a short effect (wording ours; effects as in codes.py).
CODE_KEY: Mapping[str, tuple[str, str]] = {
    "-": ("no effect", "nothing happens"),
    "F": ("external fire", "one more external fire; 2F two, and so on"),
    "IF": ("internal fire", "one more internal fire"),
    "XF": ("fire out", "one fire is put out, internal ones first"),
    "FL": ("flood hit", "roll Flooding Occurrence (weapon vs ship size)"),
    "P": ("propulsion damaged", "slash the top free propulsion box (or the margin)"),
    "Px": ("propulsion destroyed", "X a propulsion box (EX-BF6-11)"),
    "M": ("main damaged", "slash a main position (location roll), then a Main/TT check"),
    "Mx": ("main destroyed", "X a main position, then a Main/TT check"),
    "S": ("secondary damaged", "slash a secondary position or a pattern gun"),
    "Sx": ("secondary destroyed", "X a secondary position or a pattern gun"),
    "T": ("tertiary damaged", "slash a tertiary gun or position"),
    "Tx": ("tertiary destroyed", "X a tertiary gun or position"),
    "B": ("boat gun", "X a boat gun (one per shell unless the crews are out)"),
    "TT": ("torpedo tube", "a mount loses a torpedo, then a Main/TT check"),
    "BR": ("bridge", "one bridge hit"),
    "CT": ("conning tower", "one CT hit: no command functions until recovered"),
    "ST": ("steering engine", "one TR hit on the ST line: a wider turning circle"),
    "R": ("rudder", "a free rudder becomes damaged (R/)"),
    "JP": ("jammed to port", "the rudder jams to port (not if secured, RC)"),
    "JS": ("jammed to starboard", "the rudder jams to starboard (not if secured, RC)"),
    "DC": ("damage control", "slash the first unmarked DC box"),
    "SL": ("searchlight", "X a searchlight"),
    "EX": ("explosion", "roll the Explosion line of Critical Effects"),
    "EH": ("elec./hydraulic", "roll the Elec/Hydr line of Critical Effects"),
    "SC": ("steering critical", "roll the Steering line of Critical Effects"),
    "MISC": ("miscellaneous", "roll the Miscellaneous Damage chart"),
}

_MARKS = (
    ("/", "damaged: repairable"),
    ("X", "destroyed: never repaired"),
    ("L M Hvy Sev", "flooding levels: 1, 2, 3, 4 points"),
    ("box round Hvy", "heavy flooding contained"),
    ("R/ RC JP JS", "rudder damaged, secured, jammed"),
    ("margin", "propulsion hits with no box left"),
)


def key_grids() -> list[Grid]:
    """The damage-codes key and the marks used on the logs."""
    codes = Grid(
        "Damage codes (REF-BF6-10, reconstructed)",
        ("code", "name", "effect"),
        tuple((code, name, effect) for code, (name, effect) in CODE_KEY.items()),
        "A chart cell's codes apply left to right; a code for a part the ship lacks does nothing.",
    )
    marks = Grid("Marks on the ship log", ("mark", "meaning"), _MARKS)
    return [codes, marks]


def _dist(scale: Scale, metres: float) -> str:
    return f"{metres:g} m = {scale.fmt(metres)}"


def scale_grids(scales: Mapping[str, Scale]) -> list[Grid]:
    """For each scale: the range brackets with their danger zones, speeds per turn, bases and
    turning circles in table units."""
    grids = []
    for scale in scales.values():
        b = scale.bracket_m
        rows = []
        for n in range(1, BRACKETS + 1):
            dz = danger_zone_m(n, b)
            rof = "2" if n <= 2 else "1 at most"
            span = f"{(n - 1) * b:g}-{n * b:g} m"
            rows.append(
                (str(n), span, f"to {scale.fmt(n * b)}", _dist(scale, dz) if dz else "-", rof)
            )
        grids.append(
            Grid(
                f"{scale.label}: range brackets",
                ("bracket", "metres", "table", "danger zone", "ROF"),
                tuple(rows),
                f"models {scale.model_scale}; maximum range {_dist(scale, scale.max_range_m)}",
            )
        )
        speeds = tuple(
            (f"{kn} kn", _dist(scale, round(scale.knots_to_m_per_turn(kn))))
            for kn in (5, 10, 15, 18, 20, 25, 30)
        )
        grids.append(
            Grid(
                f"{scale.label}: speed",
                ("speed", f"one {scale.turn_minutes:g}-minute turn"),
                speeds,
            )
        )
        bases = tuple(
            (
                kind,
                f"{length:g} x {width:g} {scale.table_unit}",
                _dist(scale, dict(scale.turning_circles_m)[kind]),
            )
            for kind, length, width in scale.bases
        )
        grids.append(
            Grid(
                f"{scale.label}: bases and default turning circles",
                ("type", "base", "turning circle"),
                bases,
            )
        )
    return grids


def _frame(page: Page, title: str, reconstructed: bool) -> None:
    page.text(MARGIN, MARGIN + 14, title, size=15, font=BOLD)
    page.line(MARGIN, MARGIN + 20, PAGE_W - MARGIN, MARGIN + 20, width=1.2)
    foot = (
        "Reconstructed values (docs/rules-gaps.md): the publisher's tables are lost."
        if reconstructed
        else "Values from your own data files."
    )
    page.text(MARGIN, PAGE_H - MARGIN + 10, "battleline - " + foot, size=6.5, colour=GREY)


def draw_grid_sheets(doc: Document, title: str, grids: Sequence[Grid], recon: bool) -> int:
    """Grids flowing down three columns a sheet; returns the sheet count."""
    page = doc.sheet()
    _frame(page, title, recon)
    pages, column, top = 1, 0, _TOP
    for grid in grids:
        if top + grid.height > _BOTTOM and top > _TOP:
            column, top = column + 1, _TOP
            if column == COLUMNS:
                doc.end()
                page = doc.sheet()
                _frame(page, title, recon)
                pages, column = pages + 1, 0
        _draw_grid(page, grid, MARGIN + column * (_COL_W + _GUTTER), top)
        top += grid.height
    doc.end()
    return pages


def draw_key(doc: Document) -> int:
    """The damage-codes key sheet."""
    return draw_grid_sheets(doc, "Damage codes and marks", key_grids(), True)


def draw_scale_tables(doc: Document, scales: Mapping[str, Scale] | None = None) -> int:
    """The scales and range-bracket tables."""
    scales = scales or load_scales()
    recon = any(s.reconstructed for s in scales.values())
    return draw_grid_sheets(doc, "Game scales and range brackets", scale_grids(scales), recon)


def write_reference(
    path: str | Path,
    paper: Paper | None = None,
    *,
    key: bool = True,
    scales: Mapping[str, Scale] | None = None,
) -> Path:
    """Write the damage-codes key (if ``key``) and the scales tables to ``path``."""
    title = "Damage codes, scales and range brackets" if key else "Game scales and range brackets"
    doc = Document(path, paper or PAPERS["a4"], title)
    draw_reference(doc, key=key, scales=scales)
    return doc.save()


def draw_reference(
    doc: Document, *, key: bool = True, scales: Mapping[str, Scale] | None = None
) -> int:
    """The key (if ``key``) and the scale tables in one flow of sheets; the sheet count."""
    scales = scales or load_scales()
    grids = (key_grids() if key else []) + scale_grids(scales)
    title = "Damage codes, scales and range brackets" if key else "Game scales and range brackets"
    recon = key or any(s.reconstructed for s in scales.values())
    return draw_grid_sheets(doc, title, grids, recon)
