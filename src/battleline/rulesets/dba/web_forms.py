"""The web page's order forms for *Damn Battleships Again*: the speller's moves and both sides'
fire, as data, and the notation a filled form writes (``orders.MoveLine`` / ``FireLine``).

Built from the side's view and its own ships. The bases a ship or squadron may run this spell
are those the phase's own check accepts (speeds and NIPs, DBA-TYPE-01, DBA-NIP); targets are the
enemy ships on the table (the view's contacts); the torpedo factors offered are those left
(DBA-TORP). Whether a target is in range or arc is left to the check when the orders are sent,
which answers next to the field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from battleline.errors import BattlelineError, OrderSyntaxError
from battleline.rulesets.dba.orders import FireLine, MoveLine

Form = dict[str, Any]
#: The most bases an order is tried with for the form's choices (no DBA ship runs more).
MOST_BASES = 8
#: The largest turn an order may name (``orders.parse_move_line``).
MOST_TURN_DEG = 180


@dataclass
class Composed:
    """The lines a form writes, the field of each, and the problems of the form itself."""

    lines: list[str] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)


def _accepts(game: Any, side: str) -> Callable[[str], bool]:
    def accepts(line: str) -> bool:
        try:
            game.check(side, [line])
        except BattlelineError:
            return False
        return True

    return accepts


def form_data(game: Any, side: str) -> Form | None:
    """The open phase's form for ``side`` (``dba-move`` or ``dba-fire``), else ``None``."""
    phase = game.spec.name
    view = game.view(side, since=len(game.events))
    if phase.startswith("move-"):
        return {"kind": "dba-move", "turn": view.turn, "side": side, **_moves(game, side, view)}
    if phase.startswith("combat-"):
        return {"kind": "dba-fire", "turn": view.turn, "side": side, **_fire(view)}
    return None


def _moves(game: Any, side: str, view: Any) -> Form:
    accepts = _accepts(game, side)
    afloat = [s for s in view.own if not s.sunk]
    squadrons = sorted({s.squadron for s in afloat if s.squadron})
    units = []
    for who, members in [(q, [s.name for s in afloat if s.squadron == q]) for q in squadrons] + [
        (s.name, [s.name]) for s in afloat
    ]:
        actions = ["move"] + [
            a for a in ("stop", "nets down", "nets up", "launch TB") if accepts(f"{who}: {a}")
        ]
        units.append(
            {
                "name": who,
                "squadron": who in squadrons,
                "members": members,
                "bases": [k for k in range(MOST_BASES + 1) if accepts(f"{who}: {k}")],
                "actions": actions,
                "may_ram": "ramming" in view.options and who not in squadrons,
            }
        )
    return {
        "units": units,
        "nips": dict(view.nips),
        "targets": [c.name for c in view.contacts if not c.sunk],
        "max_turn_deg": MOST_TURN_DEG,
    }


def _fire(view: Any) -> Form:
    ships = [
        {
            "name": s.name,
            "af": s.af,
            "torpedo": list(range(1, min(2, s.torpedo_left) + 1)),
        }
        for s in view.own
        if not s.sunk and s.may_fire
    ]
    return {"ships": ships, "targets": [c.name for c in view.contacts if not c.sunk]}


# -- the notation ----------------------------------------------------------------------------


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or value in (None, ""):
        return None
    try:
        return int(str(value))
    except ValueError:
        return None


def compose(kind: str, filled: Mapping[str, Any]) -> Composed:
    """The order lines of a filled ``dba-move`` or ``dba-fire`` form."""
    out = Composed()
    if kind.startswith("move-"):
        _compose_moves(_map(filled), out)
    elif kind.startswith("combat-"):
        _compose_fire(_map(filled), out)
    else:
        out.problems.append((kind, f"no form for the {kind} phase: write the orders"))
    return out


def _compose_moves(filled: Mapping[str, Any], out: Composed) -> None:
    for who, raw in _map(filled.get("units")).items():
        u = _map(raw)
        action = u.get("action") or ""
        where = f"dba-move/{who}"
        try:
            if action == "move":
                bases, deg = _int(u.get("bases")) or 0, _int(u.get("degrees")) or 0
                turn = float(-deg if u.get("side") == "P" else deg)
                line = MoveLine(str(who), turn, bases, succession=u.get("succession") is True)
            elif action == "ram":
                target = u.get("target")
                if not isinstance(target, str) or not target:
                    out.problems.append((f"{where}/target", "ram: choose the ship to ram"))
                    continue
                line = MoveLine(str(who), bases=_int(u.get("bases")) or 0, ram=target)
            elif action in ("stop", "launch TB"):
                line = MoveLine(str(who), stop=action == "stop", launch=action == "launch TB")
            elif action in ("nets down", "nets up"):
                line = MoveLine(str(who), nets=action == "nets down")
            else:
                continue
        except (OrderSyntaxError, ValueError) as exc:
            out.problems.append((where, str(exc)))
            continue
        out.lines.append(str(line))
        out.fields.append(where)


def _compose_fire(filled: Mapping[str, Any], out: Composed) -> None:
    for ship, raw in _map(filled.get("ships")).items():
        f = _map(raw)
        guns = f.get("guns")
        for i, target in enumerate(guns if isinstance(guns, list) else []):
            if isinstance(target, str) and target:
                out.lines.append(str(FireLine(str(ship), target)))
                out.fields.append(f"dba-fire/{ship}/gun/{i}")
        torpedo = _map(f.get("torpedo"))
        factor, target = _int(torpedo.get("factor")), torpedo.get("target")
        if factor and isinstance(target, str) and target:
            out.lines.append(str(FireLine(str(ship), target, factor)))
            out.fields.append(f"dba-fire/{ship}/torpedo")


def field_of(where: str, message: str) -> str:
    """The field within ``where`` a problem names (the bases or the turn of a move)."""
    if where.startswith("dba-move/"):
        if "base" in message:
            return f"{where}/bases"
        if "turn" in message:
            return f"{where}/degrees"
    return where


__all__ = ["Composed", "compose", "field_of", "form_data"]
