"""Where a battle's time goes: a per-phase profile (command, move, gunnery, torpedo, damage, AI).

Plays whole battles AI against AI under a profiler and prints

* the phases: each phase's resolver, its order checking (the umpire reading the orders, once
  when the AI's lines are offered and once on submission), the AI admirals, the side views and
  the engine's state copies, as inclusive times;
* the top modules by exclusive time (``tottime`` summed per source file);
* the top functions by exclusive time.

Usage::

    .venv/bin/python benchmarks/profile_phases.py [SCENARIO] [--battles N] [--seed S] [--sampler]

``cProfile`` (the default) counts every call, so its times overstate code that makes very many
cheap calls (a hot loop of ``math.hypot`` looked ten times dearer than it was). ``--sampler``
uses ``pyinstrument`` (``pip install -e ".[bench]"``), a sampling profiler with little overhead,
and prints the phase table and the heaviest call paths instead.

This prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

#: (label, file suffix, function name): inclusive times read from the profile.
PHASES: tuple[tuple[str, str, str], ...] = (
    ("command (resolve)", "bf1900/ruleset.py", "resolve_command"),
    ("move (resolve)", "bf1900/ruleset.py", "resolve_movement"),
    ("gunnery (resolve)", "bf1900/ruleset.py", "resolve_gunnery"),
    ("torpedo (resolve)", "bf1900/ruleset.py", "resolve_torpedo"),
    ("damage (resolve)", "bf1900/ruleset.py", "resolve_damage"),
    ("end of turn", "bf1900/ruleset.py", "end_turn"),
    ("command (orders checked)", "bf1900/ruleset.py", "parse_command"),
    ("gunnery (orders checked)", "bf1900/ruleset.py", "parse_gunnery"),
    ("torpedo (orders checked)", "bf1900/ruleset.py", "parse_torpedoes"),
    ("damage (orders checked)", "bf1900/ruleset.py", "parse_damage_control"),
    ("AI admirals (orders)", "ai/admiral.py", "orders"),
    ("AI stand-in (orders)", "ai/base.py", "orders"),
    ("side views", "engine/view.py", "view"),
    ("state copies", "engine/state.py", "copy"),
)


def play(scenario: str, seed: int, index: int) -> int:
    """One battle; returns the turns played."""
    from battleline.sim.runner import play_battle

    return play_battle(scenario, seed, index).turns


def _matches(frame: Any, suffix: str, func: str) -> bool:
    return bool(frame.function == func and (frame.file_path or "").endswith(suffix))


def _inclusive(frame: Any, suffix: str, func: str) -> float:
    """Time in the outermost frames of ``func`` (a recursive call is not counted twice)."""
    if _matches(frame, suffix, func):
        return float(frame.time)
    return sum(_inclusive(child, suffix, func) for child in frame.children)


def sampled(scenario: str, seed: int, battles: int) -> None:
    """The phase table from a sampling profile (pyinstrument), then the heaviest call paths."""
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.001)
    turns = 0
    profiler.start()
    for i in range(battles):
        turns += play(scenario, seed, i)
    profiler.stop()
    root = profiler.last_session.root_frame() if profiler.last_session else None
    if root is None:
        return
    total = float(root.time)
    print(f"{scenario}: {battles} battles, {turns} turns, {total:.2f} s under pyinstrument\n")
    print(f"{'phase':34s} {'seconds':>9s} {'share':>7s} {'per turn':>10s}")
    for label, suffix, func in PHASES:
        cum = _inclusive(root, suffix, func)
        if cum:
            print(f"{label:34s} {cum:9.2f} {100 * cum / total:6.1f}% {1000 * cum / turns:8.1f}ms")
    print()
    print(profiler.output_text(unicode=False, color=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?", default="yalu-1894")
    parser.add_argument("--battles", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--sampler", action="store_true", help="pyinstrument, not cProfile")
    args = parser.parse_args()

    play(args.scenario, args.seed, 10_000)  # warm caches and imports outside the profile
    if args.sampler:
        sampled(args.scenario, args.seed, args.battles)
        return
    profile = cProfile.Profile(time.process_time)  # CPU time: the machine may be shared
    turns = 0
    start = time.perf_counter()
    profile.enable()
    for i in range(args.battles):
        turns += play(args.scenario, args.seed, i)
    profile.disable()
    wall = time.perf_counter() - start
    stats = pstats.Stats(profile)
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(tt for (_, _, tt, _, _) in raw.values())

    print(
        f"{args.scenario}: {args.battles} battles, {turns} turns, {wall:.2f} s wall under cProfile"
    )
    print(f"(profiled CPU total {total:.2f} s; cProfile itself inflates times about 1.5-2x)\n")
    print(f"{'phase':34s} {'seconds':>9s} {'share':>7s} {'per turn':>10s}")
    for label, suffix, func in PHASES:
        cum = sum(
            ct
            for (file, _, name), (_, _, _, ct, _) in raw.items()
            if name == func and file.endswith(suffix)
        )
        if cum:
            print(f"{label:34s} {cum:9.2f} {100 * cum / total:6.1f}% {1000 * cum / turns:8.1f}ms")

    by_module: dict[str, float] = defaultdict(float)
    for (file, _, _), (_, _, tt, _, _) in raw.items():
        p = Path(file)
        key = str(Path(*p.parts[-3:])) if "battleline" in file else p.name or file
        if "site-packages" in file:
            key = "site-packages/" + file.split("site-packages/")[1].split("/")[0]
        by_module[key] += tt
    print(f"\ntop modules by exclusive time (of {total:.2f} s)")
    for key, tt in sorted(by_module.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"  {tt:7.2f} s {100 * tt / total:5.1f}%  {key}")

    print("\ntop functions by exclusive time")
    stats.sort_stats("tottime").print_stats(args.top)
    print("\ntop functions by inclusive time")
    stats.sort_stats("cumulative").print_stats(2 * args.top)


if __name__ == "__main__":
    main()
