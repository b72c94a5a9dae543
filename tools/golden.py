"""Golden battles: prove a speed-up changed nothing.

Plays a fixed set of AI-against-AI battles and prints, for each, two digests: one of its dice
(every roll's purpose, ship, die and face, in order) and orders (every side's order text, in
order), and the hash of its final state. Narrative text is not digested, so wording can change.
``--record`` writes them to a file; ``--check`` compares a fresh run with that file and exits 1
on any difference. CI runs the check (``tests/test_golden.py``).

Same dice and same orders mean the same battle: a change that keeps the rules and the AI's
decisions must leave both digests unchanged. The state hash also changes when the state's
representation changes (a field renamed or moved); such a commit re-records and says so. When the
rules or the AI are changed on purpose, re-record in that commit and say so in its message.

``--no-rollback`` plays the battles as the simulator does, its resolutions changing the state in
place with no copy to roll back to (``Game(rollback=False)``): they must still be identical.

Usage::

    .venv/bin/python tools/golden.py --check tools/golden.json
    .venv/bin/python tools/golden.py --check tools/golden.json --no-rollback
    .venv/bin/python tools/golden.py --record tools/golden.json
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

#: (scenario, run index) of the sweep seeded 7: small and large, both 1D6 and 1D12 editions.
BATTLES: tuple[tuple[str, int], ...] = (
    ("cruiser-duel", 0),
    ("cruiser-duel", 1),
    ("cruiser-duel", 2),
    ("destroyer-attack", 0),
    ("destroyer-attack", 1),
    ("destroyer-attack", 2),
    ("cruiser-duel-1d12", 0),
    ("cruiser-duel-1d12", 1),
    ("channel-1900", 0),
    ("channel-1900", 1),
    ("santiago-1898", 0),
    ("ulsan-1904", 0),
    ("yalu-1894", 0),
    ("tsushima-1905", 0),
)
SWEEP_SEED = 7


def digest(job: tuple[str, int], rollback: bool = True) -> dict[str, object]:
    """Play one golden battle (with or without ``rollback``); its event-log digest, final state
    hash and CPU seconds."""
    from battleline.ai.base import play
    from battleline.engine.record import state_hash
    from battleline.game import new_game
    from battleline.sim.runner import run_seed

    scenario, index = job
    start = time.process_time()
    game = new_game(scenario, run_seed(SWEEP_SEED, index), rollback=rollback)
    play(game)
    dice, orders = hashlib.sha256(), hashlib.sha256()
    n_rolls = 0
    for event in game.events:
        if event.kind == "roll":
            n_rolls += 1
            d = event.data
            line = f"{event.turn}|{d['purpose']}|{event.ship}|{d['sides']}|{d['value']}\n"
            dice.update(line.encode())
    for entry in game.history:
        record = [entry.turn, entry.phase, entry.side, list(entry.orders)]
        orders.update(json.dumps(record).encode())
        orders.update(b"\n")
    return {
        "scenario": scenario,
        "index": index,
        "rolls": n_rolls,
        "dice": dice.hexdigest(),
        "orders": orders.hexdigest(),
        "state": state_hash(game.state),
        "turn": game.state.turn,
        "cpu_s": round(time.process_time() - start, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--record", type=Path, help="write the digests to this file")
    group.add_argument("--check", type=Path, help="compare with the digests in this file")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--no-rollback", action="store_true", help="resolve in place, as the simulator does"
    )
    args = parser.parse_args()

    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(functools.partial(digest, rollback=not args.no_rollback), BATTLES))
    total = sum(float(r["cpu_s"]) for r in results)  # type: ignore[arg-type]
    for r in results:
        print(
            f"{r['scenario']:>18} #{r['index']}  turn {r['turn']:>3}  {r['rolls']:>6} rolls"
            f"  {r['cpu_s']:>6} s  {str(r['dice'])[:12]}"
        )
    print(f"CPU total {total:.1f} s")
    if args.record:
        kept = [{k: v for k, v in r.items() if k != "cpu_s"} for r in results]
        args.record.write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")
        print(f"recorded {len(kept)} battles to {args.record}")
        return 0
    want = json.loads(args.check.read_text(encoding="utf-8"))
    bad = 0
    for r, w in zip(results, want, strict=True):
        for key in ("rolls", "dice", "orders", "turn", "state"):
            if r[key] != w[key]:
                bad += 1
                print(f"DIFFERENT: {r['scenario']} #{r['index']} {key}: {r[key]} != {w[key]}")
                break
    print("identical" if not bad else f"{bad} battle(s) differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
