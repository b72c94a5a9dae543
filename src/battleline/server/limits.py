"""Body-size and rate limits on every route, as one ASGI middleware in front of the app.

A request body is read in full here, up to the route's limit, before the app sees any of it: a
``Content-Length`` above the limit, or a body that grows past it, is answered 413 at once, so a
client cannot make the server hold more than the limit in memory. Every client (its address as
the ASGI server reports it; run uvicorn with ``--proxy-headers`` behind a proxy) has a token
bucket per kind of route; an empty bucket answers 429 with ``Retry-After``.

The page's own files (``GET /``, ``/umpire`` and ``/static/…``) take no token: they are the
package's files, never a game, and a browser does not try a refused module script again, so one
refused file would leave the page dead while its reads, which it paces by ``Retry-After``
(``static/js/fetching.js``), would have gone through a second later.

A push stream (``GET …/stream``) takes one token when it opens, like any request, and none while
it stays open: what bounds streams is how many one client may hold open at once
(``Limits.streams``); one more is answered 429.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

KIB = 1024


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits of a server; ``rate`` is requests per second, ``burst`` the bucket's size."""

    body_bytes: int = 64 * KIB  # orders, checks, claims
    create_body_bytes: int = 1024 * KIB  # a new game with its scenario text (JSON-escaped)
    rate: float = 20.0
    burst: int = 120
    create_rate: float = 0.5  # new games: the costliest request
    create_burst: int = 20
    streams: int = 24  # push streams one client may hold open at once

    @classmethod
    def unlimited_rate(cls) -> Limits:
        """Body limits only (for a load test that plays many clients from one address)."""
        return cls(
            rate=math.inf,
            burst=1 << 30,
            create_rate=math.inf,
            create_burst=1 << 30,
            streams=1 << 30,
        )


@dataclass(slots=True)
class Buckets:
    """Token buckets by key, refilled continuously; old idle keys are pruned."""

    rate: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    _state: dict[str, tuple[float, float]] = field(default_factory=dict)

    def take(self, key: str) -> float:
        """Take one token: 0 if allowed, else how many seconds until one is there."""
        if math.isinf(self.rate):
            return 0.0
        now = self.clock()
        tokens, last = self._state.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self._state[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._state[key] = (tokens - 1.0, now)
        if len(self._state) > 10_000:
            self._prune(now)
        return 0.0

    def _prune(self, now: float) -> None:
        full = float(self.burst) / self.rate
        for key, (_tokens, last) in list(self._state.items()):
            if now - last > full:
                del self._state[key]


def is_creation(method: str, path: str) -> bool:
    """Whether a request makes a game (the larger body limit and the stricter rate)."""
    return method == "POST" and path.rstrip("/") in ("/api/games", "/api/games/upload")


#: The pages themselves (their scripts and styles are under ``/static/``).
PAGE_PATHS = ("/", "/umpire")


def is_page_file(method: str, path: str) -> bool:
    """Whether a request reads one of the page's own files (not counted by the rate limit)."""
    return method in ("GET", "HEAD") and (path.startswith("/static/") or path in PAGE_PATHS)


def is_stream(method: str, path: str) -> bool:
    """Whether a request opens a push stream (long-lived; counted while open)."""
    return method == "GET" and path.startswith("/api/games/") and path.endswith("/stream")


class Guard:
    """The ASGI middleware: rate limit, then a bounded, fully read body."""

    def __init__(
        self,
        app: ASGIApp,
        limits: Limits,
        clock: Callable[[], float] = time.monotonic,
        state: Any = None,
    ) -> None:
        self.app = app
        self.state = state  # the wrapped app's state (its ``store``), for tests and tools
        self.limits = limits
        self.requests = Buckets(limits.rate, limits.burst, clock)
        self.creations = Buckets(limits.create_rate, limits.create_burst, clock)
        self.open_streams: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        who = str(client[0]) if client else "unknown"
        method, path = scope["method"], scope["path"]
        creation = is_creation(method, path)
        free = is_page_file(method, path)
        wait = 0.0 if free else (self.creations if creation else self.requests).take(who)
        if wait:
            what = "new games" if creation else "requests"
            await _answer(
                send,
                429,
                f"too many {what} from {who}; try again in {math.ceil(wait)} s",
                {"retry-after": str(math.ceil(wait))},
            )
            return
        limit = self.limits.create_body_bytes if creation else self.limits.body_bytes
        declared = _content_length(scope)
        if declared == -1:
            await _answer(send, 400, "Content-Length: not a number")
            return
        if declared is not None and declared > limit:
            await _answer(send, 413, f"body: {declared} bytes is more than this route's {limit}")
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _answer(send, 413, f"body: more than this route's {limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if is_stream(method, path):
            await self._stream(who, scope, body, receive, send)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _stream(
        self, who: str, scope: Scope, body: bytes, receive: Receive, send: Send
    ) -> None:
        """Open a push stream unless the client holds its limit of them already."""
        held = self.open_streams.get(who, 0)
        if held >= self.limits.streams:
            await _answer(
                send, 429, f"too many open streams from {who}: {held}; close one (a tab) first"
            )
            return
        self.open_streams[who] = held + 1
        try:
            await self.app(scope, _replay(body, receive), send)
        finally:
            left = self.open_streams.get(who, 1) - 1
            if left > 0:
                self.open_streams[who] = left
            else:
                self.open_streams.pop(who, None)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The app's ``receive``: the body read already, then the client's own messages."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _content_length(scope: Scope) -> int | None:
    """The declared body length; ``None`` if not given, -1 if not a number."""
    for key, value in scope.get("headers", ()):
        if key == b"content-length":
            try:
                n = int(value)
            except ValueError:
                return -1
            return n if n >= 0 else -1
    return None


async def _answer(
    send: Send, status: int, detail: str, extra: dict[str, str] | None = None
) -> None:
    body = json.dumps({"detail": detail}).encode("utf-8")
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode("ascii")),
        (b"connection", b"close"),
    ]
    headers += [(k.encode("ascii"), v.encode("ascii")) for k, v in (extra or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
