"""The Battlefleet 1900 1D12 combat charts as validated data (REF-BF12-02..10, BF12C-GEN-01).

Every value is battleline's reconstruction (``reconstructed = true``) except the numbers the texts
give; ``data/charts/*.toml`` holds them and ``docs/rules-gaps/bf1900-1d12.md`` explains them. The
tables (all rolled on a d12, DIFF-01):

* ``[shell_hits]``: the Penetration portion, columns by margin ("1,2", …), and the No Penetration
  portion, at or below half the armour / above half (BF12C-SHL-01..05, AMB-43/46);
* ``[misc]``: the Miscellaneous Damage chart (BF12C-MISC-01);
* ``[critical]``: the Fire, Sev/Hvy FL, Main/TT, Explosion, Elec/Hydr and Steering lines
  (BF12C-CRIT-01..08);
* ``[flooding]``: Occurrence by size ratio and the Effects lines (BF12C-FLOOD-01..03);
* ``[sinking]``: the Sink Roll range per flooding total (BF12C-SINKC-01);
* ``[uneven]``: the Uneven Flooding chart (BF12C-UNV-01/02);
* ``[damage_control]``: the d12 values to repair (BF12C-DCC-01, BF12-REP, BF12-CMDA);
* ``[torpedo_hits]``: the d12 score a torpedo needs (BF12C-TH-01).

The chart object answers the same lookups as the 1D6 ``Charts`` where the editions share code
(``critical``, ``misc_damage``, ``flood_*``, ``uneven_flooding``, ``torpedo_to_hit``), so the
shared damage modules run on it with a d12. The files are read by the reader both editions
share (``rulesets/chartfile.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

from battleline.rulesets.bf1900.flood_tables import UNEVEN_AXES, FloodColumn, UnevenEffect
from battleline.rulesets.bf1900.ship import FloodLevel
from battleline.rulesets.chartfile import (
    D12,
    Codes,
    Die,
    FloodingLookups,
    codes,
    die_range,
    faces_by_row,
    flooding,
    line,
    ranges,
    read_chart_files,
    row_of,
    torpedo,
    uneven,
)
from battleline.rulesets.tomldata import DataFile, Where, chart_files

#: The edition's die (DIFF-01).
DIE = D12.sides
FACES = D12.faces
EDITION = "1D12"

CRITICAL_LINES = ("fire", "flooding", "main_tt", "explosion", "elec_hydr", "steering")
#: The 1D6 line names the shared Step One / code modules ask for, mapped to the 1D12 lines.
LINE_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "fire_external": "fire",
        "fire_internal": "fire",
        "heavy_flooding": "flooding",
        "severe_flooding": "flooding",
    }
)
REPAIRS = (
    "main",
    "propulsion",
    "steering",
    "rudder",
    "secondary",
    "fire",
    "sink_modifier",
    "flood_magazine",
    "counterflood",
    "recover_ct",
)
NO_PENETRATION_COLUMNS = ("<=1/2", ">1/2")
SINK_ROLL_FROM = 5
MAX_FLOODING_POINTS = 16
_TABLES = (
    "shell_hits",
    "misc",
    "critical",
    "flooding",
    "sinking",
    "uneven",
    "damage_control",
    "torpedo_hits",
)


@dataclass(frozen=True, slots=True)
class MarginColumn:
    """A Penetration-portion column: ``lo`` ≤ penetration − armour ≤ ``hi`` (``None``: open)."""

    name: str
    lo: int
    hi: int | None

    def contains(self, margin: int) -> bool:
        """Whether a penetration margin falls in this column."""
        return margin >= self.lo and (self.hi is None or margin <= self.hi)


@dataclass(frozen=True, slots=True)
class ShellColumn:
    """Where a round is read: ``portion`` "penetration" or "no penetration", and the column."""

    portion: str
    name: str
    index: int

    @property
    def penetrating(self) -> bool:
        """True on the Penetration portion (only these dice count for bonus doubles, AMB-44)."""
        return self.portion == "penetration"


@dataclass(frozen=True, eq=False)
class Charts12(FloodingLookups):
    """Every 1D12 combat chart, validated. Lookups take a d12 face; the flooding ones are
    :class:`~battleline.rulesets.chartfile.FloodingLookups`'."""

    chart_die: ClassVar[Die] = D12
    version: str
    reconstructed: bool
    source: str
    margin_columns: tuple[MarginColumn, ...]
    penetration: tuple[tuple[Codes, ...], ...]
    no_penetration: tuple[tuple[Codes, ...], ...]
    misc: tuple[Codes, ...]
    critical_lines: Mapping[str, tuple[Codes, ...]]
    flood_columns: tuple[FloodColumn, ...]
    occurrence: tuple[tuple[FloodLevel, ...], ...]
    effects: Mapping[FloodLevel, tuple[Codes, ...]]
    sinking: Mapping[int, tuple[int, int]]
    uneven: Mapping[str, tuple[UnevenEffect, ...]]
    repair: Mapping[str, tuple[int, int]]
    torpedo: Mapping[tuple[str, str], int]
    edition: str = EDITION
    die: int = DIE

    # -- shell hits (BF12C-SHL) ------------------------------------------------------------

    def shell_column(self, penetration: int, armour: int) -> ShellColumn:
        """The portion and column for a round (BF12C-SHL-01..03, AMB-43): penetration above
        armour → the margin column; else at or below half the armour → left, above → right."""
        if penetration > armour:
            margin = penetration - armour
            for i, col in enumerate(self.margin_columns):
                if col.contains(margin):
                    return ShellColumn("penetration", col.name, i)
            raise AssertionError("validated margin columns cover every margin")  # pragma: no cover
        right = 2 * penetration > armour
        return ShellColumn("no penetration", NO_PENETRATION_COLUMNS[right], int(right))

    def shell_damage(self, column: ShellColumn, roll: int) -> Codes:
        """The codes one round's d12 gives in ``column`` (BF12C-SHL-04)."""
        rows = self.penetration if column.penetrating else self.no_penetration
        return rows[_face(roll)][column.index]

    # -- misc and criticals (BF12C-MISC, BF12C-CRIT) ---------------------------------------

    def misc_damage(self, roll: int) -> Codes:
        """The Miscellaneous Damage chart (BF12C-MISC-01)."""
        return self.misc[_face(roll)]

    def critical(self, line: str, roll: int) -> Codes:
        """One Critical Effects line; the 1D6 line names map onto the 1D12 lines."""
        key = LINE_ALIASES.get(line, line)
        if key not in self.critical_lines:
            raise ValueError(f"unknown critical-effects line {line!r}; use one of {CRITICAL_LINES}")
        return self.critical_lines[key][_face(roll)]

    # -- sinking and uneven flooding (BF12C-SINKC, BF12C-UNV) --------------------------------

    def sink_range(self, points: int) -> tuple[int, int] | None:
        """The Sink Roll range for a flooding total; ``None`` below 5 (EX-DRV-04)."""
        if points < SINK_ROLL_FROM:
            return None
        return self.sinking[min(points, MAX_FLOODING_POINTS)]

    def sink_roll(self, points: int) -> tuple[int, int, int] | None:
        """``(lo, hi, 0)``: the shared protocol's shape; the turns are a d12 (BF12-SINK-03)."""
        found = self.sink_range(points)
        return None if found is None else (*found, 0)

    def uneven_flooding(self, axis: str, difference: int) -> UnevenEffect:
        """The Uneven Flooding effect for a point difference on one axis (0: none)."""
        if axis not in self.uneven:
            raise ValueError(f"unknown uneven-flooding axis {axis!r}; use one of {UNEVEN_AXES}")
        if difference <= 0:
            return UnevenEffect()
        rows = self.uneven[axis]
        return rows[min(difference, len(rows)) - 1]

    # -- damage control and torpedoes (BF12C-DCC, BF12C-TH) -----------------------------------

    def repair_range(self, action: str) -> tuple[int, int]:
        """The d12 range that succeeds for a damage-control action (see :data:`REPAIRS`)."""
        if action not in self.repair:
            raise ValueError(f"unknown damage-control action {action!r}; use one of {REPAIRS}")
        return self.repair[action]

    def command_range(self, function: str) -> tuple[int, int]:
        """Command actions share the Damage Control chart in this edition."""
        return self.repair_range(function)

    def torpedo_to_hit(self, course: str, aspect: str) -> int:
        """The d12 score a torpedo needs, hit on that or higher (BF12C-TH-01, AMB-54)."""
        key = (course, aspect)
        if key not in self.torpedo:
            raise ValueError(f"no torpedo-hit cell for {course!r}, {aspect!r}")
        return self.torpedo[key]


def _face(roll: int) -> int:
    """Index of a face of the charts' die; anything else is a programming error."""
    return D12.index(roll)


# -- loading ---------------------------------------------------------------------------------


def load_charts(path: str | Path | None = None) -> Charts12:
    """The packaged 1D12 charts (cached), or a user's file or directory replacing all of them."""
    if path is None:
        return _default_charts()
    return _build(chart_files(path), str(Path(path)))


@lru_cache(maxsize=1)
def _default_charts() -> Charts12:
    root = resources.files("battleline.rulesets.bf1900_12").joinpath("data", "charts")
    entries = sorted((e for e in root.iterdir() if e.name.endswith(".toml")), key=lambda e: e.name)
    return _build([(f"data/charts/{e.name}", e.read_bytes) for e in entries], "packaged")


def _build(files: list[DataFile], source: str) -> Charts12:
    chart_set = read_chart_files(files, edition=EDITION, tables=_TABLES, source=source)
    get = chart_set.get
    flood_w, flood = get("flooding")
    columns, occurrence, raw_effects = flooding(flood_w, flood, D12)
    names = tuple(c.name for c in columns)
    shell_w, shell = get("shell_hits")
    margins, pen, nopen = _shell_hits(shell_w, shell, names)
    misc_w, misc = get("misc")
    misc_w.keys(misc, required=("roll",))
    crit_w, crit = get("critical")
    crit_w.keys(crit, required=CRITICAL_LINES)
    effects = {
        lv: line(flood_w.sub(f"effects.{lv.name.lower()}"), raw, names, D12)
        for lv, raw in raw_effects.items()
    }
    return Charts12(
        version=chart_set.version,
        reconstructed=chart_set.reconstructed,
        source=source,
        margin_columns=margins,
        penetration=pen,
        no_penetration=nopen,
        misc=line(misc_w.sub("roll"), misc["roll"], names, D12),
        critical_lines=MappingProxyType(
            {k: line(crit_w.sub(k), crit[k], names, D12) for k in CRITICAL_LINES}
        ),
        flood_columns=columns,
        occurrence=occurrence,
        effects=MappingProxyType(effects),
        sinking=MappingProxyType(_sinking(*get("sinking"))),
        uneven=MappingProxyType(uneven(*get("uneven"))),
        repair=MappingProxyType(
            ranges(
                *get("damage_control"),
                REPAIRS,
                D12,
                to_top="a damage-control roll succeeds from its low end up to 12",
            )
        ),
        torpedo=MappingProxyType(torpedo(*get("torpedo_hits"), D12)),
    )


def _shell_hits(
    where: Where, value: dict[str, Any], flood_names: tuple[str, ...]
) -> tuple[tuple[MarginColumn, ...], tuple[tuple[Codes, ...], ...], tuple[tuple[Codes, ...], ...]]:
    """``[shell_hits]``: the Penetration columns by margin, contiguous from 1 and open-ended,
    then one row per face for each portion (BF12C-SHL-01..04, AMB-46)."""
    where.keys(value, required=("penetration_columns", "penetration", "no_penetration"))
    raw = value["penetration_columns"]
    if not isinstance(raw, list) or not raw:
        where.fail(
            "penetration_columns", "expected a list such as { name = '1,2', from = 1, to = 2 }"
        )
    margins: list[MarginColumn] = []
    for i, item in enumerate(raw):
        field = f"penetration_columns[{i}]"
        col = where.as_table(item, field)
        name = col.get("name")
        if not isinstance(name, str) or not name:
            where.fail(f"{field}.name", "a column needs a name")
        lo = where.integer(col.get("from"), f"{field}.from", 1, 99)
        hi = where.integer(col["to"], f"{field}.to", lo, 99) if "to" in col else None
        expected = 1 if not margins else (margins[-1].hi or 0) + 1
        if lo != expected:
            where.fail(f"{field}.from", f"columns must run on without gaps: expected {expected}")
        if hi is None and i != len(raw) - 1:
            where.fail(f"{field}.to", "only the last column may be open-ended")
        if hi is not None and i == len(raw) - 1:
            where.fail(f"{field}.to", "the last column must be open-ended (leave out 'to')")
        margins.append(MarginColumn(name, lo, hi))
    portions = []
    for key, width in (("penetration", len(margins)), ("no_penetration", 2)):
        sub = where.sub(key)
        rows = faces_by_row(sub, sub.as_table(value[key]), (), D12)
        portions.append(
            tuple(
                tuple(
                    codes(sub, f"{face}[{c}]", cell, flood_names, plain_fl=True)
                    for c, cell in enumerate(row_of(sub, str(face), row, width))
                )
                for face, row in zip(FACES, rows, strict=True)
            )
        )
    return tuple(margins), portions[0], portions[1]


def _sinking(where: Where, value: dict[str, Any]) -> dict[int, tuple[int, int]]:
    """``[sinking]``: the Sink Roll range for every flooding total from 5 to 16."""
    wanted = [str(p) for p in range(SINK_ROLL_FROM, MAX_FLOODING_POINTS + 1)]
    where.keys(value, required=wanted)
    return {int(k): die_range(where, k, value[k], D12) for k in wanted}


__all__ = [
    "DIE",
    "Charts12",
    "MarginColumn",
    "ShellColumn",
    "load_charts",
]
