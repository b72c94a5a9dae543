"""Shell quality and fuzes by navy and year (reconstructed; ``docs/rules-gaps/shells.md``).

``data/shells.toml`` gives, for a navy over a span of years and for each kind of shell (AP or
HE), a dud chance and a column shift. Damage Step Two applies them to every hit of a shell set
fired by a ship of that navy in a battle of that year (``damage/step2.py``): the fuze die is
rolled through the game's dice, like every other die.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.tomldata import read_toml_file

FILE = "shells.toml"


@dataclass(frozen=True, slots=True)
class ShellQuality:
    """How one navy's shells of one kind behave: a hit whose fuze die shows ``dud_on`` or less
    is a dud; the others move ``column_shift`` columns along the hit table."""

    dud_on: int = 0
    column_shift: int = 0
    what: str = ""

    @property
    def as_printed(self) -> bool:
        """Whether the chart applies unchanged."""
        return self.dud_on == 0 and self.column_shift == 0


@dataclass(frozen=True, slots=True)
class ShellEntry:
    """One navy's shells over a span of years, with their sources."""

    navy: str
    first: int
    last: int
    what: str
    sources: tuple[str, ...]
    by_ammo: Mapping[Ammo, ShellQuality]


#: Quality per firing navy, then per ammunition: what Damage Step Two is given.
NavyShells = Mapping[str, Mapping[Ammo, ShellQuality]]


def _int(raw: Any, where: str, field: str, lo: int, hi: int) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or not lo <= raw <= hi:
        raise RulesDataError(FILE, where, field, f"must be a whole number from {lo} to {hi}")
    return raw


def parse_shells(raw: Mapping[str, Any]) -> tuple[ShellEntry, ...]:
    """Validate the decoded file; a bad entry raises :class:`RulesDataError` naming it."""
    if raw.get("reconstructed") is not True:
        raise RulesDataError(FILE, "(file)", "reconstructed", "must be true (no rule gives these)")
    out: list[ShellEntry] = []
    for i, entry in enumerate(raw.get("shell", [])):
        where = f"shell[{i}]"
        unknown = sorted(set(entry) - {"navy", "years", "what", "sources", "AP", "HE"})
        if unknown:
            raise RulesDataError(FILE, where, unknown[0], "unknown field")
        navy = entry.get("navy")
        if not isinstance(navy, str) or not navy:
            raise RulesDataError(FILE, where, "navy", "must name a navy")
        years = entry.get("years")
        if not (isinstance(years, list) and len(years) == 2):
            raise RulesDataError(FILE, where, "years", "must be [first, last]")
        first, last = (_int(y, where, "years", 1850, 1950) for y in years)
        if first > last:
            raise RulesDataError(FILE, where, "years", "the first year is after the last")
        sources = entry.get("sources")
        if not (isinstance(sources, list) and sources and all(isinstance(s, str) for s in sources)):
            raise RulesDataError(FILE, where, "sources", "every entry needs its sources")
        what = str(entry.get("what", ""))
        by_ammo: dict[Ammo, ShellQuality] = {}
        for ammo in Ammo:
            spec = entry.get(ammo.value)
            if spec is None:
                continue
            at = f"{where}.{ammo.value}"
            bad = sorted(set(spec) - {"dud_on", "column_shift"})
            if bad:
                raise RulesDataError(FILE, at, bad[0], "unknown field")
            by_ammo[ammo] = ShellQuality(
                _int(spec.get("dud_on", 0), at, "dud_on", 0, 5),
                _int(spec.get("column_shift", 0), at, "column_shift", -3, 3),
                what,
            )
        for other in out:
            if other.navy == navy and other.first <= last and first <= other.last:
                raise RulesDataError(FILE, where, "years", f"overlaps another {navy} entry")
        out.append(ShellEntry(navy, first, last, what, tuple(sources), by_ammo))
    return tuple(out)


@cache
def load_shells(path: str | None = None) -> tuple[ShellEntry, ...]:
    """The packaged shell-quality file (or the one at ``path``), validated."""
    res: Any = (
        Path(path) if path else resources.files("battleline.rulesets.bf1900").joinpath("data", FILE)
    )
    return parse_shells(read_toml_file(FILE, res))


def quality(navy: str, year: int | None, ammo: Ammo) -> ShellQuality:
    """The shells ``navy`` fired in ``year``; the chart as printed without an entry."""
    if year is not None:
        for entry in load_shells():
            if entry.navy == navy and entry.first <= year <= entry.last:
                return entry.by_ammo.get(ammo, ShellQuality())
    return ShellQuality()


@cache
def navy_shells(navies: frozenset[str], year: int | None) -> dict[str, dict[Ammo, ShellQuality]]:
    """Every navy's shells in ``year`` that differ from the chart (for Damage Step Two)."""
    out: dict[str, dict[Ammo, ShellQuality]] = {}
    for navy in sorted(navies):
        for ammo in Ammo:
            q = quality(navy, year, ammo)
            if not q.as_printed:
                out.setdefault(navy, {})[ammo] = q
    return out
