"""Game flow: the phase table as data, the sealed-orders gate, and the game session.

A ruleset hands the engine a tuple of :class:`PhaseSpec` — name, what the sides submit, how the
text is checked, and the resolver — and the engine walks it turn after turn. No
phase is special-cased here.

Orders for a phase are sealed (:class:`SealedOrders`, the "all once" gate of boardgame.io): each
side submits once (a second submission for the same phase is a duplicate and refused, as are
orders that name another turn or phase); once every side has submitted, and only then, the
phase resolves and the orders are recorded as ``ORDER`` events, private to the side that gave
them. Phases whose ``order_kind`` is ``None`` (Movement, for instance, which carries out the
Command Phase's orders) resolve by themselves.

The engine copies the state once per resolution, runs the resolvers on the copy, and only then
replaces the game's state, so a failed resolution never leaves a half-changed state behind. A
game made with ``rollback=False`` (a simulated battle, which is thrown away on any error) skips
that copy and resolves on its state in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic

import numpy as np

from battleline.engine.dice import SeededDice
from battleline.engine.events import Event, EventKind, EventLog
from battleline.engine.ruleset import PhaseSpec, Ruleset, S, V
from battleline.engine.state import Result
from battleline.errors import IllegalOrderError, UnknownNameError


@dataclass(frozen=True, slots=True)
class RecordedOrders:
    """One side's orders for one phase, as finally submitted."""

    turn: int
    phase: str
    side: str
    orders: tuple[str, ...]


@dataclass(slots=True)
class SealedOrders:
    """The pending-sides gate of one phase: sealed until every side has submitted."""

    turn: int
    phase: str
    sides: tuple[str, ...]
    texts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    parsed: dict[str, Any] = field(default_factory=dict)
    automatic: set[str] = field(default_factory=set)

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """Sides that have not yet submitted."""
        return tuple(s for s in self.sides if s not in self.texts)

    @property
    def complete(self) -> bool:
        """True once every side has submitted."""
        return not self.waiting_for

    def put(self, side: str, texts: Sequence[str], parsed: Any, *, automatic: bool = False) -> None:
        """Seal (or replace) one side's orders."""
        self.texts[side] = tuple(texts)
        self.parsed[side] = parsed
        if automatic:
            self.automatic.add(side)
        else:
            self.automatic.discard(side)


def _dice_at(seed: int, draws: int, log: EventLog) -> SeededDice:
    """The game's dice as they stood after ``draws`` rolls (for a rollback)."""
    dice = SeededDice(seed, log=log)
    for _ in range(draws):
        dice._next(6)  # the face depends on the die, the draw does not: any size skips one
    dice.draws = draws
    return dice


def admiral_seed(seed: int, side_index: int) -> np.random.SeedSequence:
    """An admiral's own seed, spawned from the game seed, independent of the game's dice."""
    return np.random.SeedSequence(seed).spawn(side_index + 1)[side_index]


class Game(Generic[S, V]):
    """One game in progress: the ruleset, the state, the dice, the event log and the order record.

    Start one with :func:`battleline.game.new_game`; use :meth:`submit` and :meth:`view`. The
    state is replaced (never changed in place) at each resolution, unless ``rollback`` is False:
    then the resolvers change it in place, and a failed resolution leaves it half changed (for
    games that are dropped on an error, as the simulator's are; the copy is about a tenth of
    a simulated battle's work).
    """

    def __init__(
        self,
        ruleset: Ruleset[S, V],
        scenario: str,
        seed: int,
        *,
        events: EventLog | None = None,
        rollback: bool = True,
    ) -> None:
        self.ruleset = ruleset
        #: Whether a failed resolution puts the state back as it was (see :meth:`_resolve_ready`).
        self.rollback = rollback
        self.events = EventLog() if events is None else events
        self.dice = SeededDice(seed, log=self.events)
        self.state: S = ruleset.new_state(scenario, seed)
        self.events.owners = ruleset.owners(self.state)
        self.history: list[RecordedOrders] = []
        self._phase_index = 0
        self.state.phase = self.spec.name
        self.events.turn = self.state.turn
        self.events.phase = self.state.phase
        self.events.emit(
            EventKind.PHASE,
            f"Turn {self.state.turn}: {self.spec.name} phase",
            public=True,
            turn_limit=self.state.turn_limit,
        )
        self.pending = self._open_gate(self.state)
        if self.pending.complete:
            self._resolve_ready()

    # -- the phase table ------------------------------------------------------------------

    @property
    def spec(self) -> PhaseSpec[S, Any]:
        """The phase now open."""
        return self.ruleset.phases[self._phase_index]

    @property
    def finished(self) -> bool:
        """True once the game has a result."""
        return self.state.result is not None

    def _open_gate(self, state: S) -> SealedOrders:
        """A fresh gate for the current phase, pre-filling sides with nothing to order."""
        spec = self.spec
        gate = SealedOrders(state.turn, spec.name, state.sides)
        for side in state.sides:
            if spec.order_kind is None or (
                spec.needs_orders is not None and not spec.needs_orders(state, side)
            ):
                parsed = spec.parser(state, side, ()) if spec.parser else ()
                gate.put(side, (), parsed, automatic=True)
        return gate

    # -- submission -----------------------------------------------------------------------

    def submit(
        self,
        side: str,
        orders: Sequence[str],
        *,
        turn: int | None = None,
        phase: str | None = None,
    ) -> list[Event]:
        """Seal one side's orders for the open phase; resolve once every side is in.

        ``turn`` and ``phase``, when given, must name the open phase: an order written for another
        turn or phase is stale and rejected. Returns the events produced (empty while waiting).
        """
        gate = self.pending
        if side in gate.texts and side not in gate.automatic and self.state.result is None:
            raise IllegalOrderError(
                f"duplicate orders from {side} for turn {gate.turn} {gate.phase} phase: its "
                "orders are sealed already and cannot be changed"
            )
        texts, parsed = self._checked(side, orders, turn, phase)
        before = (gate.texts.get(side), gate.parsed.get(side), side in gate.automatic)
        gate.put(side, texts, parsed)
        if not gate.complete:
            return []
        try:
            return self._resolve_ready()
        except BaseException:
            # The resolution failed and was rolled back: these orders are not sealed either.
            old_texts, old_parsed, was_auto = before
            if old_texts is None:
                gate.texts.pop(side, None)
                gate.parsed.pop(side, None)
            else:
                gate.put(side, old_texts, old_parsed, automatic=was_auto)
            raise

    def check(
        self,
        side: str,
        orders: Sequence[str],
        *,
        turn: int | None = None,
        phase: str | None = None,
    ) -> None:
        """Validate orders for the open phase without sealing them (raises as :meth:`submit`)."""
        self._checked(side, orders, turn, phase)

    def _checked(
        self, side: str, orders: Sequence[str], turn: int | None, phase: str | None
    ) -> tuple[tuple[str, ...], Any]:
        """The stripped order lines and their parsed form, or the error that refuses them."""
        state = self.state
        if state.result is not None:
            raise IllegalOrderError(f"the game is over ({state.result.line()}); no more orders")
        if side not in state.sides:
            raise UnknownNameError("side", side, list(state.sides))
        spec = self.spec
        if (turn is not None and turn != state.turn) or (phase is not None and phase != spec.name):
            raise IllegalOrderError(
                f"stale orders from {side} for turn {turn} {phase or spec.name} phase: "
                f"the open phase is turn {state.turn} {spec.name}"
            )
        texts = tuple(o.strip() for o in orders if o.strip())
        if spec.order_kind is None and texts:
            raise IllegalOrderError(
                f"turn {state.turn} {spec.name} phase: no orders are given in this phase "
                f"(it carries out orders given in an earlier phase)"
            )
        parsed = spec.parser(state, side, texts) if spec.parser else texts
        return texts, parsed

    def resolve(self) -> list[Event]:
        """Umpire's hand: resolve now, sides that have not submitted giving no orders."""
        if self.state.result is not None:
            return []
        for side in self.pending.waiting_for:
            spec = self.spec
            parsed = spec.parser(self.state, side, ()) if spec.parser else ()
            self.pending.put(side, (), parsed)
        return self._resolve_ready()

    # -- resolution -----------------------------------------------------------------------

    def _resolve_ready(self) -> list[Event]:
        """Resolve every phase whose gate is complete, on one copy of the state.

        If a resolver fails, everything is put back as it was before — events, record, phase,
        dice — and the error is raised; the game can go on from the last good state. Without
        ``rollback`` the state itself is left as the failed resolver left it.
        """
        start = len(self.events)
        saved = (
            self.events.turn,
            self.events.phase,
            self._phase_index,
            len(self.history),
            self.pending,
            self.dice.draws,
        )
        try:
            return self._resolve_chain(start)
        except BaseException:
            turn, phase, index, n_history, gate, draws = saved
            del self.events.events[start:]
            self.events.turn, self.events.phase = turn, phase
            self._phase_index = index
            del self.history[n_history:]
            self.pending = gate
            self.dice = _dice_at(self.state.seed, draws, self.events)
            raise

    def _resolve_chain(self, start: int) -> list[Event]:
        state = self.state.copy() if self.rollback else self.state
        while self.pending.complete and state.result is None:
            gate = self.pending
            spec = self.spec
            for side in state.sides:
                if gate.texts[side] or side not in gate.automatic:
                    self.history.append(
                        RecordedOrders(state.turn, spec.name, side, gate.texts[side])
                    )
                for text in gate.texts[side]:
                    self.events.emit(EventKind.ORDER, f"{side}: {text}", side=side, by=side)
            spec.resolver(state, gate.parsed, self.dice, self.events)
            self._advance(state)
            state.draws = self.dice.draws
            self.pending = self._open_gate(state) if state.result is None else gate
        self.state = state
        return self.events.events[start:]

    def _advance(self, state: S) -> None:
        """Step to the next phase, ending the turn after the last."""
        self._phase_index += 1
        if self._phase_index >= len(self.ruleset.phases):
            self._phase_index = 0
            result = self.ruleset.end_turn(state, self.events)
            if result is None and state.turn >= state.turn_limit:
                result = self._at_turn_limit(state)
            if result is not None:
                state.result = result
                self.events.emit(EventKind.RESULT, result.line(), public=True, winner=result.winner)
                return
            state.turn += 1
        state.phase = self.spec.name
        self.events.turn = state.turn
        self.events.phase = state.phase
        self.events.emit(EventKind.PHASE, f"Turn {state.turn}: {state.phase} phase", public=True)

    def _at_turn_limit(self, state: S) -> Result:
        """Ask the ruleset for the verdict at the turn limit."""
        return self.ruleset.verdict(state, "turn limit reached")

    # -- what leaves the engine for a side -------------------------------------------------

    def view(self, side: str, *, since: int = 0) -> V:
        """The game as ``side`` sees it (the ruleset's view); ``since`` skips events sent."""
        if side not in self.state.sides:
            raise UnknownNameError("side", side, list(self.state.sides))
        return self.ruleset.view(self, side, since)

    def events_for(self, side: str, since: int = 0) -> list[Event]:
        """The events ``side`` may see from index ``since``: its own, those shown to it and the
        public ones; every event once the game is over."""
        events = self.events.events[since:]
        if self.state.result is not None:
            return list(events)
        return [e for e in events if e.visible_to(side)]

    def my_orders(self, side: str) -> tuple[str, ...] | None:
        """The orders ``side`` has sealed for the open phase, if any."""
        gate = self.pending
        if gate.turn == self.state.turn and gate.phase == self.state.phase:
            return gate.texts.get(side)
        return None
