"""What a ruleset tells a simulator about a finished battle's events: damage by cause, shots.

The simulator holds no rules, so it cannot know which of a ruleset's events is a shell striking
home or a round fired. Each ruleset that plays AI against AI offers an optional part ``tally``
(a module of its package, found by the registry's ``ruleset_part``) that reads its own events:

* ``KINDS``: the event kinds it reads (a Monte Carlo battle's lean log keeps these);
* ``damage_cause(event)``: the cause, one of :data:`CAUSES`, that an event counts one of, or
  ``None``;
* ``shots(event)``: the rounds fired and hits made that an event records, as :class:`Shots`
  (none for most events).

A ruleset without the part counts nothing (its damage table and hit rates stay empty).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from battleline.engine.events import Event, EventKind

#: The damage causes a simulator reports, in report order (each ruleset maps its events here).
CAUSES: tuple[str, ...] = ("gunfire", "torpedo", "flooding", "fire", "explosion", "ramming")

#: The calibre class a ruleset gives when it tells no calibres apart.
ALL_GUNS = "all"


@dataclass(frozen=True, slots=True)
class Shots:
    """Rounds fired and hits made by one ship's guns of one calibre class, from one event.

    An event may record the rounds (``fired``) or the hits (``hits``) or both; the simulator
    adds them up per side and calibre class (and per ``bore``). ``target`` is the ship fired at,
    when known.
    """

    firer: str
    calibre: str
    fired: int = 0
    hits: int = 0
    target: str | None = None
    #: The guns' bore as the ruleset's ship data gives it (``"15.2 cm"``), when it tells bores
    #: apart: the simulator also counts each bore on its own, to set beside a record that gives
    #: rounds and hits gun by gun.
    bore: str | None = None


class BattleTally(Protocol):
    """A ruleset's ``tally`` part (a module with these names)."""

    KINDS: frozenset[EventKind]

    def damage_cause(self, event: Event) -> str | None:
        """The damage cause (one of :data:`CAUSES`) ``event`` counts one of, or ``None``."""
        ...

    def shots(self, event: Event) -> Iterable[Shots]:
        """The rounds fired and hits made that ``event`` records (usually none)."""
        ...


class NoTally:
    """The tally of a ruleset that has none: it reads nothing and counts nothing."""

    KINDS: frozenset[EventKind] = frozenset()

    def damage_cause(self, event: Event) -> str | None:
        """Nothing counts."""
        return None

    def shots(self, event: Event) -> Iterable[Shots]:
        """No shots."""
        return ()


__all__ = ["ALL_GUNS", "CAUSES", "BattleTally", "NoTally", "Shots"]
