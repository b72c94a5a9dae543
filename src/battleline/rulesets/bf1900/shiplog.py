"""The ship log: the mutable damage state of one ship (BF6-GEN-04, REF-BF6-05).

Static values stay in :class:`~battleline.rulesets.bf1900.ship.ShipClass`; everything a player
would pencil onto the log during a game lives here. A ``ShipLog`` is a plain mutable dataclass: the
engine copies the whole game state before resolving a phase, so callers still get value semantics
(see ``docs/architecture.md``, "State and copies"). The boxes and records it is made of are in
:mod:`~battleline.rulesets.bf1900.log_boxes`, re-exported here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Any

from battleline.rulesets.bf1900.flood_tables import UnevenEffect
from battleline.rulesets.bf1900.log_boxes import (
    CompartmentState,
    ListingEffect,
    Mark,
    PositionState,
    PropulsionBoxes,
    RudderState,
    SinkingState,
    bare,
)
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, Mounting, ShipClass

__all__ = [
    "HARBOUR_FIELDS",
    "CompartmentState",
    "ListingEffect",
    "Mark",
    "PositionState",
    "PropulsionBoxes",
    "RudderState",
    "ShipLog",
    "SinkingState",
]


@dataclass(slots=True)
class ShipLog:
    """Everything marked on one ship's log during a game."""

    name: str
    cls: ShipClass
    side: str = ""
    propulsion: PropulsionBoxes = field(init=False)
    dc_boxes: list[Mark] = field(init=False)
    compartments: dict[Compartment, CompartmentState] = field(init=False)
    positions: dict[str, PositionState] = field(init=False)
    batteries: dict[str, list[Mark]] = field(init=False)
    torpedoes_left: dict[str, int] = field(init=False)
    fires_external: int = 0
    fires_internal: int = 0
    bridge_hits: int = 0
    ct_hits: int = 0
    tr_hits: int = 0
    uneven_tr_hits: int = 0
    rudder: RudderState = RudderState.FREE
    searchlights: list[Mark] = field(init=False)
    boat_crews_deployed: bool = field(init=False)
    sink_roll_bonus: int = 0
    sinking: SinkingState | None = None
    sunk: bool = False
    surrendered: bool = False
    rof_half_fired_last_turn: set[str] = field(default_factory=set)
    #: Zones whose counterflood failed this Damage Phase (BF6-CF-05); cleared each phase.
    counterflood_locked: set[Compartment] = field(default_factory=set)
    #: Scuttling announced: irrevocable (BF6-CF-06, AMB-32).
    scuttling: bool = False
    #: Why the ship was lost ("sank", "scuttled", "capsized"), empty while afloat.
    lost_reason: str = ""
    #: The current Uneven Flooding effect per axis ("side", "fore_aft"), recomputed in every
    #: Step Four and gone once the disparity is corrected (BF6-DMG-11/13); not repairable. Values
    #: are the charts' frozen ``UnevenEffect`` records. Their TR hits are copied to
    #: ``uneven_tr_hits``; their speed and DC losses are taken off ``speed_knots`` and ``dc_dice``.
    uneven: dict[str, ListingEffect] = field(default_factory=dict)
    #: Turns before a ship at anchor has her anchor up and may move (a scenario's ``at_anchor``;
    #: counted down at the end of each turn, ``docs/scenarios.md``); 0 once she is free.
    anchor_turns: int = 0
    #: The scenario's ``disabled_machinery``: she cannot steam at all this battle.
    machinery_disabled: bool = False

    def __post_init__(self) -> None:
        c = self.cls
        self.propulsion = PropulsionBoxes(tuple(c.propulsion_knots))
        self.dc_boxes = [Mark.NONE] * c.dc_boxes
        self.compartments = {comp: CompartmentState() for comp in Compartment}
        self.positions = {m.key: PositionState() for m in c.mountings if m.is_lettered}
        self.batteries = {m.key: [Mark.NONE] * m.guns for m in c.mountings if not m.is_lettered}
        self.torpedoes_left = {t.key: t.tubes for t in c.torpedoes}
        self.searchlights = [Mark.NONE] * c.searchlights
        # Ships without armoured decks must always man their boat guns (BF6-SEC-03).
        self.boat_crews_deployed = not c.armoured_deck

    # -- derived values -------------------------------------------------------------------

    @property
    def fires(self) -> int:
        """All fires, external and internal."""
        return self.fires_external + self.fires_internal

    @property
    def flooding_points(self) -> int:
        """Sum of the four compartments' levels (BF6-DMG-12)."""
        return sum(int(s.level) for s in self.compartments.values())

    @property
    def side_to_side_difference(self) -> int:
        """Point difference between port and starboard amidships."""
        c = self.compartments
        return abs(int(c[Compartment.PORT].level) - int(c[Compartment.STARBOARD].level))

    @property
    def fore_aft_difference(self) -> int:
        """Point difference between forward and aft."""
        c = self.compartments
        return abs(int(c[Compartment.FORWARD].level) - int(c[Compartment.AFT].level))

    @property
    def uneven_flooding_points(self) -> int:
        """Points of uneven flooding: both axes added together (AMB-04)."""
        return self.side_to_side_difference + self.fore_aft_difference

    @property
    def listing(self) -> tuple[str, ...]:
        """The ship's attitude in words (EX-BF6-18): "down by the bows" / "down by the stern" and
        "list to port" / "list to starboard"; empty when evenly flooded (BF6-DMG-13)."""
        c = self.compartments
        words: list[str] = []
        fwd, aft = int(c[Compartment.FORWARD].level), int(c[Compartment.AFT].level)
        port, stbd = int(c[Compartment.PORT].level), int(c[Compartment.STARBOARD].level)
        if fwd > aft:
            words.append("down by the bows")
        elif aft > fwd:
            words.append("down by the stern")
        if port > stbd:
            words.append("list to port")
        elif stbd > port:
            words.append("list to starboard")
        return tuple(words)

    @property
    def uneven_speed_boxes(self) -> int:
        """Propulsion boxes lost to uneven flooding while it lasts."""
        return sum(e.speed_boxes for e in self.uneven.values())

    @property
    def uneven_dc_boxes(self) -> int:
        """DC dice lost to uneven flooding while it lasts."""
        return sum(e.dc_boxes for e in self.uneven.values())

    @property
    def low_sides(self) -> frozenset[str]:
        """Where uneven flooding silences the low guns: "port"/"starboard" (list) and
        "bow"/"stern" (trim), as the current effects say."""
        c = self.compartments
        out: set[str] = set()
        for axis, effect in self.uneven.items():
            if not effect.low_guns_silent:
                continue
            if axis == "side":
                port, stbd = c[Compartment.PORT].level, c[Compartment.STARBOARD].level
                out.add("port" if port > stbd else "starboard")
            else:
                fwd, aft = c[Compartment.FORWARD].level, c[Compartment.AFT].level
                out.add("bow" if fwd > aft else "stern")
        return frozenset(out)

    @property
    def dc_dice(self) -> int:
        """DC dice usable this turn: unmarked DC boxes (BF6-DC-04), less any lost to uneven
        flooding."""
        unmarked = self.dc_boxes.count(Mark.NONE)
        return max(0, unmarked - self.uneven_dc_boxes) if self.uneven else unmarked

    @property
    def speed_knots(self) -> float:
        """Available speed in knots: the top undamaged propulsion box, moved down by any boxes
        lost to uneven flooding; 0 if sinking (BF6-SINK-03), dead in the water, still at anchor
        or with her machinery disabled by the scenario."""
        if self.sinking is not None or self.sunk:  # a SinkingState is always truthy
            return 0.0
        if self.anchor_turns > 0 or self.machinery_disabled:
            return 0.0
        p = self.propulsion
        index = p.destroyed + p.damaged
        if self.uneven:  # usually empty: skip the generator
            index += self.uneven_speed_boxes
        speeds = p.speeds
        return speeds[index] if index < len(speeds) else 0.0

    @property
    def afloat(self) -> bool:
        """Still on the table: not yet gone under (a sinking ship is still afloat)."""
        return not self.sunk

    @property
    def in_battle(self) -> bool:
        """Still taking part: afloat, not sinking, not surrendered."""
        return not self.sunk and self.sinking is None and not self.surrendered

    def guns_in_action(self, key: str) -> int:
        """Guns of one mounting able to fire now (0 for a damaged or destroyed position)."""
        return self.guns_of(self.cls.mounting(key))

    def guns_of(self, mount: Mounting) -> int:
        """:meth:`guns_in_action` of one of her class's mountings, already looked up."""
        if mount.is_lettered:
            return mount.guns if self.positions[mount.key].in_action else 0
        return self.batteries[mount.key].count(Mark.NONE)  # boxes only ever hold Mark members

    def copy(self) -> ShipLog:
        """A deep copy (the class values are shared, being frozen).

        Written out field by field, without ``__init__`` (whose ``__post_init__`` would build
        fresh boxes only to replace them): logs are copied once per resolution and once per side
        view, so this is on the hot path (docs/performance.md). Immutable values (strings,
        numbers, enums, the class, the frozen Uneven Flooding records) are shared; every mutable
        record and container is copied. ``tests/rulesets/bf1900/test_shiplog_copy.py`` checks
        that no field is forgotten.
        """
        new: ShipLog = bare(ShipLog)
        new.name = self.name
        new.cls = self.cls
        new.side = self.side
        new.propulsion = self.propulsion.copy()
        new.dc_boxes = list(self.dc_boxes)
        new.compartments = {zone: flood.copy() for zone, flood in self.compartments.items()}
        new.positions = {key: pos.copy() for key, pos in self.positions.items()}
        new.batteries = {k: list(v) for k, v in self.batteries.items()}
        new.torpedoes_left = dict(self.torpedoes_left)
        new.fires_external = self.fires_external
        new.fires_internal = self.fires_internal
        new.bridge_hits = self.bridge_hits
        new.ct_hits = self.ct_hits
        new.tr_hits = self.tr_hits
        new.uneven_tr_hits = self.uneven_tr_hits
        new.rudder = self.rudder
        new.searchlights = list(self.searchlights)
        new.boat_crews_deployed = self.boat_crews_deployed
        new.sink_roll_bonus = self.sink_roll_bonus
        new.sinking = None if self.sinking is None else self.sinking.copy()
        new.sunk = self.sunk
        new.surrendered = self.surrendered
        new.rof_half_fired_last_turn = set(self.rof_half_fired_last_turn)
        new.counterflood_locked = set(self.counterflood_locked)
        new.scuttling = self.scuttling
        new.lost_reason = self.lost_reason
        new.uneven = dict(self.uneven)  # the effects themselves are frozen chart records
        new.anchor_turns = self.anchor_turns
        new.machinery_disabled = self.machinery_disabled
        return new

    def to_dict(self) -> dict[str, Any]:
        """A plain-JSON dump with sorted keys, stable for state hashing and views."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "cls":
                out["class"] = self.cls.name
                continue
            if f.name in HARBOUR_FIELDS and getattr(self, f.name) == HARBOUR_FIELDS[f.name]:
                continue  # left out at their defaults, so older records hash as before
            out[f.name] = _plain(getattr(self, f.name))
        result: dict[str, Any] = _sorted(out)
        return result

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], ship_class: ShipClass) -> ShipLog:
        """Rebuild a log from :meth:`to_dict`; ``ship_class`` is the class named in ``data``.

        A field missing from ``data`` keeps its fresh-log value; a malformed one raises
        ``ValueError`` naming the field. ``ShipLog.from_dict(d, c).to_dict() == d``.
        """
        if data.get("class", ship_class.name) != ship_class.name:
            raise ValueError(f"log is of class {data.get('class')!r}, not {ship_class.name!r}")
        log = cls(str(data["name"]), ship_class, str(data.get("side", "")))
        known = {f.name for f in dataclasses.fields(cls)} | {"class"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown log field {unknown[0]!r}")
        for f in dataclasses.fields(cls):
            if f.name in ("name", "cls", "side") or f.name not in data:
                continue
            value = data[f.name]
            try:
                restored = _restore(f.name, value, UnevenEffect)
            except (AttributeError, KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"log field {f.name!r}: {exc}") from exc
            fresh = getattr(log, f.name)
            if isinstance(restored, dict) and isinstance(fresh, dict):
                # The dump sorts its keys; the rules walk these records in the class's own
                # order (compartments, positions, mounts), so that order is put back.
                restored = {
                    **{k: restored[k] for k in fresh if k in restored},
                    **{k: v for k, v in restored.items() if k not in fresh},
                }
            setattr(log, f.name, restored)
        return log


#: Set-up fields from a harbour scenario and their defaults; a log leaves them out of its dump
#: while they are at the default (``to_dict``, ``state.log_to_dict``).
HARBOUR_FIELDS: dict[str, object] = {"anchor_turns": 0, "machinery_disabled": False}


def _restore(name: str, v: Any, uneven_effect: Callable[..., ListingEffect]) -> Any:
    """One field of :meth:`ShipLog.from_dict`, from its plain-JSON value."""
    if name == "propulsion":
        return PropulsionBoxes(
            tuple(float(s) for s in v["speeds"]),
            int(v["destroyed"]),
            int(v["damaged"]),
            int(v["margin"]),
        )
    if name in ("dc_boxes", "searchlights"):
        return [Mark(int(m)) for m in v]
    if name == "compartments":
        return {
            Compartment(k): CompartmentState(
                FloodLevel(int(s["level"])), bool(s["contained"]), bool(s["counterflooded"])
            )
            for k, s in v.items()
        }
    if name == "positions":
        return {
            k: PositionState(int(p["slashes"]), bool(p["destroyed"]), bool(p["magazine_flooded"]))
            for k, p in v.items()
        }
    if name == "batteries":
        return {k: [Mark(int(m)) for m in marks] for k, marks in v.items()}
    if name == "torpedoes_left":
        return {k: int(n) for k, n in v.items()}
    if name == "rudder":
        return RudderState(v)
    if name == "sinking":
        return None if v is None else SinkingState(int(v["turns_left"]), bool(v["guns_abandoned"]))
    if name == "rof_half_fired_last_turn":
        return {str(k) for k in v}
    if name == "counterflood_locked":
        return {Compartment(k) for k in v}
    if name == "uneven":
        return {str(axis): uneven_effect(**e) for axis, e in v.items()}
    if isinstance(v, bool | int | str):
        return v
    raise TypeError(f"cannot restore a value of type {type(v).__name__}")


def _plain(value: Any) -> Any:
    """Turn log values (enums, dataclasses, sets, dicts with enum keys) into plain JSON values."""
    if isinstance(value, Enum):
        return value.value if not isinstance(value, IntEnum) else int(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(_plain(k)): _plain(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return sorted(str(_plain(v)) for v in value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value
