"""Gunfire (REF-DBA-01 core; DBA-TGT-01..05, DBA-SCG-01, DBA-TF-01..06, DBA-TF-10, DBA-OB-01/02,
DBA-RW-02, DBA-BSA-01, DBA-MG-01): arcs, the attack record, fire modes and tactical factors.

Reconstructed core: an attack is an opposed roll, the shooter's D6 + AF + tactical factors
against the target's D6 + DF + tactical factors (rolled and applied in :mod:`.outcomes`;
torpedo attacks are declared in :mod:`.torpedoes`).

Ships fire at full effect through their broadside arcs and at reduced effect (−2, DBA-TF-03)
through their bow and stern arcs. At close range a ship fires its normal factor at ships and its
close factor at TBD/TB (so open barbettes add the close factor as a second shot, DBA-OB-02).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from battleline.engine.geometry import in_arc
from battleline.errors import IllegalOrderError
from battleline.rulesets.dba.factors import (
    Flag,
    Layout,
    RangeBand,
    ShipFactors,
    ShipType,
)
from battleline.rulesets.dba.movement import hindered_by_rough_weather
from battleline.rulesets.dba.options import DEFAULT_OPTIONS, Options
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.tables import CoreTables, load_core

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
    mods.extend(common_modifiers(shooter, target, conditions, options, core))
    if options.open_barbettes and target.ship.open_barbettes and band is RangeBand.EXTREME:
        mods.append(Modifier("open barbettes DBA-OB-01", tf["open_barbettes_extreme"]))
    return tuple(mods)


def common_modifiers(
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
