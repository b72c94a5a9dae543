"""A ship's state in play and how combat results change it (REF-DBA-01 core, DBA-OUT-02..06,
DBA-RAM-17, DBA-NET-04).

The reconstructed damage progression: a ship holds up to two damaged markers; the next damaged
result cripples it (AMB-77). Special protection holds three (DBA-OUT-04), a 2nd Class TB one
(DBA-OUT-05). A crippled ship that is crippled again is sunk; a damaged result on a crippled ship
sinks it after gunfire, torpedoes or flooding, and does nothing after a ram (DBA-RAM-17).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.dba.factors import ShipFactors, ShipType
from battleline.rulesets.dba.tables import CoreTables, Result, load_core


@dataclass(slots=True)
class ShipStatus:
    """One ship in play: its factors plus what has happened to it."""

    ship: ShipFactors
    side: str = ""
    squadron: str = ""
    name: str = ""
    damage: int = 0
    crippled: bool = False
    sunk: bool = False
    flooding: bool = False
    #: Bases moved in its side's last spell (DBA-TF-09/10, DBA-RAM-05).
    moved_last_spell: int = 0
    #: Bases moved so far this spell.
    moved_this_spell: int = 0
    stopped: bool = False
    stopped_last_spell: bool = False
    nets_lowered: bool = False
    fouled: bool = False
    #: Torpedo factor spent this game (DBA-TORP-01/02); the marker on the base (DBA-TORP-07).
    torpedo_used: int = 0
    torpedo_marker: int = 0
    #: Fire phases in which the ship may not fire (DBA-BSA-02 blast damage).
    blast_ban: int = 0
    no_fire_this_spell: bool = False
    tbs_carried: int = 0
    #: The shared base it is on (DBA-BAS-01), or "" for a base of its own.
    base: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            self.name = self.ship.name
        if self.tbs_carried == 0:
            self.tbs_carried = self.ship.carries_tbs

    def copy(self) -> ShipStatus:
        """A copy (the factors are immutable and shared)."""
        return replace(self)

    def __plain__(self) -> dict[str, object]:
        """Plain JSON for a state dump: the Annex A name plus the marks."""
        return status_to_dict(self)

    @property
    def afloat(self) -> bool:
        """Not sunk."""
        return not self.sunk

    @property
    def state_text(self) -> str:
        """ "sunk", "crippled", "damaged ×2", or "sound"."""
        if self.sunk:
            return "sunk"
        if self.crippled:
            return "crippled"
        if self.damage:
            return f"damaged ×{self.damage}"
        return "sound"


def damage_capacity(ship: ShipFactors, core: CoreTables | None = None) -> int:
    """Damaged markers a ship holds before the next damaged result cripples it."""
    core = core or load_core()
    if ship.type is ShipType.TB_2:
        return core.damage_capacity["tb_2"]  # DBA-OUT-05
    if ship.special_protection:
        return core.damage_capacity["special_protection"]  # DBA-OUT-04
    return core.damage_capacity["normal"]


def apply_result(
    status: ShipStatus,
    result: Result,
    *,
    cause: str,
    log: EventLog | None = None,
    core: CoreTables | None = None,
    ram: bool = False,
) -> Result:
    """Apply one outcome; return what it finally did (e.g. damaged → crippled).

    ``cause`` names the attack in the narrative. ``ram=True`` reads DBA-RAM-17 (a damaged result
    has no further effect on a crippled ship).
    """
    core = core or load_core()
    if status.sunk or result is Result.NONE:
        return Result.NONE
    final: Result = result
    if result is Result.DAMAGED:
        if status.crippled:
            final = Result.NONE if ram else core.crippled_then_damaged
        elif status.damage >= damage_capacity(status.ship, core):
            final = Result.CRIPPLED
    elif result is Result.CRIPPLED and status.crippled:
        final = Result.SUNK
    if final is Result.DAMAGED:
        status.damage += 1
    elif final is Result.CRIPPLED:
        status.crippled = True
    elif final is Result.SUNK:
        status.crippled = True
        status.sunk = True
        status.flooding = False
    if log is not None:
        extra = "" if final is result else f" → {final.value}"
        log.emit(
            EventKind.DAMAGE if final is not Result.SUNK else EventKind.SUNK,
            f"{status.name}: {cause} {result.value}{extra} ({status.name} is {status.state_text})",
            ship=status.name,
            result=final.value,
            cause=cause,
        )
        if final in (Result.CRIPPLED, Result.SUNK):
            # What a player across the table sees: she falls out of line, or goes down.
            log.emit(
                EventKind.SUNK if final is Result.SUNK else EventKind.DAMAGE,
                f"{status.name} is {'sunk' if final is Result.SUNK else 'crippled'}",
                ship=status.name,
                public=True,
                result=final.value,
            )
    return final


def start_flooding(status: ShipStatus, *, why: str, log: EventLog | None = None) -> None:
    """Mark a ship flooding (DBA-OUT-02, DBA-RAM-13/14/17)."""
    if status.sunk or status.flooding:
        return
    status.flooding = True
    if log is not None:
        log.emit(EventKind.FLOODING, f"{status.name} is flooding ({why})", ship=status.name)


_PLAIN_FIELDS = (
    "side",
    "squadron",
    "name",
    "damage",
    "crippled",
    "sunk",
    "flooding",
    "moved_last_spell",
    "moved_this_spell",
    "stopped",
    "stopped_last_spell",
    "nets_lowered",
    "fouled",
    "torpedo_used",
    "torpedo_marker",
    "blast_ban",
    "no_fire_this_spell",
    "tbs_carried",
    "base",
)


def status_to_dict(status: ShipStatus) -> dict[str, object]:
    """Plain JSON for a game state: the Annex A name plus the marks."""
    out: dict[str, object] = {"ship": status.ship.name}
    for key in _PLAIN_FIELDS:
        out[key] = getattr(status, key)
    return out


def status_from_dict(data: dict[str, object], ship: ShipFactors) -> ShipStatus:
    """The inverse of :func:`status_to_dict`, given the ship's factors."""
    status = ShipStatus(ship)
    for key in _PLAIN_FIELDS:
        if key in data:
            setattr(status, key, data[key])
    return status
