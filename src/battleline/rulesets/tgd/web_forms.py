"""The web page's order forms for TGD: bf1900's for the command phase TGD shares with it, and
TGD's own for a fire step (TGD-FIRE-01/02): per ship, the strength of the guns that fire, the
arcs named (none: every battery of that strength that bears) and the target among the enemy
ships the side sees. Whether a battery bears or reaches is the step's own check, answered next
to the field when the orders are sent. The strengths and ready batteries are the side's own
cards; the targets are the view's contacts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battleline.errors import OrderSyntaxError
from battleline.rulesets.bf1900 import web_forms as shared
from battleline.rulesets.bf1900.web_compose import Composed
from battleline.rulesets.tgd.card import ARC_CODES
from battleline.rulesets.tgd.steps import FireLine

Form = dict[str, Any]


def form_data(game: Any, side: str) -> Form | None:
    """The open phase's form: a fire step's (``tgd-fire``), else bf1900's (the command)."""
    if not game.spec.name.startswith("fire-"):
        return shared.form_data(game, side)
    view = game.view(side, since=len(game.events))
    in_battle = {s.name for s in view.own if s.in_battle}
    ships = [
        {"name": c.name, "ready": list(c.ready), "strengths": c.log.card.strengths()}
        for c in view.cards
        if c.name in in_battle and not c.log.sunk and c.ready
    ]
    return {
        "kind": "tgd-fire",
        "turn": view.turn,
        "side": side,
        "ships": ships,
        "arcs": list(ARC_CODES),
        "targets": [c.name for c in view.contacts],
    }


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def compose(kind: str, filled: Mapping[str, Any]) -> Composed:
    """A filled fire-step form as ``<ship>: <strength> [arcs] -> <target>`` lines."""
    if not kind.startswith("fire-"):
        return shared.compose(kind, filled)
    out = Composed()
    for ship, raw in _map(_map(filled).get("ships")).items():
        f = _map(raw)
        target, strength = f.get("target"), f.get("strength")
        where = f"tgd-fire/{ship}"
        if not isinstance(target, str) or not target:
            continue
        try:
            guns = int(str(strength))
        except ValueError:
            out.refuse(f"{where}/strength", "choose the strength of the guns that fire")
            continue
        arcs = f.get("arcs")
        chosen = tuple(a for a in (arcs if isinstance(arcs, list) else []) if a in ARC_CODES)
        try:
            out.add(str(FireLine(str(ship), guns, chosen, target)), where)
        except OrderSyntaxError as exc:
            out.refuse(where, str(exc))
    return out


def field_of(where: str, message: str) -> str:
    """The field a problem belongs to (bf1900's rules for the command phase)."""
    return where if where.startswith("tgd-fire/") else shared.field_of(where, message)


__all__ = ["compose", "field_of", "form_data"]
