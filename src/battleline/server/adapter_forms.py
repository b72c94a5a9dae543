"""The engine calls of the order forms (``routes/forms.py``) and of the every-problem answer.

The forms are the ruleset's part ``web_forms`` (:func:`battleline.rulesets.ruleset_part`): a
ruleset without one has no forms, and the page keeps the notation box alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from battleline.game import order_problems
from battleline.rulesets import ruleset_part
from battleline.server.adapter import Game


def _forms(game: Game) -> ModuleType | None:
    return ruleset_part(game.ruleset.name, "web_forms")


def form_data(game: Game, side: str) -> dict[str, Any] | None:
    """The open phase's form for ``side`` (from its view and own ships), ``None`` if none."""
    part = _forms(game)
    if part is None or game.finished:
        return None
    form: dict[str, Any] | None = part.form_data(game, side)
    return form


def compose(game: Game, phase: str, filled: Mapping[str, Any]) -> dict[str, Any]:
    """A filled form as order lines (the ruleset's printers), their fields, its own problems."""
    part = _forms(game)
    if part is None:
        return {
            "lines": [],
            "fields": [],
            "problems": [
                {"line": None, "field": None, "message": "this ruleset has no order forms"}
            ],
        }
    made = part.compose(phase, filled)
    return {
        "lines": list(made.lines),
        "fields": list(made.fields),
        "problems": [{"line": None, "field": f, "message": m} for f, m in made.problems],
    }


def problems(
    game: Game,
    side: str,
    lines: Sequence[str],
    turn: int,
    phase: str,
    fields: Sequence[str | None] | None = None,
) -> list[dict[str, Any]]:
    """Every problem with the lines (``battleline.game.order_problems``), each with its line
    and, where the lines came from a form, the field it belongs to."""
    part = _forms(game)
    out: list[dict[str, Any]] = []
    for p in order_problems(game, side, lines, turn=turn, phase=phase):
        where: str | None = None
        if p.line is not None and fields and p.line < len(fields):
            where = fields[p.line]
            if where and part is not None:
                where = part.field_of(where, p.message)
        out.append({"line": p.line, "field": where, "message": p.message})
    return out
