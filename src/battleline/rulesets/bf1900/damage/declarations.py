"""Damage-control declarations and their text notation (BF6-DC-01, BF6-REP-05).

The player names each repair or command function before rolling (BF6-REP-05); each declaration
spends one DC die on one damage event (BF6-DC-02). The compact notation, one declaration per item,
items separated by ``;`` or ``,``:

==========================  ==================================================================
``P``                        repair one propulsion mark (the margin first, BF6-PROP-04)
``BR``                       repair one bridge hit
``M:A``                      repair one slash on main position A
``ST``                       repair one steering-engine (TR) hit
``HVY:forward``              contain the Heavy flooding in a zone (BF6-REP-08)
``S:sec``                    repair one slash / damaged gun of a secondary or tertiary mounting
``DC``                       repair one damage-control box
``R``                        repair the rudder (damaged or jammed)
``SECURE`` / ``FREE``        secure the rudder on the centre-line (RC) / free it (BF6-REP-10)
``SINK-1``                   −1 on this turn's sink roll (BF6-REP-11)
``FLOODMAG:Z``               flood the magazine of main position Z (BF6-CF-03)
``CF:port amidships=heavy``  counterflood a zone up to a level (BF6-CF-04/05)
``SCUTTLE``                  scuttle the ship, irrevocably (BF6-CF-06)
``RECOVER-CT``               recover from a conning-tower hit (BF6-CF-07)
==========================  ==================================================================

Zones may be written ``forward``/``fwd``, ``port``/``port amidships``, ``starboard``/``stbd``,
``aft``; levels ``light``, ``moderate`` (or ``medium``), ``heavy``, ``severe`` or 1–4.
:func:`format_declaration` writes the canonical form, and ``parse(format(d)) == d``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from battleline.errors import OrderSyntaxError
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel


class DCAction(StrEnum):
    """The Step Three actions: the Damage Control box and the Command Functions table."""

    REPAIR_P = "P"
    REPAIR_BR = "BR"
    REPAIR_M = "M"
    REPAIR_ST = "ST"
    STOP_HVY_FL = "HVY"
    REPAIR_S = "S"
    REPAIR_DC = "DC"
    REPAIR_R = "R"
    SECURE_R = "SECURE"
    FREE_R = "FREE"
    SINK_MINUS_1 = "SINK-1"
    FLOOD_MAGAZINE = "FLOODMAG"
    COUNTERFLOOD = "CF"
    SCUTTLE = "SCUTTLE"
    RECOVER_CT = "RECOVER-CT"

    @property
    def is_command_function(self) -> bool:
        """Command functions need an intact chain of command (BF6-CF-01)."""
        return self in COMMAND_FUNCTIONS

    @property
    def chart_key(self) -> str:
        """The row of the Damage Control box or Command Functions table that gives its range."""
        return CHART_KEYS[self]


COMMAND_FUNCTIONS = frozenset(
    {DCAction.FLOOD_MAGAZINE, DCAction.COUNTERFLOOD, DCAction.SCUTTLE, DCAction.RECOVER_CT}
)

#: Damage Control box rows (``charts.repair_range``) and Command Function rows
#: (``charts.command_range``).
CHART_KEYS: dict[DCAction, str] = {
    DCAction.REPAIR_P: "P_BR",
    DCAction.REPAIR_BR: "P_BR",
    DCAction.REPAIR_M: "M_ST",
    DCAction.REPAIR_ST: "M_ST",
    DCAction.STOP_HVY_FL: "STOP_HVY_FL",
    DCAction.REPAIR_S: "S_DC_R",
    DCAction.REPAIR_DC: "S_DC_R",
    DCAction.REPAIR_R: "S_DC_R",
    DCAction.SECURE_R: "SECURE_R",
    DCAction.FREE_R: "SECURE_R",
    DCAction.SINK_MINUS_1: "SINK_MINUS_1",
    DCAction.FLOOD_MAGAZINE: "FLOOD_MAGAZINE",
    DCAction.COUNTERFLOOD: "COUNTERFLOOD",
    DCAction.SCUTTLE: "COUNTERFLOOD",
    DCAction.RECOVER_CT: "RECOVER_CT",
}

_POSITION_ACTIONS = frozenset({DCAction.REPAIR_M, DCAction.REPAIR_S, DCAction.FLOOD_MAGAZINE})
_ZONE_ACTIONS = frozenset({DCAction.STOP_HVY_FL, DCAction.COUNTERFLOOD})

_ZONE_WORDS: dict[str, Compartment] = {
    "forward": Compartment.FORWARD,
    "fwd": Compartment.FORWARD,
    "fore": Compartment.FORWARD,
    "bow": Compartment.FORWARD,
    "port": Compartment.PORT,
    "port amidships": Compartment.PORT,
    "starboard": Compartment.STARBOARD,
    "stbd": Compartment.STARBOARD,
    "starboard amidships": Compartment.STARBOARD,
    "aft": Compartment.AFT,
    "stern": Compartment.AFT,
}

_LEVEL_WORDS: dict[str, FloodLevel] = {
    "light": FloodLevel.LIGHT,
    "lt": FloodLevel.LIGHT,
    "moderate": FloodLevel.MODERATE,
    "medium": FloodLevel.MODERATE,  # AMB-42: "medium" is moderate
    "mod": FloodLevel.MODERATE,
    "heavy": FloodLevel.HEAVY,
    "hvy": FloodLevel.HEAVY,
    "severe": FloodLevel.SEVERE,
    "sev": FloodLevel.SEVERE,
    "1": FloodLevel.LIGHT,
    "2": FloodLevel.MODERATE,
    "3": FloodLevel.HEAVY,
    "4": FloodLevel.SEVERE,
}

_ACTION_WORDS = {a.value: a for a in DCAction}


@dataclass(frozen=True, slots=True)
class DCDeclaration:
    """One declared Step Three action for ``ship``.

    ``target`` is a mounting key for M, S and FLOODMAG, a :class:`Compartment` for HVY and CF,
    and ``None`` otherwise; ``level`` is the counterflood level for CF.
    """

    ship: str
    action: DCAction
    target: str | None = None
    level: FloodLevel | None = None

    @property
    def compartment(self) -> Compartment | None:
        """The target as a compartment, for zone actions."""
        return Compartment(self.target) if self.action in _ZONE_ACTIONS and self.target else None

    @property
    def text(self) -> str:
        """The canonical notation."""
        return format_declaration(self)

    def __str__(self) -> str:
        return self.text


def format_declaration(decl: DCDeclaration) -> str:
    """Write one declaration in the canonical notation (``CF:port amidships=heavy``)."""
    out = decl.action.value
    if decl.target is not None:
        out += f":{decl.target}"
    if decl.level is not None:
        out += f"={decl.level.name.lower()}"
    return out


def format_declarations(decls: Iterable[DCDeclaration]) -> str:
    """Several declarations joined by ``; ``."""
    return "; ".join(format_declaration(d) for d in decls)


def _zone(ship: str, word: str, text: str) -> Compartment:
    zone = _ZONE_WORDS.get(re.sub(r"\s+", " ", word.strip().lower()))
    if zone is None:
        raise OrderSyntaxError(
            f"{ship}: damage control {text!r}: unknown zone {word!r} "
            "(use forward, port, starboard or aft)"
        )
    return zone


def parse_declaration(ship: str, text: str) -> DCDeclaration:
    """Parse one declaration; bad text raises :class:`OrderSyntaxError` naming the ship."""
    raw = text.strip()
    head, _, rest = raw.partition(":")
    action = _ACTION_WORDS.get(head.strip().upper())
    if action is None:
        known = ", ".join(a.value for a in DCAction)
        raise OrderSyntaxError(f"{ship}: unknown damage-control action {raw!r}; use one of {known}")
    rest = rest.strip()
    if action in _POSITION_ACTIONS:
        if not rest or "=" in rest:
            raise OrderSyntaxError(
                f"{ship}: damage control {raw!r} needs a position, e.g. {action.value}:A"
            )
        return DCDeclaration(ship, action, rest)
    if action is DCAction.STOP_HVY_FL:
        if not rest:
            raise OrderSyntaxError(f"{ship}: damage control {raw!r} needs a zone, e.g. HVY:forward")
        return DCDeclaration(ship, action, _zone(ship, rest, raw))
    if action is DCAction.COUNTERFLOOD:
        zone_word, eq, level_word = rest.partition("=")
        if not zone_word.strip() or not eq:
            raise OrderSyntaxError(
                f"{ship}: damage control {raw!r} needs a zone and a level, e.g. CF:port=heavy"
            )
        level = _LEVEL_WORDS.get(level_word.strip().lower())
        if level is None:
            raise OrderSyntaxError(
                f"{ship}: damage control {raw!r}: unknown flooding level {level_word.strip()!r}"
            )
        return DCDeclaration(ship, action, _zone(ship, zone_word, raw), level)
    if rest:
        raise OrderSyntaxError(f"{ship}: damage control {action.value!r} takes no target ({raw!r})")
    return DCDeclaration(ship, action)


def parse_declarations(ship: str, text: str) -> list[DCDeclaration]:
    """Parse a list of declarations separated by ``;`` or ``,`` (empty text → none)."""
    return [parse_declaration(ship, part) for part in re.split(r"[;,]", text) if part.strip()]
