"""Battles per second on one core, AI against AI to a result.

Plays whole battles in this one process (no pool) and prints, per scenario, the wall-clock and
CPU seconds per battle, battles per second (by CPU time, the fairer figure on a shared machine),
turns per battle and the cost per ship-turn. The defaults are the built-in 12-against-12 fleet
action (``tsushima-1905``) and the Yalu (``yalu-1894``, 14 against 12).

Usage::

    .venv/bin/python benchmarks/battles_per_second.py [SCENARIO ...] [--battles N] [--seed S]

Targets (issue 7): at least 50 twelve-a-side battles a second on one core; 10,000 Yalu battles
in under two minutes on two workers (about 42 battles a second per worker). This prints figures;
it is not a test.
"""

from __future__ import annotations

import argparse
import time

from battleline.sim.runner import play_battle

DEFAULT = ("tsushima-1905", "yalu-1894")


def measure(scenario: str, battles: int, seed: int) -> dict[str, float]:
    """Play ``battles`` battles (after one warm-up) and return the timings."""
    from battleline.game import new_game

    ships = len(new_game(scenario, 0).state.logs)
    play_battle(scenario, seed, 10_000)  # imports, data files, caches
    turns = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for i in range(battles):
        turns += play_battle(scenario, seed, i).turns
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return {
        "ships": ships,
        "battles": battles,
        "turns": turns / battles,
        "wall_s": wall / battles,
        "cpu_s": cpu / battles,
        "per_s": battles / cpu,
        "ship_turn_ms": 1000 * cpu / (turns * ships),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*", default=list(DEFAULT))
    parser.add_argument("--battles", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    head = (
        f"{'scenario':16s} {'ships':>5s} {'battles':>7s} {'turns':>6s} {'wall s/b':>9s} "
        f"{'cpu s/b':>8s} {'battles/s':>9s} {'ms/ship-turn':>12s}"
    )
    print(head)
    for scenario in args.scenarios:
        m = measure(scenario, args.battles, args.seed)
        print(
            f"{scenario:16s} {m['ships']:5.0f} {m['battles']:7.0f} {m['turns']:6.1f} "
            f"{m['wall_s']:9.3f} {m['cpu_s']:8.3f} {m['per_s']:9.3f} {m['ship_turn_ms']:12.3f}",
            flush=True,
        )
    print("\ntarget: >= 50 twelve-a-side battles/s on one core; Yalu >= 42 battles/s per worker")


if __name__ == "__main__":
    main()
