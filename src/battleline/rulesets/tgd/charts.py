"""The TGD charts as validated data: to-hit, penetration, nationality, save vs sinking.

The draft (seed 003) shows none of its charts, so ``data/tgd.toml`` holds battleline's
reconstruction (REF-TGD-03/04/05), consistent with every number the draft does give
(TGD-HIT-03/04, TGD-PEN-01, TGD-HIT-02, TGD-DMG-08). :func:`load_charts` reads the packaged file
or a user's file; anything malformed raises :class:`~battleline.errors.RulesDataError`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

from battleline.errors import RulesDataError

_PACKAGE = "battleline.rulesets.tgd"
_FILE = "data/tgd.toml"


@dataclass(frozen=True, slots=True)
class Band:
    """A range band: it holds a range ``r`` if ``r < below`` or ``r <= upto`` (neither: any)."""

    below: float | None = None
    upto: float | None = None

    def holds(self, rng: float) -> bool:
        """Whether the range falls in this band (bands are tried in order)."""
        if self.below is not None:
            return rng < self.below
        if self.upto is not None:
            return rng <= self.upto
        return True


@dataclass(frozen=True, slots=True)
class HitNumber:
    """The score a die must show: ``need``+, after a first 6 if ``first`` (TGD-HIT-04)."""

    need: int
    first: int | None = None

    def __str__(self) -> str:
        return f"6 then {self.need}+" if self.first else f"{self.need}+"


@dataclass(frozen=True, slots=True)
class ToHitBand:
    """One line of the to-hit chart (REF-TGD-03)."""

    band: Band
    hit: HitNumber
    reconstructed: bool


@dataclass(frozen=True, slots=True)
class PenetrationBand:
    """One line of the penetration column: strength modifier by range (TGD-PEN-01, AMB-57)."""

    band: Band
    modifier: int


@dataclass(frozen=True, slots=True)
class Charts:
    """Every TGD chart."""

    to_hit: tuple[ToHitBand, ...]
    penetration: tuple[PenetrationBand, ...]
    nations: Mapping[str, int]
    save_need: Mapping[str, int]
    topside_wrecked: int
    funnel_knots: int
    hull_end_knots: int
    reconstructed: bool
    source: str

    def hit_number(self, rng: float) -> HitNumber:
        """The unmodified to-hit entry for a range (TGD-HIT-01/03/04, AMB-56)."""
        return next(line.hit for line in self.to_hit if line.band.holds(rng))

    def penetration_modifier(self, rng: float) -> int:
        """The strength modifier at a range (TGD-PEN-01, EX-DRV-08)."""
        return next(line.modifier for line in self.penetration if line.band.holds(rng))

    def nation_modifier(self, nation: str) -> int:
        """The nationality to-hit modifier (TGD-HIT-02); unknown nations use the base chart."""
        return self.nations.get(nation.lower(), 0)

    def save_number(self, ship_type: str) -> int:
        """The save-vs-sinking score for a ship type (TGD-DMG-08, REF-TGD-05)."""
        try:
            return self.save_need[ship_type.upper()]
        except KeyError:
            raise RulesDataError(
                self.source,
                "save_vs_sinking.need",
                ship_type,
                f"no save-vs-sinking number for ship type {ship_type!r} "
                f"(known: {', '.join(sorted(self.save_need))}; TGD-DMG-08)",
            ) from None


def _fail(source: str, table: str, field: str, reason: str) -> NoReturn:
    raise RulesDataError(source, table, field, reason)


def _int(source: str, table: str, field: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        _fail(source, table, field, f"must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _band(source: str, table: str, i: int, row: Mapping[str, Any], last: bool) -> Band:
    where = f"{table}[{i}]"
    below, upto = row.get("below"), row.get("upto")
    for name, value in (("below", below), ("upto", upto)):
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int | float) or value <= 0
        ):
            _fail(source, where, name, f"must be a positive range, not {value!r}")
    if below is not None and upto is not None:
        _fail(source, where, "below", "give either 'below' or 'upto', not both")
    if last and (below is not None or upto is not None):
        _fail(source, where, "below", "the last band must have no bound (it covers every range)")
    if not last and below is None and upto is None:
        _fail(source, where, "below", "only the last band may have no bound")
    return Band(None if below is None else float(below), None if upto is None else float(upto))


def _rows(source: str, data: Mapping[str, Any], table: str) -> list[Mapping[str, Any]]:
    rows = data.get(table)
    if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
        _fail(source, table, "", "must be a non-empty list of [[" + table + "]] tables")
    return rows


def _check_increasing(source: str, table: str, bands: Sequence[Band]) -> None:
    prev = 0.0
    for i, band in enumerate(bands[:-1]):
        bound = band.below if band.below is not None else band.upto
        assert bound is not None
        if bound < prev:
            _fail(source, f"{table}[{i}]", "below", "bands must be listed from short to long range")
        prev = bound


def parse_charts(data: Mapping[str, Any], source: str) -> Charts:
    """Validate a parsed ``tgd.toml`` into :class:`Charts`."""
    rows = _rows(source, data, "to_hit")
    to_hit: list[ToHitBand] = []
    for i, row in enumerate(rows):
        band = _band(source, "to_hit", i, row, i == len(rows) - 1)
        need = _int(source, f"to_hit[{i}]", "need", row.get("need"), 2, 6)
        first = row.get("first")
        if first is not None and first != 6:
            _fail(source, f"to_hit[{i}]", "first", f"a first roll must be 6, not {first!r}")
        recon = row.get("reconstructed", True)
        if not isinstance(recon, bool):
            _fail(source, f"to_hit[{i}]", "reconstructed", "must be true or false")
        to_hit.append(ToHitBand(band, HitNumber(need, first), recon))
    _check_increasing(source, "to_hit", [t.band for t in to_hit])

    rows = _rows(source, data, "penetration")
    penetration = [
        PenetrationBand(
            _band(source, "penetration", i, row, i == len(rows) - 1),
            _int(source, f"penetration[{i}]", "modifier", row.get("modifier"), -6, 6),
        )
        for i, row in enumerate(rows)
    ]
    _check_increasing(source, "penetration", [p.band for p in penetration])

    nations_raw = data.get("nations", {})
    if not isinstance(nations_raw, dict):
        _fail(source, "nations", "", "must be a table of nation = to-hit modifier")
    nations = {
        str(k).lower(): _int(source, "nations", str(k), v, -3, 3) for k, v in nations_raw.items()
    }

    save = data.get("save_vs_sinking")
    if not isinstance(save, dict) or not isinstance(save.get("need"), dict) or not save["need"]:
        _fail(source, "save_vs_sinking", "need", "must be a table of ship type = d6 score")
    save_need = {
        str(k).upper(): _int(source, "save_vs_sinking.need", str(k), v, 1, 7)
        for k, v in save["need"].items()
    }
    wrecked = _int(
        source, "save_vs_sinking", "topside_wrecked", save.get("topside_wrecked", -1), -5, 0
    )

    loss = data.get("speed_loss", {})
    if not isinstance(loss, dict):
        _fail(source, "speed_loss", "", "must be a table")
    funnel = _int(source, "speed_loss", "funnel_knots", loss.get("funnel_knots", 2), 0, 20)
    hull = _int(source, "speed_loss", "hull_end_knots", loss.get("hull_end_knots", 2), 0, 20)

    recon = data.get("reconstructed", True)
    if not isinstance(recon, bool):
        _fail(source, "(top)", "reconstructed", "must be true or false")
    return Charts(
        to_hit=tuple(to_hit),
        penetration=tuple(penetration),
        nations=MappingProxyType(nations),
        save_need=MappingProxyType(save_need),
        topside_wrecked=wrecked,
        funnel_knots=funnel,
        hull_end_knots=hull,
        reconstructed=recon,
        source=source,
    )


def _read(text: str, source: str) -> Charts:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesDataError(source, "(file)", "", f"not valid TOML: {exc}") from None
    return parse_charts(data, source)


@lru_cache(maxsize=1)
def _packaged() -> Charts:
    text = resources.files(_PACKAGE).joinpath(_FILE).read_text(encoding="utf-8")
    return _read(text, "tgd.toml")


def load_charts(path: str | Path | None = None) -> Charts:
    """The packaged TGD charts, or a user's file in their place."""
    if path is None:
        return _packaged()
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesDataError(str(p), "(file)", "", f"cannot read: {exc.strerror}") from None
    return _read(text, str(p))
