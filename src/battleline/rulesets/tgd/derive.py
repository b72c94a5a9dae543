"""TGD ship cards derived from battleline's Battlefleet 1900 ship values (reconstructed).

The "tgd" ruleset plays the bf1900 scenarios, whose ships mostly have no TGD card. A ship whose
name (or class name) matches a packaged card uses it; any other gets a card built from its ship
values with the rules in ``data/derive.toml``: strength by calibre, column by gun class (main,
secondary, tertiary; boat guns left off), arc letters by position (beam-pattern batteries split
port and starboard), armour from the vitals and upperworks points, S/F letters and H boxes by
size. None of this is in the TGD draft (REF-TGD-01, REF-TGD-06); see docs/rules-gaps/tgd.md.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, NoReturn

from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.ship import GunClass, ShipClass
from battleline.rulesets.tgd.card import ARC_CODES, Battery, ShipCard, packaged_cards

_PACKAGE = "battleline.rulesets.tgd"
_FILE = "data/derive.toml"
_COLUMNS = {GunClass.MAIN: 0, GunClass.SECONDARY: 1, GunClass.TERTIARY: 2}


@dataclass(frozen=True, slots=True)
class DeriveRules:
    """The conversion rules, validated."""

    metres_per_unit: float
    strength: tuple[tuple[float, int], ...]
    arcs: Mapping[str, str]
    armour_divisor: float
    armour_max: int
    nations: Mapping[str, str]

    def strength_of(self, calibre_cm: float) -> int:
        """Gun strength for a calibre (the first line it reaches)."""
        return next(s for cm, s in self.strength if calibre_cm >= cm)

    def armour(self, points: int) -> int:
        """TGD armour for bf1900 armour points."""
        return min(self.armour_max, int(points / self.armour_divisor + 0.5))


def _fail(table: str, field: str, reason: str) -> NoReturn:
    raise RulesDataError("derive.toml", table, field, reason)


def parse_rules(data: Mapping[str, Any]) -> DeriveRules:
    """Validate the parsed ``derive.toml``."""
    mpu = data.get("metres_per_unit")
    if isinstance(mpu, bool) or not isinstance(mpu, int | float) or mpu <= 0:
        _fail("(top)", "metres_per_unit", f"must be a positive number, not {mpu!r}")
    rows = data.get("strength")
    if not isinstance(rows, list) or not rows:
        _fail("strength", "", "must be a list of [[strength]] lines")
    strength: list[tuple[float, int]] = []
    for i, row in enumerate(rows):
        cm, s = row.get("from_cm"), row.get("strength")
        if isinstance(cm, bool) or not isinstance(cm, int | float) or cm < 0:
            _fail(f"strength[{i}]", "from_cm", f"must be a calibre in cm, not {cm!r}")
        if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= 12:
            _fail(f"strength[{i}]", "strength", f"must be 1 to 12, not {s!r}")
        strength.append((float(cm), s))
    if strength[-1][0] != 0 or [c for c, _ in strength] != sorted(
        (c for c, _ in strength), reverse=True
    ):
        _fail("strength", "from_cm", "list calibres from largest down, ending at 0")
    arcs = data.get("arcs")
    if not isinstance(arcs, dict) or any(v not in ARC_CODES for v in arcs.values()):
        _fail("arcs", "", f"must map positions to TGD arc letters ({', '.join(ARC_CODES)})")
    armour = data.get("armour", {})
    divisor, top = armour.get("divisor"), armour.get("armour_max")
    if isinstance(divisor, bool) or not isinstance(divisor, int | float) or divisor <= 0:
        _fail("armour", "divisor", f"must be a positive number, not {divisor!r}")
    if isinstance(top, bool) or not isinstance(top, int) or top < 0:
        _fail("armour", "armour_max", f"must be a whole number 0 or more, not {top!r}")
    nations = data.get("nations", {})
    if not isinstance(nations, dict):
        _fail("nations", "", "must map navies to nation names")
    return DeriveRules(
        float(mpu),
        tuple(strength),
        dict(arcs),
        float(divisor),
        top,
        {str(k).lower(): str(v).lower() for k, v in nations.items()},
    )


@lru_cache(maxsize=1)
def derive_rules() -> DeriveRules:
    """The packaged conversion rules."""
    text = resources.files(_PACKAGE).joinpath(_FILE).read_text(encoding="utf-8")
    return parse_rules(tomllib.loads(text))


def _ship_type(cls: ShipClass) -> str:
    return cls.type.value


def derive_card(
    cls: ShipClass, name: str | None = None, rules: DeriveRules | None = None
) -> ShipCard:
    """A TGD card built from Battlefleet 1900 ship values (reconstructed)."""
    rules = rules or derive_rules()
    columns: list[dict[tuple[str, int], int]] = [{}, {}, {}]
    for m in cls.mountings:
        col = _COLUMNS.get(m.gun_class)
        if col is None:
            continue  # boat guns
        strength = rules.strength_of(m.calibre_cm)
        if m.position is not None:
            arc = rules.arcs.get(m.position)
            if arc is None:
                _fail("arcs", m.position, f"{cls.name}: no TGD arc for position {m.position!r}")
            sides = [(arc, m.guns)]
        elif m.guns == 1:
            sides = [("c", 1)]
        else:
            sides = [("p", m.guns // 2), ("s", m.guns - m.guns // 2)]
        for arc, guns in sides:
            columns[col][(arc, strength)] = columns[col].get((arc, strength), 0) + guns
    built = tuple(tuple(Battery(arc, s, n) for (arc, s), n in col.items()) for col in columns)
    vitals, upper = rules.armour(cls.armour_vitals), rules.armour(cls.armour_upperworks)
    n_super = max(2, min(6, cls.size // 2 + 1))
    return ShipCard(
        name=name or cls.name,
        ship_type=_ship_type(cls),
        number=1,
        nation=rules.nations.get(cls.navy.lower(), cls.navy.lower()),
        speed=round(cls.max_knots),
        columns=(built[0], built[1], built[2]),
        armour=(vitals, upper, upper, 0, (vitals + 1) // 2, vitals),
        superstructure=("SF" * 3)[:n_super],
        hull_ends=max(1, min(4, cls.size // 3 + 1)),
        hull_centre=max(1, min(5, cls.size // 3 + 1)),
        length=cls.length_m / rules.metres_per_unit,
        reconstructed=True,
    )


def card_for_ship(name: str, cls: ShipClass) -> ShipCard:
    """The packaged card named like the ship (or its class), else one derived from its values."""
    cards = packaged_cards()
    for key in (name, cls.name):
        card = cards.get(key.lower())
        if card is not None:
            return card
    return derive_card(cls, name)
