"""Gun laying by crew quality (reconstructed; ``docs/rules-gaps/gunnery.md``).

``data/crews.toml`` gives, for a crew quality (a scenario side's ``gunnery``), the faces of a
"laying die" on which a hit of the location die stands. Damage Step Two rolls it per hit of a
shell set fired by a ship of such a side (``damage/step2.py``), through the game's dice. A
quality without an entry rolls no laying die.
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


def parse_crews(raw: Mapping[str, Any]) -> dict[str, Laying]:
    """Validate the decoded file; a bad entry raises :class:`RulesDataError` naming it."""
    top = Where(FILE, "(file)")
    top.keys(raw, required=("reconstructed",), optional=("laying",))
    if raw["reconstructed"] is not True:
        top.fail("reconstructed", "must be true (no rule gives these)")
    out: dict[str, Laying] = {}
    for quality, entry in top.as_table(raw.get("laying", {}), "laying").items():
        where = Where(FILE, f"laying.{quality}")
        if quality not in GUNNERY_LEVELS:
            where.fail("(name)", f"unknown crew quality; use one of {', '.join(GUNNERY_LEVELS)}")
        where.keys(where.as_table(entry), required=("stands", "what", "sources"))
        low, high = die_range(where, "stands", entry["stands"], D6)
        sources = entry["sources"]
        if not (isinstance(sources, list) and sources and all(isinstance(s, str) for s in sources)):
            where.fail("sources", "every entry needs its sources")
        out[quality] = Laying(quality, low, high, str(entry["what"]), tuple(sources))
    return out


@cache
def load_crews(path: str | None = None) -> dict[str, Laying]:
    """The packaged crew file (or the one at ``path``), validated."""
    res: Any = (
        Path(path) if path else resources.files("battleline.rulesets.bf1900").joinpath("data", FILE)
    )
    return parse_crews(read_toml_file(FILE, res))


def laying_of(quality: str | None) -> Laying | None:
    """The laying die of a crew quality, or ``None`` when its hits all stand."""
    return None if quality is None else load_crews().get(quality)


__all__ = ["FILE", "Laying", "laying_of", "load_crews", "parse_crews"]
