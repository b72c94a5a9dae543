"""What one side may see: the single gate for everything that leaves the engine for a player.

:func:`view` hands the game to its ruleset's view function, which builds the side's picture
from the side's own state and the events it may see (:meth:`Game.events_for`: its own, those
shown to it, and the public ones). Servers, AI admirals and the CLI read a game only through
it. :func:`umpire_view` is the referee's unfiltered dump.
"""

from __future__ import annotations

from typing import Any

from battleline.engine.flow import Game
from battleline.engine.ruleset import S, V


def view(game: Game[S, V], side: str, *, since: int = 0) -> V:
    """The game as ``side`` sees it; ``since`` skips events already sent."""
    return game.view(side, since=since)


def umpire_view(game: Game[Any, Any]) -> dict[str, Any]:
    """Everything, sealed orders included: for the referee and for debugging, never a player."""
    return {
        "state": game.state.to_dict(),
        "pending": {s: list(t) for s, t in game.pending.texts.items()},
        "events": [e.to_dict() for e in game.events],
    }
