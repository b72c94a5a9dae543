"""Load test of the web server: concurrent games over real HTTP, on SQLite and on PostgreSQL.

For each store, a fresh database and uvicorn in a subprocess on 127.0.0.1
(``battleline.server.app:app_from_env``; rate limits off, since every player here shares one
address; body limits on). ``--games`` two-human games are made and their seats claimed; then one
thread per side plays: it reads its view (every ``--poll`` s, 0.1 by default; the page polls
every 2 s), seals its orders when asked (no lines: straight on,
no fire), and repeats until ``--turns`` turns are over or ``--timeout`` passes. Afterwards the
database is opened directly and every submission the server acknowledged with a 200 is looked
for in the stored records and sealed orders; one that is missing is *lost*.

Printed per store: submissions, p50/p95 latency of ``POST /orders`` (all, and those that
resolved a phase), errors (any answer but 200 or a 409 for a stale phase) and lost submissions.

Usage::

    python benchmarks/load_server.py                      # both stores, 20 games, 2 turns
    python benchmarks/load_server.py --store sqlite --games 20 --turns 3
    python benchmarks/load_server.py --pg-url postgresql+psycopg://postgres@127.0.0.1:5432/db

With ``--ai`` the second side of each game is played by the server's AI admiral, which fires, so
a resolving submission includes the admiral's orders and a turn with gunnery and damage.

PostgreSQL comes from ``--pg-url`` or ``BATTLELINE_TEST_PG_URL`` (``.ci/run`` starts one); each
run uses a schema of its own, dropped afterwards. This prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from battleline.server.store import GameStore  # noqa: E402

MAX_GAMES = 50


@dataclass
class Tally:
    acks: list[tuple[str, str, int, str]] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    resolving: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stale: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "src"),
        "BATTLELINE_DB": db,
        "BATTLELINE_NO_RATE_LIMIT": "1",
        "BATTLELINE_SCENARIO_DIR": str(folder),
    }
    command = [sys.executable, "-m", "uvicorn", "--factory", "battleline.server.app:app_from_env"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--no-access-log"]
    proc = subprocess.Popen([*command, "--log-level", "warning"], env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/notation", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("uvicorn did not start")


def make_game(url: str, scenario: str, ai_second: bool) -> tuple[str, dict[str, str]]:
    ai: list[str] = []
    if ai_second:
        listed = httpx.get(url + "/api/scenarios", timeout=60).json()
        ai = [next(s for s in listed if s["id"] == scenario)["sides"][1]]
    r = httpx.post(url + "/api/games", json={"scenario": scenario, "ai": ai}, timeout=60)
    r.raise_for_status()
    made = r.json()
    tokens = {}
    for inv in made["invites"]:
        if not inv["human"]:
            continue
        got = httpx.post(
            f"{url}/api/games/{made['game_id']}/claim", json={"invite": inv["invite"]}, timeout=60
        )
        got.raise_for_status()
        tokens[inv["side"]] = got.json()["token"]
    return made["game_id"], tokens


def play(
    url: str, game: str, token: str, turns: int, deadline: float, poll: float, tally: Tally
) -> None:
    with httpx.Client(base_url=url, timeout=120, headers={"X-Battleline-Token": token}) as c:
        while time.monotonic() < deadline:
            r = c.get(f"/api/games/{game}/view", params={"since": 10**9})
            if r.status_code != 200:
                with tally.lock:
                    tally.errors.append(f"view {r.status_code}: {r.text[:120]}")
                return
            v = r.json()
            if v["result"] or v["turn"] > turns:
                return
            if v["side"] not in v["waiting_for"] or v["my_orders"] is not None:
                time.sleep(poll)
                continue
            body = {"turn": v["turn"], "phase": v["phase"], "lines": []}
            began = time.perf_counter()
            r = c.post(f"/api/games/{game}/orders", json=body)
            took = time.perf_counter() - began
            with tally.lock:
                tally.latencies.append(took)
                if r.status_code == 200:
                    tally.acks.append((game, v["side"], v["turn"], v["phase"]))
                    if r.json()["resolved"]:
                        tally.resolving.append(took)
                elif r.status_code == 409 and "stale" in r.text:
                    tally.stale += 1
                else:
                    tally.errors.append(f"orders {r.status_code}: {r.text[:120]}")


def stored(db: str, folder: Path, games: list[str]) -> set[tuple[str, str, int, str]]:
    store = GameStore(db, folder)
    try:
        held: set[tuple[str, str, int, str]] = set()
        for game in games:
            live = store.get(game)
            held |= {(game, o.side, o.turn, o.phase) for o in live.game.history}
            turn, phase = live.game.state.turn, live.game.spec.name
            held |= {(game, side, turn, phase) for side in live.game.pending.texts}
        return held
    finally:
        store.close()


def pct(values: list[float], q: float) -> str:
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0] * 1000:.0f} ms"
    return f"{statistics.quantiles(values, n=100, method='inclusive')[q - 1] * 1000:.0f} ms"


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def probe_bad_input(url: str, pid: int) -> None:
    """Time the answers to bad scenario inputs, and the server's memory before and after."""
    before = rss_mib(pid)
    gone = Path(tempfile.mkdtemp()) / "deleted.toml"
    cases: list[tuple[str, str, dict[str, object]]] = [
        ("/dev/zero as the scenario", "/api/games", {"json": {"scenario": "/dev/zero"}}),
        ("a deleted file as the scenario", "/api/games", {"json": {"scenario": str(gone)}}),
        ("binary upload", "/api/games/upload", {"content": bytes(range(256)) * 256}),
        ("huge upload (20 MB)", "/api/games/upload", {"content": b"#" * 20_000_000}),
    ]
    for name, path, kwargs in cases:
        worst, status = 0.0, 0
        for _ in range(5):
            began = time.perf_counter()
            try:
                status = httpx.post(url + path, timeout=30, **kwargs).status_code  # type: ignore[arg-type]
            except httpx.HTTPError:
                status = -1  # the server closed the connection mid-body (after its 413)
            worst = max(worst, time.perf_counter() - began)
        print(f"    {name:<32} answered {status}, slowest of 5 in {worst * 1000:.0f} ms")
    print(f"    server memory {before:.0f} MiB before, {rss_mib(pid):.0f} MiB after")


def run(store_name: str, db: str, args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="battleline-load-scenarios-"))
    proc, url = start_server(db, folder)
    try:
        if args.probe:
            print(f"{store_name}: bad scenario inputs")
            probe_bad_input(url, proc.pid)
        games = [make_game(url, args.scenario, args.ai) for _ in range(args.games)]
        tally = Tally()
        deadline = time.monotonic() + args.timeout
        threads = [
            threading.Thread(
                target=play, args=(url, g, tok, args.turns, deadline, args.poll, tally)
            )
            for g, tokens in games
            for tok in tokens.values()
        ]
        began = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - began
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    lost = set(tally.acks) - stored(db, folder, [g for g, _ in games])
    print(
        f"{store_name:<11} {args.games} games, {len(threads)} players, {wall:5.1f} s: "
        f"{len(tally.acks)} submissions, p50 {pct(tally.latencies, 50)}, "
        f"p95 {pct(tally.latencies, 95)}; resolving p50 {pct(tally.resolving, 50)}, "
        f"p95 {pct(tally.resolving, 95)}; stale {tally.stale}, errors {len(tally.errors)}, "
        f"lost {len(lost)}"
    )
    for line in sorted(set(tally.errors))[:10]:
        print("   ", line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--store", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds, at most")
    parser.add_argument("--scenario", default="cruiser-duel")
    parser.add_argument(
        "--ai", action="store_true", help="the second side is the computer's (it fires)"
    )
    parser.add_argument("--poll", type=float, default=0.1, help="seconds between views")
    parser.add_argument("--probe", action="store_true", help="time bad scenario inputs first")
    parser.add_argument("--pg-url", default=os.environ.get("BATTLELINE_TEST_PG_URL", ""))
    args = parser.parse_args()
    if not 1 <= args.games <= MAX_GAMES:
        raise SystemExit(f"--games: between 1 and {MAX_GAMES}")
    if args.store in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as folder:
            run("SQLite", str(Path(folder) / "load.sqlite3"), args)
    if args.store in ("postgresql", "both"):
        if not args.pg_url:
            print("PostgreSQL: skipped (no --pg-url or BATTLELINE_TEST_PG_URL)")
            return
        from sqlalchemy import create_engine, text

        schema = "load_" + secrets.token_hex(4)
        admin = create_engine(args.pg_url)
        with admin.begin() as conn:
            conn.execute(text(f"CREATE SCHEMA {schema}"))
        sep = "&" if "?" in args.pg_url else "?"
        try:
            run("PostgreSQL", f"{args.pg_url}{sep}options=-csearch_path%3D{schema}", args)
        finally:
            with admin.begin() as conn:
                conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
            admin.dispose()


if __name__ == "__main__":
    main()
