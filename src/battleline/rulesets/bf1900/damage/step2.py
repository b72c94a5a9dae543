"""Damage Step Two: hits (BF6-DMG-07..09, BF6-HIT-01, BF6-TORP-07/08).

Shells: every hit zone's rounds are rolled in sets, one set per firing ship, mounting and shell
size (the 1D6 analogue of EX-BF12C-01): one 1D6 per round on the AP or HE table's location line
(AP: 1 Vitals, 2 Upperworks, 3–6 miss), then one 1D6 per hit in the column of its penetration
differential, the effective penetration (HE uses a fraction of the AP value) as a percentage of
the location's armour. The 1D12 edition's bonus doubles are not carried over (DIFF-32).

Torpedoes: every torpedo that struck gets its own Flooding Occurrence roll (BF6-DMG-08). A
normal-depth torpedo never harms a ship of size 4 or less (BF6-TORP-07; the torpedo step already
lets it run under); a shallow one has its size halved, rounded down, against good or great flood
protection (BF6-TORP-08, AMB-20).

Shell quality (reconstructed, ``rulesets/bf1900/shells.py``): when the firer's navy had poor or
strong shells in the battle's year, each hit first rolls a fuze die (a dud does no damage) and
its column moves along the table.

Everything here is simultaneous: nothing looks at the firer's damage, so a hit from a gun lost in
Step One still counts (BF6-DMG-09, EX-BF6-08; the 1D12 edition removes it, DIFF-12).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.errors import UnknownNameError
from battleline.rulesets.bf1900.charts import Charts, ShellTable
from battleline.rulesets.bf1900.crews import Laying
from battleline.rulesets.bf1900.damage.context import ApplyCodes, DamageContext
from battleline.rulesets.bf1900.damage.flooding import resolve_flood_hit
from battleline.rulesets.bf1900.hits import ShellSet, TorpedoHit
from battleline.rulesets.bf1900.outward import firing_side
from battleline.rulesets.bf1900.shells import NavyShells, ShellQuality
from battleline.rulesets.bf1900.ship import Rating
from battleline.rulesets.bf1900.shiplog import ShipLog

#: Flood protection ratings that halve a shallow torpedo's size (BF6-TORP-08).
HALVING_PROTECTION = frozenset({Rating.GOOD, Rating.GREAT})
#: Largest size a normal-depth torpedo passes under (BF6-TORP-07).
RUNS_UNDER_SIZE = 4


def resolve_hits(
    logs: Mapping[str, ShipLog],
    shell_sets: Sequence[ShellSet],
    torpedo_hits: Sequence[TorpedoHit],
    charts: Charts,
    dice: Dice,
    events: EventLog,
    apply: ApplyCodes,
    navy_shells: NavyShells | None = None,
    laying: Mapping[str, Laying] | None = None,
) -> None:
    """Step Two for every ship: all shell sets, then all torpedo hits (BF6-DMG-07/08).
    ``navy_shells`` gives the shell quality of each firing navy that differs from the chart,
    ``laying`` the laying die of each firing ship whose crew rolls one."""
    for shells in shell_sets:
        quality = None
        if navy_shells:
            firer = logs.get(shells.firer)
            if firer is not None:
                quality = navy_shells.get(firer.cls.navy, {}).get(shells.ammo)
        resolve_shell_set(
            _target(logs, shells.target),
            shells,
            charts,
            dice,
            events,
            apply,
            quality,
            laying.get(shells.firer) if laying else None,
        )
    for torpedo in torpedo_hits:
        resolve_torpedo_hit(_target(logs, torpedo.target), torpedo, charts, dice, events, apply)


def resolve_shell_set(
    log: ShipLog,
    shells: ShellSet,
    charts: Charts,
    dice: Dice,
    events: EventLog,
    apply: ApplyCodes,
    quality: ShellQuality | None = None,
    laying: Laying | None = None,
) -> None:
    """Roll one set: a location die per round, then a damage die per hit (BF6-DMG-07). Between
    the two (reconstructed): with a crew's ``laying``, a laying die per hit; with a ``quality``
    that has a dud chance, a fuze die per hit."""
    if shells.rounds <= 0 or log.sunk:
        return
    ammo = shells.ammo.value
    what = f"{shells.firer} {shells.mounting} ({shells.calibre_cm:g} cm {ammo})"
    # The firing side rolls its own shells on the hit table and reads the codes (issue 11 §3);
    # what the codes do to the target's log stays the target's (``apply`` runs outside).
    firers = firing_side(events, shells.firer)
    with events.shown_to(*firers):
        faces = dice.rolls(shells.rounds, 6, f"{what} hit location", ship=log.name)
        table = charts.table(shells.ammo)
        located = [table.location(f) for f in faces]
        hits = [loc for loc in located if loc is not None]
        tally = ", ".join(
            f"{n} {word}"
            for word, n in (
                ("vitals", located.count("vitals")),
                ("upperworks", located.count("upperworks")),
                ("miss" if located.count(None) == 1 else "misses", located.count(None)),
            )
            if n
        )
        laid: dict[str, Any] = {}
        if hits and laying is not None:
            # The laying die: a hit of this crew stands only on the faces it lays on.
            laid["laying"] = dice.rolls(len(hits), 6, f"{what} laying", ship=log.name)
            hits = [loc for loc, f in zip(hits, laid["laying"], strict=True) if laying.stands(f)]
            wide = len(laid["laying"]) - len(hits)
            tally += (
                f"; laying ({laying.quality} crew, a hit stands on {laying.faces}) rolls "
                f"{' '.join(map(str, laid['laying']))} → {wide} wide"
            )
        events.emit(
            EventKind.HIT,
            f"{log.name}: {shells.rounds} round{'s' * (shells.rounds != 1)} from {what} roll "
            f"{' '.join(map(str, faces))} → {tally}",
            ship=log.name,
            firer=shells.firer,
            mounting=shells.mounting,
            calibre_cm=shells.calibre_cm,
            ammo=ammo,
            faces=list(faces),
            hits=len(hits),
            **laid,
        )
        if hits and quality is not None and quality.dud_on > 0:
            hits = _fuzes(log, shells, what, hits, quality, dice, events)
        if not hits:
            return
        shift = quality.column_shift if quality is not None else 0
        damage = dice.rolls(len(hits), 6, f"{what} damage", ship=log.name)
    ctx = DamageContext(
        charts,
        dice,
        events,
        aspect=shells.aspect,
        weapon_size=float(shells.shell_size),
        cause="shell",
    )
    columns: dict[str, _Column] = {}
    for location, roll in zip(hits, damage, strict=True):
        col = columns.get(location)
        if col is None:
            col = columns[location] = _column(log, shells, charts, table, location, shift)
        armour, pct, index, column = col
        codes = table.damage(location, index, roll)
        factor = charts.penetration_factor(shells.ammo)  # HE: the halved value it uses
        used = "" if factor == 1 else f" × {factor:g} = {shells.penetration * factor:g}"
        with events.shown_to(*firers):
            events.emit(
                EventKind.DAMAGE,
                f"{log.name}: {ammo} hit on the {location} (penetration "
                f"{shells.penetration}{used} vs armour {armour}, {_pct(pct)}, column {column}) "
                f"rolls {roll} → {', '.join(codes) or '-'}",
                ship=log.name,
                firer=shells.firer,
                location=location,
                differential=pct if pct != float("inf") else None,
                column=column,
                roll=roll,
                codes=list(codes),
            )
        if codes:
            apply(log, codes, ctx)


#: A location's armour, penetration differential (percent), column number and column name.
_Column = tuple[int, float, int, str]


def _column(
    log: ShipLog,
    shells: ShellSet,
    charts: Charts,
    table: ShellTable,
    location: str,
    shift: int = 0,
) -> _Column:
    """Where a set's hits on one location fall in the hit table: the same for every hit of the
    set, so :func:`resolve_shell_set` looks it up once per location. ``shift`` moves the column
    for shell quality, kept inside the table."""
    armour = log.cls.armour_vitals if location == "vitals" else log.cls.armour_upperworks
    pct = charts.differential(shells.ammo, shells.penetration, armour)
    index = table.column_index(pct)
    if shift:
        index = min(max(index + shift, 0), len(table.columns) - 1)
    return armour, pct, index, table.columns[index].name


def _fuzes(
    log: ShipLog,
    shells: ShellSet,
    what: str,
    hits: list[str],
    quality: ShellQuality,
    dice: Dice,
    events: EventLog,
) -> list[str]:
    """One fuze die per hit: a face of ``quality.dud_on`` or less is a dud (reconstructed,
    ``docs/rules-gaps/shells.md``). The hits that burst, in order."""
    faces = dice.rolls(len(hits), 6, f"{what} fuzes", ship=log.name)
    live = [loc for loc, face in zip(hits, faces, strict=True) if face > quality.dud_on]
    duds = len(hits) - len(live)
    events.emit(
        EventKind.NOTE,
        f"{log.name}: fuzes of {what} roll {' '.join(map(str, faces))} (dud on "
        f"{quality.dud_on} or less) → {duds} dud{'s' * (duds != 1)}",
        ship=log.name,
        firer=shells.firer,
        faces=list(faces),
        duds=duds,
    )
    return live


def torpedo_size(torpedo: TorpedoHit, log: ShipLog) -> int | None:
    """The size a torpedo floods with, or ``None`` if it cannot harm this ship.

    Normal depth against size ≤ 4: ``None`` (BF6-TORP-07). Shallow against good or great flood
    protection: half, rounded down (BF6-TORP-08, AMB-20).
    """
    if not torpedo.shallow and log.cls.size <= RUNS_UNDER_SIZE:
        return None
    if torpedo.shallow and log.cls.flood_protection in HALVING_PROTECTION:
        return torpedo.size // 2
    return torpedo.size


def resolve_torpedo_hit(
    log: ShipLog,
    torpedo: TorpedoHit,
    charts: Charts,
    dice: Dice,
    events: EventLog,
    apply: ApplyCodes,
) -> None:
    """One torpedo hit: its own Flooding Occurrence roll on the embattled side (BF6-DMG-08)."""
    if log.sunk:
        return
    size = announce_torpedo_hit(log, torpedo, torpedo_size(torpedo, log), events)
    if size is None:
        return
    ctx = DamageContext(
        charts, dice, events, aspect=torpedo.aspect, weapon_size=float(size), cause="torpedo"
    )
    resolve_flood_hit(log, ctx, column=None, apply=apply)


def announce_torpedo_hit(
    log: ShipLog, torpedo: TorpedoHit, size: int | None, events: EventLog
) -> int | None:
    """Record a torpedo strike at its running-depth ``size`` (``None``: a normal-depth torpedo
    running under a small ship, BF6-TORP-07); the size it does damage with, or ``None``. Both
    editions use it."""
    # Whose torpedo it was only where her side could see the firer (issue 11 §3).
    whose: dict[str, Any] = {"firer": torpedo.firer} if torpedo.firer_seen else {}
    if size is None:
        events.emit(
            EventKind.NOTE,
            f"{log.name}: "
            + (f"{torpedo.firer}'s normal-depth torpedo" if whose else "a normal-depth torpedo")
            + f" runs under a size-{log.cls.size} ship, no damage (BF6-TORP-07)",
            ship=log.name,
            **whose,
        )
        return None
    halved = size != torpedo.size
    depth = "shallow" if torpedo.shallow else "normal-depth"
    source = f" from {torpedo.firer} ({torpedo.mount})" if whose else ""
    events.emit(
        EventKind.TORPEDO_HIT,
        f"{log.name}: {depth} torpedo{source} strikes the "
        f"{torpedo.aspect.value} side, size {torpedo.size}"
        + (
            f" halved to {size} by {log.cls.flood_protection.value} flood protection (BF6-TORP-08)"
            if halved
            else ""
        )
        + f" against size {log.cls.size}",
        ship=log.name,
        size=size,
        halved=halved,
        **whose,
    )
    return size


def _target(logs: Mapping[str, ShipLog], name: str) -> ShipLog:
    if name not in logs:
        raise UnknownNameError("target ship", name, list(logs))
    return logs[name]


def _pct(pct: float) -> str:
    return "unarmoured" if pct == float("inf") else f"{pct:.0f}%"
