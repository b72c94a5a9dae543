"""CPU time per ship-turn of two source trees, measured side by side, battle by battle.

Starts one worker process per tree (``PYTHONPATH`` set to it), warms each up with one battle of
every scenario (imports, data files, caches), then alternates them: battle ``i`` of a scenario
is played by both workers one after the other, the order swapped every battle, so load from
other jobs on a shared machine falls on both alike. Each worker times its own battle with
``time.process_time`` and reports turns and ships, so battles of different length (the trees may
play a seed differently) compare per ship-turn. Works with trees from before the redesign of
issue 11 (``battleline.engine.new_game``) and after it (``battleline.game.new_game``).

Usage::

    python benchmarks/side_by_side.py OLD_SRC NEW_SRC [SCENARIO ...] [--battles N] [--seed S]

for example ``python benchmarks/side_by_side.py /work/wt-before/src src --battles 3``.
This prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from statistics import mean
from typing import IO, Any

DEFAULT = ("tsushima-1905", "yalu-1894")

WORKER = """
import json, sys, time
from battleline.sim.runner import play_battle
try:
    from battleline.game import new_game
except ImportError:
    from battleline.engine import new_game
warm = set()
for line in sys.stdin:
    scenario, seed, index = line.split()
    if scenario not in warm:
        play_battle(scenario, int(seed), 10_000)
        warm.add(scenario)
    ships = len(new_game(scenario, 0).state.logs)
    cpu0 = time.process_time()
    turns = play_battle(scenario, int(seed), int(index)).turns
    cpu = time.process_time() - cpu0
    print(json.dumps({"ships": ships, "turns": turns, "cpu_s": cpu}), flush=True)
"""


def _start(src: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.path.abspath(src)}
    return subprocess.Popen(
        [sys.executable, "-c", WORKER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def _ask(worker: subprocess.Popen[str], scenario: str, seed: int, index: int) -> dict[str, Any]:
    stdin: IO[str] | None = worker.stdin
    stdout: IO[str] | None = worker.stdout
    if stdin is None or stdout is None:
        raise RuntimeError("worker has no pipes")
    stdin.write(f"{scenario} {seed} {index}\n")
    stdin.flush()
    line = stdout.readline()
    if not line:
        raise RuntimeError(f"worker stopped on {scenario} battle {index}")
    result: dict[str, Any] = json.loads(line)
    result["ms"] = 1000 * result["cpu_s"] / (result["turns"] * result["ships"])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("scenarios", nargs="*", default=list(DEFAULT))
    parser.add_argument("--battles", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    workers = {"old": _start(args.old), "new": _start(args.new)}
    try:
        print(
            f"{'scenario':16s} {'battle':>6s} {'tree':>4s} {'turns':>5s} {'cpu s':>7s} "
            f"{'ms/ship-turn':>12s}"
        )
        for scenario in args.scenarios:
            ms: dict[str, list[float]] = {"old": [], "new": []}
            for i in range(args.battles):
                order = ("old", "new") if i % 2 == 0 else ("new", "old")
                for tree in order:
                    r = _ask(workers[tree], scenario, args.seed, i)
                    ms[tree].append(r["ms"])
                    print(
                        f"{scenario:16s} {i:6d} {tree:>4s} {r['turns']:5d} {r['cpu_s']:7.2f} "
                        f"{r['ms']:12.3f}",
                        flush=True,
                    )
            for tree in ("old", "new"):
                v = ms[tree]
                print(
                    f"{scenario:16s} {tree}: ms/ship-turn mean {mean(v):.3f}, "
                    f"range {min(v):.3f}-{max(v):.3f}",
                    flush=True,
                )
            print(f"{scenario:16s} new/old {mean(ms['new']) / mean(ms['old']):.3f}", flush=True)
    finally:
        for w in workers.values():
            if w.stdin is not None:
                w.stdin.close()
            w.wait()


if __name__ == "__main__":
    main()
