"""One conformance check that every registered ruleset passes (issue 11, §7).

:func:`check_conformance` plays a scenario of a ruleset AI against AI through the public entry
points and returns the problems it finds (none when the ruleset conforms):

* the game plays to a result, with AI admirals on both sides;
* replay equals live play (state hash and every event);
* the same seed gives identical events;
* bad orders are refused with an error naming the line, and the state is unchanged; the
  caller's ``illegal`` lines (legal text that breaks a rule now) are refused naming a rule ID;
* no view leaks: every view served to a side (events included) and every check answer it gets
  holds no event it may not see and none of the strings the ruleset's ``secrets(state, side)``
  names as the other side's — until the game ends, when everything is public.

The range-estimation check of §7 (firing at ranges computed from a side's own view) belongs to
the rulesets that have range estimates: see ``tests/rulesets/bf1900/test_ranging_honesty.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from battleline.ai.base import Admiral, admiral_factory, play
from battleline.engine import GameRecord, admiral_seed, state_hash
from battleline.engine.flow import Game
from battleline.errors import BattlelineError
from battleline.game import new_game, replay_game

#: A rule ID as the rules inventory writes them (``BF6-GUN-01``, ``TGD-FIRE-02``, ``DBA-TF-10``).
RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]*-[A-Z]+(?:-[A-Z0-9]+)*-\d+\b")
#: A line no ruleset reads as an order.
GARBAGE = "!! this is not an order of any navy !!"


@dataclass
class Served:
    """What one side was shown at one moment, and what it must not have seen then."""

    side: str
    text: str
    secrets: frozenset[str]
    events: list[dict[str, Any]] = field(default_factory=list)


class _Recorder:
    """Wraps a side's admiral: keeps every view it is served, with the side's secrets then."""

    def __init__(self, game: Game[Any, Any], side: str, inner: Admiral) -> None:
        self.game, self.side, self.inner = game, side, inner
        self.served: list[Served] = []

    def orders(self, view: Any, phase: str) -> list[str]:
        data = view.to_dict()
        secrets = frozenset(_secrets(self.game, self.side))
        self.served.append(
            Served(self.side, json.dumps(data), secrets, list(data.get("events", [])))
        )
        return list(self.inner.orders(view, phase))


def _secrets(game: Game[Any, Any], side: str) -> set[str]:
    found: Callable[[Any, str], set[str]] | None = getattr(game.ruleset, "secrets", None)
    return set() if found is None else {s for s in found(game.state, side) if s}


def _event_problems(served: Served) -> list[str]:
    out = []
    for e in served.events:
        if e.get("public") or e.get("side") == served.side or served.side in e.get("seen_by", []):
            continue
        out.append(f"{served.side} was served an event it may not see: {e.get('text')!r}")
    return out


def _leaks(served: Served) -> list[str]:
    return [
        f"{served.side} was served the other side's secret {secret!r}"
        for secret in sorted(served.secrets)
        if secret in served.text
    ]


def _check_bad_orders(game: Game[Any, Any], illegal: Sequence[str]) -> list[str]:
    """Garbage and ``illegal`` lines are refused, naming the line (and a rule), state unchanged."""
    problems: list[str] = []
    side = next(iter(game.pending.waiting_for), game.state.sides[0])
    before = state_hash(game.state), dict(game.pending.texts), len(game.events)
    tries = [(GARBAGE, False), *((line, True) for line in illegal)]
    for line, needs_rule in tries:
        try:
            game.submit(side, [line])
        except BattlelineError as exc:
            message = str(exc)
            if line not in message and line.split(":", 1)[0] not in message:
                problems.append(f"refusal of {line!r} does not name the line: {message!r}")
            if needs_rule and not RULE_ID.search(message):
                problems.append(f"refusal of {line!r} names no rule: {message!r}")
            secrets = _secrets(game, side)
            leaked = sorted(s for s in secrets if s in message)
            if leaked:
                problems.append(f"refusal of {line!r} leaks {leaked[0]!r}")
        else:
            problems.append(f"{line!r} was accepted from {side}")
            return problems
    after = state_hash(game.state), dict(game.pending.texts), len(game.events)
    if after != before:
        problems.append("a refused order changed the game")
    return problems


def check_conformance(scenario: str, seed: int = 1, *, illegal: Sequence[str] = ()) -> list[str]:
    """Play ``scenario`` and return every conformance problem found (an empty list: it conforms)."""
    problems: list[str] = []
    game = new_game(scenario, seed)
    problems += _check_bad_orders(game, illegal)
    make = admiral_factory(game.ruleset.name)
    recorders = {
        side: _Recorder(game, side, make(side, admiral_seed(seed, i)))
        for i, side in enumerate(game.state.sides)
    }
    play(game, dict(recorders))
    if game.state.result is None:
        problems.append("the game did not play to a result")
    for rec in recorders.values():
        if not rec.served:
            problems.append(f"{rec.side} was never asked for orders")
        for served in rec.served:
            problems += _event_problems(served)
            problems += _leaks(served)
    record = GameRecord.of(game)
    again = replay_game(record)
    if state_hash(again.state) != state_hash(game.state):
        problems.append("replay does not rebuild the final state")
    if [e.to_dict() for e in again.events] != [e.to_dict() for e in game.events]:
        problems.append("replay does not rebuild the same events")
    twin = new_game(scenario, seed)
    play(twin)
    if [e.to_dict() for e in twin.events] != [e.to_dict() for e in game.events]:
        problems.append("the same seed gave different events")
    return list(dict.fromkeys(problems))
