"""Static ship-class values (the "Ship Values" listing) for Battlefleet 1900, 1D6 edition.

A :class:`ShipClass` never changes during a game; the damage marks live in
:class:`battleline.rulesets.bf1900.shiplog.ShipLog`. Units:

* armour and penetration: armour points (roughly inches of steel), compared as a percentage;
* propulsion boxes: knots, highest first; the scale turns knots into table distance per turn;
* size: the 1D6 edition's small-integer size (1 = torpedo boat … 10 = largest battleship);
  torpedo boats and destroyers are size ≤ 4, so normal-depth torpedoes miss them (BF6-TORP-07);
* shell size: on the same scale as ship size, for the flooding-occurrence ratio.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum, StrEnum


class GunClass(StrEnum):
    """The armament boxes of the ship log."""

    MAIN = "main"
    SECONDARY = "secondary"
    TERTIARY = "tertiary"
    BOAT = "boat"


class Compartment(StrEnum):
    """The four main compartments (zones) of every ship (BF6-FLD-02)."""

    FORWARD = "forward"
    PORT = "port amidships"
    STARBOARD = "starboard amidships"
    AFT = "aft"


class FloodLevel(IntEnum):
    """Flooding levels; the value is the flooding points (BF6-DMG-12)."""

    NONE = 0
    LIGHT = 1
    MODERATE = 2
    HEAVY = 3
    SEVERE = 4


class Rating(StrEnum):
    """Flood protection and upperworks protection ratings."""

    GREAT = "great"
    GOOD = "good"
    POOR = "poor"
    NONE = "none"


class ShipType(StrEnum):
    """Broad ship types, used for bases, AI roles, victory points and skimmer eligibility."""

    BATTLESHIP = "BB"
    COAST_DEFENCE = "CD"
    ARMOURED_CRUISER = "AC"
    PROTECTED_CRUISER = "PC"
    CRUISER = "CR"
    TORPEDO_GUNBOAT = "TGB"
    GUNBOAT = "GB"
    DESTROYER = "DD"
    TORPEDO_BOAT = "TB"


#: Ship types that may carry shallow-running torpedoes (BF6-TORP-06).
SKIMMER_TYPES = frozenset({ShipType.DESTROYER, ShipType.TORPEDO_BOAT, ShipType.TORPEDO_GUNBOAT})

#: Lettered positions and other named mounting places (BF6-POS-01..11).
LETTERED_POSITIONS = frozenset("ABCDEMOPRSUVWXYZ") | {"N", "Q", "T"}
END_POSITIONS = frozenset({"stem", "stern", "centreline"})


@dataclass(frozen=True, slots=True)
class Mounting:
    """One armament entry: a lettered position, or a beam-pattern battery.

    ``key`` is unique within the class ("A", "Z", "sec", "boat"). A lettered position has
    ``position`` set and ``guns`` guns firing together; a beam-pattern battery has
    ``beam_pattern`` in {0, 1, 2} and ``guns`` guns in total, half on each side.
    ``penetration`` holds AP penetration for range brackets 1–4; ``None`` means the gun cannot
    fire at that bracket.
    """

    key: str
    gun_class: GunClass
    calibre_cm: float
    rof: float
    penetration: tuple[int | None, int | None, int | None, int | None]
    guns: int
    shell_size: int
    position: str | None = None
    beam_pattern: int | None = None
    compartment: Compartment | None = None
    label: str = ""

    @property
    def is_lettered(self) -> bool:
        """True for a lettered (or stem/stern/centre-line) position."""
        return self.position is not None

    @property
    def guns_per_side(self) -> int:
        """Guns on each side for a beam-pattern battery."""
        return self.guns // 2 if self.beam_pattern is not None else self.guns


@dataclass(frozen=True, slots=True)
class TorpedoMount:
    """Torpedo tubes: ``position`` is 'bow', 'stern', 'centreline', 'port', 'starboard' or
    'beam' (a beam pattern, half each side). ``tubes`` is the number of torpedoes carried there."""

    key: str
    tubes: int
    position: str
    size: int
    range_m: float = 3000.0


@dataclass(frozen=True, slots=True)
class ShipClass:
    """The Ship Values of one class."""

    name: str
    navy: str
    type: ShipType
    year: int
    size: int
    armour_vitals: int
    armour_upperworks: int
    upperworks_protection: Rating
    flood_protection: Rating
    stability: str  # "good" | "poor"
    seaway: str  # "normal" | "poor"
    armoured_deck: bool
    propulsion_knots: tuple[float, ...]
    mountings: tuple[Mounting, ...]
    torpedoes: tuple[TorpedoMount, ...] = ()
    searchlights: int = 2
    length_m: float = 100.0
    beam_m: float = 18.0
    turning_circle_m: float = 600.0
    lozenge: bool = False
    shallow_torpedoes: bool = False
    sources: tuple[str, ...] = ()
    notes: str = ""
    overrides: tuple[str, ...] = field(default=())
    ships: tuple[str, ...] = ()  # names of the ships of the class (scenarios look them up)

    @property
    def dc_boxes(self) -> int:
        """Damage-control dice at the start of a game: 6 at size ≥ 5, else 3 (BF6-DC-03)."""
        return 6 if self.size >= 5 else 3

    @property
    def max_knots(self) -> float:
        """The top propulsion box."""
        return self.propulsion_knots[0]

    def mounting(self, key: str) -> Mounting:
        """The mounting with this key; ``KeyError`` if there is none."""
        for m in self.mountings:
            if m.key == key:
                return m
        raise KeyError(f"{self.name} has no mounting {key!r}")

    def mountings_of(self, gun_class: GunClass) -> tuple[Mounting, ...]:
        """All mountings of one armament box."""
        return tuple(m for m in self.mountings if m.gun_class is gun_class)
