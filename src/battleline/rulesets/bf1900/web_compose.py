"""A filled order form written as the phase's notation, by the ruleset's own printers.

:func:`compose` takes the form the page filled in (plain JSON: see ``docs/web.md``) and returns
the order lines, each with the form field it came from, and the problems of the form itself (a
missing estimate, a turn of no degrees): the lines are written with ``notation.Order``,
``GunneryEntry.notation``, ``TorpedoLaunch`` and the damage-control codes, so that reading them
back gives the same orders. :func:`field_of` narrows a problem of a line to the field within it
that the engine's message names (a mounting, the estimate, the speed).

Field names are paths joined by ``/``: ``command/<division>/speed``, ``command/<division>/turn/0``,
``gunnery/<ship>/<target>/estimate``, ``gunnery/<ship>/<target>/rounds/<mounting>``,
``torpedo/<ship>/<mount>``, ``damage/<ship>/<code>``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from battleline.errors import OrderSyntaxError
from battleline.rulesets.bf1900.gunnery_log import GunneryEntry
from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.bf1900.notation import (
    Direction,
    DropOut,
    FleetMessage,
    Order,
    SetSpeed,
    Signal,
    Stop,
    TransferFlag,
    TurnInSuccession,
    TurnTogether,
    format_orders,
)
from battleline.rulesets.bf1900.torpedoes import TorpedoLaunch


@dataclass
class Composed:
    """The lines a form writes, the field of each, and the problems of the form itself."""

    lines: list[str] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)

    def add(self, line: str, where: str) -> None:
        """One order line from the field ``where``."""
        self.lines.append(line)
        self.fields.append(where)

    def refuse(self, where: str, message: str) -> None:
        """A problem of the field ``where``."""
        self.problems.append((where, message))


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or value is None or value == "":
        return None
    try:
        out = float(value)
    except (TypeError, ValueError):
        return None
    return out if math.isfinite(out) else None


def compose(kind: str, filled: Mapping[str, Any]) -> Composed:
    """The order lines of a filled form of phase ``kind`` (command, gunnery, torpedo, damage)."""
    out = Composed()
    write = _WRITERS.get(kind)
    if write is None:
        out.refuse(kind, f"no form for the {kind} phase: write the orders in the notation")
        return out
    write(_map(filled), out)
    return out


# -- command -------------------------------------------------------------------------------


def _direction(value: Any) -> Direction | None:
    return Direction(value) if value in ("P", "S") else None


def _command(filled: Mapping[str, Any], out: Composed) -> None:
    for name, raw in _map(filled.get("divisions")).items():
        d = _map(raw)
        base = f"command/{name}"
        orders: list[Order] = []
        try:
            flag = d.get("flag")
            if isinstance(flag, str) and flag:
                orders.append(TransferFlag(flag))
            drop = _map(d.get("drop"))
            if isinstance(drop.get("ship"), str) and drop["ship"]:
                orders.append(DropOut(drop["ship"], _direction(drop.get("side"))))
            knots = _number(d.get("speed"))
            if d.get("speed") not in (None, "") and knots is None:
                out.refuse(f"{base}/speed", "speed: give a number of knots")
            elif knots is not None:
                orders.append(SetSpeed(round(knots, 1)))
        except OrderSyntaxError as exc:
            out.refuse(base, str(exc))
            continue
        turns = d.get("turns")
        for i, raw_turn in enumerate(turns if isinstance(turns, list) else []):
            t = _map(raw_turn)
            deg = _number(t.get("degrees"))
            side = _direction(t.get("side"))
            where = f"{base}/turn/{i}"
            if deg is None or deg != int(deg) or not 1 <= deg <= 360:
                out.refuse(where, "turn: give a whole number of degrees, 1 to 360")
                continue
            if side is None:
                out.refuse(where, "turn: choose port or starboard")
                continue
            kind = TurnTogether if t.get("mode") == "TT" else TurnInSuccession
            orders.append(kind(int(deg), side))
        if d.get("stop") is True:
            orders.append(Stop())
        signal = _map(d.get("signal"))
        if signal.get("message"):
            try:
                message = FleetMessage(str(signal["message"]))
                side = _direction(signal.get("side")) if message.turn_deg is not None else None
                orders.append(Signal(message, side))
            except (ValueError, OrderSyntaxError) as exc:
                out.refuse(f"{base}/signal", f"signal: {exc}")
        if orders:
            out.add(f"{name}: {format_orders(orders)}", base)


# -- gunnery -------------------------------------------------------------------------------


def _gunnery(filled: Mapping[str, Any], out: Composed) -> None:
    for ship, raw in _map(filled.get("ships")).items():
        targets = _map(raw).get("targets")
        for t in targets if isinstance(targets, list) else []:
            entry = _map(t)
            target = entry.get("target")
            if not isinstance(target, str) or not target:
                continue
            where = f"gunnery/{ship}/{target}"
            rounds = [
                (str(k), int(n))
                for k, n in _map(entry.get("rounds")).items()
                if _number(n) is not None and int(float(n)) > 0
            ]
            if not rounds:
                continue  # a target with no guns given is no entry
            estimate = _number(entry.get("estimate"))
            if estimate is None or estimate <= 0:
                out.refuse(f"{where}/estimate", "range estimate: give your estimate in metres")
                continue
            ammo = Ammo.AP if entry.get("ammo") == "AP" else Ammo.HE
            line = GunneryEntry(ship, target, round(estimate, 1), ammo, tuple(rounds)).notation()
            out.add(line, where)


# -- torpedoes -----------------------------------------------------------------------------


def _torpedo(filled: Mapping[str, Any], out: Composed) -> None:
    for ship, raw in _map(filled.get("ships")).items():
        launches = _map(raw).get("launches")
        for la in launches if isinstance(launches, list) else []:
            launch = _map(la)
            mount, target = launch.get("mount"), launch.get("target")
            if not isinstance(mount, str) or not isinstance(target, str) or not target:
                continue
            count = _number(launch.get("count"))
            where = f"torpedo/{ship}/{mount}"
            if count is None or count < 1 or count != int(count):
                out.refuse(where, "torpedoes: launch a whole number, at least one")
                continue
            out.add(str(TorpedoLaunch(ship, mount, target, int(count))), where)


# -- damage control ------------------------------------------------------------------------


def _damage(filled: Mapping[str, Any], out: Composed) -> None:
    for ship, raw in _map(filled.get("ships")).items():
        codes: list[str] = []
        for code, n in _map(raw).items():
            count = _number(n)
            if count is None or count < 1:
                continue
            codes += [str(code)] * int(count)
        if codes:
            out.add(f"{ship}: " + "; ".join(codes), f"damage/{ship}")


_WRITERS = {"command": _command, "gunnery": _gunnery, "torpedo": _torpedo, "damage": _damage}


# -- problems to fields --------------------------------------------------------------------

_MOUNTING = re.compile(r"\b(?:mounting|battery) ([A-Za-z][A-Za-z0-9_-]*)")
_DC_CODE = re.compile(r"damage control ([A-Z][A-Z0-9-]*(?::[^\s:(][^:(]*)?)(?=: | \(|$)")


def field_of(where: str, message: str) -> str:
    """The field a problem of the line from ``where`` belongs to, as far as the message names
    one (else ``where`` itself)."""
    kind = where.split("/", 1)[0]
    if kind == "command":
        for word, sub in (  # the rule a message names first, then the order it quotes
            ("BF6-CMD-14", "stop"),
            ("BF6-CMD-16", "drop"),
            ("BF6-CMD-17", "turn/0"),
            ("BF6-CMD-19", "flag"),
            ("BF6-CMD-32", "signal"),
            ("BF6-MOV", "speed"),
            ("SIG", "signal"),
            ("SPD", "speed"),
            ("STOP", "stop"),
        ):
            if word in message:
                return f"{where}/{sub}"
        return where
    if kind == "gunnery":
        m = _MOUNTING.search(message)
        if m:
            return f"{where}/rounds/{m.group(1)}"
        if "estimate" in message or "BF6-GUN-04" in message:
            return f"{where}/estimate"
        return where
    if kind == "damage":
        m = _DC_CODE.search(message)
        return f"{where}/{m.group(1).strip()}" if m else where
    return where


__all__ = ["Composed", "compose", "field_of"]
