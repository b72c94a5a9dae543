"""Routes: the lobby, and once a game is over its after-action report and its replay.

The lobby takes the credentials a browser holds and says, for each, what game and side it opens
and whether that side must move; a credential that opens nothing is reported as such, never an
error. The report and the replay are public once the battle has ended (everything is then) and
refused with 409 before.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import JSONResponse, Response

from battleline.errors import BattlelineError
from battleline.server import adapter, clocks
from battleline.server.adapter_running import Replays, report
from battleline.server.context import ERRORS, GameId, ServerContext
from battleline.server.models_running import LobbyEntry, LobbyIn, LobbyOut, LobbySeat
from battleline.server.service import scenario_title
from battleline.server.store import UMPIRE, LiveGame, StoreError


def _over(live: LiveGame, what: str) -> None:
    if not adapter.finished(live.game):
        turn, phase = adapter.open_phase(live.game)
        raise HTTPException(
            409, f"{what}: shown once the battle is over (now turn {turn}, {phase} phase)"
        )


def _entry(ctx: ServerContext, seat: LobbySeat) -> LobbyEntry:
    """One seat of the lobby; a seat that opens nothing is reported, not raised."""
    if len(seat.game) > 64 or not ctx.store.exists(seat.game):
        return LobbyEntry(game=seat.game, ok=False, problem="game: no such game")
    role = ctx.store.role(seat.game, seat.token) if seat.token else None
    if role is None:
        return LobbyEntry(game=seat.game, ok=False, problem="token: opens no seat in this game")
    try:
        with ctx.opened(seat.game) as live:
            game = live.game
            turn, phase = adapter.open_phase(game)
            over = adapter.finished(game)
            side = None if role == UMPIRE else role
            computer = side is not None and side in live.ai_sides
            clock = clocks.clock_of(ctx.store, live.id)
            left = None
            if clock is not None and not over and (clock.turn, clock.phase) == (turn, phase):
                left = clock.seconds_left(ctx.store.now())
            return LobbyEntry(
                game=seat.game,
                ok=True,
                role=role,
                title=scenario_title(live),
                side=side,
                turn=turn,
                phase=phase,
                must_move=bool(
                    side is not None
                    and not over
                    and not computer
                    and side in adapter.waiting_for(game)
                    and not adapter.has_sealed(game, side)
                ),
                computer=computer,
                finished=over,
                result=adapter.result_line(game),
                seconds_left=left,
            )
    except (StoreError, BattlelineError) as exc:
        return LobbyEntry(game=seat.game, ok=False, problem=f"game: cannot be opened: {exc}")


def add_routes(app: FastAPI, ctx: ServerContext) -> None:
    """Add this module's routes to ``app``."""
    opened = ctx.opened
    replays = Replays()

    @app.post("/api/lobby", responses=ERRORS)
    def lobby(req: LobbyIn) -> LobbyOut:
        """For each seat a browser holds: scenario, side, turn and phase, whether it must move,
        and the result once over."""
        return LobbyOut(seats=[_entry(ctx, s) for s in req.seats])

    @app.get("/api/games/{game_id}/aar", responses=ERRORS)
    def aar(game_id: GameId) -> JSONResponse:
        """The after-action report: ships lost, hits given and taken and gunnery accuracy per
        ship, the victory points and the verdict (public once the battle is over)."""
        with opened(game_id) as live:
            _over(live, "the after-action report")
            body = report(live.game)
            body["title"] = scenario_title(live)
        return JSONResponse(body)

    def frames_of(live: LiveGame) -> Any:
        return replays.frames(f"{live.id}/{live.version}", live.game)

    def step_of(frames: Any, step: int | None, turn: int | None, phase: str | None) -> int:
        if step is not None:
            if step >= len(frames):
                raise HTTPException(404, f"step: the replay has steps 0 to {len(frames) - 1}")
            return step
        if turn is None:
            return 0
        for i, f in enumerate(frames):
            if f.turn == turn and (phase is None or f.phase == phase):
                return i
        raise HTTPException(
            404, f"turn/phase: the record has no turn {turn}{' ' + phase if phase else ''} phase"
        )

    @app.get("/api/games/{game_id}/replay", responses=ERRORS)
    def replay(
        game_id: GameId,
        step: Annotated[int | None, Query(ge=0, le=1_000_000)] = None,
        turn: Annotated[int | None, Query(ge=1, le=10_000)] = None,
        phase: Annotated[str | None, Query(max_length=50)] = None,
    ) -> JSONResponse:
        """One phase of the finished game: the state as it opened, the events it made, the
        list of every step (``step``, or ``turn`` and ``phase``; the first if neither)."""
        with opened(game_id) as live:
            _over(live, "the replay")
            frames = frames_of(live)
            i = step_of(frames, step, turn, phase)
            f = frames[i]
            body = {
                "step": i,
                "steps": [[g.turn, g.phase] for g in frames],
                "turn": f.turn,
                "phase": f.phase,
                "state": f.state,
                "events": f.events,
                "picture": f"/api/games/{game_id}/replay.svg?step={i}",
                "result": adapter.result_line(live.game),
            }
        return JSONResponse(body)

    @app.get("/api/games/{game_id}/replay.svg", responses=ERRORS)
    def replay_svg(
        game_id: GameId, step: Annotated[int, Query(ge=0, le=1_000_000)] = 0
    ) -> Response:
        """The true table as that step opened (the ruleset's umpire picture)."""
        with opened(game_id) as live:
            _over(live, "the replay")
            frames = frames_of(live)
            i = step_of(frames, step, None, None)
            svg = replays.picture(f"{live.id}/{live.version}", live.game, i)
        if svg is None:
            raise HTTPException(404, "picture: this ruleset draws no table")
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"})
