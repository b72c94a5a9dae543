"""The push channel: server-sent events of a game's progress, presence and chat.

One stream per open page (``GET /api/games/{id}/stream``). Its messages carry only what every
seat may know — which sides have sealed, the new turn and phase, the result line, who is
connected — and the chat messages the listening seat may read; a page fetches its own view
after a push. Every message has an id ``<save counter>.<chat id>.<n>``; a stream opened with
that id as ``Last-Event-ID`` starts with a ``hello`` (where the game stands now, and whether it
moved since that id) and then the chat messages sent meanwhile.

Wake-ups: :class:`Hub` wakes the streams of this process as soon as a request changes a game
(:class:`WakeOnChange` watches every successful write under ``/api/games/{id}/``); besides, each
stream reads the cheap :func:`~battleline.server.live_store.marks` every :data:`POLL_S` seconds,
so a change saved by another server process on the same database arrives within that time.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import anyio
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.exc import DBAPIError

from battleline.server import live_store
from battleline.server.limits import ASGIApp, Message, Receive, Scope, Send
from battleline.server.live_store import Progress
from battleline.server.store import GameStore

#: How often a stream reads the game's marks from the store (another process's changes).
POLL_S = 1.5
#: A comment line is sent when nothing else was for this long (proxies close idle lines).
KEEPALIVE_S = 15.0
#: How often an open stream refreshes its presence row.
BEAT_S = 15.0
#: What ``EventSource`` waits before it opens a dropped stream again, in milliseconds.
RETRY_MS = 2000
_log = logging.getLogger(__name__)
_LAST_ID = re.compile(r"^(\d{1,12})\.(\d{1,15})(?:\.\d{1,12})?$")
_GAME_PATH = re.compile(r"^/api/games/([^/]+)/")


class Hub:
    """The open streams of this process, by game: a change wakes them at once."""

    def __init__(self) -> None:
        self._streams: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}

    def listen(self, game_id: str) -> tuple[asyncio.AbstractEventLoop, asyncio.Event]:
        """A wake-up for a new stream of ``game_id`` (call from the stream's event loop)."""
        entry = (asyncio.get_running_loop(), asyncio.Event())
        self._streams.setdefault(game_id, set()).add(entry)
        return entry

    def drop(self, game_id: str, entry: tuple[asyncio.AbstractEventLoop, asyncio.Event]) -> None:
        """Forget a closed stream."""
        streams = self._streams.get(game_id)
        if streams is not None:
            streams.discard(entry)
            if not streams:
                del self._streams[game_id]

    def wake(self, game_id: str) -> None:
        """Wake every stream of ``game_id`` (from any thread)."""
        for loop, event in list(self._streams.get(game_id, ())):
            loop.call_soon_threadsafe(event.set)

    def count(self, game_id: str) -> int:
        """How many streams of ``game_id`` this process holds open."""
        return len(self._streams.get(game_id, ()))


class WakeOnChange:
    """ASGI middleware: a successful write under ``/api/games/{id}/`` wakes that game's streams."""

    def __init__(self, app: ASGIApp, hub: Hub) -> None:
        self.app, self.hub = app, hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        status = 500

        async def watch(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            found = _GAME_PATH.match(scope["path"])
            if found and status < 400:
                self.hub.wake(found.group(1))


@dataclass(frozen=True, slots=True)
class Resume:
    """Where a reopened stream left off: the save counter and the last chat message seen."""

    version: int
    chat: int

    @classmethod
    def parse(cls, last_id: str | None) -> Resume | None:
        """Read a ``Last-Event-ID``; ``None`` when absent; ``ValueError`` when malformed."""
        if not last_id:
            return None
        found = _LAST_ID.match(last_id.strip())
        if found is None:
            raise ValueError(
                f"Last-Event-ID: {last_id[:40]!r} is not an id this server sent (<n>.<n>.<n>)"
            )
        return cls(int(found.group(1)), int(found.group(2)))


def frame(kind: str, data: dict[str, Any], ident: str | None = None) -> str:
    """One server-sent event: ``event``, ``id`` and a one-line JSON ``data``."""
    head = f"event: {kind}\n" + (f"id: {ident}\n" if ident else "")
    return head + f"data: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n"


def _where(p: Progress) -> dict[str, Any]:
    return {"turn": p.turn, "phase": p.phase, "result": p.result, "events": p.events}


def _sealed(p: Progress) -> dict[str, Any]:
    return {
        "turn": p.turn,
        "phase": p.phase,
        "sealed": p.sealed,
        "waiting_for": list(p.waiting_for),
    }


async def stream(
    store: GameStore,
    hub: Hub,
    game_id: str,
    role: str,
    resume: Resume | None,
    gone: Callable[[], Awaitable[bool]],
) -> AsyncIterator[str]:
    """The messages of one stream, until the client goes (``gone``) or the server stops."""
    entry = hub.listen(game_id)
    wake = entry[1]
    row = await run_in_threadpool(live_store.arrive, store, game_id, role)
    hub.wake(game_id)  # the other streams of this process see the new seat at once
    seq = 0
    try:
        marks = await run_in_threadpool(live_store.marks, store, game_id)
        now = await run_in_threadpool(live_store.progress, store, game_id)
        chat = marks.chat if resume is None else min(resume.chat, marks.chat)
        present = marks.present

        def ident() -> str:
            nonlocal seq
            seq += 1
            return f"{now.version}.{chat}.{seq}"

        hello = {
            "role": role,
            "sides": list(now.sides),
            **_where(now),
            "sealed": now.sealed,
            "waiting_for": list(now.waiting_for),
            "present": list(present),
            "resumed": resume is not None,
            "missed": resume is not None and resume.version != now.version,
        }
        yield f"retry: {RETRY_MS}\n" + frame("hello", hello, ident())
        sent = beat = time.monotonic()
        while True:
            if chat < marks.chat:
                for msg in await run_in_threadpool(live_store.read, store, game_id, role, chat):
                    chat = max(chat, int(msg["id"]))
                    yield frame("chat", msg, ident())
                    sent = time.monotonic()
                chat = max(chat, marks.chat)
            if marks.version != now.version:
                before, now = now, await run_in_threadpool(live_store.progress, store, game_id)
                if now.at() != before.at():
                    yield frame("resolved", _where(now) | _sealed(now), ident())
                    sent = time.monotonic()
                elif now.waiting_for != before.waiting_for:
                    yield frame("sealed", _sealed(now), ident())
                    sent = time.monotonic()
            if marks.present != present:
                present = marks.present
                yield frame("presence", {"present": list(present)}, ident())
                sent = time.monotonic()
            if time.monotonic() - sent >= KEEPALIVE_S:
                yield ": keep-alive\n\n"
                sent = time.monotonic()
            if time.monotonic() - beat >= BEAT_S:
                await run_in_threadpool(live_store.still_here, store, row)
                beat = time.monotonic()
            with anyio.move_on_after(POLL_S):
                await wake.wait()
            wake.clear()
            if await gone():
                return
            try:
                marks = await run_in_threadpool(live_store.marks, store, game_id)
            except DBAPIError as exc:  # the database is away for now: keep the line, try again
                _log.warning("stream of game %s: cannot read the store: %s", game_id, exc)
    finally:
        hub.drop(game_id, entry)
        with anyio.CancelScope(shield=True):
            try:
                await run_in_threadpool(live_store.leave, store, row)
            except DBAPIError as exc:  # the row goes stale and stops counting after the TTL
                _log.warning("stream of game %s: presence row left behind: %s", game_id, exc)
        hub.wake(game_id)
