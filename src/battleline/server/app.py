"""The web server: players on different machines give hidden, simultaneous orders.

A thin layer over the engine. It holds no rules: orders are checked and sealed by
:func:`battleline.engine.submit`, and everything it says about a game to a player is built from
:func:`battleline.engine.view` for that player's side (the enemy's sealed orders and ship logs
never leave the server before the phase resolves, BF6-GEN-07). The umpire's token opens
:func:`battleline.engine.umpire_view`. Sides played by the computer give their orders through the
admirals (:func:`battleline.ai.base.admiral_factory`, each seeded from the game seed by
:func:`battleline.engine.admiral_seed`, as :func:`battleline.ai.base.play` does) once every human
side has submitted.

Authentication is the join token alone: one per human side and one for the umpire, random from
:mod:`secrets`, stored hashed. Send it as ``X-Battleline-Token``, ``Authorization: Bearer …`` or
``?token=``. See ``docs/web.md``.
"""

from __future__ import annotations

import logging
import tempfile
import threading
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from battleline.engine import Game, admiral_seed, state_hash, umpire_view, view
from battleline.errors import (
    BattlelineError,
    IllegalOrderError,
    OrderSyntaxError,
    UnknownNameError,
)
from battleline.game import new_game
from battleline.rulesets.bf1900.view import SideView
from battleline.server.store import UMPIRE, GameStore, LiveGame, StaleGameError

_log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
#: The next ``since`` for ``GET /view`` (how many events the game has, seen or not).
EVENTS_HEADER = "X-Battleline-Events"

#: Short help for the order box, by phase name (the grammar itself lives in the rules modules).
NOTATION_HELP: dict[str, str] = {
    "command": (
        "One line per division: 'DIVISION: ORDERS'. Tokens: SPD<knots> (SPD14, SPD12.5), "
        "TS<deg><P|S> turn in succession (TS90S), TT<deg><P|S> turn together (TT45P), STOP, "
        "SIG ENGAGE | FOLLOW | TORPEDO | RECALL | SURRENDER | TURN8 P|S | TURN16 P|S, "
        'DROP <ship> [P|S], FLAG <ship>. Example: "1st Division: SPD14 TS90S". '
        "No line: straight on at last turn's speed."
    ),
    "gunnery": (
        "One line per firing ship: 'SHIP: TARGET @RANGE [AP|HE] MOUNT:ROUNDS ...'. "
        'Example: "Mikasa: Retvisan @5200 AP A:2 Z:2 sec:6". The range is your sealed '
        "estimate in metres."
    ),
    "torpedo": "One line per launch: 'SHIP: TT MOUNT -> TARGET [xN]'. Example: "
    '"Kasumi: TT bow -> Retvisan x2".',
    "damage": "Damage-control declarations: 'SHIP: P; M:A; HVY:forward' (see docs/turn-sequence).",
}


# -- the boundary models ---------------------------------------------------------------------


class ScenarioOut(BaseModel):
    """A scenario one may start."""

    id: str
    title: str
    description: str
    ruleset: str
    sides: list[str]
    turn_limit: int
    scale: str


class NewGame(BaseModel):
    """Start a game: which scenario, the seed (random if left out), which sides the AI plays."""

    scenario: str = Field(min_length=1, max_length=500)
    seed: int | None = Field(default=None, ge=0, lt=2**62)
    ai: list[str] = Field(default_factory=list, max_length=2)


class Seat(BaseModel):
    """One side of a new game: its token and join link if human."""

    side: str
    human: bool
    token: str | None = None
    url: str | None = None


class GameCreated(BaseModel):
    """A new game. The tokens are shown this once; the seed is the umpire's secret."""

    game_id: str
    scenario: str
    seed: int
    seats: list[Seat]
    umpire_token: str
    umpire_url: str


class OrdersIn(BaseModel):
    """A side's orders for the open phase, one order per line."""

    turn: int = Field(ge=1)
    phase: str = Field(min_length=1, max_length=50)
    lines: list[Annotated[str, Field(max_length=500)]] = Field(max_length=300)


class OrdersOut(BaseModel):
    """What sealing changed, as the submitting side sees it."""

    sealed: bool
    resolved: bool
    turn: int
    phase: str
    waiting_for: list[str]
    result: str | None


class CheckOut(BaseModel):
    """Orders that pass the umpire's check (nothing is sealed)."""

    ok: bool


class Problem(BaseModel):
    """An error: the engine's message naming the field, ship or rule."""

    detail: str


# -- the game service (shared with the CLI) ----------------------------------------------------


def create_game(
    store: GameStore, scenario: str, seed: int, ai_sides: Sequence[str] = ()
) -> tuple[LiveGame, dict[str, str]]:
    """Start and store a game; return it and the plain tokens by role (sides and ``umpire``).

    Raises :class:`UnknownNameError`/:class:`ScenarioError` for an unknown scenario or AI side,
    and :class:`IllegalOrderError` when no side is left to a human.
    """
    game = new_game(scenario, seed)
    sides = game.state.sides
    for side in ai_sides:
        if side not in sides:
            raise UnknownNameError("side", side, list(sides))
    if all(s in ai_sides for s in sides):
        raise IllegalOrderError(
            "at least one side must be played by a human (use `battleline demo` to watch two "
            "admirals)"
        )
    live, tokens = store.add(game, tuple(s for s in sides if s in ai_sides))
    advance_ai(live)
    store.save(live)
    return live, tokens


def _admiral(live: LiveGame, side: str) -> Any:
    if side not in live.admirals:
        from battleline.ai.base import admiral_factory

        index = live.game.state.sides.index(side)
        live.admirals[side] = admiral_factory(live.game.ruleset.name)(
            side, admiral_seed(live.game.state.seed, index)
        )
    return live.admirals[side]


def advance_ai(live: LiveGame) -> None:
    """Let the AI sides give their orders while only they are awaited (as ``play`` does)."""
    from battleline.ai.base import legal_lines

    game: Game[Any, Any] = live.game
    while not game.finished:
        waiting = game.pending.waiting_for
        if not waiting or any(s not in live.ai_sides for s in waiting):
            return
        turn, phase = game.state.turn, game.spec.name
        for side in waiting:
            seen = view(game, side, since=live.cursors.get(side, 0))
            live.cursors[side] = len(game.events)
            lines = list(_admiral(live, side).orders(seen, phase))
            try:
                game.submit(side, lines, turn=turn, phase=phase)
            except BattlelineError:
                if side in game.pending.texts:
                    raise  # sealed already: the resolution itself failed
                game.submit(side, legal_lines(game, side, lines), turn=turn, phase=phase)


def picture_svg(side_view: SideView, land: Sequence[Any] = (), title: str = "") -> str:
    """The table as one side sees it, drawn from its view alone (plus the scenario's land)."""
    from battleline.rulesets.bf1900.render import render_table
    from battleline.rulesets.bf1900.scales import get_scale
    from battleline.rulesets.bf1900.scenario import lookup_class

    sc = get_scale(side_view.scale)
    poses = {s.name: s.pose for s in side_view.own}
    poses.update({c.name: c.pose for c in side_view.contacts})
    classes = {s.name: s.cls for s in side_view.own}
    classes.update({c.name: c.cls for c in side_view.contacts})
    sizes = {n: sc.base_size_m(lookup_class(c)) for n, c in classes.items()}
    groups = {s.name: f"{side_view.side}: {s.division or 'ships'}" for s in side_view.own}
    groups.update({c.name: "enemy" for c in side_view.contacts})
    labels = {
        c.name: c.name + (" (fire)" if c.fires else "") + (" (sinking)" if c.sinking else "")
        for c in side_view.contacts
    }
    with _DRAWING, tempfile.TemporaryDirectory() as folder:
        path = render_table(
            Path(folder) / "table.svg",
            poses,
            sizes,
            groups,
            list(land),
            labels=labels,
            title=title,
            scale=sc,
        )
        return path.read_text(encoding="utf-8")


_DRAWING = threading.Lock()  # matplotlib's rc settings are process-wide


def _land_of(scenario: str) -> list[Any]:
    """The scenario's land: public, the same for both sides."""
    from battleline.rulesets.bf1900.scenario import get_scenario
    from battleline.rulesets.bf1900.table import Land

    try:
        return [Land.from_coords(p.name, p.points) for p in get_scenario(scenario).land]
    except BattlelineError:
        return []


# -- the app ---------------------------------------------------------------------------------


def _token(
    x_battleline_token: Annotated[str | None, Header()] = None,
    authorization: Annotated[str | None, Header()] = None,
    token: Annotated[str | None, Query(max_length=200)] = None,
) -> str:
    if x_battleline_token:
        return x_battleline_token
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return token or ""


Token = Annotated[str, Depends(_token)]


def create_app(db_url: str | None = None) -> FastAPI:
    """The FastAPI app over a game store (``db_url``: a SQLAlchemy URL or a SQLite file path)."""
    store = GameStore(db_url)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    app = FastAPI(title="battleline", version="1", lifespan=lifespan)
    app.state.store = store

    def role_of(game_id: str, token: str) -> str:
        if not store.exists(game_id):
            raise HTTPException(404, f"unknown game {game_id!r}")
        role = store.role(game_id, token) if token else None
        if role is None:
            raise HTTPException(403, "this token opens no seat in this game")
        return role

    def side_of(game_id: str, token: str) -> str:
        role = role_of(game_id, token)
        if role == UMPIRE:
            raise HTTPException(403, "the umpire's token opens /umpire, not a side's view")
        return role

    errors: dict[int | str, dict[str, Any]] = {
        409: {"model": Problem},
        403: {"model": Problem},
        404: {"model": Problem},
    }

    @app.get("/api/scenarios")
    def scenarios() -> list[ScenarioOut]:
        """The built-in scenarios."""
        from battleline.rulesets.bf1900.scenario import builtin_scenarios

        return [
            ScenarioOut(
                id=s.id,
                title=s.title,
                description=s.description,
                ruleset=s.ruleset,
                sides=[x.name for x in s.sides],
                turn_limit=s.turn_limit,
                scale=s.scale,
            )
            for s in builtin_scenarios().values()
        ]

    @app.get("/api/notation")
    def notation() -> dict[str, str]:
        """Short help on the order notation of each phase."""
        return NOTATION_HELP

    @app.post("/api/games", status_code=201, responses={422: {"model": Problem}})
    def make_game(req: NewGame, request: Request) -> GameCreated:
        """Start a game; the answer carries the join tokens (shown only this once)."""
        import secrets

        seed = req.seed if req.seed is not None else secrets.randbelow(2**31)
        try:
            live, tokens = create_game(store, req.scenario, seed, req.ai)
        except BattlelineError as exc:
            raise HTTPException(422, str(exc)) from None
        base = str(request.base_url)
        seats = [
            Seat(
                side=s,
                human=s in tokens,
                token=tokens.get(s),
                url=f"{base}#game={live.id}&token={tokens[s]}" if s in tokens else None,
            )
            for s in live.game.state.sides
        ]
        return GameCreated(
            game_id=live.id,
            scenario=req.scenario,
            seed=seed,
            seats=seats,
            umpire_token=tokens[UMPIRE],
            umpire_url=f"{base}api/games/{live.id}/umpire?token={tokens[UMPIRE]}",
        )

    @app.get("/api/games/{game_id}/view", responses=errors)
    def side_view(game_id: str, token: Token, since: Annotated[int, Query(ge=0)] = 0) -> Response:
        """The game as the token's side sees it (``SideView.to_json()``)."""
        side = side_of(game_id, token)
        with store.locked(game_id) as live:
            seen = view(live.game, side, since=since)
            total = len(live.game.events)
        return Response(
            seen.to_json(),
            media_type="application/json",
            headers={EVENTS_HEADER: str(total), "Cache-Control": "no-store"},
        )

    def _checked_phase(live: LiveGame, req: OrdersIn) -> None:
        game = live.game
        if game.finished:
            raise HTTPException(409, f"the game is over: {game.state.result}")
        if req.turn != game.state.turn or req.phase != game.spec.name:
            raise HTTPException(
                409,
                f"stale orders for turn {req.turn} {req.phase} phase: the open phase is turn "
                f"{game.state.turn} {game.spec.name}",
            )

    @app.post("/api/games/{game_id}/check", responses={**errors, 422: {"model": Problem}})
    def check(game_id: str, req: OrdersIn, token: Token) -> CheckOut:
        """Check orders for the open phase without sealing them."""
        side = side_of(game_id, token)
        with store.locked(game_id) as live:
            _checked_phase(live, req)
            try:
                live.game.check(side, req.lines, turn=req.turn, phase=req.phase)
            except (OrderSyntaxError, IllegalOrderError, UnknownNameError) as exc:
                raise HTTPException(422, str(exc)) from None
        return CheckOut(ok=True)

    @app.post("/api/games/{game_id}/orders", responses={**errors, 422: {"model": Problem}})
    def orders(game_id: str, req: OrdersIn, token: Token) -> OrdersOut:
        """Seal the side's orders; once every human side is in, the AI answers and it resolves."""
        side = side_of(game_id, token)
        with store.locked(game_id) as live:
            _checked_phase(live, req)
            game = live.game
            try:
                game.submit(side, req.lines, turn=req.turn, phase=req.phase)
            except (OrderSyntaxError, IllegalOrderError, UnknownNameError) as exc:
                raise HTTPException(422, str(exc)) from None  # nothing was sealed
            failure: str | None = None
            try:
                advance_ai(live)
            except BattlelineError:  # the engine rolled the attempt back; the text may hold
                _log.exception("game %s: AI orders failed", game_id)  # the AI's own orders
                failure = "the computer side's orders failed; the umpire's log has the cause"
            try:
                store.save(live)
            except StaleGameError as exc:
                raise HTTPException(409, str(exc)) from None
            if failure:
                raise HTTPException(500, failure)
            seen = view(game, side, since=len(game.events))
        return OrdersOut(
            sealed=True,
            resolved=(seen.turn, seen.phase) != (req.turn, req.phase) or seen.result is not None,
            turn=seen.turn,
            phase=seen.phase,
            waiting_for=list(seen.waiting_for),
            result=seen.result,
        )

    @app.get("/api/games/{game_id}/umpire", responses=errors)
    def umpire(game_id: str, token: Token) -> JSONResponse:
        """The umpire's full picture: state, sealed orders, all events, the record and hash."""
        if role_of(game_id, token) != UMPIRE:
            raise HTTPException(403, "only the umpire's token opens the umpire's view")
        from battleline.engine import GameRecord

        with store.locked(game_id) as live:
            body = umpire_view(live.game)
            body["state_hash"] = state_hash(live.game.state)
            body["ai_sides"] = list(live.ai_sides)
            body["record"] = GameRecord.of(live.game).to_json()
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.get("/api/games/{game_id}/picture.svg", responses=errors)
    def picture(game_id: str, token: Token) -> Response:
        """The table as the token's side sees it (drawn from its view only)."""
        side = side_of(game_id, token)
        with store.locked(game_id) as live:
            seen = view(live.game, side, since=len(live.game.events))
            scenario = live.game.state.scenario
        title = f"{side}: turn {seen.turn}, {seen.phase} phase"
        svg = picture_svg(seen, _land_of(scenario), title)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
