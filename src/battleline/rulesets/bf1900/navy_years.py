"""Navy-and-year entries of the reconstructed data files (``shells.toml``, ``crews.toml``): the
navy, its span of years and the sources, read and checked alike; a bad one raises
:class:`~battleline.errors.RulesDataError` naming the field."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from battleline.rulesets.tomldata import Where

#: The years a navy entry may name.
FIRST_YEAR, LAST_YEAR = 1850, 1950


@dataclass(frozen=True, slots=True)
class NavySpan:
    """One navy from ``first`` to ``last`` (years, inclusive)."""

    navy: str
    first: int
    last: int

    def covers(self, navy: str, year: int | None) -> bool:
        """Whether this entry is ``navy``'s in ``year``."""
        return year is not None and self.navy == navy and self.first <= year <= self.last

    @property
    def span(self) -> str:
        """The years as text: ``1898`` or ``1904-1905``."""
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


def navy_span(where: Where, entry: Mapping[str, Any], earlier: Iterable[NavySpan]) -> NavySpan:
    """The entry's ``navy`` and ``years`` (``[first, last]``), overlapping none of the
    ``earlier`` entries of the same navy."""
    navy = entry.get("navy")
    if not isinstance(navy, str) or not navy:
        where.fail("navy", "must name a navy")
    years = entry.get("years")
    if not (isinstance(years, list) and len(years) == 2):
        where.fail("years", "must be [first, last]")
    first, last = (where.integer(y, "years", FIRST_YEAR, LAST_YEAR) for y in years)
    if first > last:
        where.fail("years", "the first year is after the last")
    for other in earlier:
        if other.navy == navy and other.first <= last and first <= other.last:
            where.fail("years", f"overlaps another {navy} entry")
    return NavySpan(navy, first, last)


def sources_of(where: Where, entry: Mapping[str, Any]) -> tuple[str, ...]:
    """The entry's ``sources``: a list of one or more strings."""
    sources = entry.get("sources")
    if not (isinstance(sources, list) and sources and all(isinstance(s, str) for s in sources)):
        where.fail("sources", "every entry needs its sources")
    return tuple(sources)


__all__ = ["FIRST_YEAR", "LAST_YEAR", "NavySpan", "navy_span", "sources_of"]
