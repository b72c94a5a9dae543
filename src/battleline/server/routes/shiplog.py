"""Routes: the ship log page — a side's own ship logs box by box, and what it sees of the enemy.

``GET /api/games/{id}/shiplog`` gives every own ship's log and every enemy ship in sight;
``GET /api/games/{id}/shiplog/{ship}`` one of them. The layout comes from the ruleset's
``web_shiplog`` part, built from the side's view (:mod:`battleline.server.adapter_shiplog`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import FastAPI, HTTPException
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse

from battleline.server import adapter_shiplog
from battleline.server.context import ERRORS, GameId, ServerContext, Token

ShipName = Annotated[str, PathParam(max_length=100)]
_NO_STORE = {"Cache-Control": "no-store"}


def add_routes(app: FastAPI, ctx: ServerContext) -> None:
    """Add this module's routes to ``app``."""

    @app.get("/api/games/{game_id}/shiplog", responses=ERRORS)
    def ship_logs(game_id: GameId, token: Token) -> JSONResponse:
        """Every own ship's log in full and every enemy ship in sight (no log, no position)."""
        side = ctx.side_of(game_id, token)
        with ctx.opened(game_id) as live:
            try:
                body = adapter_shiplog.ship_logs(live.game, side)
            except adapter_shiplog.NoShipLog as exc:
                raise HTTPException(404, str(exc)) from None
        return JSONResponse(body, headers=_NO_STORE)

    @app.get("/api/games/{game_id}/shiplog/{ship}", responses=ERRORS)
    def ship_log(game_id: GameId, ship: ShipName, token: Token) -> JSONResponse:
        """One ship: her log if she is the side's own, what shows of her if she is an enemy."""
        side = ctx.side_of(game_id, token)
        with ctx.opened(game_id) as live:
            try:
                body = adapter_shiplog.ship_log(live.game, side, ship)
            except adapter_shiplog.NoShipLog as exc:
                raise HTTPException(404, str(exc)) from None
        if body is None:
            raise HTTPException(
                404, f"ship: {ship!r} is neither one of {side}'s ships nor an enemy in sight"
            )
        return JSONResponse(body, headers=_NO_STORE)
