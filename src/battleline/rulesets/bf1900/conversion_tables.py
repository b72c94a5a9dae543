"""The conversion tables: every number the specification → ship values conversion uses, read from
``data/conversion.toml`` (marked reconstructed) or a user's file, and checked on load
(REF-BF6-17).
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.ship import (
    ShipType,
)
from battleline.rulesets.tomldata import read_toml_file

_DEFAULT_FILE = "conversion.toml"
# -- the conversion tables -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConversionTables:
    """Every number the conversion uses, from ``data/conversion.toml``."""

    size_below_t: tuple[float, ...]
    size_largest: int
    armour_quality: Mapping[str, float]
    deck_slope_factor: float
    armoured_deck_min_mm: float
    deck_weight: float
    flood_great_min: float
    flood_good_min: float
    no_flood_protection_types: frozenset[ShipType]
    upperworks_great_min: float
    upperworks_good_min: float
    upperworks_poor_min: float
    secondary_min_mm: float
    boat_max_mm: float
    main_share: float
    main_turret_min_mm: float
    default_length_cal: float
    shell_size: tuple[tuple[float, int], ...]
    breech_default: tuple[tuple[float, int], ...]
    rof_qf: float
    rof_qf_max_mm: float
    rof_qf_large: float
    rof_ml: float
    rof_bl: tuple[tuple[float, int, float, float], ...]
    decay: tuple[float, float, float, float]
    reference_length: float
    length_exponent: float
    length_factor_min: float
    length_factor_max: float
    breech_factor: Mapping[str, float]
    generation: tuple[tuple[int, float], ...]
    reach: tuple[tuple[float, int], ...]
    pattern1_min_guns: int
    torpedo_size: tuple[tuple[float, int], ...]
    torpedo_range: tuple[tuple[int, float], ...]
    turning_circle: tuple[tuple[float, float], ...]
    poor_seaway_types: frozenset[ShipType]
    searchlights: tuple[tuple[int, int], ...]
    reconstructed: bool = True


class _Reader:
    """Typed access to a raw TOML table, raising ``RulesDataError`` on anything malformed."""

    def __init__(self, file: str) -> None:
        self.file = file

    def table(self, raw: Mapping[str, Any], name: str, parent: str = "") -> Mapping[str, Any]:
        value = raw.get(name)
        if not isinstance(value, dict):
            raise RulesDataError(self.file, parent or name, name, "missing table")
        return value

    def num(self, raw: Mapping[str, Any], table: str, name: str, minimum: float = 0.0) -> float:
        value = raw.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RulesDataError(self.file, table, name, f"needs a number, got {value!r}")
        if value < minimum:
            raise RulesDataError(self.file, table, name, f"must be at least {minimum}, got {value}")
        return float(value)

    def rows(
        self, raw: Mapping[str, Any], table: str, key: str, value: str, ascending: bool = True
    ) -> tuple[tuple[float, float], ...]:
        rows = raw.get(table)
        if not isinstance(rows, list) or not rows:
            raise RulesDataError(self.file, table, "", "needs at least one [[row]]")
        out: list[tuple[float, float]] = []
        for i, row in enumerate(rows):
            where = f"{table}[{i}]"
            if not isinstance(row, dict):
                raise RulesDataError(self.file, where, "", "each row must be a table")
            out.append((self.num(row, where, key), self.num(row, where, value)))
        keys = [k for k, _ in out]
        if ascending and keys != sorted(keys):
            raise RulesDataError(self.file, table, key, "rows must be in ascending order")
        return tuple(out)

    def types(self, raw: Mapping[str, Any], table: str, name: str) -> frozenset[ShipType]:
        value = raw.get(name)
        if not isinstance(value, list):
            raise RulesDataError(self.file, table, name, "needs a list of ship types")
        try:
            return frozenset(ShipType(v) for v in value)
        except ValueError as exc:
            raise RulesDataError(self.file, table, name, str(exc)) from exc


def _parse_tables(file: str, raw: Mapping[str, Any]) -> ConversionTables:
    r = _Reader(file)
    size = r.table(raw, "size")
    below = size.get("below_t")
    if not isinstance(below, list) or not below:
        raise RulesDataError(file, "size", "below_t", "needs a list of displacements")
    below_t = tuple(r.num({"below_t": v}, "size", "below_t") for v in below)
    if list(below_t) != sorted(below_t):
        raise RulesDataError(file, "size", "below_t", "breakpoints must ascend")
    armour = r.table(raw, "armour")
    quality_raw = r.table(armour, "quality", "armour")
    quality = {k: r.num(quality_raw, "armour.quality", k) for k in quality_raw}
    guns = r.table(raw, "guns")
    rof = r.table(raw, "rof")
    bl_rows = rof.get("bl")
    if not isinstance(bl_rows, list) or not bl_rows:
        raise RulesDataError(file, "rof.bl", "", "needs at least one [[rof.bl]] row")
    rof_bl = tuple(
        (
            r.num(row, f"rof.bl[{i}]", "max_mm"),
            int(r.num(row, f"rof.bl[{i}]", "modern_from")),
            r.num(row, f"rof.bl[{i}]", "old"),
            r.num(row, f"rof.bl[{i}]", "modern"),
        )
        for i, row in enumerate(bl_rows)
    )
    pen = r.table(raw, "penetration")
    decay = pen.get("decay")
    if not isinstance(decay, list) or len(decay) != 4:
        raise RulesDataError(file, "penetration", "decay", "needs 4 numbers (brackets 1-4)")
    decay_t = tuple(r.num({"decay": v}, "penetration", "decay") for v in decay)
    if any(a < b for a, b in itertools.pairwise(decay_t)):
        raise RulesDataError(file, "penetration", "decay", "must not rise with range")
    breech_raw = r.table(pen, "breech_factor", "penetration")
    breech_factor = {k: r.num(breech_raw, "penetration.breech_factor", k) for k in breech_raw}
    for need in ("ML", "BL", "QF"):
        if need not in breech_factor:
            raise RulesDataError(file, "penetration.breech_factor", need, "missing")
    generation = r.rows(pen, "generation", "from", "factor")
    if any(a[1] > b[1] for a, b in itertools.pairwise(generation)):
        raise RulesDataError(file, "penetration.generation", "factor", "must not fall with year")
    reach = r.rows(pen, "reach", "max_mm", "brackets")
    if any(not 1 <= b <= 4 for _, b in reach):
        raise RulesDataError(file, "penetration.reach", "brackets", "must be 1 to 4")
    handling = r.table(raw, "handling")
    pattern = r.table(raw, "beam_pattern")
    decay4 = (decay_t[0], decay_t[1], decay_t[2], decay_t[3])
    return ConversionTables(
        size_below_t=below_t,
        size_largest=int(r.num(size, "size", "largest", 1)),
        armour_quality=quality,
        deck_slope_factor=r.num(armour, "armour", "deck_slope_factor"),
        armoured_deck_min_mm=r.num(armour, "armour", "armoured_deck_min_mm"),
        deck_weight=r.num(armour, "armour", "deck_weight"),
        flood_great_min=r.num(armour, "armour", "flood_great_min"),
        flood_good_min=r.num(armour, "armour", "flood_good_min"),
        no_flood_protection_types=r.types(armour, "armour", "no_flood_protection_types"),
        upperworks_great_min=r.num(armour, "armour", "upperworks_great_min"),
        upperworks_good_min=r.num(armour, "armour", "upperworks_good_min"),
        upperworks_poor_min=r.num(armour, "armour", "upperworks_poor_min"),
        secondary_min_mm=r.num(guns, "guns", "secondary_min_mm"),
        boat_max_mm=r.num(guns, "guns", "boat_max_mm"),
        main_share=r.num(guns, "guns", "main_share"),
        main_turret_min_mm=r.num(guns, "guns", "main_turret_min_mm"),
        default_length_cal=r.num(guns, "guns", "default_length_cal", 1),
        shell_size=tuple((a, int(b)) for a, b in r.rows(raw, "shell_size", "max_mm", "size")),
        breech_default=tuple(
            (a, int(b)) for a, b in r.rows(raw, "breech_default", "max_mm", "qf_from")
        ),
        rof_qf=r.num(rof, "rof", "qf"),
        rof_qf_max_mm=r.num(rof, "rof", "qf_max_mm"),
        rof_qf_large=r.num(rof, "rof", "qf_large"),
        rof_ml=r.num(rof, "rof", "ml"),
        rof_bl=rof_bl,
        decay=decay4,
        reference_length=r.num(pen, "penetration", "reference_length", 1),
        length_exponent=r.num(pen, "penetration", "length_exponent"),
        length_factor_min=r.num(pen, "penetration", "length_factor_min"),
        length_factor_max=r.num(pen, "penetration", "length_factor_max"),
        breech_factor=breech_factor,
        generation=tuple((int(a), b) for a, b in generation),
        reach=tuple((a, int(b)) for a, b in reach),
        pattern1_min_guns=int(r.num(pattern, "beam_pattern", "pattern1_min_guns")),
        torpedo_size=tuple((a, int(b)) for a, b in r.rows(raw, "torpedo_size", "max_mm", "size")),
        torpedo_range=tuple(
            (int(a), b) for a, b in r.rows(raw, "torpedo_range", "from", "range_m")
        ),
        turning_circle=r.rows(raw, "turning_circle", "max_length_m", "diameter_m"),
        poor_seaway_types=r.types(handling, "handling", "poor_seaway_types"),
        searchlights=tuple(
            (int(a), int(b)) for a, b in r.rows(raw, "searchlights", "max_size", "count")
        ),
        reconstructed=bool(raw.get("reconstructed", False)),
    )


@lru_cache(maxsize=1)
def _default_tables() -> ConversionTables:
    res = resources.files("battleline.rulesets.bf1900").joinpath("data", _DEFAULT_FILE)
    with res.open("rb") as fh:
        return _parse_tables(_DEFAULT_FILE, tomllib.load(fh))


def load_conversion(path: str | Path | None = None) -> ConversionTables:
    """The conversion tables: built-in, or a user file at ``path`` with the same layout."""
    if path is None:
        return _default_tables()
    p = Path(path)
    return _parse_tables(str(p), read_toml_file(str(p), p))
