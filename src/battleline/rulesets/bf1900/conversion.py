"""Historical specifications → Battlefleet 1900 (1D6) ship values (REF-BF6-17).

The publisher's Ship Values listings are lost; this module rebuilds them from the figures any
reference work gives (displacement, dimensions, guns, armour, speed, tubes). Every number it uses
comes from ``data/conversion.toml`` (marked reconstructed); the formulas are described, with worked
examples, in ``docs/ship-values.md``. All functions are pure.
"""

from __future__ import annotations

import itertools
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.ship import (
    LETTERED_POSITIONS,
    SKIMMER_TYPES,
    Compartment,
    GunClass,
    Mounting,
    Rating,
    ShipClass,
    ShipType,
    TorpedoMount,
)
from battleline.rulesets.tomldata import read_toml_file

_DEFAULT_FILE = "conversion.toml"

#: Gun mountings a specification may name.
GUN_MOUNTINGS = frozenset({"turret", "barbette", "casemate", "shield", "open"})
#: Armour kinds (keys of the quality table).
ARMOUR_COMPONENTS = (
    "belt",
    "ends",
    "upper_belt",
    "deck",
    "barbette",
    "casemate",
    "secondary_turret",
)
#: Where a gun group may be placed, and the lettered positions each place fills
#: (BF6-POS-01..11; pairs are port first, starboard second: AMB-13, AMB-14).
PLACES: dict[str, tuple[str, ...]] = {
    "fore": ("A",),
    "aft": ("Z",),
    "fore-pair": ("B", "C"),
    "aft-pair": ("X", "Y"),
    "wings-fore": ("D", "E"),
    "wings-aft": ("V", "W"),
    "sponsons-fore": ("M", "O"),
    "sponsons-aft": ("S", "U"),
    "wings": ("P", "R"),
    "stem": ("stem",),
    "stern": ("stern",),
    "centreline": ("centreline",),
}
#: The place of a beam-pattern battery (BF6-BEAM-01).
BROADSIDE = "broadside"
TORPEDO_PLACES = frozenset({"bow", "stern", "centreline", "port", "starboard", "beam"})

_FORWARD = frozenset({"A", "B", "C", "stem"})
_AFT = frozenset({"Z", "X", "Y", "stern"})
_PORT_WINGS = frozenset({"D", "M", "P", "S", "V"})
_STARBOARD_WINGS = frozenset({"E", "O", "R", "U", "W"})


# -- the conversion tables -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConversionTables:
    """Every number the conversion uses, from ``data/conversion.toml``."""

    size_below_t: tuple[float, ...]
    size_largest: int
    armour_quality: Mapping[str, float]
    deck_slope_factor: float
    armoured_deck_min_mm: float
    deck_weight: float
    flood_great_min: float
    flood_good_min: float
    no_flood_protection_types: frozenset[ShipType]
    upperworks_great_min: float
    upperworks_good_min: float
    upperworks_poor_min: float
    secondary_min_mm: float
    boat_max_mm: float
    main_share: float
    main_turret_min_mm: float
    default_length_cal: float
    shell_size: tuple[tuple[float, int], ...]
    breech_default: tuple[tuple[float, int], ...]
    rof_qf: float
    rof_qf_max_mm: float
    rof_qf_large: float
    rof_ml: float
    rof_bl: tuple[tuple[float, int, float, float], ...]
    decay: tuple[float, float, float, float]
    reference_length: float
    length_exponent: float
    length_factor_min: float
    length_factor_max: float
    breech_factor: Mapping[str, float]
    generation: tuple[tuple[int, float], ...]
    reach: tuple[tuple[float, int], ...]
    pattern1_min_guns: int
    torpedo_size: tuple[tuple[float, int], ...]
    torpedo_range: tuple[tuple[int, float], ...]
    turning_circle: tuple[tuple[float, float], ...]
    poor_seaway_types: frozenset[ShipType]
    searchlights: tuple[tuple[int, int], ...]
    reconstructed: bool = True


class _Reader:
    """Typed access to a raw TOML table, raising ``RulesDataError`` on anything malformed."""

    def __init__(self, file: str) -> None:
        self.file = file

    def table(self, raw: Mapping[str, Any], name: str, parent: str = "") -> Mapping[str, Any]:
        value = raw.get(name)
        if not isinstance(value, dict):
            raise RulesDataError(self.file, parent or name, name, "missing table")
        return value

    def num(self, raw: Mapping[str, Any], table: str, name: str, minimum: float = 0.0) -> float:
        value = raw.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RulesDataError(self.file, table, name, f"needs a number, got {value!r}")
        if value < minimum:
            raise RulesDataError(self.file, table, name, f"must be at least {minimum}, got {value}")
        return float(value)

    def rows(
        self, raw: Mapping[str, Any], table: str, key: str, value: str, ascending: bool = True
    ) -> tuple[tuple[float, float], ...]:
        rows = raw.get(table)
        if not isinstance(rows, list) or not rows:
            raise RulesDataError(self.file, table, "", "needs at least one [[row]]")
        out: list[tuple[float, float]] = []
        for i, row in enumerate(rows):
            where = f"{table}[{i}]"
            if not isinstance(row, dict):
                raise RulesDataError(self.file, where, "", "each row must be a table")
            out.append((self.num(row, where, key), self.num(row, where, value)))
        keys = [k for k, _ in out]
        if ascending and keys != sorted(keys):
            raise RulesDataError(self.file, table, key, "rows must be in ascending order")
        return tuple(out)

    def types(self, raw: Mapping[str, Any], table: str, name: str) -> frozenset[ShipType]:
        value = raw.get(name)
        if not isinstance(value, list):
            raise RulesDataError(self.file, table, name, "needs a list of ship types")
        try:
            return frozenset(ShipType(v) for v in value)
        except ValueError as exc:
            raise RulesDataError(self.file, table, name, str(exc)) from exc


def _parse_tables(file: str, raw: Mapping[str, Any]) -> ConversionTables:
    r = _Reader(file)
    size = r.table(raw, "size")
    below = size.get("below_t")
    if not isinstance(below, list) or not below:
        raise RulesDataError(file, "size", "below_t", "needs a list of displacements")
    below_t = tuple(r.num({"below_t": v}, "size", "below_t") for v in below)
    if list(below_t) != sorted(below_t):
        raise RulesDataError(file, "size", "below_t", "breakpoints must ascend")
    armour = r.table(raw, "armour")
    quality_raw = r.table(armour, "quality", "armour")
    quality = {k: r.num(quality_raw, "armour.quality", k) for k in quality_raw}
    guns = r.table(raw, "guns")
    rof = r.table(raw, "rof")
    bl_rows = rof.get("bl")
    if not isinstance(bl_rows, list) or not bl_rows:
        raise RulesDataError(file, "rof.bl", "", "needs at least one [[rof.bl]] row")
    rof_bl = tuple(
        (
            r.num(row, f"rof.bl[{i}]", "max_mm"),
            int(r.num(row, f"rof.bl[{i}]", "modern_from")),
            r.num(row, f"rof.bl[{i}]", "old"),
            r.num(row, f"rof.bl[{i}]", "modern"),
        )
        for i, row in enumerate(bl_rows)
    )
    pen = r.table(raw, "penetration")
    decay = pen.get("decay")
    if not isinstance(decay, list) or len(decay) != 4:
        raise RulesDataError(file, "penetration", "decay", "needs 4 numbers (brackets 1-4)")
    decay_t = tuple(r.num({"decay": v}, "penetration", "decay") for v in decay)
    if any(a < b for a, b in itertools.pairwise(decay_t)):
        raise RulesDataError(file, "penetration", "decay", "must not rise with range")
    breech_raw = r.table(pen, "breech_factor", "penetration")
    breech_factor = {k: r.num(breech_raw, "penetration.breech_factor", k) for k in breech_raw}
    for need in ("ML", "BL", "QF"):
        if need not in breech_factor:
            raise RulesDataError(file, "penetration.breech_factor", need, "missing")
    generation = r.rows(pen, "generation", "from", "factor")
    if any(a[1] > b[1] for a, b in itertools.pairwise(generation)):
        raise RulesDataError(file, "penetration.generation", "factor", "must not fall with year")
    reach = r.rows(pen, "reach", "max_mm", "brackets")
    if any(not 1 <= b <= 4 for _, b in reach):
        raise RulesDataError(file, "penetration.reach", "brackets", "must be 1 to 4")
    handling = r.table(raw, "handling")
    pattern = r.table(raw, "beam_pattern")
    decay4 = (decay_t[0], decay_t[1], decay_t[2], decay_t[3])
    return ConversionTables(
        size_below_t=below_t,
        size_largest=int(r.num(size, "size", "largest", 1)),
        armour_quality=quality,
        deck_slope_factor=r.num(armour, "armour", "deck_slope_factor"),
        armoured_deck_min_mm=r.num(armour, "armour", "armoured_deck_min_mm"),
        deck_weight=r.num(armour, "armour", "deck_weight"),
        flood_great_min=r.num(armour, "armour", "flood_great_min"),
        flood_good_min=r.num(armour, "armour", "flood_good_min"),
        no_flood_protection_types=r.types(armour, "armour", "no_flood_protection_types"),
        upperworks_great_min=r.num(armour, "armour", "upperworks_great_min"),
        upperworks_good_min=r.num(armour, "armour", "upperworks_good_min"),
        upperworks_poor_min=r.num(armour, "armour", "upperworks_poor_min"),
        secondary_min_mm=r.num(guns, "guns", "secondary_min_mm"),
        boat_max_mm=r.num(guns, "guns", "boat_max_mm"),
        main_share=r.num(guns, "guns", "main_share"),
        main_turret_min_mm=r.num(guns, "guns", "main_turret_min_mm"),
        default_length_cal=r.num(guns, "guns", "default_length_cal", 1),
        shell_size=tuple((a, int(b)) for a, b in r.rows(raw, "shell_size", "max_mm", "size")),
        breech_default=tuple(
            (a, int(b)) for a, b in r.rows(raw, "breech_default", "max_mm", "qf_from")
        ),
        rof_qf=r.num(rof, "rof", "qf"),
        rof_qf_max_mm=r.num(rof, "rof", "qf_max_mm"),
        rof_qf_large=r.num(rof, "rof", "qf_large"),
        rof_ml=r.num(rof, "rof", "ml"),
        rof_bl=rof_bl,
        decay=decay4,
        reference_length=r.num(pen, "penetration", "reference_length", 1),
        length_exponent=r.num(pen, "penetration", "length_exponent"),
        length_factor_min=r.num(pen, "penetration", "length_factor_min"),
        length_factor_max=r.num(pen, "penetration", "length_factor_max"),
        breech_factor=breech_factor,
        generation=tuple((int(a), b) for a, b in generation),
        reach=tuple((a, int(b)) for a, b in reach),
        pattern1_min_guns=int(r.num(pattern, "beam_pattern", "pattern1_min_guns")),
        torpedo_size=tuple((a, int(b)) for a, b in r.rows(raw, "torpedo_size", "max_mm", "size")),
        torpedo_range=tuple(
            (int(a), b) for a, b in r.rows(raw, "torpedo_range", "from", "range_m")
        ),
        turning_circle=r.rows(raw, "turning_circle", "max_length_m", "diameter_m"),
        poor_seaway_types=r.types(handling, "handling", "poor_seaway_types"),
        searchlights=tuple(
            (int(a), int(b)) for a, b in r.rows(raw, "searchlights", "max_size", "count")
        ),
        reconstructed=bool(raw.get("reconstructed", False)),
    )


@lru_cache(maxsize=1)
def _default_tables() -> ConversionTables:
    res = resources.files("battleline.rulesets.bf1900").joinpath("data", _DEFAULT_FILE)
    with res.open("rb") as fh:
        return _parse_tables(_DEFAULT_FILE, tomllib.load(fh))


def load_conversion(path: str | Path | None = None) -> ConversionTables:
    """The conversion tables: built-in, or a user file at ``path`` with the same layout."""
    if path is None:
        return _default_tables()
    p = Path(path)
    return _parse_tables(str(p), read_toml_file(str(p), p))


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


# -- the formulas ----------------------------------------------------------------------------


def round_half_up(x: float) -> int:
    """Round to the nearest integer, halves upwards (monotone, unlike banker's rounding)."""
    return math.floor(x + 0.5 + 1e-9)


def _first_row(rows: Sequence[tuple[float, Any]], value: float) -> Any:
    """The payload of the first row whose bound is ≥ ``value`` (the last row otherwise)."""
    for bound, payload in rows:
        if value <= bound:
            return payload
    return rows[-1][1]


def _last_from(rows: Sequence[tuple[int, Any]], year: int) -> Any:
    """The payload of the last row whose start year is ≤ ``year``."""
    out = rows[0][1]
    for start, payload in rows:
        if start <= year:
            out = payload
    return out


def ship_size(displacement_t: float, t: ConversionTables) -> int:
    """The 1D6 size (1–10) from normal displacement; DC dice follow it (BF6-DC-03)."""
    for i, bound in enumerate(t.size_below_t):
        if displacement_t < bound:
            return i + 1
    return t.size_largest


def plate_points(plate: Plate | None, t: ConversionTables) -> float:
    """Unrounded armour points of one plate: inches × the kind's quality factor."""
    if plate is None:
        return 0.0
    try:
        quality = t.armour_quality[plate.kind]
    except KeyError:
        kinds = ", ".join(sorted(t.armour_quality))
        raise SpecError("armour", f"unknown armour kind {plate.kind!r} (use {kinds})") from None
    return plate.mm / 25.4 * quality


def armour_vitals(armour: ArmourSpec, t: ConversionTables) -> int:
    """Vitals armour: mean of belt and main barbette/turret, or the sloped deck if better."""
    belt = plate_points(armour.belt, t)
    barbette = plate_points(armour.barbette, t)
    side = (belt + barbette) / 2 if armour.barbette is not None else belt
    deck = plate_points(armour.deck, t) * t.deck_slope_factor
    return round_half_up(max(side, deck))


def armour_upperworks(armour: ArmourSpec, t: ConversionTables) -> int:
    """Upperworks armour: the thickest of upper belt, casemates and secondary turrets."""
    parts = (armour.upper_belt, armour.casemate, armour.secondary_turret)
    return round_half_up(max(plate_points(p, t) for p in parts))


def upperworks_protection(armour: ArmourSpec, t: ConversionTables) -> Rating:
    """Upperworks protection rating from the summed points of the upperworks plates."""
    score = sum(
        plate_points(p, t) for p in (armour.upper_belt, armour.casemate, armour.secondary_turret)
    )
    if score >= t.upperworks_great_min:
        return Rating.GREAT
    if score >= t.upperworks_good_min:
        return Rating.GOOD
    if score >= t.upperworks_poor_min:
        return Rating.POOR
    return Rating.NONE


def armoured_deck(armour: ArmourSpec, t: ConversionTables) -> bool:
    """True when the deck is thick enough to count as armoured (BF6-SEC-03)."""
    return armour.deck is not None and armour.deck.mm >= t.armoured_deck_min_mm


def flood_protection(armour: ArmourSpec, ship_type: ShipType, t: ConversionTables) -> Rating:
    """Flood protection: good and great need well-protected ends (BF6-TORP-08); none for TBs."""
    if ship_type in t.no_flood_protection_types:
        return Rating.NONE
    score = plate_points(armour.ends, t) + t.deck_weight * plate_points(armour.deck, t)
    if score >= t.flood_great_min:
        return Rating.GREAT
    if score >= t.flood_good_min:
        return Rating.GOOD
    return Rating.POOR


def shell_size(calibre_mm: float, t: ConversionTables) -> int:
    """Shell size 0–7 for the flooding-occurrence ratio."""
    return int(_first_row(t.shell_size, calibre_mm))


def breech_of(calibre_mm: float, year: int, t: ConversionTables, given: str | None = None) -> str:
    """'QF', 'BL' or 'ML': the given value, or QF for light guns from their QF year on."""
    if given is not None:
        if given not in ("QF", "BL", "ML"):
            raise SpecError("breech", f"must be QF, BL or ML, not {given!r}")
        return given
    for max_mm, qf_from in t.breech_default:
        if calibre_mm <= max_mm:
            return "QF" if year >= qf_from else "BL"
    return "BL"


def rate_of_fire(calibre_mm: float, breech: str, year: int, t: ConversionTables) -> float:
    """ROF ½, 1 or 2 by calibre, breech and era (BF6-ROF-01..04)."""
    if breech == "ML":
        return t.rof_ml
    if breech == "QF":
        return t.rof_qf if calibre_mm <= t.rof_qf_max_mm else t.rof_qf_large
    for max_mm, modern_from, old, modern in t.rof_bl:
        if calibre_mm <= max_mm:
            return modern if year >= modern_from else old
    return t.rof_bl[-1][3] if year >= t.rof_bl[-1][1] else t.rof_bl[-1][2]


def reach_brackets(calibre_mm: float, t: ConversionTables) -> int:
    """How many of the four range brackets a gun can fire into (BF6-GUN-04)."""
    return int(_first_row(t.reach, calibre_mm))


def penetration(
    calibre_mm: float,
    length_cal: float,
    year: int,
    breech: str,
    t: ConversionTables,
) -> tuple[int | None, int | None, int | None, int | None]:
    """AP penetration in armour points at brackets 1–4; ``None`` beyond the gun's reach."""
    length = (length_cal / t.reference_length) ** t.length_exponent
    length = min(max(length, t.length_factor_min), t.length_factor_max)
    base = calibre_mm / 25.4 * length * _last_from(t.generation, year) * t.breech_factor[breech]
    reach = reach_brackets(calibre_mm, t)
    vals = [round_half_up(base * d) if i < reach else None for i, d in enumerate(t.decay)]
    return (vals[0], vals[1], vals[2], vals[3])


def propulsion_boxes(speed_kn: float) -> tuple[float, ...]:
    """Six propulsion boxes evenly spaced down from top speed: top, 5/6 … 1/6 (BF6-PROP-01)."""
    return tuple(round(speed_kn * k / 6, 1) for k in range(6, 0, -1))


def beam_pattern(guns_ahead: int) -> int:
    """Beam pattern from the guns (both sides) that bear dead ahead: 4→2, 2→1, 0 (BF6-BEAM-06)."""
    if guns_ahead >= 4:
        return 2
    if guns_ahead >= 2:
        return 1
    return 0


def position_compartment(position: str) -> Compartment | None:
    """The compartment a position's magazine floods into (AMB-30): forward, aft or its side's
    amidships; ``None`` for a centre-line mounting, which has no one side."""
    if position in _FORWARD:
        return Compartment.FORWARD
    if position in _AFT:
        return Compartment.AFT
    if position in _PORT_WINGS:
        return Compartment.PORT
    if position in _STARBOARD_WINGS:
        return Compartment.STARBOARD
    return None


def positions_of(location: Sequence[str]) -> tuple[str, ...]:
    """The lettered positions a gun group's places fill, in order."""
    out: list[str] = []
    for place in location:
        if place in PLACES:
            out.extend(PLACES[place])
        elif place in LETTERED_POSITIONS:
            out.append(place)
        else:
            known = ", ".join([*PLACES, BROADSIDE])
            raise SpecError("location", f"unknown place {place!r} (use {known}, or a letter)")
    return tuple(out)


def is_lozenge(mountings: Sequence[Mounting]) -> bool:
    """A lozenge main layout: main guns fore, aft and in a wing pair (BF6-MAIN-02)."""
    pos = {m.position for m in mountings if m.gun_class is GunClass.MAIN and m.position}
    wings = pos & (_PORT_WINGS | _STARBOARD_WINGS)
    return bool(pos & _FORWARD) and bool(pos & _AFT) and len(wings) >= 2


def gun_role(gun: GunSpec, largest_mm: float, t: ConversionTables) -> GunClass:
    """Main, secondary, tertiary or boat gun, by calibre against the ship's largest gun."""
    if gun.role is not None:
        return gun.role
    if gun.calibre_mm >= t.main_share * largest_mm or (
        gun.mounting in ("turret", "barbette") and gun.calibre_mm >= t.main_turret_min_mm
    ):
        return GunClass.MAIN
    if gun.calibre_mm >= t.secondary_min_mm:
        return GunClass.SECONDARY
    if gun.calibre_mm > t.boat_max_mm:
        return GunClass.TERTIARY
    return GunClass.BOAT


def torpedo_size(calibre_mm: float, t: ConversionTables) -> int:
    """Torpedo size for the flooding rule: 356 mm → 6, 381–457 mm → 8."""
    return int(_first_row(t.torpedo_size, calibre_mm))


def torpedo_range_m(year: int, t: ConversionTables) -> float:
    """Effective torpedo range (m) by era."""
    return float(_last_from(t.torpedo_range, year))


def turning_circle_m(length_m: float, t: ConversionTables) -> float:
    """Tactical diameter (m) by length (REF-BF6-13)."""
    return float(_first_row(t.turning_circle, length_m))


def stability(freeboard: str, top_heavy: bool) -> str:
    """'poor' for low-freeboard or top-heavy designs, else 'good'."""
    return "poor" if freeboard == "low" or top_heavy else "good"


def seaway(ship_type: ShipType, freeboard: str, t: ConversionTables) -> str:
    """'poor' for low freeboard, coast-defence ships and torpedo boats, else 'normal'."""
    return "poor" if freeboard == "low" or ship_type in t.poor_seaway_types else "normal"


def searchlights(size: int, t: ConversionTables) -> int:
    """Searchlights by size."""
    return int(_first_row(t.searchlights, size))


# -- the whole class -------------------------------------------------------------------------

_KEY_OF_CLASS = {GunClass.SECONDARY: "sec", GunClass.TERTIARY: "ter", GunClass.BOAT: "boat"}


def _unique(key: str, used: set[str]) -> str:
    out, n = key, 2
    while out in used:
        out, n = f"{key}{n}", n + 1
    used.add(out)
    return out


def _mountings(spec: ShipSpec, t: ConversionTables) -> tuple[Mounting, ...]:
    if not spec.guns:
        return ()
    largest = max(g.calibre_mm for g in spec.guns)
    used: set[str] = set()
    out: list[Mounting] = []
    for i, gun in enumerate(spec.guns):
        where = f"guns[{i}]"
        if gun.mounting not in GUN_MOUNTINGS:
            known = ", ".join(sorted(GUN_MOUNTINGS))
            raise SpecError(f"{where}.mounting", f"unknown mounting {gun.mounting!r} ({known})")
        year = gun.year if gun.year is not None else spec.year
        try:
            breech = breech_of(gun.calibre_mm, year, t, gun.breech)
        except SpecError as exc:
            raise SpecError(f"{where}.breech", exc.reason) from None
        length = gun.length_cal if gun.length_cal is not None else t.default_length_cal
        role = gun_role(gun, largest, t)
        base = Mounting(
            key="",
            gun_class=role,
            calibre_cm=gun.calibre_mm / 10,
            rof=rate_of_fire(gun.calibre_mm, breech, year, t),
            penetration=penetration(gun.calibre_mm, length, year, breech, t),
            guns=gun.count,
            shell_size=shell_size(gun.calibre_mm, t),
        )
        label = f"{gun.calibre_mm:g} mm/{length:g} {breech} {gun.mounting}"
        if gun.location == (BROADSIDE,):
            if role is GunClass.MAIN:
                raise SpecError(f"{where}.location", "main guns need lettered positions")
            if gun.count % 2:
                raise SpecError(
                    f"{where}.count",
                    f"a broadside battery needs an even count (half each side), got {gun.count};"
                    " put the odd gun at 'stem', 'stern' or 'centreline'",
                )
            if role is GunClass.BOAT:
                pattern = beam_pattern(gun.ahead or 0)
            elif gun.ahead is not None:
                pattern = beam_pattern(gun.ahead)
            else:
                pattern = (
                    1 if gun.count >= t.pattern1_min_guns and role is GunClass.SECONDARY else 0
                )
            out.append(
                replace(
                    base,
                    key=_unique(_KEY_OF_CLASS[role], used),
                    beam_pattern=pattern,
                    label=f"{gun.count}×{label}",
                )
            )
            continue
        try:
            positions = positions_of(gun.location)
        except SpecError as exc:
            raise SpecError(f"{where}.location", exc.reason) from None
        if not positions or gun.count % len(positions):
            raise SpecError(
                f"{where}.count",
                f"{gun.count} guns do not split evenly over positions {', '.join(positions)}",
            )
        per = gun.count // len(positions)
        for pos in positions:
            out.append(
                replace(
                    base,
                    key=_unique(pos, used),
                    guns=per,
                    position=pos,
                    compartment=position_compartment(pos),
                    label=f"{per}×{label}",
                )
            )
    return tuple(out)


def _torpedoes(spec: ShipSpec, t: ConversionTables) -> tuple[TorpedoMount, ...]:
    used: set[str] = set()
    out: list[TorpedoMount] = []
    for i, tube in enumerate(spec.torpedoes):
        if tube.location not in TORPEDO_PLACES:
            known = ", ".join(sorted(TORPEDO_PLACES))
            raise SpecError(f"torpedoes[{i}].location", f"unknown {tube.location!r} ({known})")
        if tube.location == "beam" and tube.count % 2:
            raise SpecError(f"torpedoes[{i}].count", "beam tubes need an even count")
        year = tube.year if tube.year is not None else spec.year
        out.append(
            TorpedoMount(
                key=_unique(tube.location, used),
                tubes=tube.count,
                position=tube.location,
                size=torpedo_size(tube.calibre_mm, t),
                range_m=torpedo_range_m(year, t),
            )
        )
    return tuple(out)


def convert(spec: ShipSpec, tables: ConversionTables | None = None) -> ShipClass:
    """The Ship Values of a class, derived from its specifications alone (REF-BF6-17).

    Raises :class:`SpecError` naming the bad field; :mod:`shipdb` adds the file and class.
    """
    t = tables or load_conversion()
    if spec.shallow_torpedoes and spec.type not in SKIMMER_TYPES:
        raise SpecError("shallow_torpedoes", "only destroyers, TBs and TGBs carry them")
    for name in ("displacement_t", "length_m", "beam_m", "speed_kn"):
        if getattr(spec, name) <= 0:
            raise SpecError(name, "must be positive")
    for comp in ARMOUR_COMPONENTS:
        plate_points(getattr(spec.armour, comp), t)  # validates the armour kind
    size = ship_size(spec.displacement_t, t)
    mountings = _mountings(spec, t)
    return ShipClass(
        name=spec.name,
        navy=spec.navy,
        type=spec.type,
        year=spec.year,
        size=size,
        armour_vitals=armour_vitals(spec.armour, t),
        armour_upperworks=armour_upperworks(spec.armour, t),
        upperworks_protection=upperworks_protection(spec.armour, t),
        flood_protection=flood_protection(spec.armour, spec.type, t),
        stability=stability(spec.freeboard, spec.top_heavy),
        seaway=seaway(spec.type, spec.freeboard, t),
        armoured_deck=armoured_deck(spec.armour, t),
        propulsion_knots=propulsion_boxes(spec.speed_kn),
        mountings=mountings,
        torpedoes=_torpedoes(spec, t),
        searchlights=spec.searchlights if spec.searchlights is not None else searchlights(size, t),
        length_m=spec.length_m,
        beam_m=spec.beam_m,
        turning_circle_m=turning_circle_m(spec.length_m, t),
        lozenge=is_lozenge(mountings),
        shallow_torpedoes=spec.shallow_torpedoes,
        sources=spec.sources,
        notes=spec.notes,
        ships=spec.ships,
    )
