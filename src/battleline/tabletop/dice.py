"""The players' own dice: physical rolls typed in instead of the session's seeded dice.

:class:`PlayerDice` is a :class:`~battleline.engine.dice.Dice` that plays the rolls given in
order and, when they run out, asks for each further die (``ask``) or, without a way to ask,
stops the phase with an error saying what the next die was for. A roll that does not fit the die
is refused. Every die still goes through this one object, and the draws are counted as usual.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from battleline.engine.dice import FixedDice
from battleline.engine.events import EventLog
from battleline.errors import DiceExhausted, OrderSyntaxError

#: Asks the players for one die: ``ask(sides, what it is for)`` → the value rolled.
Ask = Callable[[int, str], int]


def parse_rolls(text: str) -> list[int]:
    """``"3,1 5"`` → ``[3, 1, 5]``: whole numbers separated by commas or spaces."""
    words = text.replace(",", " ").split()
    if not words or not all(w.isdigit() for w in words):
        raise OrderSyntaxError(f"--dice {text!r}: give your rolls as whole numbers, e.g. 3,1,5")
    return [int(w) for w in words]


class PlayerDice(FixedDice):
    """Rolls made at the table: ``values`` first, then ``ask`` for each further die."""

    def __init__(
        self, values: Iterable[int] = (), ask: Ask | None = None, log: EventLog | None = None
    ) -> None:
        super().__init__(values, log=log)
        self.ask = ask
        self._for = ""

    def roll(self, sides: int, purpose: str, *, ship: str | None = None) -> int:
        self._for = f"{ship}: {purpose}" if ship else purpose
        return super().roll(sides, purpose, ship=ship)

    def _next(self, sides: int) -> int:
        number = self._pos + 1
        if self._pos >= len(self._values):
            if self.ask is None:
                raise DiceExhausted(
                    f"--dice: {len(self._values)} roll(s) given, but the Damage Phase needs "
                    f"more: roll {number} is a d{sides} for {self._for}"
                )
            self._values.append(self.ask(sides, self._for))
        value = self._values[self._pos]
        if not 1 <= value <= sides:
            raise OrderSyntaxError(
                f"--dice: roll {number} is {value}, but it is a d{sides} (1 to {sides}) "
                f"for {self._for}"
            )
        self._pos += 1
        return value

    def unused(self) -> list[int]:
        """Rolls given that no rule asked for."""
        return self._values[self._pos :]
