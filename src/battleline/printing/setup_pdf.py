"""The set-up sheet of a scenario (BF6-GEN-06: every ship placed and every formation set before
play begins).

The sheet gives the scenario's terms (ruleset, scale, turn limit, weather and time, optional
rules, victory points) and, for each side, every division with its formation, heading and speed
and every ship with its class and where her base goes: measured from the table's south-west
corner in the scale's table units. A plan of the table beside it shows the same (not to scale:
the true-scale aids are the rulers). Positions are worked out as the engine places the ships
(``DivisionEntry.placed`` at the default station interval).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.utils import simpleSplit

from battleline.printing.draw import BOLD, FONT, GREY, ITALIC, MARGIN, PAGE_H, PAGE_W, Page, plain
from battleline.printing.paper import Document
from battleline.rulesets.bf1900.divisions import default_interval_m
from battleline.rulesets.bf1900.scales import Scale, get_scale
from battleline.rulesets.bf1900.scenario import Scenario

_LIST_W = 440.0
_PLAN_X = MARGIN + _LIST_W + 16
_PLAN_W = PAGE_W - MARGIN - _PLAN_X
_ROW = 9.5
#: The table's corner is this far (metres) beyond the outermost ship or land, rounded down.
CORNER_MARGIN_M = 1000.0


@dataclass(frozen=True, slots=True)
class Placement:
    """One ship at the start: side, division, name, class, pose (metres) and speed (knots)."""

    side: str
    division: str
    name: str
    cls: str
    x: float
    y: float
    heading: float
    knots: float


def placements(scenario: Scenario, scale: Scale) -> list[Placement]:
    """Every ship where the engine puts her at the start."""
    out = []
    for side in scenario.sides:
        for div in side.divisions:
            interval = default_interval_m([scale.base_size_m(s.ship_class)[0] for s in div.ships])
            for ship, x, y, heading, knots in div.placed(interval):
                knots = min(knots, ship.ship_class.max_knots)
                out.append(
                    Placement(side.name, div.name, ship.name, ship.cls, x, y, heading, knots)
                )
    return out


def table_corner(scenario: Scenario, ships: list[Placement]) -> tuple[float, float]:
    """The south-west corner (metres) the sheet measures from: clear of every ship and land."""
    xs = [p.x for p in ships] + [x for land in scenario.land for x, _ in land.points]
    ys = [p.y for p in ships] + [y for land in scenario.land for _, y in land.points]
    step = 500.0
    return (
        math.floor((min(xs) - CORNER_MARGIN_M) / step) * step,
        math.floor((min(ys) - CORNER_MARGIN_M) / step) * step,
    )


def _terms(sc: Scenario, scale: Scale) -> list[str]:
    lines = [
        f"Ruleset {sc.ruleset}; {scale.label}, models {scale.model_scale}; "
        f"{sc.turn_limit} turns of {scale.turn_minutes:g} minutes.",
    ]
    if sc.weather or sc.time:
        lines.append(", ".join(v for v in (sc.weather, sc.time) if v) + ".")
    if sc.options:
        lines.append(
            "Optional rules: "
            + ", ".join(f"{k} {'on' if v else 'off'}" for k, v in sorted(sc.options.items()))
            + "."
        )
    v = sc.victory
    lines.append(
        f"Victory: {v.sunk_per_size:g} points per size of each enemy ship sunk"
        + (" or surrendered" if v.surrender_counts_as_sunk else "")
        + f", {v.crippled_per_size:g} per size crippled; a lead of {v.margin:.0%} wins."
    )
    return lines


def _ship_list(page: Page, sc: Scenario, scale: Scale, ships: list[Placement], top: float) -> None:
    cx, cy = table_corner(sc, ships)
    page.text(
        MARGIN,
        top,
        f"Place each base by its centre: x from the table's west edge, y from its south edge "
        f"(the corner is {cx:g} m, {cy:g} m). Heading in degrees from north.",
        size=6.5,
        font=ITALIC,
        colour=GREY,
        width=_LIST_W,
    )
    top += 10
    cols = (
        ("Ship", 0.0),
        ("Class", 118.0),
        ("x", 232.0),
        ("y", 282.0),
        ("hdg", 332.0),
        ("kn", 362.0),
        ("m (x, y)", 384.0),
    )
    by_side: dict[str, list[Placement]] = {}
    for p in ships:
        by_side.setdefault(p.side, []).append(p)
    for side in sc.sides:
        top += 4
        flag = side.fleet_flagship or side.divisions[0].flag
        page.text(MARGIN, top + 9, f"{side.name}", size=10, font=BOLD)
        page.text(MARGIN + 120, top + 9, f"fleet flagship {flag}", size=7, colour=GREY)
        top += 13
        for head, x in cols:
            page.text(MARGIN + x, top + 7, head, size=6.5, font=BOLD, colour=GREY)
        top += _ROW
        for div in side.divisions:
            page.line(MARGIN, top + 1, MARGIN + _LIST_W, top + 1, width=0.3)
            page.text(
                MARGIN,
                top + 8,
                f"{div.name}: {div.formation}, flagship {div.flag}",
                size=7,
                font=BOLD,
                width=_LIST_W,
            )
            top += _ROW
            for p in (q for q in by_side[side.name] if q.division == div.name):
                row = (
                    p.name,
                    p.cls,
                    scale.fmt(p.x - cx),
                    scale.fmt(p.y - cy),
                    f"{p.heading:03.0f}",
                    f"{p.knots:g}",
                    f"{p.x:.0f}, {p.y:.0f}",
                )
                for (_, x), value in zip(cols, row, strict=True):
                    page.text(MARGIN + x + (6 if x == 0 else 0), top + 7, value, size=7, width=110)
                top += _ROW
    if sc.land:
        top += 6
        names = ", ".join(land.name for land in sc.land)
        page.text(MARGIN, top + 7, f"Land: {names} (drawn on the plan).", size=7, width=_LIST_W)


def _plan(page: Page, sc: Scenario, scale: Scale, ships: list[Placement], top: float) -> None:
    """The table from above: land, each ship as a pointer on her heading, a scale bar."""
    cx, cy = table_corner(sc, ships)
    xs = [p.x for p in ships] + [x for land in sc.land for x, _ in land.points]
    ys = [p.y for p in ships] + [y for land in sc.land for _, y in land.points]
    width_m = max(xs) + CORNER_MARGIN_M - cx
    height_m = max(ys) + CORNER_MARGIN_M - cy
    room_h = PAGE_H - MARGIN - 20 - top
    k = min(_PLAN_W / width_m, room_h / height_m)  # points per metre on this plan
    w, h = width_m * k, height_m * k
    page.rect(_PLAN_X, top, w, h, line=0.8)
    c = page.canvas

    def at(x: float, y: float) -> tuple[float, float]:
        return _PLAN_X + (x - cx) * k, page.height - (top + h - (y - cy) * k)

    c.setFillColorRGB(0.8, 0.8, 0.75)
    for land in sc.land:
        path = c.beginPath()
        for i, (x, y) in enumerate(land.points):
            px, py = at(x, y)
            if i == 0:
                path.moveTo(px, py)
            else:
                path.lineTo(px, py)
        path.close()
        c.drawPath(path, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    shades = {sc.sides[0].name: (0.1, 0.2, 0.7), sc.sides[1].name: (0.75, 0.1, 0.1)}
    for p in ships:
        px, py = at(p.x, p.y)
        a = math.radians(p.heading)
        tip = (px + 5 * math.sin(a), py + 5 * math.cos(a))
        left = (px - 2.5 * math.cos(a), py + 2.5 * math.sin(a))
        right = (px + 2.5 * math.cos(a), py - 2.5 * math.sin(a))
        path = c.beginPath()
        path.moveTo(*tip)
        path.lineTo(*left)
        path.lineTo(*right)
        path.close()
        c.setFillColorRGB(*shades[p.side])
        c.drawPath(path, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    labelled: set[str] = set()
    for p in ships:
        if p.division in labelled:
            continue
        labelled.add(p.division)
        px, py = at(p.x, p.y)
        c.setFont(FONT, 5.5)
        c.drawString(px + 6, py + 2, plain(p.division))
    # scale bar: a round number of kilometres, about a fifth of the plan
    km = max(1, round(width_m / 5000))
    bar = km * 1000 * k
    page.line(_PLAN_X, top + h + 10, _PLAN_X + bar, top + h + 10, width=1.5)
    page.text(
        _PLAN_X + bar + 4,
        top + h + 12,
        f"{km} km = {scale.fmt(km * 1000)} on the table; north is up; plan not to scale",
        size=6,
        colour=GREY,
    )


def draw_setup(doc: Document, scenario: Scenario, scale: Scale | None = None) -> None:
    """The set-up sheet of ``scenario`` at ``scale`` (the scenario's own by default)."""
    scale = scale or get_scale(scenario.scale)
    ships = placements(scenario, scale)
    with doc.page() as page:
        page.text(MARGIN, MARGIN + 14, f"Set-up: {scenario.title}", size=15, font=BOLD)
        page.text(PAGE_W - MARGIN, MARGIN + 14, scenario.id, size=8, colour=GREY, align="right")
        page.line(MARGIN, MARGIN + 20, PAGE_W - MARGIN, MARGIN + 20, width=1.2)
        top = MARGIN + 32
        for line in _terms(scenario, scale):
            page.text(MARGIN, top, line, size=7.5, width=PAGE_W - 2 * MARGIN)
            top += 10
        for line in simpleSplit(plain(scenario.description), FONT, 7, PAGE_W - 2 * MARGIN)[:6]:
            page.text(MARGIN, top, line, size=7, font=ITALIC)
            top += 9
        top += 4
        _ship_list(page, scenario, scale, ships, top + 6)
        _plan(page, scenario, scale, ships, top)
        page.text(
            MARGIN,
            PAGE_H - MARGIN + 10,
            "battleline - scenario set-up (BF6-GEN-06): fill in every ship and gunnery log, "
            "place every ship and set every formation before turn 1.",
            size=6,
            colour=GREY,
        )
