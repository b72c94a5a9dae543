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

:func:`load_charts` reads the packaged directory (cached), or a user's file or directory, which
then replaces *all* the packaged charts. Anything malformed raises one
:class:`~battleline.errors.RulesDataError` naming the file, the table and the field.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Any

from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.bf1900.ship import FloodLevel
from battleline.rulesets.tomldata import Where, chart_files, read_toml

#: The dice every chart uses (BF6-GEN-01).
FACES = (1, 2, 3, 4, 5, 6)
#: The edition these charts belong to.
EDITION = "1D6"

#: A chart cell: damage codes applied left to right; empty means no effect.
Codes = tuple[str, ...]

LOCATIONS = ("vitals", "upperworks")
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
TORPEDO_COURSES = ("converging", "diverging", "stationary_nets")
TORPEDO_ASPECTS = ("rake", "beam")
UNEVEN_AXES = ("side", "fore_aft")
#: Largest point difference between two compartments (Severe against none).
MAX_UNEVEN_DIFFERENCE = int(FloodLevel.SEVERE)
#: Total flooding points that call for a sink roll (BF6-SINK-01, EX-DRV-04) and the most a ship
#: can hold (four Severe compartments).
SINK_ROLL_FROM = 5
MAX_FLOODING_POINTS = 4 * int(FloodLevel.SEVERE)
#: Largest count a code may carry (``3F``); a bigger number is almost surely a typo.
MAX_CODE_COUNT = 9

LEVEL_NAMES: Mapping[str, FloodLevel] = MappingProxyType({lv.name.lower(): lv for lv in FloodLevel})

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
_HEADER = ("version", "reconstructed", "edition", "description")
_RANGE_RE = re.compile(r"^\s*([0-9]+)\s*(?:[-–]\s*([0-9]+))?\s*$")
_DEFAULT_PACKAGE = "battleline.rulesets.bf1900"
_DEFAULT_DIR = "data/charts"


# -- records ---------------------------------------------------------------------------------


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


@dataclass(frozen=True, slots=True)
class FloodColumn:
    """A Flooding Occurrence column "N>": weapon size ≥ ``at_least`` % of the target's (AMB-48)."""

    name: str
    at_least: float


@dataclass(frozen=True, slots=True)
class UnevenEffect:
    """What uneven flooding on one axis does while the disparity lasts (BF6-DMG-13).

    Reconstructed (REF-BF6-04); see ``docs/rules-gaps/charts.md``. The effect is not damage on the
    log: it is recomputed from the compartments in every Step Four, cannot be repaired by damage
    control, and goes when counterflooding evens the ship (BF6-DMG-11, BF12C-UNV-02).

    * ``speed_boxes``: propulsion boxes unusable, counted down from the top available box;
    * ``tr_hits``: TR hits added to the steering line (``ShipLog.uneven_tr_hits``);
    * ``dc_boxes``: damage-control dice unusable this turn;
    * ``low_guns_silent``: guns on the side (list) or end (trim) the ship is down towards cannot
      fire.
    """

    speed_boxes: int = 0
    tr_hits: int = 0
    dc_boxes: int = 0
    low_guns_silent: bool = False

    def __add__(self, other: UnevenEffect) -> UnevenEffect:
        """Both axes together (AMB-53): counts add, silenced guns stay silenced."""
        return UnevenEffect(
            self.speed_boxes + other.speed_boxes,
            self.tr_hits + other.tr_hits,
            self.dc_boxes + other.dc_boxes,
            self.low_guns_silent or other.low_guns_silent,
        )

    @property
    def none(self) -> bool:
        """True when the effect does nothing."""
        return self == UnevenEffect()

    def __str__(self) -> str:
        parts = []
        if self.speed_boxes:
            parts.append(f"-{self.speed_boxes} speed box{'es' * (self.speed_boxes > 1)}")
        if self.tr_hits:
            parts.append(f"+{self.tr_hits} TR")
        if self.dc_boxes:
            parts.append(f"-{self.dc_boxes} DC {'dice' if self.dc_boxes > 1 else 'die'}")
        if self.low_guns_silent:
            parts.append("low-side guns silent")
        return ", ".join(parts) or "no effect"


@dataclass(frozen=True, slots=True)
class SinkRow:
    """One Sinking row: at ``points`` flooding points a 1D6 in ``lo``–``hi`` sinks the ship in
    ``turns`` turns (BF6-SINK-01/02)."""

    points: int
    lo: int
    hi: int
    turns: int


# -- the charts ------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Charts:
    """Every 1D6 combat chart, validated. Lookups take a 1D6 face and return codes or values."""

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

    # -- flooding (BF6-DMG-08, BF12C-FLOOD, AMB-23/48) ------------------------------------

    @property
    def flood_column_names(self) -> tuple[str, ...]:
        """The Flooding Occurrence columns, smallest first ("25>", "50>", …)."""
        return tuple(c.name for c in self.flood_columns)

    def flood_column(self, weapon_size: float, target_size: int) -> str | None:
        """The Occurrence column for a weapon of ``weapon_size`` against a ship of
        ``target_size``: the last column whose threshold the size ratio reaches; ``None`` below
        the first (no flooding at all)."""
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
        return self.occurrence[_face(roll)][names.index(column)]

    def flood_effect(self, level: FloodLevel, roll: int) -> Codes:
        """The Flooding Effects line of a level (Light … Severe)."""
        if level not in self.effects:
            raise ValueError(f"no flooding-effects line for {FloodLevel(level).name.lower()}")
        return self.effects[level][_face(roll)]

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
    """Index of a 1D6 face (0–5); anything else is a programming error."""
    if roll not in FACES:
        raise ValueError(f"a 1D6 roll must be 1–6, not {roll!r}")
    return roll - 1


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


def _build(files: Iterable[tuple[str, Callable[[], bytes]]], source: str) -> Charts:
    tables: dict[str, tuple[str, Any]] = {}
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
        if doc.get("edition") != EDITION:
            header.fail(
                "edition",
                f"these charts are for the {EDITION} edition; write edition = {EDITION!r}",
            )
        if "description" in doc and not isinstance(doc["description"], str):
            header.fail("description", "must be a string")
        for key, value in doc.items():
            if key in _HEADER:
                continue
            if key not in _TABLES:
                Where(name, key).fail("", f"unknown table; the chart tables are {_TABLES}")
            if key in tables:
                Where(name, key).fail("", f"table defined twice (also in {tables[key][0]})")
            tables[key] = (name, value)
    for key in _TABLES:
        if key not in tables:
            raise RulesDataError(
                source, key, "", "table missing (a chart file replaces all the packaged charts)"
            )
    assert version is not None

    def get(key: str) -> tuple[Where, dict[str, Any]]:
        name, value = tables[key]
        where = Where(name, key)
        return where, where.as_table(value)

    flood_w, flood = get("flooding")
    flood_columns, occurrence, effects = _flooding(flood_w, flood)
    column_names = tuple(c.name for c in flood_columns)
    ap = _shell_table(*get("ap"), Ammo.AP, column_names)
    he = _shell_table(*get("he"), Ammo.HE, column_names)
    misc_w, misc = get("misc")
    misc_w.keys(misc, required=("roll",))
    misc_line = _line(misc_w.sub("roll"), misc["roll"], column_names)
    crit_w, crit = get("critical")
    crit_w.keys(crit, required=CRITICAL_LINES)
    lines = {k: _line(crit_w.sub(k), crit[k], column_names) for k in CRITICAL_LINES}
    effects_lines = {
        level: _line(flood_w.sub(f"effects.{level.name.lower()}"), line, column_names)
        for level, line in effects.items()
    }
    return Charts(
        version=version[1],
        reconstructed=reconstructed,
        source=source,
        ap=ap,
        he=he,
        misc=misc_line,
        critical_lines=MappingProxyType(lines),
        flood_columns=flood_columns,
        occurrence=occurrence,
        effects=MappingProxyType(effects_lines),
        uneven=MappingProxyType(_uneven(*get("uneven"))),
        sinking=_sinking(*get("sinking")),
        repair=MappingProxyType(_ranges(*get("damage_control"), REPAIR_ACTIONS, up_to_6=False)),
        command=MappingProxyType(_ranges(*get("command_functions"), COMMAND_FUNCTIONS, True)),
        torpedo=MappingProxyType(_torpedo(*get("torpedo_hits"))),
    )


# -- validation helpers ----------------------------------------------------------------------


def _die_range(where: Where, field: str, value: Any) -> tuple[int, int]:
    """A 1D6 range: ``"5-6"``, ``"5–6"``, ``"6"`` or ``6``."""
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(text, str):
        where.fail(field, f"expected a 1D6 range such as '4-6', got {value!r}")
    m = _RANGE_RE.match(text)
    if m is None:
        where.fail(field, f"expected a 1D6 range such as '4-6', got {value!r}")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    if not 1 <= lo <= hi <= 6:
        where.fail(field, f"range {text!r} must lie within 1–6, low end first")
    return lo, hi


def _faces_by_row(where: Where, value: Mapping[str, Any], extra: Iterable[str]) -> list[Any]:
    """Rows keyed "1".."6": every face exactly once; returns them in face order."""
    allowed = set(extra)
    rows: dict[int, Any] = {}
    for key, row in value.items():
        if key in allowed:
            continue
        if not key.isdigit() or int(key) not in FACES:
            where.fail(key, "rows must be the 1D6 faces 1–6")
        face = int(key)
        if face in rows:
            where.fail(key, f"face {face} appears twice")
        rows[face] = row
    missing = [f for f in FACES if f not in rows]
    if missing:
        where.fail(
            str(missing[0]),
            f"face{'s' * (len(missing) > 1)} "
            f"{', '.join(map(str, missing))} missing: every 1D6 face needs a row",
        )
    return [rows[f] for f in FACES]


def _faces_by_range(where: Where, value: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """Results keyed by name with 1D6 ranges: each face covered exactly once."""
    owner: dict[int, str] = {}
    out: dict[str, tuple[int, int]] = {}
    for name, text in value.items():
        lo, hi = _die_range(where, name, text)
        for face in range(lo, hi + 1):
            if face in owner:
                where.fail(name, f"face {face} is also in {owner[face]!r}: ranges overlap")
            owner[face] = name
        out[name] = (lo, hi)
    missing = [f for f in FACES if f not in owner]
    if missing:
        where.fail(
            "",
            f"face{'s' * (len(missing) > 1)} {', '.join(map(str, missing))} "
            "not covered: every 1D6 face needs a result",
        )
    return out


def _codes(
    where: Where, field: str, value: Any, flood_columns: tuple[str, ...], *, plain_fl: bool
) -> Codes:
    """One cell: ``"-"`` or comma-separated codes, each known to the damage-code mapping."""
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


def _line(where: Where, value: Any, flood_columns: tuple[str, ...]) -> tuple[Codes, ...]:
    """A one-roll line: exactly six cells, faces 1..6."""
    if not isinstance(value, list) or len(value) != len(FACES):
        got = f"{len(value)} cells" if isinstance(value, list) else repr(value)
        where.fail("", f"a 1D6 line needs exactly 6 cells (faces 1–6), got {got}")
    return tuple(
        _codes(where, str(face), cell, flood_columns, plain_fl=False)
        for face, cell in zip(FACES, value, strict=True)
    )


def _shell_table(
    where: Where, value: dict[str, Any], ammo: Ammo, flood_columns: tuple[str, ...]
) -> ShellTable:
    where.keys(value, required=("penetration_factor", "location", "columns", *LOCATIONS))
    factor = where.number(value["penetration_factor"], "penetration_factor")
    if factor <= 0:
        where.fail("penetration_factor", "must be greater than 0")
    loc_w = where.sub("location")
    loc = loc_w.as_table(value["location"])
    loc_w.keys(loc, required=(*LOCATIONS, "miss"))
    by_face: list[str | None] = [None] * len(FACES)
    for name, (lo, hi) in _faces_by_range(loc_w, loc).items():
        for face in range(lo, hi + 1):
            by_face[face - 1] = None if name == "miss" else name
    columns = _differential_columns(where.sub("columns"), value["columns"])
    cells: dict[str, tuple[tuple[Codes, ...], ...]] = {}
    for location in LOCATIONS:
        loc_rows_w = where.sub(location)
        rows = _faces_by_row(loc_rows_w, loc_rows_w.as_table(value[location]), ())
        out_rows = []
        for face, row in zip(FACES, rows, strict=True):
            if not isinstance(row, list) or len(row) != len(columns):
                got = f"{len(row)} cells" if isinstance(row, list) else repr(row)
                loc_rows_w.fail(
                    str(face),
                    f"expected {len(columns)} cells (one per differential column), got {got}",
                )
            out_rows.append(
                tuple(
                    _codes(loc_rows_w, f"{face} [{col.name}]", cell, flood_columns, plain_fl=True)
                    for col, cell in zip(columns, row, strict=True)
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


def _flooding(
    where: Where, value: dict[str, Any]
) -> tuple[tuple[FloodColumn, ...], tuple[tuple[FloodLevel, ...], ...], dict[FloodLevel, Any]]:
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
    rows = _faces_by_row(occ_w, occ, ("columns",))
    occurrence: list[tuple[FloodLevel, ...]] = []
    for face, row in zip(FACES, rows, strict=True):
        if not isinstance(row, list) or len(row) != len(columns):
            got = f"{len(row)} cells" if isinstance(row, list) else repr(row)
            occ_w.fail(str(face), f"expected {len(columns)} cells (one per column), got {got}")
        levels = []
        for fcol, cell in zip(columns, row, strict=True):
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


def _uneven(where: Where, value: dict[str, Any]) -> dict[str, tuple[UnevenEffect, ...]]:
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
        lo, hi = _die_range(where, f"{key}.sink", row["sink"])
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


def _ranges(
    where: Where, value: dict[str, Any], names: tuple[str, ...], up_to_6: bool
) -> dict[str, tuple[int, int]]:
    where.keys(value, required=names)
    out: dict[str, tuple[int, int]] = {}
    for name in names:
        lo, hi = _die_range(where, name, value[name])
        if up_to_6 and hi != 6:
            where.fail(
                name,
                "a command function succeeds on any roll from its low end up, so "
                "its range must end at 6 (a roll below the range fails)",
            )
        out[name] = (lo, hi)
    return out


def _torpedo(where: Where, value: dict[str, Any]) -> dict[tuple[str, str], int]:
    where.keys(value, required=TORPEDO_COURSES)
    out: dict[tuple[str, str], int] = {}
    for course in TORPEDO_COURSES:
        row = where.as_table(value[course], course)
        where.sub(course).keys(row, required=TORPEDO_ASPECTS)
        for aspect in TORPEDO_ASPECTS:
            out[(course, aspect)] = where.integer(row[aspect], f"{course}.{aspect}", 1, 6)
    return out


__all__ = [
    "COMMAND_FUNCTIONS",
    "CRITICAL_LINES",
    "LOCATIONS",
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
