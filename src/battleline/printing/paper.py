"""Paper sizes and true-scale units for the printed play aids.

Two kinds of page are printed:

* **sheets** (ship logs, gunnery logs, chart tables, keys) are laid out once on an A4 landscape
  design frame; on US Letter the frame is shrunk to fit (about 94 %) and centred;
* **true-scale aids** (arc cards, turning circles, range rulers, the calibration bar) are never
  scaled: they are drawn in points straight from table units, so 1 mm on the table is
  72 / 25.4 points on the paper, laid out for the paper in use.

:func:`table_points` is the one conversion from metres of sea to points on paper.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen.canvas import Canvas

from battleline.errors import UnknownNameError
from battleline.printing.draw import PAGE_H, PAGE_W, Page
from battleline.rulesets.bf1900.scales import MM_PER_INCH, Scale

#: Points in one millimetre and in one inch (a point is 1/72 in).
PT_PER_MM = 72.0 / MM_PER_INCH
PT_PER_IN = 72.0


@dataclass(frozen=True, slots=True)
class Paper:
    """A paper size, landscape: ``width`` > ``height``, in points."""

    name: str
    width: float
    height: float

    @property
    def design_factor(self) -> float:
        """How much the A4 design frame of the sheets is shrunk to fit this paper (≤ 1)."""
        return min(1.0, self.width / PAGE_W, self.height / PAGE_H)


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", max(A4), min(A4)),
    "letter": Paper("letter", max(LETTER), min(LETTER)),
}


def get_paper(name: str) -> Paper:
    """``"a4"`` or ``"letter"``; :class:`UnknownNameError` for anything else."""
    try:
        return PAPERS[name.lower()]
    except KeyError:
        raise UnknownNameError("paper size", name, list(PAPERS)) from None


def unit_points(unit: str) -> float:
    """Points in one table unit (``"mm"`` or ``"in"``)."""
    return PT_PER_MM if unit == "mm" else PT_PER_IN


def table_points(scale: Scale, metres: float) -> float:
    """``metres`` of sea as points on paper at ``scale``: metres → table units → points."""
    return scale.to_table(metres) * unit_points(scale.table_unit)


class Document:
    """A PDF written page by page on one paper size.

    :meth:`sheet` opens a page with the A4 design frame fitted to the paper; :meth:`true_page`
    opens an unscaled page addressed in points of this paper. Each page ends with :meth:`end`.
    """

    def __init__(self, path: str | Path, paper: Paper, title: str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.paper = paper
        self.canvas = Canvas(str(self.path), pagesize=(paper.width, paper.height), invariant=1)
        self.canvas.setTitle(title)
        self.canvas.setCreator("battleline")
        self.pages = 0

    def sheet(self) -> Page:
        """A page drawn on the A4 landscape design frame (``PAGE_W`` × ``PAGE_H``)."""
        c, k = self.canvas, self.paper.design_factor
        c.saveState()
        c.translate((self.paper.width - k * PAGE_W) / 2, (self.paper.height - k * PAGE_H) / 2)
        c.scale(k, k)
        return Page(c)

    def true_page(self) -> Page:
        """An unscaled page: one point drawn is one point on paper."""
        self.canvas.saveState()
        return Page(self.canvas, self.paper.height)

    def end(self) -> None:
        """Finish the current page."""
        self.canvas.restoreState()
        self.canvas.showPage()
        self.pages += 1

    def save(self) -> Path:
        """Write the file; returns its path."""
        self.canvas.save()
        return self.path

    @contextmanager
    def page(self, *, true_scale: bool = False) -> Iterator[Page]:
        """``with doc.page() as page:`` draws one page and ends it."""
        page = self.true_page() if true_scale else self.sheet()
        yield page
        self.end()
