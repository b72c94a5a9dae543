"""The Battlefleet 1900 game state: ship logs, poses, divisions and the turn's hand-overs.

:class:`Bf1900State` extends the engine's :class:`~battleline.engine.state.EngineState` with
everything the bf1900 phases read and write: the ship logs, the ships' poses, the divisions, the
scale and land, the tracks, and the hand-overs between phases of one turn (the division plans
from the Command Phase, the shell sets of the Gunnery Phase, the torpedo hits). The 1D12 edition
and TGD play on the same state.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from battleline.engine.geometry import Pose
from battleline.engine.state import EngineState, copy_extra, plain
from battleline.rulesets.bf1900.hits import ShellSet, TorpedoHit
from battleline.rulesets.bf1900.notation import Order
from battleline.rulesets.bf1900.shiplog import HARBOUR_FIELDS, ShipLog

if TYPE_CHECKING:  # a runtime import would be circular when divisions.py is imported first
    from battleline.rulesets.bf1900.divisions import Division
    from battleline.rulesets.bf1900.planning import PlannedMove


@dataclass(slots=True, kw_only=True)
class Bf1900State(EngineState):
    """Everything a bf1900 game knows at a phase boundary."""

    logs: dict[str, ShipLog]
    poses: dict[str, Pose]
    divisions: dict[str, Division]
    scale: str
    land: list[list[tuple[float, float]]] = field(default_factory=list)
    #: Ship centre tracks, one point per Movement Phase, for the battle picture.
    tracks: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    #: Distance each ship moved last turn, metres (BF6-MOV-03 speed change limit).
    moved_last_m: dict[str, float] = field(default_factory=dict)
    #: Hand-overs inside one turn, cleared when the turn ends: each division's movement orders
    #: (Command → Movement), the hit zones' shell sets (Gunnery → Damage Step Two) and the
    #: torpedo hits (Torpedo Movement → Damage Step Two).
    plans: dict[str, tuple[Order, ...]] | None = None
    #: The moves planned when the Command Phase orders were sealed, that still fit their
    #: divisions after it (Command → Movement).
    moves: dict[str, PlannedMove] = field(default_factory=dict)
    shell_sets: list[ShellSet] = field(default_factory=list)
    torpedo_hits: list[TorpedoHit] = field(default_factory=list)
    #: Ruleset-owned values that must survive between turns (JSON-able only).
    extra: dict[str, Any] = field(default_factory=dict)

    def side_of(self, ship: str) -> str:
        """The side a ship fights for."""
        return self.logs[ship].side

    def ships_of(self, side: str) -> list[str]:
        """A side's ships in scenario order."""
        return [n for n, log in self.logs.items() if log.side == side]

    def ship_sides(self) -> dict[str, str]:
        """Every ship's side, for the event log's owners."""
        return {n: log.side for n, log in self.logs.items()}

    def copy(self) -> Bf1900State:
        """One copy per resolution: logs deep-copied, class values shared (frozen).

        The shallow copy is made slot by slot without ``__init__`` (``copy.copy`` goes through
        ``__reduce_ex__``, several times slower); every mutable field is then replaced below.
        """
        new: Bf1900State = object.__new__(type(self))
        for name in _slots_of(type(self)):
            setattr(new, name, getattr(self, name))
        new.logs = {k: v.copy() for k, v in self.logs.items()}
        new.poses = dict(self.poses)
        new.divisions = dict(self.divisions)  # Division is frozen
        new.land = self.land  # never changes during a game
        new.tracks = {k: list(v) for k, v in self.tracks.items()}
        new.moved_last_m = dict(self.moved_last_m)
        new.plans = None if self.plans is None else dict(self.plans)  # orders are frozen
        new.moves = dict(self.moves)  # planned moves are frozen
        new.shell_sets = list(self.shell_sets)
        new.torpedo_hits = list(self.torpedo_hits)
        new.extra = copy_extra(self.extra)
        return new

    def to_dict(self) -> dict[str, Any]:
        """The whole state as canonical plain JSON (ship classes by name)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "logs":
                out["logs"] = {k: log_to_dict(v) for k, v in value.items()}
            else:
                out[f.name] = plain(value)
        return out


#: Every field of each state class (its slots), for the shallow step of ``copy``.
_SLOTS: dict[type[Bf1900State], tuple[str, ...]] = {}


def _slots_of(kind: type[Bf1900State]) -> tuple[str, ...]:
    """Every field of a state class (``Bf1900State`` or a ruleset's subclass of it)."""
    slots = _SLOTS.get(kind)
    if slots is None:
        slots = _SLOTS[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return slots


def log_to_dict(log: ShipLog) -> dict[str, Any]:
    """A ship log's marks as plain JSON; the class is given by name only."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(log):
        if f.name == "cls":
            out["class"] = log.cls.name
        elif f.name in HARBOUR_FIELDS and getattr(log, f.name) == HARBOUR_FIELDS[f.name]:
            continue  # at the default: left out, so games without anchored ships hash as before
        else:
            out[f.name] = plain(getattr(log, f.name))
    return out
