"""The web server: players on different machines give hidden, simultaneous orders.

A thin layer over the engine (through :mod:`battleline.server.adapter`). It holds no rules:
orders are checked and sealed by the engine, and everything it says about a game to a player is
built from the engine's view for that player's side (the enemy's sealed orders and ship logs
never leave the server before the phase resolves, BF6-GEN-07).

Seats: whoever makes a game gets a game link, one invite per human side and the umpire's
credential. A side claims its seat once with its invite and receives its own secret credential;
only that credential opens the side's view and orders, so the creator cannot act for a side
without claiming it. The seed is never shown before the battle ends. Send a credential as
``X-Battleline-Token``, ``Authorization: Bearer …`` or ``?token=``. See ``docs/web.md``.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError

from battleline.errors import (
    BattlelineError,
    IllegalOrderError,
    OrderSyntaxError,
    UnknownNameError,
)
from battleline.server import adapter, adapter_forms
from battleline.server.context import ERRORS, GameId, ServerContext, Token
from battleline.server.limits import Guard, Limits
from battleline.server.models import (
    NOTATION_HELP,
    CheckOut,
    ClaimIn,
    GameCreated,
    GameInfo,
    Invite,
    NewGame,
    OrdersIn,
    OrdersOut,
    ScenarioOut,
    Seat,
    SeatInfo,
)
from battleline.server.routes import ROUTE_MODULES
from battleline.server.scenarios import ScenarioInputError, decode
from battleline.server.service import (
    advance_ai,
    create_game,
    land_of,
    picture_svg,
    scenario_title,
)
from battleline.server.store import (
    ClaimError,
    GameStore,
    LiveGame,
    StaleGameError,
    StoreError,
)

__all__ = ["EVENTS_HEADER", "NOTATION_HELP", "advance_ai", "create_app", "create_game"]

_log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
#: The next ``since`` for ``GET /view`` (how many events the game has, seen or not).
EVENTS_HEADER = "X-Battleline-Events"


class OrdersRefused(Exception):
    """Orders the engine refused, with every problem (``adapter_forms.problems``)."""

    def __init__(self, problems: list[dict[str, Any]]) -> None:
        super().__init__(problems[0]["message"] if problems else "refused")
        self.problems = problems


def _where(loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "header", "path")]
    return ".".join(parts) or "body"


def _validation_detail(exc: RequestValidationError) -> str:
    """One line naming every field a request got wrong."""
    problems = []
    for err in exc.errors():
        if err.get("type") == "json_invalid":
            problems.append(f"body: not valid JSON ({err.get('ctx', {}).get('error', 'bad')})")
        elif tuple(err.get("loc", ())) == ("body",) and err.get("type") != "missing":
            problems.append("body: send a JSON object, with Content-Type: application/json")
        else:
            problems.append(f"{_where(err.get('loc', ()))}: {err.get('msg', 'invalid')}")
    return "; ".join(problems) or "the request is not valid"


def create_app(
    db_url: str | None = None,
    *,
    limits: Limits | None = None,
    allow_seed: bool = False,
    scenario_dir: str | Path | None = None,
) -> Guard:
    """The web app over a game store (``db_url``: a SQLAlchemy URL or a SQLite file path).

    ``allow_seed`` lets ``POST /api/games`` choose the seed (tests and benchmarks only: a seed
    known to a player lets them foresee the dice). The answer is the FastAPI app wrapped in
    the body-size and rate limits (:class:`~battleline.server.limits.Guard`); the FastAPI app
    itself is ``.app``.
    """
    store = GameStore(db_url, scenario_dir)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    app = FastAPI(title="battleline", version="2", lifespan=lifespan)
    app.state.store = store

    @app.exception_handler(RequestValidationError)
    async def bad_request(_r: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _validation_detail(exc)}, status_code=422)

    @app.exception_handler(DBAPIError)
    async def database_down(_r: Request, exc: DBAPIError) -> JSONResponse:
        _log.error("database error: %s", exc)
        return JSONResponse(
            {"detail": "the database did not answer; nothing was saved, try again"},
            status_code=503,
            headers={"Retry-After": "1"},
        )

    ctx = ServerContext(store, allow_seed)
    side_of, opened = ctx.side_of, ctx.opened

    @app.exception_handler(UnknownNameError)
    async def unknown(_r: Request, exc: UnknownNameError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @app.exception_handler(StoreError)
    async def unloadable(_r: Request, exc: StoreError) -> JSONResponse:
        if isinstance(exc, StaleGameError):
            return JSONResponse({"detail": str(exc)}, status_code=409)
        return JSONResponse({"detail": f"the game cannot be opened: {exc}"}, status_code=410)

    errors = ERRORS

    @app.get("/api/scenarios")
    def scenarios() -> list[ScenarioOut]:
        """The built-in scenarios of every ruleset."""
        return list(scenario_summaries())

    @app.get("/api/notation")
    def notation() -> dict[str, str]:
        """Short help on the order notation of each phase."""
        return NOTATION_HELP

    def made(req: NewGame, base: str) -> GameCreated:
        if req.seed is not None and not allow_seed:
            raise HTTPException(
                422, "seed: chosen by the server and kept secret until the battle ends"
            )
        seed = req.seed if req.seed is not None else secrets.randbelow(2**62)
        try:
            live, seats = create_game(
                store,
                seed,
                req.ai,
                scenario=req.scenario,
                text=req.scenario_text,
                deadline_minutes=req.deadline_minutes,
            )
        except BattlelineError as exc:
            raise HTTPException(422, str(exc)) from None
        invites = [
            Invite(
                side=s,
                human=s in seats.invites,
                invite=seats.invites.get(s),
                url=f"{base}#game={live.id}&invite={seats.invites[s]}"
                if s in seats.invites
                else None,
            )
            for s in adapter.sides(live.game)
        ]
        return GameCreated(
            game_id=live.id,
            scenario=live.ref,
            title=scenario_title(live),
            game_url=f"{base}#game={live.id}",
            invites=invites,
            umpire_token=seats.umpire,
            umpire_url=f"{base}api/games/{live.id}/umpire?token={seats.umpire}",
            umpire_page=f"{base}umpire#game={live.id}&token={seats.umpire}",
        )

    @app.post("/api/games", status_code=201, responses=errors)
    def make_game(req: NewGame, request: Request) -> GameCreated:
        """Start a game from a built-in id or TOML text; the answer carries the invites."""
        return made(req, str(request.base_url))

    @app.post("/api/games/upload", status_code=201, responses=errors)
    async def upload_game(
        request: Request,
        ai: Annotated[list[str], Query(max_length=2)] = [],  # noqa: B006
        seed: Annotated[int | None, Query(ge=0, lt=2**62)] = None,
        deadline_minutes: Annotated[int | None, Query(ge=1)] = None,
    ) -> GameCreated:
        """Start a game from a scenario file sent as the raw body (``--data-binary @x.toml``)."""
        try:
            text = decode(await request.body())
        except ScenarioInputError as exc:
            raise HTTPException(422, str(exc)) from None
        try:
            req = NewGame(scenario_text=text, seed=seed, ai=ai, deadline_minutes=deadline_minutes)
        except ValidationError as exc:
            raise HTTPException(422, str(exc.errors()[0]["msg"])) from None
        return await run_in_threadpool(made, req, str(request.base_url))

    @app.get("/api/games/{game_id}", responses=errors)
    def game_info(game_id: GameId) -> GameInfo:
        """The game link: scenario, seats and whether they are claimed, the open phase."""
        with opened(game_id) as live:
            game = live.game
            over = adapter.finished(game)
            turn, phase = adapter.open_phase(game)
            claimed = store.seats(game_id)
            return GameInfo(
                game_id=game_id,
                scenario=live.ref,
                title=scenario_title(live),
                seats=[
                    SeatInfo(side=s, human=s in claimed, claimed=claimed.get(s, False))
                    for s in adapter.sides(game)
                ],
                turn=turn,
                phase=phase,
                waiting_for=list(adapter.waiting_for(game)),
                finished=over,
                result=adapter.result_line(game),
                seed=game.state.seed if over else None,
            )

    @app.post("/api/games/{game_id}/claim", responses=errors)
    def claim(game_id: GameId, req: ClaimIn, request: Request) -> Seat:
        """Claim a side's seat with its invite (once); the answer is the seat's credential."""
        if not store.exists(game_id):
            raise HTTPException(404, f"unknown game {game_id!r}")
        try:
            side, token = store.claim(game_id, req.invite)
        except ClaimError as exc:
            raise HTTPException(409 if "claimed already" in str(exc) else 403, str(exc)) from None
        return Seat(side=side, token=token, url=f"{request.base_url}#game={game_id}&token={token}")

    @app.get("/api/games/{game_id}/view", responses=errors)
    def side_view(game_id: GameId, token: Token, since: Annotated[int, Query(ge=0)] = 0) -> Any:
        """The game as the token's side sees it (the ruleset's side view as JSON)."""
        side = side_of(game_id, token)
        with opened(game_id) as live:
            seen = adapter.side_view(live.game, side, since=since)
            total = adapter.events_count(live.game)
        return Response(
            adapter.view_json(seen),
            media_type="application/json",
            headers={EVENTS_HEADER: str(total), "Cache-Control": "no-store"},
        )

    def checked_phase(live: LiveGame, req: OrdersIn) -> None:
        game = live.game
        if adapter.finished(game):
            raise HTTPException(409, f"the game is over: {adapter.result_line(game)}")
        turn, phase = adapter.open_phase(game)
        if (req.turn, req.phase) != (turn, phase):
            raise HTTPException(
                409,
                f"stale orders for turn {req.turn} {req.phase} phase: the open phase is turn "
                f"{turn} {phase}",
            )

    def refused(live: LiveGame, side: str, req: OrdersIn, exc: Exception) -> OrdersRefused:
        """Every problem of refused orders, each with its line and form field."""
        found = adapter_forms.problems(
            live.game, side, req.lines, req.turn, req.phase, req.fields
        ) or [{"line": None, "field": None, "message": str(exc)}]
        return OrdersRefused(found)

    @app.exception_handler(OrdersRefused)
    async def orders_refused(_r: Request, exc: OrdersRefused) -> JSONResponse:
        """422 listing every problem; ``detail`` joins them (for clients reading one line)."""
        detail = "; ".join(p["message"] for p in exc.problems)
        return JSONResponse({"detail": detail, "problems": exc.problems}, status_code=422)

    @app.post("/api/games/{game_id}/check", responses=errors)
    def check(game_id: GameId, req: OrdersIn, token: Token) -> CheckOut:
        """Check orders for the open phase without sealing them."""
        side = side_of(game_id, token)
        with opened(game_id) as live:
            checked_phase(live, req)
            try:
                adapter.check(live.game, side, req.lines, req.turn, req.phase)
            except (OrderSyntaxError, IllegalOrderError, UnknownNameError) as exc:
                raise refused(live, side, req, exc) from None
        return CheckOut(ok=True)

    @app.post("/api/games/{game_id}/orders", responses=errors)
    def orders(game_id: GameId, req: OrdersIn, token: Token) -> OrdersOut:
        """Seal the side's orders, committed before the answer; the AI answers, it resolves."""
        side = side_of(game_id, token)
        with opened(game_id) as live:
            checked_phase(live, req)
            if side in live.ai_sides:  # handed to the AI by the umpire (routes/running.py)
                raise HTTPException(409, f"token: the umpire has handed {side} to the computer")
            game = live.game
            try:
                adapter.submit(game, side, req.lines, req.turn, req.phase)
            except (OrderSyntaxError, IllegalOrderError, UnknownNameError) as exc:
                raise refused(live, side, req, exc) from None  # nothing was sealed
            failure: str | None = None
            try:
                advance_ai(live)
            except BattlelineError:  # the engine rolled the attempt back; the text may hold
                _log.exception("game %s: AI orders failed", game_id)  # the AI's own orders
                failure = "the computer side's orders failed; the umpire's log has the cause"
            store.save(live)  # any failure drops the cached game: nothing unsaved is shown
            if failure:
                raise HTTPException(500, failure)
            seen = adapter.side_view(game, side, since=adapter.events_count(game))
        return OrdersOut(
            sealed=True,
            resolved=(seen.turn, seen.phase) != (req.turn, req.phase) or seen.result is not None,
            turn=seen.turn,
            phase=seen.phase,
            waiting_for=list(seen.waiting_for),
            result=seen.result,
        )

    @app.get("/api/games/{game_id}/umpire", responses=errors)
    def umpire(game_id: GameId, token: Token) -> JSONResponse:
        """The umpire's picture: state, sealed orders, events, record (the seed once over)."""
        ctx.umpire_of(game_id, token)
        with opened(game_id) as live:
            game = live.game
            body = adapter.umpire_picture(game, live.ref)
            body["state_hash"] = adapter.portable_hash(game, live.ref)
            body["ai_sides"] = list(live.ai_sides)
            if adapter.finished(game):
                body["record"] = adapter.record_json(game, live.ref)
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.get("/api/games/{game_id}/picture.svg", responses=errors)
    def picture(game_id: GameId, token: Token) -> Response:
        """The table as the token's side sees it (drawn from its view only)."""
        side = side_of(game_id, token)
        with opened(game_id) as live:
            seen = adapter.side_view(live.game, side, since=adapter.events_count(live.game))
            land = land_of(live)
        title = f"{side}: turn {seen.turn}, {seen.phase} phase"
        try:
            svg = picture_svg(seen, land, title)
        except BattlelineError as exc:
            raise HTTPException(404, str(exc)) from None
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    for module in ROUTE_MODULES:
        module.add_routes(app, ctx)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return Guard(app, limits or Limits(), state=app.state)


def app_from_env() -> Guard:
    """The app configured from the environment (``uvicorn --factory``; the load test uses it).

    ``BATTLELINE_DB`` (URL or SQLite path), ``BATTLELINE_ALLOW_SEED=1``,
    ``BATTLELINE_NO_RATE_LIMIT=1`` (body limits stay), ``BATTLELINE_SCENARIO_DIR``.
    """
    limits = Limits.unlimited_rate() if os.environ.get("BATTLELINE_NO_RATE_LIMIT") else Limits()
    return create_app(
        os.environ.get("BATTLELINE_DB"),
        limits=limits,
        allow_seed=os.environ.get("BATTLELINE_ALLOW_SEED") == "1",
        scenario_dir=os.environ.get("BATTLELINE_SCENARIO_DIR"),
    )


@cache
def scenario_summaries() -> tuple[ScenarioOut, ...]:
    """Every built-in scenario of every registered ruleset (the packaged files never change
    while the server runs): bf1900-schema files described from the file, the others from the
    game they set up."""
    from battleline.game import new_game
    from battleline.rulesets import builtin_scenarios as owners
    from battleline.rulesets import get_ruleset
    from battleline.rulesets.bf1900.scenario import builtin_scenarios

    schema = builtin_scenarios()
    out: list[ScenarioOut] = []
    for sid, ruleset in owners().items():
        sc = schema.get(sid)
        if sc is not None:
            out.append(
                ScenarioOut(
                    id=sid,
                    title=sc.title,
                    description=sc.description,
                    ruleset=ruleset,
                    sides=[x.name for x in sc.sides],
                    turn_limit=sc.turn_limit,
                    scale=sc.scale,
                )
            )
            continue
        state = new_game(sid, 0).state
        out.append(
            ScenarioOut(
                id=sid,
                title=get_ruleset(ruleset).check_scenario(sid),
                description="",
                ruleset=ruleset,
                sides=list(state.sides),
                turn_limit=state.turn_limit,
                scale=str(getattr(state, "scale", "")),
            )
        )
    return tuple(out)
