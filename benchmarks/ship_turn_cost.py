"""The cost per ship-turn at 4, 8, 16 and 32 ships a side: it should stay about flat.

Scenarios are generated here: two fleets of one battleship class each, in columns of four ships
in line ahead, on parallel courses some eight kilometres apart, a fixed number of turns. Each size
plays whole battles AI against AI; the figure is CPU time divided by (ships × turns played).
A cost that grows with the fleet size means something quadratic in Python.

Usage::

    .venv/bin/python benchmarks/ship_turn_cost.py [--sizes 4 8 16 32] [--turns 8] [--battles 1]

This prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from battleline.sim.runner import play_battle

#: One class a side (both in the built-in ship database).
CLASSES = ("Majestic", "Bouvet")
COLUMN = 4  # ships per division (one column in line ahead)
COLUMN_GAP_M = 1200.0  # between neighbouring columns of one side
RANGE_M = 8000.0  # between the two fleets' nearest columns


def scenario_text(per_side: int, turns: int) -> str:
    """A generated TOML scenario with ``per_side`` ships a side."""
    lines = [
        f'id = "bench-{per_side}"',
        f'title = "Benchmark: {per_side} against {per_side}"',
        'ruleset = "bf1900"',
        'scale = "small"',
        f"turn_limit = {turns}",
        "",
        "[victory]",
        "sunk_per_size = 2",
        "crippled_per_size = 1",
        "margin = 0.25",
    ]
    for s, (side, cls) in enumerate(zip(("Blue", "Red"), CLASSES, strict=True)):
        lines += ["", "[[sides]]", f'name = "{side}"']
        away = -1.0 if s == 0 else 1.0  # columns stack away from the enemy
        for d in range(0, per_side, COLUMN):
            n = min(COLUMN, per_side - d)
            y = (0.0 if s == 0 else RANGE_M) + away * COLUMN_GAP_M * (d // COLUMN)
            ships = ", ".join(
                f'{{ name = "{side} {d + i + 1}", class = "{cls}" }}' for i in range(n)
            )
            lines += [
                "",
                "[[sides.divisions]]",
                f'name = "{side} division {d // COLUMN + 1}"',
                "x = 0",
                f"y = {y:.0f}",
                "heading = 90",
                "speed = 12",
                f"ships = [{ships}]",
            ]
    return "\n".join(lines) + "\n"


def measure(path: str, per_side: int, battles: int) -> tuple[float, float, float]:
    """(CPU seconds per battle, turns per battle, ms per ship-turn)."""
    play_battle(path, 1, 10_000)  # warm-up
    turns = 0
    cpu0 = time.process_time()
    for i in range(battles):
        turns += play_battle(path, 1, i).turns
    cpu = time.process_time() - cpu0
    return cpu / battles, turns / battles, 1000.0 * cpu / (turns * 2 * per_side)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 8, 16, 32])
    parser.add_argument("--turns", type=int, default=8)
    parser.add_argument("--battles", type=int, default=1)
    args = parser.parse_args()
    print(f"{'a side':>6s} {'ships':>5s} {'turns':>6s} {'cpu s/battle':>12s} {'ms/ship-turn':>12s}")
    base = None
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            path = Path(tmp) / f"bench-{n}.toml"
            path.write_text(scenario_text(n, args.turns), encoding="utf-8")
            cpu, turns, per = measure(str(path), n, args.battles)
            base = base or per
            print(
                f"{n:6d} {2 * n:5d} {turns:6.1f} {cpu:12.3f} {per:12.3f}   x{per / base:.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
