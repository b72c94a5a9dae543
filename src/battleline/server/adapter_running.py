"""The engine calls of the running part (deadlines, umpire, lobby, after-action, replay).

Kept apart from :mod:`battleline.server.adapter` so the parts of the page grow without meeting;
the rules stay in the engine and the rulesets: an empty submission is whatever the ruleset makes
of no order lines, the report is :func:`battleline.aar.after_action`, and the pictures are the
ruleset's own umpire picture.
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from threading import Lock
from typing import Any

from battleline.aar import after_action
from battleline.engine import Game as EngineGame
from battleline.server import adapter

#: What a side that has not sealed is given when the umpire resolves a phase: no order lines
#: (the ruleset's standing orders: straight on, hold fire, no declarations).
NO_ORDERS: tuple[str, ...] = ()


def seal_no_orders(game: adapter.Game, side: str) -> None:
    """Seal "no orders" for a side in the open phase."""
    turn, phase = adapter.open_phase(game)
    adapter.submit(game, side, list(NO_ORDERS), turn, phase)


def report(game: adapter.Game) -> dict[str, Any]:
    """The after-action report of a game (the CLI's figures, as data)."""
    return after_action(game)


@dataclass(frozen=True, slots=True)
class Frame:
    """One phase of a replay: the state as it opened and the events its resolution made."""

    turn: int
    phase: str
    state: dict[str, Any]
    events: list[dict[str, Any]]


def _fresh(game: adapter.Game) -> Any:
    st = game.state
    return EngineGame(game.ruleset, st.scenario, st.seed)


def _replayed_to(game: adapter.Game, step: int | None) -> tuple[Any, list[Frame]]:
    """Replay ``game``'s record phase by phase: the frames, and the replayed game stopped at the
    opening of frame ``step`` (``None``: played to the end)."""
    g = _fresh(game)
    frames: list[Frame] = []
    opened = (g.state.turn, g.spec.name, _state(g), 0)  # the opening events are the first's

    def close() -> None:
        turn, phase, state, start = opened
        events = [e.to_dict() for e in g.events.events[start:]]
        frames.append(Frame(turn, phase, state, events))

    for entry in _orders_of(game):
        if step is not None and len(frames) == step:
            return g, frames
        g.submit(entry.side, list(entry.orders), turn=entry.turn, phase=entry.phase)
        if g.finished or (g.state.turn, g.spec.name) != opened[:2]:
            close()
            opened = (g.state.turn, g.spec.name, _state(g), len(g.events))
    if step is not None and len(frames) == step:
        return g, frames
    turn, phase, state, _ = opened
    frames.append(Frame(turn, "end" if g.finished else phase, state, []))
    return g, frames


def _orders_of(game: adapter.Game) -> list[Any]:
    """The record's orders, in sealing order."""
    return list(game.history)


def _state(g: Any) -> dict[str, Any]:
    """The state as JSON data, copied (the replay goes on changing the live one)."""
    loaded: dict[str, Any] = json.loads(json.dumps(g.state.to_dict(), default=str))
    return loaded


class Replays:
    """The frames of finished games, kept for a few games (a finished game never changes)."""

    def __init__(self, keep: int = 4) -> None:
        self.keep = keep
        self._frames: OrderedDict[str, list[Frame]] = OrderedDict()
        self._pictures: OrderedDict[tuple[str, int], str | None] = OrderedDict()
        self._lock = Lock()

    def frames(self, key: str, game: adapter.Game) -> list[Frame]:
        """Every frame of a finished game (``key``: its id and version)."""
        with self._lock:
            if key in self._frames:
                self._frames.move_to_end(key)
                return self._frames[key]
        _, frames = _replayed_to(game, None)
        with self._lock:
            self._frames[key] = frames
            while len(self._frames) > self.keep:
                self._frames.popitem(last=False)
        return frames

    def picture(self, key: str, game: adapter.Game, step: int) -> str | None:
        """The umpire's picture of the table as frame ``step`` opened (``None``: the ruleset
        draws none)."""
        with self._lock:
            if (key, step) in self._pictures:
                return self._pictures[key, step]
        frames = self.frames(key, game)
        if step >= len(frames) - 1:
            svg = umpire_picture(game)  # the end: the game as it stands
        else:
            replayed, _ = _replayed_to(game, step)
            svg = umpire_picture(replayed)
        with self._lock:
            self._pictures[key, step] = svg
            while len(self._pictures) > 8 * self.keep:
                self._pictures.popitem(last=False)
        return svg


def umpire_picture(game: Any) -> str | None:
    """The ruleset's own picture of the true table (every ship where she is), as SVG text.

    The seed stays secret until the battle is over, from the umpire too: the picture of a game
    still on is drawn from a copy of the state that names no seed (its title prints it).
    """
    from battleline.server.service import _DRAWING

    state = game.state
    if not game.finished:
        state = copy.copy(state)
        object.__setattr__(state, "seed", "secret")
    with _DRAWING, tempfile.TemporaryDirectory() as folder:
        path = game.ruleset.picture(state, str(Path(folder) / "table.svg"))
        if path is None:
            return None
        return Path(path).read_text(encoding="utf-8")
