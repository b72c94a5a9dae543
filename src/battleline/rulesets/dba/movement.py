"""NIPs and movement in bases (REF-DBA-01 core; DBA-TYPE-01, DBA-MOV-01..03, DBA-NET-01/02,
DBA-RW-01/02).

Reconstructed core: each squadron rolls one D6 of NIPs at the start of its side's spell. One NIP
moves a ship or a group (a squadron moving together) one base, turning as it goes; its second
base is free, and each base after that costs one NIP. The amendments then add:

* "*" speed: the second base costs a NIP, as "obsolete" ships paid (DBA-TYPE-01);
* "2+" speed: one extra free base straight ahead (DBA-MOV-01), lost in rough weather (DBA-RW-01);
* crippled ships move at most one base (reconstructed), and while a squadron has crippled ships
  each of them needs a NIP before any other ship or group gets two (DBA-MOV-02);
* a squadron that turns together from line astern into line abreast as a group may not turn
  together again for the rest of that spell and all of its own next spell (DBA-MOV-03, AMB-84);
* nets: raising or lowering costs one NIP (group allowed); lowered nets cap the move at one base
  and each turn costs one NIP more (DBA-NET-01/02);
* rough weather: bad sea boats, 2nd/3rd class and scout cruisers, TGBs, TBDs and 1st Class TBs
  lose one base of maximum movement (DBA-RW-02).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from battleline.engine.dice import Dice
from battleline.errors import IllegalOrderError
from battleline.rulesets.dba.factors import ShipFactors, ShipType, SpeedMark
from battleline.rulesets.dba.options import DEFAULT_OPTIONS, Options
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.tables import CoreTables, load_core

#: Types slowed (and firing at −1) in rough weather besides bad sea boats (DBA-RW-02).
ROUGH_WEATHER_HINDERED: frozenset[ShipType] = frozenset(
    {
        ShipType.CRUISER_2,
        ShipType.CRUISER_3,
        ShipType.SCOUT_CRUISER,
        ShipType.TGB,
        ShipType.TBD,
        ShipType.TB_1,
    }
)


def hindered_by_rough_weather(ship: ShipFactors) -> bool:
    """DBA-RW-02: loses a base and fires at −1 in rough weather."""
    return ship.bad_sea_boat or ship.type in ROUGH_WEATHER_HINDERED


def roll_nips(squadron: str, dice: Dice) -> int:
    """A squadron's NIP die for its side's spell (reconstructed core)."""
    return dice.d6("NIPs", ship=squadron)


def speed_limit(
    status: ShipStatus, options: Options = DEFAULT_OPTIONS, core: CoreTables | None = None
) -> int:
    """Greatest number of ordinary bases a ship may move this spell (free "2+" base apart)."""
    core = core or load_core()
    mv = core.movement
    if status.sunk or status.fouled:
        return 0
    limit = status.ship.speed
    if options.rough_weather and hindered_by_rough_weather(status.ship):
        limit -= mv["rough_weather_loss"]  # DBA-RW-02
    if status.crippled:
        limit = min(limit, mv["crippled_max_bases"])
    if options.nets and status.nets_lowered:
        limit = min(limit, mv["nets_max_bases"])  # DBA-NET-02
    return max(limit, 0)


def free_extra_base(status: ShipStatus, options: Options = DEFAULT_OPTIONS) -> bool:
    """May it add the "2+" free base straight ahead? (DBA-MOV-01, DBA-RW-01)."""
    if not status.ship.fast or status.crippled or status.sunk or status.fouled:
        return False
    if options.nets and status.nets_lowered:
        return False
    return not options.rough_weather


@dataclass(frozen=True, slots=True)
class MoveCost:
    """What a move costs."""

    nips: int
    bases: int
    free_extra: bool


def move_cost(
    status: ShipStatus,
    bases: int,
    *,
    turns: int = 0,
    options: Options = DEFAULT_OPTIONS,
    core: CoreTables | None = None,
) -> MoveCost:
    """NIPs for one ship to move ``bases`` this spell with ``turns`` turns.

    A base beyond the speed limit is the "2+" free base; it must be straight ahead, so the turns
    are taken within the ordinary bases. Raises :class:`IllegalOrderError` naming the rule.
    """
    core = core or load_core()
    name = status.name
    if bases < 0 or turns < 0:
        raise IllegalOrderError(f"{name}: a move needs bases and turns of 0 or more")
    if bases == 0:
        if turns:
            raise IllegalOrderError(f"{name}: a turn is part of a move of at least one base")
        return MoveCost(0, 0, False)
    limit = speed_limit(status, options, core)
    extra = free_extra_base(status, options)
    if bases > limit + (1 if extra else 0):
        why = "DBA-MOV-01" if status.ship.fast else "DBA-TYPE-01"
        if status.crippled:
            why = "crippled, reconstructed core"
        if options.nets and status.nets_lowered:
            why = "nets lowered, DBA-NET-02"
        if options.rough_weather and hindered_by_rough_weather(status.ship):
            why += "; rough weather DBA-RW-02"
        raise IllegalOrderError(
            f"{name}: may move at most {limit} base(s){' + 1 free straight' if extra else ''}"
            f" this spell, not {bases} ({why})"
        )
    ordinary = min(bases, limit)
    nips = 1
    if ordinary >= 2:
        nips += 1 if status.ship.speed_mark is SpeedMark.SLOW else 0  # DBA-TYPE-01
        nips += ordinary - 2
    if options.nets and status.nets_lowered:
        nips += turns * core.movement["turn_nip_cost_nets"]  # DBA-NET-02
    return MoveCost(nips, bases, bases > limit)


def group_move_cost(
    members: Sequence[ShipStatus],
    bases: int,
    *,
    turns: int = 0,
    options: Options = DEFAULT_OPTIONS,
    core: CoreTables | None = None,
) -> MoveCost:
    """A group move costs what its most expensive member would (reconstructed)."""
    if not members:
        raise IllegalOrderError("a group move needs at least one ship")
    costs = [move_cost(m, bases, turns=turns, options=options, core=core) for m in members]
    return max(costs, key=lambda c: c.nips)


def change_nets_cost(
    ships: Sequence[ShipStatus], *, lower: bool, options: Options = DEFAULT_OPTIONS
) -> int:
    """Raise or lower nets of one ship or a group: 1 NIP (DBA-NET-01). Sets the new state."""
    if not options.nets:
        raise IllegalOrderError("nets are not in play (option 'nets', DBA-NET-01)")
    for s in ships:
        if not s.ship.nets:
            raise IllegalOrderError(f"{s.name}: has no anti-torpedo nets (DBA-NET-01)")
    for s in ships:
        s.nets_lowered = lower
    return load_core().movement["net_nip_cost"]


def check_allocation(
    squadron: str,
    ships: Sequence[ShipStatus],
    allocation: Mapping[str, int],
    *,
    groups: Mapping[str, Sequence[str]] | None = None,
    nips: int | None = None,
) -> None:
    """Check a squadron's NIP allocation (DBA-MOV-02).

    ``allocation`` maps a ship name or a group name (in ``groups``) to the NIPs given it.
    """
    groups = groups or {}
    names = {s.name for s in ships}
    members_of: dict[str, set[str]] = {}
    for key, count in allocation.items():
        if count < 0:
            raise IllegalOrderError(f"squadron {squadron}: {key} cannot get {count} NIPs")
        if key in groups:
            members_of[key] = set(groups[key])
        elif key in names:
            members_of[key] = {key}
        else:
            raise IllegalOrderError(f"squadron {squadron}: {key!r} is neither a ship nor a group")
    if nips is not None and sum(allocation.values()) > nips:
        raise IllegalOrderError(
            f"squadron {squadron}: {sum(allocation.values())} NIPs allocated, only {nips} rolled"
        )
    crippled = [s.name for s in ships if s.crippled and not s.sunk]

    def given(ship: str) -> int:
        return sum(n for k, n in allocation.items() if ship in members_of[k])

    unserved = [c for c in crippled if given(c) < 1]
    if not unserved:
        return
    for key, count in allocation.items():
        if count >= 2 and not members_of[key] <= set(crippled):
            raise IllegalOrderError(
                f"squadron {squadron}: {key} may not get {count} NIPs before crippled "
                f"{', '.join(unserved)} get one each (DBA-MOV-02)"
            )


@dataclass
class TurnTogetherLock:
    """DBA-MOV-03: after a turn together from line astern to line abreast, no group turns for
    the rest of that spell and through the squadron's next spell.

    Spells are numbered for the whole game (1, 2, 3 …, alternating sides), so the squadron's next
    spell is two later (AMB-84).
    """

    locked_through: dict[str, int] = field(default_factory=dict)

    def turned_together(self, squadron: str, spell: int, *, into_line_abreast: bool) -> None:
        """Record a group turn; only line astern → line abreast sets the lock."""
        self.check(squadron, spell)
        if into_line_abreast:
            self.locked_through[squadron] = spell + 2

    def locked(self, squadron: str, spell: int) -> bool:
        """Is the squadron barred from group turns in this spell?"""
        return spell <= self.locked_through.get(squadron, 0)

    def check(self, squadron: str, spell: int) -> None:
        """Raise if a group turn is barred now (individual turns are still allowed)."""
        if self.locked(squadron, spell):
            raise IllegalOrderError(
                f"spell {spell}: squadron {squadron} turned together into line abreast and may "
                f"not turn as a group until after spell {self.locked_through[squadron]}; its "
                "ships may turn with their own NIPs (DBA-MOV-03)"
            )
