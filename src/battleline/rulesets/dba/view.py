"""What one DBA side sees: its own ships in full, the enemy as a player across the table sees
them, and the events it may see.

DBA is played with bases on an open table, so an enemy base's position and heading are what
the player sees (no range-by-eye model: range bands are measured between bases). What shows on
an enemy ship is what the table shows: stopped, crippled (she has fallen out of line), sunk,
nets lowered, fouled nets, and the torpedo marker put on her base when she fires torpedoes
(DBA-TORP-07). Her damaged markers short of crippling, her flooding, the torpedo factor she has
left and her squadron's NIPs are her owner's (:func:`secrets` lists them for the leak scan).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from battleline.engine.events import Event
from battleline.engine.geometry import Pose
from battleline.engine.view import fields_but, view_dict
from battleline.rulesets.dba.state import DbaState
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.torpedoes import torpedo_left

if TYPE_CHECKING:
    from battleline.engine.flow import Game


@dataclass(frozen=True, slots=True)
class DbaOwnShip:
    """One of the side's own ships, in full: factors, marks, damage and torpedoes left."""

    name: str
    annex: str
    type: str
    squadron: str
    pose: Pose
    af: str
    df: str
    speed: str
    torpedo: int
    size: int
    damage: int
    crippled: bool
    sunk: bool
    flooding: bool
    stopped: bool
    stopped_last_spell: bool
    nets_lowered: bool
    fouled: bool
    torpedo_left: int
    torpedo_marker: int
    blast_ban: int
    may_fire: bool
    tbs_carried: int
    moved_this_spell: int
    base: str
    #: The full record (a copy), for admirals that call the rules library.
    status: ShipStatus = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class DbaContact:
    """An enemy ship as seen across the table."""

    name: str
    annex: str
    type: str
    pose: Pose
    stopped: bool
    crippled: bool
    sunk: bool
    nets_lowered: bool
    fouled: bool
    torpedo_marker: int


@dataclass(frozen=True, slots=True)
class DbaSideView:
    """One side's picture of a DBA game at the open phase."""

    side: str
    turn: int
    phase: str
    order_kind: str | None
    turn_limit: int
    waiting_for: tuple[str, ...]
    #: The side whose spell it is.
    speller: str
    own: tuple[DbaOwnShip, ...]
    contacts: tuple[DbaContact, ...]
    #: This spell's NIPs of the side's own squadrons (empty when it is not its spell).
    nips: dict[str, int]
    options: tuple[str, ...]
    #: The side's preferred range band (its scenario doctrine).
    doctrine: str
    my_orders: tuple[str, ...] | None
    events: tuple[Event, ...] = ()
    result: str | None = None

    def ship(self, name: str) -> DbaOwnShip:
        """One own ship by name."""
        for s in self.own:
            if s.name == name:
                return s
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON form (what a server sends); own ships without their working status."""
        return view_dict(self, lambda s: fields_but(s, "status"))


def own_ship(s: ShipStatus, pose: Pose) -> DbaOwnShip:
    """The owner's full record of a ship."""
    f = s.ship
    return DbaOwnShip(
        name=s.name,
        annex=f.name,
        type=f.type.value,
        squadron=s.squadron,
        pose=pose,
        af=str(f.af),
        df=f.df_text,
        speed=f.speed_text,
        torpedo=f.torpedo,
        size=f.size,
        damage=s.damage,
        crippled=s.crippled,
        sunk=s.sunk,
        flooding=s.flooding,
        stopped=s.stopped,
        stopped_last_spell=s.stopped_last_spell,
        nets_lowered=s.nets_lowered,
        fouled=s.fouled,
        torpedo_left=torpedo_left(s),
        torpedo_marker=s.torpedo_marker,
        blast_ban=s.blast_ban,
        may_fire=not (s.sunk or s.blast_ban or s.no_fire_this_spell),
        tbs_carried=s.tbs_carried,
        moved_this_spell=s.moved_this_spell,
        base=s.base,
        status=s.copy(),
    )


def contact(s: ShipStatus, pose: Pose) -> DbaContact:
    """An enemy ship as the table shows her."""
    return DbaContact(
        name=s.name,
        annex=s.ship.name,
        type=s.ship.type.value,
        pose=pose,
        stopped=s.stopped,
        crippled=s.crippled,
        sunk=s.sunk,
        nets_lowered=s.nets_lowered,
        fouled=s.fouled,
        torpedo_marker=s.torpedo_marker,
    )


def side_view(game: Game[DbaState, DbaSideView], side: str, since: int = 0) -> DbaSideView:
    """The game as ``side`` sees it."""
    state = game.state
    phase = game.spec.name
    spell = 2 if phase.endswith("-2") else 1
    speller = state.speller(spell)
    own = tuple(own_ship(s, state.poses[n]) for n, s in state.ships.items() if s.side == side)
    seen = tuple(
        contact(s, state.poses[n]) for n, s in state.ships.items() if s.side != side and not s.sunk
    )
    squadrons = {s.squadron for s in state.ships.values() if s.side == side}
    return DbaSideView(
        side=side,
        turn=state.turn,
        phase=phase,
        order_kind=game.spec.order_kind,
        turn_limit=state.turn_limit,
        waiting_for=game.pending.waiting_for,
        speller=speller,
        own=own,
        contacts=seen,
        nips={q: n for q, n in state.nips.items() if q in squadrons} if speller == side else {},
        options=state.options.enabled(),
        doctrine=state.doctrine.get(side, "normal"),
        my_orders=game.my_orders(side),
        events=tuple(game.events_for(side, since)),
        result=None if state.result is None else state.result.line(),
    )


def secrets(state: DbaState, side: str) -> set[str]:
    """Strings that must never reach ``side`` while the game is on: the enemy's damage short of
    crippling, flooding, torpedo factor left and NIPs, as the owner's own events word them."""
    out: set[str] = set()
    for name, s in state.ships.items():
        if s.side == side or s.sunk:
            continue
        if s.damage and not s.crippled:
            out.add(f"{name} is {s.state_text}")
        if s.flooding:
            out.add(f"{name} is flooding")
        if s.ship.torpedo:
            out.add(f"{name} has {torpedo_left(s)} torpedo factor left")
    for squadron, n in state.nips.items():
        owner = next((s.side for s in state.ships.values() if s.squadron == squadron), None)
        if owner is not None and owner != side:
            out.add(f"{squadron}: {n} NIPs")
    return out
