"""A Battlefleet 1900 side's view: its own ships in full, the enemy as seen from the bridge.

:func:`side_view` is the bf1900 ruleset's view function (the 1D12 edition and TGD use it too).
A side gets its own ships' logs, poses and sealed orders; of the enemy only its contacts
(:func:`~battleline.rulesets.bf1900.observation.contacts_for`: where each ship appears to be, her
heading, whether she burns, sinks or has struck). Events reach it only through
:meth:`Game.events_for`: its own, those shown to it (the dice of its own shells, Damage Step
Two) and the public ones (markers and outward signs, ``outward.py``). Nothing else of the state is
read for the enemy; ``secrets.secrets_for`` lists what must never appear here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from battleline.engine.events import Event
from battleline.engine.geometry import Pose
from battleline.engine.state import canonical_json
from battleline.engine.view import fields_but, view_dict
from battleline.rulesets.bf1900.observation import Contact, contacts_for
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.state import Bf1900State, log_to_dict

if TYPE_CHECKING:
    from battleline.engine.flow import Game


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
    #: Whether this side's admiral pursues a fleeing weaker enemy (``[[sides]] pursue``).
    pursue: bool = False
    #: The last turn this side's admiral stands by a consort fallen behind
    #: (``[[sides]] stand_by_until_turn``), ``None`` where not set; never the enemy's.
    stand_by_until_turn: int | None = None
    #: Whether this side's captains scuttle a burning ship when beaten or outgunned
    #: (``[[sides]] scuttle_when_burning``); never the enemy's.
    scuttle_when_burning: bool = False
    #: This side's objective from the scenario (``[[sides]] objective``: ``kind`` "edge" with
    #: ``edge``, or "port" with ``x``, ``y``), ``None`` where not set; never the enemy's.
    objective: dict[str, Any] | None = None
    #: The table's land, each piece its outline's corners (x, y) in metres: public scenery.
    land: tuple[tuple[tuple[float, float], ...], ...] = ()

    def ship(self, name: str) -> OwnShip:
        """One own ship by name."""
        for s in self.own:
            if s.name == name:
                return s
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON form (what a server sends); each own ship's log in full."""
        return view_dict(self, lambda s: {**fields_but(s, "log"), "log": log_to_dict(s.log)})

    def to_json(self) -> str:
        """Canonical JSON text."""
        return canonical_json(self.to_dict())


def side_view(game: Game[Bf1900State, SideView], side: str, since: int = 0) -> SideView:
    """The game as ``side`` sees it; ``since`` skips events already sent."""
    state = game.state
    division_of = {s: d.name for d in state.divisions.values() for s in d.ships}
    own: list[OwnShip] = []
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
    # Only this side's own scenario settings (crew gunnery, fighting range), never the enemy's.
    mine_doctrine = state.extra.get("doctrine", {}).get(side, {})
    ranges = mine_doctrine.get("division_ranges_m", {})
    divisions = {
        d.name: {
            "ships": list(d.ships),
            "flagship": d.flagship,
            "formation": d.formation.value,
            "fleet_flagship": d.fleet_flagship,
            **({"doctrine_range_m": float(ranges[d.name])} if d.name in ranges else {}),
        }
        for d in state.divisions.values()
        if d.side == side
    }
    gunnery, reach = mine_doctrine.get("gunnery"), mine_doctrine.get("doctrine_range_m")
    goal = mine_doctrine.get("objective")
    stand_by = mine_doctrine.get("stand_by_until_turn")
    return SideView(
        side=side,
        turn=state.turn,
        phase=state.phase,
        order_kind=game.spec.order_kind,
        turn_limit=state.turn_limit,
        scale=state.scale,
        waiting_for=game.pending.waiting_for if state.result is None else (),
        own=tuple(own),
        contacts=contacts_for(state, side),
        divisions=divisions,
        my_orders=game.my_orders(side),
        events=tuple(game.events_for(side, since)),
        result=state.result.line() if state.result else None,
        gunnery=None if gunnery is None else str(gunnery),
        doctrine_range_m=None if reach is None else float(reach),
        objective=None if goal is None else dict(goal),
        land=tuple(tuple((float(x), float(y)) for x, y in piece) for piece in state.land),
        pursue=bool(mine_doctrine.get("pursue")),
        stand_by_until_turn=None if stand_by is None else int(stand_by),
        scuttle_when_burning=bool(mine_doctrine.get("scuttle_when_burning")),
    )


__all__ = ["Contact", "OwnShip", "SideView", "side_view"]
