"""Ship-turns afloat in some simulated battles: the divisor for work per ship afloat per turn.

The side-by-side figures of ``docs/performance.md`` divide a battle's instructions by its
turns. When a change to the admirals alters the battles themselves, more or fewer ships stay
in the battle each turn, and each costs work; this counts them, turn by turn, so the same
instructions can also be divided by the ships really simulated. It runs on this tree or on an
older one (``PYTHONPATH=TREE/src``), whose ``new_game`` lived in ``battleline.engine``::

    PYTHONPATH=TREE/src python benchmarks/afloat_ship_turns.py yalu-1894 3,4,5

Seed 1 and the simulator's run seeds, as the callgrind commands there use. Prints figures;
it is not a test.
"""

from __future__ import annotations

import sys
from typing import Any

from battleline.ai.base import play
from battleline.sim.runner import run_seed

try:
    from battleline.game import new_game
except ImportError:  # a tree from before the top-level ``game`` module (28ea2d6)
    from battleline.engine import new_game  # type: ignore[attr-defined,no-redef]


def afloat_ship_turns(scenario: str, indices: list[int]) -> tuple[int, int]:
    """(turns, ship-turns in the battle) over runs ``indices`` of the sweep seeded 1."""
    turns = ship_turns = 0
    for i in indices:
        game: Any = new_game(scenario, run_seed(1, i))
        afloat: dict[int, int] = {}

        def count(_events: object, game: Any = game, afloat: dict[int, int] = afloat) -> None:
            state = game.state
            afloat[state.turn] = sum(1 for log in state.logs.values() if log.in_battle)

        play(game, on_events=count)
        turns += game.state.turn
        ship_turns += sum(afloat.values())
    return turns, ship_turns


def main(argv: list[str]) -> int:
    scenario, runs = argv[0], [int(x) for x in argv[1].split(",")]
    turns, ship_turns = afloat_ship_turns(scenario, runs)
    print(f"{scenario} runs {runs}: {turns} turns, {ship_turns} ship-turns in the battle")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
