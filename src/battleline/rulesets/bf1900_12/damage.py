"""The 1D12 Damage Phase: Steps One, Two and Four on the d12 charts (BF12-DMG, BF12-SINK).

It shares the damage-code mapping, flood-hit resolution, damage locations and listing with the
1D6 edition (``bf1900.damage``), run with ``DamageContext(die=12, effects=edition.EFFECTS)``; it
differs where the texts do:

* Step One: one roll per fire on the Fire line and per heavy or severe compartment on the Sev/Hvy
  FL line (BF12-DMG-03, BF12C-CRIT-03/04); new flooding from that line stays in the compartment
  that rolled (DIFF-20, our reading);
* Step Two: the Shell Hits chart — one d12 per round, column by penetration against armour, sets
  by firing ship and shell size, bonus doubles 9–12 (BF12-DMG-04, BF12C-SHL-01..07); hits from
  guns lost in Step One are removed (BF12-DMG-05, DIFF-12); torpedoes on the Flooding Occurrence
  and Effects charts (BF12-DMG-06), their running depth on the 1D12 size scale (BF6-TORP-07/08);
* Step Four: the sink roll is modified (the DC sink modifier, AMB-51) and the turns left are one
  more d12 (BF12-SINK-01..03); a sinking ship stops firing, moving and all damage control
  (BF12-SINK-02), and smokes if it was burning (BF12-SINK-04).

A ship already sinking takes no further damage tracking (BF12-SINK-02).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.bf1900.damage.codes import apply_codes, parse_code
from battleline.rulesets.bf1900.damage.context import DamageContext
from battleline.rulesets.bf1900.damage.flooding import resolve_flood_hit
from battleline.rulesets.bf1900.damage.step1 import rolls_critical
from battleline.rulesets.bf1900.damage.step2 import announce_torpedo_hit
from battleline.rulesets.bf1900.damage.step4 import count_down, update_listing
from battleline.rulesets.bf1900.hits import Aspect, ShellSet, TorpedoHit
from battleline.rulesets.bf1900.outward import announced, firing_side
from battleline.rulesets.bf1900.ship import FloodLevel
from battleline.rulesets.bf1900.shiplog import ShipLog, SinkingState
from battleline.rulesets.bf1900_12.charts import DIE, Charts12
from battleline.rulesets.bf1900_12.dc import DC12Declaration, run_step_three
from battleline.rulesets.bf1900_12.edition import EFFECTS, armour_value, dc_pool, torpedo_size

#: Face values whose doubles earn a bonus Misc roll (BF12C-SHL-07).
BONUS_FACES = frozenset({9, 10, 11, 12})
SINK_ROLL_POINTS = 5
STEPS = (
    "Step One: fire and flooding",
    "Step Two: hits",
    "Step Three: damage control",
    "Step Four: sinking and uneven flooding",
)


def context(
    charts: Charts12,
    dice: Dice,
    events: EventLog,
    *,
    aspect: Aspect | None = None,
    weapon_size: float | None = None,
    cause: str = "critical",
) -> DamageContext:
    """A damage context for this edition: the d12 and its own ``S`` (DIFF-01, DIFF-10)."""
    return DamageContext(
        charts,
        dice,
        events,
        aspect=aspect,
        weapon_size=weapon_size,
        cause=cause,
        die=DIE,
        effects=EFFECTS,
    )


# -- Step One (BF12-DMG-03) ------------------------------------------------------------------


def fire_and_flooding(log: ShipLog, charts: Charts12, dice: Dice, events: EventLog) -> None:
    """One d12 per fire on the Fire line and per heavy/severe compartment on the Sev/Hvy FL line
    (BF12-DMG-03). What rolls is fixed as the step begins."""
    if log.sunk or log.sinking is not None:
        return
    fires = log.fires
    zones = [(c, s.level) for c, s in log.compartments.items() if rolls_critical(s)]
    ctx = context(charts, dice, events)
    for i in range(1, fires + 1):
        roll = dice.roll(DIE, f"fire {i} of {fires}", ship=log.name)
        codes = charts.critical("fire", roll)
        _critical_event(log, events, f"fire {i} of {fires}", "fire", roll, codes)
        if codes:
            apply_codes(log, codes, ctx)
    for zone, level in zones:
        short = "Sev" if level is FloodLevel.SEVERE else "Hvy"
        roll = dice.roll(DIE, f"{short} FL in {zone.value}", ship=log.name)
        codes = charts.critical("flooding", roll)
        _critical_event(log, events, f"{short} FL in {zone.value}", "flooding", roll, codes)
        for text in codes:
            code = parse_code(text)
            if code.name == "FL":
                # BF12C-CRIT-04: more flooding in the named column, here in the same compartment.
                resolve_flood_hit(
                    log, ctx, column=code.column or 100, compartment=zone, apply=apply_codes
                )
            else:
                apply_codes(log, [text], ctx)


def _critical_event(
    log: ShipLog, events: EventLog, what: str, line: str, roll: int, codes: Sequence[str]
) -> None:
    events.emit(
        EventKind.CRITICAL,
        f"{log.name}: {what} rolls {roll} → {', '.join(codes) or '-'}",
        ship=log.name,
        line=line,
        roll=roll,
        codes=list(codes),
    )


# -- Step Two (BF12-DMG-04..06) ----------------------------------------------------------------


def guns_before(logs: Mapping[str, ShipLog]) -> dict[tuple[str, str], int]:
    """Every mounting's guns in action now (taken as Step One begins and as it ends)."""
    return {
        (name, m.key): log.guns_in_action(m.key)
        for name, log in logs.items()
        for m in log.cls.mountings
    }


def surviving_rounds(
    shells: ShellSet,
    before: Mapping[tuple[str, str], int],
    after: Mapping[tuple[str, str], int],
) -> int:
    """Rounds left in a set once hits from guns lost in Step One are removed (BF12-DMG-05,
    DIFF-12): the set keeps the share of its guns still in action, rounded down.

    ``before`` and ``after`` are :func:`guns_before` taken as Step One begins and as it ends,
    so a gun knocked out by another Step Two hit still lands its rounds: all shell hits are
    simultaneous (BF12-DMG-04).
    """
    key = (shells.firer, shells.mounting)
    was = before.get(key, 0)
    if was <= 0 or key not in after:
        return shells.rounds
    now = after[key]
    return shells.rounds if now >= was else shells.rounds * now // was


def shell_sets_by_size(shell_sets: Sequence[ShellSet]) -> list[list[ShellSet]]:
    """One set per firing ship, target and shell size (BF12C-SHL-06, EX-BF12C-01), in order."""
    groups: dict[tuple[str, str, float, int], list[ShellSet]] = {}
    for s in shell_sets:
        groups.setdefault((s.firer, s.target, s.calibre_cm, s.shell_size), []).append(s)
    return list(groups.values())


def bonus_rolls(faces: Sequence[int]) -> int:
    """Misc rolls earned in one set: for each value 9–12 shown k ≥ 2 times, k − 1
    (BF12C-SHL-07, EX-BF12C-02, AMB-44). ``faces`` are the Penetration-portion dice only."""
    counts = Counter(f for f in faces if f in BONUS_FACES)
    return sum(k - 1 for k in counts.values() if k >= 2)


def resolve_shell_set(
    log: ShipLog,
    parts: Sequence[tuple[ShellSet, int]],
    charts: Charts12,
    dice: Dice,
    events: EventLog,
) -> None:
    """Roll one set: one d12 per round on the Shell Hits chart, then its bonus Misc rolls
    (BF12C-SHL-01..07, EX-BF12C-03)."""
    rounds = [s for s, n in parts for _ in range(n)]
    if not rounds or log.sunk or log.sinking is not None:
        return
    first = rounds[0]
    what = f"{first.firer} {first.calibre_cm:g} cm"
    firers = firing_side(events, first.firer)  # it rolls its shells and reads the codes
    with events.shown_to(*firers):
        faces = dice.rolls(len(rounds), DIE, f"{what} shell hits", ship=log.name)
    armour = armour_value(log.cls, first.aspect)
    penetrating: list[int] = []
    for shells, face in zip(rounds, faces, strict=True):
        column = charts.shell_column(shells.penetration, armour)
        codes = charts.shell_damage(column, face)
        if column.penetrating:
            penetrating.append(face)
        with events.shown_to(*firers):
            events.emit(
                EventKind.DAMAGE,
                f"{log.name}: {shells.calibre_cm:g} cm round from {shells.firer} (penetration "
                f"{shells.penetration} vs armour {armour}, {column.portion} column "
                f"{column.name}) rolls {face} → {', '.join(codes) or '-'}",
                ship=log.name,
                firer=shells.firer,
                calibre_cm=shells.calibre_cm,
                portion=column.portion,
                column=column.name,
                roll=face,
                codes=list(codes),
            )
        if codes:
            ctx = context(
                charts,
                dice,
                events,
                aspect=shells.aspect,
                weapon_size=float(shells.shell_size),
                cause="shell",
            )
            apply_codes(log, codes, ctx)
    bonus = bonus_rolls(penetrating)
    if bonus:
        with events.shown_to(*firers):
            events.emit(
                EventKind.DAMAGE,
                f"{log.name}: doubles in {what}'s set → {bonus} bonus Misc roll"
                f"{'s' * (bonus > 1)} (BF12C-SHL-07)",
                ship=log.name,
                firer=first.firer,
                bonus=bonus,
            )
        ctx = context(charts, dice, events, aspect=first.aspect, cause="misc")
        for _ in range(bonus):
            apply_codes(log, ["MISC"], ctx)


def resolve_torpedo_hit(
    log: ShipLog, torpedo: TorpedoHit, charts: Charts12, dice: Dice, events: EventLog
) -> None:
    """A torpedo that struck: Flooding Occurrence, then Effects (BF12-DMG-06), with its size
    for running depth on the 1D12 scale (BF6-TORP-07/08, ``edition.torpedo_size``)."""
    if log.sunk or log.sinking is not None:
        return
    size = announce_torpedo_hit(log, torpedo, torpedo_size(torpedo, log), events)
    if size is None:
        return
    ctx = context(
        charts,
        dice,
        events,
        aspect=torpedo.aspect,
        weapon_size=float(size),
        cause="torpedo",
    )
    resolve_flood_hit(log, ctx, apply=apply_codes)


def resolve_hits(
    logs: Mapping[str, ShipLog],
    shell_sets: Sequence[ShellSet],
    torpedo_hits: Sequence[TorpedoHit],
    before: Mapping[tuple[str, str], int],
    charts: Charts12,
    dice: Dice,
    events: EventLog,
) -> None:
    """Step Two: every shell set, then every torpedo (BF12-DMG-04..06).

    Which rounds Step One removed is settled before any set is rolled: the guns in action now,
    as Step Two begins, against ``before`` (BF12-DMG-05)."""
    after = guns_before(logs)
    kept = [
        [(s, surviving_rounds(s, before, after)) for s in group]
        for group in shell_sets_by_size(shell_sets)
    ]
    for group_kept in kept:
        parts = []
        for s, keep in group_kept:
            if keep < s.rounds:
                events.emit(
                    EventKind.NOTE,
                    f"{s.firer}: {s.rounds - keep} of {s.rounds} rounds from {s.mounting} removed, "
                    "its guns were lost in Step One (BF12-DMG-05)",
                    ship=s.firer,
                    mounting=s.mounting,
                    removed=s.rounds - keep,
                )
            parts.append((s, keep))
        target = group_kept[0][0].target
        if target in logs:
            resolve_shell_set(logs[target], parts, charts, dice, events)
    for torpedo in torpedo_hits:
        if torpedo.target in logs:
            resolve_torpedo_hit(logs[torpedo.target], torpedo, charts, dice, events)


# -- Step Four (BF12-DMG-07, BF12-SINK) ----------------------------------------------------------


def sink_roll(log: ShipLog, charts: Charts12, dice: Dice, events: EventLog) -> bool:
    """At 5+ flooding points a modified d12 inside the row's range sinks the ship; the turns
    left are one more d12 (BF12-SINK-01/03, BF12C-SINKC-01, EX-DRV-04). The DC sink modifier
    moves the roll 1 in the ship's favour, i.e. down (AMB-51)."""
    points = log.flooding_points
    bonus, log.sink_roll_bonus = log.sink_roll_bonus, 0
    row = charts.sink_range(points)
    if row is None or log.sinking is not None or log.sunk:
        return False
    lo, hi = row
    face = dice.roll(DIE, f"sink roll ({points} flooding points)", ship=log.name)
    modified = face - bonus
    sinks = lo <= modified <= hi
    mod = f" −{bonus} = {modified}" if bonus else ""
    if not sinks:
        events.emit(
            EventKind.NOTE,
            f"{log.name}: sink roll {face}{mod} against {lo}–{hi} → stays afloat",
            ship=log.name,
            roll=face,
            modified=modified,
            points=points,
            sinks=False,
        )
        return False
    turns = dice.roll(DIE, "turns until she sinks", ship=log.name)
    # BF12-SINK-02: every weapon ceases fire, damage control stops, the ship stops.
    log.sinking = SinkingState(turns_left=turns, guns_abandoned=True)
    smoke = log.fires > 0
    events.emit(
        EventKind.SINKING,
        f"{log.name}: sink roll {face}{mod} against {lo}–{hi} → she is sinking, {turns} turn"
        f"{'s' * (turns != 1)} left; all weapons cease fire"
        + (", she burns and makes smoke (BF12-SINK-04)" if smoke else ""),
        ship=log.name,
        roll=face,
        modified=modified,
        points=points,
        sinks=True,
        turns=turns,
        smoke=smoke,
    )
    return True


def run_step_four(log: ShipLog, charts: Charts12, dice: Dice, events: EventLog) -> None:
    """Count down an earlier sinking, the uneven flooding, then the sink roll (BF12-DMG-07,
    BF12-UNV-01)."""
    if log.sunk:
        return
    count_down(log, events)
    if log.sunk or log.sinking is not None:
        return
    update_listing(log, charts, events)
    sink_roll(log, charts, dice, events)


# -- the phase -------------------------------------------------------------------------------


def run_damage_phase(
    logs: Mapping[str, ShipLog],
    shell_sets: Sequence[ShellSet],
    torpedo_hits: Sequence[TorpedoHit],
    declarations: Mapping[str, Sequence[DC12Declaration]],
    charts: Charts12,
    dice: Dice,
    events: EventLog,
) -> None:
    """The whole 1D12 Damage Phase on ``logs`` in place (BF12-DMG-02..07).

    The damage dice are counted before Step One: nothing between the Command Phase and here
    destroys propulsion, so this is the count as of the Command Phase (BF12-DC-03, AMB-50).
    """
    pools = {name: dc_pool(log) for name, log in logs.items()}
    before = guns_before(logs)
    for number, title in enumerate(STEPS, start=1):
        events.emit(EventKind.PHASE, f"Damage {title}", public=True, step=number)
        # Each step ends by telling everyone what shows (issue 11 §3; ``bf1900.outward``).
        with announced(logs, events):
            if number == 1:
                for log in logs.values():
                    fire_and_flooding(log, charts, dice, events)
            elif number == 2:
                resolve_hits(logs, shell_sets, torpedo_hits, before, charts, dice, events)
            elif number == 3:
                for name, log in logs.items():
                    run_step_three(
                        log, declarations.get(name, ()), pools[name], charts, dice, events
                    )
            else:
                for log in logs.values():
                    run_step_four(log, charts, dice, events)


__all__ = [
    "bonus_rolls",
    "context",
    "fire_and_flooding",
    "guns_before",
    "resolve_hits",
    "resolve_shell_set",
    "run_damage_phase",
    "shell_sets_by_size",
    "sink_roll",
    "surviving_rounds",
]
