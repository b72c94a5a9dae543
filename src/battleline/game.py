"""Games by name: the one module that knows both the engine and the ruleset registry.

>>> game = new_game("cruiser-duel", seed=1)  # doctest: +SKIP
>>> game.view("Britain").phase  # doctest: +SKIP
'command'

:func:`new_game` starts a built-in scenario (by id) or a scenario file (by path) with the
ruleset the scenario names; :func:`replay_game`, :func:`replay` and :func:`verify` rebuild a
saved game from its record.
"""

from __future__ import annotations

from typing import Any

from battleline.engine.events import EventLog
from battleline.engine.flow import Game
from battleline.engine.record import GameRecord, Replayed, replay_with
from battleline.engine.state import EngineState, state_hash
from battleline.errors import ScenarioError
from battleline.rulesets import get_ruleset, named_ruleset, ruleset_of_scenario

AnyGame = Game[Any, Any]


def new_game(
    scenario: str, seed: int, ruleset: str | None = None, *, events: EventLog | None = None
) -> AnyGame:
    """Start a game of a built-in scenario (by id) or a scenario file (by path).

    The ruleset defaults to the one the scenario names; another may play it if it reads the same
    scenario schema (``santiago-1898`` under ``tgd``), else ``ScenarioError`` says so. A scenario
    the ruleset's schema refuses raises ``ScenarioError`` naming the field, and one that needs a
    part the ruleset lacks a ``RulesetError``. ``events`` may be a lean log
    (``EventLog(keep=...)``) for Monte Carlo runs.
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
    return Game(rs, scenario, seed, events=events)


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
