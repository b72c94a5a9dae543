"""Reading Battlefleet 1900 chart files: the one reader the 1D6 and the 1D12 charts share.

A chart set is one or more TOML files. Each starts with a header (``version``, ``reconstructed``,
``edition``, optional ``description``) and holds some of the edition's tables; together the files
hold every table exactly once (:func:`read_chart_files`). The helpers below read the pieces both
editions are made of, on the edition's :class:`Die`:

* die ranges (``"4-6"``), rows keyed by die face, results keyed by name covering every face;
* chart cells of damage codes, checked against the damage-code mapping, and one-roll lines;
* the Flooding Occurrence columns and rows, the Effects lines, the Uneven Flooding rows, the
  torpedo to-hit scores and success ranges.

Every fault raises one :class:`~battleline.errors.RulesDataError` naming the file, the table and
the field (through :class:`~battleline.rulesets.tomldata.Where`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.flood_tables import (
    LEVEL_NAMES,
    MAX_UNEVEN_DIFFERENCE,
    UNEVEN_AXES,
    FloodColumn,
    UnevenEffect,
)
from battleline.rulesets.bf1900.ship import FloodLevel
from battleline.rulesets.tomldata import DataFile, Where, read_toml

#: A chart cell: damage codes applied left to right; empty means no effect.
Codes = tuple[str, ...]

#: The keys of a chart file's header.
HEADER = ("version", "reconstructed", "edition", "description")
#: Largest count a code may carry (``3F``); a bigger number is almost surely a typo.
MAX_CODE_COUNT = 9
TORPEDO_COURSES = ("converging", "diverging", "stationary_nets")
TORPEDO_ASPECTS = ("rake", "beam")

_RANGE_RE = re.compile(r"^\s*([0-9]+)\s*(?:[-–]\s*([0-9]+))?\s*$")


@dataclass(frozen=True, slots=True)
class Die:
    """The die a chart set rolls: ``sides`` faces, called ``label`` in messages."""

    sides: int
    label: str

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face, 1 to ``sides``."""
        return tuple(range(1, self.sides + 1))

    def index(self, roll: int) -> int:
        """The row of a chart column a roll reads (0 for a 1); a roll that is no face of this die
        is a programming error (``ValueError``)."""
        if roll not in range(1, self.sides + 1):
            raise ValueError(f"a {self.label} roll must be 1–{self.sides}, not {roll!r}")
        return roll - 1


D6 = Die(6, "1D6")
D12 = Die(12, "d12")


class FloodingLookups:
    """The Flooding Occurrence and Effects look-ups both editions' charts make the same way
    (BF6-DMG-08, BF12C-FLOOD-01..03, AMB-48), for a chart class with these tables and its die
    (``chart_die``)."""

    chart_die: ClassVar[Die]
    flood_columns: tuple[FloodColumn, ...]
    occurrence: tuple[tuple[FloodLevel, ...], ...]
    effects: Mapping[FloodLevel, tuple[Codes, ...]]

    @property
    def flood_column_names(self) -> tuple[str, ...]:
        """The Flooding Occurrence columns, smallest first ("25>", "50>", …)."""
        return tuple(c.name for c in self.flood_columns)

    def flood_column(self, weapon_size: float, target_size: int) -> str | None:
        """The Occurrence column for a weapon of ``weapon_size`` against a ship of
        ``target_size``: the last column whose threshold the size ratio reaches; ``None`` below
        the first, a quarter of the target's size (no flooding at all; EX-DRV-06)."""
        if target_size <= 0:
            raise ValueError(f"a target's size must be positive, not {target_size!r}")
        if weapon_size < 0:
            raise ValueError(f"a weapon's size cannot be negative: {weapon_size!r}")
        found: str | None = None
        for col in self.flood_columns:
            # Compare without dividing, so 2 against 8 is exactly 25 %.
            if weapon_size * 100.0 >= col.at_least * target_size:
                found = col.name
        return found

    def flood_occurrence(self, column: str, roll: int) -> FloodLevel:
        """The flooding level an Occurrence roll gives in ``column`` (``NONE``: no flooding)."""
        names = self.flood_column_names
        if column not in names:
            raise ValueError(f"unknown flooding column {column!r}; use one of {names}")
        return self.occurrence[self.chart_die.index(roll)][names.index(column)]

    def flood_effect(self, level: FloodLevel, roll: int) -> Codes:
        """The Flooding Effects line of a level (Light … Severe)."""
        if level not in self.effects:
            raise ValueError(f"no flooding-effects line for {FloodLevel(level).name.lower()}")
        return self.effects[level][self.chart_die.index(roll)]


# -- the files ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChartSet:
    """The tables of a chart set, each with the file it came from, and the header values."""

    version: str
    reconstructed: bool
    tables: Mapping[str, tuple[str, Any]]

    def get(self, key: str) -> tuple[Where, dict[str, Any]]:
        """Table ``key`` with its :class:`Where`; it must be a TOML table."""
        name, value = self.tables[key]
        where = Where(name, key)
        return where, where.as_table(value)


def read_chart_files(
    files: Iterable[DataFile], *, edition: str, tables: tuple[str, ...], source: str
) -> ChartSet:
    """Parse every file, check its header and collect its tables.

    Each file needs a ``version`` (the same in every file), ``reconstructed`` true or false and
    ``edition`` equal to ``edition``; a table outside ``tables``, one defined twice or one missing
    from the whole set is refused (``source`` names the set in that last message).
    """
    found: dict[str, tuple[str, Any]] = {}
    version: tuple[str, str] | None = None
    reconstructed = False
    for name, read in files:
        doc = read_toml(name, read)
        header = Where(name, "(file header)")
        ver = doc.get("version")
        if isinstance(ver, bool) or not isinstance(ver, str | int | float):
            header.fail("version", "every chart file needs a version (a string such as '1.0')")
        ver = str(ver)
        if version is not None and ver != version[1]:
            header.fail("version", f"{ver!r} differs from {version[1]!r} in {version[0]}")
        version = version or (name, ver)
        rec = doc.get("reconstructed")
        if not isinstance(rec, bool):
            header.fail("reconstructed", "must be true or false")
        reconstructed = reconstructed or rec
        if doc.get("edition") != edition:
            header.fail(
                "edition",
                f"these charts are for the {edition} edition; write edition = {edition!r}",
            )
        if "description" in doc and not isinstance(doc["description"], str):
            header.fail("description", "must be a string")
        for key, value in doc.items():
            if key in HEADER:
                continue
            if key not in tables:
                Where(name, key).fail("", f"unknown table; the {edition} chart tables are {tables}")
            if key in found:
                Where(name, key).fail("", f"table defined twice (also in {found[key][0]})")
            found[key] = (name, value)
    for key in tables:
        if key not in found:
            raise RulesDataError(
                source, key, "", "table missing (a chart file replaces all the packaged charts)"
            )
    assert version is not None
    return ChartSet(version[1], reconstructed, found)


# -- dice ---------------------------------------------------------------------------------------


def die_range(where: Where, field: str, value: Any, die: Die) -> tuple[int, int]:
    """A range on the die: ``"5-6"``, ``"5–6"``, ``"6"`` or ``6``."""
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    example = "'4-6'" if die.sides == 6 else "'11-12'"
    if not isinstance(text, str):
        where.fail(field, f"expected a {die.label} range such as {example}, got {value!r}")
    m = _RANGE_RE.match(text)
    if m is None:
        where.fail(field, f"expected a {die.label} range such as {example}, got {value!r}")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    if not 1 <= lo <= hi <= die.sides:
        where.fail(field, f"range {text!r} must lie within 1–{die.sides}, low end first")
    return lo, hi


def faces_by_row(
    where: Where, value: Mapping[str, Any], skip: Iterable[str], die: Die
) -> list[Any]:
    """Rows keyed "1".."N" (``skip`` names other keys): every face exactly once; returns the
    rows in face order."""
    allowed = set(skip)
    rows: dict[int, Any] = {}
    for key, row in value.items():
        if key in allowed:
            continue
        if not key.isdigit() or int(key) not in die.faces:
            where.fail(key, f"rows must be the {die.label} faces 1–{die.sides}")
        face = int(key)
        if face in rows:
            where.fail(key, f"face {face} appears twice")
        rows[face] = row
    missing = [f for f in die.faces if f not in rows]
    if missing:
        where.fail(
            str(missing[0]),
            f"face{'s' * (len(missing) > 1)} "
            f"{', '.join(map(str, missing))} missing: every {die.label} face needs a row",
        )
    return [rows[f] for f in die.faces]


def row_of(
    where: Where, field: str, row: Any, width: int, what: str = "one per column"
) -> list[Any]:
    """A row of exactly ``width`` cells."""
    if not isinstance(row, list) or len(row) != width:
        got = f"{len(row)} cells" if isinstance(row, list) else repr(row)
        where.fail(field, f"expected {width} cells ({what}), got {got}")
    return row


def faces_by_range(where: Where, value: Mapping[str, Any], die: Die) -> dict[str, tuple[int, int]]:
    """Results keyed by name with die ranges: each face covered exactly once."""
    owner: dict[int, str] = {}
    out: dict[str, tuple[int, int]] = {}
    for name, text in value.items():
        lo, hi = die_range(where, name, text, die)
        for face in range(lo, hi + 1):
            if face in owner:
                where.fail(name, f"face {face} is also in {owner[face]!r}: ranges overlap")
            owner[face] = name
        out[name] = (lo, hi)
    missing = [f for f in die.faces if f not in owner]
    if missing:
        where.fail(
            "",
            f"face{'s' * (len(missing) > 1)} {', '.join(map(str, missing))} "
            f"not covered: every {die.label} face needs a result",
        )
    return out


def ranges(
    where: Where, value: dict[str, Any], names: tuple[str, ...], die: Die, *, to_top: str = ""
) -> dict[str, tuple[int, int]]:
    """Exactly the ranges ``names``; with ``to_top`` (the reason) each must end at the top face."""
    where.keys(value, required=names)
    out: dict[str, tuple[int, int]] = {}
    for name in names:
        lo, hi = die_range(where, name, value[name], die)
        if to_top and hi != die.sides:
            where.fail(name, to_top)
        out[name] = (lo, hi)
    return out


# -- damage codes -------------------------------------------------------------------------------


def codes(
    where: Where, field: str, value: Any, flood_columns: tuple[str, ...], *, plain_fl: bool
) -> Codes:
    """One cell: ``"-"`` or comma-separated codes, each known to the damage-code mapping. A plain
    ``FL`` (``plain_fl``) needs a weapon size, which only shell hits have."""
    from battleline.rulesets.bf1900.damage.codes import parse_code

    if not isinstance(value, str):
        where.fail(field, f"a cell is a string of codes such as 'Px, FL', got {value!r}")
    parts = [p.strip() for p in value.split(",")]
    if parts == ["-"]:
        return ()
    out: list[str] = []
    for part in parts:
        if not part or part == "-":
            where.fail(field, f"cell {value!r}: empty code or '-' among other codes")
        try:
            code = parse_code(part)
        except RulesDataError:
            code = None
        if code is None:
            where.fail(field, f"unknown damage code {part!r} (see docs/damage-codes.md)")
        if code.count > MAX_CODE_COUNT:
            where.fail(
                field,
                f"code {part!r}: a count above {MAX_CODE_COUNT} is not allowed "
                "(a flooding column needs three digits, e.g. 100FL)",
            )
        if code.name == "FL":
            if code.column is not None and f"{code.column}>" not in flood_columns:
                where.fail(
                    field,
                    f"code {part!r}: no flooding column '{code.column}>' "
                    f"(columns: {', '.join(flood_columns)})",
                )
            if code.column is None and not plain_fl:
                where.fail(
                    field,
                    f"code {part!r}: a plain FL needs a weapon size, which only "
                    "shell hits have; name a column here, e.g. 100FL",
                )
        out.append(str(code))
    return tuple(out)


def line(where: Where, value: Any, flood_columns: tuple[str, ...], die: Die) -> tuple[Codes, ...]:
    """A one-roll line: exactly one cell per face."""
    if not isinstance(value, list) or len(value) != die.sides:
        got = f"{len(value)} cells" if isinstance(value, list) else repr(value)
        where.fail(
            "",
            f"a {die.label} line needs exactly {die.sides} cells (faces 1–{die.sides}), got {got}",
        )
    return tuple(
        codes(where, str(face), cell, flood_columns, plain_fl=False)
        for face, cell in zip(die.faces, value, strict=True)
    )


# -- flooding, uneven flooding, torpedoes --------------------------------------------------------

Flooding = tuple[tuple[FloodColumn, ...], tuple[tuple[FloodLevel, ...], ...], dict[FloodLevel, Any]]


def flooding(where: Where, value: dict[str, Any], die: Die) -> Flooding:
    """``[flooding]``: the Occurrence columns ("N>" from N %, rising), one row of levels per face,
    and the raw Effects lines per level (read with :func:`line` once the columns are known)."""
    where.keys(value, required=("occurrence", "effects"))
    occ_w = where.sub("occurrence")
    occ = occ_w.as_table(value["occurrence"])
    if "columns" not in occ:
        occ_w.fail("columns", "missing")
    raw_cols = occ["columns"]
    if not isinstance(raw_cols, list) or not raw_cols:
        occ_w.fail("columns", "expected a list such as { name = '100>', at_least = 100 }")
    columns: list[FloodColumn] = []
    for i, raw in enumerate(raw_cols):
        field = f"columns[{i}]"
        col = occ_w.as_table(raw, field)
        occ_w.keys(col, required=("name", "at_least"))
        at_least = occ_w.number(col["at_least"], f"{field}.at_least")
        name = col["name"]
        if not isinstance(name, str) or not re.fullmatch(r"[0-9]+>", name):
            occ_w.fail(
                f"{field}.name", f"a flooding column is named 'N>' (e.g. '100>'), got {name!r}"
            )
        if float(name[:-1]) != at_least:
            occ_w.fail(f"{field}.at_least", f"column {name!r} must start at {name[:-1]} %")
        if at_least <= 0:
            occ_w.fail(f"{field}.at_least", "must be above 0")
        if columns and at_least <= columns[-1].at_least:
            occ_w.fail(f"{field}.at_least", "columns must rise left to right without overlap")
        columns.append(FloodColumn(name, at_least))
    rows = faces_by_row(occ_w, occ, ("columns",), die)
    occurrence: list[tuple[FloodLevel, ...]] = []
    for face, row in zip(die.faces, rows, strict=True):
        levels = []
        for fcol, cell in zip(columns, row_of(occ_w, str(face), row, len(columns)), strict=True):
            if not isinstance(cell, str) or cell.lower() not in LEVEL_NAMES:
                occ_w.fail(
                    f"{face} [{fcol.name}]",
                    f"unknown flooding level {cell!r}; use {', '.join(LEVEL_NAMES)}",
                )
            levels.append(LEVEL_NAMES[cell.lower()])
        occurrence.append(tuple(levels))
    eff_w = where.sub("effects")
    eff = eff_w.as_table(value["effects"])
    wanted = [lv for lv in FloodLevel if lv is not FloodLevel.NONE]
    eff_w.keys(eff, required=[lv.name.lower() for lv in wanted])
    effects: dict[FloodLevel, Any] = {lv: eff[lv.name.lower()] for lv in wanted}
    return tuple(columns), tuple(occurrence), effects


def uneven(where: Where, value: dict[str, Any]) -> dict[str, tuple[UnevenEffect, ...]]:
    """``[uneven]``: per axis, one row per point difference 1–4 (BF6-DMG-13, BF12C-UNV-01)."""
    where.keys(value, required=UNEVEN_AXES)
    out: dict[str, tuple[UnevenEffect, ...]] = {}
    fields = ("speed_boxes", "tr_hits", "dc_boxes", "low_guns_silent")
    for axis in UNEVEN_AXES:
        axis_w = where.sub(axis)
        rows = axis_w.as_table(value[axis])
        expected = [str(d) for d in range(1, MAX_UNEVEN_DIFFERENCE + 1)]
        axis_w.keys(rows, required=expected)
        effects = []
        for key in expected:
            row = axis_w.as_table(rows[key], key)
            axis_w.keys(row, required=fields)
            silent = row["low_guns_silent"]
            if not isinstance(silent, bool):
                axis_w.fail(f"{key}.low_guns_silent", "must be true or false")
            effects.append(
                UnevenEffect(
                    speed_boxes=axis_w.integer(row["speed_boxes"], f"{key}.speed_boxes", 0, 6),
                    tr_hits=axis_w.integer(row["tr_hits"], f"{key}.tr_hits", 0, 6),
                    dc_boxes=axis_w.integer(row["dc_boxes"], f"{key}.dc_boxes", 0, 6),
                    low_guns_silent=silent,
                )
            )
        out[axis] = tuple(effects)
    return out


def torpedo(where: Where, value: dict[str, Any], die: Die) -> dict[tuple[str, str], int]:
    """``[torpedo_hits]``: the score needed per course and aspect, a face of the die."""
    where.keys(value, required=TORPEDO_COURSES)
    out: dict[tuple[str, str], int] = {}
    for course in TORPEDO_COURSES:
        row = where.as_table(value[course], course)
        where.sub(course).keys(row, required=TORPEDO_ASPECTS)
        for aspect in TORPEDO_ASPECTS:
            out[(course, aspect)] = where.integer(row[aspect], f"{course}.{aspect}", 1, die.sides)
    return out


__all__ = [
    "D6",
    "D12",
    "HEADER",
    "MAX_CODE_COUNT",
    "TORPEDO_ASPECTS",
    "TORPEDO_COURSES",
    "ChartSet",
    "Codes",
    "Die",
    "FloodingLookups",
    "codes",
    "die_range",
    "faces_by_range",
    "faces_by_row",
    "flooding",
    "line",
    "ranges",
    "read_chart_files",
    "row_of",
    "torpedo",
    "uneven",
]
