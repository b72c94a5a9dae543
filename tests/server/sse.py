"""Helpers of the push tests: a uvicorn server in a thread (stopped and started again on the
same port), and a reader of a server-sent event stream over real HTTP."""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Uvicorn:
    """One app served on 127.0.0.1 by uvicorn in a thread; ``stop`` and ``start`` again."""

    def __init__(self, app: Any, port: int | None = None, **config: Any) -> None:
        self.app, self.port, self.config = app, port or free_port(), config
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> Uvicorn:
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            **{"log_level": "warning", "timeout_graceful_shutdown": 1, **self.config},
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            assert self._thread.is_alive(), "uvicorn stopped while starting"
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=15)
            assert not self._thread.is_alive(), "uvicorn did not stop"
        self._server = self._thread = None


@dataclass
class Message:
    """One server-sent event."""

    event: str
    id: str | None
    data: dict[str, Any]
    at: float = field(default_factory=time.monotonic)


def messages(response: httpx.Response) -> Iterator[Message]:
    """The events of a stream as they arrive (comments and ``retry`` lines skipped)."""
    event, ident, data = "message", None, ""
    for line in response.iter_lines():
        if line == "":
            if data:
                yield Message(event, ident, json.loads(data))
            event, ident, data = "message", None, ""
        elif line.startswith(":") or line.startswith("retry:"):
            continue
        elif line.startswith("event: "):
            event = line[7:]
        elif line.startswith("id: "):
            ident = line[4:]
        elif line.startswith("data: "):
            data += line[6:]


class Listener:
    """A stream read in a thread into a queue, until ``close``."""

    def __init__(self, url: str, token: str, last_id: str | None = None) -> None:
        self.got: queue.Queue[Message] = queue.Queue()
        self.all: list[Message] = []
        self.raw: list[str] = []
        headers = {"Last-Event-ID": last_id} if last_id else {}
        self._client = httpx.Client(timeout=httpx.Timeout(10.0, read=30.0))
        self._cm = self._client.stream("GET", url, params={"token": token}, headers=headers)
        self.response = self._cm.__enter__()
        assert self.response.status_code == 200, self.response.read()
        assert self.response.headers["content-type"].startswith("text/event-stream")
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for msg in messages(self.response):
                self.all.append(msg)
                self.got.put(msg)
        except (httpx.HTTPError, RuntimeError, ValueError):
            pass

    def next(self, event: str | None = None, timeout: float = 8.0) -> Message:
        """The next message (of kind ``event``, skipping others)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no {event or 'message'} within {timeout} s; got {self.all}"
            try:
                msg = self.got.get(timeout=left)
            except queue.Empty:
                continue
            if event is None or msg.event == event:
                return msg

    def quiet(self, seconds: float) -> list[Message]:
        """Every message that arrives within ``seconds``."""
        out: list[Message] = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                out.append(self.got.get(timeout=left))
            except queue.Empty:
                break
        return out

    def close(self) -> None:
        """Hang up: shut the socket (this unblocks the reading thread at once), then close."""
        sock = self.response.extensions["network_stream"].get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.response.close()
        self._cm.__exit__(None, None, None)
        self._client.close()
        self._thread.join(timeout=5)
