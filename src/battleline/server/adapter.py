"""Every call the web server makes into the engine, in one place.

The server uses the engine only through these functions, so a change of the engine's public
surface is met here alone. A game's scenario is passed to the engine as a built-in id or as the
path of a server-owned file (:mod:`battleline.server.scenarios`); the *reference* stored with the
game (the id, or ``upload-<sha256>``) is what the saved state hash and the umpire's record use,
so a game does not depend on where that file lies.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from typing import Any

from battleline.engine import (
    GameRecord,
    RecordedOrders,
    SideViewLike,
    admiral_seed,
    state_hash,
    umpire_view,
    view,
)
from battleline.game import AnyGame as Game
from battleline.game import new_game, replay_game
from battleline.rulesets.bf1900.view import SideView

#: The engine types the server names, re-exported from here (``SideView``: bf1900's, drawn).
__all__ = ["Game", "SideView", "SideViewLike"]


def start(scenario: str, seed: int) -> Game:
    """A new game of a built-in id or a server-owned scenario file."""
    return new_game(scenario, seed)


def check_scenario(path: str) -> None:
    """Validate a scenario file with the schema of the ruleset it names (``ScenarioError``)."""
    from battleline.rulesets import ruleset_of_scenario

    ruleset_of_scenario(path)


def rebuild(
    scenario: str,
    ruleset: str,
    seed: int,
    orders: Iterable[tuple[int, str, str, Sequence[str]]],
    pending: Iterable[tuple[str, int, str, Sequence[str]]],
) -> Game:
    """Replay a stored record, then seal the open phase's pending orders again in side order."""
    record = GameRecord(
        scenario,
        ruleset,
        seed,
        [RecordedOrders(turn, phase, side, tuple(lines)) for turn, phase, side, lines in orders],
    )
    game = replay_game(record)
    order = {s: i for i, s in enumerate(game.state.sides)}
    for side, turn, phase, lines in sorted(pending, key=lambda p: order.get(p[0], 0)):
        game.submit(side, list(lines), turn=turn, phase=phase)
    return game


def submit(game: Game, side: str, lines: Sequence[str], turn: int, phase: str) -> None:
    """Seal a side's orders (the phase resolves when every side is in)."""
    game.submit(side, list(lines), turn=turn, phase=phase)


def check(game: Game, side: str, lines: Sequence[str], turn: int, phase: str) -> None:
    """Check orders without sealing them (raises the engine's error naming the problem)."""
    game.check(side, list(lines), turn=turn, phase=phase)


def side_view(game: Game, side: str, since: int = 0) -> SideViewLike:
    """What one side may see; ``since`` skips events already sent."""
    seen: SideViewLike = view(game, side, since=since)
    return seen


def view_json(seen: SideViewLike) -> str:
    """A side's view as the JSON text a server sends."""
    to_json = getattr(seen, "to_json", None)
    return str(to_json()) if callable(to_json) else json.dumps(seen.to_dict(), ensure_ascii=False)


def events_count(game: Game) -> int:
    """How many events the game has (the next ``since``)."""
    return len(game.events)


def open_phase(game: Game) -> tuple[int, str]:
    """The open turn and phase name."""
    return game.state.turn, game.spec.name


def finished(game: Game) -> bool:
    """Whether the battle is over."""
    return game.finished


def result_line(game: Game) -> str | None:
    """The verdict as one line, once the battle is over."""
    res = game.state.result
    return None if res is None else res.line()


def sides(game: Game) -> tuple[str, ...]:
    """The sides in scenario order."""
    return tuple(game.state.sides)


def waiting_for(game: Game) -> tuple[str, ...]:
    """The sides whose orders the open phase still awaits."""
    return tuple(game.pending.waiting_for)


def sealed(game: Game) -> dict[str, tuple[str, ...]]:
    """The orders sealed by players for the open phase (not those the engine entered)."""
    gate = game.pending
    return {s: tuple(t) for s, t in gate.texts.items() if s not in gate.automatic}


def has_sealed(game: Game, side: str) -> bool:
    """Whether a side's orders for the open phase are sealed (by a player or by the engine)."""
    return side in game.pending.texts


def history(game: Game, start_at: int = 0) -> list[tuple[int, str, str, tuple[str, ...]]]:
    """The record's order list from ``start_at``: (turn, phase, side, lines)."""
    return [(o.turn, o.phase, o.side, tuple(o.orders)) for o in game.history[start_at:]]


def history_length(game: Game) -> int:
    """How many entries the record's order list has."""
    return len(game.history)


def portable_hash(game: Game, ref: str) -> str:
    """The state hash with the scenario named by its stored reference, not a file path."""
    st = game.state
    return state_hash(st if st.scenario == ref else dataclasses.replace(st, scenario=ref))


def record_json(game: Game, ref: str) -> str:
    """The game record, naming the scenario by its reference."""
    record = GameRecord.of(game)
    record.scenario = ref
    record.final_hash = portable_hash(game, ref)
    return record.to_json()


def umpire_picture(game: Game, ref: str) -> dict[str, Any]:
    """Everything: state, sealed orders, events; the seed is left out until the game ends."""
    body = umpire_view(game)
    body["state"]["scenario"] = ref
    if not game.finished:
        body["state"]["seed"] = None
    return body


def admiral_for(game: Game, side: str) -> Any:
    """A fresh AI admiral for a side, seeded from the game seed as ``play`` does."""
    from battleline.ai.base import admiral_factory

    index = game.state.sides.index(side)
    return admiral_factory(game.ruleset.name)(side, admiral_seed(game.state.seed, index))


def legal_lines(game: Game, side: str, lines: Sequence[str]) -> list[str]:
    """The AI's lines less those the umpire refuses (as ``play`` does)."""
    from battleline.ai.base import legal_lines as keep_legal

    return list(keep_legal(game, side, list(lines)))
