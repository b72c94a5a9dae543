"""The boxes and records a ship log is made of: marks, the rudder line, propulsion boxes,
lettered positions, compartments and the sinking record (BF6-PROP, BF6-LET, BF6-FL, BF6-SINK).

:class:`~battleline.rulesets.bf1900.shiplog.ShipLog` holds them and re-exports them; each has a
hand-written ``copy`` for the engine's whole-state copies (``docs/architecture.md``, "State and
copies").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Protocol

from battleline.rulesets.bf1900.ship import FloodLevel

#: ``object.__new__``: makes an instance without running ``__init__``/``__post_init__``, for the
#: hand-written copies below (a fresh log's ``__post_init__`` builds every box from the class).
bare = object.__new__


class Mark(IntEnum):
    """A mark on a box: a diagonal slash (damaged, repairable) or a full X (destroyed)."""

    NONE = 0
    DAMAGED = 1
    DESTROYED = 2


class RudderState(StrEnum):
    """The rudder line: free, damaged (R hit), secured on centre-line (RC), or jammed."""

    FREE = "R"
    DAMAGED = "R/"
    SECURED = "RC"
    JAMMED_PORT = "JP"
    JAMMED_STARBOARD = "JS"


@dataclass(slots=True)
class PropulsionBoxes:
    """Propulsion boxes, highest speed first, marked progressively (BF6-PROP-01..05).

    The boxes always read, top to bottom, ``[destroyed…][damaged…][undamaged…]``; hits that do not
    fit go in the margin as "propulsion access" damage, which must be repaired first.
    """

    speeds: tuple[float, ...]
    destroyed: int = 0
    damaged: int = 0
    margin: int = 0

    def copy(self) -> PropulsionBoxes:
        """An independent copy (the speeds tuple is immutable and shared). Slot by slot without
        ``__init__``, which is about twice as fast: see :meth:`ShipLog.copy`."""
        new: PropulsionBoxes = bare(PropulsionBoxes)
        new.speeds = self.speeds
        new.destroyed = self.destroyed
        new.damaged = self.damaged
        new.margin = self.margin
        return new

    @property
    def undamaged(self) -> int:
        """Boxes with no mark."""
        return len(self.speeds) - self.destroyed - self.damaged

    @property
    def available(self) -> float:
        """Speed of the topmost undamaged box; 0 when dead in the water (BF6-MOV-01, MOV-07)."""
        marked = self.destroyed + self.damaged
        return self.speeds[marked] if marked < len(self.speeds) else 0.0

    @property
    def hits(self) -> int:
        """Propulsion box hits for the drop-out rule: destroyed + damaged + margin (AMB-07)."""
        return self.destroyed + self.damaged + self.margin

    def damage(self) -> str:
        """Apply a damaged-box hit (P). Returns what was marked: 'box' or 'margin'."""
        if self.undamaged > 0:
            self.damaged += 1
            return "box"
        self.margin += 1
        return "margin"

    def destroy(self) -> str:
        """Apply a destroyed-box hit (Px), migrating damaged marks down (EX-BF6-11).

        Returns 'box' (an undamaged box destroyed), 'converted' (a damaged box turned destroyed and
        its damage mark moved to the margin) or 'margin'.
        """
        if self.undamaged > 0:
            self.destroyed += 1
            return "box"
        if self.damaged > 0:
            self.damaged -= 1
            self.destroyed += 1
            self.margin += 1
            return "converted"
        self.margin += 1
        return "margin"

    def repair(self) -> str:
        """Repair one mark: margin damage first, then the lowest damaged box (BF6-PROP-04).

        Returns 'margin', 'box' or 'nothing'. Destroyed boxes are never repaired (BF6-REP-01).
        """
        if self.margin > 0:
            self.margin -= 1
            return "margin"
        if self.damaged > 0:
            self.damaged -= 1
            return "box"
        return "nothing"


@dataclass(slots=True)
class PositionState:
    """A lettered position's marks: any number of slashes, possibly a full X (BF6-LET-02)."""

    slashes: int = 0
    destroyed: bool = False
    magazine_flooded: bool = False

    def copy(self) -> PositionState:
        """An independent copy, slot by slot (see :meth:`ShipLog.copy`)."""
        new: PositionState = bare(PositionState)
        new.slashes = self.slashes
        new.destroyed = self.destroyed
        new.magazine_flooded = self.magazine_flooded
        return new

    @property
    def in_action(self) -> bool:
        """Undamaged, not destroyed, and its magazine not flooded (BF6-REP-03, BF6-CF-03)."""
        return self.slashes == 0 and not self.destroyed and not self.magazine_flooded


@dataclass(slots=True)
class CompartmentState:
    """One compartment's flooding: its most severe level, whether a Hvy entry is boxed
    (contained, BF6-REP-08), and how many of its points come from counterflooding (BF6-CF-04)."""

    level: FloodLevel = FloodLevel.NONE
    contained: bool = False
    counterflooded: bool = False

    def copy(self) -> CompartmentState:
        """An independent copy, slot by slot (see :meth:`ShipLog.copy`)."""
        new: CompartmentState = bare(CompartmentState)
        new.level = self.level
        new.contained = self.contained
        new.counterflooded = self.counterflooded
        return new


class ListingEffect(Protocol):
    """What the log needs of an Uneven Flooding result (``charts.UnevenEffect``)."""

    @property
    def speed_boxes(self) -> int: ...

    @property
    def tr_hits(self) -> int: ...

    @property
    def dc_boxes(self) -> int: ...

    @property
    def low_guns_silent(self) -> bool: ...


@dataclass(slots=True)
class SinkingState:
    """A ship that has irredeemably begun to sink (BF6-SINK-01..05)."""

    turns_left: int
    guns_abandoned: bool = False

    def copy(self) -> SinkingState:
        """An independent copy, slot by slot (see :meth:`ShipLog.copy`)."""
        new: SinkingState = bare(SinkingState)
        new.turns_left = self.turns_left
        new.guns_abandoned = self.guns_abandoned
        return new
