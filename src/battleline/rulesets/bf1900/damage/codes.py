"""The one mapping from damage code to effect (BF6-DTYPE-01..03, REF-BF6-10).

Every chart cell is a list of codes; :func:`apply_codes` applies them left to right to a ship log.
The glossary is in ``docs/damage-codes.md``. A code aimed at a feature the ship lacks has no effect
and says so in the event log (BF6-DTYPE-02). An unknown code is a data error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from battleline.engine.events import EventKind
from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.damage.context import (
    Code,
    DamageContext,
)
from battleline.rulesets.bf1900.damage.flooding import resolve_flood_hit
from battleline.rulesets.bf1900.damage.locations import choose, locate_gun_hit, locate_main_hit
from battleline.rulesets.bf1900.ship import GunClass, Mounting
from battleline.rulesets.bf1900.shiplog import Mark, RudderState, ShipLog

#: Every code name :func:`apply_codes` knows, in its canonical spelling.
CODE_NAMES = frozenset(
    {"-", "F", "IF", "XF", "FL", "P", "Px", "M", "Mx", "S", "Sx", "T", "Tx", "B", "TT", "BR",
     "CT", "ST", "R", "JP", "JS", "DC", "SL", "EX", "EH", "SC", "MISC"}
)  # fmt: skip

#: Chains of chart rolls deeper than this mean a chart that feeds itself forever.
MAX_DEPTH = 25

_CANONICAL = {name.upper(): name for name in CODE_NAMES}
_CODE_RE = re.compile(r"^(\d*)([A-Za-z]+|-)$")


def parse_code(text: str, *, where: str = "damage code") -> Code:
    """Parse one code (``"3F"``, ``"150FL"``, ``"Px"``); unknown → :class:`RulesDataError`.

    A number of three or more digits before ``FL`` names the Flooding Occurrence column
    (``150FL``); any other number is a count (``2IF`` = two internal fires).
    """
    parsed = _parse(text)
    if isinstance(parsed, str):
        raise RulesDataError(where, "damage codes", text, parsed)
    return parsed


@lru_cache(maxsize=1024)
def _parse(text: str) -> Code | str:
    """:func:`parse_code` without ``where``: the code, or why the text is not one.

    Cached: every chart cell is parsed again each time it is applied, the texts are few and a
    :class:`Code` is immutable, so sharing one between calls is safe.
    """
    m = _CODE_RE.match(text.strip())
    name = _CANONICAL.get(m.group(2).upper()) if m else None
    if m is None or name is None:
        return "unknown damage code (docs/damage-codes.md)"
    digits = m.group(1)
    if not digits:
        return Code(name)
    number = int(digits)
    if name == "FL" and number >= 100:
        return Code(name, 1, number)
    if number < 1:
        return "a code's count must be at least 1"
    return Code(name, number)


def apply_codes(log: ShipLog, codes: Sequence[str], ctx: DamageContext) -> None:
    """Apply chart codes to ``log`` left to right (BF6-DTYPE-01); see ``docs/damage-codes.md``."""
    if ctx.depth > MAX_DEPTH:
        raise RulesDataError(
            "charts", "critical effects", "", f"chart rolls chained more than {MAX_DEPTH} deep"
        )
    parsed = [parse_code(c) for c in codes]
    boat_hits = 0
    # Only armoured-deck ships may leave their boat guns unmanned (BF6-SEC-03).
    crews_deployed = log.boat_crews_deployed or not log.cls.armoured_deck
    for code in parsed:
        if log.sunk:
            _note(log, ctx, f"{code}: the ship has gone down, no effect")
            return
        for _ in range(code.count):
            if code.name == "B":
                # One shell hit takes at most one boat gun while the crews are not deployed
                # (BF6-SEC-03).
                if boat_hits >= 1 and not crews_deployed:
                    _note(log, ctx, "B: boat crews not deployed, one boat gun per hit (BF6-SEC-03)")
                    continue
                boat_hits += 1
            _apply_one(log, code, ctx)


# -- the effects ---------------------------------------------------------------------------------


def _note(log: ShipLog, ctx: DamageContext, text: str, **data: Any) -> None:
    ctx.events.emit(EventKind.DAMAGE, f"{log.name}: {text}", ship=log.name, **data)


def _lacks(log: ShipLog, ctx: DamageContext, code: str, feature: str) -> None:
    _note(log, ctx, f"{code}: no {feature} aboard, no effect (BF6-DTYPE-02)", code=code)


def _apply_one(log: ShipLog, code: Code, ctx: DamageContext) -> None:
    name = code.name
    edition = ctx.effects.get(name)
    if edition is not None:
        edition(log, code, ctx)
        return
    handler = _HANDLERS.get(name)
    if handler is not None:
        handler(log, ctx)
    elif name in ("FL",):
        _flood(log, ctx, code.column)
    elif name in ("P", "Px"):
        _propulsion(log, ctx, destroy=name == "Px")
    elif name in ("M", "Mx"):
        _main(log, ctx, destroy=name == "Mx")
    elif name in ("S", "Sx"):
        _gun(log, ctx, GunClass.SECONDARY, name, destroy=name == "Sx")
    elif name in ("T", "Tx"):
        _gun(log, ctx, GunClass.TERTIARY, name, destroy=name == "Tx")
    elif name == "B":
        _gun(log, ctx, GunClass.BOAT, name, destroy=True)
    elif name in ("JP", "JS"):
        _jam(log, ctx, name)
    elif name in ("EX", "EH", "SC", "MISC"):
        _chart_roll(log, ctx, name)
    else:  # pragma: no cover - CODE_NAMES and this dispatch are kept in step by a test
        raise RulesDataError("damage code", "damage codes", name, "code has no effect defined")


def _nothing(log: ShipLog, ctx: DamageContext) -> None:
    pass


def _fire(log: ShipLog, ctx: DamageContext) -> None:
    log.fires_external += 1
    ctx.events.emit(
        EventKind.FIRE,
        f"{log.name}: external fire ({log.fires} burning)",
        ship=log.name,
        internal=False,
    )


def _internal_fire(log: ShipLog, ctx: DamageContext) -> None:
    log.fires_internal += 1
    ctx.events.emit(
        EventKind.FIRE,
        f"{log.name}: internal fire ({log.fires} burning)",
        ship=log.name,
        internal=True,
    )


def _fire_out(log: ShipLog, ctx: DamageContext) -> None:
    """``XF`` outside a fire line: an internal fire first, else an external one."""
    if not log.fires:
        _lacks(log, ctx, "XF", "fire")
        return
    put_out_fire(log, ctx, internal=log.fires_internal > 0)


def put_out_fire(log: ShipLog, ctx: DamageContext, *, internal: bool) -> None:
    """One internal or external fire goes out; no effect (and a note) if none of that kind burns.

    Step One reads ``XF`` on the fire line that rolled it, so an external fire's ``XF`` puts out
    an external fire and an internal fire's an internal one (BF6-DMG-05).
    """
    if internal and log.fires_internal:
        log.fires_internal -= 1
    elif not internal and log.fires_external:
        log.fires_external -= 1
    else:
        _lacks(log, ctx, "XF", f"{'internal' if internal else 'external'} fire")
        return
    which = "an internal" if internal else "an external"
    ctx.events.emit(
        EventKind.FIRE,
        f"{log.name}: {which} fire goes out ({log.fires} burning)",
        ship=log.name,
    )


def _propulsion(log: ShipLog, ctx: DamageContext, *, destroy: bool) -> None:
    """P / Px (BF6-PROP-01..05, EX-BF6-11)."""
    prop = log.propulsion
    if not prop.speeds:
        _lacks(log, ctx, "Px" if destroy else "P", "propulsion")
        return
    what = prop.destroy() if destroy else prop.damage()
    word = {
        "box": "box destroyed" if destroy else "box damaged",
        "converted": "a damaged box becomes destroyed, its damage goes to the margin",
        "margin": "propulsion access damage in the margin",
    }[what]
    _note(
        log,
        ctx,
        f"{'Px' if destroy else 'P'}: {word} (speed {prop.available:g} kn)",
        code="Px" if destroy else "P",
        result=what,
    )


def _main(log: ShipLog, ctx: DamageContext, *, destroy: bool) -> None:
    """M / Mx: locate, mark, then the Main/TT critical check (BF6-MAIN-01..03)."""
    label = "Mx" if destroy else "M"
    mount = locate_main_hit(log, ctx.dice, ctx.aspect, die=ctx.die)
    if mount is None:
        # Main guns in a beam pattern (central-battery ships): one undamaged gun, then the check.
        if any(not m.is_lettered for m in log.cls.mountings_of(GunClass.MAIN)):
            battery = locate_gun_hit(log, GunClass.MAIN, ctx.dice, die=ctx.die)
            if battery is not None:
                _gun(log, ctx, GunClass.MAIN, label, destroy=destroy, mount=battery)
                _critical_check(log, ctx, f"main {battery.key}")
                return
        _lacks(log, ctx, label, "main position")
        return
    pos = log.positions[mount.key]
    if pos.destroyed:
        _note(log, ctx, f"{label}: main {mount.key} is already destroyed", position=mount.key)
    elif destroy:
        pos.destroyed = True
        _note(log, ctx, f"{label}: main {mount.key} destroyed", position=mount.key)
    else:
        pos.slashes += 1
        _note(
            log,
            ctx,
            f"{label}: main {mount.key} damaged ({pos.slashes} slash{'es' * (pos.slashes > 1)})",
            position=mount.key,
        )
    if pos.magazine_flooded:
        _note(
            log,
            ctx,
            f"{label}: {mount.key}'s magazine is flooded, no critical check (BF6-MAIN-03)",
            position=mount.key,
        )
        return
    _critical_check(log, ctx, f"main {mount.key}")


def _critical_check(log: ShipLog, ctx: DamageContext, what: str) -> None:
    roll = ctx.dice.roll(ctx.die, f"Main/TT critical check ({what})", ship=log.name)
    codes = list(ctx.charts.critical("main_tt", roll))
    ctx.events.emit(
        EventKind.CRITICAL,
        f"{log.name}: Main/TT critical ({what}) rolls {roll} → {', '.join(codes) or '-'}",
        ship=log.name,
        line="main_tt",
        roll=roll,
        codes=codes,
    )
    apply_codes(log, codes, ctx.deeper("critical", ctx.aspect))


def _gun(
    log: ShipLog,
    ctx: DamageContext,
    gun_class: GunClass,
    label: str,
    *,
    destroy: bool,
    mount: Mounting | None = None,
) -> None:
    """S/Sx, T/Tx, B: one gun or position at random over the whole ship (BF6-SEC-01/02,
    BF6-LET-01/02, BF6-PAT-01). ``mount`` skips the location roll when already chosen."""
    if mount is None:
        mount = locate_gun_hit(log, gun_class, ctx.dice, die=ctx.die)
    if mount is None:
        _lacks(log, ctx, label, f"undamaged {gun_class.value} gun")
        return
    if mount.is_lettered:
        pos = log.positions[mount.key]
        if pos.destroyed:
            _note(log, ctx, f"{label}: {mount.key} is already destroyed", position=mount.key)
        elif destroy:
            pos.destroyed = True
            _note(log, ctx, f"{label}: {gun_class.value} {mount.key} destroyed", position=mount.key)
        else:
            pos.slashes += 1
            _note(log, ctx, f"{label}: {gun_class.value} {mount.key} damaged", position=mount.key)
        return
    marks = log.batteries[mount.key]
    # Beam-pattern guns come off the undamaged list, highest number first (BF6-PAT-01).
    index = max(i for i, m in enumerate(marks) if m is Mark.NONE)
    marks[index] = Mark.DESTROYED if destroy else Mark.DAMAGED
    left = sum(1 for m in marks if m is Mark.NONE)
    _note(
        log,
        ctx,
        f"{label}: {gun_class.value} gun {index + 1} of {mount.key} "
        f"{'destroyed' if destroy else 'damaged'} ({left} left)",
        battery=mount.key,
        gun=index + 1,
    )


def _torpedo_tube(log: ShipLog, ctx: DamageContext) -> None:
    """TT: one torpedo mount loses a tube, then the Main/TT critical check."""
    mounts = [t for t in log.cls.torpedoes if log.torpedoes_left.get(t.key, 0) > 0]
    if not mounts:
        _lacks(log, ctx, "TT", "loaded torpedo tube")
        return
    mount = choose(ctx.dice, mounts, "torpedo tube hit location", log.name, die=ctx.die)
    log.torpedoes_left[mount.key] -= 1
    _note(log, ctx, f"TT: torpedo mount {mount.key} loses a tube", mount=mount.key)
    _critical_check(log, ctx, f"torpedo mount {mount.key}")


def _bridge(log: ShipLog, ctx: DamageContext) -> None:
    log.bridge_hits += 1
    _note(log, ctx, f"BR: bridge hit ({log.bridge_hits})", code="BR")


def _conning_tower(log: ShipLog, ctx: DamageContext) -> None:
    log.ct_hits += 1
    _note(log, ctx, "CT: conning tower hit, command functions barred (BF6-CF-01)", code="CT")


def _steering(log: ShipLog, ctx: DamageContext) -> None:
    log.tr_hits += 1
    _note(log, ctx, f"ST: steering engine hit ({log.tr_hits} TR)", code="ST")


def _rudder(log: ShipLog, ctx: DamageContext) -> None:
    if log.rudder is RudderState.FREE:
        log.rudder = RudderState.DAMAGED
        _note(log, ctx, "R: rudder damaged", code="R")
    else:
        _note(log, ctx, f"R: rudder already {log.rudder.value}, no further effect", code="R")


def _jam(log: ShipLog, ctx: DamageContext, code: str) -> None:
    if log.rudder is RudderState.SECURED:
        _note(log, ctx, f"{code}: rudder secured on the centre-line (RC), no effect (BF6-REP-10)")
        return
    log.rudder = RudderState.JAMMED_PORT if code == "JP" else RudderState.JAMMED_STARBOARD
    side = "port" if code == "JP" else "starboard"
    _note(log, ctx, f"{code}: rudder jammed to {side}", code=code)


def _damage_control(log: ShipLog, ctx: DamageContext) -> None:
    for i, mark in enumerate(log.dc_boxes):
        if mark is Mark.NONE:
            log.dc_boxes[i] = Mark.DAMAGED
            _note(log, ctx, f"DC: damage-control box lost ({log.dc_dice} dice left)", code="DC")
            return
    _lacks(log, ctx, "DC", "unmarked damage-control box")


def _searchlight(log: ShipLog, ctx: DamageContext) -> None:
    for i, mark in enumerate(log.searchlights):
        if mark is Mark.NONE:
            log.searchlights[i] = Mark.DESTROYED
            _note(log, ctx, "SL: searchlight destroyed", code="SL")
            return
    _lacks(log, ctx, "SL", "searchlight")


_CHART_LINE = {"EX": "explosion", "EH": "elec_hydr", "SC": "steering"}


def _chart_roll(log: ShipLog, ctx: DamageContext, code: str) -> None:
    """EX, EH, SC: a roll on that Critical Effects line; MISC: the Miscellaneous Damage chart."""
    if code == "MISC":
        roll = ctx.dice.roll(ctx.die, "miscellaneous damage", ship=log.name)
        codes = list(ctx.charts.misc_damage(roll))
        title, deeper = "Misc damage", ctx.deeper("misc", ctx.aspect)
    else:
        line = _CHART_LINE[code]
        roll = ctx.dice.roll(ctx.die, f"critical effects ({line})", ship=log.name)
        codes = list(ctx.charts.critical(line, roll))
        title = line.replace("_", "/").title()
        # Explosion flooding lands in any compartment (BF6-FLD-01): no aspect.
        deeper = (
            ctx.deeper("explosion", None) if code == "EX" else ctx.deeper("critical", ctx.aspect)
        )
    ctx.events.emit(
        EventKind.EXPLOSION if code == "EX" else EventKind.CRITICAL,
        f"{log.name}: {title} rolls {roll} → {', '.join(codes) or '-'}",
        ship=log.name,
        code=code,
        roll=roll,
        codes=codes,
    )
    apply_codes(log, codes, deeper)


def _flood(log: ShipLog, ctx: DamageContext, column: int | None) -> None:
    """FL / nnnFL: a Flooding Occurrence roll, resolved by ``damage.flooding`` (BF6-FLD-01)."""
    resolve_flood_hit(log, ctx, column=column, apply=apply_codes)


_HANDLERS: dict[str, Callable[[ShipLog, DamageContext], None]] = {
    "-": _nothing,
    "F": _fire,
    "IF": _internal_fire,
    "XF": _fire_out,
    "TT": _torpedo_tube,
    "BR": _bridge,
    "CT": _conning_tower,
    "ST": _steering,
    "R": _rudder,
    "DC": _damage_control,
    "SL": _searchlight,
}
