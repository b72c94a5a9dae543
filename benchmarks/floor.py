"""The floor: the same battle's dice and geometry done in bulk numpy, and the engine's ratio to it.

One battle is played with the engine (AI against AI) and recorded: every ship's pose after each
Movement Phase, which ships were still afloat, and how many dice each turn rolled. Then the raw
work of that battle is redone in bulk numpy, with no rules and no Python loop over ships:

* movement: every base's four corners at the engine's collision sub-steps (one step per third of
  the narrowest beam along the longest track), and a bounding-circle overlap test between every
  pair of bases at every sub-step;
* gunnery geometry: every pair's funnel-to-funnel range and relative bearing, each mounting's
  arcs tested against it, and every sight line tested against every third ship's base;
* dice: the same number of uniform draws mapped to die faces.

Apart from the floor, the script times the record the architecture asks for: the battle's event
log (every die roll, order and result is an event) rebuilt with ``EventLog.emit``, one event at a
time, with no rules at all. That alone bounds the battles a second any engine keeping the full
record could play.

The ratio engine ÷ floor says how much of the engine's time is the game's irreducible arithmetic
and how much is Python doing it one ship, one gun, one die at a time.

Usage::

    .venv/bin/python benchmarks/floor.py [SCENARIO] [--seed S] [--repeat R]

This prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np

from battleline.ai.base import play
from battleline.engine import Game
from battleline.engine.events import Event, EventKind, EventLog
from battleline.game import new_game
from battleline.rulesets.bf1900.arcs import mounting_arcs
from battleline.rulesets.bf1900.ruleset import scale_of
from battleline.rulesets.bf1900.table import FUNNEL_FRACTION
from battleline.sim.runner import play_battle, run_seed


def record(scenario: str, seed: int) -> dict[str, Any]:
    """Play one battle and keep what the floor needs."""
    game: Game = new_game(scenario, run_seed(seed, 0))
    names = list(game.state.logs)
    poses: list[np.ndarray] = []
    alive: list[np.ndarray] = []
    last_turn = 0

    def snap(_: list[Event]) -> None:
        nonlocal last_turn
        st = game.state
        if st.turn != last_turn:
            last_turn = st.turn
            poses.append(np.array([[p.x, p.y, p.heading] for p in st.poses.values()]))
            alive.append(np.array([not st.logs[n].sunk for n in names]))

    play(game, on_events=snap)
    dice = np.bincount(
        [e.turn for e in game.events if e.kind is EventKind.ROLL], minlength=last_turn + 1
    )
    scale = scale_of(game.state)
    sizes = np.array([scale.base_size_m(game.state.logs[n].cls) for n in names])
    arcs = [[a for m in game.state.logs[n].cls.mountings for a in mounting_arcs(m)] for n in names]
    width = max(len(a) for a in arcs)
    arc_array = np.full((len(names), width, 2), np.nan)
    for i, row in enumerate(arcs):
        arc_array[i, : len(row)] = row
    return {
        "poses": np.stack(poses),  # (T, N, 3)
        "alive": np.stack(alive),  # (T, N)
        "dice": int(dice.sum()),
        "events": len(game.events),
        "sizes": sizes,  # (N, 2)
        "arcs": arc_array,  # (N, M, 2)
        "speed_m": float(np.nanmax(np.hypot(*np.diff(np.stack(poses)[:, :, :2], axis=0).T)))
        if len(poses) > 1
        else 0.0,
    }


def substeps(rec: dict[str, Any]) -> int:
    """The engine's collision sub-steps a turn: one per third of the narrowest beam."""
    step = max(float(rec["sizes"][:, 1].min()) / 3.0, 1.0)
    return max(1, math.ceil(float(rec["speed_m"]) / step))


def floor_movement(rec: dict[str, Any]) -> float:
    """Movement: every base's corners at every sub-step, every pair's overlap test."""
    poses, sizes = rec["poses"], rec["sizes"]
    length, width = sizes[:, 0], sizes[:, 1]
    steps = substeps(rec)
    f = np.linspace(0.0, 1.0, steps + 1)[1:, None, None, None]  # (S, 1, 1, 1)
    start, end = poses[:-1, None], poses[1:, None]  # (T-1, 1, N, 3)
    at = start + (end - start) * f.transpose(1, 0, 2, 3)  # (T-1, S, N, 3)
    rad = np.radians(at[..., 2])
    ax, ay = np.sin(rad), np.cos(rad)
    corners = np.stack(
        [
            at[..., 0] + fa * length / 2 * ax + fs * width / 2 * ay
            for fa, fs in ((1, 1), (1, -1), (-1, -1), (-1, 1))
        ],
        axis=-1,
    )
    d = np.hypot(
        at[..., None, :, 0] - at[..., :, None, 0], at[..., None, :, 1] - at[..., :, None, 1]
    )
    reach = np.hypot(length, width) / 2
    overlaps = (d < reach[None, :] + reach[:, None]).sum()
    return float(overlaps + corners[..., 0].sum())


def floor_gunnery(rec: dict[str, Any]) -> float:
    """Gunnery geometry: funnels, ranges, relative bearings, arcs and sight lines, every turn."""
    poses, alive, sizes, arcs = rec["poses"], rec["alive"], rec["sizes"], rec["arcs"]
    length, width = sizes[:, 0], sizes[:, 1]
    reach = np.hypot(length, width) / 2
    h = np.radians(poses[..., 2])
    fx = poses[..., 0] + FUNNEL_FRACTION * length * np.sin(h)
    fy = poses[..., 1] + FUNNEL_FRACTION * length * np.cos(h)
    dx = fx[:, None, :] - poses[:, :, None, 0]
    dy = fy[:, None, :] - poses[:, :, None, 1]
    rng_m = np.hypot(fx[:, None, :] - fx[:, :, None], fy[:, None, :] - fy[:, :, None])
    theta = (np.degrees(np.arctan2(dx, dy)) - poses[:, :, None, 2]) % 360.0  # (T, N, N)
    lo, hi = arcs[None, :, None, :, 0], arcs[None, :, None, :, 1]
    span = (hi - lo) % 360.0
    bears = ((theta[..., None] - lo) % 360.0 <= span).sum()  # (T, N, N, M)
    # sight line a→b against third ship c: distance from c to the segment
    ax_, ay_ = fx[:, :, None, None], fy[:, :, None, None]
    bx_, by_ = fx[:, None, :, None], fy[:, None, :, None]
    cx, cy = poses[:, None, None, :, 0], poses[:, None, None, :, 1]
    vx, vy = bx_ - ax_, by_ - ay_
    t = np.clip(((cx - ax_) * vx + (cy - ay_) * vy) / np.maximum(vx * vx + vy * vy, 1e-9), 0, 1)
    gap = np.hypot(ax_ + t * vx - cx, ay_ + t * vy - cy)
    blocked = ((gap < reach) & alive[:, None, None, :]).sum()
    return float(bears + blocked + rng_m.sum())


def floor_dice(rec: dict[str, Any], rng: np.random.Generator) -> float:
    """The battle's dice: as many uniform draws, mapped to faces."""
    return float((1 + (rng.random(rec["dice"]) * 6).astype(np.int64)).sum())


def event_record(rec: dict[str, Any]) -> float:
    """The battle's event log alone: as many events emitted, each a die roll's size."""
    log = EventLog()
    for i in range(rec["events"]):
        log.emit(EventKind.ROLL, "d6 = 4", ship="Mikasa", die=6, value=4, n=i)
    return float(len(log.events))


def timed(repeat: int, work: Any, *args: Any) -> float:
    """CPU seconds per call of ``work(*args)`` (after one warm-up call)."""
    work(*args)
    cpu0 = time.process_time()
    for _ in range(repeat):
        work(*args)
    return (time.process_time() - cpu0) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?", default="tsushima-1905")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()

    play_battle(args.scenario, args.seed, 10_000)  # warm-up
    cpu0 = time.process_time()
    played = play_battle(args.scenario, args.seed, 0)
    engine = time.process_time() - cpu0
    rec = record(args.scenario, args.seed)
    n = rec["poses"].shape[1]
    rng = np.random.default_rng(0)
    move = timed(args.repeat, floor_movement, rec)
    gun = timed(args.repeat, floor_gunnery, rec)
    dice = timed(args.repeat, floor_dice, rec, rng)
    bulk = move + gun + dice
    events = timed(args.repeat, event_record, rec)
    print(
        f"{args.scenario}: {n} ships, {played.turns} turns, {rec['dice']} dice, "
        f"{substeps(rec)} collision sub-steps a turn"
    )
    print(f"engine (AI against AI, one battle): {engine:9.4f} s CPU")
    print(f"floor (bulk numpy, same battle):    {bulk:9.4f} s CPU")
    print(f"  movement sub-steps                {move:9.4f} s")
    print(f"  gunnery geometry and sight lines  {gun:9.4f} s")
    print(f"  dice                              {dice:9.4f} s")
    print(f"ratio engine / floor:               {engine / bulk:9.0f} x")
    print(f"floor battles/s on one core:        {1 / bulk:9.1f}")
    print(f"the event log alone ({rec['events']} events):  {events:9.4f} s CPU")
    print(f"  caps any engine keeping it at     {1 / events:9.1f} battles/s")


if __name__ == "__main__":
    main()
