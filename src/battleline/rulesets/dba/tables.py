"""The reconstructed DBSA core tables (REF-DBA-01, REF-DBA-04) from ``data/core.toml``.

The amendments modify rules that are not in the seeds, so battleline supplies a minimal core:
range bands in bases, the Combat Outcome table (columns "ship" and "other", with the "torpedo
attack" rows of DBA-OUT-01), damage capacity, the replacement tactical factors (DBA-TF), the
ramming size levels and result table, and the points constants. Every value is data, validated
into frozen dataclasses by :func:`load_core`; a malformed file raises
:class:`~battleline.errors.RulesDataError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from battleline.errors import RulesDataError
from battleline.rulesets.dba.datafile import packaged_bytes, parse_data, user_file
from battleline.rulesets.dba.factors import BANDS, RangeBand

CORE_FILE = "core.toml"


class Result(StrEnum):
    """A combat outcome for one ship, mildest first."""

    NONE = "none"
    DAMAGED = "damaged"
    CRIPPLED = "crippled"
    SUNK = "sunk"


class RamResult(StrEnum):
    """Ramming result codes (DBA-RAM-12), mildest first."""

    OK = "OK"
    D = "D"
    C = "C"
    S = "S"


RAM_LEVELS: tuple[str, ...] = ("smaller", "same", "larger", "much_larger")
OUTCOME_ROWS = ("draw", "beaten", "doubled", "torpedo_draw", "torpedo_beaten", "torpedo_doubled")
TF_KEYS = (
    "crippled",
    "splash_confusion",
    "splash_limit",
    "reduced_effect",
    "torpedo_craft_extreme",
    "torpedo_craft_dark",
    "hindered",
    "torpedo_normal_range",
    "torpedo_bow_stern",
    "torpedo_fast_target",
    "fast_target_bases",
    "stopped_target",
    "multiple_torpedo",
    "nets_lowered",
    "rough_weather",
    "open_barbettes_extreme",
)
MOVE_KEYS = (
    "crippled_max_bases",
    "nets_max_bases",
    "rough_weather_loss",
    "net_nip_cost",
    "turn_nip_cost_nets",
)
POINT_KEYS = (
    "df3_bonus",
    "df4_bonus",
    "extreme_x",
    "slow_speed",
    "special_protection",
    "fast_speed_bonus",
)


@dataclass(frozen=True, slots=True)
class CoreTables:
    """The validated core tables."""

    source: str
    reconstructed: bool
    cable_inches: float
    base_cables: float
    cable_metres: float
    #: Greatest distance in bases of each band, nearest first.
    range_bands: Mapping[RangeBand, float]
    #: outcome[column][row] with column "ship"/"other" and row from OUTCOME_ROWS.
    outcome: Mapping[str, Mapping[str, Result]]
    damage_capacity: Mapping[str, int]
    crippled_then_damaged: Result
    tf: Mapping[str, int]
    secondaries_threshold: int
    secondaries_few: int
    secondaries_many: int
    movement: Mapping[str, int]
    ram_thresholds: tuple[int, int, int]
    ram_results: Mapping[str, tuple[RamResult, RamResult]]
    points: Mapping[str, int]

    @property
    def base_metres(self) -> float:
        """One base length of real sea (2 cables)."""
        return self.base_cables * self.cable_metres

    @property
    def base_inches(self) -> float:
        """One base on the table at the amendments' scale (DBA-SCL-01): 5 inches."""
        return self.base_cables * self.cable_inches

    def band(self, distance_bases: float) -> RangeBand | None:
        """The range band of a distance in bases; ``None`` beyond extreme range."""
        if distance_bases < 0:
            raise ValueError(f"a distance cannot be negative ({distance_bases})")
        for band in BANDS:
            if distance_bases <= self.range_bands[band]:
                return band
        return None


def _table(doc: Mapping[str, Any], key: str, file: str) -> Mapping[str, Any]:
    value = doc.get(key)
    if not isinstance(value, dict):
        raise RulesDataError(file, key, "", "table missing")
    return value


def _int(table: Mapping[str, Any], key: str, file: str, name: str) -> int:
    v = table.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise RulesDataError(file, name, key, f"needs a whole number, not {v!r}")
    return v


def _num(table: Mapping[str, Any], key: str, file: str, name: str) -> float:
    v = table.get(key)
    if not isinstance(v, int | float) or isinstance(v, bool) or v <= 0:
        raise RulesDataError(file, name, key, f"needs a positive number, not {v!r}")
    return float(v)


def parse_core(data: bytes, file: str) -> CoreTables:
    """Validate a core-tables TOML text."""
    doc = parse_data(data, file)
    scale = _table(doc, "scale", file)
    bands_t = _table(doc, "range_bands", file)
    bands: dict[RangeBand, float] = {}
    last = 0.0
    for band in BANDS:
        v = _num(bands_t, band.value, file, "range_bands")
        if v <= last:
            raise RulesDataError(
                file, "range_bands", band.value, "bands must grow from close to extreme"
            )
        bands[band] = last = v
    outcome_t = _table(doc, "outcome", file)
    outcome: dict[str, Mapping[str, Result]] = {}
    for column in ("ship", "other"):
        col = outcome_t.get(column)
        if not isinstance(col, dict):
            raise RulesDataError(file, f"outcome.{column}", "", "column missing")
        rows: dict[str, Result] = {}
        for row in OUTCOME_ROWS:
            try:
                rows[row] = Result(str(col.get(row)))
            except ValueError:
                raise RulesDataError(
                    file,
                    f"outcome.{column}",
                    row,
                    f"{col.get(row)!r} is not none/damaged/crippled/sunk",
                ) from None
        outcome[column] = MappingProxyType(rows)
    dmg = _table(doc, "damage", file)
    capacity = {k: _int(dmg, k, file, "damage") for k in ("normal", "special_protection", "tb_2")}
    if any(v < 0 for v in capacity.values()):
        raise RulesDataError(file, "damage", "", "damage capacities cannot be negative")
    try:
        ctd = Result(str(dmg.get("crippled_then_damaged")))
    except ValueError:
        raise RulesDataError(file, "damage", "crippled_then_damaged", "not a result") from None
    tf_t = _table(doc, "tactical_factors", file)
    tf = {k: _int(tf_t, k, file, "tactical_factors") for k in TF_KEYS}
    sec = _table(doc, "secondaries", file)
    mv = _table(doc, "movement", file)
    movement = {k: _int(mv, k, file, "movement") for k in MOVE_KEYS}
    ram = _table(doc, "ramming", file)
    if tuple(ram.get("levels", ())) != RAM_LEVELS:
        raise RulesDataError(file, "ramming", "levels", f"must be {list(RAM_LEVELS)}")
    thresholds = (
        _int(ram, "same_from", file, "ramming"),
        _int(ram, "larger_from", file, "ramming"),
        _int(ram, "much_larger_from", file, "ramming"),
    )
    if not thresholds[0] < thresholds[1] < thresholds[2]:
        raise RulesDataError(file, "ramming", "same_from", "thresholds must increase")
    res_t = ram.get("results")
    if not isinstance(res_t, dict):
        raise RulesDataError(file, "ramming.results", "", "table missing")
    results: dict[str, tuple[RamResult, RamResult]] = {}
    for level in RAM_LEVELS:
        pair = res_t.get(level)
        try:
            if not isinstance(pair, list) or len(pair) != 2:
                raise ValueError
            results[level] = (RamResult(pair[0]), RamResult(pair[1]))
        except ValueError:
            raise RulesDataError(
                file, "ramming.results", level, "needs [rammer, target] from OK, D, C, S"
            ) from None
    pts = _table(doc, "points", file)
    return CoreTables(
        source=file,
        reconstructed=bool(doc["reconstructed"]),
        cable_inches=_num(scale, "cable_inches", file, "scale"),
        base_cables=_num(scale, "base_cables", file, "scale"),
        cable_metres=_num(scale, "cable_metres", file, "scale"),
        range_bands=MappingProxyType(bands),
        outcome=MappingProxyType(outcome),
        damage_capacity=MappingProxyType(capacity),
        crippled_then_damaged=ctd,
        tf=MappingProxyType(tf),
        secondaries_threshold=_int(sec, "threshold", file, "secondaries"),
        secondaries_few=_int(sec, "few", file, "secondaries"),
        secondaries_many=_int(sec, "many", file, "secondaries"),
        movement=MappingProxyType(movement),
        ram_thresholds=thresholds,
        ram_results=MappingProxyType(results),
        points=MappingProxyType({k: _int(pts, k, file, "points") for k in POINT_KEYS}),
    )


@lru_cache(maxsize=1)
def _packaged() -> CoreTables:
    return parse_core(packaged_bytes(CORE_FILE), f"dba/data/{CORE_FILE}")


def load_core(path: str | Path | None = None) -> CoreTables:
    """The packaged reconstructed core tables, or a user's file in the same format."""
    if path is None:
        return _packaged()
    return parse_core(*user_file(path))
