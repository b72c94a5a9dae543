"""The boxes of a Battlefleet 1900 ship log, as data: what each line holds and how it is marked.

One description of the log's boxes (BF6-GEN-04, REF-BF6-05) shared by every front end that lays
a log out: the printed sheets (``battleline.printing.shiplog_pdf`` and ``compact_log``) draw
these boxes, and the web ship log (:mod:`.web_shiplog`) sends them as JSON. The figures here are
battleline's reconstruction of the paper log (the rules list its fields, not its layout): how many
fire, bridge, conning-tower and steering boxes a sheet prints, the four flooding levels of a
compartment, the rudder line, and which boxes a mark fills.
"""

from __future__ import annotations

from dataclasses import dataclass

from battleline.rulesets.bf1900.ship import (
    Compartment,
    FloodLevel,
    GunClass,
    Mounting,
    ShipType,
    TorpedoMount,
)
from battleline.rulesets.bf1900.shiplog import CompartmentState, Mark, RudderState

#: Fires, bridge, CT and TR hits have no fixed box count in the rules; a log prints this many of
#: each and a tally past the last box (reconstructed layout, REF-BF6-05).
FIRE_BOXES = 10
BR_BOXES = CT_BOXES = 3
ST_BOXES = 6

#: A compartment's flooding boxes, least to most severe (BF6-FLD-02).
FLOOD_BOXES: tuple[tuple[FloodLevel, str], ...] = (
    (FloodLevel.LIGHT, "L"),
    (FloodLevel.MODERATE, "M"),
    (FloodLevel.HEAVY, "Hvy"),
    (FloodLevel.SEVERE, "Sev"),
)
COMPARTMENT_TITLE: dict[Compartment, str] = {
    Compartment.FORWARD: "Forward",
    Compartment.PORT: "Port amidships",
    Compartment.STARBOARD: "Stbd amidships",
    Compartment.AFT: "Aft",
}
#: The rudder line's boxes: damaged, secured on the centre-line, jammed to port or starboard.
RUDDER_BOXES: tuple[tuple[RudderState, str], ...] = (
    (RudderState.DAMAGED, "R/"),
    (RudderState.SECURED, "RC"),
    (RudderState.JAMMED_PORT, "JP"),
    (RudderState.JAMMED_STARBOARD, "JS"),
)
TYPE_NAMES: dict[ShipType, str] = {
    ShipType.BATTLESHIP: "battleship",
    ShipType.COAST_DEFENCE: "coast defence ship",
    ShipType.ARMOURED_CRUISER: "armoured cruiser",
    ShipType.PROTECTED_CRUISER: "protected cruiser",
    ShipType.CRUISER: "cruiser",
    ShipType.TORPEDO_GUNBOAT: "torpedo gunboat",
    ShipType.GUNBOAT: "gunboat",
    ShipType.DESTROYER: "destroyer",
    ShipType.TORPEDO_BOAT: "torpedo boat",
}
CLASS_TITLE: dict[GunClass, str] = {
    GunClass.MAIN: "Main",
    GunClass.SECONDARY: "Secondary",
    GunClass.TERTIARY: "Tertiary",
    GunClass.BOAT: "Boat guns",
}


def log_title(name: str) -> str:
    """The heading of a ship's log as every layout prints it; a secret of the other side
    (``secrets.secrets_for``), so a leak of her whole log page is caught by its title."""
    return f"Ship log of {name}"


def rof_text(rof: float) -> str:
    """ROF as a log prints it: ½, 1 or 2 (BF6-ROF-01)."""
    return "\u00bd" if rof == 0.5 else f"{rof:g}"


def marks(total: int, damaged: int = 0, destroyed: int = 0) -> list[Mark]:
    """``total`` boxes, the first ``destroyed`` crossed, the next ``damaged`` slashed."""
    marked = [Mark.DESTROYED] * destroyed + [Mark.DAMAGED] * damaged
    return (marked + [Mark.NONE] * total)[: max(total, len(marked))]


def tally(count: int, boxes: int) -> tuple[list[Mark], int]:
    """A tally line of ``boxes`` boxes with the first ``count`` slashed, and the overflow past
    the last box (printed ``+n``)."""
    return marks(boxes, damaged=min(count, boxes)), max(0, count - boxes)


def torpedo_marks(mount: TorpedoMount, left: int) -> list[Mark]:
    """A torpedo mount's boxes: one a torpedo, crossed off as they are fired."""
    return [Mark.DESTROYED] * (mount.tubes - left) + [Mark.NONE] * left


def where(m: Mounting) -> list[str]:
    """The "Where" cell: a position and its compartment, or a beam pattern with its sides.

    Beam-pattern gun boxes alternate port, starboard, port, ... (``arcs.battery_layout``), half
    the guns a side and any odd gun (the last box) to starboard.
    """
    if m.is_lettered:
        comp = COMPARTMENT_TITLE[m.compartment].lower() if m.compartment else ""
        return [str(m.position), comp]
    port = m.guns // 2
    starboard = m.guns - port
    sides = f"{port} a side" if port == starboard else f"{port} P, {starboard} S"
    lines = [f"pattern {m.beam_pattern}", sides]
    if port:
        lines.append("odd P, even S")
    return lines


@dataclass(frozen=True, slots=True)
class FloodBox:
    """One box of a compartment's flooding line: its level, label, whether it is marked (the
    level reached), and whether it has the frame drawn round Hvy once contained (BF6-REP-08)."""

    level: FloodLevel
    label: str
    marked: bool
    framed: bool

    @property
    def frame_box(self) -> bool:
        """Whether this box carries the containment frame (Hvy, framed or not yet)."""
        return self.level is FloodLevel.HEAVY


def flood_boxes(state: CompartmentState) -> tuple[FloodBox, ...]:
    """A compartment's L, M, Hvy and Sev boxes as marked now: the level reached is marked, and the
    Hvy box is framed when the flooding is contained."""
    return tuple(
        FloodBox(level, label, state.level is level, level is FloodLevel.HEAVY and state.contained)
        for level, label in FLOOD_BOXES
    )


__all__ = [
    "BR_BOXES",
    "CLASS_TITLE",
    "COMPARTMENT_TITLE",
    "CT_BOXES",
    "FIRE_BOXES",
    "FLOOD_BOXES",
    "RUDDER_BOXES",
    "ST_BOXES",
    "TYPE_NAMES",
    "FloodBox",
    "flood_boxes",
    "log_title",
    "marks",
    "rof_text",
    "tally",
    "torpedo_marks",
    "where",
]
