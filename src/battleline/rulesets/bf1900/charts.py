"""The Battlefleet 1900 (1D6) combat charts as validated data (REF-BF6-04, REF-BF6-06, REF-BF6-18).

The publisher's Combat Chart is not in the seed texts, so every value is battleline's
reconstruction (``reconstructed = true``), kept in ``data/charts/*.toml`` and explained table by
table in ``docs/rules-gaps/charts.md``. The tables:

* ``[ap]``, ``[he]``: the AP and HE hit tables: a 1D6 location per round (1 Vitals, 2 Upperworks,
  3–6 miss for AP), then per hit a 1D6 in the column of the penetration differential
  (penetration as a percentage of the location's armour; BF6-DMG-07, BF6-GUN-02);
* ``[misc]``: the Miscellaneous Damage chart;
* ``[critical]``: the Critical Effects lines (fire external/internal, Hvy/Sev FL, Main/TT,
  explosion, elec/hydr, steering; BF6-DMG-04..06);
* ``[flooding.occurrence]``, ``[flooding.effects]``: flooding by weapon size against target size,
  and what each level does (BF6-DMG-08, AMB-23);
* ``[uneven.side]``, ``[uneven.fore_aft]``, ``[sinking]``: the Listing & Sinking table
  (BF6-DMG-13, BF6-SINK-01/02);
* ``[damage_control]``, ``[command_functions]``: the 1D6 success ranges (BF6-REP, BF6-CF);
* ``[torpedo_hits]``: the 1D6 score a torpedo needs (AMB-54).

The files are read by the reader both editions share (``rulesets/chartfile.py``); the hit tables
are in ``hit_tables.py`` and the flooding records in ``flood_tables.py``.

:func:`load_charts` reads the packaged directory (cached), or a user's file or directory, which
then replaces *all* the packaged charts. Anything malformed raises one
:class:`~battleline.errors.RulesDataError` naming the file, the table and the field.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.flood_tables import (
    LEVEL_NAMES,
    MAX_FLOODING_POINTS,
    SINK_ROLL_FROM,
    UNEVEN_AXES,
    FloodColumn,
    SinkRow,
    UnevenEffect,
)
from battleline.rulesets.bf1900.hit_tables import (
    LOCATIONS,
    DifferentialColumn,
    ShellTable,
    read_shell_table,
)
from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.bf1900.ship import FloodLevel
from battleline.rulesets.chartfile import (
    D6,
    MAX_CODE_COUNT,
    TORPEDO_ASPECTS,
    TORPEDO_COURSES,
    Codes,
    Die,
    FloodingLookups,
    die_range,
    flooding,
    line,
    ranges,
    read_chart_files,
    torpedo,
    uneven,
)
from battleline.rulesets.tomldata import DataFile, Where, chart_files

#: The dice every chart uses (BF6-GEN-01).
FACES = D6.faces
#: The edition these charts belong to.
EDITION = "1D6"

CRITICAL_LINES = (
    "fire_external",
    "fire_internal",
    "heavy_flooding",
    "severe_flooding",
    "main_tt",
    "explosion",
    "elec_hydr",
    "steering",
)
REPAIR_ACTIONS = ("P_BR", "M_ST", "STOP_HVY_FL", "S_DC_R", "SECURE_R", "SINK_MINUS_1")
COMMAND_FUNCTIONS = (
    "FLOOD_MAGAZINE",
    "COUNTERFLOOD",
    "RECOVER_CT",
    "READ_MESSAGE_1",
    "READ_MESSAGE_2",
)

_TABLES = (
    "ap",
    "he",
    "misc",
    "critical",
    "flooding",
    "uneven",
    "sinking",
    "damage_control",
    "command_functions",
    "torpedo_hits",
)
_DEFAULT_PACKAGE = "battleline.rulesets.bf1900"
_DEFAULT_DIR = "data/charts"


# -- the charts ------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Charts(FloodingLookups):
    """Every 1D6 combat chart, validated. Lookups take a 1D6 face and return codes or values;
    the flooding ones are :class:`~battleline.rulesets.chartfile.FloodingLookups`'."""

    chart_die: ClassVar[Die] = D6
    version: str
    reconstructed: bool
    source: str
    ap: ShellTable
    he: ShellTable
    misc: tuple[Codes, ...]
    critical_lines: Mapping[str, tuple[Codes, ...]]
    flood_columns: tuple[FloodColumn, ...]
    occurrence: tuple[tuple[FloodLevel, ...], ...]
    effects: Mapping[FloodLevel, tuple[Codes, ...]]
    uneven: Mapping[str, tuple[UnevenEffect, ...]]
    sinking: tuple[SinkRow, ...]
    repair: Mapping[str, tuple[int, int]]
    command: Mapping[str, tuple[int, int]]
    torpedo: Mapping[tuple[str, str], int]
    edition: str = EDITION

    # -- shell hits (BF6-DMG-07) ----------------------------------------------------------

    def table(self, ammo: Ammo | str) -> ShellTable:
        """The AP or HE hit table."""
        if ammo is Ammo.AP:  # the members themselves skip the (slow) Ammo() conversion
            return self.ap
        if ammo is Ammo.HE:
            return self.he
        return self.ap if Ammo(ammo) is Ammo.AP else self.he

    def ap_location(self, roll: int) -> str | None:
        """AP location die: "vitals", "upperworks" or ``None`` for a miss."""
        return self.ap.locations[_face(roll)]

    def he_location(self, roll: int) -> str | None:
        """HE location die: "vitals", "upperworks" or ``None`` for a miss."""
        return self.he.locations[_face(roll)]

    def location(self, ammo: Ammo | str, roll: int) -> str | None:
        """The location die of either table."""
        return self.table(ammo).location(roll)

    def penetration_factor(self, ammo: Ammo | str) -> float:
        """Multiplier on the AP penetration for this ammunition (HE penetrates poorly)."""
        return self.table(ammo).penetration_factor

    def differential(self, ammo: Ammo | str, penetration: float, armour: float) -> float:
        """The penetration differential in percent: effective penetration ÷ armour × 100.

        Armour of 0 or less gives ``inf`` (the last column).
        """
        effective = penetration * self.penetration_factor(ammo)
        if armour <= 0:
            return math.inf
        return 100.0 * effective / armour

    def differential_column(self, ammo: Ammo | str, differential_pct: float) -> str:
        """The name of the column a differential falls in (for narration)."""
        table = self.table(ammo)
        return table.columns[table.column_index(differential_pct)].name

    def shell_damage(
        self, ammo: Ammo | str, location: str, differential_pct: float, roll: int
    ) -> Codes:
        """The codes for one hit: ammunition, location, differential (percent) and the 1D6."""
        table = self.table(ammo)
        if location not in table.cells:
            raise ValueError(f"unknown hit location {location!r}; use one of {LOCATIONS}")
        return table.damage(location, table.column_index(differential_pct), roll)

    # -- misc and criticals (BF6-DMG-04/05/06, BF12C-CRIT) --------------------------------

    def misc_damage(self, roll: int) -> Codes:
        """The Miscellaneous Damage chart."""
        return self.misc[_face(roll)]

    def critical(self, line: str, roll: int) -> Codes:
        """One Critical Effects line (see :data:`CRITICAL_LINES`)."""
        if line not in self.critical_lines:
            raise ValueError(f"unknown critical-effects line {line!r}; use one of {CRITICAL_LINES}")
        return self.critical_lines[line][_face(roll)]

    # -- listing and sinking (BF6-DMG-13, BF6-SINK-01/02) ---------------------------------

    def uneven_flooding(self, axis: str, difference: int) -> UnevenEffect:
        """The Uneven Flooding effect for a point ``difference`` on ``axis`` ("side" or
        "fore_aft"); a difference of 0 has no effect."""
        if axis not in self.uneven:
            raise ValueError(f"unknown uneven-flooding axis {axis!r}; use one of {UNEVEN_AXES}")
        if difference < 0:
            raise ValueError(f"a point difference cannot be negative: {difference!r}")
        if difference == 0:
            return UnevenEffect()
        rows = self.uneven[axis]
        return rows[min(difference, len(rows)) - 1]

    def sink_roll(self, points: int) -> tuple[int, int, int] | None:
        """``(lo, hi, turns)`` of the Sinking row for ``points``; ``None`` below 5 (EX-DRV-04)."""
        if points < SINK_ROLL_FROM:
            return None
        row = self.sinking[min(points, MAX_FLOODING_POINTS) - SINK_ROLL_FROM]
        return row.lo, row.hi, row.turns

    # -- damage control and command (BF6-REP, BF6-CF) -------------------------------------

    def repair_range(self, action: str) -> tuple[int, int]:
        """The Damage Control box range for a repair action (see :data:`REPAIR_ACTIONS`)."""
        if action not in self.repair:
            raise ValueError(f"unknown repair action {action!r}; use one of {REPAIR_ACTIONS}")
        return self.repair[action]

    def command_range(self, function: str) -> tuple[int, int]:
        """The Command Function range (``hi`` is always 6; a roll below ``lo`` fails)."""
        if function not in self.command:
            raise ValueError(
                f"unknown command function {function!r}; use one of {COMMAND_FUNCTIONS}"
            )
        return self.command[function]

    # -- torpedoes (REF-BF6-18, AMB-54) ---------------------------------------------------

    def torpedo_to_hit(self, course: str, aspect: str) -> int:
        """The 1D6 score a torpedo needs (hit if roll ≥ value)."""
        key = (course, aspect)
        if key not in self.torpedo:
            raise ValueError(
                f"no torpedo-hit cell for course {course!r}, aspect {aspect!r}; courses are "
                f"{TORPEDO_COURSES}, aspects {TORPEDO_ASPECTS}"
            )
        return self.torpedo[key]


def _face(roll: int) -> int:
    """Index of a face of the charts' die; anything else is a programming error."""
    return D6.index(roll)


# -- loading ---------------------------------------------------------------------------------


def load_charts(path: str | Path | None = None) -> Charts:
    """Load and validate the charts.

    With no ``path``, the packaged ``data/charts/*.toml`` (cached). A ``path`` to a file or to a
    directory of ``*.toml`` files replaces *all* the packaged chart data: together the files must
    hold every table exactly once, each file with ``version``, ``reconstructed`` and
    ``edition = "1D6"``.
    """
    if path is None:
        return _default_charts()
    return _build(chart_files(path), str(Path(path)))


@lru_cache(maxsize=1)
def _default_charts() -> Charts:
    root: Traversable = resources.files(_DEFAULT_PACKAGE).joinpath(_DEFAULT_DIR)
    entries = sorted(
        (e for e in root.iterdir() if e.name.endswith(".toml") and e.is_file()),
        key=lambda e: e.name,
    )
    files = [(f"{_DEFAULT_DIR}/{e.name}", e.read_bytes) for e in entries]
    if not files:  # pragma: no cover - a broken installation
        raise RulesDataError(str(root), "charts", "", "the packaged chart files are missing")
    return _build(files, f"{_DEFAULT_DIR} (packaged)")


def _build(files: list[DataFile], source: str) -> Charts:
    chart_set = read_chart_files(files, edition=EDITION, tables=_TABLES, source=source)
    get = chart_set.get
    flood_w, flood = get("flooding")
    flood_columns, occurrence, effects = flooding(flood_w, flood, D6)
    column_names = tuple(c.name for c in flood_columns)
    ap = read_shell_table(*get("ap"), Ammo.AP, column_names)
    he = read_shell_table(*get("he"), Ammo.HE, column_names)
    misc_w, misc = get("misc")
    misc_w.keys(misc, required=("roll",))
    misc_line = line(misc_w.sub("roll"), misc["roll"], column_names, D6)
    crit_w, crit = get("critical")
    crit_w.keys(crit, required=CRITICAL_LINES)
    lines = {k: line(crit_w.sub(k), crit[k], column_names, D6) for k in CRITICAL_LINES}
    effects_lines = {
        level: line(flood_w.sub(f"effects.{level.name.lower()}"), raw, column_names, D6)
        for level, raw in effects.items()
    }
    command_to_six = (
        "a command function succeeds on any roll from its low end up, so "
        "its range must end at 6 (a roll below the range fails)"
    )
    return Charts(
        version=chart_set.version,
        reconstructed=chart_set.reconstructed,
        source=source,
        ap=ap,
        he=he,
        misc=misc_line,
        critical_lines=MappingProxyType(lines),
        flood_columns=flood_columns,
        occurrence=occurrence,
        effects=MappingProxyType(effects_lines),
        uneven=MappingProxyType(uneven(*get("uneven"))),
        sinking=_sinking(*get("sinking")),
        repair=MappingProxyType(ranges(*get("damage_control"), REPAIR_ACTIONS, D6)),
        command=MappingProxyType(
            ranges(*get("command_functions"), COMMAND_FUNCTIONS, D6, to_top=command_to_six)
        ),
        torpedo=MappingProxyType(torpedo(*get("torpedo_hits"), D6)),
    )


def _sinking(where: Where, value: dict[str, Any]) -> tuple[SinkRow, ...]:
    """Rows for 5..16 points, contiguous from 5, each a range and a number of turns."""
    rows: dict[int, SinkRow] = {}
    for key, raw in value.items():
        if not key.isdigit():
            where.fail(key, "rows are keyed by total flooding points (5–16)")
        points = int(key)
        if not SINK_ROLL_FROM <= points <= MAX_FLOODING_POINTS:
            where.fail(
                key,
                f"rows run from {SINK_ROLL_FROM} to {MAX_FLOODING_POINTS} points "
                f"(below {SINK_ROLL_FROM} there is no sink roll, EX-DRV-04)",
            )
        if points in rows:
            where.fail(key, "row appears twice")
        row = where.as_table(raw, key)
        where.keys(row, required=("sink", "turns"))
        lo, hi = die_range(where, f"{key}.sink", row["sink"], D6)
        turns = where.integer(row["turns"], f"{key}.turns", 1, 99)
        rows[points] = SinkRow(points, lo, hi, turns)
    for points in range(SINK_ROLL_FROM, MAX_FLOODING_POINTS + 1):
        if points not in rows:
            where.fail(
                str(points),
                f"row missing: rows must run contiguously from "
                f"{SINK_ROLL_FROM} to {MAX_FLOODING_POINTS} points",
            )
    return tuple(rows[p] for p in range(SINK_ROLL_FROM, MAX_FLOODING_POINTS + 1))


__all__ = [
    "COMMAND_FUNCTIONS",
    "CRITICAL_LINES",
    "FACES",
    "LEVEL_NAMES",
    "LOCATIONS",
    "MAX_CODE_COUNT",
    "REPAIR_ACTIONS",
    "TORPEDO_ASPECTS",
    "TORPEDO_COURSES",
    "UNEVEN_AXES",
    "Charts",
    "Codes",
    "DifferentialColumn",
    "FloodColumn",
    "ShellTable",
    "SinkRow",
    "UnevenEffect",
    "load_charts",
]
