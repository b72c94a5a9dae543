"""The flooding records of the Battlefleet 1900 charts, shared by the 1D6 and 1D12 editions.

* :class:`FloodColumn`: a Flooding Occurrence column "N>" (BF6-DMG-08, BF12C-FLOOD-01, AMB-48);
* :class:`UnevenEffect`: what uneven flooding on one axis does (BF6-DMG-13, BF12C-UNV-01/02);
* :class:`SinkRow`: one 1D6 Sinking row (BF6-SINK-01/02).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from battleline.rulesets.bf1900.ship import FloodLevel

UNEVEN_AXES = ("side", "fore_aft")
#: Largest point difference between two compartments (Severe against none).
MAX_UNEVEN_DIFFERENCE = int(FloodLevel.SEVERE)
#: Total flooding points that call for a sink roll (BF6-SINK-01, EX-DRV-04) and the most a ship
#: can hold (four Severe compartments).
SINK_ROLL_FROM = 5
MAX_FLOODING_POINTS = 4 * int(FloodLevel.SEVERE)

LEVEL_NAMES: Mapping[str, FloodLevel] = MappingProxyType({lv.name.lower(): lv for lv in FloodLevel})


@dataclass(frozen=True, slots=True)
class FloodColumn:
    """A Flooding Occurrence column "N>": weapon size ≥ ``at_least`` % of the target's (AMB-48)."""

    name: str
    at_least: float


@dataclass(frozen=True, slots=True)
class UnevenEffect:
    """What uneven flooding on one axis does while the disparity lasts (BF6-DMG-13).

    Reconstructed (REF-BF6-04); see ``docs/rules-gaps/charts.md``. The effect is not damage on the
    log: it is recomputed from the compartments in every Step Four, cannot be repaired by damage
    control, and goes when counterflooding evens the ship (BF6-DMG-11, BF12C-UNV-02).

    * ``speed_boxes``: propulsion boxes unusable, counted down from the top available box;
    * ``tr_hits``: TR hits added to the steering line (``ShipLog.uneven_tr_hits``);
    * ``dc_boxes``: damage-control dice unusable this turn;
    * ``low_guns_silent``: guns on the side (list) or end (trim) the ship is down towards cannot
      fire.
    """

    speed_boxes: int = 0
    tr_hits: int = 0
    dc_boxes: int = 0
    low_guns_silent: bool = False

    def __add__(self, other: UnevenEffect) -> UnevenEffect:
        """Both axes together (AMB-53): counts add, silenced guns stay silenced."""
        return UnevenEffect(
            self.speed_boxes + other.speed_boxes,
            self.tr_hits + other.tr_hits,
            self.dc_boxes + other.dc_boxes,
            self.low_guns_silent or other.low_guns_silent,
        )

    @property
    def none(self) -> bool:
        """True when the effect does nothing."""
        return self == UnevenEffect()

    def __str__(self) -> str:
        parts = []
        if self.speed_boxes:
            parts.append(f"-{self.speed_boxes} speed box{'es' * (self.speed_boxes > 1)}")
        if self.tr_hits:
            parts.append(f"+{self.tr_hits} TR")
        if self.dc_boxes:
            parts.append(f"-{self.dc_boxes} DC {'dice' if self.dc_boxes > 1 else 'die'}")
        if self.low_guns_silent:
            parts.append("low-side guns silent")
        return ", ".join(parts) or "no effect"


@dataclass(frozen=True, slots=True)
class SinkRow:
    """One Sinking row: at ``points`` flooding points a 1D6 in ``lo``–``hi`` sinks the ship in
    ``turns`` turns (BF6-SINK-01/02)."""

    points: int
    lo: int
    hi: int
    turns: int


__all__ = [
    "LEVEL_NAMES",
    "MAX_FLOODING_POINTS",
    "MAX_UNEVEN_DIFFERENCE",
    "SINK_ROLL_FROM",
    "UNEVEN_AXES",
    "FloodColumn",
    "SinkRow",
    "UnevenEffect",
]
