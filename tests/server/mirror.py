"""A server game's twin, played in the test process: AI admirals choose every side's orders, the
test sends them to the server as the players would, and the twin (same scenario, same seed) holds
the true state at each moment, so a test knows what each side must not be shown then.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from battleline.ai.base import admiral_factory, legal_lines
from battleline.engine import admiral_seed, state_hash, view
from battleline.errors import BattlelineError
from battleline.game import new_game

#: Sends one side's sealed orders to the server: (side, turn, phase, lines).
Send = Callable[[str, int, str, Sequence[str]], None]


class Twin:
    """The local twin of a server game."""

    def __init__(self, scenario: str, seed: int) -> None:
        self.game: Any = new_game(scenario, seed)
        make = admiral_factory(self.game.ruleset.name)
        sides = self.game.state.sides
        self.admirals = {s: make(s, admiral_seed(seed + 1, i)) for i, s in enumerate(sides)}
        self.cursor = dict.fromkeys(sides, 0)
        self.phases = 0

    @property
    def finished(self) -> bool:
        return bool(self.game.finished)

    @property
    def moment(self) -> str:
        """The open turn and phase (and the result once over), as the page's ``view`` shows."""
        g = self.game
        return f"{g.state.turn}/{g.spec.name}/{'over' if g.finished else 'on'}"

    def secrets(self, side: str) -> frozenset[str]:
        """What ``side`` must not be shown now (nothing once the battle is over)."""
        if self.game.finished:
            return frozenset()
        found = getattr(self.game.ruleset, "secrets", None)
        return frozenset(s for s in (found(self.game.state, side) if found else ()) if s)

    def hash(self) -> str:
        return str(state_hash(self.game.state))

    def step(self, send: Send) -> None:
        """Seal every awaited side's orders for the open phase, here and through ``send``."""
        g = self.game
        turn, phase = g.state.turn, g.spec.name
        while not g.finished and (g.state.turn, g.spec.name) == (turn, phase):
            side = g.pending.waiting_for[0]
            seen = view(g, side, since=self.cursor[side])
            self.cursor[side] = len(g.events)
            lines = list(self.admirals[side].orders(seen, phase))
            try:
                g.check(side, lines, turn=turn, phase=phase)
            except BattlelineError:
                lines = legal_lines(g, side, lines)
            send(side, turn, phase, lines)
            g.submit(side, lines, turn=turn, phase=phase)
        self.phases += 1
