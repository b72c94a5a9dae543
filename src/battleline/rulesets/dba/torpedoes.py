"""Torpedo attacks (DBA-TORP-01..07, DBA-TF-07..11, DBA-NET-03): the once-a-game allowance,
the arcs, and the tactical factors of a torpedo attack. Torpedoes reach close and normal range
only (reconstructed core).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from battleline.errors import IllegalOrderError
from battleline.rulesets.dba.combat import (
    CLEAR,
    Arc,
    Attack,
    Conditions,
    Modifier,
    TargetEdge,
    common_modifiers,
    defence_modifiers,
)
from battleline.rulesets.dba.factors import RangeBand, ShipFactors
from battleline.rulesets.dba.options import DEFAULT_OPTIONS, Options
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.tables import CoreTables, load_core


def torpedo_left(status: ShipStatus) -> int:
    """Torpedo attack factor still unused this game (DBA-TORP-01/02)."""
    return max(status.ship.torpedo - status.torpedo_used, 0)


def spend_torpedoes(status: ShipStatus, af: int, *, own_spell: bool) -> None:
    """Check and spend a torpedo attack (DBA-TORP-01, DBA-TORP-02, DBA-TORP-03, DBA-TORP-07,
    AMB-86); the once-a-game allowance is what stops "pot-shotting" (DBA-TORP-08)."""
    name = status.name
    if status.ship.torpedo == 0:
        raise IllegalOrderError(f"{name}: has no torpedo factor (DBA-TORP-01)")
    if status.crippled or status.sunk:
        raise IllegalOrderError(f"{name}: crippled ships make no torpedo attacks (DBA-TORP-01)")
    if af not in (1, 2):
        raise IllegalOrderError(f"{name}: a torpedo attack is at factor 1 or 2, not {af}")
    if not own_spell and af != 1:
        raise IllegalOrderError(
            f"{name}: torpedo attacks in the enemy's spell are at factor 1 only (DBA-TORP-03)"
        )
    if af > torpedo_left(status):
        raise IllegalOrderError(
            f"{name}: only {torpedo_left(status)} torpedo factor left this game (DBA-TORP-01/02)"
        )
    status.torpedo_used += af
    status.torpedo_marker = af  # DBA-TORP-07: a 1 or 2 factor marker on the base


def torpedo_reduced(ship: ShipFactors, arc: Arc) -> bool:
    """Torpedo arcs: TBD/TB full through bow or beam, nothing astern (DBA-TORP-04); others full
    through the beams, reduced through bow or stern (DBA-TORP-05)."""
    if ship.torpedo_craft:
        if arc is Arc.STERN:
            raise IllegalOrderError(
                f"{ship.name}: TBD and TB attack through their bow or broadside arcs (DBA-TORP-04)"
            )
        return False
    return not arc.broadside


def torpedo_attack(
    shooter: ShipStatus,
    target: ShipStatus,
    *,
    af: int,
    arc: Arc,
    band: RangeBand,
    edge: TargetEdge = TargetEdge.BROADSIDE,
    own_spell: bool = True,
    multiple: bool = False,
    conditions: Conditions = CLEAR,
    options: Options = DEFAULT_OPTIONS,
    core: CoreTables | None = None,
) -> Attack:
    """Declare a torpedo attack and spend it (DBA-TORP-01..07, DBA-TF-07..11, DBA-NET-03).

    Torpedoes reach close and normal range only (reconstructed core). ``multiple``: the target or
    a ship next to it is the target of another torpedo attack (DBA-TF-11).
    """
    core = core or load_core()
    tf = core.tf
    if band not in (RangeBand.CLOSE, RangeBand.NORMAL):
        raise IllegalOrderError(f"{shooter.name}: torpedoes reach normal range at most")
    reduced = torpedo_reduced(shooter.ship, arc)
    spend_torpedoes(shooter, af, own_spell=own_spell)
    mods: list[Modifier] = []
    if reduced:
        mods.append(Modifier("reduced effect DBA-TF-03", tf["reduced_effect"]))
    if band is RangeBand.NORMAL:
        mods.append(Modifier("torpedoes at normal range DBA-TF-07", tf["torpedo_normal_range"]))
    if edge is not TargetEdge.BROADSIDE:
        mods.append(Modifier("bow/stern edge DBA-TF-08", tf["torpedo_bow_stern"]))
    if target.moved_last_spell >= tf["fast_target_bases"]:
        mods.append(Modifier("target moved 3+ DBA-TF-09", tf["torpedo_fast_target"]))
    if multiple:
        mods.append(Modifier("another torpedo attack DBA-TF-11", tf["multiple_torpedo"]))
    if options.nets and target.nets_lowered:
        mods.append(Modifier("nets lowered DBA-NET-03", tf["nets_lowered"]))
    mods.extend(common_modifiers(shooter, target, conditions, options, core))
    return Attack(
        shooter.name, target.name, True, af, tuple(mods), defence_modifiers(target, core), reduced
    )


def multiple_torpedo_targets(
    targets: Sequence[str], adjacent: Mapping[str, Sequence[str]] | None = None
) -> list[bool]:
    """For each torpedo attack's target: is it, or a ship next to it, also the target of another
    torpedo attack? (DBA-TF-11)"""
    adjacent = adjacent or {}
    flags: list[bool] = []
    for i, t in enumerate(targets):
        near = {t, *adjacent.get(t, ())}
        flags.append(any(o in near for j, o in enumerate(targets) if j != i))
    return flags
