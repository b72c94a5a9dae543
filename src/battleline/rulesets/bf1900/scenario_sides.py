"""A scenario's sides as its TOML gives them: each side's divisions and ships, where they start and
how, the side's crew quality, doctrine and objective, each table checked by pydantic so that an
error names its field (see ``docs/scenarios.md``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from battleline.engine.geometry import norm360
from battleline.errors import BattlelineError
from battleline.rulesets.bf1900.ship import ShipClass

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
#: Turns a ship at anchor needs to weigh anchor before she may move, when the scenario gives no
#: figure: reconstructed (the rules have none). With steam up, heaving in the cable and getting
#: under way took a warship of the period some ten minutes; a turn is three minutes.
WEIGH_ANCHOR_TURNS = 3
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


class Entry(BaseModel):
    """A table of a scenario file: unknown fields are errors, and a read table never changes."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ShipEntry(Entry):
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


def sensible_doctrine_range(value: float | None) -> float | None:
    """A doctrine range within :data:`DOCTRINE_RANGE_M`, or ``None``; ``ValueError`` otherwise."""
    lo, hi = DOCTRINE_RANGE_M
    if value is not None and not (math.isfinite(value) and lo <= value <= hi):
        raise ValueError(f"must be a range from {lo:g} to {hi:g} metres, not {value!r}")
    return value


class DivisionEntry(Entry):
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
    #: The range this division's admiral fights at, metres, when it is not the side's (read by
    #: the AI admirals only): cruisers told to keep off the enemy's battle line.
    doctrine_range_m: float | None = None

    @field_validator("doctrine_range_m")
    @classmethod
    def _sensible_range(cls, value: float | None) -> float | None:
        return sensible_doctrine_range(value)

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


class ObjectiveEntry(Entry):
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


class SideEntry(Entry):
    """One side: its name, its fleet flagship and its divisions; optionally its crews' gunnery
    (one of :data:`GUNNERY_LEVELS`: the side's eye, its gun layers' laying die in
    :mod:`~battleline.rulesets.bf1900.crews`, and its admiral's ranging) and the range its admiral
    prefers to fight at, metres (read by the AI admirals only)."""

    name: str = Field(min_length=1)
    fleet_flagship: str | None = None
    gunnery: str | None = None
    doctrine_range_m: float | None = None
    #: Whether the side's AI admiral runs down a fleeing weaker enemy (``docs/ai.md``).
    pursue: bool = False
    #: Until this turn the side's AI admiral stands by a consort that has fallen behind, turning
    #: back to fight near her instead of breaking off without her (``docs/ai.md``); ``None``:
    #: never.
    stand_by_until_turn: int | None = Field(default=None, ge=1, le=1000)
    #: Whether the side's AI captains scuttle a ship on fire once the side is beaten or
    #: outgunned and an enemy big ship is close: run ashore and abandoned, as Cervera's burning
    #: cruisers were at Santiago (``docs/ai.md``, "Damage control").
    scuttle_when_burning: bool = False
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
        return sensible_doctrine_range(value)

    def doctrine(self) -> dict[str, str | float | dict[str, str | float]]:
        """The side's own AI settings that are set (``gunnery``, ``doctrine_range_m``,
        ``pursue``, ``stand_by_until_turn``, ``scuttle_when_burning``, ``objective``)."""
        out: dict[str, str | float | dict[str, str | float]] = {}
        if self.pursue:
            out["pursue"] = "yes"
        if self.scuttle_when_burning:
            out["scuttle_when_burning"] = "yes"
        if self.stand_by_until_turn is not None:
            out["stand_by_until_turn"] = float(self.stand_by_until_turn)
        if self.gunnery is not None:
            out["gunnery"] = self.gunnery
        if self.doctrine_range_m is not None:
            out["doctrine_range_m"] = self.doctrine_range_m
        if self.objective is not None:
            out["objective"] = self.objective.plain()
        ranges: dict[str, str | float] = {
            d.name: d.doctrine_range_m for d in self.divisions if d.doctrine_range_m
        }
        if ranges:
            out["division_ranges_m"] = ranges
        return out

    @model_validator(mode="after")
    def _fleet_flagship_known(self) -> SideEntry:
        names = [s.name for d in self.divisions for s in d.ships]
        if self.fleet_flagship is not None and self.fleet_flagship not in names:
            raise ValueError(f"fleet_flagship {self.fleet_flagship!r} is not a ship of this side")
        return self
