"""The half-sheet Ship Log: small ships two to a page (BF6-GEN-04, REF-BF6-05).

A destroyer, torpedo boat, torpedo gunboat or gunboat has a few mountings and little to mark, so
its log is drawn on half a sheet in three columns: the ship details and armament; propulsion, DC
boxes and flooding; fires, bridge, conning tower and steering, searchlights, torpedoes and
sinking. It holds the same fields and marks as the full page (:mod:`shiplog_pdf`), with smaller
boxes for the propulsion row. A ship whose armament would not fit the half sheet gets the full
page instead.

:func:`draw_logs` lays out a list of logs in order: full pages for the big ships, and half
sheets filled two at a time for the small ones.
"""

from __future__ import annotations

from collections.abc import Sequence

from battleline.printing.draw import BOLD, GREY, ITALIC, MARGIN, PAGE_H, PAGE_W, SHADE, Page
from battleline.printing.paper import Document
from battleline.printing.shiplog_pdf import (
    BOX,
    GAP,
    HALF_FLOOD_ROW,
    _position_box,
    _tally,
    draw_ship_log,
    flood_row,
    speed_line,
)
from battleline.rulesets.bf1900.log_layout import (
    BR_BOXES,
    CLASS_TITLE,
    COMPARTMENT_TITLE,
    CT_BOXES,
    FIRE_BOXES,
    RUDDER_BOXES,
    ST_BOXES,
    TYPE_NAMES,
    marks,
    rof_text,
    torpedo_marks,
    where,
)
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.ship import GunClass, Mounting, ShipClass, ShipType
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog

#: Ship types printed on half sheets by default: the small craft.
SMALL_TYPES = frozenset(
    {ShipType.DESTROYER, ShipType.TORPEDO_BOAT, ShipType.TORPEDO_GUNBOAT, ShipType.GUNBOAT}
)
#: Which logs go on half sheets: the small craft, every ship that fits, or none.
HALF_SHEET_CHOICES = ("small", "all", "none")

_GAP_Y = 14.0
HALF_H = (PAGE_H - 2 * MARGIN - _GAP_Y) / 2
_HEAD = 28.0
_COL1_X, _COL1_W = MARGIN, 322.0
_COL2_X, _COL2_W = MARGIN + 334.0, 214.0
_COL3_X = MARGIN + 560.0
_COL3_W = PAGE_W - MARGIN - _COL3_X
_ARM_COLS = (
    ("Box", 40.0),
    ("Gun", 78.0),
    ("ROF", 20.0),
    ("AP pen", 62.0),
    ("Where", 48.0),
    ("Gun boxes", 74.0),
)
_GUNS_PER_ROW = 5
_ROW = 11.0
_DETAIL_X = (0.0, 138.0, 230.0)


def _arm_x(index: int) -> float:
    return _COL1_X + sum(w for _, w in _ARM_COLS[:index])


def _mounting_h(m: Mounting) -> float:
    if m.is_lettered:
        return 16.0
    rows = (m.guns + _GUNS_PER_ROW - 1) // _GUNS_PER_ROW
    return max(22.0, rows * (BOX + GAP) + 2)


def _details_rows(c: ShipClass, scale: Scale) -> list[tuple[str, str]]:
    return [
        ("Type", f"{c.type.value} ({TYPE_NAMES[c.type]})"),
        ("Size", str(c.size)),
        ("Armour V/U", f"{c.armour_vitals}/{c.armour_upperworks}"),
        ("Upperworks prot.", c.upperworks_protection.value),
        ("Flood prot.", c.flood_protection.value),
        ("Stability", c.stability),
        ("Seaway", c.seaway),
        ("Armoured deck", "yes" if c.armoured_deck else "no"),
        ("Main layout", "lozenge" if c.lozenge else "normal"),
        ("Turning circle", f"{c.turning_circle_m:g} m = {scale.fmt(c.turning_circle_m)}"),
        ("Length x beam", f"{c.length_m:g} x {c.beam_m:g} m"),
    ]


def column_heights(c: ShipClass) -> tuple[float, float]:
    """Heights (points) of the first and third columns, the two that grow with the ship."""
    details = 14 + 4 * _ROW + 4 + (13 if c.mountings_of(GunClass.BOAT) else 0)
    armament = 14 + 16 + sum(_mounting_h(m) for m in c.mountings)
    third = 14 + 30 + 14 + 3 * 14 + 14 + 14 + 14 * max(1, len(c.torpedoes)) + 12 + 14 + 14
    return details + armament, third


def fits_half_sheet(c: ShipClass) -> bool:
    """Whether the class's log fits half a sheet."""
    return max(column_heights(c)) <= HALF_H - _HEAD


def is_half_sheet(log: ShipLog, choice: str) -> bool:
    """Whether ``log`` prints on a half sheet under ``choice`` (:data:`HALF_SHEET_CHOICES`)."""
    if choice not in HALF_SHEET_CHOICES:
        raise ValueError(f"half sheets: {choice!r}; choose {', '.join(HALF_SHEET_CHOICES)}")
    if choice == "none" or not fits_half_sheet(log.cls):
        return False
    return choice == "all" or log.cls.type in SMALL_TYPES


def _heading(page: Page, x: float, top: float, title: str, w: float) -> float:
    page.text(x, top + 8, title.upper(), size=7, font=BOLD)
    page.line(x, top + 10, x + w, top + 10, width=0.6)
    return 14.0


def _column1(page: Page, log: ShipLog, scale: Scale, top: float) -> None:
    c = log.cls
    top += _heading(page, _COL1_X, top, "Ship details", _COL1_W)
    for i, (k, v) in enumerate(_details_rows(c, scale)):
        row, col = divmod(i, 3)
        x = _COL1_X + _DETAIL_X[col]
        width = (*_DETAIL_X, _COL1_W)[col + 1] - _DETAIL_X[col] - 52
        page.text(x, top + 8 + row * _ROW, k, size=6, colour=GREY)
        page.text(x + 50, top + 8 + row * _ROW, v, size=7, font=BOLD, width=width)
    top += 4 * _ROW + 4
    if c.mountings_of(GunClass.BOAT):
        page.text(_COL1_X, top + 7, "Boat guns manned", size=6.5, colour=GREY)
        page.box(_COL1_X + 62, top - 1, 9, Mark.DAMAGED if log.boat_crews_deployed else Mark.NONE)
        if not c.armoured_deck:
            page.text(_COL1_X + 76, top + 7, "always (no armoured deck)", size=6, font=ITALIC)
        top += 13
    top += _heading(page, _COL1_X, top, "Armament", _COL1_W)
    page.rect(_COL1_X, top, _COL1_W, 16, fill=SHADE, line=0.3)
    for i, (title, w) in enumerate(_ARM_COLS):
        page.text(_arm_x(i) + 2, top + 7, title, size=6, font=BOLD, width=w - 3)
    for b in range(4):
        page.text(
            _arm_x(3) + 7 + b * 15, top + 14, str(b + 1), size=5.5, colour=GREY, align="centre"
        )
    top += 16
    for m in c.mountings:
        h = _mounting_h(m)
        page.line(_COL1_X, top + h, _COL1_X + _COL1_W, top + h, width=0.3)
        page.text(_arm_x(0) + 2, top + 8, CLASS_TITLE[m.gun_class], size=6.5, font=BOLD)
        page.text(_arm_x(1) + 2, top + 8, f"{m.calibre_cm:g} cm", size=7.5, font=BOLD)
        gun = m.label.split("\u00d7", 1)[-1] if m.label else ""
        page.text(_arm_x(1) + 2, top + 14.5, gun, size=5.5, colour=GREY, width=_ARM_COLS[1][1] - 4)
        page.text(_arm_x(2) + 10, top + 8, rof_text(m.rof), size=7.5, font=BOLD, align="centre")
        for b, pen in enumerate(m.penetration):
            page.text(
                _arm_x(3) + 7 + b * 15,
                top + 8,
                "-" if pen is None else str(pen),
                size=7,
                align="centre",
            )
        place, *more = where(m)
        page.text(_arm_x(4) + 2, top + 8, place, size=6.5, width=_ARM_COLS[4][1] - 4)
        if more:
            page.text(
                _arm_x(4) + 2, top + 14.5, more[0], size=5.5, colour=GREY, width=_ARM_COLS[4][1] - 4
            )
        x = _arm_x(5) + 2
        if m.is_lettered:
            _position_box(page, log, m, x, top + 2.5)
        else:
            page.boxes(
                x,
                top + 2,
                list(log.batteries[m.key]),
                size=BOX,
                gap=GAP,
                per_row=_GUNS_PER_ROW,
                numbered=True,
            )
        top += h


def _column2(page: Page, log: ShipLog, scale: Scale, top: float) -> None:
    x0, w0 = _COL2_X, _COL2_W
    top += _heading(page, x0, top, "Propulsion", w0)
    p = log.propulsion
    boxes = marks(len(p.speeds), damaged=p.damaged, destroyed=p.destroyed)
    w, h = (w0 - 30) / max(1, len(p.speeds)) - 2, 24.0
    for i, (knots, mark) in enumerate(zip(p.speeds, boxes, strict=True)):
        x = x0 + i * (w + 2)
        page.rect(x, top, w, h)
        page.text(x + w / 2, top + 10, f"{knots:g} kn", size=7, font=BOLD, align="centre")
        page.text(x + w / 2, top + 19, speed_line(knots, scale), size=6, align="centre")
        page.mark(x, top, w, h, mark)
    mx = x0 + len(p.speeds) * (w + 2) + 2
    page.rect(mx, top, x0 + w0 - mx, h, dashed=True)
    page.text(mx + 2, top + 7, "margin", size=5, colour=GREY)
    for i in range(p.margin):
        page.line(mx + 4 + i * 3, top + h - 3, mx + 7 + i * 3, top + 10, width=1.0)
    page.text(
        x0,
        top + h + 8,
        f"per {scale.turn_minutes:g}-minute turn at {scale.label}",
        size=5.5,
        font=ITALIC,
        colour=GREY,
    )
    top += h + 14
    page.text(x0, top + 8, "DC boxes", size=6.5, colour=GREY)
    page.boxes(x0 + 40, top, list(log.dc_boxes), size=BOX, gap=GAP)
    page.text(
        x0 + 44 + len(log.dc_boxes) * (BOX + GAP),
        top + 8,
        "one DC die per unmarked box",
        size=5.5,
        font=ITALIC,
        colour=GREY,
    )
    top += BOX + 6
    top += _heading(page, x0, top, "Flooding", w0)
    for i, (comp, state) in enumerate(log.compartments.items()):
        row, col = divmod(i, 2)
        x, y = x0 + col * (w0 / 2), top + row * 27
        page.text(x, y + 7, COMPARTMENT_TITLE[comp], size=6, font=BOLD)
        bx = flood_row(page, state, x, y + 10, HALF_FLOOD_ROW)
        page.text(bx, y + 18, "cont.", size=5, colour=GREY)
        page.box(bx + 13, y + 11, 8, Mark.DAMAGED if state.contained else Mark.NONE)
        page.text(bx + 24, y + 18, "cf", size=5, colour=GREY)
        page.box(bx + 30, y + 11, 8, Mark.DAMAGED if state.counterflooded else Mark.NONE)
    page.text(
        x0,
        top + 62,
        f"Flooding points (L1 M2 Hvy3 Sev4): {log.flooding_points or '____'}",
        size=6,
        font=ITALIC,
        colour=GREY,
    )


def _column3(page: Page, log: ShipLog, scale: Scale, top: float) -> None:
    x0, w0, c = _COL3_X, _COL3_W, log.cls
    top += _heading(page, x0, top, "Fires", w0)
    for i, (label, count) in enumerate(
        (("Ext.", log.fires_external), ("Int.", log.fires_internal))
    ):
        page.text(x0, top + 8 + i * 15, label, size=6.5, colour=GREY)
        _tally(page, x0 + 22, top + i * 15, count, FIRE_BOXES)
    top += 30
    top += _heading(page, x0, top, "Bridge, CT, steering", w0)
    page.text(x0, top + 8, "BR", size=6.5, colour=GREY)
    _tally(page, x0 + 22, top, log.bridge_hits, BR_BOXES)
    page.text(x0 + 92, top + 8, "CT", size=6.5, colour=GREY)
    _tally(page, x0 + 108, top, log.ct_hits, CT_BOXES)
    top += 14
    page.text(x0, top + 8, "ST", size=6.5, colour=GREY)
    _tally(page, x0 + 22, top, log.tr_hits + log.uneven_tr_hits, ST_BOXES)
    page.text(x0 + 110, top + 8, "TR hits", size=5.5, font=ITALIC, colour=GREY)
    top += 14
    x = x0
    for state, label in RUDDER_BOXES:
        page.text(x, top + 8, label, size=6.5, font=BOLD)
        page.box(x + 12, top, BOX, Mark.DAMAGED if log.rudder is state else Mark.NONE)
        x += 30
    top += 14
    top += _heading(page, x0, top, "Searchlights and torpedoes", w0)
    page.text(x0, top + 8, "Searchlights", size=6.5, colour=GREY)
    page.boxes(x0 + 46, top, list(log.searchlights), size=BOX, gap=GAP)
    top += 14
    if not c.torpedoes:
        page.text(x0, top + 8, "No torpedoes.", size=6.5, font=ITALIC, colour=GREY)
        top += 14
    for t in c.torpedoes:
        left = log.torpedoes_left.get(t.key, t.tubes)
        info = f"{t.position}: size {t.size}, {t.range_m:g} m = {scale.fmt(t.range_m)}"
        page.text(x0, top + 8, info, size=6.5, width=118)
        page.boxes(x0 + 120, top, torpedo_marks(t, left), size=BOX, gap=GAP)
        top += 14
    shallow = "yes" if c.shallow_torpedoes else "no"
    page.text(
        x0,
        top + 7,
        f"Shallow-running: {shallow}; cross off a box per torpedo fired",
        size=6,
        font=ITALIC,
        colour=GREY,
    )
    top += 12
    top += _heading(page, x0, top, "Sinking", w0)
    turns = str(log.sinking.turns_left) if log.sinking else "____"
    page.text(x0, top + 8, f"Sinking: turns left {turns}", size=6.5)
    page.text(x0 + 90, top + 8, "guns abandoned", size=6.5, colour=GREY)
    abandoned = log.sinking is not None and log.sinking.guns_abandoned
    page.box(x0 + 142, top, BOX, Mark.DAMAGED if abandoned else Mark.NONE)
    status = "SUNK" if log.sunk else "SURRENDERED" if log.surrendered else ""
    if status:
        page.text(x0 + w0, top + 9, status, size=8, font=BOLD, align="right")


def draw_half_log(page: Page, log: ShipLog, scale: Scale, slot: int) -> None:
    """Draw ``log`` on the top (``slot`` 0) or bottom (1) half of the current sheet."""
    c = log.cls
    top = MARGIN + slot * (HALF_H + _GAP_Y)
    page.text(MARGIN, top + 13, log.name, size=14, font=BOLD, width=220)
    line = f"{c.name} class, {c.navy}, {c.year}" + (f"  -  side: {log.side}" if log.side else "")
    page.text(MARGIN + 230, top + 13, line, size=8.5, width=PAGE_W - 2 * MARGIN - 300)
    page.text(
        PAGE_W - MARGIN, top + 13, "SHIP LOG", size=6.5, font=BOLD, colour=GREY, align="right"
    )
    page.line(MARGIN, top + 18, PAGE_W - MARGIN, top + 18, width=1.0)
    _column1(page, log, scale, top + _HEAD - 6)
    _column2(page, log, scale, top + _HEAD - 6)
    _column3(page, log, scale, top + _HEAD - 6)


def _footer(page: Page) -> None:
    page.text(
        MARGIN,
        PAGE_H - MARGIN + 10,
        "battleline - Battlefleet 1900 (1D6) ship logs, two "
        "small ships a sheet (REF-BF6-05; layout by battleline). Cut along the dashed line.",
        size=6,
        colour=GREY,
    )


def draw_logs(
    doc: Document, logs: Sequence[ShipLog], scale: Scale, half_sheets: str = "small"
) -> int:
    """Every log onto ``doc`` in order: a full sheet each, or two to a sheet for those
    :func:`is_half_sheet` picks. Returns the sheet count."""
    sheets = 0
    pending: Page | None = None
    for log in logs:
        if is_half_sheet(log, half_sheets):
            if pending is None:
                pending = doc.sheet()
                draw_half_log(pending, log, scale, 0)
                _footer(pending)
            else:
                cut = MARGIN + HALF_H + _GAP_Y / 2
                pending.canvas.setDash(3, 3)
                pending.line(MARGIN, cut, PAGE_W - MARGIN, cut, width=0.4)
                pending.canvas.setDash()
                draw_half_log(pending, log, scale, 1)
                doc.end()
                sheets, pending = sheets + 1, None
            continue
        if pending is not None:
            doc.end()
            sheets, pending = sheets + 1, None
        page = doc.sheet()
        draw_ship_log(page.canvas, log, scale)
        doc.end()
        sheets += 1
    if pending is not None:
        doc.end()
        sheets += 1
    return sheets
