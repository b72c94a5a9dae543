"""The engine: game flow, sealed orders, dice, events, record, state hash and view plumbing.

The engine knows no rule system; a ruleset plugs in through :class:`Ruleset` and its phase
table of :class:`PhaseSpec` rows. Start games by scenario name with :mod:`battleline.game`,
which knows both the engine and the ruleset registry. ``docs/turn-sequence.md`` explains the flow.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from battleline.engine.events import Event
from battleline.engine.flow import Game, RecordedOrders, SealedOrders, admiral_seed
from battleline.engine.record import GameRecord, RecordVisitor, Replayed, replay_with
from battleline.engine.ruleset import PhaseSpec, Ruleset, SideViewLike
from battleline.engine.state import EngineState, Result, state_hash
from battleline.engine.view import umpire_view, view

__all__ = [
    "EngineState",
    "Game",
    "GameRecord",
    "PhaseSpec",
    "RecordVisitor",
    "RecordedOrders",
    "Replayed",
    "Result",
    "Ruleset",
    "SealedOrders",
    "SideViewLike",
    "admiral_seed",
    "replay_with",
    "resolve",
    "state_hash",
    "submit",
    "umpire_view",
    "view",
]


def submit(
    game: Game[Any, Any],
    side: str,
    orders: Sequence[str],
    *,
    turn: int | None = None,
    phase: str | None = None,
) -> list[Event]:
    """Seal a side's orders for the open phase; returns the events if the phase resolved."""
    return game.submit(side, orders, turn=turn, phase=phase)


def resolve(game: Game[Any, Any]) -> list[Event]:
    """Resolve the open phase now; sides that have not submitted give no orders."""
    return game.resolve()
