"""Time to build ``GET /table`` for a 24-ship game (tsushima-1905, 12 against 12).

Plays the battle AI against AI and, at the first phase of every turn, times the side's table
(:func:`battleline.server.adapter_table.table_now`, what the route serves for the open turn) and
its JSON size. Then, on the finished record, times the past turns the slider asks for
(``?turn=N``): cold (the cache dropped: one replay of the record up to N, which snapshots every
turn it passes for both sides) and warm (a cache hit). Prints figures; it is not a test.

Usage::

    .venv/bin/python benchmarks/table_build.py [SCENARIO] [--seed S] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from battleline.ai.base import play
from battleline.game import new_game
from battleline.server import adapter_table


def _ms(seconds: list[float]) -> str:
    xs = sorted(s * 1000 for s in seconds)
    p95 = xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]
    return f"p50 {statistics.median(xs):7.2f} ms  p95 {p95:7.2f} ms  max {xs[-1]:7.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?", default="tsushima-1905")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    game = new_game(args.scenario, args.seed)
    sides = list(game.state.sides)
    side = sides[0]
    live: list[float] = []
    live_cpu: list[float] = []
    sizes: list[int] = []
    opened = [0]

    def at_phase(_events: object) -> None:
        if game.state.turn == opened[0] or game.finished:
            return
        opened[0] = game.state.turn
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            body = adapter_table.table_now(game, side)
            live.append(time.perf_counter() - t0)
            live_cpu.append(time.process_time() - c0)
        sizes.append(len(json.dumps(body)))

    at_phase(None)
    play(game, on_events=at_phase)
    ships = len(game.state.logs)
    print(f"{args.scenario}: {ships} ships, {game.state.turn} turns, side {side}")
    print(f"  live table (open turn), {len(live)} builds, wall: {_ms(live)}")
    print(f"  live table (open turn), {len(live)} builds, CPU:  {_ms(live_cpu)}")
    print(
        f"  JSON size: median {statistics.median(sizes) / 1024:.1f} KiB, "
        f"max {max(sizes) / 1024:.1f} KiB"
    )

    record = adapter_table.Record.of(game, args.scenario)
    last = record.turn
    for turn in sorted({2, last // 2, last - 1} - {0, 1} | {1}):
        if turn >= last:
            continue
        adapter_table.clear_cache()
        t0, c0 = time.perf_counter(), time.process_time()
        adapter_table.table_at(record, side, turn)
        cold, cpu = time.perf_counter() - t0, time.process_time() - c0
        warm = []
        for _ in range(args.repeat * 10):
            t0 = time.perf_counter()
            adapter_table.table_at(record, side, turn)
            warm.append(time.perf_counter() - t0)
        print(
            f"  ?turn={turn:<3} cold (replay to it) {cold * 1000:8.1f} ms wall, "
            f"{cpu * 1000:8.1f} ms CPU; warm {_ms(warm)}"
        )
    adapter_table.clear_cache()
    t0 = time.perf_counter()
    adapter_table.table_at(record, side, last - 1)
    every = time.perf_counter() - t0
    t0 = time.perf_counter()
    for turn in range(1, last):
        for s in sides:
            adapter_table.table_at(record, s, turn)
    print(
        f"  one replay to turn {last - 1} snapshots every turn for both sides: {every * 1000:.1f}"
        f" ms; then all {2 * (last - 1)} past tables from the cache in "
        f"{(time.perf_counter() - t0) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
