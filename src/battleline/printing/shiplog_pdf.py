"""The printable Ship Log: one A4 landscape page per ship (BF6-GEN-02, BF6-GEN-04, REF-BF6-05).

The page mirrors ``battleline.cli.logsheet``: the left half holds the ship's details and its
armament boxes, the right half the boxes a player crosses out in play — propulsion (knots and
table distance per turn at the chosen scale) with a margin for overflow hits, DC boxes, the four
compartments (L/M/Hvy/Sev, with a box round "Hvy" once contained), fires, the BR/CT/ST/R lines,
searchlights, torpedoes and the sinking countdown. The printed layout is battleline's own
(REF-BF6-05 survives only as a list of fields); marks already on the log are drawn as slashes
(damaged) and crosses (destroyed), so a game in progress prints as it stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from battleline.printing.draw import (
    BOLD,
    GREY,
    ITALIC,
    MARGIN,
    PAGE_H,
    PAGE_W,
    SHADE,
    Page,
    boxes_height,
)
from battleline.printing.paper import PAPERS, Document, Paper
from battleline.rulesets.bf1900.log_layout import (
    BR_BOXES,
    CLASS_TITLE,
    COMPARTMENT_TITLE,
    CT_BOXES,
    FIRE_BOXES,
    RUDDER_BOXES,
    ST_BOXES,
    TYPE_NAMES,
    flood_boxes,
    marks,
    rof_text,
    tally,
    torpedo_marks,
    where,
)
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.ship import GunClass, Mounting
from battleline.rulesets.bf1900.shiplog import CompartmentState, Mark, ShipLog

LEFT_X, LEFT_W = MARGIN, 400.0
RIGHT_X = MARGIN + LEFT_W + 18.0
RIGHT_W = PAGE_W - MARGIN - RIGHT_X
BOX = 11.0
GAP = 2.0


def speed_line(knots: float, scale: Scale) -> str:
    """A propulsion box's table distance per turn at ``scale``, e.g. ``"139 mm"``."""
    return scale.fmt(scale.knots_to_m_per_turn(knots))


def _tally(page: Page, x: float, top: float, count: int, boxes: int) -> float:
    """``boxes`` boxes with the first ``count`` slashed; a '+n' note past the last box.
    Returns the x after the boxes."""
    line, over = tally(count, boxes)
    page.boxes(x, top, line, size=BOX, gap=GAP)
    end = x + boxes * (BOX + GAP)
    if over:
        page.text(end + 2, top + 8.5, f"+{over}", size=7, font=BOLD)
    return end


# -- left half: details and armament ------------------------------------------------------


def _details(page: Page, log: ShipLog, scale: Scale, top: float) -> float:
    c = log.cls
    top += page.heading(LEFT_X, top, "Ship details", LEFT_W)
    turning = f"{c.turning_circle_m:g} m = {scale.fmt(c.turning_circle_m)}"
    rows = [
        ("Type", f"{c.type.value} ({TYPE_NAMES[c.type]})", "Size", str(c.size)),
        ("Armour: vitals", str(c.armour_vitals), "Armour: upperworks", str(c.armour_upperworks)),
        (
            "Upperworks protection",
            c.upperworks_protection.value,
            "Flood protection",
            c.flood_protection.value,
        ),
        ("Stability", c.stability, "Seaway", c.seaway),
        (
            "Armoured deck",
            "yes" if c.armoured_deck else "no",
            "Main layout",
            "lozenge" if c.lozenge else "normal",
        ),
        ("Turning circle", turning, "Length x beam", f"{c.length_m:g} x {c.beam_m:g} m"),
    ]
    for i, (k1, v1, k2, v2) in enumerate(rows):
        y = top + 10 + i * 13
        page.text(LEFT_X, y, k1, size=7.5, colour=GREY)
        page.text(LEFT_X + 96, y, v1, size=8.5, font=BOLD, width=104)
        page.text(LEFT_X + 206, y, k2, size=7.5, colour=GREY)
        page.text(LEFT_X + 296, y, v2, size=8.5, font=BOLD, width=104)
    top += 10 + len(rows) * 13
    # Boat guns manned box (BF6-SEC-03): always manned without an armoured deck.
    if c.mountings_of(GunClass.BOAT):
        page.text(LEFT_X, top + 6, "Boat guns manned", size=7.5, colour=GREY)
        page.box(LEFT_X + 96, top - 2, BOX, Mark.DAMAGED if log.boat_crews_deployed else Mark.NONE)
        note = (
            "always (no armoured deck)"
            if not c.armoured_deck
            else "tick when deployed; undeployed, one hit takes at most 1 boat gun"
        )
        page.text(LEFT_X + 112, top + 6, note, size=7, font=ITALIC, colour=GREY)
        top += 14
    if c.overrides:
        page.text(
            LEFT_X,
            top + 6,
            "Hand-set values: " + ", ".join(c.overrides),
            size=7,
            font=ITALIC,
            colour=GREY,
            width=LEFT_W,
        )
        top += 12
    return top + 6


# Armament columns: (title, width).
_ARM_COLS = (
    ("Box", 46.0),
    ("Gun", 104.0),
    ("ROF", 22.0),
    ("AP pen", 68.0),
    ("Where", 62.0),
    ("Gun boxes", 98.0),
)
_GUNS_PER_ROW = 7


def _arm_x(index: int) -> float:
    return LEFT_X + sum(w for _, w in _ARM_COLS[:index])


def _mounting_height(m: Mounting) -> float:
    if m.is_lettered:
        return 20.0
    return max(28.0, boxes_height(m.guns, _GUNS_PER_ROW, BOX, GAP) + 6)


def _position_box(page: Page, log: ShipLog, m: Mounting, x: float, top: float) -> None:
    """A lettered position: one box named by its letter; slashes for each damaged mark
    (BF6-LET-02), an X once destroyed."""
    state = log.positions[m.key]
    label = str(m.position)
    width = BOX if len(label) == 1 else 12 + 4.2 * len(label)
    page.rect(x, top, width, BOX)
    page.text(x + width / 2, top + 8, label, size=6.5, font=BOLD, align="centre")
    for i in range(state.slashes):
        off = i * 3
        page.line(x + 1 + off, top + BOX - 1, x + min(width, BOX + off) - 1, top + 1, width=1.2)
    if state.destroyed:
        page.mark(x, top, width, BOX, Mark.DESTROYED)
    note = f"{m.guns} gun{'s' if m.guns != 1 else ''}"
    if state.magazine_flooded:
        note += ", magazine flooded"
    page.text(x + width + 4, top + 8, note, size=7, width=_ARM_COLS[5][1] - width - 4)


def _armament(page: Page, log: ShipLog, top: float) -> float:
    top += page.heading(LEFT_X, top, "Armament", LEFT_W)
    page.rect(LEFT_X, top, LEFT_W, 20, fill=SHADE, line=0.3)
    for i, (title, width) in enumerate(_ARM_COLS):
        page.text(_arm_x(i) + 3, top + 8, title, size=7, font=BOLD, width=width - 4)
    pen_x = _arm_x(3)
    for b in range(4):
        page.text(pen_x + 8 + b * 17, top + 17, str(b + 1), size=6.5, colour=GREY, align="centre")
    page.text(_arm_x(1) + 3, top + 17, "calibre, gun", size=6.5, colour=GREY)
    page.text(pen_x + 40, top + 8, "bracket", size=6.5, colour=GREY)
    top += 20
    for m in log.cls.mountings:
        h = _mounting_height(m)
        page.line(LEFT_X, top + h, LEFT_X + LEFT_W, top + h, width=0.3)
        page.text(_arm_x(0) + 3, top + 9, CLASS_TITLE[m.gun_class], size=7.5, font=BOLD)
        page.text(_arm_x(0) + 3, top + 17, m.key, size=6.5, colour=GREY)
        page.text(_arm_x(1) + 3, top + 9, f"{m.calibre_cm:g} cm", size=8.5, font=BOLD)
        gun = m.label.split("\u00d7", 1)[-1] if m.label else ""
        page.text(_arm_x(1) + 3, top + 17, gun, size=6.5, colour=GREY, width=_ARM_COLS[1][1] - 5)
        page.text(_arm_x(2) + 11, top + 9, rof_text(m.rof), size=8.5, font=BOLD, align="centre")
        for b, pen in enumerate(m.penetration):
            text = "-" if pen is None else str(pen)
            page.text(pen_x + 8 + b * 17, top + 9, text, size=8.5, align="centre")
        place, *more = where(m)
        page.text(_arm_x(4) + 3, top + 9, place, size=8, width=_ARM_COLS[4][1] - 5)
        for i, line in enumerate(more):
            page.text(
                _arm_x(4) + 3,
                top + 17 + 8 * i,
                line,
                size=6.5,
                colour=GREY,
                width=_ARM_COLS[4][1] - 5,
            )
        if m.is_lettered:
            _position_box(page, log, m, _arm_x(5) + 3, top + 3)
        else:
            # Beam-pattern guns: numbered boxes, crossed out from the highest number down.
            page.boxes(
                _arm_x(5) + 3,
                top + 3,
                list(log.batteries[m.key]),
                size=BOX,
                gap=GAP,
                per_row=_GUNS_PER_ROW,
                numbered=True,
            )
        top += h
    for i in range(1, len(_ARM_COLS)):
        page.line(
            _arm_x(i),
            top - sum(_mounting_height(m) for m in log.cls.mountings) - 20,
            _arm_x(i),
            top,
            width=0.3,
        )
    return top + 6


_KEY = (
    "Mark a box / when damaged (repairable) and X when destroyed; destroyed boxes are never "
    "repaired.",
    "A lettered position takes a / for each damaging hit and an X when destroyed.",
    "Beam-pattern guns are crossed out from the highest number down (BF6-PAT-01).",
    "AP penetration by range bracket; '-' means the gun cannot reach that bracket.",
)


def _key(page: Page, top: float) -> None:
    """How to mark the sheet, under the armament when there is room."""
    if top + 12 * len(_KEY) + 16 > PAGE_H - MARGIN - 4:
        return
    top += page.heading(LEFT_X, top, "Key", LEFT_W)
    for i, line in enumerate(_KEY):
        page.text(LEFT_X, top + 8 + 11 * i, line, size=7, font=ITALIC, colour=GREY, width=LEFT_W)


# -- right half: the damage boxes ---------------------------------------------------------


def _propulsion(page: Page, log: ShipLog, scale: Scale, top: float) -> float:
    """Propulsion boxes, highest speed first, plus the margin (BF6-PROP-01..05)."""
    top += page.heading(RIGHT_X, top, "Propulsion", RIGHT_W)
    p = log.propulsion
    boxes = marks(len(p.speeds), damaged=p.damaged, destroyed=p.destroyed)
    w, h = 44.0, 30.0
    for i, (knots, mark) in enumerate(zip(p.speeds, boxes, strict=True)):
        x = RIGHT_X + i * (w + 3)
        page.rect(x, top, w, h)
        page.text(x + w / 2, top + 12, f"{knots:g} kn", size=9, font=BOLD, align="centre")
        page.text(x + w / 2, top + 24, speed_line(knots, scale), size=7.5, align="centre")
        page.mark(x, top, w, h, mark)
    mx = RIGHT_X + len(p.speeds) * (w + 3) + 4
    mw = RIGHT_X + RIGHT_W - mx
    page.rect(mx, top, mw, h, dashed=True)
    page.text(mx + 3, top + 8, "margin", size=6.5, colour=GREY)
    for i in range(p.margin):
        page.line(mx + 6 + i * 4, top + h - 3, mx + 10 + i * 4, top + 11, width=1.2)
    page.text(
        RIGHT_X,
        top + h + 9,
        f"Distance per turn at {scale.label}, {scale.turn_minutes:g}-minute turns. Cross out "
        "from the top speed; hits with no box left go in the margin.",
        size=6.5,
        font=ITALIC,
        colour=GREY,
        width=RIGHT_W,
    )
    return top + h + 16


def _damage_control(page: Page, log: ShipLog, top: float) -> float:
    """DC boxes: one per DC die, 6 at size 5 or more, else 3 (BF6-DC-03)."""
    top += page.heading(RIGHT_X, top, "Damage control", RIGHT_W)
    page.text(RIGHT_X, top + 8, "DC boxes", size=7.5, colour=GREY)
    page.boxes(RIGHT_X + 60, top, list(log.dc_boxes), size=BOX, gap=GAP)
    page.text(
        RIGHT_X + 150, top + 8, "one DC die per unmarked box", size=6.5, font=ITALIC, colour=GREY
    )
    return top + BOX + 8


def _flooding(page: Page, log: ShipLog, top: float) -> float:
    """The four compartments (BF6-FLD-02): L, M, Hvy, Sev boxes; a box round Hvy once the
    flooding is contained (BF6-REP-08); counterflooded zones ticked (BF6-CF-04)."""
    top += page.heading(RIGHT_X, top, "Flooding", RIGHT_W)
    col_w = RIGHT_W / 4
    for i, (comp, state) in enumerate(log.compartments.items()):
        x = RIGHT_X + i * col_w
        page.text(x, top + 8, COMPARTMENT_TITLE[comp], size=7.5, font=BOLD)
        flood_row(page, state, x, top + 12, FULL_FLOOD_ROW)
        page.text(x, top + 36, "contained", size=6.5, colour=GREY)
        page.box(x + 34, top + 29, 9, Mark.DAMAGED if state.contained else Mark.NONE)
        page.text(x + 47, top + 36, "cf", size=6.5, colour=GREY)
        page.box(x + 56, top + 29, 9, Mark.DAMAGED if state.counterflooded else Mark.NONE)
    page.text(
        RIGHT_X,
        top + 48,
        f"Flooding points (L1 M2 Hvy3 Sev4): {log.flooding_points or '____'}"
        "     Draw a box round Hvy when contained.",
        size=6.5,
        font=ITALIC,
        colour=GREY,
    )
    return top + 54


@dataclass(frozen=True, slots=True)
class FloodRow:
    """The size of a printed flooding line: box widths for one- and three-letter labels, box
    height, the space between boxes, the label's size and baseline, and the containment frame's
    margin and line width."""

    narrow: float
    wide: float
    height: float
    step: float
    label_size: float
    baseline: float
    frame_pad: float
    frame_line: float


#: The full sheet's flooding line and the half sheet's (:mod:`compact_log`).
FULL_FLOOD_ROW = FloodRow(13.0, 20.0, 13.0, 5.0, 6.5, 9.0, 2.0, 0.5)
HALF_FLOOD_ROW = FloodRow(10.0, 14.0, 11.0, 3.0, 5.5, 8.0, 1.5, 0.4)


def flood_row(page: Page, state: CompartmentState, x: float, top: float, row: FloodRow) -> float:
    """A compartment's L, M, Hvy and Sev boxes (:func:`~battleline.rulesets.bf1900.log_layout.
    flood_boxes`) from ``x`` with their top at ``top``: the level reached marked, and the frame
    round Hvy dashed until the flooding is contained, solid after. Returns the x after the line."""
    for box in flood_boxes(state):
        w = row.narrow if len(box.label) == 1 else row.wide
        page.rect(x, top, w, row.height)
        page.text(x + w / 2, top + row.baseline, box.label, size=row.label_size, align="centre")
        page.mark(x, top, w, row.height, Mark.DAMAGED if box.marked else Mark.NONE)
        if box.frame_box:
            pad = row.frame_pad
            page.rect(
                x - pad,
                top - pad,
                w + 2 * pad,
                row.height + 2 * pad,
                dashed=not box.framed,
                line=row.frame_line,
            )
        x += w + row.step
    return x


def _fires(page: Page, log: ShipLog, top: float) -> float:
    top += page.heading(RIGHT_X, top, "Fires", RIGHT_W)
    half = RIGHT_W / 2
    for i, (label, count) in enumerate(
        (("External", log.fires_external), ("Internal", log.fires_internal))
    ):
        x = RIGHT_X + i * half
        page.text(x, top + 8, label, size=7.5, colour=GREY)
        _tally(page, x + 42, top, count, FIRE_BOXES)
    return top + BOX + 8


def _command_and_steering(page: Page, log: ShipLog, top: float) -> float:
    """BR and CT (the two ends of the ship), ST (TR hits) and the rudder line R / RC."""
    top += page.heading(RIGHT_X, top, "Bridge, conning tower, steering", RIGHT_W)
    half = RIGHT_W / 2
    page.text(RIGHT_X, top + 8, "BR bridge", size=7.5, colour=GREY)
    _tally(page, RIGHT_X + 50, top, log.bridge_hits, BR_BOXES)
    page.text(RIGHT_X + half, top + 8, "CT conning tower", size=7.5, colour=GREY)
    _tally(page, RIGHT_X + half + 70, top, log.ct_hits, CT_BOXES)
    top += BOX + 5
    page.text(RIGHT_X, top + 8, "ST (TR hits)", size=7.5, colour=GREY)
    _tally(page, RIGHT_X + 50, top, log.tr_hits + log.uneven_tr_hits, ST_BOXES)
    page.text(RIGHT_X + half, top + 8, "R rudder", size=7.5, colour=GREY)
    x = RIGHT_X + half + 40
    for state, label in RUDDER_BOXES:
        page.text(x, top + 8, label, size=7, font=BOLD)
        page.box(x + 13, top, BOX, Mark.DAMAGED if log.rudder is state else Mark.NONE)
        x += 33
    return top + BOX + 8


def _searchlights_and_torpedoes(page: Page, log: ShipLog, scale: Scale, top: float) -> float:
    c = log.cls
    top += page.heading(RIGHT_X, top, "Searchlights and torpedoes", RIGHT_W)
    page.text(RIGHT_X, top + 8, "Searchlights", size=7.5, colour=GREY)
    page.boxes(RIGHT_X + 60, top, list(log.searchlights), size=BOX, gap=GAP)
    top += BOX + 5
    if not c.torpedoes:
        page.text(RIGHT_X, top + 8, "No torpedoes.", size=7.5, font=ITALIC, colour=GREY)
        return top + BOX + 6
    for t in c.torpedoes:
        left = log.torpedoes_left.get(t.key, t.tubes)
        page.text(RIGHT_X, top + 8, f"Torpedoes, {t.position}", size=7.5, colour=GREY)
        info = f"size {t.size}, range {t.range_m:g} m = {scale.fmt(t.range_m)}"
        page.text(RIGHT_X + 100, top + 8, info, size=7.5, width=150)
        page.boxes(RIGHT_X + 255, top, torpedo_marks(t, left), size=BOX, gap=GAP)
        top += BOX + 4
    shallow = "yes" if c.shallow_torpedoes else "no"
    page.text(RIGHT_X, top + 8, f"Shallow-running torpedoes: {shallow}", size=7.5)
    page.text(
        RIGHT_X + 160,
        top + 8,
        "cross off one box per torpedo fired",
        size=6.5,
        font=ITALIC,
        colour=GREY,
    )
    return top + BOX + 6


def _sinking(page: Page, log: ShipLog, top: float) -> float:
    top += page.heading(RIGHT_X, top, "Sinking", RIGHT_W)
    turns = str(log.sinking.turns_left) if log.sinking else "____"
    page.text(RIGHT_X, top + 8, f"Sinking: turns left {turns}", size=7.5)
    page.text(RIGHT_X + 120, top + 8, "guns abandoned", size=7.5, colour=GREY)
    abandoned = log.sinking is not None and log.sinking.guns_abandoned
    page.box(RIGHT_X + 182, top, BOX, Mark.DAMAGED if abandoned else Mark.NONE)
    status = "SUNK" if log.sunk else "SURRENDERED" if log.surrendered else ""
    if status:
        page.text(RIGHT_X + RIGHT_W, top + 9, status, size=9, font=BOLD, align="right")
    return top + BOX + 6


def draw_ship_log(canvas: Canvas, log: ShipLog, scale: Scale) -> None:
    """Draw one ship's log on the current page of ``canvas`` (the caller calls ``showPage``)."""
    page = Page(canvas)
    c = log.cls
    page.text(MARGIN, MARGIN + 18, log.name, size=20, font=BOLD, width=300)
    page.text(MARGIN + 310, MARGIN + 4, "SHIP LOG", size=7, font=BOLD, colour=GREY)
    page.text(
        MARGIN + 310,
        MARGIN + 16,
        f"{c.name} class, {c.navy}, {c.year}" + (f"   -   side: {log.side}" if log.side else ""),
        size=10,
        width=PAGE_W - 2 * MARGIN - 310,
    )
    page.line(MARGIN, MARGIN + 24, PAGE_W - MARGIN, MARGIN + 24, width=1.2)
    top = MARGIN + 32
    left = _details(page, log, scale, top)
    left = _armament(page, log, left)
    _key(page, left)
    right = _propulsion(page, log, scale, top)
    right = _damage_control(page, log, right)
    right = _flooding(page, log, right)
    right = _fires(page, log, right)
    right = _command_and_steering(page, log, right)
    right = _searchlights_and_torpedoes(page, log, scale, right)
    right = _sinking(page, log, right)
    notes_h = PAGE_H - MARGIN - 6 - right
    if notes_h > 30:
        page.rect(RIGHT_X, right, RIGHT_W, notes_h, dashed=True, line=0.4)
        page.text(RIGHT_X + 4, right + 10, "Notes", size=7, colour=GREY)
    page.text(
        MARGIN,
        PAGE_H - MARGIN + 10,
        "battleline - Battlefleet 1900 (1D6) ship log. Sheet layout reconstructed by battleline "
        "(REF-BF6-05); values from the ship database.",
        size=6,
        colour=GREY,
    )


def write_ship_logs(
    path: str | Path,
    logs: Sequence[ShipLog],
    scale: Scale,
    paper: Paper | None = None,
    *,
    half_sheets: str = "small",
) -> Path:
    """Write the logs to the PDF at ``path``: one page per ship, small ships several to a page
    (:func:`~battleline.printing.compact_log.draw_logs`); returns the path."""
    from battleline.printing.compact_log import draw_logs

    doc = Document(path, paper or PAPERS["a4"], "Ship logs: " + ", ".join(log.name for log in logs))
    draw_logs(doc, logs, scale, half_sheets)
    return doc.save()
