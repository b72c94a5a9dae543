"""Writers for the true-scale play aids: arc cards, turning circles and range rulers, alone or
together in one file (every page with its calibration bar)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from battleline.printing.arc_cards import draw_cards
from battleline.printing.paper import Document, Paper, get_paper
from battleline.printing.rulers import draw_rulers
from battleline.printing.turning import draw_turning_circles
from battleline.rulesets.bf1900.scales import Scale

#: The true-scale aids by name, in print order.
AIDS = {
    "arcs": ("arc-of-fire cards", draw_cards),
    "circles": ("turning circles", draw_turning_circles),
    "rulers": ("range rulers", draw_rulers),
}


def write_true_scale_aids(
    path: str | Path,
    scale: Scale,
    paper: Paper | None = None,
    aids: Sequence[str] = tuple(AIDS),
) -> Path:
    """Write the named aids (all by default) at ``scale`` on ``paper`` (A4 by default)."""
    unknown = [a for a in aids if a not in AIDS]
    if unknown:
        raise ValueError(f"unknown play aid {unknown[0]!r}; known: {', '.join(AIDS)}")
    paper = paper or get_paper("a4")
    names = ", ".join(AIDS[a][0] for a in aids)
    doc = Document(path, paper, f"{names} at {scale.label}")
    for aid in aids:
        AIDS[aid][1](doc, scale)
    return doc.save()
