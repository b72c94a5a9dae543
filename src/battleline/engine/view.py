"""What one side may see: the single gate for everything that leaves the engine for a player.

:func:`view` gives a side its own ships' logs, poses and sealed orders, and the enemy only as seen
from the bridge: where each ship is, its heading, whether fires or sinking are visible — never the
enemy's log details nor its sealed orders. Events private to another side are filtered out.
Servers, AI admirals and the CLI all read the game through this function; :func:`umpire_view` is
the referee's unfiltered dump.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from battleline.engine.events import Event
from battleline.engine.flow import Game
from battleline.engine.geometry import Pose
from battleline.engine.state import _plain, canonical_json, log_to_dict, state_to_dict
from battleline.rulesets.bf1900.shiplog import ShipLog


@dataclass(frozen=True, slots=True)
class OwnShip:
    """One of the side's own ships, with its full log."""

    name: str
    cls: str
    type: str
    size: int
    division: str
    pose: Pose
    speed_knots: float
    in_battle: bool
    log: ShipLog


@dataclass(frozen=True, slots=True)
class Contact:
    """An enemy ship as seen: identity, pose, and what shows from outside."""

    name: str
    cls: str
    type: str
    size: int
    pose: Pose
    fires: bool
    sinking: bool
    surrendered: bool


@dataclass(frozen=True, slots=True)
class SideView:
    """One side's picture of the game at the open phase."""

    side: str
    turn: int
    phase: str
    order_kind: str | None
    turn_limit: int
    scale: str
    waiting_for: tuple[str, ...]
    own: tuple[OwnShip, ...]
    contacts: tuple[Contact, ...]
    divisions: dict[str, dict[str, Any]]
    my_orders: tuple[str, ...] | None
    events: tuple[Event, ...] = field(default=())
    result: str | None = None
    #: This side's own crew quality and preferred fighting range from the scenario
    #: (``[[sides]] gunnery`` / ``doctrine_range_m``), ``None`` where not set; never the enemy's.
    gunnery: str | None = None
    doctrine_range_m: float | None = None

    def ship(self, name: str) -> OwnShip:
        """One own ship by name."""
        for s in self.own:
            if s.name == name:
                return s
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON form (what a server sends)."""
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name == "events":
                out[name] = [e.to_dict() for e in value]
            elif name == "own":
                out[name] = [
                    {
                        **_plain({f: getattr(s, f) for f in s.__dataclass_fields__ if f != "log"}),
                        "log": log_to_dict(s.log),
                    }
                    for s in value
                ]
            else:
                out[name] = _plain(value)
        return out

    def to_json(self) -> str:
        """Canonical JSON text."""
        return canonical_json(self.to_dict())


def view(game: Game, side: str, *, since: int = 0) -> SideView:
    """The game as ``side`` sees it; ``since`` skips events already sent."""
    state = game.state
    if side not in state.sides:
        from battleline.errors import UnknownNameError

        raise UnknownNameError("side", side, list(state.sides))
    division_of = {s: d.name for d in state.divisions.values() for s in d.ships}
    own: list[OwnShip] = []
    contacts: list[Contact] = []
    for name, log in state.logs.items():
        pose = state.poses[name]
        if log.side == side:
            own.append(
                OwnShip(
                    name,
                    log.cls.name,
                    log.cls.type.value,
                    log.cls.size,
                    division_of.get(name, ""),
                    pose,
                    log.speed_knots,
                    log.in_battle,
                    log.copy(),
                )
            )
        elif not log.sunk:
            contacts.append(
                Contact(
                    name,
                    log.cls.name,
                    log.cls.type.value,
                    log.cls.size,
                    pose,
                    log.fires > 0,
                    log.sinking is not None,
                    log.surrendered,
                )
            )
    divisions = {
        d.name: {
            "ships": list(d.ships),
            "flagship": d.flagship,
            "formation": d.formation.value,
            "fleet_flagship": d.fleet_flagship,
        }
        for d in state.divisions.values()
        if d.side == side
    }
    gate = game.pending
    mine = gate.texts.get(side) if gate.turn == state.turn and gate.phase == state.phase else None
    events = tuple(e for e in game.events.events[since:] if e.side is None or e.side == side)
    # Only this side's own scenario settings (crew gunnery, fighting range), never the enemy's.
    mine_doctrine = state.extra.get("doctrine", {}).get(side, {})
    gunnery, reach = mine_doctrine.get("gunnery"), mine_doctrine.get("doctrine_range_m")
    return SideView(
        side=side,
        turn=state.turn,
        phase=state.phase,
        order_kind=game.spec.order_kind,
        turn_limit=state.turn_limit,
        scale=state.scale,
        waiting_for=gate.waiting_for if state.result is None else (),
        own=tuple(own),
        contacts=tuple(contacts),
        divisions=divisions,
        my_orders=mine,
        events=events,
        result=state.result.line() if state.result else None,
        gunnery=None if gunnery is None else str(gunnery),
        doctrine_range_m=None if reach is None else float(reach),
    )


def umpire_view(game: Game) -> dict[str, Any]:
    """Everything, sealed orders included: for the referee and for debugging, never a player."""
    return {
        "state": state_to_dict(game.state),
        "pending": {s: list(t) for s, t in game.pending.texts.items()},
        "events": [e.to_dict() for e in game.events],
    }
