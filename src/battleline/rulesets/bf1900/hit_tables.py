"""The 1D6 AP and HE hit tables (BF6-DMG-07, BF6-GUN-02): records and reader.

A table rolls a 1D6 location per round (``[ap.location]``: 1 Vitals, 2 Upperworks, 3–6 miss for
AP), then per hit a 1D6 in the column of the penetration differential: penetration as a
percentage of the location's armour, in contiguous columns from 0 % to open-ended.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.chartfile import D6, Codes, codes, faces_by_range, faces_by_row, row_of
from battleline.rulesets.tomldata import Where

LOCATIONS = ("vitals", "upperworks")


@dataclass(frozen=True, slots=True)
class DifferentialColumn:
    """One penetration-differential column: ``over`` < differential ≤ ``upto`` (percent).

    ``over`` is ``None`` for the first column (from 0) and ``upto`` ``None`` for the last.
    """

    name: str
    over: float | None
    upto: float | None

    def contains(self, pct: float) -> bool:
        """Whether a differential (percent) falls in this column."""
        return (self.over is None or pct > self.over) and (self.upto is None or pct <= self.upto)


@dataclass(frozen=True, slots=True)
class ShellTable:
    """The AP or the HE hit table.

    ``locations[face - 1]`` is "vitals", "upperworks" or ``None`` (a miss);
    ``cells[location][face - 1][column]`` are the codes.
    """

    ammo: Ammo
    penetration_factor: float
    locations: tuple[str | None, ...]
    columns: tuple[DifferentialColumn, ...]
    cells: Mapping[str, tuple[tuple[Codes, ...], ...]]

    def column_index(self, differential_pct: float) -> int:
        """The column a differential (percent) falls in."""
        if math.isnan(differential_pct) or differential_pct < 0:
            raise ValueError(f"a penetration differential cannot be {differential_pct!r}")
        for i, col in enumerate(self.columns):
            if col.contains(differential_pct):
                return i
        raise AssertionError("validated columns cover every differential")  # pragma: no cover

    def location(self, roll: int) -> str | None:
        """The location die: "vitals", "upperworks" or ``None`` for a miss."""
        return self.locations[_face(roll)]

    def damage(self, location: str, column: int, roll: int) -> Codes:
        """The codes for one hit on ``location``, in column number ``column``
        (see :meth:`column_index`), for a 1D6 ``roll``."""
        if location not in self.cells:
            raise ValueError(f"unknown hit location {location!r}; use one of {LOCATIONS}")
        return self.cells[location][_face(roll)][column]


def _face(roll: int) -> int:
    """Index of a 1D6 face (0–5); anything else is a programming error."""
    if roll not in D6.faces:
        raise ValueError(f"a 1D6 roll must be 1–6, not {roll!r}")
    return roll - 1


# -- reading ---------------------------------------------------------------------------------


def read_shell_table(
    where: Where, value: dict[str, Any], ammo: Ammo, flood_columns: tuple[str, ...]
) -> ShellTable:
    """``[ap]`` or ``[he]``: penetration factor, location ranges, differential columns, and one
    row of cells per face for each location."""
    where.keys(value, required=("penetration_factor", "location", "columns", *LOCATIONS))
    factor = where.number(value["penetration_factor"], "penetration_factor")
    if factor <= 0:
        where.fail("penetration_factor", "must be greater than 0")
    loc_w = where.sub("location")
    loc = loc_w.as_table(value["location"])
    loc_w.keys(loc, required=(*LOCATIONS, "miss"))
    by_face: list[str | None] = [None] * D6.sides
    for name, (lo, hi) in faces_by_range(loc_w, loc, D6).items():
        for face in range(lo, hi + 1):
            by_face[face - 1] = None if name == "miss" else name
    columns = _differential_columns(where.sub("columns"), value["columns"])
    cells: dict[str, tuple[tuple[Codes, ...], ...]] = {}
    for location in LOCATIONS:
        loc_rows_w = where.sub(location)
        rows = faces_by_row(loc_rows_w, loc_rows_w.as_table(value[location]), (), D6)
        out_rows = []
        for face, row in zip(D6.faces, rows, strict=True):
            row_cells = row_of(
                loc_rows_w, str(face), row, len(columns), "one per differential column"
            )
            out_rows.append(
                tuple(
                    codes(loc_rows_w, f"{face} [{col.name}]", cell, flood_columns, plain_fl=True)
                    for col, cell in zip(columns, row_cells, strict=True)
                )
            )
        cells[location] = tuple(out_rows)
    return ShellTable(ammo, factor, tuple(by_face), columns, MappingProxyType(cells))


def _differential_columns(where: Where, value: Any) -> tuple[DifferentialColumn, ...]:
    """Columns must start at 0, run contiguously (each ``over`` = the previous ``upto``) and end
    open (no ``upto``)."""
    if not isinstance(value, list) or not value:
        where.fail("", "expected a list of columns such as { name = '≤50%', upto = 50 }")
    out: list[DifferentialColumn] = []
    names: set[str] = set()
    for i, raw in enumerate(value):
        field = f"[{i}]"
        col = where.as_table(raw, field)
        where.keys(col, required=("name",), optional=("over", "upto"))
        name = col["name"]
        if not isinstance(name, str) or not name:
            where.fail(f"{field}.name", "a column needs a name")
        if name in names:
            where.fail(f"{field}.name", f"column name {name!r} used twice")
        names.add(name)
        over = where.number(col["over"], f"{field}.over") if "over" in col else None
        upto = where.number(col["upto"], f"{field}.upto") if "upto" in col else None
        if i == 0 and over not in (None, 0.0):
            where.fail(f"{field}.over", "the first column must start at 0 (leave out 'over')")
        if i > 0:
            prev = out[-1].upto
            if over is None or over != prev:
                where.fail(
                    f"{field}.over",
                    f"columns must be contiguous: 'over' must be {prev:g}, "
                    f"the previous column's 'upto'",
                )
        if upto is None and i != len(value) - 1:
            where.fail(f"{field}.upto", "only the last column may be open-ended")
        if upto is not None and i == len(value) - 1:
            where.fail(f"{field}.upto", "the last column must be open-ended (leave out 'upto')")
        if upto is not None and over is not None and upto <= over:
            where.fail(f"{field}.upto", f"'upto' ({upto:g}) must be above 'over' ({over:g})")
        if upto is not None and upto <= 0:
            where.fail(f"{field}.upto", "must be above 0")
        out.append(DifferentialColumn(name, over if i > 0 else None, upto))
    return tuple(out)


__all__ = ["LOCATIONS", "DifferentialColumn", "ShellTable", "read_shell_table"]
