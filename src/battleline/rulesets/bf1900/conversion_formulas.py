"""The formulas that turn a historical specification into Battlefleet 1900 (1D6) ship values
(REF-BF6-17): size, armour, protection, guns, positions, torpedoes and handling, each a pure
function of its inputs and the conversion tables (``docs/ship-values.md``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from battleline.rulesets.bf1900.conversion_tables import ConversionTables
from battleline.rulesets.bf1900.ship import (
    LETTERED_POSITIONS,
    Compartment,
    GunClass,
    Mounting,
    Rating,
    ShipType,
)
from battleline.rulesets.bf1900.specification import ArmourSpec, GunSpec, Plate, SpecError

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
_FORWARD = frozenset({"A", "B", "C", "stem"})
_AFT = frozenset({"Z", "X", "Y", "stern"})
_PORT_WINGS = frozenset({"D", "M", "P", "S", "V"})
_STARBOARD_WINGS = frozenset({"E", "O", "R", "U", "W"})
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
