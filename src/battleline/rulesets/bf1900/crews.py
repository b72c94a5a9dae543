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

from battleline.rulesets.bf1900.navy_years import NavySpan, navy_span, sources_of
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
    """How one navy's ships laid their guns over a span of years."""

    span: NavySpan
    laying: Laying


@dataclass(frozen=True, slots=True)
class Crews:
    """The crews file: laying dice by crew quality, and by navy and year."""

    by_quality: Mapping[str, Laying]
    navies: tuple[NavyLaying, ...] = ()


def _laying(where: Where, name: str, entry: Any, extra: tuple[str, ...] = ()) -> Laying:
    """One entry's laying die: its ``stands`` faces, ``what`` and ``sources``."""
    where.keys(where.as_table(entry), required=("stands", "what", "sources", *extra))
    low, high = die_range(where, "stands", entry["stands"], D6)
    return Laying(name, low, high, str(entry["what"]), sources_of(where, entry))


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
        by_quality[quality] = _laying(where, quality, entry)
    navies: list[NavyLaying] = []
    for where, entry in top.tables(raw, "navy"):
        span = navy_span(where, entry, (n.span for n in navies))
        name = f"{span.navy} {span.span}"
        navies.append(NavyLaying(span, _laying(where, name, entry, ("navy", "years"))))
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
    for entry in load_crews().navies:
        if entry.span.covers(navy, year):
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
