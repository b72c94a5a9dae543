"""Damage Step One: fire and flooding (BF6-DMG-04..06, BF6-REP-08, BF6-CF-04).

Every fire burning and every heavy (not contained) or severe compartment at the start of the step
gets one roll on its Critical Effects line; the results apply at once, so a DC box lost here is
gone for Step Three (BF6-DMG-10, EX-BF6-09) and uneven flooding made here can be counterflooded
before Step Four (BF6-DMG-11, EX-BF6-10).

* fires: one roll per external fire on ``fire_external`` and per internal fire on
  ``fire_internal``; the line's ``XF`` puts out a fire of that line's kind, an external fire on
  the external line and an internal one on the internal line (BF6-DMG-05);
* flooding: one roll per Heavy compartment whose "Hvy" is not boxed (contained, BF6-REP-08) and per
  Severe compartment (never contained) on ``heavy_flooding`` / ``severe_flooding``; Light and
  Moderate never roll, and nor does a counterflooded compartment (BF6-CF-04);
* a new FL from a Hvy/Sev roll lands in the same compartment on 1–3 or an adjoining one on 4–6,
  picked uniformly; Forward and Aft each adjoin both amidships compartments, each amidships
  compartment adjoins Forward, Aft and the other amidships (BF6-DMG-06, AMB-22, REF-BF6-26).

What rolls is fixed at the start of the step: a fire started or a compartment flooded during the
step waits for the next turn, and a fire put out during the step still had its roll.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.bf1900.charts import Charts
from battleline.rulesets.bf1900.damage.codes import parse_code, put_out_fire
from battleline.rulesets.bf1900.damage.context import ApplyCodes, Code, DamageContext
from battleline.rulesets.bf1900.damage.flooding import resolve_flood_hit
from battleline.rulesets.bf1900.damage.locations import choose
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel
from battleline.rulesets.bf1900.shiplog import CompartmentState, ShipLog

#: Which compartments adjoin which (AMB-22, REF-BF6-26).
ADJOINING: Mapping[Compartment, tuple[Compartment, ...]] = MappingProxyType(
    {
        Compartment.FORWARD: (Compartment.PORT, Compartment.STARBOARD),
        Compartment.AFT: (Compartment.PORT, Compartment.STARBOARD),
        Compartment.PORT: (Compartment.FORWARD, Compartment.AFT, Compartment.STARBOARD),
        Compartment.STARBOARD: (Compartment.FORWARD, Compartment.AFT, Compartment.PORT),
    }
)


def rolls_critical(state: CompartmentState) -> bool:
    """Whether a compartment rolls on the Hvy/Sev FL line in Step One (BF6-DMG-04, BF6-REP-08,
    BF6-CF-04): Severe always, Heavy unless contained, never Light or Moderate, never a
    counterflooded compartment."""
    if state.counterflooded:
        return False
    if state.level is FloodLevel.SEVERE:
        return True
    return state.level is FloodLevel.HEAVY and not state.contained


def spread_compartment(dice: Dice, source: Compartment, ship: str) -> Compartment:
    """Where a new FL from a Hvy/Sev roll lands: 1–3 the same compartment, 4–6 an adjoining one,
    chosen by a second 1D6 (BF6-DMG-06, AMB-22)."""
    face = dice.d6(f"new FL from {source.value}: same or adjoining compartment", ship=ship)
    if face <= 3:
        return source
    return choose(dice, ADJOINING[source], f"adjoining compartment of {source.value}", ship)


def fire_and_flooding(
    log: ShipLog, charts: Charts, dice: Dice, events: EventLog, apply: ApplyCodes
) -> None:
    """Step One for one ship (BF6-DMG-04..06). A ship already gone down rolls nothing."""
    if log.sunk:
        return
    external, internal = log.fires_external, log.fires_internal
    zones = [(c, s.level) for c, s in log.compartments.items() if rolls_critical(s)]
    ctx = DamageContext(charts, dice, events, aspect=None, weapon_size=None, cause="critical")
    for kind, count in (("external", external), ("internal", internal)):
        if not count:
            continue  # no fire of this kind: nothing rolled, no context needed
        line = f"fire_{kind}"
        line_ctx = _fire_line_context(ctx, internal=kind == "internal")
        for i in range(1, count + 1):
            roll = dice.d6(f"{kind} fire {i} of {count}", ship=log.name)
            codes = charts.critical(line, roll)
            events.emit(
                EventKind.CRITICAL,
                f"{log.name}: {kind} fire {i} of {count} rolls {roll} → {_show(codes)}",
                ship=log.name,
                line=line,
                roll=roll,
                codes=list(codes),
            )
            if codes:
                apply(log, codes, line_ctx)
    for zone, level in zones:
        line = "severe_flooding" if level is FloodLevel.SEVERE else "heavy_flooding"
        short = "Sev" if level is FloodLevel.SEVERE else "Hvy"
        roll = dice.d6(f"{short} FL in {zone.value}", ship=log.name)
        codes = charts.critical(line, roll)
        events.emit(
            EventKind.CRITICAL,
            f"{log.name}: {short} FL in {zone.value} rolls {roll} → {_show(codes)}",
            ship=log.name,
            line=line,
            compartment=zone.value,
            roll=roll,
            codes=list(codes),
        )
        _apply_spreading(log, codes, zone, ctx, apply)


def _fire_line_context(ctx: DamageContext, *, internal: bool) -> DamageContext:
    """``ctx`` with ``XF`` putting out a fire of the line's own kind (BF6-DMG-05): the internal
    line's results are worse, so which fire goes out matters."""

    def xf(log: ShipLog, code: Code, line_ctx: DamageContext) -> None:
        put_out_fire(log, line_ctx, internal=internal)

    return dataclasses.replace(ctx, effects=MappingProxyType({**ctx.effects, "XF": xf}))


def _apply_spreading(
    log: ShipLog,
    codes: Sequence[str],
    source: Compartment,
    ctx: DamageContext,
    apply: ApplyCodes,
) -> None:
    """Apply a Hvy/Sev result left to right; its FL codes spread from ``source`` (BF6-DMG-06)."""
    batch: list[str] = []
    for text in codes:
        code = parse_code(text)
        if code.name != "FL":
            batch.append(text)
            continue
        if batch:
            apply(log, batch, ctx)
            batch = []
        for _ in range(code.count):
            target = spread_compartment(ctx.dice, source, log.name)
            resolve_flood_hit(
                log,
                ctx.deeper("spread", None),
                column=code.column,
                compartment=target,
                apply=apply,
            )
    if batch:
        apply(log, batch, ctx)


def _show(codes: Sequence[str]) -> str:
    return ", ".join(codes) or "-"
