"""Rolling an attack and what it does (REF-DBA-01 core; DBA-OUT-01..06, DBA-NET-04,
DBA-BSA-02, DBA-TORP-06).

A higher attack total "beats" the target, twice the target's total (or any win over a total of 0
or less) "doubles" it, equal totals are a "draw"; the Combat Outcome table in ``data/core.toml``
turns that into none / damaged / crippled / sunk, in the "ship" or "other" column, with "torpedo
attack" rows (DBA-OUT-01). Both players see an attack's opposed dice and outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose, unit
from battleline.rulesets.dba.combat import Attack
from battleline.rulesets.dba.factors import OTHER_COLUMN, ShipFactors
from battleline.rulesets.dba.options import DEFAULT_OPTIONS, Options
from battleline.rulesets.dba.status import ShipStatus, apply_result, start_flooding
from battleline.rulesets.dba.tables import CoreTables, Result, load_core

#: Fire phases a blast-damaged ship sits out (DBA-BSA-02).
BLAST_PHASES = 2
#: Net fouling: lowered nets foul on 5+, raised on 6 (DBA-NET-04).
FOUL_LOWERED_FROM = 5
FOUL_RAISED_FROM = 6


@dataclass(frozen=True, slots=True)
class AttackRoll:
    """An attack rolled: dice, totals and the table's outcome (before ship-specific rules)."""

    attack: Attack
    attack_roll: int
    defence_roll: int
    attack_total: int
    defence_total: int
    outcome: str  # "lost", "draw", "beaten" or "doubled"
    result: Result


def table_outcome(attack_total: int, defence_total: int) -> str:
    """ "lost", "draw", "beaten" or "doubled" (reconstructed core)."""
    if attack_total < defence_total:
        return "lost"
    if attack_total == defence_total:
        return "draw"
    if defence_total <= 0 or attack_total >= 2 * defence_total:
        return "doubled"
    return "beaten"


def outcome_result(
    target: ShipFactors, outcome: str, *, torpedo: bool, core: CoreTables | None = None
) -> Result:
    """Read the Combat Outcome table (DBA-OUT-01)."""
    core = core or load_core()
    if outcome == "lost":
        return Result.NONE
    column = "other" if target.type in OTHER_COLUMN else "ship"
    row = f"torpedo_{outcome}" if torpedo else outcome
    return core.outcome[column][row]


def roll_attack(
    attack: Attack,
    target: ShipStatus,
    dice: Dice,
    *,
    log: EventLog | None = None,
    core: CoreTables | None = None,
) -> AttackRoll:
    """Roll one attack: shooter's D6 then target's D6."""
    core = core or load_core()
    what = "torpedo attack" if attack.torpedo else "gunfire"
    # Both players see an attack's opposed dice and outcome at the table.
    owners = log.owners if log is not None else {}
    sides = tuple(
        dict.fromkeys(
            s for s in (owners.get(attack.shooter), owners.get(attack.target)) if s is not None
        )
    )
    with log.shown_to(*sides) if log is not None else nullcontext():
        a = dice.d6(f"{what} on {attack.target}", ship=attack.shooter)
        d = dice.d6(f"defence against {attack.shooter}'s {what}", ship=attack.target)
        att = a + attack.attack_bonus
        dfn = d + target.ship.df + sum(m.value for m in attack.target_mods)
        outcome = table_outcome(att, dfn)
        result = outcome_result(target.ship, outcome, torpedo=attack.torpedo, core=core)
        if log is not None:
            mods = ", ".join(str(m) for m in attack.shooter_mods)
            if attack.torpedo:
                kind = (
                    EventKind.TORPEDO_HIT if result is not Result.NONE else EventKind.TORPEDO_MISS
                )
            else:
                kind = EventKind.HIT if result is not Result.NONE else EventKind.NOTE
            log.emit(
                kind,
                f"{attack.shooter} → {attack.target}: {what} {a}+{attack.af}"
                f"{' (' + mods + ')' if mods else ''} = {att} vs {d}+{target.ship.df_text} = {dfn}"
                f" → {outcome}, {result.value}",
                ship=attack.shooter,
                outcome=outcome,
                result=result.value,
            )
    return AttackRoll(attack, a, d, att, dfn, outcome, result)


def apply_attack(
    rolled: AttackRoll,
    shooter: ShipStatus,
    target: ShipStatus,
    dice: Dice,
    *,
    options: Options = DEFAULT_OPTIONS,
    log: EventLog | None = None,
    core: CoreTables | None = None,
) -> Result:
    """Apply a rolled attack to the target (DBA-OUT-02/04/05/06, DBA-NET-04, DBA-BSA-02)."""
    core = core or load_core()
    attack = rolled.attack
    if attack.blast_risk and rolled.attack_roll == 1:
        shooter.blast_ban = BLAST_PHASES  # DBA-BSA-02
        if log is not None:
            log.emit(
                EventKind.CRITICAL,
                f"{shooter.name}: blast damage from its own end-on fire,"
                f" no fire for {BLAST_PHASES} fire phases (DBA-BSA-02)",
                ship=shooter.name,
            )
    result = rolled.result
    if rolled.outcome == "draw" and target.ship.inferior_protection:  # DBA-OUT-06
        twice = target.damage >= 2
        result = Result.CRIPPLED if twice or attack.torpedo else Result.DAMAGED
    cause = "torpedo attack" if attack.torpedo else f"gunfire from {shooter.name}"
    final = apply_result(target, result, cause=cause, log=log, core=core)
    if final is Result.CRIPPLED and attack.torpedo:
        start_flooding(target, why="crippled by torpedo attack, DBA-OUT-02", log=log)
    if result is Result.DAMAGED and options.nets and target.ship.nets and not target.sunk:
        net_fouling(target, dice, log=log)
    return final


def net_fouling(target: ShipStatus, dice: Dice, *, log: EventLog | None = None) -> bool:
    """A netted ship given a damaged result rolls: 5–6 lowered, 6 raised fouls it (DBA-NET-04)."""
    roll = dice.d6("nets foul? (DBA-NET-04)", ship=target.name)
    need = FOUL_LOWERED_FROM if target.nets_lowered else FOUL_RAISED_FROM
    fouled = roll >= need
    if fouled:
        target.fouled = True
        target.stopped = True
    if log is not None:
        log.emit(
            EventKind.CRITICAL,
            f"{target.name}: nets foul roll {roll} (needs {need}) → "
            f"{'fouled, falls out of line and stops' if fouled else 'clear'}",
            ship=target.name,
        )
        if fouled:
            log.emit(
                EventKind.CRITICAL,
                f"{target.name}: nets fouled, she stops as if crippled",
                ship=target.name,
                public=True,
            )
    return fouled


def fall_out_of_line(
    pose: Pose, fire_bearing: float, *, base_width: float, owner_choice_starboard: bool = False
) -> Pose:
    """DBA-OUT-03: a crippled ship in line ahead moves one base width away from the fire, heading
    unchanged. Fire from dead ahead or astern (or both sides): the owner chooses (AMB-96)."""
    rel = (fire_bearing - pose.heading) % 360.0
    if 0.0 < rel < 180.0:
        starboard = -base_width  # fire from starboard: move to port
    elif 180.0 < rel < 360.0:
        starboard = base_width
    else:
        starboard = base_width if owner_choice_starboard else -base_width
    dx, dy = unit(pose.heading)
    return Pose(pose.x + dy * starboard, pose.y - dx * starboard, pose.heading)


# --- one spell's combat -------------------------------------------------------------------
@dataclass
class CombatRound:
    """Torpedo and gun attacks announced together and resolved torpedoes first; torpedo
    results do not count for this turn's gunfire (DBA-TORP-06, AMB-85)."""

    ships: Mapping[str, ShipStatus]
    torpedoes: list[Attack] = field(default_factory=list)
    guns: list[Attack] = field(default_factory=list)

    def resolve(
        self,
        dice: Dice,
        *,
        options: Options = DEFAULT_OPTIONS,
        log: EventLog | None = None,
        core: CoreTables | None = None,
    ) -> list[tuple[AttackRoll, Result]]:
        """Roll all torpedo attacks, then all gunfire on the unchanged ships; then apply the
        gunfire results and after them the torpedo results, so gunfire is read against the ships
        as they were (AMB-85). Returns (roll, final result) in rolling order."""
        core = core or load_core()
        rolled = [
            roll_attack(a, self.ships[a.target], dice, log=log, core=core)
            for a in (*self.torpedoes, *self.guns)
        ]
        n = len(self.torpedoes)
        finals: dict[int, Result] = {}
        for i in (*range(n, len(rolled)), *range(n)):
            a = rolled[i].attack
            finals[i] = apply_attack(
                rolled[i],
                self.ships[a.shooter],
                self.ships[a.target],
                dice,
                options=options,
                log=log,
                core=core,
            )
        return [(r, finals[i]) for i, r in enumerate(rolled)]
