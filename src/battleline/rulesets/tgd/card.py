"""TGD ship cards: the type/name/number box, three gun columns, armour, S/F and H boxes.

A card (TGD-CARD-01/02) names the ship ("BB1 Pelayo"), lists its batteries in three columns
(primary, secondary, tertiary), each battery written ``[arc letters] S x N`` (TGD-CARD-03): N guns
of strength S firing through the arc the letters name (:mod:`.arcs`). The draft's card image is
lost (REF-TGD-01), so the armour of the six locations, the superstructure letters (location 4) and
the hull boxes (locations 5 and 6) of every card are battleline's, marked ``reconstructed``.

Cards live in ``data/cards/*.toml``; :func:`load_card` reads one by name or from a user's file.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn

from battleline.errors import OrderSyntaxError, RulesDataError, UnknownNameError

#: Every arc code the draft uses (TGD-ARC-02..07).
ARC_CODES = ("f", "a", "ff", "aa", "p", "s", "c", "fp", "fs", "ap", "as", "p+", "s+", "ps", "sp")
#: Locations 1..6 (TGD-LOC-01): three gun columns, superstructure, hull ends, hull centre.
LOCATIONS = (1, 2, 3, 4, 5, 6)
#: Location names, for narration.
LOCATION_NAMES = {
    1: "primary guns",
    2: "secondary guns",
    3: "tertiary guns",
    4: "superstructure",
    5: "hull bow/stern",
    6: "hull centre",
}

_BATTERY_RE = re.compile(r"^\s*([a-z+]+)\s*([0-9]+)\s*[x×]\s*([0-9]+)\s*$", re.IGNORECASE)
_PACKAGE = "battleline.rulesets.tgd"
_CARDS = "data/cards"


@dataclass(frozen=True, slots=True)
class Battery:
    """A battery: ``guns`` guns of ``strength`` on arc ``arc`` (TGD-CARD-03)."""

    arc: str
    strength: int
    guns: int

    @property
    def max_range(self) -> int:
        """Strength × 10 (TGD-RNG-01)."""
        return self.strength * 10

    def __str__(self) -> str:
        return format_battery(self)


def parse_battery(text: str, *, ship: str = "") -> Battery:
    """``"fp 5x1"`` → ``Battery("fp", 5, 1)`` (TGD-CARD-03, EX-TGD-01)."""
    who = f"{ship}: " if ship else ""
    m = _BATTERY_RE.match(text)
    if not m:
        raise OrderSyntaxError(
            f"{who}battery {text!r}: write arc letters, strength, 'x', number of guns, "
            "e.g. 'fp 5x1' (TGD-CARD-03)"
        )
    arc, strength, guns = m.group(1).lower(), int(m.group(2)), int(m.group(3))
    if arc not in ARC_CODES:
        raise OrderSyntaxError(
            f"{who}battery {text!r}: unknown arc {arc!r}; use one of {', '.join(ARC_CODES)} "
            "(TGD-ARC-02..07)"
        )
    if strength < 1 or guns < 1:
        raise OrderSyntaxError(
            f"{who}battery {text!r}: strength and number of guns must be 1 or more (TGD-CARD-03)"
        )
    return Battery(arc, strength, guns)


def format_battery(battery: Battery) -> str:
    """``Battery("fp", 5, 1)`` → ``"fp 5x1"``; :func:`parse_battery` reads it back."""
    return f"{battery.arc} {battery.strength}x{battery.guns}"


def battery_station(arc: str) -> tuple[float, float]:
    """Where a battery sits, as (ahead, starboard) in ship lengths from the centre (AMB-61).

    Bow guns (ff) are furthest forward, then fore guns (f), then the fore corners; side guns sit
    amidships on their side; aft mirrors fore. Used to find the battery nearest the shell.
    """
    ahead = {"ff": 0.5, "f": 0.3, "fp": 0.25, "fs": 0.25, "ap": -0.25, "as": -0.25, "a": -0.3}
    ahead["aa"] = -0.5
    side = {"p": -0.1, "fp": -0.1, "ap": -0.1, "p+": -0.1, "ps": -0.1}
    side |= {"s": 0.1, "fs": 0.1, "as": 0.1, "s+": 0.1, "sp": 0.1}
    return ahead.get(arc, 0.0), side.get(arc, 0.0)


@dataclass(frozen=True, slots=True)
class ShipCard:
    """One ship card (TGD-CARD-01/02).

    ``armour`` holds the rating of locations 1..6; ``superstructure`` the S/F letters of location 4
    left to right; ``hull_ends`` and ``hull_centre`` the H boxes of locations 5 and 6; ``length``
    the hull length in range units (side arcs and the ps/sp rectangle, AMB-65).
    """

    name: str
    ship_type: str
    number: int
    nation: str
    speed: int
    columns: tuple[tuple[Battery, ...], tuple[Battery, ...], tuple[Battery, ...]]
    armour: tuple[int, int, int, int, int, int]
    superstructure: str
    hull_ends: int
    hull_centre: int
    length: float = 2.0
    reconstructed: bool = True

    @property
    def title(self) -> str:
        """The first box: type, number and name, e.g. ``"BB1 Pelayo"`` (TGD-CARD-01)."""
        return f"{self.ship_type}{self.number} {self.name}"

    def batteries(self) -> list[tuple[int, int, Battery]]:
        """Every battery as (location 1..3, index in its column, battery)."""
        return [
            (col + 1, i, battery)
            for col, column in enumerate(self.columns)
            for i, battery in enumerate(column)
        ]

    def strengths(self) -> list[int]:
        """The gun strengths the ship carries, largest first."""
        return sorted({b.strength for _, _, b in self.batteries()}, reverse=True)

    def column_text(self, location: int) -> str:
        """A gun column as card text, e.g. ``"f 6x1, a 6x1, ff 2x1"``."""
        return ", ".join(format_battery(b) for b in self.columns[location - 1])


def _fail(source: str, field: str, reason: str) -> NoReturn:
    raise RulesDataError(source, "card", field, reason)


def _int(source: str, field: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        _fail(source, field, f"must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _str(source: str, field: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        _fail(source, field, f"must be a non-empty string, not {value!r}")
    return " ".join(value.split())


def parse_card(data: Mapping[str, Any], source: str) -> ShipCard:
    """Validate a parsed card file into a :class:`ShipCard`."""
    name = _str(source, "name", data.get("name"))
    ship_type = _str(source, "type", data.get("type")).upper()
    if not ship_type.isalpha():
        _fail(source, "type", f"a ship type is letters such as BB or CA, not {ship_type!r}")
    cols_raw = data.get("columns")
    if not isinstance(cols_raw, list) or len(cols_raw) != 3:
        _fail(source, "columns", "must be a list of 3 gun columns (TGD-CARD-02)")
    columns: list[tuple[Battery, ...]] = []
    for c, col in enumerate(cols_raw):
        if not isinstance(col, list) or not all(isinstance(b, str) for b in col):
            _fail(source, f"columns[{c}]", "must be a list of battery strings like 'fp 5x1'")
        try:
            columns.append(tuple(parse_battery(b, ship=name) for b in col))
        except OrderSyntaxError as exc:
            _fail(source, f"columns[{c}]", str(exc))
    armour_raw = data.get("armour")
    if not isinstance(armour_raw, list) or len(armour_raw) != 6:
        _fail(source, "armour", "must list the armour of the 6 locations (TGD-ARM-01)")
    armour = tuple(_int(source, f"armour[{i}]", a, 0, 20) for i, a in enumerate(armour_raw))
    sup = data.get("superstructure")
    if not isinstance(sup, str) or not sup or set(sup.upper()) - {"S", "F"}:
        _fail(source, "superstructure", "must be a string of S and F letters (TGD-DMG-05)")
    length = data.get("length", 2.0)
    if isinstance(length, bool) or not isinstance(length, int | float) or length < 0:
        _fail(source, "length", f"must be a length in range units, not {length!r}")
    recon = data.get("reconstructed", True)
    if not isinstance(recon, bool):
        _fail(source, "reconstructed", "must be true or false")
    return ShipCard(
        name=name,
        ship_type=ship_type,
        number=_int(source, "number", data.get("number", 1), 0, 999),
        nation=_str(source, "nation", data.get("nation")).lower(),
        speed=_int(source, "speed", data.get("speed"), 0, 60),
        columns=(columns[0], columns[1], columns[2]),
        armour=(armour[0], armour[1], armour[2], armour[3], armour[4], armour[5]),
        superstructure=sup.upper(),
        hull_ends=_int(source, "hull_ends", data.get("hull_ends"), 1, 20),
        hull_centre=_int(source, "hull_centre", data.get("hull_centre"), 1, 20),
        length=float(length),
        reconstructed=recon,
    )


def _read(text: str, source: str) -> ShipCard:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesDataError(source, "card", "", f"not valid TOML: {exc}") from None
    return parse_card(data, source)


@lru_cache(maxsize=1)
def packaged_cards() -> Mapping[str, ShipCard]:
    """Every packaged card by lower-case ship name."""
    cards: dict[str, ShipCard] = {}
    folder = resources.files(_PACKAGE).joinpath(_CARDS)
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            card = _read(entry.read_text(encoding="utf-8"), f"cards/{entry.name}")
            cards[card.name.lower()] = card
    return cards


def card_names() -> list[str]:
    """The names of the packaged cards."""
    return sorted(c.name for c in packaged_cards().values())


def load_card(name_or_path: str | Path) -> ShipCard:
    """A packaged card by ship name (any case), or a card file (``*.toml``) by path."""
    text = str(name_or_path)
    if text.lower().endswith(".toml"):
        path = Path(text)
        try:
            return _read(path.read_text(encoding="utf-8"), str(path))
        except OSError as exc:
            raise RulesDataError(str(path), "card", "", f"cannot read: {exc.strerror}") from None
    card = packaged_cards().get(" ".join(text.split()).lower())
    if card is None:
        raise UnknownNameError("TGD ship card", text, card_names())
    return card
