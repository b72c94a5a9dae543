"""Gunfire and torpedo attacks (REF-DBA-01 core; DBA-TGT-01..05, DBA-TORP-01..07, DBA-SCG-01,
DBA-TF-01..11, DBA-OUT-01..06, DBA-OB-01/02, DBA-NET-03/04, DBA-RW-02, DBA-BSA-01/02,
DBA-MG-01).

Reconstructed core: an attack is an opposed roll, the shooter's D6 + AF + tactical factors
against the target's D6 + DF + tactical factors. A higher attack total "beats" the target, twice
the target's total (or any win over a total of 0 or less) "doubles" it, equal totals are a
"draw"; the Combat Outcome table in ``data/core.toml`` turns that into none / damaged / crippled
/ sunk, in the "ship" or "other" column, with "torpedo attack" rows (DBA-OUT-01).

Ships fire at full effect through their broadside arcs and at reduced effect (−2, DBA-TF-03)
through their bow and stern arcs. At close range a ship fires its normal factor at ships and its
close factor at TBD/TB (so open barbettes add the close factor as a second shot, DBA-OB-02).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from enum import StrEnum

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose, in_arc, unit
from battleline.errors import IllegalOrderError
from battleline.rulesets.dba.factors import (
    OTHER_COLUMN,
    Flag,
    Layout,
    RangeBand,
    ShipFactors,
    ShipType,
)
from battleline.rulesets.dba.movement import hindered_by_rough_weather
from battleline.rulesets.dba.options import DEFAULT_OPTIONS, Options
from battleline.rulesets.dba.status import ShipStatus, apply_result, start_flooding
from battleline.rulesets.dba.tables import CoreTables, Result, load_core

#: Fire phases a blast-damaged ship sits out (DBA-BSA-02).
BLAST_PHASES = 2
#: Net fouling: lowered nets foul on 5+, raised on 6 (DBA-NET-04).
FOUL_LOWERED_FROM = 5
FOUL_RAISED_FROM = 6
#: Types that engage a second target on the opposite broadside at a fixed AF (DBA-TGT-05).
FIXED_SECONDARY_TYPES = frozenset({ShipType.BATTLESHIP, ShipType.CRUISER_1})


class Arc(StrEnum):
    """The firer's arc the target lies in."""

    BOW = "bow"
    STARBOARD = "starboard"
    STERN = "stern"
    PORT = "port"

    @property
    def broadside(self) -> bool:
        """Port or starboard."""
        return self in (Arc.PORT, Arc.STARBOARD)


def arc_of(theta: float) -> Arc:
    """Arc of a relative bearing: beams are [45, 135] and [225, 315], edges inclusive
    (reconstructed core)."""
    if in_arc(theta, 45, 135):
        return Arc.STARBOARD
    if in_arc(theta, 225, 315):
        return Arc.PORT
    return Arc.BOW if in_arc(theta, 315, 45) else Arc.STERN


class TargetEdge(StrEnum):
    """The target's base edge facing a torpedo attack (DBA-TF-08)."""

    BROADSIDE = "broadside"
    BOW = "bow"
    STERN = "stern"


@dataclass(frozen=True, slots=True)
class Conditions:
    """Light and sea for one attack (DBA-TF-05/06)."""

    night: bool = False
    searchlight: bool = False
    dusk_or_dawn: bool = False
    hindered: bool = False  # by sunset, sunrise or heavy seas


CLEAR = Conditions()


@dataclass(frozen=True, slots=True)
class Modifier:
    """One tactical factor with the rule that grants it."""

    rule: str
    value: int

    def __str__(self) -> str:
        return f"{self.value:+d} {self.rule}"


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack ready to roll."""

    shooter: str
    target: str
    torpedo: bool
    af: int
    shooter_mods: tuple[Modifier, ...] = ()
    target_mods: tuple[Modifier, ...] = ()
    reduced: bool = False
    #: Fired end-on without the reduced-effect penalty: a 1 is blast damage (DBA-BSA-02).
    blast_risk: bool = False
    note: str = ""

    @property
    def attack_bonus(self) -> int:
        """AF plus the shooter's factors."""
        return self.af + sum(m.value for m in self.shooter_mods)


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


# --- fire allocation ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FireMode:
    """How a ship engages one target: which AF, and whether at reduced effect."""

    af: int
    reduced: bool
    blast_risk: bool = False
    note: str = ""


def secondary_af(ship: ShipFactors, core: CoreTables | None = None) -> int:
    """DBA-TGT-05: 4 or fewer medium secondaries on the broadside → 1; 5 or more → 2
    (EX-DRV-11)."""
    core = core or load_core()
    many = ship.secondaries >= core.secondaries_threshold
    return core.secondaries_many if many else core.secondaries_few


def _band_af(
    ship: ShipFactors,
    band: RangeBand,
    *,
    own_spell: bool,
    options: Options,
    anti_torpedo_craft: bool,
) -> int:
    """AF at a band, with the monster-gun factor in the enemy's spell (DBA-MG-01)."""
    factors = ship.af
    if options.monster_guns and ship.monster_af is not None and not own_spell:
        factors = ship.monster_af
    use = band
    if band is RangeBand.CLOSE and not anti_torpedo_craft:
        use = RangeBand.NORMAL  # big guns at ships; the close factor is the light guns
    af = factors.at(use)
    if af is None:
        why = ", monster guns in the enemy spell, DBA-MG-01" if factors is ship.monster_af else ""
        raise IllegalOrderError(
            f"{ship.name}: cannot fire at {band.value} range (Annex A 'x'{why})"
        )
    return af


def fire_mode(
    ship: ShipFactors,
    *,
    arc: Arc,
    band: RangeBand,
    own_spell: bool = True,
    second_target: bool = False,
    both_broadsides: bool = False,
    in_corridor: bool = False,
    accept_reduced: bool = False,
    anti_torpedo_craft: bool = False,
    options: Options = DEFAULT_OPTIONS,
    core: CoreTables | None = None,
) -> FireMode:
    """The AF and effect for one target (DBA-TGT-01..05, DBA-BSA-01, DBA-MG-01).

    ``second_target``: a second target on the opposite broadside; ``both_broadsides``: a
    broadside-turret or no-secondaries ship engaging on both beams at once.
    """
    core = core or load_core()
    name = ship.name
    far = band in (RangeBand.LONG, RangeBand.EXTREME)
    if ship.broadside_ship and not arc.broadside:
        raise IllegalOrderError(
            f"{name}: a broadside ship cannot engage targets ahead or astern (DBA-TGT-01, AMB-92)"
        )
    if ship.layout is Layout.ALL_FORWARD and far and arc is Arc.STERN:
        raise IllegalOrderError(
            f"{name}: main armament all forward, no fire astern at {band.value} range (DBA-TGT-03)"
        )
    two_beam_choice = ship.layout is Layout.BROADSIDE_TURRETS or Flag.NO_SECONDARIES in ship.flags
    if second_target and not two_beam_choice:
        if ship.layout is Layout.BROADSIDE:
            # DBA-TGT-01: one target on each beam at full effect.
            return FireMode(
                _band_af(
                    ship,
                    band,
                    own_spell=own_spell,
                    options=options,
                    anti_torpedo_craft=anti_torpedo_craft,
                ),
                False,
            )
        if ship.type in FIXED_SECONDARY_TYPES:
            if far:
                raise IllegalOrderError(
                    f"{name}: the opposite-broadside secondaries reach only to normal range "
                    "(DBA-TGT-05, AMB-92)"
                )
            return FireMode(
                secondary_af(ship, core), False, note="opposite broadside secondaries (DBA-TGT-05)"
            )
        return FireMode(
            _band_af(
                ship,
                band,
                own_spell=own_spell,
                options=options,
                anti_torpedo_craft=anti_torpedo_craft,
            ),
            True,
            note="second target at reduced effect",
        )
    af = _band_af(
        ship, band, own_spell=own_spell, options=options, anti_torpedo_craft=anti_torpedo_craft
    )
    if two_beam_choice and (both_broadsides or second_target):
        return FireMode(af, True, note="both broadsides at reduced effect (DBA-TGT-02/04)")
    if arc.broadside:
        return FireMode(af, False)
    if ship.layout is Layout.ALL_FORWARD and far and arc is Arc.BOW:
        return FireMode(af, False, note="all main armament forward (DBA-TGT-03)")
    # DBA-BSA-01; DBA-BSA-03: only at long and extreme range, where the secondaries matter less.
    end_on = ship.layout in (Layout.LOZENGE, Layout.EN_ECHELON)
    if options.bow_stern_arcs and end_on and far and in_corridor and not accept_reduced:
        return FireMode(af, False, blast_risk=True, note="lozenge/en échelon end-on (DBA-BSA-01)")
    return FireMode(af, True)


# --- tactical factors ---------------------------------------------------------------------
def gun_modifiers(
    shooter: ShipStatus,
    target: ShipStatus,
    *,
    band: RangeBand,
    reduced: bool,
    splash: int = 0,
    conditions: Conditions = CLEAR,
    options: Options = DEFAULT_OPTIONS,
    core: CoreTables | None = None,
) -> tuple[Modifier, ...]:
    """Shooter's tactical factors for gunfire (DBA-TF-01..06, DBA-TF-10, DBA-OB-01, DBA-RW-02)."""
    core = core or load_core()
    tf = core.tf
    mods: list[Modifier] = []
    if shooter.crippled:
        mods.append(Modifier("crippled DBA-TF-01", tf["crippled"]))
    if splash:
        mods.append(Modifier("splash confusion DBA-TF-02", splash))
    if reduced:
        mods.append(Modifier("reduced effect DBA-TF-03", tf["reduced_effect"]))
    if target.ship.torpedo_craft and band is RangeBand.EXTREME:
        mods.append(Modifier("TBD/TB at extreme DBA-TF-04", tf["torpedo_craft_extreme"]))
    dark = (conditions.night and not conditions.searchlight) or conditions.dusk_or_dawn
    if target.ship.torpedo_craft and dark:
        mods.append(Modifier("TBD/TB in the dark DBA-TF-05", tf["torpedo_craft_dark"]))
    mods.extend(_common_modifiers(shooter, target, conditions, options, core))
    if options.open_barbettes and target.ship.open_barbettes and band is RangeBand.EXTREME:
        mods.append(Modifier("open barbettes DBA-OB-01", tf["open_barbettes_extreme"]))
    return tuple(mods)


def _common_modifiers(
    shooter: ShipStatus,
    target: ShipStatus,
    conditions: Conditions,
    options: Options,
    core: CoreTables,
) -> list[Modifier]:
    tf = core.tf
    mods: list[Modifier] = []
    if conditions.hindered:
        mods.append(Modifier("sunset/sunrise/heavy seas DBA-TF-06", tf["hindered"]))
    if target.stopped_last_spell and not target.crippled:
        mods.append(Modifier("target stopped last spell DBA-TF-10", tf["stopped_target"]))
    if options.rough_weather and hindered_by_rough_weather(shooter.ship):
        mods.append(Modifier("rough weather DBA-RW-02", tf["rough_weather"]))
    return mods


def defence_modifiers(target: ShipStatus, core: CoreTables | None = None) -> tuple[Modifier, ...]:
    """The target's factors: −2 if crippled (DBA-TF-01, AMB-70)."""
    core = core or load_core()
    if target.crippled:
        return (Modifier("crippled DBA-TF-01", core.tf["crippled"]),)
    return ()


def small_calibre_ineffective(shooter: ShipFactors, target: ShipFactors) -> bool:
    """DBA-SCG-01: scout cruiser, TGB, TBD and TB guns only hurt DF 1 or 0 (AMB-94)."""
    return shooter.small_calibre and target.df > 1


def gun_attacks(
    shooter: ShipStatus,
    target: ShipStatus,
    *,
    arc: Arc,
    band: RangeBand,
    own_spell: bool = True,
    second_target: bool = False,
    both_broadsides: bool = False,
    in_corridor: bool = False,
    accept_reduced: bool = False,
    close_factor_on_torpedo_craft: bool = False,
    splash: int = 0,
    conditions: Conditions = CLEAR,
    options: Options = DEFAULT_OPTIONS,
    core: CoreTables | None = None,
) -> list[Attack]:
    """The gun attacks one shooter makes on one target: none if small-calibre fire cannot hurt
    it (DBA-SCG-01), two at close range on open barbettes (DBA-OB-02), otherwise one."""
    core = core or load_core()
    if shooter.sunk or target.sunk:
        raise IllegalOrderError(f"{shooter.name}: sunk ships neither fire nor are fired at")
    if shooter.blast_ban or shooter.no_fire_this_spell:
        why = "blast damage, DBA-BSA-02" if shooter.blast_ban else "launched a TB, DBA-TBL-04"
        raise IllegalOrderError(f"{shooter.name}: may not fire this spell ({why})")
    if small_calibre_ineffective(shooter.ship, target.ship):
        return []
    anti_tb = target.ship.torpedo_craft
    mode = fire_mode(
        shooter.ship,
        arc=arc,
        band=band,
        own_spell=own_spell,
        second_target=second_target,
        both_broadsides=both_broadsides,
        in_corridor=in_corridor,
        accept_reduced=accept_reduced,
        anti_torpedo_craft=anti_tb,
        options=options,
        core=core,
    )
    mods = gun_modifiers(
        shooter,
        target,
        band=band,
        reduced=mode.reduced,
        splash=splash,
        conditions=conditions,
        options=options,
        core=core,
    )
    dmods = defence_modifiers(target, core)
    attacks = [
        Attack(
            shooter.name,
            target.name,
            False,
            mode.af,
            mods,
            dmods,
            mode.reduced,
            mode.blast_risk,
            mode.note,
        )
    ]
    ob_close = (
        options.open_barbettes
        and target.ship.open_barbettes
        and band is RangeBand.CLOSE
        and not close_factor_on_torpedo_craft
        and not anti_tb
        and not second_target
    )
    close_af = shooter.ship.af.close
    if ob_close and close_af is not None:
        attacks.append(
            Attack(
                shooter.name,
                target.name,
                False,
                close_af,
                mods,
                dmods,
                mode.reduced,
                False,
                "second shot at open barbettes (DBA-OB-02)",
            )
        )
    return attacks


# --- torpedoes ----------------------------------------------------------------------------
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
    mods.extend(_common_modifiers(shooter, target, conditions, options, core))
    return Attack(
        shooter.name, target.name, True, af, tuple(mods), defence_modifiers(target, core), reduced
    )


# --- rolling and outcomes -----------------------------------------------------------------
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
