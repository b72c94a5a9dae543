"""When a captain scuttles his ship (BF6-CF-06): every main gun silenced, unable to get away, an
enemy big ship close by and no help coming; or, where the scenario says the side's captains did
so (``[[sides]] scuttle_when_burning``), on fire with the same enemy close and no help coming.

The rules let a ship scuttle herself in the Damage Phase; they leave the when to the player. The
record's captains did it when the ship could be neither saved nor fought on: Rurik at Ulsan,
steering gone and the Japanese cruisers closing; Cervera's cruisers at Santiago, burning and run
ashore with the American squadron at their heels; Varyag and Koreets at Chemulpo. A ship whose
main guns still fight does not (the Chinese battleships at the Yalu fought on all afternoon,
slowed, burning and struck a hundred times and more, and survived), nor one of a winning side
(she is towed home), nor one threatened only by torpedo craft, which cannot take her.
"""

from __future__ import annotations

from battleline.ai.picture import Picture, is_flotilla
from battleline.ai.standing import SURRENDER_BRACKETS, is_beaten, outgunned, slowed
from battleline.errors import BattlelineError
from battleline.rulesets.bf1900.damage.declarations import DCAction, DCDeclaration
from battleline.rulesets.bf1900.damage.step3 import validate_declarations
from battleline.rulesets.bf1900.ship import GunClass
from battleline.rulesets.bf1900.shiplog import ShipLog


def lost_cause(log: ShipLog) -> bool:
    """Every main-gun position and battery out of action and
    :func:`~battleline.ai.standing.slowed` (the speed at which the admiral counts a ship lame):
    she can neither fight on nor get away. A ship without main guns is never a lost cause by
    this test."""
    mains = log.cls.mountings_of(GunClass.MAIN)
    silenced = bool(mains) and all(log.guns_of(m) == 0 for m in mains)
    return silenced and slowed(log)


def given_up(picture: Picture, log: ShipLog) -> bool:
    """Whether her captain gives her up: a :func:`lost_cause`, or a ship on fire on a side whose
    captains ran burning ships ashore (``scuttle_when_burning``; the record's Cervera squadron,
    whose wooden fittings burned and whose fire mains were cut, and Pluton run onto the rocks)."""
    return lost_cause(log) or (picture.view.scuttle_when_burning and log.fires > 0)


def scuttles(picture: Picture, name: str) -> bool:
    """Whether the captain of own ship ``name`` scuttles her this Damage Phase: she is given up
    (:func:`given_up`: she can neither fight on nor get away, or she burns on a side whose
    captains ran burning ships ashore); an enemy ship that is not a torpedo craft is
    seen within :data:`~battleline.ai.standing.SURRENDER_BRACKETS` range brackets (near enough
    to take her, the reach at which a division strikes); the side is beaten or outgunned; and
    the rules allow the declaration now (DC dice left, no scuttling under way; BF6-CF-06)."""
    log = picture.own[name].log
    if not log.in_battle or log.scuttling or not given_up(picture, log):
        return False
    reach = SURRENDER_BRACKETS * picture.scale.bracket_m
    near = any(
        picture.seen_m(name, c.name) <= reach for c in picture.targets() if not is_flotilla(c.type)
    )
    if not near or not (is_beaten(picture) or outgunned(picture)):
        return False
    try:
        validate_declarations(log, [DCDeclaration(name, DCAction.SCUTTLE)])
    except BattlelineError:
        return False
    return True


__all__ = ["given_up", "lost_cause", "scuttles"]
