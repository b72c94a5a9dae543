"""The seam between the engine and a rule system: the phase table and the ruleset protocol.

The engine knows no rule system. A ruleset is one typed plug-in that declares its name, aliases
and version and owns its state type, its scenario schema, its order notations, its phase table,
its side view and its verdict. The engine walks the phase table (:class:`PhaseSpec` rows), seals
orders, rolls the dice and keeps the record; everything else it asks the ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from battleline.engine.dice import SeededDice
from battleline.engine.events import Event, EventLog
from battleline.engine.state import EngineState, Result

if TYPE_CHECKING:
    from battleline.engine.flow import Game

S = TypeVar("S", bound=EngineState)
O = TypeVar("O")  # noqa: E741 - the parsed orders of one phase
V = TypeVar("V", bound="SideViewLike")


@dataclass(frozen=True, slots=True)
class PhaseSpec(Generic[S, O]):
    """One row of the phase table.

    ``parser`` checks one side's order text and returns its parsed orders, or raises an
    ``OrderSyntaxError``/``IllegalOrderError`` naming the line and the rule; ``resolver`` resolves
    the phase on the (already copied) state with every side's parsed orders; ``needs_orders``
    says whether a side has anything to order now (if not, it is submitted empty). A phase whose
    ``order_kind`` is ``None`` takes no orders and resolves by itself.
    """

    name: str
    order_kind: str | None
    resolver: Callable[[S, Mapping[str, O], SeededDice, EventLog], None]
    parser: Callable[[S, str, Sequence[str]], O] | None = None
    needs_orders: Callable[[S, str], bool] | None = None
    rules: str = ""


#: The words a ship's fate is told in, worst first.
FATES: tuple[str, ...] = ("sunk", "sinking", "surrendered", "crippled", "damaged", "intact")


@dataclass(frozen=True, slots=True)
class ShipFate:
    """One ship's state for reports (demo, simulator, after-action): the umpire's knowledge.

    ``fate`` is one of :data:`FATES`; ``in_battle`` is False once she is lost or has left the
    fight; ``details`` holds a few ruleset-specific columns (speed, flooding, fires ...).
    """

    name: str
    side: str
    ship_class: str
    size: int
    fate: str
    in_battle: bool
    details: tuple[tuple[str, str], ...] = ()


class SideViewLike(Protocol):
    """What every ruleset's side view offers the front ends."""

    @property
    def side(self) -> str: ...

    @property
    def turn(self) -> int: ...

    @property
    def phase(self) -> str: ...

    @property
    def order_kind(self) -> str | None: ...

    @property
    def waiting_for(self) -> tuple[str, ...]: ...

    @property
    def events(self) -> tuple[Event, ...]: ...

    @property
    def result(self) -> str | None: ...

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON form (what a server sends)."""
        ...


class Ruleset(Protocol[S, V]):
    """A rule system as the engine sees it.

    A ruleset may also name the scenario ``schema`` it reads (bf1900, its 1D12 edition and tgd
    all read ``"bf1900"``; its own name when it does not say): ``new_game(scenario, seed,
    ruleset)`` plays a scenario with another ruleset only if both read the same schema.
    """

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def aliases(self) -> tuple[str, ...]: ...

    @property
    def phases(self) -> tuple[PhaseSpec[S, Any], ...]: ...

    def scenario_names(self) -> list[str]:
        """The ids of this ruleset's built-in scenarios."""
        ...

    def check_scenario(self, scenario: str) -> str:
        """Validate a built-in id or scenario file with this ruleset's schema; its title.

        Raises ``ScenarioError`` naming the field, or a ``RulesetError`` when the scenario needs a
        part this ruleset lacks.
        """
        ...

    def new_state(self, scenario: str, seed: int) -> S:
        """Set up a scenario's ships, positions and whatever else the rules need."""
        ...

    def owners(self, state: S) -> dict[str, str]:
        """Every ship's side (the owners of the events about it)."""
        ...

    def end_turn(self, state: S, events: EventLog) -> Result | None:
        """Clear the turn's hand-overs and check victory; the result if the game ended."""
        ...

    def verdict(self, state: S, reason: str) -> Result:
        """The result by the scenario's victory conditions."""
        ...

    def view(self, game: Game[S, V], side: str, since: int = 0) -> V:
        """The game as ``side`` sees it: everything that leaves the engine for a side."""
        ...

    def fates(self, state: S) -> tuple[ShipFate, ...]:
        """Every ship's fate, in scenario order (for the umpire's reports)."""
        ...

    def picture(self, state: S, path: str) -> str | None:
        """Draw the table and the ships' tracks to ``path`` (SVG or PNG by its suffix); the
        path written, or ``None`` when this ruleset has no picture."""
        ...
