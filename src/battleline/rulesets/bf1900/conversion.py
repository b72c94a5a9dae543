"""Historical specifications → Battlefleet 1900 (1D6) ship values (REF-BF6-17).

The publisher's Ship Values listings are lost; this module rebuilds them from the figures any
reference work gives (displacement, dimensions, guns, armour, speed, tubes). Every number it uses
comes from ``data/conversion.toml`` (marked reconstructed); the formulas are described, with worked
examples, in ``docs/ship-values.md``. All functions are pure.

The parts: :mod:`~battleline.rulesets.bf1900.specification` (what a reference work gives),
:mod:`~battleline.rulesets.bf1900.conversion_tables` (the numbers, read and checked) and
:mod:`~battleline.rulesets.bf1900.conversion_formulas` (one formula a ship value); this module
puts a whole class together (:func:`convert`) and keeps every name it held before.
"""

from __future__ import annotations

from dataclasses import replace

from battleline.rulesets.bf1900.conversion_formulas import (
    BROADSIDE,
    PLACES,
    armour_upperworks,
    armour_vitals,
    armoured_deck,
    beam_pattern,
    breech_of,
    flood_protection,
    gun_role,
    is_lozenge,
    penetration,
    plate_points,
    position_compartment,
    positions_of,
    propulsion_boxes,
    rate_of_fire,
    reach_brackets,
    round_half_up,
    searchlights,
    seaway,
    shell_size,
    ship_size,
    stability,
    torpedo_range_m,
    torpedo_size,
    turning_circle_m,
    upperworks_protection,
)
from battleline.rulesets.bf1900.conversion_tables import ConversionTables, load_conversion
from battleline.rulesets.bf1900.ship import (
    SKIMMER_TYPES,
    GunClass,
    Mounting,
    ShipClass,
    TorpedoMount,
)
from battleline.rulesets.bf1900.specification import (
    ArmourSpec,
    GunSpec,
    Plate,
    ShipSpec,
    SpecError,
    TorpedoSpec,
)

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
TORPEDO_PLACES = frozenset({"bow", "stern", "centreline", "port", "starboard", "beam"})


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


# Every name this module held before it was split stays importable from here.
__all__ = [
    "ARMOUR_COMPONENTS",
    "BROADSIDE",
    "GUN_MOUNTINGS",
    "PLACES",
    "TORPEDO_PLACES",
    "ArmourSpec",
    "ConversionTables",
    "GunSpec",
    "Plate",
    "ShipSpec",
    "SpecError",
    "TorpedoSpec",
    "armour_upperworks",
    "armour_vitals",
    "armoured_deck",
    "beam_pattern",
    "breech_of",
    "convert",
    "flood_protection",
    "gun_role",
    "is_lozenge",
    "load_conversion",
    "penetration",
    "plate_points",
    "position_compartment",
    "positions_of",
    "propulsion_boxes",
    "rate_of_fire",
    "reach_brackets",
    "round_half_up",
    "searchlights",
    "seaway",
    "shell_size",
    "ship_size",
    "stability",
    "torpedo_range_m",
    "torpedo_size",
    "turning_circle_m",
    "upperworks_protection",
]
