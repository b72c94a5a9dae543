"""Gun laying by crew quality, and by navy and year (reconstructed; ``docs/rules-gaps/gunnery.md``).

``data/crews.toml`` gives, for a crew quality (a scenario side's ``gunnery``), the faces of a
"laying die" on which a hit of the location die stands. Damage Step Two rolls it per hit of a
shell set fired by a ship of such a side (``damage/step2.py``), through the game's dice. A
quality without an entry rolls no laying die. A ``[[navy]]`` entry gives the die of one navy's
ships in a span of years, whatever their side's quality: how a whole service laid its guns in
those years, where the record says so (the United States Navy of 1898).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from battleline.rulesets.bf1900.scenario_sides import GUNNERY_LEVELS
from battleline.rulesets.chartfile import D6, die_range
from battleline.rulesets.tomldata import Where, read_toml_file

FILE = "crews.toml"


@dataclass(frozen=True, slots=True)
class Laying:
    """How one crew quality lays its guns: a hit stands on a laying die of ``low``–``high``."""

    quality: str
    low: int
    high: int
    what: str
    sources: tuple[str, ...]

    def stands(self, face: int) -> bool:
        """Whether a hit whose laying die shows ``face`` stands."""
        return self.low <= face <= self.high

    @property
    def faces(self) -> str:
        """The standing faces as the file writes them (``"1-2"``)."""
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True, slots=True)
class NavyLaying:
    """How one navy's ships laid their guns from ``first`` to ``last`` (years, inclusive)."""

    navy: str
    first: int
    last: int
    laying: Laying


@dataclass(frozen=True, slots=True)
class Crews:
    """The crews file: laying dice by crew quality, and by navy and year."""

    by_quality: Mapping[str, Laying]
    navies: tuple[NavyLaying, ...] = ()


def _laying(where: Where, name: str, entry: Mapping[str, Any], extra: tuple[str, ...]) -> Laying:
    where.keys(where.as_table(entry), required=("stands", "what", "sources", *extra))
    low, high = die_range(where, "stands", entry["stands"], D6)
    sources = entry["sources"]
    if not (isinstance(sources, list) and sources and all(isinstance(s, str) for s in sources)):
        where.fail("sources", "every entry needs its sources")
    return Laying(name, low, high, str(entry["what"]), tuple(sources))


def _navy(where: Where, entry: Any) -> NavyLaying:
    entry = where.as_table(entry)
    navy = entry.get("navy")
    if not isinstance(navy, str) or not navy:
        where.fail("navy", "must name a navy")
    years = entry.get("years")
    if not (
        isinstance(years, list)
        and len(years) == 2
        and all(isinstance(y, int) and not isinstance(y, bool) and 1850 <= y <= 1950 for y in years)
    ):
        where.fail("years", "must be [first, last], whole years from 1850 to 1950")
    first, last = years
    if first > last:
        where.fail("years", "the first year is after the last")
    span = str(first) if first == last else f"{first}-{last}"
    return NavyLaying(navy, first, last, _laying(where, f"{navy} {span}", entry, ("navy", "years")))


def parse_crews(raw: Mapping[str, Any]) -> Crews:
    """Validate the decoded file; a bad entry raises :class:`RulesDataError` naming it."""
    top = Where(FILE, "(file)")
    top.keys(raw, required=("reconstructed",), optional=("laying", "navy"))
    if raw["reconstructed"] is not True:
        top.fail("reconstructed", "must be true (no rule gives these)")
    by_quality: dict[str, Laying] = {}
    for quality, entry in top.as_table(raw.get("laying", {}), "laying").items():
        where = Where(FILE, f"laying.{quality}")
        if quality not in GUNNERY_LEVELS:
            where.fail("(name)", f"unknown crew quality; use one of {', '.join(GUNNERY_LEVELS)}")
        by_quality[quality] = _laying(where, quality, entry, ())
    navies: list[NavyLaying] = []
    entries = raw.get("navy", [])
    if not isinstance(entries, list):
        top.fail("navy", "must be an array of [[navy]] tables")
    for i, entry in enumerate(entries):
        where = Where(FILE, f"navy[{i}]")
        nl = _navy(where, entry)
        for other in navies:
            if other.navy == nl.navy and other.first <= nl.last and nl.first <= other.last:
                where.fail("years", f"overlaps another {nl.navy} entry")
        navies.append(nl)
    return Crews(by_quality, tuple(navies))


@cache
def load_crews(path: str | None = None) -> Crews:
    """The packaged crew file (or the one at ``path``), validated."""
    res: Any = (
        Path(path) if path else resources.files("battleline.rulesets.bf1900").joinpath("data", FILE)
    )
    return parse_crews(read_toml_file(FILE, res))


def laying_of(quality: str | None) -> Laying | None:
    """The laying die of a crew quality, or ``None`` when its hits all stand."""
    return None if quality is None else load_crews().by_quality.get(quality)


def navy_laying(navy: str, year: int | None) -> Laying | None:
    """The laying die of ``navy``'s ships in ``year``, or ``None`` without an entry."""
    if year is not None:
        for entry in load_crews().navies:
            if entry.navy == navy and entry.first <= year <= entry.last:
                return entry.laying
    return None


__all__ = [
    "FILE",
    "Crews",
    "Laying",
    "NavyLaying",
    "laying_of",
    "load_crews",
    "navy_laying",
    "parse_crews",
]
