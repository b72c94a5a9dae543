"""What a damage code is applied with: the context of a hit, and the shape of the code mapping.

These types sit apart from the mapping itself (:mod:`.codes`) so that the modules the mapping
calls — flooding above all, whose Occurrence rolls produce further codes — need not import it:
they are handed the mapping (``apply``) by their caller.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

from battleline.engine.dice import Dice
from battleline.engine.events import EventLog
from battleline.rulesets.bf1900.hits import Aspect
from battleline.rulesets.bf1900.shiplog import ShipLog

_NO_EFFECTS: Mapping[str, Any] = MappingProxyType({})

CAUSES = frozenset({"shell", "torpedo", "explosion", "spread", "critical", "misc"})


class DamageCharts(Protocol):
    """The chart lookups the damage code needs (implemented by ``charts.Charts``)."""

    def critical(self, line: str, roll: int) -> Sequence[str]: ...

    def misc_damage(self, roll: int) -> Sequence[str]: ...

    def uneven_flooding(self, axis: str, difference: int) -> Any: ...

    def sink_roll(self, points: int) -> tuple[int, int, int] | None: ...

    def repair_range(self, action: str) -> tuple[int, int]: ...

    def command_range(self, function: str) -> tuple[int, int]: ...


@dataclass(frozen=True, slots=True)
class DamageContext:
    """What a code needs besides the ship: charts, dice, events and where the hit came from.

    ``aspect`` is the embattled side (``None`` for an explosion); ``weapon_size`` the shell or
    torpedo size for a plain ``FL``; ``cause`` one of :data:`CAUSES`. ``die`` is the edition's
    die for every chart and location roll (6; 12 in the 1D12 edition, DIFF-01) and ``effects``
    lets an edition replace what some codes do (the 1D12 ``S``, DIFF-10); both carry down to
    deeper rolls.
    """

    charts: DamageCharts
    dice: Dice
    events: EventLog
    aspect: Aspect | None
    weapon_size: float | None
    cause: str = "shell"
    depth: int = 0
    die: int = 6
    effects: Mapping[str, CodeEffect] = dataclasses.field(default_factory=lambda: _NO_EFFECTS)

    def __post_init__(self) -> None:
        if self.cause not in CAUSES:
            raise ValueError(f"unknown damage cause {self.cause!r}; use one of {sorted(CAUSES)}")

    def deeper(self, cause: str, aspect: Aspect | None) -> DamageContext:
        """The context for codes produced by a further chart roll (``dataclasses.replace``,
        spelt out: replace looks the fields up again on every call)."""
        return DamageContext(
            self.charts,
            self.dice,
            self.events,
            aspect,
            self.weapon_size,
            cause,
            self.depth + 1,
            self.die,
            self.effects,
        )


ApplyCodes = Callable[[ShipLog, Sequence[str], DamageContext], None]
#: An edition's own effect for one code (see ``DamageContext.effects``).
CodeEffect = Callable[[ShipLog, "Code", DamageContext], None]


@dataclass(frozen=True, slots=True)
class Code:
    """One parsed code: ``count`` times ``name``; ``column`` for a fixed-column flood hit."""

    name: str
    count: int = 1
    column: int | None = None

    def __str__(self) -> str:
        if self.column is not None:
            return f"{self.column}FL"
        return f"{self.count if self.count > 1 else ''}{self.name}"
