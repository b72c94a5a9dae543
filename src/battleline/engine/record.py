"""The game record: scenario, ruleset, seed and every order; saved as JSON and replayed.

Dice are never stored: the seed rebuilds them, so replaying the orders in sequence rebuilds the
same state and the same events. The final state hash is stored to verify a replay
(``battleline replay FILE --verify``). Replaying by ruleset name is the job of
:mod:`battleline.game`: the engine knows no ruleset.

:class:`RecordVisitor` is a small base for exporters (text, PDF, web) that walk a record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from battleline.engine.events import Event
from battleline.engine.flow import Game, RecordedOrders
from battleline.engine.ruleset import Ruleset, S, V
from battleline.engine.state import EngineState, state_hash
from battleline.errors import BattlelineError, IllegalOrderError

FORMAT = "battleline-record/1"


class RecordError(BattlelineError, ValueError):
    """A saved game file is malformed or does not replay."""


@dataclass(slots=True)
class GameRecord:
    """Everything needed to replay a game exactly."""

    scenario: str
    ruleset: str
    seed: int
    orders: list[RecordedOrders] = field(default_factory=list)
    final_hash: str | None = None
    final_turn: int | None = None

    @classmethod
    def of(cls, game: Game[Any, Any]) -> GameRecord:
        """The record of a game so far (hash of its current state)."""
        st = game.state
        return cls(st.scenario, st.ruleset, st.seed, list(game.history), state_hash(st), st.turn)

    def to_json(self) -> str:
        """The record as pretty JSON."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "scenario": self.scenario,
            "ruleset": self.ruleset,
            "seed": self.seed,
            "final_hash": self.final_hash,
            "final_turn": self.final_turn,
            "orders": [
                {"turn": o.turn, "phase": o.phase, "side": o.side, "orders": list(o.orders)}
                for o in self.orders
            ],
        }
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str, source: str = "record") -> GameRecord:
        """Parse a saved record; a malformed one raises :class:`RecordError` naming the field."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{source}: not JSON ({exc.msg} at line {exc.lineno})") from exc
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"{source}: format: expected {FORMAT!r}")
        try:
            orders = [
                RecordedOrders(
                    int(o["turn"]),
                    str(o["phase"]),
                    str(o["side"]),
                    tuple(str(t) for t in o["orders"]),
                )
                for o in data["orders"]
            ]
            return cls(
                str(data["scenario"]),
                str(data["ruleset"]),
                int(data["seed"]),
                orders,
                data.get("final_hash"),
                data.get("final_turn"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"{source}: missing or bad field {exc}") from exc

    def save(self, path: str | Path) -> None:
        """Write the record to a JSON file."""
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record from a JSON file."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"{p}: cannot read ({exc.strerror})") from exc
        return cls.from_json(text, str(p))


class Replayed(NamedTuple):
    """What a replay gives: the final state and every event (``state, events = replay(r)``)."""

    state: EngineState
    events: list[Event]


def replay_with(ruleset: Ruleset[S, V], record: GameRecord) -> Game[S, V]:
    """Rebuild a game from its record with ``ruleset``: the same seed and orders give the same
    state and events; the live :class:`Game`, ready to go on from the record's end."""
    game = Game(ruleset, record.scenario, record.seed)
    for entry in record.orders:
        try:
            game.submit(entry.side, list(entry.orders), turn=entry.turn, phase=entry.phase)
        except IllegalOrderError as exc:
            raise RecordError(
                f"replay: turn {entry.turn} {entry.phase} {entry.side}: {exc}"
            ) from exc
    return game


class RecordVisitor:
    """Base for exporters: override the ``visit_*`` methods you need; :meth:`walk` calls them."""

    def visit_header(self, record: GameRecord) -> None:
        """Called once, first."""

    def visit_orders(self, orders: RecordedOrders) -> None:
        """Called for each side's orders, in order."""

    def visit_event(self, event: Event) -> None:
        """Called for each event of the replayed game."""

    def visit_end(self, state: EngineState) -> None:
        """Called once, with the final state."""

    def walk(self, record: GameRecord, ruleset: Ruleset[Any, Any]) -> None:
        """Visit the header, every order, every event of the replay, and the end state."""
        self.visit_header(record)
        for o in record.orders:
            self.visit_orders(o)
        game = replay_with(ruleset, record)
        for e in game.events:
            self.visit_event(e)
        self.visit_end(game.state)
