"""Routes: the order forms (``GET /forms``) and the notation they write (``POST /compose``).

The form data comes from the ruleset's ``web_forms`` part, built from the side's view and its own
ships; the page holds no notation grammar and no rules. ``POST /check`` and ``POST /orders``
(in :mod:`battleline.server.app`) answer a refusal with every problem, each with its field.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from battleline.server import adapter, adapter_forms
from battleline.server.context import ERRORS, GameId, ServerContext, Token
from battleline.server.models import NOTATION_HELP, OrderProblem


class ComposeIn(BaseModel):
    """A filled form for the open phase (see ``docs/web.md`` for its fields)."""

    model_config = ConfigDict(extra="forbid")
    turn: int = Field(ge=1, le=10_000)
    phase: str = Field(min_length=1, max_length=50)
    form: dict[str, Any]


class Composed(BaseModel):
    """The order lines a form writes, the field of each, and the form's own problems."""

    lines: list[str]
    fields: list[str]
    text: str
    problems: list[OrderProblem]


class FormsOut(BaseModel):
    """The open phase's form for the token's side (``form`` is null where there is none)."""

    turn: int
    phase: str
    side: str
    sealed: bool
    waiting: bool
    finished: bool
    form: dict[str, Any] | None
    help: str | None


def add_routes(app: FastAPI, ctx: ServerContext) -> None:
    """Add ``GET /forms`` and ``POST /compose``."""

    @app.get("/api/games/{game_id}/forms", responses=ERRORS)
    def forms(game_id: GameId, token: Token) -> FormsOut:
        """The form of the open phase for the token's side, from its view and own ships."""
        side = ctx.side_of(game_id, token)
        with ctx.opened(game_id) as live:
            game = live.game
            turn, phase = adapter.open_phase(game)
            return FormsOut(
                turn=turn,
                phase=phase,
                side=side,
                sealed=adapter.has_sealed(game, side),
                waiting=side in adapter.waiting_for(game),
                finished=adapter.finished(game),
                form=adapter_forms.form_data(game, side),
                help=NOTATION_HELP.get(phase),
            )

    @app.post("/api/games/{game_id}/compose", responses=ERRORS)
    def compose(game_id: GameId, req: ComposeIn, token: Token) -> Composed:
        """The filled form as order lines, written by the ruleset's own notation printers."""
        ctx.side_of(game_id, token)
        with ctx.opened(game_id) as live:
            turn, phase = adapter.open_phase(live.game)
            if (req.turn, req.phase) != (turn, phase):
                raise HTTPException(
                    409,
                    f"stale form for turn {req.turn} {req.phase} phase: the open phase is turn "
                    f"{turn} {phase}",
                )
            made = adapter_forms.compose(live.game, phase, req.form)
        return Composed(
            lines=made["lines"],
            fields=made["fields"],
            text="\n".join(made["lines"]),
            problems=[OrderProblem(**p) for p in made["problems"]],
        )


__all__ = ["ComposeIn", "Composed", "FormsOut", "add_routes"]
