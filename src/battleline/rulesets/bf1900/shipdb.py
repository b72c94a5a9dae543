"""The ship database: real classes of 1880–1905, from their specifications (REF-BF6-17).

Each navy has one TOML file under ``data/ships/``; each ``[[class]]`` there holds the historical
specifications a reference work gives, its sources, the names of its ships, and optionally an
``[class.overrides]`` table of hand-set values. One entry becomes a class in
:mod:`battleline.rulesets.bf1900.ship_entry`; this module loads the files, indexes classes,
aliases and ship names, and finds a class by any of them.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from battleline.errors import RulesDataError, UnknownNameError
from battleline.rulesets.bf1900.conversion import ConversionTables, load_conversion
from battleline.rulesets.bf1900.ship import ShipClass
from battleline.rulesets.bf1900.ship_entry import EntryFields, ship_class_from_spec
from battleline.rulesets.tomldata import read_toml_file

__all__ = [
    "AmbiguousShipError",
    "ShipDatabase",
    "class_of_ship",
    "get_ship_class",
    "load_database",
    "load_ship_classes",
]


def _norm(name: str) -> str:
    """Lower-case, accents and punctuation removed: 'Cristóbal Colón' → 'cristobalcolon'."""
    text = unicodedata.normalize("NFKD", name)
    return "".join(c for c in text if c.isalnum()).lower()


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
            f = EntryFields(name, cls.name, entry)
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
