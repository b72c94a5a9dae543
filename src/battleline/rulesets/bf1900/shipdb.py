"""The ship database: real classes of 1880–1905, from their specifications (REF-BF6-17).

Each navy has one TOML file under ``data/ships/``; each ``[[class]]`` there holds the historical
specifications a reference work gives, its sources, the names of its ships, and optionally an
``[class.overrides]`` table of hand-set values. :func:`ship_class_from_spec` converts one entry
with :func:`battleline.rulesets.bf1900.conversion.convert`, then applies the overrides and records
their names in ``ShipClass.overrides``.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from battleline.errors import RulesDataError, UnknownNameError
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
from battleline.rulesets.tomldata import read_toml_file

__all__ = [
    "AmbiguousShipError",
    "ShipDatabase",
    "class_of_ship",
    "get_ship_class",
    "load_database",
    "load_ship_classes",
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


def _norm(name: str) -> str:
    """Lower-case, accents and punctuation removed: 'Cristóbal Colón' → 'cristobalcolon'."""
    text = unicodedata.normalize("NFKD", name)
    return "".join(c for c in text if c.isalnum()).lower()


# -- parsing a class entry -------------------------------------------------------------------


class _Fields:
    """Typed reads from one raw class entry; every failure names file, class and field."""

    def __init__(self, file: str, cls: str, raw: Mapping[str, Any]) -> None:
        self.file, self.cls, self.raw = file, cls, raw

    def fail(self, field: str, reason: str) -> RulesDataError:
        return RulesDataError(self.file, f"class {self.cls!r}", field, reason)

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


def _plate(f: _Fields, comp: str, value: Any, kind: str) -> Plate:
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
    f = _Fields(source_name, name, raw)
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
    for i, g in enumerate(guns_raw):
        where = f"guns[{i}]"
        if not isinstance(g, dict):
            raise f.fail(where, "each gun group must be a table")
        unknown = set(g) - _GUN_KEYS
        if unknown:
            raise f.fail(f"{where}.{sorted(unknown)[0]}", "unknown field")
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
    for i, tr in enumerate(tubes_raw):
        where = f"torpedoes[{i}]"
        if not isinstance(tr, dict):
            raise f.fail(where, "each tube group must be a table")
        unknown = set(tr) - _TORPEDO_KEYS
        if unknown:
            raise f.fail(f"{where}.{sorted(unknown)[0]}", "unknown field")
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


def _apply_overrides(f: _Fields, cls: ShipClass, raw: Any) -> ShipClass:
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
        cls = _apply_overrides(_Fields(source_name, parsed.name, spec), cls, spec["overrides"])
    return cls


# -- the database --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShipDatabase:
    """All classes by name, with lookup indexes for aliases and ship names."""

    classes: Mapping[str, ShipClass]
    aliases: Mapping[str, str]  # normalised alias or class name -> class name
    ship_index: Mapping[str, tuple[str, ...]]  # normalised ship name -> class names
    files: Mapping[str, str]  # class name -> file it came from

    def _suggest(self, name: str) -> list[str]:
        names = list(
            dict.fromkeys([*self.classes, *(s for c in self.classes.values() for s in c.ships)])
        )
        return difflib.get_close_matches(name, names, n=5, cutoff=0.5) or sorted(self.classes)

    def get(self, name: str) -> ShipClass:
        """A class by class name, 'X class', alias, or the name of one of its ships."""
        key = _norm(name)
        if key.endswith("class") and key[:-5] in self.aliases:
            key = key[:-5]
        cls_name = self.aliases.get(key)
        if cls_name is None and len(self.ship_index.get(key, ())) == 1:
            cls_name = self.ship_index[key][0]
        if cls_name is None:
            raise UnknownNameError("ship class", name, self._suggest(name))
        return self.classes[cls_name]

    def class_of_ship(self, ship: str, navy: str | None = None) -> ShipClass:
        """The class of a named ship (ship names first, then class names and aliases).

        A name shared by ships of two navies (HMS Diana, the Russian Diana) needs ``navy``.
        """
        found = [
            self.classes[c]
            for c in self.ship_index.get(_norm(ship), ())
            if navy is None or _norm(self.classes[c].navy) == _norm(navy)
        ]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise AmbiguousShipError(ship, [f"{c.name} ({c.navy})" for c in found])
        try:
            cls = self.get(ship)
        except UnknownNameError:
            raise UnknownNameError("ship", ship, self._suggest(ship)) from None
        if navy is not None and _norm(cls.navy) != _norm(navy):
            raise UnknownNameError("ship", f"{ship} ({navy})", self._suggest(ship))
        return cls


class AmbiguousShipError(UnknownNameError):
    """A ship name that belongs to ships of more than one navy; name the navy too."""

    def __init__(self, ship: str, candidates: list[str]) -> None:
        super().__init__("ship", ship, candidates)
        self.args = (
            f"ship name {ship!r} is ambiguous: it names ships of {', '.join(candidates)};"
            " give the navy as well",
        )

    def __str__(self) -> str:
        return str(self.args[0])


def _ship_files(path: str | Path | None) -> list[tuple[str, Traversable | Path]]:
    if path is None:
        root = resources.files("battleline.rulesets.bf1900").joinpath("data", "ships")
        return sorted(
            ((f"ships/{p.name}", p) for p in root.iterdir() if p.name.endswith(".toml")),
            key=lambda x: x[0],
        )
    p = Path(path)
    if p.is_dir():
        return [(str(q), q) for q in sorted(p.glob("*.toml"))]
    if not p.exists():
        raise RulesDataError(str(p), "(file)", "", "no such file or directory")
    return [(str(p), p)]


def _build(
    files: Iterable[tuple[str, Traversable | Path]], tables: ConversionTables
) -> ShipDatabase:
    classes: dict[str, ShipClass] = {}
    aliases: dict[str, str] = {}
    ship_index: dict[str, tuple[str, ...]] = {}
    origin: dict[str, str] = {}
    for name, res in files:
        raw = read_toml_file(name, res)
        unknown = set(raw) - {"navy", "class", "notes", "reconstructed"}
        if unknown:
            raise RulesDataError(name, "(file)", sorted(unknown)[0], "unknown top-level key")
        navy = raw.get("navy", "")
        if not isinstance(navy, str):
            raise RulesDataError(name, "(file)", "navy", "must be text")
        entries = raw.get("class", [])
        if not isinstance(entries, list):
            raise RulesDataError(name, "class", "", "use [[class]] tables")
        for entry in entries:
            if not isinstance(entry, dict):
                raise RulesDataError(name, "class", "", "each [[class]] must be a table")
            cls = ship_class_from_spec(entry, name, tables, navy)
            f = _Fields(name, cls.name, entry)
            if cls.name in classes:
                raise f.fail("name", f"class defined twice (also in {origin[cls.name]})")
            classes[cls.name] = cls
            origin[cls.name] = name
            for alias in (cls.name, *f.get("aliases", "strs", ())):
                key = _norm(alias)
                if aliases.get(key, cls.name) != cls.name:
                    raise f.fail("aliases", f"{alias!r} already names class {aliases[key]!r}")
                aliases[key] = cls.name
            for ship in cls.ships:
                key = _norm(ship)
                for other in ship_index.get(key, ()):
                    if classes[other].navy == cls.navy:
                        raise f.fail("ships", f"ship {ship!r} is already in class {other!r}")
                ship_index[key] = (*ship_index.get(key, ()), cls.name)
    return ShipDatabase(classes, aliases, ship_index, origin)


@lru_cache(maxsize=1)
def _default_database() -> ShipDatabase:
    return _build(_ship_files(None), load_conversion())


def load_database(
    path: str | Path | None = None, tables: ConversionTables | None = None
) -> ShipDatabase:
    """The built-in database, or one from a user file or directory of navy files."""
    if path is None and tables is None:
        return _default_database()
    return _build(_ship_files(path), tables or load_conversion())


def load_ship_classes(path: str | Path | None = None) -> dict[str, ShipClass]:
    """All classes by name, from the built-in navy files or a user file/directory."""
    return dict(load_database(path).classes)


def get_ship_class(name: str, path: str | Path | None = None) -> ShipClass:
    """A class by name, case-insensitively; aliases and ship names work too ('Mikasa',
    'Oslyabya'). ``UnknownNameError`` suggests close names."""
    return load_database(path).get(name)


def class_of_ship(ship: str, navy: str | None = None, path: str | Path | None = None) -> ShipClass:
    """The class a named ship belongs to, for scenarios ('Oslyabya' → Peresviet); ``navy``
    settles names two navies share."""
    return load_database(path).class_of_ship(ship, navy)
