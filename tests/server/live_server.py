"""A real server for the tests: uvicorn in a subprocess on 127.0.0.1, and players over HTTP.

:class:`LiveServer` starts ``uvicorn --factory battleline.server.app:app_from_env`` on a free
port (rate limits off: the test's many players share one address; body limits stay on) and can
kill it with SIGKILL. :func:`play_side` is one player's loop: read the view, seal orders when
asked, note every submission the server acknowledged. :func:`stored_orders` reads back, from the
database alone, every (side, turn, phase) the games hold.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from battleline.server.store import GameStore

FACTORY = "battleline.server.app:app_from_env"
COMMAND = {"Blue": "Blue cruiser: SPD15", "Red": "Red cruiser: SPD16"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """uvicorn serving one database in a subprocess."""

    def __init__(self, db: str, scenario_dir: Path) -> None:
        self.db, self.scenario_dir = db, scenario_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> LiveServer:
        src = str(Path(__file__).resolve().parents[2] / "src")
        env = {
            **os.environ,
            "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", ""),
            "BATTLELINE_DB": self.db,
            "BATTLELINE_ALLOW_SEED": "1",
            "BATTLELINE_NO_RATE_LIMIT": "1",
            "BATTLELINE_SCENARIO_DIR": str(self.scenario_dir),
        }
        command = [sys.executable, "-m", "uvicorn", "--factory", FACTORY, "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--no-access-log", "--log-level", "warning"]
        self.proc = subprocess.Popen(command, env=env)
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, "uvicorn exited"
            try:
                if httpx.get(self.url + "/api/notation", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.1)

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no goodbye."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


def rss_kib(pid: int) -> int:
    """A process's resident memory now (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def new_game(url: str, seed: int) -> tuple[str, dict[str, str]]:
    """A two-human cruiser duel; its id and each side's claimed credential."""
    made = httpx.post(
        url + "/api/games", json={"scenario": "cruiser-duel", "seed": seed}, timeout=60
    ).json()
    tokens = {}
    for inv in made["invites"]:
        r = httpx.post(
            f"{url}/api/games/{made['game_id']}/claim", json={"invite": inv["invite"]}, timeout=60
        )
        tokens[inv["side"]] = r.json()["token"]
    return made["game_id"], tokens


@dataclass
class Tally:
    """What the players saw: acknowledged submissions, errors, latencies in seconds."""

    acks: list[tuple[str, str, int, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stale: int = 0
    latencies: list[float] = field(default_factory=list)


def play_side(
    url: str, game: str, side: str, token: str, until_turn: int, deadline: float, tally: Tally
) -> None:
    """Play one side until ``until_turn`` is over, the game ends, the deadline or the server
    dies; note every acknowledged submission."""
    headers = {"X-Battleline-Token": token}
    with httpx.Client(base_url=url, timeout=60, headers=headers) as c:
        while time.monotonic() < deadline:
            try:
                r = c.get(f"/api/games/{game}/view", params={"since": 10**9})
            except httpx.TransportError:
                return  # the server is gone
            if r.status_code != 200:
                tally.errors.append(f"view {r.status_code}: {r.text[:200]}")
                return
            v = r.json()
            if v["result"] or v["turn"] > until_turn:
                return
            if side not in v["waiting_for"] or v["my_orders"] is not None:
                time.sleep(0.01)
                continue
            lines = [COMMAND[side]] if v["phase"] == "command" else []
            body = {"turn": v["turn"], "phase": v["phase"], "lines": lines}
            began = time.perf_counter()
            try:
                r = c.post(f"/api/games/{game}/orders", json=body)
            except httpx.TransportError:
                return
            tally.latencies.append(time.perf_counter() - began)
            if r.status_code == 200:
                tally.acks.append((game, side, v["turn"], v["phase"]))
            elif r.status_code == 409 and "stale" in r.text:
                tally.stale += 1
            else:
                tally.errors.append(f"orders {r.status_code}: {r.text[:200]}")


def stored_orders(db: str, games: list[str], scenario_dir: Path) -> set[tuple[str, str, int, str]]:
    """Every (game, side, turn, phase) the database holds: the records and the sealed orders."""
    store = GameStore(db, scenario_dir)
    try:
        held = set()
        for game in games:
            live = store.get(game)
            held |= {(game, o.side, o.turn, o.phase) for o in live.game.history}
            turn, phase = live.game.state.turn, live.game.spec.name
            held |= {(game, side, turn, phase) for side in live.game.pending.texts}
        return held
    finally:
        store.close()
