"""What one side may see: the single gate for everything that leaves the engine for a player.

:func:`view` hands the game to its ruleset's view function, which builds the side's picture
from the side's own state and the events it may see (:meth:`Game.events_for`: its own, those
shown to it, and the public ones). Servers, AI admirals and the CLI read a game only through
it. :func:`view_dict` is the plain JSON form every ruleset's view dataclass is sent in.
:func:`umpire_view` is the referee's unfiltered dump.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from battleline.engine.flow import Game
from battleline.engine.ruleset import S, V
from battleline.engine.state import plain

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


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


def view_dict(view: DataclassInstance, own: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
    """A side view dataclass in plain JSON form, field by field: its ``events`` by
    :meth:`~battleline.engine.events.Event.to_dict`, each of its ``own`` ships by ``own``, every
    other field by :func:`~battleline.engine.state.plain`."""
    out: dict[str, Any] = {}
    for name in view.__dataclass_fields__:
        value = getattr(view, name)
        if name == "events":
            out[name] = [e.to_dict() for e in value]
        elif name == "own":
            out[name] = [own(s) for s in value]
        else:
            out[name] = plain(value)
    return out


def fields_but(record: DataclassInstance, *left_out: str) -> dict[str, Any]:
    """A dataclass record's fields in plain JSON form, without those named in ``left_out``."""
    out: dict[str, Any] = plain(
        {f: getattr(record, f) for f in record.__dataclass_fields__ if f not in left_out}
    )
    return out
