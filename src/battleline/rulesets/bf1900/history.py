"""The record of the historical battles, which the calibration sets the games beside.

Two data files, validated on load (a bad entry raises :class:`RulesDataError` naming it):

* ``data/history/battles.toml``: each battle's victor and ships sunk per side (``[[battle]]``);
* ``data/history/hit_rates.toml``: the record's hits per round fired (``[[figure]]``), by a
  side's calibre class, all its guns or one bore, and the ships the record has surviving heavy
  punishment (``[[survivor]]``), each with its sources.

``tools/calibrate.py`` reads both (``docs/history.md``), and a user's files in the same formats
(:func:`read_battles`, :func:`read_hit_rates`) for a battle of his own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from battleline.engine.tally import ALL_GUNS
from battleline.errors import UnknownNameError
from battleline.rulesets.bf1900.scenario import get_scenario
from battleline.rulesets.bf1900.tally import CALIBRE_CLASSES, bore
from battleline.rulesets.tomldata import Where, read_toml_file

BATTLES = "battles.toml"
HIT_RATES = "hit_rates.toml"
#: The calibre classes of ``tally.py`` and all guns; any other ``guns`` is a bore ("15.2 cm").
CLASSES: tuple[str, ...] = (*(name for name, _ in CALIBRE_CLASSES), ALL_GUNS)


@dataclass(frozen=True, slots=True)
class Record:
    """The historical outcome of a scenario, as comparable with a game of it."""

    scenario: str
    victor: str
    #: Ships sunk or destroyed (scuttled, run ashore and burnt) on each side, in the scenario's
    #: side order, counting only ships in the scenario lost in the action it covers.
    sunk: tuple[int, int]
    note: str


@dataclass(frozen=True, slots=True)
class Figure:
    """One record hit rate: hits per round fired by a side's guns of one calibre class (or
    ``all``), or of one bore (``"15.2 cm"``), as one rate or the range the sources span;
    ``counts`` gives the record's own hits and rounds where the source gives them."""

    scenario: str
    side: str
    guns: str
    low: float
    high: float
    what: str
    source: str
    counts: str | None = None

    def within_factor_two(self, rate: float) -> bool:
        """The hit-rate target: from half the low end to twice the high end."""
        return self.low / 2 <= rate <= self.high * 2

    @property
    def text(self) -> str:
        """The figure as the table prints it."""
        if self.low == self.high:
            return f"{self.low:.2%}"
        return f"{self.low:.1%}–{self.high:.1%}"


@dataclass(frozen=True, slots=True)
class Survivor:
    """Ships the record has surviving heavy punishment (their class survival is reported)."""

    scenario: str
    side: str
    ships: tuple[str, ...]
    what: str


def _battle(where: Where, entry: Mapping[str, Any], battles: Mapping[str, Record]) -> str:
    """The entry's ``scenario``, which must have a battle record."""
    scenario = where.text(entry["scenario"], "scenario")
    if scenario not in battles:
        where.fail("scenario", f"no battle record for {scenario!r}; known: {sorted(battles)}")
    return scenario


def parse_battles(raw: Mapping[str, Any], name: str = BATTLES) -> dict[str, Record]:
    """Validate the decoded battles file ``name``: scenario id → its record."""
    top = Where(name, "(file)")
    top.keys(raw, required=("battle",))
    out: dict[str, Record] = {}
    for where, entry in top.tables(raw, "battle"):
        where.keys(entry, required=("scenario", "victor", "sunk", "note"))
        scenario = where.text(entry["scenario"], "scenario")
        if scenario in out:
            where.fail("scenario", f"{scenario!r} has a record already")
        sunk = entry["sunk"]
        if not (isinstance(sunk, list) and len(sunk) == 2):
            where.fail("sunk", "expected [side 1, side 2], the ships each side lost")
        a, b = (where.integer(n, "sunk", 0, 999) for n in sunk)
        out[scenario] = Record(
            scenario,
            where.text(entry["victor"], "victor"),
            (a, b),
            where.text(entry["note"], "note"),
        )
    return out


def _is_bore(guns: str) -> bool:
    """Whether ``guns`` is a bore label as the tally writes it (:func:`tally.bore`)."""
    try:
        return bore(float(guns.removesuffix(" cm"))) == guns
    except ValueError:
        return False


def _rate(where: Where, entry: Mapping[str, Any], field: str) -> float:
    value = where.number(entry[field], field)
    if not 0.0 <= value <= 1.0:
        where.fail(field, f"a share of rounds fired, from 0 to 1; got {value}")
    return value


def _figure(where: Where, entry: Mapping[str, Any], battles: Mapping[str, Record]) -> Figure:
    where.keys(
        entry,
        required=("scenario", "side", "guns", "what", "source"),
        optional=("rate", "low", "high", "counts"),
    )
    scenario = _battle(where, entry, battles)
    guns = where.text(entry["guns"], "guns")
    if guns not in CLASSES and not _is_bore(guns):
        where.fail("guns", f"one of {', '.join(CLASSES)} or a bore such as '15.2 cm'")
    if "rate" in entry:
        if "low" in entry or "high" in entry:
            where.fail("rate", "give either rate, or low and high, not both")
        low = high = _rate(where, entry, "rate")
    else:
        for field in ("low", "high"):
            if field not in entry:
                where.fail(field, "missing (give rate, or low and high)")
        low, high = _rate(where, entry, "low"), _rate(where, entry, "high")
        if low > high:
            where.fail("low", f"must not exceed high ({low} > {high})")
    counts = where.text(entry["counts"], "counts") if "counts" in entry else None
    return Figure(
        scenario,
        where.text(entry["side"], "side"),
        guns,
        low,
        high,
        where.text(entry["what"], "what"),
        where.text(entry["source"], "source"),
        counts,
    )


def _survivor(where: Where, entry: Mapping[str, Any], battles: Mapping[str, Record]) -> Survivor:
    where.keys(entry, required=("scenario", "side", "ships", "what", "source"))
    scenario = _battle(where, entry, battles)
    ships = entry["ships"]
    if not (isinstance(ships, list) and ships and all(isinstance(s, str) for s in ships)):
        where.fail("ships", "expected a list of ship names")
    return Survivor(
        scenario, where.text(entry["side"], "side"), tuple(ships), where.text(entry["what"], "what")
    )


def parse_hit_rates(
    raw: Mapping[str, Any], battles: Mapping[str, Record], name: str = HIT_RATES
) -> tuple[tuple[Figure, ...], tuple[Survivor, ...]]:
    """Validate the decoded hit-rates file ``name`` against the battles it names."""
    top = Where(name, "(file)")
    top.keys(raw, required=("figure",), optional=("survivor",))
    figures = tuple(_figure(w, e, battles) for w, e in top.tables(raw, "figure"))
    survivors = tuple(_survivor(w, e, battles) for w, e in top.tables(raw, "survivor"))
    return figures, survivors


def _read(name: str) -> dict[str, Any]:
    res = resources.files("battleline.rulesets.bf1900").joinpath("data", "history", name)
    return read_toml_file(name, res)


@cache
def battle_records() -> dict[str, Record]:
    """The packaged record of every historical battle, by scenario id."""
    return parse_battles(_read(BATTLES))


@cache
def record_figures() -> tuple[tuple[Figure, ...], tuple[Survivor, ...]]:
    """The packaged record hit rates and survivors."""
    return parse_hit_rates(_read(HIT_RATES), battle_records())


def read_battles(path: str | Path) -> dict[str, Record]:
    """A user's battles file in the format of ``data/history/battles.toml``: scenario id → its
    record (errors name ``path``)."""
    p = Path(path)
    return parse_battles(read_toml_file(str(p), p), str(p))


def read_hit_rates(
    path: str | Path, battles: Mapping[str, Record]
) -> tuple[tuple[Figure, ...], tuple[Survivor, ...]]:
    """A user's hit-rates file in the format of ``data/history/hit_rates.toml``, its figures
    and survivors naming battles of ``battles`` (errors name ``path``)."""
    p = Path(path)
    return parse_hit_rates(read_toml_file(str(p), p), battles, str(p))


def records_for(
    scenarios: Sequence[str], battles_file: str | None, hit_rates_file: str | None
) -> tuple[list[Record], tuple[Sequence[Figure], Sequence[Survivor]]]:
    """The record of each scenario (an id, or a scenario file whose ``id`` names it) and the
    hit-rate figures and survivors: the packaged files, a user's over them (his record of a
    battle replaces the packaged one, figures and all). A scenario with no record, or a bad
    file, raises :class:`~battleline.errors.BattlelineError`."""
    mine = read_battles(battles_file) if battles_file is not None else {}
    battles = {**battle_records(), **mine}
    packaged, kept = record_figures()
    figures: list[Figure] = [f for f in packaged if f.scenario not in mine]
    survivors: list[Survivor] = [s for s in kept if s.scenario not in mine]
    if hit_rates_file is not None:
        more, also = read_hit_rates(hit_rates_file, battles)
        figures += more
        survivors += also
    records: list[Record] = []
    for s in scenarios:
        sid = s if s in battles else get_scenario(s).id
        if sid not in battles:
            raise UnknownNameError("battle record", sid, list(battles))
        records.append(battles[sid])
    return records, (figures, survivors)


__all__ = [
    "BATTLES",
    "CLASSES",
    "HIT_RATES",
    "Figure",
    "Record",
    "Survivor",
    "battle_records",
    "parse_battles",
    "parse_hit_rates",
    "read_battles",
    "read_hit_rates",
    "record_figures",
    "records_for",
]
