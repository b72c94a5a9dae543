"""Games by name: the one module that knows both the engine and the ruleset registry.

>>> game = new_game("cruiser-duel", seed=1)  # doctest: +SKIP
>>> game.view("Britain").phase  # doctest: +SKIP
'command'

:func:`new_game` starts a built-in scenario (by id) or a scenario file (by path) with the
ruleset the scenario names; :func:`replay_game`, :func:`replay` and :func:`verify` rebuild a
saved game from its record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from battleline.engine.events import EventLog
from battleline.engine.flow import Game
from battleline.engine.record import GameRecord, Replayed, replay_with
from battleline.engine.state import EngineState, state_hash
from battleline.errors import BattlelineError, ScenarioError
from battleline.rulesets import get_ruleset, named_ruleset, ruleset_of_scenario

AnyGame = Game[Any, Any]


def new_game(
    scenario: str,
    seed: int,
    ruleset: str | None = None,
    *,
    events: EventLog | None = None,
    rollback: bool = True,
) -> AnyGame:
    """Start a game of a built-in scenario (by id) or a scenario file (by path).

    The ruleset defaults to the one the scenario names; another may play it if it reads the same
    scenario schema (``santiago-1898`` under ``tgd``), else ``ScenarioError`` says so. A scenario
    the ruleset's schema refuses raises ``ScenarioError`` naming the field, and one that needs a
    part the ruleset lacks a ``RulesetError``. ``events`` may be a lean log
    (``EventLog(keep=...)``) for Monte Carlo runs, which also need no ``rollback`` of a failed
    resolution (:class:`~battleline.engine.flow.Game`).
    """
    if ruleset:
        rs = get_ruleset(ruleset)
        own = get_ruleset(named_ruleset(scenario))
        if _schema(own) != _schema(rs):
            raise ScenarioError(
                f"ruleset: the {rs.name} ruleset reads {_schema(rs)}-schema scenarios; "
                f"{scenario!r} is written for {own.name} ({_schema(own)} schema)"
            )
        rs.check_scenario(scenario)
    else:
        rs = ruleset_of_scenario(scenario)
    return Game(rs, scenario, seed, events=events, rollback=rollback)


def _schema(rs: Any) -> str:
    """The scenario schema a ruleset reads (its ``schema``, else its name)."""
    return str(getattr(rs, "schema", rs.name))


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


#: At most this many clashes between lines that pass one by one are looked for (each costs a
#: few checks of the whole set; a set with more is refused for those found).
MAX_CLASHES = 20


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
    clash is named (up to :data:`MAX_CLASHES`). A stale phase or a finished game is one problem
    of the whole set."""

    def fails(chosen: Sequence[int]) -> str | None:
        try:
            game.check(side, [lines[i] for i in chosen], turn=turn, phase=phase)
        except BattlelineError as exc:
            return str(exc)
        return None

    whole = fails([])
    if whole is not None and (not lines or "stale" in whole or game.finished):
        return [OrderProblem(None, whole)]
    out: list[OrderProblem] = []
    good: list[int] = []
    for i in range(len(lines)):
        problem = fails([i])
        if problem is None:
            good.append(i)
        else:
            out.append(OrderProblem(i, problem))
    for _ in range(MAX_CLASHES):
        problem = fails(good) if len(good) > 1 else None
        if problem is None:
            break
        culprit = good[_first_failing(fails, good) - 1]
        out.append(OrderProblem(culprit, problem))
        good.remove(culprit)
    return sorted(out, key=lambda p: (p.line is None, p.line or 0))


def _first_failing(fails: Callable[[Sequence[int]], str | None], good: Sequence[int]) -> int:
    """The shortest failing prefix of ``good`` (the whole fails, one line alone passes), by
    bisection: a set that fails still fails with more lines."""
    lo, hi = 2, len(good)
    while lo < hi:
        mid = (lo + hi) // 2
        if fails(good[:mid]) is None:
            lo = mid + 1
        else:
            hi = mid
    return hi
