"""Routes: running a game — the clock and deadline, and the umpire's actions.

The umpire (their credential only; a side's gets 403) may change the turn deadline, resolve the
open phase once its deadline has passed (the sides that have not sealed get no orders), hand an
absent side to the computer and take it back. A side handed to the computer keeps its
credential's read access (its view, its table) but may not give orders until the umpire takes it
back. The lobby, the after-action report and the replay are in :mod:`.running_after`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException
from fastapi.responses import HTMLResponse, JSONResponse, Response

from battleline.errors import BattlelineError
from battleline.server import adapter, clocks
from battleline.server.adapter_running import seal_no_orders, umpire_picture
from battleline.server.context import ERRORS, GameId, ServerContext, Token
from battleline.server.models_running import DeadlineIn, PhaseIn, SideIn, UmpireDone
from battleline.server.routes import running_after
from battleline.server.service import advance_ai
from battleline.server.store import LiveGame

STATIC = Path(__file__).parent.parent / "static"


def _left(seconds: float) -> str:
    """Seconds as "1 h 02 min 05 s"."""
    s = int(seconds + 0.999)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h} h {m:02d} min {sec:02d} s" if h else f"{m} min {sec:02d} s"


def clock_json(ctx: ServerContext, live: LiveGame) -> dict[str, Any]:
    """The game's clock as the API shows it (a game without one has no deadline), and the
    sides the computer plays (public, as the game link shows them)."""
    clock = clocks.clock_of(ctx.store, live.id)
    turn, phase = adapter.open_phase(live.game)
    over = adapter.finished(live.game)
    if clock is None or (clock.turn, clock.phase) != (turn, phase):
        body: dict[str, Any] = {
            "deadline_minutes": None if clock is None else clock.deadline_minutes,
            "turn": turn,
            "phase": phase,
            "phase_opened_at": None,
            "deadline_at": None,
            "seconds_left": None,
            "passed": False,
        }
    else:
        body = clock.to_dict(ctx.store.now(), over)
    body["computer_sides"] = list(live.ai_sides)
    return body


def _done(live: LiveGame, action: str, no_orders: list[str] | None = None) -> UmpireDone:
    game = live.game
    turn, phase = adapter.open_phase(game)
    return UmpireDone(
        action=action,
        turn=turn,
        phase=phase,
        waiting_for=list(adapter.waiting_for(game)),
        ai_sides=list(live.ai_sides),
        finished=adapter.finished(game),
        result=adapter.result_line(game),
        no_orders=no_orders or [],
    )


def _advanced(ctx: ServerContext, live: LiveGame) -> None:
    """Let the computer sides answer, then save (a failure leaves nothing half saved)."""
    try:
        advance_ai(live)
    except BattlelineError as exc:
        ctx.store.forget(live.id)
        raise HTTPException(500, f"the computer side's orders failed: {exc}") from None
    ctx.store.save(live)


def _side(live: LiveGame, side: str) -> str:
    sides = adapter.sides(live.game)
    if side not in sides:
        raise HTTPException(422, f"side: {side!r} is not a side of this game ({', '.join(sides)})")
    return side


def _not_over(live: LiveGame) -> None:
    if adapter.finished(live.game):
        raise HTTPException(409, f"the game is over: {adapter.result_line(live.game)}")


def add_routes(app: FastAPI, ctx: ServerContext) -> None:
    """Add this module's routes to ``app``."""
    opened = ctx.opened

    @app.get("/api/games/{game_id}/clock", responses=ERRORS)
    def clock(game_id: GameId) -> JSONResponse:
        """The deadline and the time left for the open phase (public: anyone may know it)."""
        with opened(game_id) as live:
            body = clock_json(ctx, live)
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.put("/api/games/{game_id}/deadline", responses=ERRORS)
    def deadline(game_id: GameId, req: DeadlineIn, token: Token) -> JSONResponse:
        """The umpire sets the deadline (minutes a phase, or ``null``); the open phase keeps
        the time it opened."""
        ctx.umpire_of(game_id, token)
        with opened(game_id) as live:
            clocks.set_deadline(ctx.store, live, req.minutes)
            body = clock_json(ctx, live)
        return JSONResponse(body)

    @app.post("/api/games/{game_id}/resolve", responses=ERRORS)
    def resolve(game_id: GameId, req: PhaseIn, token: Token) -> UmpireDone:
        """Resolve the open phase once its deadline has passed: each human side that has not
        sealed gets no orders; then the computer sides answer. 409 before the deadline."""
        ctx.umpire_of(game_id, token)
        with opened(game_id) as live:
            game = live.game
            _not_over(live)
            turn, phase = adapter.open_phase(game)
            if (req.turn, req.phase) != (turn, phase):
                raise HTTPException(
                    409, f"phase: turn {req.turn} {req.phase} is not open; turn {turn} {phase} is"
                )
            left = clock_json(ctx, live)
            if left["deadline_minutes"] is None:
                raise HTTPException(409, "deadline: this game has none; set one first")
            if left["seconds_left"] is None or not left["passed"]:
                wait = _left(float(left["seconds_left"] or 0))
                raise HTTPException(
                    409, f"deadline: {wait} left for turn {turn} {phase}; resolve after that"
                )
            absent = [
                s
                for s in adapter.waiting_for(game)
                if s not in live.ai_sides and not adapter.has_sealed(game, s)
            ]
            try:
                for side in absent:
                    seal_no_orders(game, side)
            except BattlelineError as exc:
                ctx.store.forget(live.id)
                raise HTTPException(500, f"no orders for {side} were refused: {exc}") from None
            _advanced(ctx, live)
            clocks.log_action(
                ctx.store, live, "resolve", {"no_orders": absent, "at": [turn, phase]}
            )
            return _done(live, "resolve", absent)

    @app.post("/api/games/{game_id}/hand-to-ai", responses=ERRORS)
    def hand_to_ai(game_id: GameId, req: SideIn, token: Token) -> UmpireDone:
        """Hand a side to the computer: it gives that side's orders from now on."""
        ctx.umpire_of(game_id, token)
        with opened(game_id) as live:
            _not_over(live)
            side = _side(live, req.side)
            if side in live.ai_sides:
                raise HTTPException(409, f"side: the computer plays {side} already")
            clocks.set_ai_sides(ctx.store, live, (*live.ai_sides, side), "hand-to-ai")
            _advanced(ctx, live)
            return _done(live, "hand-to-ai")

    @app.post("/api/games/{game_id}/take-back", responses=ERRORS)
    def take_back(game_id: GameId, req: SideIn, token: Token) -> UmpireDone:
        """Give a side the umpire handed to the computer back to its player's credential."""
        ctx.umpire_of(game_id, token)
        with opened(game_id) as live:
            _not_over(live)
            side = _side(live, req.side)
            if side not in live.ai_sides:
                raise HTTPException(409, f"side: {side} is not played by the computer")
            if side not in ctx.store.seats(game_id):
                raise HTTPException(
                    409, f"side: {side} was a computer side from the start; it has no seat"
                )
            kept = tuple(s for s in live.ai_sides if s != side)
            clocks.set_ai_sides(ctx.store, live, kept, "take-back")
            live.admirals.pop(side, None)
            live.cursors.pop(side, None)
            return _done(live, "take-back")

    @app.get("/api/games/{game_id}/umpire/running", responses=ERRORS)
    def running(game_id: GameId, token: Token) -> JSONResponse:
        """The umpire's page data: seats, sealed or not, the computer sides, the clock, the
        actions taken."""
        ctx.umpire_of(game_id, token)
        with opened(game_id) as live:
            game = live.game
            claimed = ctx.store.seats(game_id)
            turn, phase = adapter.open_phase(game)
            body = {
                "game_id": game_id,
                "turn": turn,
                "phase": phase,
                "finished": adapter.finished(game),
                "result": adapter.result_line(game),
                "sides": [
                    {
                        "side": s,
                        "seat": s in claimed,
                        "claimed": claimed.get(s, False),
                        "computer": s in live.ai_sides,
                        "sealed": adapter.has_sealed(game, s),
                        "awaited": s in adapter.waiting_for(game),
                    }
                    for s in adapter.sides(game)
                ],
                "clock": clock_json(ctx, live),
                "actions": clocks.actions(ctx.store, game_id),
            }
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.get("/api/games/{game_id}/umpire/picture.svg", responses=ERRORS)
    def umpire_svg(game_id: GameId, token: Token) -> Response:
        """The true table (every ship where she is), for the umpire's eyes only."""
        ctx.umpire_of(game_id, token)
        with opened(game_id) as live:
            svg = umpire_picture(live.game)
        if svg is None:
            raise HTTPException(404, "picture: this ruleset draws no table")
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    @app.get("/umpire", include_in_schema=False)
    def umpire_page() -> HTMLResponse:
        return HTMLResponse((STATIC / "umpire.html").read_text(encoding="utf-8"))

    running_after.add_routes(app, ctx)
