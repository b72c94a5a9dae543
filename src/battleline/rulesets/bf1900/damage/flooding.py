"""One flood hit, from the Occurrence roll to its effects (BF6-DMG-06/08, BF6-FLD-01, AMB-23).

Every ``FL`` and ``nnnFL`` code, every torpedo hit and every new FL from a Hvy/Sev roll in Step One
comes here (the 1D6 text does not say how an FL hit becomes a level; AMB-23 takes the 1D12
Overview's procedure, BF12C-FLOOD-02):

1. the column: ``nnnFL`` names it ("150FL" → "150>"); a plain ``FL`` takes the weapon's size as a
   percentage of the target's size, and a weapon under a quarter of the target's size cannot flood
   at all (BF12C-FLOOD-03);
2. one 1D6 in that column gives the level, possibly none;
3. the compartment: given by the caller (Step One spreading), else on the embattled side, or any of
   the four for an explosion (BF6-FLD-01, EX-BF6-15);
4. the compartment keeps its most severe level, never lower (BF6-DMG-12);
5. one 1D6 on the Flooding Effects line of the level rolled, and its codes are applied.
"""

from __future__ import annotations

from typing import cast

from battleline.engine.events import EventKind
from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.charts import Charts
from battleline.rulesets.bf1900.damage.context import ApplyCodes, DamageContext
from battleline.rulesets.bf1900.damage.locations import flood_compartment, raise_flooding
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel
from battleline.rulesets.bf1900.shiplog import ShipLog


def column_name(column: int | str) -> str:
    """The Occurrence column an ``nnnFL`` code names: ``150`` or ``"150"`` → ``"150>"``."""
    text = str(column)
    return text if text.endswith(">") else f"{text}>"


def resolve_flood_hit(
    log: ShipLog,
    ctx: DamageContext,
    *,
    column: int | str | None = None,
    compartment: Compartment | None = None,
    apply: ApplyCodes,
) -> FloodLevel:
    """Resolve one flood hit on ``log``; returns the level the Occurrence roll gave.

    ``column`` is the fixed column of an ``nnnFL`` code (``150`` or ``"150>"``), or ``None`` for a
    plain ``FL``, whose column comes from ``ctx.weapon_size`` against the ship's size.
    ``compartment`` places the flooding (Step One spreading, BF6-DMG-06); otherwise it lands on
    the embattled side ``ctx.aspect``, or anywhere when there is no aspect (an explosion). The
    effect codes go through ``apply``, the damage-code mapping in use (``codes.apply_codes``).
    """
    charts = cast(Charts, ctx.charts)
    if log.sunk:
        return FloodLevel.NONE
    if column is None:
        label = "FL"
        if ctx.weapon_size is None:
            raise RulesDataError(
                "charts",
                "damage codes",
                "FL",
                f"a plain FL ({ctx.cause}) needs a weapon size; chart cells outside the hit "
                "tables must name a column, e.g. 100FL",
            )
        col = charts.flood_column(ctx.weapon_size, log.cls.size)
        if col is None:
            ctx.events.emit(
                EventKind.FLOODING,
                f"{log.name}: FL from a size-{ctx.weapon_size:g} {ctx.cause} cannot flood a "
                f"size-{log.cls.size} ship (under a quarter of its size)",
                ship=log.name,
                cause=ctx.cause,
                level=0,
            )
            return FloodLevel.NONE
    else:
        col = column_name(column)
        label = f"{col[:-1]}FL"
    roll = ctx.dice.roll(ctx.die, f"flooding occurrence ({col})", ship=log.name)
    level = charts.flood_occurrence(col, roll)
    if level is FloodLevel.NONE:
        ctx.events.emit(
            EventKind.FLOODING,
            f"{log.name}: {label} ({col} column) rolls {roll} → no flooding",
            ship=log.name,
            column=col,
            roll=roll,
            level=0,
            cause=ctx.cause,
        )
        return level
    if compartment is None:
        compartment = flood_compartment(ctx.dice, ctx.aspect, log.name, die=ctx.die)
    ctx.events.emit(
        EventKind.FLOODING,
        f"{log.name}: {label} ({col} column) rolls {roll} → {level.name.title()} flooding in "
        f"{compartment.value}",
        ship=log.name,
        column=col,
        roll=roll,
        level=int(level),
        compartment=compartment.value,
        cause=ctx.cause,
    )
    raise_flooding(log, compartment, level, ctx.events)
    effect_roll = ctx.dice.roll(ctx.die, f"{level.name.lower()} flooding effects", ship=log.name)
    codes = charts.flood_effect(level, effect_roll)
    ctx.events.emit(
        EventKind.FLOODING,
        f"{log.name}: {level.name.title()} flooding effects roll {effect_roll} → "
        f"{', '.join(codes) or '-'}",
        ship=log.name,
        roll=effect_roll,
        codes=list(codes),
        level=int(level),
    )
    if codes:
        apply(log, codes, ctx.deeper(ctx.cause, ctx.aspect))
    return level
