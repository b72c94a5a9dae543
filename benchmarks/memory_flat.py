"""Memory flat in N: peak resident memory of a sweep at growing numbers of runs.

Each sweep runs in a fresh Python process (``battleline.sim.backends.simulate`` in this process,
one worker, so the figure is one process's peak) on a small generated scenario (one cruiser a
side, four turns) so that hundreds of battles take minutes; the peak RSS should not grow with N.

Usage::

    .venv/bin/python benchmarks/memory_flat.py [--runs 25 100 400] [--scenario SCENARIO]

This prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

SMALL = """
id = "memory-duel"
title = "Benchmark: two cruisers, four turns"
ruleset = "bf1900"
scale = "small"
turn_limit = 4

[victory]
sunk_per_size = 2
crippled_per_size = 1
margin = 0.25

[[sides]]
name = "Blue"

[[sides.divisions]]
name = "Blue cruiser"
heading = 90
speed = 18
ships = [{ name = "Yoshino", class = "Yoshino" }]

[[sides]]
name = "Red"

[[sides.divisions]]
name = "Red cruiser"
y = 3000
heading = 90
speed = 18
ships = [{ name = "Kasagi", class = "Kasagi" }]
"""

CHILD = """
import resource, sys, time
from battleline.sim.backends import simulate
t = time.process_time()
tally = simulate(sys.argv[1], int(sys.argv[2]), 7, workers=1)
cpu = time.process_time() - t
print(tally.runs, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, cpu)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[25, 100, 400])
    parser.add_argument("--scenario", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        scenario = args.scenario
        if scenario is None:
            path = Path(tmp) / "memory-duel.toml"
            path.write_text(SMALL, encoding="utf-8")
            scenario = str(path)
        print(f"{'runs':>6s} {'peak RSS MiB':>12s} {'cpu s':>8s}")
        for n in args.runs:
            out = subprocess.run(
                [sys.executable, "-c", CHILD, scenario, str(n)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            runs, rss_kib, cpu = int(out[0]), int(out[1]), float(out[2])
            print(f"{runs:6d} {rss_kib / 1024:12.1f} {cpu:8.1f}", flush=True)


if __name__ == "__main__":
    main()
