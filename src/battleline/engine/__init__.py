"""The engine's public surface: start a game, submit sealed orders, view it, replay it.

>>> game = new_game("cruiser-duel", seed=1)          # doctest: +SKIP
>>> submit(game, "Britain", ["..."], turn=1, phase="command")  # doctest: +SKIP

Everything a front end needs is here; ``docs/turn-sequence.md`` explains the flow.
"""

from __future__ import annotations

from collections.abc import Sequence

from battleline.engine.events import Event
from battleline.engine.flow import Game, PhaseSpec, RecordedOrders, SealedOrders, admiral_seed
from battleline.engine.record import (
    GameRecord,
    RecordVisitor,
    Replayed,
    replay,
    replay_game,
    verify,
)
from battleline.engine.state import GameState, Result, state_hash
from battleline.engine.view import SideView, umpire_view, view

__all__ = [
    "Game",
    "GameRecord",
    "GameState",
    "PhaseSpec",
    "RecordVisitor",
    "RecordedOrders",
    "Replayed",
    "Result",
    "SealedOrders",
    "SideView",
    "admiral_seed",
    "new_game",
    "replay",
    "replay_game",
    "resolve",
    "state_hash",
    "submit",
    "umpire_view",
    "verify",
    "view",
]


def new_game(scenario: str, seed: int, ruleset: str | None = None) -> Game:
    """Start a game of a built-in scenario (by name) or a scenario file (by path).

    The ruleset defaults to the one the scenario names (``bf1900`` for the built-ins).
    """
    from battleline.rulesets import get_ruleset, ruleset_of_scenario

    rs = get_ruleset(ruleset) if ruleset else ruleset_of_scenario(scenario)
    return Game(rs, scenario, seed)


def submit(
    game: Game,
    side: str,
    orders: Sequence[str],
    *,
    turn: int | None = None,
    phase: str | None = None,
) -> list[Event]:
    """Seal a side's orders for the open phase; returns the events if the phase resolved."""
    return game.submit(side, orders, turn=turn, phase=phase)


def resolve(game: Game) -> list[Event]:
    """Resolve the open phase now; sides that have not submitted give no orders."""
    return game.resolve()
