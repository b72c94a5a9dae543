"""A ship class's historical specification, as reference works give it: displacement, dimensions,
guns, armour plates, speed and tubes (REF-BF6-17), and the error that names a bad field of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from battleline.rulesets.bf1900.ship import (
    GunClass,
    ShipType,
)

# -- specifications --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plate:
    """One armour component: thickness in mm and the plate's kind (a quality-table key)."""

    mm: float
    kind: str


@dataclass(frozen=True, slots=True)
class ArmourSpec:
    """The armour a reference work lists, by component; ``None`` where there is none."""

    belt: Plate | None = None
    ends: Plate | None = None
    upper_belt: Plate | None = None
    deck: Plate | None = None
    barbette: Plate | None = None
    casemate: Plate | None = None
    secondary_turret: Plate | None = None


@dataclass(frozen=True, slots=True)
class GunSpec:
    """A group of identical guns: ``location`` is a tuple of places (see :data:`PLACES`, or a
    single position letter) or ``("broadside",)``; ``ahead`` is how many of a broadside battery
    can fire dead ahead (both sides together)."""

    calibre_mm: float
    count: int
    mounting: str
    location: tuple[str, ...]
    length_cal: float | None = None
    year: int | None = None
    breech: str | None = None
    role: GunClass | None = None
    ahead: int | None = None


@dataclass(frozen=True, slots=True)
class TorpedoSpec:
    """Torpedo tubes: ``count`` torpedoes at ``location`` (bow, stern, centreline, port,
    starboard, or beam = half each side)."""

    count: int
    calibre_mm: float
    location: str
    year: int | None = None


@dataclass(frozen=True, slots=True)
class ShipSpec:
    """A class's historical specifications, as a reference work gives them."""

    name: str
    navy: str
    type: ShipType
    year: int
    displacement_t: float
    length_m: float
    beam_m: float
    speed_kn: float
    guns: tuple[GunSpec, ...]
    armour: ArmourSpec = field(default_factory=ArmourSpec)
    torpedoes: tuple[TorpedoSpec, ...] = ()
    freeboard: str = "normal"  # "low" | "normal" | "high"
    top_heavy: bool = False
    shallow_torpedoes: bool = False
    searchlights: int | None = None
    ships: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    notes: str = ""


class SpecError(ValueError):
    """A specification the conversion cannot use; ``field`` names the bad entry."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
