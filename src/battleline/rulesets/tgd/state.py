"""The TGD game state: bf1900's ship logs, poses and divisions plus every ship's TGD card.

:class:`TgdState` extends :class:`~battleline.rulesets.bf1900.state.Bf1900State` (the tgd
ruleset borrows bf1900's set-up, Command and Movement Phases) with ``cards``: each ship's
:class:`~battleline.rulesets.tgd.cardlog.CardLog`, the damage marks on its card. The cards are a
typed field, copied with the state and dumped into the state hash by card title and marks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.tgd.cardlog import CardLog


@dataclass(slots=True, kw_only=True)
class TgdState(Bf1900State):
    """A tgd game at a phase boundary: the bf1900 state and the ships' TGD cards."""

    cards: dict[str, CardLog] = field(default_factory=dict)

    def copy(self) -> TgdState:
        """The bf1900 copy, with every card log copied too."""
        new = Bf1900State.copy(self)
        assert isinstance(new, TgdState)
        new.cards = {name: card.copy() for name, card in self.cards.items()}
        return new

    def to_dict(self) -> dict[str, Any]:
        """The whole state as canonical plain JSON, the cards by title and damage marks."""
        out = Bf1900State.to_dict(self)
        out["cards"] = {name: card.__plain__() for name, card in self.cards.items()}
        return out

    def card(self, ship: str) -> CardLog:
        """One ship's card log."""
        return self.cards[ship]
