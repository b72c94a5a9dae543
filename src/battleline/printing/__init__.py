"""Printable play aids for tabletop players (BF6-GEN-02), as PDF on A4 or US Letter, drawn with
reportlab from the data the engine uses.

Sheets (laid out on an A4 design frame, fitted to Letter):

* :mod:`~battleline.printing.shiplog_pdf`: one Ship Log page per ship (REF-BF6-05), and
  :mod:`~battleline.printing.compact_log`: small craft two to a sheet;
* :mod:`~battleline.printing.gunnery_log_pdf`: Gunnery Log sheets (BF6-GEN-05, REF-BF6-08);
* :mod:`~battleline.printing.charts_pdf`: the (reconstructed) combat chart tables;
* :mod:`~battleline.printing.reference_pdf`: the damage-codes key, scales and range brackets;
* :mod:`~battleline.printing.setup_pdf`: a scenario's set-up sheet.

True-scale aids (never scaled; :mod:`~battleline.printing.table_aids`): arc-of-fire cards,
turning circles and range rulers, each page with a calibration bar.

:func:`write_scenario_aids` puts a whole scenario's paperwork in one file: the set-up sheet, a
log for every ship, each side's gunnery logs to the turn limit, and the key and scale table.
"""

from __future__ import annotations

from pathlib import Path

from battleline.printing.compact_log import draw_logs
from battleline.printing.gunnery_log_pdf import (
    GunnerySection,
    division_sections,
    draw_gunnery_logs,
)
from battleline.printing.paper import PAPERS, Document, Paper
from battleline.printing.reference_pdf import draw_reference
from battleline.printing.setup_pdf import draw_setup
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


def write_scenario_aids(
    path: str | Path,
    scenario: Scenario,
    scale: Scale | None = None,
    paper: Paper | None = None,
    half_sheets: str = "small",
) -> Path:
    """Write a scenario's play aids to one PDF: the set-up sheet, a ship log per ship (small
    craft two to a sheet), each side's gunnery logs (two division sections a sheet, a row for
    every turn up to the turn limit), then the damage-codes key and the scale's table.

    ``scale`` defaults to the scenario's own; speeds and ranges print in its table units.
    """
    scale = scale or get_scale(scenario.scale)
    doc = Document(path, paper or PAPERS["a4"], f"Play aids: {scenario.title}")
    draw_setup(doc, scenario, scale)
    draw_logs(doc, scenario_logs(scenario), scale, half_sheets)
    for side, sections in scenario_sections(scenario).items():
        draw_gunnery_logs(
            doc,
            sections,
            turns=scenario.turn_limit,
            title=f"{scenario.title} - {side}",
            unit=scale.table_unit,
        )
    draw_reference(doc, scales={scale.name: scale})
    return doc.save()
