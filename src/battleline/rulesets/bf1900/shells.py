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
from battleline.rulesets.bf1900.navy_years import NavySpan, navy_span, sources_of
from battleline.rulesets.tomldata import Where, read_toml_file

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

    span: NavySpan
    what: str
    sources: tuple[str, ...]
    by_ammo: Mapping[Ammo, ShellQuality]


#: Quality per firing navy, then per ammunition: what Damage Step Two is given.
NavyShells = Mapping[str, Mapping[Ammo, ShellQuality]]


def parse_shells(raw: Mapping[str, Any]) -> tuple[ShellEntry, ...]:
    """Validate the decoded file; a bad entry raises :class:`RulesDataError` naming it."""
    if raw.get("reconstructed") is not True:
        raise RulesDataError(FILE, "(file)", "reconstructed", "must be true (no rule gives these)")
    out: list[ShellEntry] = []
    for where, entry in Where(FILE, "(file)").tables(raw, "shell"):
        unknown = sorted(set(entry) - {"navy", "years", "what", "sources", "AP", "HE"})
        if unknown:
            where.fail(unknown[0], "unknown field")
        span = navy_span(where, entry, (e.span for e in out))
        sources = sources_of(where, entry)
        what = str(entry.get("what", ""))
        by_ammo: dict[Ammo, ShellQuality] = {}
        for ammo in Ammo:
            spec = entry.get(ammo.value)
            if spec is None:
                continue
            at = where.sub(ammo.value)
            bad = sorted(set(spec) - {"dud_on", "column_shift"})
            if bad:
                at.fail(bad[0], "unknown field")
            by_ammo[ammo] = ShellQuality(
                at.integer(spec.get("dud_on", 0), "dud_on", 0, 5),
                at.integer(spec.get("column_shift", 0), "column_shift", -3, 3),
                what,
            )
        out.append(ShellEntry(span, what, sources, by_ammo))
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
    for entry in load_shells():
        if entry.span.covers(navy, year):
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
