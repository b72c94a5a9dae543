"""Routes of the live part: the push stream (server-sent events) and the game's chat.

``GET /api/games/{id}/stream`` pushes ``hello``, ``sealed``, ``resolved``, ``presence`` and
``chat`` messages (see :mod:`battleline.server.live_push`); ``POST /api/games/{id}/chat`` sends
a message to the writer's side (and the umpire) or to everyone, ``GET /api/games/{id}/chat``
lists those the seat may read. A side never reads the other side's side channel while the
battle is on; once it is over, every channel is open to every seat, as the record is.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from battleline.server import live_store
from battleline.server.context import ERRORS, GameId, ServerContext, Token
from battleline.server.live_push import Hub, Resume, WakeOnChange, stream
from battleline.server.live_store import CHAT_MAX_CHARS, ChatError


class ChatIn(BaseModel):
    """A chat message: to the writer's own side channel, or to everyone."""

    model_config = ConfigDict(extra="forbid")

    channel: Literal["side", "all"]
    text: str = Field(min_length=1, max_length=CHAT_MAX_CHARS + 200)  # trimmed, then checked
    to: str | None = Field(default=None, max_length=200)  # the umpire's side channel target


class ChatOut(BaseModel):
    """A chat message as a seat reads it."""

    model_config = ConfigDict(populate_by_name=True)

    id: int
    sender: str = Field(alias="from", serialization_alias="from")
    channel: str
    side: str | None
    text: str
    at: str


def add_routes(app: FastAPI, ctx: ServerContext) -> None:
    """The stream and chat routes, and the middleware that wakes streams on a change."""
    hub = Hub()
    app.state.hub = hub
    app.add_middleware(WakeOnChange, hub=hub)
    store = ctx.store

    @app.get(
        "/api/games/{game_id}/stream",
        responses=ERRORS | {200: {"content": {"text/event-stream": {}}}},
        response_class=StreamingResponse,
    )
    async def push(
        game_id: GameId,
        token: Token,
        request: Request,
        last_event_id: Annotated[str | None, Header(max_length=64)] = None,
        last: Annotated[str | None, Query(alias="last_event_id", max_length=64)] = None,
    ) -> StreamingResponse:
        """Server-sent events of the game for any seat (``?token=``: EventSource sends no
        headers); ``Last-Event-ID`` (header, or ``?last_event_id=``) resumes."""
        role = await run_in_threadpool(ctx.role_of, game_id, token)
        try:
            resume = Resume.parse(last_event_id or last)
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from None
        return StreamingResponse(
            stream(store, hub, game_id, role, resume, request.is_disconnected),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    @app.post("/api/games/{game_id}/chat", status_code=201, responses=ERRORS)
    async def send_chat(game_id: GameId, req: ChatIn, token: Token) -> ChatOut:
        """Send a message to the writer's side channel (``side``) or to everyone (``all``)."""
        role = await run_in_threadpool(ctx.role_of, game_id, token)
        try:
            sent = await run_in_threadpool(
                live_store.post, store, game_id, role, req.channel, req.text, req.to
            )
        except ChatError as exc:
            status = 429 if str(exc).startswith("chat:") else 422
            raise HTTPException(status, str(exc)) from None
        hub.wake(game_id)
        return ChatOut.model_validate(sent)

    @app.get("/api/games/{game_id}/chat", responses=ERRORS)
    def read_chat(
        game_id: GameId, token: Token, since: Annotated[int, Query(ge=0, lt=2**62)] = 0
    ) -> list[dict[str, Any]]:
        """The messages after id ``since`` the seat may read (at most 500; ask again)."""
        role = ctx.role_of(game_id, token)
        over = live_store.finished(store, game_id)
        return live_store.read(store, game_id, role, since, everything=over)
