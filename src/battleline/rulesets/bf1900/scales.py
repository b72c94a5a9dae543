"""Game scales: table units, range brackets, turn length, bases (REF-BF6-01, REF-BF6-14).

Everything inside battleline is metres of real sea. A :class:`Scale` converts to and from table
units (millimetres or inches) at the edges only: for display, and for distances a player types in.
The values come from ``data/scales.toml`` (reconstructed; see
``docs/rules-gaps/scales-and-movement.md``); a user file with the same layout can replace it.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from battleline.errors import RulesDataError, UnknownNameError
from battleline.rulesets.bf1900.ship import ShipClass, ShipType
from battleline.rulesets.tomldata import read_toml_file

#: Metres in one nautical mile; a knot is one nautical mile per hour.
NAUTICAL_MILE_M = 1852.0
#: Millimetres in an inch.
MM_PER_INCH = 25.4
#: Range brackets in every scale (REF-BF6-01: exactly four, the 4th ending at maximum range).
BRACKETS = 4
TABLE_UNITS = ("mm", "in")
_DEFAULT_FILE = "scales.toml"


@dataclass(frozen=True, slots=True)
class Steering:
    """How steering damage widens the turning circle (REF-BF6-13, reconstructed).

    ``tr_hit_widening``: each TR hit adds this fraction of the class's diameter.
    ``damaged_rudder_factor``: multiplier for a damaged rudder (R/).
    ``engine_steering_factor``: multiplier when the rudder is secured (RC) and the ship steers by
    its engines (BF6-REP-10).
    """

    tr_hit_widening: float = 0.5
    damaged_rudder_factor: float = 1.5
    engine_steering_factor: float = 3.0


@dataclass(frozen=True, slots=True)
class Scale:
    """One game scale. All distances it returns or accepts as ``*_m`` are metres."""

    name: str
    label: str
    model_scale: str
    table_unit: str  # "mm" | "in"
    units_per_km: float
    bracket_m: float
    max_range_m: float
    turn_minutes: float
    min_move_fraction: float = 0.5
    bases: tuple[tuple[str, float, float], ...] = ()
    turning_circles_m: tuple[tuple[str, float], ...] = ()
    steering: Steering = Steering()
    reconstructed: bool = True
    #: Each base's (length, width) in metres by ship type, worked out from ``bases`` once.
    _base_m: dict[str, tuple[float, float]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        sizes: dict[str, tuple[float, float]] = {}
        for key, length, width in self.bases:
            sizes.setdefault(key, (self.from_table(length), self.from_table(width)))
        object.__setattr__(self, "_base_m", sizes)

    # -- conversions -----------------------------------------------------------------------

    def to_table(self, metres: float) -> float:
        """Metres of sea → table units."""
        return metres / 1000.0 * self.units_per_km

    def from_table(self, units: float) -> float:
        """Table units → metres of sea."""
        return units * 1000.0 / self.units_per_km

    def fmt(self, metres: float, digits: int | None = None) -> str:
        """A distance written in table units, e.g. ``"40 mm"`` or ``"4.5 in"``."""
        value = self.to_table(metres)
        if digits is None:
            digits = 0 if self.table_unit == "mm" else 1
        return f"{value:.{digits}f} {self.table_unit}"

    def parse(self, text: str) -> float:
        """A distance a player typed → metres.

        A bare number is in table units; a suffix ``mm``, ``cm``, ``in``/``"``, ``m`` or ``km``
        says otherwise (``"40mm"``, ``"4.5in"``, ``"1200m"``, ``"1.2 km"``).
        """
        m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*(mm|cm|in|\"|m|km)?\s*", text)
        if m is None:
            raise ValueError(f"cannot read a distance from {text!r} (try '40mm' or '1200m')")
        value = float(m.group(1))
        unit = m.group(2) or self.table_unit
        if unit == "m":
            return value
        if unit == "km":
            return value * 1000.0
        if unit in ("in", '"'):
            mm = value * MM_PER_INCH
        elif unit == "cm":
            mm = value * 10.0
        else:
            mm = value
        per_mm = 1.0 if self.table_unit == "mm" else 1.0 / MM_PER_INCH
        return self.from_table(mm * per_mm)

    # -- rules values ----------------------------------------------------------------------

    def bracket(self, distance_m: float) -> int | None:
        """Range bracket 1..4 of a distance; ``None`` beyond maximum range (REF-BF6-01).

        Bracket *n* covers ((n−1)·b, n·b]; a boundary belongs to the nearer bracket, and 0 is in
        the 1st.
        """
        if distance_m < 0 or math.isnan(distance_m):
            raise ValueError(f"a range cannot be negative: {distance_m!r}")
        if distance_m > self.max_range_m * (1 + 1e-12):
            return None
        return max(1, min(BRACKETS, math.ceil(distance_m / self.bracket_m - 1e-9)))

    def knots_to_m_per_turn(self, knots: float) -> float:
        """Distance run in one game turn at ``knots`` (BF6-MOV-01 converts boxes with this)."""
        return knots * NAUTICAL_MILE_M * self.turn_minutes / 60.0

    def m_per_turn_to_knots(self, metres: float) -> float:
        """The inverse of :meth:`knots_to_m_per_turn`."""
        return metres * 60.0 / (NAUTICAL_MILE_M * self.turn_minutes)

    def box_distances_m(self, speeds: tuple[float, ...]) -> tuple[float, ...]:
        """Propulsion boxes of ``speeds`` knots as distances per turn: the positive ones, each
        once, lowest first (BF6-MOV-01). Cached (:func:`_box_distances`)."""
        return _box_distances(speeds, self.turn_minutes)

    def base_size_m(self, cls: ShipClass) -> tuple[float, float]:
        """(length, width) of the ship's base in metres, from the base table by ship type."""
        kind = cls.type.value  # read once: an enum's ``value`` is a slow descriptor
        size = self._base_m.get(kind)
        if size is not None:
            return size
        known = [b[0] for b in self.bases]
        raise UnknownNameError("base size for ship type", kind, known)

    def default_turning_circle_m(self, ship_type: ShipType) -> float:
        """Default turning-circle diameter in metres for a type (REF-BF6-13, reconstructed)."""
        for key, diameter in self.turning_circles_m:
            if key == ship_type.value:
                return diameter
        raise UnknownNameError(
            "turning circle for ship type", ship_type.value, [t[0] for t in self.turning_circles_m]
        )


def _m_per_turn(knots: float, turn_minutes: float) -> float:
    """:meth:`Scale.knots_to_m_per_turn`, the same arithmetic in the same order."""
    return knots * NAUTICAL_MILE_M * turn_minutes / 60.0


@lru_cache(maxsize=1024)
def _box_distances(speeds: tuple[float, ...], turn_minutes: float) -> tuple[float, ...]:
    """The cache behind :meth:`Scale.box_distances_m`. Pure: the distances depend only on the
    box speeds and the turn length, both immutable values, so it is safe to share across games."""
    return tuple(sorted({_m_per_turn(k, turn_minutes) for k in speeds if k > 0}))


# -- loading -------------------------------------------------------------------------------


def _num(
    file: str, table: str, data: Mapping[str, Any], key: str, *, positive: bool = True
) -> float:
    if key not in data:
        raise RulesDataError(file, table, key, "missing")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RulesDataError(file, table, key, f"must be a number, not {value!r}")
    value = float(value)
    if not math.isfinite(value) or (positive and value <= 0) or value < 0:
        raise RulesDataError(file, table, key, f"must be {'positive' if positive else '≥ 0'}")
    return value


def _str(file: str, table: str, data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise RulesDataError(file, table, key, "missing or not a text value")
    return value


def _table(file: str, table: str, data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise RulesDataError(file, table, key, "missing or not a table")
    return value


def _per_type(file: str, table: str, data: Mapping[str, Any]) -> None:
    known = {t.value for t in ShipType}
    for key in data:
        if key not in known:
            raise RulesDataError(file, table, key, f"unknown ship type; known: {sorted(known)}")
    for t in ShipType:
        if t.value not in data:
            raise RulesDataError(file, table, t.value, "missing ship type")


def _parse(file: str, raw: Mapping[str, Any]) -> dict[str, Scale]:
    recon = raw.get("reconstructed", False)
    if not isinstance(recon, bool):
        raise RulesDataError(file, "(top)", "reconstructed", "must be true or false")
    common = _table(file, "(top)", raw, "common")
    circles = _table(file, "(top)", raw, "turning_circle_m")
    _per_type(file, "turning_circle_m", circles)
    turning = tuple((t.value, _num(file, "turning_circle_m", circles, t.value)) for t in ShipType)
    st = _table(file, "(top)", raw, "steering")
    steering = Steering(
        tr_hit_widening=_num(file, "steering", st, "tr_hit_widening", positive=False),
        damaged_rudder_factor=_num(file, "steering", st, "damaged_rudder_factor"),
        engine_steering_factor=_num(file, "steering", st, "engine_steering_factor"),
    )
    for key in ("damaged_rudder_factor", "engine_steering_factor"):
        if getattr(steering, key) < 1.0:
            reason = "must be ≥ 1 (damage never tightens a turn)"
            raise RulesDataError(file, "steering", key, reason)
    scales = _table(file, "(top)", raw, "scales")
    if not scales:
        raise RulesDataError(file, "scales", "", "no scales defined")
    out: dict[str, Scale] = {}
    for name, body in scales.items():
        table = f"scales.{name}"
        if not isinstance(body, dict):
            raise RulesDataError(file, table, "", "must be a table")
        merged = {**common, **body}
        unit = _str(file, table, merged, "table_unit")
        if unit not in TABLE_UNITS:
            raise RulesDataError(file, table, "table_unit", f"must be one of {TABLE_UNITS}")
        bracket = _num(file, table, merged, "bracket_m")
        max_range = _num(file, table, merged, "max_range_m")
        if not math.isclose(max_range, BRACKETS * bracket, rel_tol=1e-9):
            raise RulesDataError(
                file,
                table,
                "max_range_m",
                f"must be {BRACKETS} brackets of bracket_m ({BRACKETS * bracket:g} m): "
                "the 4th bracket ends at maximum gun range (REF-BF6-01)",
            )
        fraction = _num(file, table, merged, "min_move_fraction", positive=False)
        if fraction > 1.0:
            raise RulesDataError(file, table, "min_move_fraction", "must be between 0 and 1")
        bases_raw = _table(file, table, body, "bases")
        _per_type(file, f"{table}.bases", bases_raw)
        bases: list[tuple[str, float, float]] = []
        for t in ShipType:
            pair = bases_raw[t.value]
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or any(isinstance(v, bool) or not isinstance(v, int | float) for v in pair)
                or any(v <= 0 for v in pair)
            ):
                raise RulesDataError(
                    file, f"{table}.bases", t.value, "must be [length, width], positive numbers"
                )
            if pair[1] > pair[0]:
                raise RulesDataError(file, f"{table}.bases", t.value, "width exceeds length")
            bases.append((t.value, float(pair[0]), float(pair[1])))
        out[name] = Scale(
            name=name,
            label=_str(file, table, merged, "label"),
            model_scale=_str(file, table, merged, "model_scale"),
            table_unit=unit,
            units_per_km=_num(file, table, merged, "units_per_km"),
            bracket_m=bracket,
            max_range_m=max_range,
            turn_minutes=_num(file, table, merged, "turn_minutes"),
            min_move_fraction=fraction,
            bases=tuple(bases),
            turning_circles_m=turning,
            steering=steering,
            reconstructed=recon,
        )
    return out


@lru_cache(maxsize=1)
def _default_scales() -> dict[str, Scale]:
    text = resources.files("battleline.rulesets.bf1900").joinpath("data", _DEFAULT_FILE)
    with text.open("rb") as fh:
        raw = tomllib.load(fh)
    return _parse(_DEFAULT_FILE, raw)


def load_scales(path: str | Path | None = None) -> dict[str, Scale]:
    """All scales, by name, from the built-in file or from a user file at ``path``.

    Raises :class:`RulesDataError` naming the file, table and field of any bad value.
    """
    if path is None:
        return dict(_default_scales())
    p = Path(path)
    return _parse(str(p), read_toml_file(str(p), p))


def get_scale(name: str, path: str | Path | None = None) -> Scale:
    """One scale by name; :class:`UnknownNameError` lists the known names."""
    scales = load_scales(path)
    try:
        return scales[name]
    except KeyError:
        raise UnknownNameError("scale", name, list(scales)) from None
