"""Ship factors in Annex A notation (DBA-TYPE-01..08, REF-DBA-02) and the Annex A loader.

A ship's factors are written as in Annex A:

* attack factors (AF) per range band, close / normal / long / extreme; ``"x"`` means the ship
  cannot fire at that band (the extreme "x" costs 1 PV, DBA-PV-01);
* defence factor (DF) 0..4 with ``"+"`` for special protection or ``"-"`` for inferior protection
  (DBA-TYPE-06);
* speed in bases with ``"+"`` (the "2+" extra free move, DBA-MOV-01) or ``"*"`` (pays a NIP for its
  second move, DBA-TYPE-01);
* torpedo factor 0, 1 or 2 (DBA-TORP-01/02);
* type flags: bad sea boat (DBA-TYPE-04), broadside ship (DBA-TYPE-05), ram (DBA-TYPE-07), open
  barbettes (DBA-OB), nets (DBA-NET), monster guns (DBA-MG), main armament layout (lozenge, en
  échelon, all forward; DBA-BSA-01, DBA-TGT-03), no secondaries (DBA-TGT-04).

:func:`load_annex_a` reads the packaged reconstructed Annex A (or a user's file) into frozen
:class:`ShipFactors`; anything malformed raises :class:`~battleline.errors.RulesDataError`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any

from battleline.errors import RulesDataError, UnknownNameError
from battleline.rulesets.dba.datafile import packaged_bytes, parse_data, user_file

ANNEX_FILE = "annex_a.toml"


class RangeBand(StrEnum):
    """The four DBSA range bands (REF-DBA-01), nearest first."""

    CLOSE = "close"
    NORMAL = "normal"
    LONG = "long"
    EXTREME = "extreme"


BANDS: tuple[RangeBand, ...] = tuple(RangeBand)


class ShipType(StrEnum):
    """Ship types of DBSA plus the amendments' TGB and 2nd Class TB (DBA-TYPE-02/03)."""

    BATTLESHIP = "battleship"
    COAST_DEFENCE = "coast_defence"
    CRUISER_1 = "cruiser_1"
    CRUISER_2 = "cruiser_2"
    CRUISER_3 = "cruiser_3"
    SCOUT_CRUISER = "scout_cruiser"
    TGB = "tgb"
    TBD = "tbd"
    TB_1 = "tb_1"
    TB_2 = "tb_2"  # DBA-TYPE-03: coast defence or carried aboard larger ships
    SUBMARINE = "submarine"
    TB_CARRIER = "tb_carrier"
    MERCHANT_AUXILIARY = "merchant_auxiliary"


#: Small craft whose guns only hurt DF 1 or 0 targets (DBA-SCG-01).
SMALL_CALIBRE: frozenset[ShipType] = frozenset(
    {ShipType.SCOUT_CRUISER, ShipType.TGB, ShipType.TBD, ShipType.TB_1, ShipType.TB_2}
)
#: Torpedo craft: full-effect torpedo attacks through bow or broadside arcs (DBA-TORP-04), and
#: the "TBD/TB" targets of DBA-TF-04/05.
TORPEDO_CRAFT: frozenset[ShipType] = frozenset({ShipType.TBD, ShipType.TB_1, ShipType.TB_2})
#: Ships that read the "Other" column of the Combat Outcome table (reconstructed core).
OTHER_COLUMN: frozenset[ShipType] = frozenset(
    {ShipType.TGB, ShipType.TBD, ShipType.TB_1, ShipType.TB_2, ShipType.SUBMARINE}
)


class Protection(StrEnum):
    """DF mark (DBA-TYPE-06)."""

    NORMAL = ""
    SPECIAL = "+"
    INFERIOR = "-"


class SpeedMark(StrEnum):
    """Speed mark: "2+" extra free move (DBA-MOV-01), "*" pays for its second move."""

    NONE = ""
    FAST = "+"
    SLOW = "*"


class Layout(StrEnum):
    """How the main armament is laid out (DBA-TGT-01..04, DBA-BSA-01)."""

    NORMAL = "normal"
    BROADSIDE = "broadside"
    BROADSIDE_TURRETS = "broadside_turrets"
    ALL_FORWARD = "all_forward"
    LOZENGE = "lozenge"
    EN_ECHELON = "en_echelon"


class Flag(StrEnum):
    """Type flags of Annex A."""

    BAD_SEA_BOAT = "bad_sea_boat"
    RAM = "ram"
    OPEN_BARBETTES = "open_barbettes"
    NETS = "nets"
    NO_SECONDARIES = "no_secondaries"


#: Attack factor at one band; ``None`` is Annex A's "x" (cannot fire).
Factor = int | None


@dataclass(frozen=True, slots=True)
class AttackFactors:
    """AF per range band; ``None`` is "x"."""

    close: Factor
    normal: Factor
    long: Factor
    extreme: Factor

    def at(self, band: RangeBand) -> Factor:
        """The AF at a band (``None`` if "x")."""
        value: Factor = getattr(self, band.value)
        return value

    @classmethod
    def parse(cls, values: list[Any], where: str = "af") -> AttackFactors:
        """From four Annex A entries (ints or ``"x"``), close first."""
        if not isinstance(values, list) or len(values) != len(BANDS):
            raise ValueError(f"{where} needs 4 entries (close, normal, long, extreme)")
        out: list[Factor] = []
        for v in values:
            if isinstance(v, str) and v.strip().lower() == "x":
                out.append(None)
            elif isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9:
                out.append(v)
            else:
                raise ValueError(f"{where} entry {v!r} is neither 0..9 nor 'x'")
        return cls(*out)

    def __str__(self) -> str:
        return "/".join(
            "x" if f is None else str(f) for f in (self.close, self.normal, self.long, self.extreme)
        )


_DF_RE = re.compile(r"^([0-4])([+-]?)$")
_SPEED_RE = re.compile(r"^([0-4])([+*]?)$")


def parse_defence(text: str) -> tuple[int, Protection]:
    """``"3+"`` → (3, SPECIAL); ``"2-"`` → (2, INFERIOR) (DBA-TYPE-06)."""
    m = _DF_RE.match(str(text).strip().replace("−", "-"))
    if not m:
        raise ValueError(f"defence factor {text!r} is not 0..4 with an optional '+' or '-'")
    return int(m.group(1)), Protection(m.group(2))


def parse_speed(text: str) -> tuple[int, SpeedMark]:
    """``"2+"`` → (2, FAST); ``"1*"`` → (1, SLOW) (DBA-MOV-01, DBA-TYPE-01)."""
    m = _SPEED_RE.match(str(text).strip())
    if not m:
        raise ValueError(f"speed {text!r} is not 0..4 with an optional '+' or '*'")
    return int(m.group(1)), SpeedMark(m.group(2))


#: Size levels for the ramming comparison (REF-DBA-04, reconstructed), by type.
DEFAULT_SIZE: Mapping[ShipType, int] = {
    ShipType.TB_2: 1,
    ShipType.TB_1: 2,
    ShipType.TBD: 2,
    ShipType.SUBMARINE: 2,
    ShipType.TGB: 3,
    ShipType.SCOUT_CRUISER: 3,
    ShipType.CRUISER_3: 3,
    ShipType.CRUISER_2: 4,
    ShipType.MERCHANT_AUXILIARY: 4,
    ShipType.CRUISER_1: 5,
    ShipType.COAST_DEFENCE: 5,
    ShipType.TB_CARRIER: 5,
    ShipType.BATTLESHIP: 6,
}


@dataclass(frozen=True, slots=True)
class ShipFactors:
    """One ship (or class) as Annex A lists it."""

    name: str
    type: ShipType
    af: AttackFactors
    df: int
    protection: Protection = Protection.NORMAL
    speed: int = 2
    speed_mark: SpeedMark = SpeedMark.NONE
    torpedo: int = 0
    secondaries: int = 0
    layout: Layout = Layout.NORMAL
    flags: frozenset[Flag] = frozenset()
    #: DBA-MG-01: the secondary-only factors used in the enemy's spell (monster-gun ships only).
    monster_af: AttackFactors | None = None
    #: 2nd Class TBs carried (DBA-TBL).
    carries_tbs: int = 0
    size: int = 0
    nation: str = ""
    year: int = 0
    note: str = ""

    def __post_init__(self) -> None:
        if self.size == 0:
            object.__setattr__(self, "size", DEFAULT_SIZE[self.type])

    # -- type questions, named as the rules name them --
    @property
    def bad_sea_boat(self) -> bool:
        """DBA-TYPE-04."""
        return Flag.BAD_SEA_BOAT in self.flags

    @property
    def broadside_ship(self) -> bool:
        """DBA-TYPE-05 (with or without turrets, DBA-TGT-01/02)."""
        return self.layout in (Layout.BROADSIDE, Layout.BROADSIDE_TURRETS)

    @property
    def is_ram(self) -> bool:
        """DBA-TYPE-07."""
        return Flag.RAM in self.flags

    @property
    def special_protection(self) -> bool:
        """DBA-TYPE-06 "+"."""
        return self.protection is Protection.SPECIAL

    @property
    def inferior_protection(self) -> bool:
        """DBA-TYPE-06 "-"."""
        return self.protection is Protection.INFERIOR

    @property
    def monster_guns(self) -> bool:
        """DBA-MG-01: two fire factors."""
        return self.monster_af is not None

    @property
    def open_barbettes(self) -> bool:
        """DBA-OB."""
        return Flag.OPEN_BARBETTES in self.flags

    @property
    def nets(self) -> bool:
        """DBA-NET."""
        return Flag.NETS in self.flags

    @property
    def small_calibre(self) -> bool:
        """DBA-SCG-01 shooters."""
        return self.type in SMALL_CALIBRE

    @property
    def torpedo_craft(self) -> bool:
        """TBD or TB (DBA-TORP-04, DBA-TF-04/05)."""
        return self.type in TORPEDO_CRAFT

    @property
    def fast(self) -> bool:
        """Speed "2+" (DBA-MOV-01; the "fast" ships of DBA-RW-01, AMB-89)."""
        return self.speed_mark is SpeedMark.FAST

    @property
    def speed_text(self) -> str:
        """Speed as Annex A writes it."""
        return f"{self.speed}{self.speed_mark.value}"

    @property
    def df_text(self) -> str:
        """DF as Annex A writes it."""
        return f"{self.df}{self.protection.value}"


def _fail(file: str, table: str, field: str, reason: str) -> RulesDataError:
    return RulesDataError(file, table, field, reason)


def _ship(entry: Mapping[str, Any], file: str, index: int) -> ShipFactors:
    table = f"ship[{index}]"
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _fail(file, table, "name", "every ship needs a name")
    table = f"ship {name!r}"
    known = {
        "name",
        "type",
        "af",
        "df",
        "speed",
        "torpedo",
        "secondaries",
        "layout",
        "flags",
        "monster_af",
        "carries_tbs",
        "size",
        "nation",
        "year",
        "note",
    }
    extra = set(entry) - known
    if extra:
        raise _fail(
            file, table, sorted(extra)[0], f"unknown field; known: {', '.join(sorted(known))}"
        )
    try:
        stype = ShipType(entry.get("type", ""))
    except ValueError:
        raise _fail(
            file,
            table,
            "type",
            f"unknown type {entry.get('type')!r}; one of {', '.join(t.value for t in ShipType)}",
        ) from None
    try:
        af = AttackFactors.parse(entry.get("af", []))
    except ValueError as exc:
        raise _fail(file, table, "af", str(exc)) from None
    monster = None
    if "monster_af" in entry:
        try:
            monster = AttackFactors.parse(entry["monster_af"], "monster_af")
        except ValueError as exc:
            raise _fail(file, table, "monster_af", str(exc)) from None
    try:
        df, protection = parse_defence(str(entry.get("df", "")))
    except ValueError as exc:
        raise _fail(file, table, "df", str(exc)) from None
    try:
        speed, mark = parse_speed(str(entry.get("speed", "")))
    except ValueError as exc:
        raise _fail(file, table, "speed", str(exc)) from None
    torpedo = entry.get("torpedo", 0)
    if torpedo not in (0, 1, 2) or isinstance(torpedo, bool):
        raise _fail(file, table, "torpedo", f"torpedo factor {torpedo!r} is not 0, 1 or 2")
    ints: dict[str, int] = {}
    for key in ("secondaries", "carries_tbs", "size", "year"):
        v = entry.get(key, 0)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise _fail(file, table, key, f"{v!r} is not a whole number ≥ 0")
        ints[key] = v
    if ints["size"] > 9:
        raise _fail(file, table, "size", "size levels run 1..9")
    try:
        layout = Layout(entry.get("layout", "normal"))
    except ValueError:
        raise _fail(
            file,
            table,
            "layout",
            f"unknown layout {entry.get('layout')!r}; one of {', '.join(x.value for x in Layout)}",
        ) from None
    flags_raw = entry.get("flags", [])
    if not isinstance(flags_raw, list):
        raise _fail(file, table, "flags", "flags must be a list")
    try:
        flags = frozenset(Flag(f) for f in flags_raw)
    except ValueError:
        raise _fail(
            file,
            table,
            "flags",
            f"unknown flag in {flags_raw!r}; one of {', '.join(f.value for f in Flag)}",
        ) from None
    return ShipFactors(
        name=name.strip(),
        type=stype,
        af=af,
        df=df,
        protection=protection,
        speed=speed,
        speed_mark=mark,
        torpedo=int(torpedo),
        secondaries=ints["secondaries"],
        layout=layout,
        flags=flags,
        monster_af=monster,
        carries_tbs=ints["carries_tbs"],
        size=ints["size"],
        nation=str(entry.get("nation", "")),
        year=ints["year"],
        note=str(entry.get("note", "")),
    )


@dataclass(frozen=True, slots=True)
class AnnexA:
    """The ships of an Annex A file, by name."""

    ships: Mapping[str, ShipFactors]
    reconstructed: bool
    source: str

    def __getitem__(self, name: str) -> ShipFactors:
        for key, ship in self.ships.items():
            if key.lower() == name.strip().lower():
                return ship
        raise UnknownNameError("DBA ship", name, list(self.ships))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and any(k.lower() == name.lower() for k in self.ships)

    def __len__(self) -> int:
        return len(self.ships)


def parse_annex_a(data: bytes, file: str) -> AnnexA:
    """Validate one Annex A TOML text."""
    doc = parse_data(data, file)
    entries = doc.get("ship")
    if not isinstance(entries, list) or not entries:
        raise _fail(file, "ship", "", "no [[ship]] tables")
    ships: dict[str, ShipFactors] = {}
    for i, entry in enumerate(entries):
        ship = _ship(entry, file, i)
        if ship.name.lower() in (k.lower() for k in ships):
            raise _fail(file, f"ship {ship.name!r}", "name", "listed twice")
        ships[ship.name] = ship
    return AnnexA(ships, bool(doc["reconstructed"]), file)


@lru_cache(maxsize=1)
def _packaged() -> AnnexA:
    return parse_annex_a(packaged_bytes(ANNEX_FILE), f"dba/data/{ANNEX_FILE}")


def load_annex_a(path: str | Path | None = None) -> AnnexA:
    """The packaged reconstructed Annex A, or a user's file in the same format."""
    if path is None:
        return _packaged()
    return parse_annex_a(*user_file(path))
