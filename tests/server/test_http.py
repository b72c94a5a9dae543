"""Nothing lost (issue 13, part 2), and bad input, against uvicorn over real HTTP on 127.0.0.1.

* Bad scenario inputs (``/dev/zero``, binary, huge, a deleted file's name) get a 4xx, and the
  server's resident memory does not grow while it refuses them.
* Many games on one SQLite file served by two server processes at once (real lock contention):
  no error, and every submission the server acknowledged is in the database afterwards.
* SIGKILL while players are submitting, then a restart: every acknowledged submission is there
  and the games go on.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server.live_server import LiveServer, Tally, new_game, play_side, rss_kib, stored_orders


@pytest.fixture
def server(db: str, scenario_dir: Path) -> Iterator[LiveServer]:
    srv = LiveServer(db, scenario_dir).start()
    try:
        yield srv
    finally:
        srv.stop()


def _raw(port: int, head: bytes, body_chunks: Iterator[bytes] = iter(())) -> bytes:
    """Send a request by hand (a body that lies or never ends); the status line answered."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(head)
        try:
            for chunk in body_chunks:
                s.sendall(chunk)
        except OSError:
            pass  # the server answered and closed before the body was all sent
        data = b""
        try:
            while b"\r\n" not in data:
                got = s.recv(4096)
                if not got:
                    break
                data += got
        except OSError:
            pass
    return data.split(b"\r\n", 1)[0]


def _chunked(total: int, size: int = 64 * 1024) -> Iterator[bytes]:
    sent = 0
    while sent < total:
        yield b"%x\r\n" % size + b"\0" * size + b"\r\n"
        sent += size
    yield b"0\r\n\r\n"


def test_bad_scenario_inputs_get_4xx_and_the_server_does_not_grow(
    server: LiveServer, tmp_path: Path
) -> None:
    url = server.url
    gone = tmp_path / "deleted.toml"
    gone.write_text("id = 'x'\n")
    gone.unlink()
    new_game(url, 1)  # warm up: the first game loads the rules data
    before = rss_kib(server.pid)
    for _ in range(5):
        for name in ("/dev/zero", "/dev/urandom", "/proc/self/environ", str(gone)):
            r = httpx.post(url + "/api/games", json={"scenario": name}, timeout=30)
            assert r.status_code == 422 and "not a built-in scenario" in r.json()["detail"]
        r = httpx.post(url + "/api/games/upload", content=bytes(range(256)) * 64, timeout=30)
        assert r.status_code == 422 and "not UTF-8" in r.json()["detail"]
        big = b"POST /api/games/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\n\r\n"
        assert b" 413 " in _raw(server.port, big)
        endless = b"POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        assert b" 413 " in _raw(server.port, endless, _chunked(20 * 1024 * 1024))
        orders = b"POST /api/games/x/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 9999999\r\n\r\n"
        assert b" 413 " in _raw(server.port, orders)
    grown = rss_kib(server.pid) - before
    assert grown < 20 * 1024, f"the server grew by {grown} KiB refusing bad input"


def test_concurrent_games_on_one_sqlite_file_lose_nothing(
    sqlite_db: str, scenario_dir: Path
) -> None:
    """12 games, 24 players, two server processes writing one SQLite file."""
    servers = [LiveServer(sqlite_db, scenario_dir).start() for _ in range(2)]
    try:
        games = [(i % 2, *new_game(servers[i % 2].url, i)) for i in range(12)]
        tally = Tally()
        deadline = time.monotonic() + 180
        threads = [
            threading.Thread(
                target=play_side,
                args=(servers[s].url, game, side, token, 2, deadline, tally),
            )
            for s, game, tokens in games
            for side, token in tokens.items()
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        for srv in servers:
            srv.stop()
    assert tally.errors == []
    assert len(tally.acks) >= 12 * 2 * 2  # at least two phases per side per game
    held = stored_orders(sqlite_db, [g for _s, g, _t in games], scenario_dir)
    assert set(tally.acks) <= held


def _wait_for_acks(tally: Tally, count: int, limit: float = 120.0) -> None:
    """Wait until the players have ``count`` acknowledged submissions (or ``limit`` seconds)."""
    deadline = time.monotonic() + limit
    while len(tally.acks) < count and time.monotonic() < deadline:
        time.sleep(0.02)


def test_sigkill_loses_no_acknowledged_submission(db: str, scenario_dir: Path) -> None:
    """Kill the server twice in mid-play; every 200 it gave is in the database on restart."""
    srv = LiveServer(db, scenario_dir).start()
    games = [new_game(srv.url, i) for i in range(6)]
    tally = Tally()
    try:
        for extra, pause in ((8, 0.0), (8, 0.13)):  # kill at once, then a moment later
            threads = [
                threading.Thread(
                    target=play_side,
                    args=(srv.url, game, side, token, 12, time.monotonic() + 120, tally),
                )
                for game, tokens in games
                for side, token in tokens.items()
            ]
            for t in threads:
                t.start()
            _wait_for_acks(tally, len(tally.acks) + extra)
            time.sleep(pause)
            srv.kill()
            for t in threads:
                t.join()
            srv = LiveServer(db, scenario_dir).start()
        assert tally.errors == []
        assert len(tally.acks) >= 16
        held = stored_orders(db, [g for g, _t in games], scenario_dir)
        assert set(tally.acks) <= held
        # The games go on after the restart: both sides of one game play on for a turn.
        more = Tally()
        game, tokens = games[0]
        turn = max(t for g, _s, t, _p in tally.acks if g == game)
        again = [
            threading.Thread(
                target=play_side,
                args=(srv.url, game, side, tok, turn + 1, time.monotonic() + 120, more),
            )
            for side, tok in tokens.items()
        ]
        for t in again:
            t.start()
        for t in again:
            t.join()
        assert more.errors == [] and len(more.acks) >= 1
    finally:
        srv.stop()
