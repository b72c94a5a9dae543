"""Printable play aids for tabletop players (BF6-GEN-02): ship logs, gunnery logs and the
combat chart tables, as PDF, drawn with reportlab from the data the engine uses.

* :mod:`~battleline.printing.shiplog_pdf`: one Ship Log page per ship (REF-BF6-05);
* :mod:`~battleline.printing.gunnery_log_pdf`: Gunnery Log sheets (BF6-GEN-05, REF-BF6-08);
* :mod:`~battleline.printing.charts_pdf`: the (reconstructed) combat chart tables.

:func:`write_scenario_aids` puts a whole scenario's paperwork in one file: a log for every ship,
then each side's gunnery logs, one section per division. The arcs sheet is not printed; the arcs
themselves are in ``rulesets/bf1900/arcs.py``.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from battleline.printing.draw import PAGE_H, PAGE_W
from battleline.printing.gunnery_log_pdf import (
    MAX_TURNS,
    SECTIONS_PER_LOG,
    GunnerySection,
    division_sections,
    draw_gunnery_log,
    log_pages,
)
from battleline.printing.shiplog_pdf import draw_ship_log
from battleline.rulesets.bf1900.scales import Scale, get_scale
from battleline.rulesets.bf1900.scenario import Scenario
from battleline.rulesets.bf1900.shiplog import ShipLog

__all__ = ["scenario_logs", "scenario_sections", "write_scenario_aids"]


def scenario_logs(scenario: Scenario) -> list[ShipLog]:
    """A fresh log for every ship of the scenario, side by side and in line order, each filled
    from its class values (BF6-GEN-04)."""
    return [
        ShipLog(name=ship.name, cls=ship.ship_class, side=side.name)
        for side in scenario.sides
        for division in side.divisions
        for ship in division.ships
    ]


def scenario_sections(scenario: Scenario) -> dict[str, list[GunnerySection]]:
    """Each side's gunnery log sections: one per division (two if it has more than four ships)."""
    return {
        side.name: [
            section
            for division in side.divisions
            for section in division_sections(
                division.name,
                [s.name for s in division.ships],
                side=side.name,
                flagship=division.flag,
            )
        ]
        for side in scenario.sides
    }


def write_scenario_aids(path: str | Path, scenario: Scenario, scale: Scale | None = None) -> Path:
    """Write a scenario's play aids to one PDF: a ship log per ship, then the gunnery logs of
    each side (two division sections a sheet, a row per turn up to the turn limit).

    ``scale`` defaults to the scenario's own; speeds and ranges print in its table units.
    """
    scale = scale or get_scale(scenario.scale)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    canvas = Canvas(str(out), pagesize=(PAGE_W, PAGE_H), invariant=1)
    canvas.setTitle(f"Play aids: {scenario.title}")
    canvas.setCreator("battleline")
    for log in scenario_logs(scenario):
        draw_ship_log(canvas, log, scale)
        canvas.showPage()
    turns = min(scenario.turn_limit, MAX_TURNS)
    for side, sections in scenario_sections(scenario).items():
        for i in range(log_pages(sections)):
            chunk = sections[i * SECTIONS_PER_LOG : (i + 1) * SECTIONS_PER_LOG]
            draw_gunnery_log(
                canvas,
                chunk,
                turns=turns,
                title=f"{scenario.title} - {side}",
                unit=scale.table_unit,
            )
            canvas.showPage()
    canvas.save()
    return out
