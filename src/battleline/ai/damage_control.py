"""The admiral's damage-control declarations (BF6-DC-01..04, BF6-REP, BF6-CF), by priority
within the ship's DC dice."""

from __future__ import annotations

from battleline.errors import BattlelineError
from battleline.rulesets.bf1900.damage.declarations import DCAction, DCDeclaration
from battleline.rulesets.bf1900.damage.locations import position_compartment
from battleline.rulesets.bf1900.damage.step3 import DeclarationCheck, counterflood_zones
from battleline.rulesets.bf1900.flood_tables import SINK_ROLL_FROM
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, GunClass
from battleline.rulesets.bf1900.shiplog import Mark, RudderState, ShipLog


def dc_priorities(log: ShipLog) -> list[DCDeclaration]:
    """Every useful damage-control action for a ship, most urgent first.

    Stop heavy flooding (BF6-REP-08); −1 on a pending sink roll (BF6-REP-11, 5+ flooding points,
    BF6-SINK-01); recover from a conning-tower hit (BF6-CF-07), then counterflood a list or trim
    (BF6-CF-04); propulsion (BF6-PROP-04); main guns (BF6-REP-07); steering and rudder
    (BF6-REP-10); bridge; secondary guns (BF6-REP-09); damage-control boxes. Fires have no
    declaration in the Damage Control box, so none is made for them.
    """
    name = log.name
    out: list[DCDeclaration] = []
    for zone, state in log.compartments.items():
        if state.level is FloodLevel.HEAVY and not state.contained:
            out.append(DCDeclaration(name, DCAction.STOP_HVY_FL, zone.value))
    if log.flooding_points >= SINK_ROLL_FROM:
        out.append(DCDeclaration(name, DCAction.SINK_MINUS_1))
    if log.ct_hits:
        out.append(DCDeclaration(name, DCAction.RECOVER_CT))
    out += [DCDeclaration(name, DCAction.FLOOD_MAGAZINE, key) for key in magazines_to_flood(log)]
    for zone in sorted(counterflood_zones(log), key=lambda z: z.value):
        opposite = _OPPOSITE[zone]
        level = log.compartments[opposite].level
        if level - log.compartments[zone].level >= 2 or log.uneven:
            out.append(DCDeclaration(name, DCAction.COUNTERFLOOD, zone.value, FloodLevel(level)))
    out += [DCDeclaration(name, DCAction.REPAIR_P)] * (
        log.propulsion.margin + log.propulsion.damaged
    )
    for mount in log.cls.mountings:
        if mount.gun_class is GunClass.MAIN and mount.is_lettered:
            pos = log.positions[mount.key]
            if not pos.destroyed and not pos.magazine_flooded:
                out += [DCDeclaration(name, DCAction.REPAIR_M, mount.key)] * pos.slashes
    out += [DCDeclaration(name, DCAction.REPAIR_ST)] * log.tr_hits
    if log.rudder not in (RudderState.FREE, RudderState.SECURED):
        out.append(DCDeclaration(name, DCAction.REPAIR_R))
    out += [DCDeclaration(name, DCAction.REPAIR_BR)] * log.bridge_hits
    for mount in log.cls.mountings:
        if mount.gun_class in (GunClass.SECONDARY, GunClass.TERTIARY):
            if mount.is_lettered:
                pos = log.positions[mount.key]
                n = 0 if pos.destroyed or pos.magazine_flooded else pos.slashes
            else:
                n = sum(1 for m in log.batteries[mount.key] if m is Mark.DAMAGED)
            out += [DCDeclaration(name, DCAction.REPAIR_S, mount.key)] * n
    out += [DCDeclaration(name, DCAction.REPAIR_DC)] * sum(
        1 for m in log.dc_boxes if m is Mark.DAMAGED
    )
    return out


def magazines_to_flood(log: ShipLog) -> list[str]:
    """The main positions whose magazine a captain floods: destroyed (no guns are lost by it),
    not yet flooded, while a fire burns inside the ship, and only where the one level of water
    it lets in leaves the zone below Heavy and the ship short of a sink roll (BF6-CF-03). A hit
    on a wrecked position still calls the Main/TT critical check, whose face 6 is an explosion
    (BF6-MAIN-03), and an internal fire keeps giving M results."""
    if log.fires_internal <= 0:
        return []
    out: list[str] = []
    points = log.flooding_points
    for mount in log.cls.mountings_of(GunClass.MAIN):
        if not mount.is_lettered:
            continue
        pos = log.positions[mount.key]
        zone = log.compartments[position_compartment(mount)]
        wrecked = pos.destroyed and not pos.magazine_flooded
        if wrecked and zone.level < FloodLevel.MODERATE and points + 1 < SINK_ROLL_FROM:
            out.append(mount.key)
            points += 1
    return out


_OPPOSITE = {
    Compartment.FORWARD: Compartment.AFT,
    Compartment.AFT: Compartment.FORWARD,
    Compartment.PORT: Compartment.STARBOARD,
    Compartment.STARBOARD: Compartment.PORT,
}


def dc_plan(log: ShipLog) -> list[DCDeclaration]:
    """The most urgent declarations the ship's DC dice cover, each checked by the rules'
    :func:`validate_declarations` (BF6-DC-02/04): an action refused is skipped.

    The dice are counted once: nothing here changes the log. Each declaration is checked with
    all those kept before it, as the rules check a ship's declarations together
    (:class:`DeclarationCheck`: only the newcomer and the dice total, the rest having passed);
    there are never more of them than the ship's DC dice.
    """
    dice = log.dc_dice if log.in_battle else 0
    if dice <= 0:
        return []
    check = DeclarationCheck(log)
    kept: list[DCDeclaration] = []
    for decl in dc_priorities(log):
        if len(kept) >= dice:
            break
        try:
            check.add(decl)
        except BattlelineError:
            continue
        kept.append(decl)
    return kept


__all__ = [
    "dc_plan",
    "dc_priorities",
    "magazines_to_flood",
]
