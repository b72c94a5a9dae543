"""Scenarios: a TOML file → a validated :class:`Scenario` (see ``docs/scenarios.md``).

Validation is done with pydantic so that every error names its field; the first error is
re-raised as one :class:`~battleline.errors.ScenarioError` line such as
``scenarios/x.toml: sides[0].divisions[1].ships[2].class: unknown ship class 'Fooo'``.

Built-in scenarios live in ``data/scenarios/*.toml`` and are found by their ``id``; anything else
is read as a path. The sides' tables (divisions, ships, objectives) are
:mod:`~battleline.rulesets.bf1900.scenario_sides`; every name this module held before stays
importable here.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from battleline.errors import BattlelineError, ScenarioError
from battleline.rulesets.bf1900.scenario_index import broken_files, builtin_index, resolve
from battleline.rulesets.bf1900.scenario_sides import (
    DOCTRINE_RANGE_M,
    GUNNERY_LEVELS,
    NO_FORMATION,
    OBJECTIVE_EDGES,
    WEIGH_ANCHOR_TURNS,
    DivisionEntry,
    Entry,
    FormationName,
    ObjectiveEntry,
    ShipEntry,
    SideEntry,
    lookup_class,
)
from battleline.rulesets.tomldata import read_scenario_toml

#: Options a scenario may switch (optional rules); unknown keys are errors.
#: ``surrender`` (default true): ships may strike with the "We Surrender" message (BF6-CMD-32).
#: ``observed_positions`` (default true): a side's view shows the enemy where its ships judge her
#: to be, and only the ships it can see (a digital adaptation, ``docs/observation.md``).
KNOWN_OPTIONS = frozenset({"surrender", "observed_positions"})
#: How far a ship can be seen when a scenario gives a ``start`` but no ``visibility_m``:
#: reconstructed (``docs/scenarios.md``); ``None`` is to the horizon.
START_VISIBILITY_M: dict[str, float | None] = {"day": None, "dawn": 6000.0, "night": 2000.0}


class LandEntry(Entry):
    """A piece of land: a polygon of (x, y) points in metres."""

    name: str = Field(min_length=1)
    points: list[tuple[float, float]] = Field(min_length=3)


class VictoryEntry(Entry):
    """Victory points: per point of size of each enemy ship sunk (or surrendered) and crippled.

    A ship is crippled when all its propulsion boxes are marked, or at least half its main gun
    positions are out of action (reconstructed; see ``docs/scenarios.md``). A sinking ship at the
    end counts as sunk. The side with more points wins if its lead is at least ``margin`` of the
    larger total; otherwise the game is a draw.
    """

    sunk_per_size: float = Field(default=2.0, ge=0)
    crippled_per_size: float = Field(default=1.0, ge=0)
    surrender_counts_as_sunk: bool = True
    margin: float = Field(default=0.25, ge=0, le=1)


class Scenario(Entry):
    """A validated scenario."""

    id: str = Field(min_length=1, pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str = Field(min_length=1)
    description: str = ""
    ruleset: str = "bf1900"
    options: dict[str, bool] = Field(default_factory=dict)
    scale: str = "small"
    turn_limit: int = Field(default=12, ge=1, le=200)
    weather: str = ""
    time: str = ""
    #: How far a ship can be seen, metres (``None``: to the horizon); with observed positions
    #: on, farther ships are out of sight and the range error grows towards it.
    visibility_m: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    #: The light the battle starts in: "day", "dawn" or "night" (sets ``visibility_m`` when that
    #: is not given, :data:`START_VISIBILITY_M`).
    start: Literal["day", "dawn", "night"] = "day"
    #: The year of the battle, for shell quality (``data/shells.toml``); read from ``time`` when
    #: not given.
    year: int | None = Field(default=None, ge=1850, le=1950)
    sides: list[SideEntry] = Field(min_length=2, max_length=2)
    land: list[LandEntry] = Field(default_factory=list)
    victory: VictoryEntry = Field(default_factory=VictoryEntry)

    @model_validator(mode="before")
    @classmethod
    def _start_visibility(cls, raw: Any) -> Any:
        if isinstance(raw, dict) and raw.get("visibility_m") is None:
            start = raw.get("start", "day")
            if isinstance(start, str) and START_VISIBILITY_M.get(start) is not None:
                raw = {**raw, "visibility_m": START_VISIBILITY_M[start]}
        return raw

    def surprised_until(self, side: str) -> int:
        """The last turn in which ``side``'s guns are unmanned by surprise (0: none)."""
        return next((s.surprised_turns for s in self.sides if s.name == side), 0)

    def seen_limit(self, side: str) -> float | None:
        """How far ``side``'s ships can be seen, metres: the scenario's ``visibility_m``, or the
        side's ``seen_at_m`` where that is nearer (``None``: to the horizon)."""
        own = next((s.seen_at_m for s in self.sides if s.name == side), None)
        if own is None:
            return self.visibility_m
        return own if self.visibility_m is None else min(own, self.visibility_m)

    @property
    def battle_year(self) -> int | None:
        """The year of the battle: ``year``, or the first year (18xx/19xx) written in ``time``."""
        if self.year is not None:
            return self.year
        found = re.search(r"\b(18[5-9][0-9]|19[0-4][0-9])\b", self.time)
        return int(found.group(1)) if found else None

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, value: str) -> str:
        from battleline.rulesets import canonical_name

        try:
            return canonical_name(value)
        except BattlelineError as exc:
            raise ValueError(str(exc)) from exc

    @field_validator("options")
    @classmethod
    def _known_options(cls, value: dict[str, bool]) -> dict[str, bool]:
        bad = sorted(set(value) - KNOWN_OPTIONS)
        if bad:
            raise ValueError(f"unknown option {bad[0]!r}; known: {sorted(KNOWN_OPTIONS)}")
        return value

    @field_validator("scale")
    @classmethod
    def _known_scale(cls, value: str) -> str:
        from battleline.rulesets.bf1900.scales import load_scales

        known = load_scales()
        if value not in known:
            raise ValueError(f"unknown scale {value!r}; known: {sorted(known)}")
        return value

    @model_validator(mode="after")
    def _unique_names(self) -> Scenario:
        if self.sides[0].name == self.sides[1].name:
            raise ValueError(f"the two sides share the name {self.sides[0].name!r}")
        seen: set[str] = set()
        for side in self.sides:
            for div in side.divisions:
                for ship in div.ships:
                    if ship.name in seen:
                        raise ValueError(f"ship name {ship.name!r} is used twice")
                    seen.add(ship.name)
        return self

    def option(self, name: str, default: bool = False) -> bool:
        """An optional rule's switch."""
        return self.options.get(name, default)


def _where(loc: tuple[int | str, ...]) -> str:
    """pydantic's error location → ``sides[0].divisions[1].ships[2].class``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _message(err: Any) -> str:
    msg = str(err["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix) :]
    if err["type"] == "extra_forbidden":
        msg = "unknown field (check the spelling)"
    return msg


def parse_scenario(raw: dict[str, Any], source: str) -> Scenario:
    """Validate a decoded TOML table; raise one :class:`ScenarioError` line naming the field."""
    try:
        scenario = Scenario.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = _where(tuple(err["loc"]))
        more = len(exc.errors()) - 1
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise ScenarioError(
            f"{source}: {where + ': ' if where else ''}{_message(err)}{tail}"
        ) from None
    check_setup(scenario, source)
    return scenario


#: How far, in degrees, a division's ships may stray from their formation's headings and
#: station bearings at the start: the slack the Command Phase itself allows when it reads a
#: formation from the ships' positions (``command.py``); the rules give no figure.
FORMATION_TOLERANCE_DEG = 3.0


def check_setup(sc: Scenario, source: str) -> None:
    """Refuse a starting table that could not be set up (BF6-GEN-06), naming the field: a start
    speed above the ship's top propulsion box (BF6-MOV-01), a base on land, two bases on top of
    each other, or a division whose placed ships are out of its formation by more than
    :data:`FORMATION_TOLERANCE_DEG`."""
    from battleline.engine.geometry import Pose
    from battleline.rulesets.bf1900.divisions import (
        Formation,
        classify_formation,
        default_interval_m,
    )
    from battleline.rulesets.bf1900.scales import get_scale
    from battleline.rulesets.bf1900.table import Land, footprint

    scale = get_scale(sc.scale)
    land = [Land.from_coords(p.name, p.points) for p in sc.land]
    bases: list[tuple[str, str, Any]] = []

    def fail(where: str, reason: str) -> ScenarioError:
        return ScenarioError(f"{source}: {where}: {reason}")

    for i, side in enumerate(sc.sides):
        for j, div in enumerate(side.divisions):
            at = f"sides[{i}].divisions[{j}]"
            classes = [s.ship_class for s in div.ships]
            interval = default_interval_m([scale.base_size_m(c)[0] for c in classes])
            placed = div.placed(interval)
            for k, ((ship, x, y, heading, knots), cls) in enumerate(
                zip(placed, classes, strict=True)
            ):
                where = f"{at}.ships[{k}]"
                if knots > cls.max_knots + 1e-9:
                    field = f"{where}.speed" if ship.speed is not None else f"{at}.speed"
                    raise fail(
                        field,
                        f"{ship.name} starts at {knots:g} kn, above her top propulsion box of "
                        f"{cls.max_knots:g} kn ({cls.name}, BF6-MOV-01)",
                    )
                base = footprint(Pose(x, y, heading), *scale.base_size_m(cls))
                for piece in land:
                    if base.intersection(piece.polygon).area > 1e-6:
                        raise fail(
                            where,
                            f"{ship.name} starts on land ({piece.name!r}) at "
                            f"({x:,.0f}, {y:,.0f}) m",
                        )
                for other, other_where, other_base in bases:
                    if base.intersection(other_base).area > 1e-6:
                        raise fail(
                            where,
                            f"{ship.name}'s base overlaps {other}'s ({other_where}) at the start; "
                            "place them apart",
                        )
                bases.append((ship.name, where, base))
            explicit = any(s.x is not None or s.heading is not None for s in div.ships)
            if explicit and len(div.ships) > 1 and div.formation != NO_FORMATION:
                poses = [Pose(x, y, h) for _, x, y, h, _ in placed]
                got, reverse = classify_formation(poses, FORMATION_TOLERANCE_DEG)
                if got is not Formation(div.formation) or reverse:
                    raise fail(
                        f"{at}.ships",
                        f"division {div.name!r} is not in {div.formation}: its ships' headings "
                        f"and bearings from one another differ by more than "
                        f"{FORMATION_TOLERANCE_DEG:g}° (set the formation, or place the ships "
                        "on their stations)",
                    )


def load_scenario_file(path: str | Path) -> Scenario:
    """Read and validate a scenario file (a variant is made whole from its built-in base)."""
    p = Path(path)
    return parse_scenario(resolve(read_scenario_toml(p), str(p)), str(p))


@lru_cache(maxsize=64)
def _builtin(sid: str) -> Scenario:
    """One built-in scenario, validated alone (the others are not read past their TOML)."""
    fname, raw = builtin_index()[sid]
    source = f"scenarios/{fname}"
    return parse_scenario(resolve(raw, source), source)


@cache
def builtin_scenarios() -> dict[str, Scenario]:
    """Every built-in scenario by id, in file-name order, each validated; a file that cannot be
    read or has no id of its own raises ``ScenarioError`` (the full check the tests run)."""
    for fname, why in broken_files().items():
        raise ScenarioError(f"scenarios/{fname}: {why}")
    return {sid: _builtin(sid) for sid in builtin_index()}


@lru_cache(maxsize=64)
def get_scenario(name_or_path: str) -> Scenario:
    """A built-in scenario by id, or a scenario file by path."""
    if name_or_path in builtin_index():
        return _builtin(name_or_path)
    p = Path(name_or_path)
    if p.suffix == ".toml" or p.exists():
        return load_scenario_file(p)
    from battleline.errors import UnknownNameError

    raise UnknownNameError("scenario", name_or_path, list(builtin_index()))


def peek_ruleset(name_or_path: str) -> str:
    """The ruleset a scenario names (validating the whole scenario)."""
    return get_scenario(name_or_path).ruleset


# Every name this module held before it was split stays importable from here.
__all__ = [
    "DOCTRINE_RANGE_M",
    "FORMATION_TOLERANCE_DEG",
    "GUNNERY_LEVELS",
    "KNOWN_OPTIONS",
    "NO_FORMATION",
    "OBJECTIVE_EDGES",
    "START_VISIBILITY_M",
    "WEIGH_ANCHOR_TURNS",
    "DivisionEntry",
    "FormationName",
    "LandEntry",
    "ObjectiveEntry",
    "Scenario",
    "ShipEntry",
    "SideEntry",
    "VictoryEntry",
    "builtin_scenarios",
    "check_setup",
    "get_scenario",
    "load_scenario_file",
    "lookup_class",
    "parse_scenario",
    "peek_ruleset",
]
