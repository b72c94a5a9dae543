"""Scenarios: a TOML file → a validated :class:`Scenario` (see ``docs/scenarios.md``).

Validation is done with pydantic so that every error names its field; the first error is
re-raised as one :class:`~battleline.errors.ScenarioError` line such as
``scenarios/x.toml: sides[0].divisions[1].ships[2].class: unknown ship class 'Fooo'``.

Built-in scenarios live in ``data/scenarios/*.toml`` and are found by their ``id``; anything else
is read as a path.
"""

from __future__ import annotations

import math
import re
import tomllib
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from battleline.engine.geometry import norm360
from battleline.errors import BattlelineError, ScenarioError
from battleline.rulesets.bf1900.ship import ShipClass
from battleline.rulesets.tomldata import read_scenario_toml

FormationName = Literal[
    "line ahead",
    "line abreast to starboard",
    "line abreast to port",
    "echelon to starboard",
    "echelon to port",
    "no formation",
]
#: A division whose ships keep no formation (a blockade line, ships scattered at anchor): every
#: ship gives its own ``x`` and ``y``.
NO_FORMATION = "no formation"

#: Options a scenario may switch (optional rules); unknown keys are errors.
#: ``surrender`` (default true): ships may strike with the "We Surrender" message (BF6-CMD-32).
#: ``observed_positions`` (default true): a side's view shows the enemy where its ships judge her
#: to be, and only the ships it can see (a digital adaptation, ``docs/observation.md``).
KNOWN_OPTIONS = frozenset({"surrender", "observed_positions"})
#: Turns a ship at anchor needs to weigh anchor before she may move, when the scenario gives no
#: figure: reconstructed (the rules have none). With steam up, heaving in the cable and getting
#: under way took a warship of the period some ten minutes; a turn is three minutes.
WEIGH_ANCHOR_TURNS = 3
#: How far a ship can be seen when a scenario gives a ``start`` but no ``visibility_m``:
#: reconstructed (``docs/scenarios.md``); ``None`` is to the horizon.
START_VISIBILITY_M: dict[str, float | None] = {"day": None, "dawn": 6000.0, "night": 2000.0}
#: Crew quality a side may be given (``[[sides]] gunnery``): how well its range-takers judge and
#: correct the range. The AI admirals read it (``battleline.ai.ranging.SKILLS``, same names).
GUNNERY_LEVELS = ("green", "veteran", "elite")
#: Bounds of a side's preferred fighting range (``[[sides]] doctrine_range_m``), metres.
DOCTRINE_RANGE_M = (500.0, 10000.0)
#: The table edges a side's objective may name (``[[sides]] objective = { kind = "edge", ... }``),
#: with the heading that makes for each.
OBJECTIVE_EDGES = {"north": 0.0, "east": 90.0, "south": 180.0, "west": 270.0}


@lru_cache(maxsize=512)
def lookup_class(name: str) -> ShipClass:
    """A ship class from the ship database; ``ValueError`` with a clear reason if unknown."""
    try:
        from battleline.rulesets.bf1900 import shipdb
    except ImportError as exc:  # the database module is written by another engineer
        raise ValueError("the ship database (rulesets/bf1900/shipdb.py) is not installed") from exc
    try:
        cls = shipdb.get_ship_class(name)
    except BattlelineError as exc:
        raise ValueError(str(exc)) from exc
    except KeyError as exc:
        raise ValueError(f"unknown ship class {name!r}") from exc
    assert isinstance(cls, ShipClass)
    return cls


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ShipEntry(_Model):
    """One ship: its name, its class, and (optionally) its own position and heading."""

    name: str = Field(min_length=1)
    cls: str = Field(alias="class", min_length=1)
    x: float | None = None
    y: float | None = None
    heading: float | None = None
    speed: float | None = Field(default=None, ge=0)
    #: At anchor at the start (stopped; she may not move for ``weigh_anchor_turns`` turns); the
    #: division's value if not given.
    at_anchor: bool | None = None
    #: Torpedo nets out (only at anchor): torpedoes at her use the "stationary with nets" line.
    nets_out: bool | None = None
    #: Her machinery cannot be used at all this battle (she never moves).
    disabled_machinery: bool | None = None
    #: Turns to weigh anchor, in place of the default (``WEIGH_ANCHOR_TURNS``).
    weigh_anchor_turns: int | None = Field(default=None, ge=0, le=50)

    @field_validator("cls")
    @classmethod
    def _known_class(cls, value: str) -> str:
        lookup_class(value)
        return value

    @field_validator("x", "y", "heading", "speed")
    @classmethod
    def _finite(cls, value: float | None) -> float | None:
        if value is not None and not math.isfinite(value):
            raise ValueError("must be a finite number")
        return value

    @model_validator(mode="after")
    def _both_or_neither(self) -> ShipEntry:
        if (self.x is None) != (self.y is None):
            raise ValueError("give both x and y, or neither (then the division places the ship)")
        return self

    @property
    def ship_class(self) -> ShipClass:
        """The class values from the ship database."""
        return lookup_class(self.cls)


class DivisionEntry(_Model):
    """A division: ships in line order, its flagship, formation, and where its lead ship is."""

    name: str = Field(min_length=1)
    flagship: str | None = None
    formation: FormationName = "line ahead"
    x: float = 0.0
    y: float = 0.0
    heading: float = 0.0
    speed: float = Field(default=10.0, ge=0)
    spacing: float | None = Field(default=None, gt=0, description="metres between ship centres")
    ships: list[ShipEntry] = Field(min_length=1)
    #: Every ship of the division at anchor / with nets out / with machinery disabled, unless a
    #: ship says otherwise (see :class:`ShipEntry`).
    at_anchor: bool = False
    nets_out: bool = False
    disabled_machinery: bool = False
    weigh_anchor_turns: int = Field(default=WEIGH_ANCHOR_TURNS, ge=0, le=50)

    @model_validator(mode="after")
    def _harbour_fields(self) -> DivisionEntry:
        for ship in self.ships:
            moored = self.moored(ship)
            if self.nets(ship) and not moored:
                raise ValueError(
                    f"{ship.name!r}: nets_out needs at_anchor (nets are out only at anchor)"
                )
            if (moored or self.disabled(ship)) and self.start_knots(ship) > 0:
                raise ValueError(
                    f"{ship.name!r} is at anchor or has her machinery disabled, so she starts "
                    f"stopped: leave out speed or give 0, not {self.start_knots(ship):g}"
                )
        return self

    def moored(self, ship: ShipEntry) -> bool:
        """Whether ``ship`` starts at anchor."""
        return self.at_anchor if ship.at_anchor is None else ship.at_anchor

    def nets(self, ship: ShipEntry) -> bool:
        """Whether ``ship`` has her torpedo nets out."""
        return self.nets_out if ship.nets_out is None else ship.nets_out

    def disabled(self, ship: ShipEntry) -> bool:
        """Whether ``ship``'s machinery is disabled."""
        return (
            self.disabled_machinery if ship.disabled_machinery is None else ship.disabled_machinery
        )

    def anchor_turns(self, ship: ShipEntry) -> int:
        """Turns before ``ship`` may move: 0 unless she starts at anchor."""
        if not self.moored(ship):
            return 0
        return (
            self.weigh_anchor_turns if ship.weigh_anchor_turns is None else ship.weigh_anchor_turns
        )

    def start_knots(self, ship: ShipEntry) -> float:
        """``ship``'s starting speed as written: 0 for a ship at anchor unless a speed is given."""
        if ship.speed is not None:
            return ship.speed
        stopped = self.moored(ship) or self.disabled(ship)
        if stopped and "speed" not in self.model_fields_set:
            return 0.0
        return self.speed

    @model_validator(mode="after")
    def _placed_when_no_formation(self) -> DivisionEntry:
        if self.formation == NO_FORMATION:
            loose = [s.name for s in self.ships if s.x is None]
            if loose:
                raise ValueError(
                    f"in no formation every ship needs its own x and y; {loose[0]!r} has none"
                )
        return self

    @model_validator(mode="after")
    def _flagship_in_division(self) -> DivisionEntry:
        names = [s.name for s in self.ships]
        if self.flagship is not None and self.flagship not in names:
            raise ValueError(f"flagship {self.flagship!r} is not a ship of this division {names}")
        return self

    @property
    def flag(self) -> str:
        """The division flagship: the named one, or the lead ship."""
        return self.flagship or self.ships[0].name

    def placed(self, interval_m: float) -> list[tuple[ShipEntry, float, float, float, float]]:
        """(ship, x, y, heading, knots) for each ship: its own values, or its station in the
        division's formation behind the lead at ``spacing`` (or ``interval_m``) metres."""
        from battleline.engine.geometry import Pose
        from battleline.rulesets.bf1900.divisions import Formation, station_poses

        lead = Pose(self.x, self.y, norm360(self.heading))
        if self.formation == NO_FORMATION:  # every ship is placed on its own
            stations = [lead] * len(self.ships)
        else:
            stations = station_poses(
                lead, len(self.ships), Formation(self.formation), self.spacing or interval_m
            )
        out = []
        for s, st in zip(self.ships, stations, strict=True):
            x = st.x if s.x is None else s.x
            y = st.y if s.y is None else s.y
            heading = norm360(self.heading if s.heading is None else s.heading)
            speed = self.start_knots(s)
            out.append((s, x, y, heading, speed))
        return out


class ObjectiveEntry(_Model):
    """Where a side means to go rather than fight (read by the AI admirals only): out by a table
    edge (``kind = "edge"``, ``edge = "north"``) or into a port at a point of the table
    (``kind = "port"``, ``x``, ``y`` in metres, an optional ``name``)."""

    kind: Literal["edge", "port"]
    edge: str | None = None
    x: float | None = None
    y: float | None = None
    name: str | None = None

    @model_validator(mode="after")
    def _complete(self) -> ObjectiveEntry:
        if self.kind == "edge":
            if self.edge not in OBJECTIVE_EDGES:
                raise ValueError(
                    f"an edge objective needs edge = one of {', '.join(OBJECTIVE_EDGES)}, "
                    f"not {self.edge!r}"
                )
            if self.x is not None or self.y is not None:
                raise ValueError('an edge objective has no x or y (give kind = "port")')
        else:
            if self.x is None or self.y is None:
                raise ValueError("a port objective needs both x and y, in metres")
            if not (math.isfinite(self.x) and math.isfinite(self.y)):
                raise ValueError(
                    f"a port objective's x and y must be finite, not {self.x}, {self.y}"
                )
            if self.edge is not None:
                raise ValueError('a port objective has no edge (give kind = "edge")')
        return self

    def plain(self) -> dict[str, str | float]:
        """The objective as plain values, for the side's view."""
        out: dict[str, str | float] = {"kind": self.kind}
        if self.edge is not None:
            out["edge"] = self.edge
        if self.x is not None and self.y is not None:
            out["x"], out["y"] = float(self.x), float(self.y)
        if self.name is not None:
            out["name"] = self.name
        return out


class SideEntry(_Model):
    """One side: its name, its fleet flagship and its divisions; optionally its crews' gunnery
    (one of :data:`GUNNERY_LEVELS`) and the range its admiral prefers to fight at, metres (both
    read by the AI admirals only; the rules are the same for every side)."""

    name: str = Field(min_length=1)
    fleet_flagship: str | None = None
    gunnery: str | None = None
    doctrine_range_m: float | None = None
    objective: ObjectiveEntry | None = None
    #: How near the enemy must be to see this side's ships, metres, when that is nearer than
    #: the scenario's ``visibility_m``: boats running without lights at night (a digital
    #: adaptation, ``docs/scenarios.md``). ``None``: the scenario's visibility.
    seen_at_m: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    #: Turns at the start in which this side, taken by surprise, has its guns unmanned: its
    #: ships may not fire (a digital adaptation, ``docs/scenarios.md``).
    surprised_turns: int = Field(default=0, ge=0, le=20)
    divisions: list[DivisionEntry] = Field(min_length=1)

    @field_validator("gunnery")
    @classmethod
    def _known_gunnery(cls, value: str | None) -> str | None:
        if value is not None and value not in GUNNERY_LEVELS:
            raise ValueError(f"unknown gunnery {value!r}; use one of {', '.join(GUNNERY_LEVELS)}")
        return value

    @field_validator("doctrine_range_m")
    @classmethod
    def _sensible_range(cls, value: float | None) -> float | None:
        lo, hi = DOCTRINE_RANGE_M
        if value is not None and not (math.isfinite(value) and lo <= value <= hi):
            raise ValueError(f"must be a range from {lo:g} to {hi:g} metres, not {value!r}")
        return value

    def doctrine(self) -> dict[str, str | float | dict[str, str | float]]:
        """The side's own AI settings that are set (``gunnery``, ``doctrine_range_m``,
        ``objective``)."""
        out: dict[str, str | float | dict[str, str | float]] = {}
        if self.gunnery is not None:
            out["gunnery"] = self.gunnery
        if self.doctrine_range_m is not None:
            out["doctrine_range_m"] = self.doctrine_range_m
        if self.objective is not None:
            out["objective"] = self.objective.plain()
        return out

    @model_validator(mode="after")
    def _fleet_flagship_known(self) -> SideEntry:
        names = [s.name for d in self.divisions for s in d.ships]
        if self.fleet_flagship is not None and self.fleet_flagship not in names:
            raise ValueError(f"fleet_flagship {self.fleet_flagship!r} is not a ship of this side")
        return self


class LandEntry(_Model):
    """A piece of land: a polygon of (x, y) points in metres."""

    name: str = Field(min_length=1)
    points: list[tuple[float, float]] = Field(min_length=3)


class VictoryEntry(_Model):
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


class Scenario(_Model):
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
    """Read and validate a scenario file."""
    p = Path(path)
    return parse_scenario(read_scenario_toml(p), str(p))


def _builtin_files() -> dict[str, Any]:
    folder = resources.files("battleline.rulesets.bf1900").joinpath("data", "scenarios")
    return {
        f.name: f
        for f in sorted(folder.iterdir(), key=lambda f: f.name)
        if f.name.endswith(".toml")
    }


@cache
def builtin_scenarios() -> dict[str, Scenario]:
    """The built-in scenarios by id, in file-name order."""
    out: dict[str, Scenario] = {}
    for fname, res in _builtin_files().items():
        with res.open("rb") as fh:
            raw = tomllib.load(fh)
        sc = parse_scenario(raw, f"scenarios/{fname}")
        if sc.id in out:
            raise ScenarioError(f"scenarios/{fname}: id: {sc.id!r} is used by another scenario")
        out[sc.id] = sc
    return out


@lru_cache(maxsize=64)
def get_scenario(name_or_path: str) -> Scenario:
    """A built-in scenario by id, or a scenario file by path."""
    builtins = builtin_scenarios()
    if name_or_path in builtins:
        return builtins[name_or_path]
    p = Path(name_or_path)
    if p.suffix == ".toml" or p.exists():
        return load_scenario_file(p)
    from battleline.errors import UnknownNameError

    raise UnknownNameError("scenario", name_or_path, list(builtins))


def peek_ruleset(name_or_path: str) -> str:
    """The ruleset a scenario names (validating the whole scenario)."""
    return get_scenario(name_or_path).ruleset
