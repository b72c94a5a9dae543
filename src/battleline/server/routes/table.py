"""Routes: the table as the side sees it (``GET /api/games/{id}/table``), now or at a past turn.

The answer is the ruleset's ``web_table`` part built from the side's view (see
:mod:`battleline.server.adapter_table`); the page draws it as SVG (``static/js/table.js``).
``?turn=N`` gives the table as it stood at the first phase of turn N, rebuilt from the record;
the open turn (or the last, once the battle is over) is the live table.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from battleline.errors import BattlelineError
from battleline.server import adapter_table
from battleline.server.context import ERRORS, GameId, ServerContext, Token


def add_routes(app: FastAPI, ctx: ServerContext) -> None:
    """Add this module's routes to ``app``."""

    @app.get("/api/games/{game_id}/table", responses=ERRORS)
    async def table(
        game_id: GameId,
        token: Token,
        turn: Annotated[int | None, Query(ge=1, le=100_000)] = None,
    ) -> JSONResponse:
        """The table as the token's side sees it: own ships with their arcs of fire, turning
        circles and move allowances, enemy ships where seen, land and markers. ``turn`` (from 1
        to the open turn): the table as it stood when that turn opened."""
        side = ctx.side_of(game_id, token)

        def read() -> tuple[dict[str, Any] | None, adapter_table.Record]:
            with ctx.opened(game_id) as live:
                try:
                    adapter_table.table_part(live.game)
                except adapter_table.NoTableError as exc:
                    raise HTTPException(404, str(exc)) from None
                record = adapter_table.Record.of(live.game, live.ref)
                if turn is not None and turn > record.turn:
                    raise HTTPException(
                        422,
                        f"turn: {turn} has not been played yet; the open turn is {record.turn}",
                    )
                now = None
                if turn is None or turn == record.turn:
                    now = adapter_table.table_now(live.game, side)
                return now, record

        now, record = await run_in_threadpool(read)
        if now is None:
            assert turn is not None
            try:
                now = await run_in_threadpool(adapter_table.table_at, record, side, turn)
            except BattlelineError as exc:  # the record did not replay to that turn
                raise HTTPException(422, str(exc)) from None
        body: dict[str, Any] = {
            **now,
            "turns_seen": record.turn,
            "live": turn is None or turn == record.turn,
        }
        return JSONResponse(body, headers={"Cache-Control": "no-store"})
