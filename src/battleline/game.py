"""Games by name: the one module that knows both the engine and the ruleset registry.

>>> game = new_game("cruiser-duel", seed=1)  # doctest: +SKIP
>>> game.view("Britain").phase  # doctest: +SKIP
'command'

:func:`new_game` starts a built-in scenario (by id) or a scenario file (by path) with the
ruleset the scenario names; :func:`replay_game`, :func:`replay` and :func:`verify` rebuild a
saved game from its record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from battleline.engine.events import EventLog
from battleline.engine.flow import Game
from battleline.engine.record import GameRecord, Replayed, replay_with
from battleline.engine.state import EngineState, state_hash
from battleline.errors import BattlelineError
from battleline.rulesets import get_ruleset, ruleset_of_scenario

AnyGame = Game[Any, Any]


def new_game(
    scenario: str, seed: int, ruleset: str | None = None, *, events: EventLog | None = None
) -> AnyGame:
    """Start a game of a built-in scenario (by id) or a scenario file (by path).

    The ruleset defaults to the one the scenario names; a scenario the ruleset's schema refuses
    raises ``ScenarioError`` naming the field. ``events`` may be a lean log
    (``EventLog(keep=...)``) for Monte Carlo runs.
    """
    if ruleset:
        rs = get_ruleset(ruleset)
        rs.check_scenario(scenario)
    else:
        rs = ruleset_of_scenario(scenario)
    return Game(rs, scenario, seed, events=events)


def replay_game(record: GameRecord) -> AnyGame:
    """Rebuild a saved game, ready to go on from the record's end."""
    return replay_with(get_ruleset(record.ruleset.split("@", 1)[0]), record)


def replay(record: GameRecord) -> Replayed:
    """The final state and every event of a saved game."""
    game = replay_game(record)
    return Replayed(game.state, list(game.events.events))


def verify(record: GameRecord) -> tuple[bool, EngineState]:
    """Replay and compare the final state hash with the stored one."""
    game = replay_game(record)
    return state_hash(game.state) == record.final_hash, game.state


@dataclass(frozen=True, slots=True)
class OrderProblem:
    """One refusal of a set of order lines: ``line`` is the index of the line it belongs to
    (``None`` for a problem of the set as a whole), ``message`` the engine's reason."""

    line: int | None
    message: str


def order_problems(
    game: Game[Any, Any],
    side: str,
    lines: Sequence[str],
    *,
    turn: int | None = None,
    phase: str | None = None,
) -> list[OrderProblem]:
    """Every problem with a side's order lines, not just the first: each line checked on its
    own, then the lines that pass together. A problem of the set (two lines that clash: one
    mounting over-allocated across targets, a second estimate) goes to the first line whose
    addition makes the set fail; that line is set aside and the rest checked again, so every
    clash is named. A stale phase or a finished game is one problem of the whole set."""
    try:
        game.check(side, [], turn=turn, phase=phase)
    except BattlelineError as exc:
        if not lines or "stale" in str(exc) or game.finished:
            return [OrderProblem(None, str(exc))]
    out: list[OrderProblem] = []
    good: list[int] = []
    for i, line in enumerate(lines):
        try:
            game.check(side, [line], turn=turn, phase=phase)
        except BattlelineError as exc:
            out.append(OrderProblem(i, str(exc)))
        else:
            good.append(i)
    while good:
        try:
            game.check(side, [lines[i] for i in good], turn=turn, phase=phase)
        except BattlelineError as exc:
            culprit = _first_failing(game, side, lines, good, turn, phase)
            out.append(OrderProblem(culprit, str(exc)))
            if culprit is None:
                break
            good.remove(culprit)
            continue
        break
    return sorted(out, key=lambda p: (p.line is None, p.line or 0))


def _first_failing(
    game: Game[Any, Any],
    side: str,
    lines: Sequence[str],
    good: Sequence[int],
    turn: int | None,
    phase: str | None,
) -> int | None:
    """The first of ``good`` whose addition to the lines before it makes the check fail."""
    for k in range(2, len(good) + 1):
        try:
            game.check(side, [lines[i] for i in good[:k]], turn=turn, phase=phase)
        except BattlelineError:
            return good[k - 1]
    return None
