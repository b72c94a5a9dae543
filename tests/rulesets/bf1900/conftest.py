"""Factories for Battlefleet 1900 test ships and a small scripted chart set.

* :func:`majestic` — a two-turret battleship (A and Z), like HMS Majestic (EX-BF6-19);
* :func:`lozenge` — a French lozenge battleship (A, P, R, Z), like Charles Martel;
* :func:`cruiser` — a size-5 cruiser with four secondary positions and six propulsion boxes;
* :func:`destroyer` — a size-2 destroyer without an armoured deck (three DC boxes).

:class:`FakeCharts` answers the chart lookups the damage code makes from small dicts a test can
set, so a test knows every chart result it relies on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from battleline.engine.dice import FixedDice
from battleline.engine.events import EventLog
from battleline.rulesets.bf1900.damage.context import DamageContext
from battleline.rulesets.bf1900.hits import Aspect
from battleline.rulesets.bf1900.ship import (
    Compartment,
    GunClass,
    Mounting,
    Rating,
    ShipClass,
    ShipType,
    TorpedoMount,
)
from battleline.rulesets.bf1900.shiplog import ShipLog

_PEN = (12, 9, 6, 4)


def _main(key: str, calibre: float = 30.5, guns: int = 2, **kw: object) -> Mounting:
    return Mounting(key, GunClass.MAIN, calibre, 0.5, _PEN, guns, 6, position=key, **kw)  # type: ignore[arg-type]


def _battery(key: str, gun_class: GunClass, guns: int, pattern: int, calibre: float) -> Mounting:
    return Mounting(key, gun_class, calibre, 1, (4, 2, None, None), guns, 2, beam_pattern=pattern)


def plain_class(mountings: Sequence[Mounting] = (), **values: Any) -> ShipClass:
    """A plain 1900 battleship class named "Test" (size 8, good protection), ``values`` replacing
    any field: for tests that need some class and care about one or two of its values."""
    base: dict[str, Any] = {
        "name": "Test",
        "navy": "RN",
        "type": ShipType.BATTLESHIP,
        "year": 1900,
        "size": 8,
        "armour_vitals": 9,
        "armour_upperworks": 6,
        "upperworks_protection": Rating.GOOD,
        "flood_protection": Rating.GOOD,
        "stability": "good",
        "seaway": "normal",
        "armoured_deck": True,
        "propulsion_knots": (18.0, 15.0, 12.0),
        "mountings": tuple(mountings),
    }
    return ShipClass(**(base | values))


def majestic() -> ShipClass:
    """HMS Majestic: 30 cm in A and Z, 15 cm pattern 1, 12-pdr pattern 0, two boat guns."""
    return ShipClass(
        name="Majestic",
        navy="RN",
        type=ShipType.BATTLESHIP,
        year=1895,
        size=8,
        armour_vitals=9,
        armour_upperworks=6,
        upperworks_protection=Rating.GOOD,
        flood_protection=Rating.GOOD,
        stability="good",
        seaway="normal",
        armoured_deck=True,
        propulsion_knots=(17, 14, 11, 8, 5, 2),
        mountings=(
            _main("A"),
            _main("Z"),
            _battery("sec", GunClass.SECONDARY, 12, 1, 15.2),
            _battery("tert", GunClass.TERTIARY, 16, 0, 7.6),
            _battery("boat", GunClass.BOAT, 2, 0, 4.7),
        ),
        torpedoes=(TorpedoMount("beam", 4, "beam", 3), TorpedoMount("bow", 1, "bow", 3)),
    )


def lozenge() -> ShipClass:
    """A French lozenge battleship: A and Z on the centre-line, P and R in wing sponsons."""
    return ShipClass(
        name="Charles Martel",
        navy="MN",
        type=ShipType.BATTLESHIP,
        year=1897,
        size=8,
        armour_vitals=10,
        armour_upperworks=4,
        upperworks_protection=Rating.POOR,
        flood_protection=Rating.POOR,
        stability="poor",
        seaway="normal",
        armoured_deck=True,
        propulsion_knots=(18, 15, 12, 9, 6, 3),
        mountings=(
            _main("A", guns=1),
            _main("P", 27.4, 1, compartment=Compartment.PORT),
            _main("R", 27.4, 1, compartment=Compartment.STARBOARD),
            _main("Z", guns=1),
            _battery("sec", GunClass.SECONDARY, 8, 0, 13.9),
        ),
        lozenge=True,
    )


def cruiser() -> ShipClass:
    """A size-5 protected cruiser with secondary positions D, E, V, W and a tertiary battery."""
    sec = [
        Mounting(p, GunClass.SECONDARY, 15.2, 1, (4, 2, 1, None), 1, 2, position=p)
        for p in ("D", "E", "V", "W")
    ]
    return ShipClass(
        name="Talbot",
        navy="RN",
        type=ShipType.PROTECTED_CRUISER,
        year=1896,
        size=5,
        armour_vitals=3,
        armour_upperworks=1,
        upperworks_protection=Rating.POOR,
        flood_protection=Rating.POOR,
        stability="good",
        seaway="normal",
        armoured_deck=True,
        propulsion_knots=(19, 16, 13, 10, 6, 3),
        mountings=(
            _main("A", 15.2, 1),
            _main("Z", 15.2, 1),
            *sec,
            _battery("tert", GunClass.TERTIARY, 8, 0, 7.6),
        ),
        torpedoes=(TorpedoMount("beam", 2, "beam", 3),),
    )


def destroyer() -> ShipClass:
    """A size-2 destroyer: no armoured deck, one 12-pdr, centre-line tubes."""
    return ShipClass(
        name="Havock",
        navy="RN",
        type=ShipType.DESTROYER,
        year=1894,
        size=2,
        armour_vitals=0,
        armour_upperworks=0,
        upperworks_protection=Rating.NONE,
        flood_protection=Rating.NONE,
        stability="poor",
        seaway="poor",
        armoured_deck=False,
        propulsion_knots=(26, 22, 17, 13, 9, 4),
        mountings=(
            _main("A", 7.6, 1),
            _battery("boat", GunClass.BOAT, 3, 0, 4.7),
        ),
        torpedoes=(TorpedoMount("cl", 2, "centreline", 3),),
    )


@dataclass(frozen=True)
class FakeUneven:
    """A stand-in Uneven Flooding result: the axis and difference it was looked up with, and
    ``charts.UnevenEffect``'s fields (one TR hit per point by default)."""

    axis: str
    difference: int
    speed_boxes: int = 0
    tr_hits: int = 0
    dc_boxes: int = 0
    low_guns_silent: bool = False

    def __str__(self) -> str:
        return f"{self.axis} {self.difference}"


@dataclass
class FakeCharts:
    """Scripted chart lookups: unknown cells read as no effect (``-``)."""

    crit: dict[str, dict[int, tuple[str, ...]]] = field(default_factory=dict)
    misc: dict[int, tuple[str, ...]] = field(default_factory=dict)
    sink: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    repair: dict[str, tuple[int, int]] = field(default_factory=dict)
    command: dict[str, tuple[int, int]] = field(default_factory=dict)
    uneven: dict[tuple[str, int], FakeUneven] = field(default_factory=dict)
    sink_default: tuple[int, int, int] = (6, 6, 2)

    def critical(self, line: str, roll: int) -> Sequence[str]:
        return self.crit.get(line, {}).get(roll, ("-",))

    def misc_damage(self, roll: int) -> Sequence[str]:
        return self.misc.get(roll, ("-",))

    def uneven_flooding(self, axis: str, difference: int) -> FakeUneven:
        found = self.uneven.get((axis, difference))
        return found or FakeUneven(axis, difference, tr_hits=difference)

    def sink_roll(self, points: int) -> tuple[int, int, int] | None:
        if points < 5:
            return None
        return self.sink.get(points, self.sink_default)

    def repair_range(self, action: str) -> tuple[int, int]:
        return self.repair.get(action, (4, 6))

    def command_range(self, function: str) -> tuple[int, int]:
        return self.command.get(function, (3, 6))


@pytest.fixture
def charts() -> FakeCharts:
    return FakeCharts()


def make_log(cls: ShipClass, name: str | None = None) -> ShipLog:
    """A fresh log for one ship of ``cls``."""
    return ShipLog(name or cls.name, cls)


def ctx_for(
    charts: object,
    dice: FixedDice,
    events: EventLog | None = None,
    aspect: Aspect | None = Aspect.PORT,
    cause: str = "shell",
    weapon_size: float | None = 6,
) -> DamageContext:
    """A damage context over scripted dice."""
    return DamageContext(
        charts, dice, events if events is not None else EventLog(), aspect, weapon_size, cause
    )  # type: ignore[arg-type]
