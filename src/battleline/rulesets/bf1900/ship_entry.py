"""One ``[[class]]`` entry of a ship file: its specifications read and checked, converted into a
ship class (REF-BF6-17), and its hand-set overrides applied.

:func:`ship_class_from_spec` converts one entry with
:func:`battleline.rulesets.bf1900.conversion.convert`, then applies the ``[class.overrides]``
table and records their names in ``ShipClass.overrides``. Every failure names the file, the
class and the field (:class:`EntryFields`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.conversion import (
    ARMOUR_COMPONENTS,
    BROADSIDE,
    ArmourSpec,
    ConversionTables,
    GunSpec,
    Plate,
    ShipSpec,
    SpecError,
    TorpedoSpec,
    convert,
    load_conversion,
)
from battleline.rulesets.bf1900.ship import GunClass, Mounting, Rating, ShipClass, ShipType

__all__ = [
    "CLASS_OVERRIDES",
    "MOUNTING_OVERRIDES",
    "EntryFields",
    "parse_spec",
    "ship_class_from_spec",
]

#: Class values a ``[class.overrides]`` table may set, with their expected kind.
CLASS_OVERRIDES: dict[str, str] = {
    "size": "int",
    "armour_vitals": "int",
    "armour_upperworks": "int",
    "upperworks_protection": "rating",
    "flood_protection": "rating",
    "stability": "stability",
    "seaway": "seaway",
    "armoured_deck": "bool",
    "propulsion_knots": "knots",
    "searchlights": "int",
    "turning_circle_m": "float",
    "lozenge": "bool",
}
#: Mounting values an override may set: ``[class.overrides.mountings.A]``.
MOUNTING_OVERRIDES: dict[str, str] = {
    "rof": "rof",
    "penetration": "penetration",
    "shell_size": "int",
    "beam_pattern": "pattern",
    "label": "str",
}


class EntryFields:
    """Typed reads from one raw class entry; every failure names file, class and field."""

    def __init__(self, file: str, cls: str, raw: Mapping[str, Any]) -> None:
        self.file, self.cls, self.raw = file, cls, raw

    def fail(self, field: str, reason: str) -> RulesDataError:
        return RulesDataError(self.file, f"class {self.cls!r}", field, reason)

    def groups(
        self, field: str, items: list[Any], keys: frozenset[str], what: str
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """Each entry of the list ``field`` (``guns``, ``torpedoes``) with where it stands
        (``guns[0]``): it must be a table of known ``keys`` (``what`` names it in errors)."""
        for i, group in enumerate(items):
            where = f"{field}[{i}]"
            if not isinstance(group, dict):
                raise self.fail(where, f"each {what} must be a table")
            unknown = set(group) - keys
            if unknown:
                raise self.fail(f"{where}.{sorted(unknown)[0]}", "unknown field")
            yield where, group

    def get(
        self,
        name: str,
        kind: str,
        default: Any = ...,
        raw: Mapping[str, Any] | None = None,
        where: str | None = None,
    ) -> Any:
        src = self.raw if raw is None else raw
        field = where or name
        if name not in src:
            if default is ...:
                raise self.fail(field, "missing")
            return default
        return self.check(field, src[name], kind)

    def check(self, field: str, value: Any, kind: str) -> Any:
        ok: bool
        if kind == "str":
            ok = isinstance(value, str) and bool(value.strip())
        elif kind == "int":
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        elif kind == "float":
            ok = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
            value = float(value) if ok else value
        elif kind == "bool":
            ok = isinstance(value, bool)
        elif kind == "strs":
            ok = isinstance(value, list) and all(isinstance(v, str) and v for v in value)
            value = tuple(value) if ok else value
        elif kind == "rating":
            ok = isinstance(value, str) and value in {r.value for r in Rating}
            value = Rating(value) if ok else value
        elif kind == "stability":
            ok = value in ("good", "poor")
        elif kind == "seaway":
            ok = value in ("normal", "poor")
        elif kind == "knots":
            ok = (
                isinstance(value, list)
                and len(value) == 6
                and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
                and value == sorted(value, reverse=True)
            )
            value = tuple(float(v) for v in value) if ok else value
        elif kind == "rof":
            ok = not isinstance(value, bool) and value in (0.5, 1, 2)
            value = float(value) if ok else value
        elif kind == "pattern":
            ok = value in (0, 1, 2) and not isinstance(value, bool)
        elif kind == "penetration":
            ok = (
                isinstance(value, list)
                and len(value) == 4
                and all((isinstance(v, int) and v >= 0) or v == "-" for v in value)
            )
            value = tuple(None if v == "-" else v for v in value) if ok else value
        else:  # pragma: no cover - programming error
            raise AssertionError(kind)
        if not ok:
            raise self.fail(field, f"{value!r} is not a valid {_KIND_TEXT[kind]}")
        return value


_KIND_TEXT = {
    "str": "non-empty text",
    "int": "whole number ≥ 0",
    "float": "number ≥ 0",
    "bool": "true/false",
    "strs": "list of names",
    "rating": "rating (great, good, poor, none)",
    "stability": "stability (good, poor)",
    "seaway": "seaway (normal, poor)",
    "knots": "list of 6 speeds, highest first",
    "rof": "ROF (0.5, 1 or 2)",
    "pattern": "beam pattern (0, 1 or 2)",
    "penetration": 'penetration list of 4 (numbers, or "-" beyond reach)',
}

_CLASS_KEYS = frozenset(
    {
        "name", "type", "year", "ships", "aliases", "sources", "notes", "displacement_t",
        "length_m", "beam_m", "speed_kn", "armour_type", "deck_type", "armour", "guns",
        "torpedoes", "freeboard", "top_heavy", "shallow_torpedoes", "searchlights", "overrides",
        "navy",
    }
)  # fmt: skip
_GUN_KEYS = frozenset(
    {"calibre_mm", "count", "mounting", "location", "length_cal", "year", "breech", "role", "ahead"}
)
_TORPEDO_KEYS = frozenset({"count", "calibre_mm", "location", "year"})


def _plate(f: EntryFields, comp: str, value: Any, kind: str) -> Plate:
    field = f"armour.{comp}"
    if isinstance(value, dict):
        unknown = set(value) - {"mm", "kind"}
        if unknown:
            raise f.fail(field, f"unknown keys {sorted(unknown)} (use mm, kind)")
        mm = f.get("mm", "float", raw=value, where=f"{field}.mm")
        kind = f.get("kind", "str", kind, raw=value, where=f"{field}.kind").lower()
        return Plate(mm, kind)
    return Plate(f.check(field, value, "float"), kind)


def parse_spec(raw: Mapping[str, Any], source_name: str, navy: str = "") -> ShipSpec:
    """One ``[[class]]`` entry as a :class:`ShipSpec`; ``RulesDataError`` names file/class/field."""
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise RulesDataError(source_name, "class", "name", "every class needs a name")
    f = EntryFields(source_name, name, raw)
    unknown = set(raw) - _CLASS_KEYS
    if unknown:
        raise f.fail(", ".join(sorted(unknown)), "unknown field")
    type_text = f.get("type", "str")
    try:
        ship_type = ShipType(type_text)
    except ValueError:
        known = ", ".join(t.value for t in ShipType)
        raise f.fail("type", f"unknown ship type {type_text!r} (use {known})") from None
    navy = f.get("navy", "str", navy or "")
    if not navy:
        raise f.fail("navy", "missing (set it at the top of the file)")
    armour_kind = f.get("armour_type", "str", "steel").lower()
    deck_kind = f.get("deck_type", "str", "steel").lower()
    armour_raw = raw.get("armour", {})
    if not isinstance(armour_raw, dict):
        raise f.fail("armour", "must be a table of components in mm")
    bad = set(armour_raw) - set(ARMOUR_COMPONENTS) - {"conning_tower"}
    if bad:
        raise f.fail(f"armour.{sorted(bad)[0]}", f"unknown component (use {ARMOUR_COMPONENTS})")
    plates = {
        comp: _plate(f, comp, armour_raw[comp], deck_kind if comp == "deck" else armour_kind)
        for comp in ARMOUR_COMPONENTS
        if armour_raw.get(comp)
    }
    guns_raw = raw.get("guns")
    if not isinstance(guns_raw, list) or not guns_raw:
        raise f.fail("guns", "needs a list of gun groups")
    guns: list[GunSpec] = []
    for where, g in f.groups("guns", guns_raw, _GUN_KEYS, "gun group"):
        loc = g.get("location")
        if isinstance(loc, str):
            loc = [loc]
        if not isinstance(loc, list) or not loc or not all(isinstance(x, str) for x in loc):
            raise f.fail(f"{where}.location", f"needs a place or list of places, got {loc!r}")
        if BROADSIDE in loc and len(loc) > 1:
            raise f.fail(f"{where}.location", "'broadside' cannot be combined with other places")
        role = f.get("role", "str", None, raw=g, where=f"{where}.role")
        if role is not None and role not in {c.value for c in GunClass}:
            raise f.fail(f"{where}.role", f"unknown role {role!r}")
        count = f.get("count", "int", raw=g, where=f"{where}.count")
        if count < 1:
            raise f.fail(f"{where}.count", "must be at least 1")
        guns.append(
            GunSpec(
                calibre_mm=f.get("calibre_mm", "float", raw=g, where=f"{where}.calibre_mm"),
                count=count,
                mounting=f.get("mounting", "str", raw=g, where=f"{where}.mounting"),
                location=tuple(loc),
                length_cal=f.get("length_cal", "float", None, raw=g, where=f"{where}.length_cal"),
                year=f.get("year", "int", None, raw=g, where=f"{where}.year"),
                breech=f.get("breech", "str", None, raw=g, where=f"{where}.breech"),
                role=GunClass(role) if role is not None else None,
                ahead=f.get("ahead", "int", None, raw=g, where=f"{where}.ahead"),
            )
        )
        if guns[-1].calibre_mm <= 0:
            raise f.fail(f"{where}.calibre_mm", "must be positive")
    tubes: list[TorpedoSpec] = []
    tubes_raw = raw.get("torpedoes", [])
    if not isinstance(tubes_raw, list):
        raise f.fail("torpedoes", "needs a list of tube groups")
    for where, tr in f.groups("torpedoes", tubes_raw, _TORPEDO_KEYS, "tube group"):
        tubes.append(
            TorpedoSpec(
                count=f.get("count", "int", raw=tr, where=f"{where}.count"),
                calibre_mm=f.get("calibre_mm", "float", raw=tr, where=f"{where}.calibre_mm"),
                location=f.get("location", "str", raw=tr, where=f"{where}.location"),
                year=f.get("year", "int", None, raw=tr, where=f"{where}.year"),
            )
        )
    freeboard = f.get("freeboard", "str", "normal")
    if freeboard not in ("low", "normal", "high"):
        raise f.fail("freeboard", f"must be low, normal or high, not {freeboard!r}")
    year = f.get("year", "int")
    if not 1850 <= year <= 1920:
        raise f.fail("year", f"{year} is outside 1850-1920")
    return ShipSpec(
        name=name,
        navy=navy,
        type=ship_type,
        year=year,
        displacement_t=f.get("displacement_t", "float"),
        length_m=f.get("length_m", "float"),
        beam_m=f.get("beam_m", "float"),
        speed_kn=f.get("speed_kn", "float"),
        guns=tuple(guns),
        armour=ArmourSpec(**plates),
        torpedoes=tuple(tubes),
        freeboard=freeboard,
        top_heavy=f.get("top_heavy", "bool", False),
        shallow_torpedoes=f.get("shallow_torpedoes", "bool", False),
        searchlights=f.get("searchlights", "int", None),
        ships=f.get("ships", "strs", ()),
        sources=f.get("sources", "strs", ()),
        notes=f.get("notes", "str", "") if raw.get("notes") else "",
    )


def _apply_overrides(f: EntryFields, cls: ShipClass, raw: Any) -> ShipClass:
    """Apply ``[class.overrides]`` and record each overridden name (hand-set values)."""
    if not isinstance(raw, dict):
        raise f.fail("overrides", "must be a table")
    names: list[str] = []
    changes: dict[str, Any] = {}
    reason = ""
    for key, value in raw.items():
        if key == "reason":
            reason = f.check("overrides.reason", value, "str")
        elif key == "mountings":
            continue
        elif key in CLASS_OVERRIDES:
            changes[key] = f.check(f"overrides.{key}", value, CLASS_OVERRIDES[key])
            names.append(key)
        else:
            known = ", ".join([*CLASS_OVERRIDES, "mountings", "reason"])
            raise f.fail(f"overrides.{key}", f"cannot be overridden (use {known})")
    mounts = raw.get("mountings", {})
    if not isinstance(mounts, dict):
        raise f.fail("overrides.mountings", "must be a table of mounting keys")
    by_key = {m.key: m for m in cls.mountings}
    for mkey, mraw in mounts.items():
        where = f"overrides.mountings.{mkey}"
        if mkey not in by_key:
            raise f.fail(where, f"no such mounting (the class has {', '.join(by_key)})")
        if not isinstance(mraw, dict):
            raise f.fail(where, "must be a table")
        m_changes: dict[str, Any] = {}
        for fld, value in mraw.items():
            if fld not in MOUNTING_OVERRIDES:
                raise f.fail(
                    f"{where}.{fld}", f"cannot be overridden (use {list(MOUNTING_OVERRIDES)})"
                )
            m_changes[fld] = f.check(f"{where}.{fld}", value, MOUNTING_OVERRIDES[fld])
            names.append(f"mountings.{mkey}.{fld}")
        if "beam_pattern" in m_changes and by_key[mkey].beam_pattern is None:
            raise f.fail(f"{where}.beam_pattern", "a lettered position has no beam pattern")
        by_key[mkey] = replace(by_key[mkey], **m_changes)
    mountings: tuple[Mounting, ...] = tuple(by_key[m.key] for m in cls.mountings)
    notes = cls.notes
    if reason:
        notes = f"{notes} Hand-set values: {reason}".strip()
    return replace(cls, mountings=mountings, overrides=tuple(names), notes=notes, **changes)


def ship_class_from_spec(
    spec: Mapping[str, Any],
    source_name: str,
    tables: ConversionTables | None = None,
    navy: str = "",
) -> ShipClass:
    """Convert one raw ``[[class]]`` entry (a dict read from TOML) into its Ship Values.

    Raises :class:`RulesDataError` naming ``source_name``, the class and the bad field.
    """
    parsed = parse_spec(spec, source_name, navy)
    try:
        cls = convert(parsed, tables or load_conversion())
    except SpecError as exc:
        raise RulesDataError(source_name, f"class {parsed.name!r}", exc.field, exc.reason) from None
    if "overrides" in spec:
        cls = _apply_overrides(EntryFields(source_name, parsed.name, spec), cls, spec["overrides"])
    return cls
