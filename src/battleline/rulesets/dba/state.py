"""The state of a DBA game: typed ship records on bases, the option toggles and the spell
bookkeeping (NIPs, group-turn locks, Windy Corners, launches), on top of the engine's part.

A turn is two spells; spell ``n`` of the game is ``(turn - 1) * 2 + spell_in_turn``. The first
side in the scenario plays spell 1 of each turn (DBA-SEQ-01).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from battleline.engine.geometry import Pose
from battleline.engine.state import EngineState, plain
from battleline.rulesets.dba.combat import CLEAR, Conditions
from battleline.rulesets.dba.options import Options
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.windy_corner import SplashConfusion, WindyCorner


@dataclass(slots=True, kw_only=True)
class DbaState(EngineState):
    """Everything a DBA game holds between two submissions."""

    title: str = ""
    #: Every ship in play by name, in scenario order (launched TBs appended).
    ships: dict[str, ShipStatus] = field(default_factory=dict)
    #: The centre and heading of each ship's base, in metres.
    poses: dict[str, Pose] = field(default_factory=dict)
    options: Options = field(default_factory=Options)
    conditions: Conditions = CLEAR
    #: Each side's preferred range band, for its AI admiral (the scenario's ``[[side]]``).
    doctrine: dict[str, str] = field(default_factory=dict)
    #: This spell's NIPs per squadron of the speller (REF-DBA-01).
    nips: dict[str, int] = field(default_factory=dict)
    #: Squadron → last spell of its group-turn ban (DBA-MOV-03).
    lock: dict[str, int] = field(default_factory=dict)
    #: Windy Corners and last spell's fire, for splash confusion (DBA-WC, DBA-TF-02).
    splash: SplashConfusion = field(default_factory=SplashConfusion)
    #: Windy Corner location → its spot of sea (x, y).
    corner_xy: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: Squadron → (x, y, new heading) of a turn in succession not yet completed (DBA-WC-01).
    turn_points: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    #: Launched TB → (mother, spell of launch) (DBA-TBL-05/06).
    launched: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: 2nd Class TBs that stayed in port in rough weather (DBA-RW-03).
    withdrawn: list[str] = field(default_factory=list)
    #: A "ram" ship's standing choice when it is rammed: +1, −1 or 0 (DBA-RAM-06).
    ram_choice: dict[str, int] = field(default_factory=dict)
    #: Each ship's track, one point per spell it moved (for the picture).
    tracks: dict[str, list[tuple[float, float]]] = field(default_factory=dict)

    # -- spells -----------------------------------------------------------------------------
    def speller(self, spell_in_turn: int) -> str:
        """The side whose spell it is."""
        return self.sides[spell_in_turn - 1]

    def spell_number(self, spell_in_turn: int) -> int:
        """The spell's number in the game (1, 2, 3 ...)."""
        return (self.turn - 1) * 2 + spell_in_turn

    def squadrons(self, side: str) -> dict[str, list[ShipStatus]]:
        """A side's squadrons afloat, their ships in scenario order."""
        out: dict[str, list[ShipStatus]] = {}
        for s in self.ships.values():
            if s.side == side and not s.sunk:
                out.setdefault(s.squadron, []).append(s)
        return out

    def members(self, side: str, who: str) -> list[ShipStatus]:
        """The ships one order line names: a ship, or a squadron's ships afloat."""
        if who in self.ships:
            return [self.ships[who]]
        return self.squadrons(side)[who]

    def prune_splash(self, number: int) -> None:
        """Forget fire older than last spell (only last spell's fire earns an exemption)."""
        sp = self.splash
        sp.fired_at_corner = {k: v for k, v in sp.fired_at_corner.items() if k[0] >= number - 1}
        sp.fired_at_stopped = {k: v for k, v in sp.fired_at_stopped.items() if k[0] >= number - 1}
        self.corner_xy = {k: v for k, v in self.corner_xy.items() if k in sp.corners}

    # -- copies and dumps ---------------------------------------------------------------------
    def copy(self) -> DbaState:
        """A copy sharing nothing mutable (factors, poses and options are immutable)."""
        sp = self.splash
        splash = SplashConfusion(
            sp.options,
            {
                k: WindyCorner(c.location, c.squadron, set(c.to_pass), set(c.occupants))
                for k, c in sp.corners.items()
            },
            dict(sp.fired_at_corner),
            dict(sp.fired_at_stopped),
        )
        return dataclasses.replace(
            self,
            sides=tuple(self.sides),
            ships={n: s.copy() for n, s in self.ships.items()},
            poses=dict(self.poses),
            doctrine=dict(self.doctrine),
            nips=dict(self.nips),
            lock=dict(self.lock),
            splash=splash,
            corner_xy=dict(self.corner_xy),
            turn_points=dict(self.turn_points),
            launched=dict(self.launched),
            withdrawn=list(self.withdrawn),
            ram_choice=dict(self.ram_choice),
            tracks={n: list(t) for n, t in self.tracks.items()},
        )

    def to_dict(self) -> dict[str, Any]:
        """The whole state as canonical plain JSON (ships by Annex A name and marks)."""
        out: dict[str, Any] = {
            f.name: plain(getattr(self, f.name)) for f in dataclasses.fields(self)
        }
        sp = self.splash
        out["splash"] = {
            "corners": plain(sp.corners),
            "fired_at_corner": sorted([*k, v] for k, v in sp.fired_at_corner.items()),
            "fired_at_stopped": sorted([*k, v] for k, v in sp.fired_at_stopped.items()),
        }
        return out
