"""Gunfire and torpedo attacks (DBA-TGT-01..05, DBA-TORP-01..07, DBA-SCG-01, DBA-TF-01..11,
DBA-OUT-01..06, DBA-OB-01/02, DBA-NET-03/04, DBA-RW-02, DBA-BSA-01/02, DBA-MG-01, EX-DRV-11)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.events import EventLog
from battleline.engine.geometry import Pose
from battleline.errors import IllegalOrderError
from battleline.rulesets.dba.combat import (
    Arc,
    Attack,
    Conditions,
    TargetEdge,
    arc_of,
    fire_mode,
    gun_attacks,
    secondary_af,
)
from battleline.rulesets.dba.factors import RangeBand, load_annex_a
from battleline.rulesets.dba.options import Options
from battleline.rulesets.dba.outcomes import (
    CombatRound,
    apply_attack,
    fall_out_of_line,
    outcome_result,
    roll_attack,
    table_outcome,
)
from battleline.rulesets.dba.status import ShipStatus, apply_result
from battleline.rulesets.dba.tables import Result
from battleline.rulesets.dba.torpedoes import multiple_torpedo_targets, torpedo_attack
from battleline.testing import FixedDice

A = load_annex_a()
N, C, L, X = RangeBand.NORMAL, RangeBand.CLOSE, RangeBand.LONG, RangeBand.EXTREME
SB, PT, BOW, STERN = Arc.STARBOARD, Arc.PORT, Arc.BOW, Arc.STERN


def s(cls: str, **kw: object) -> ShipStatus:
    return ShipStatus(A[cls], **kw)  # type: ignore[arg-type]


def rules(attack: Attack) -> set[str]:
    return {m.rule.split()[-1] for m in attack.shooter_mods}


def one(shooter: ShipStatus, target: ShipStatus, **kw: object) -> Attack:
    kw.setdefault("arc", SB)
    kw.setdefault("band", N)
    attacks = gun_attacks(shooter, target, **kw)  # type: ignore[arg-type]
    assert len(attacks) == 1
    return attacks[0]


def test_arcs_of_relative_bearings() -> None:
    assert [arc_of(t) for t in (0, 45, 90, 135, 180, 225, 270, 315, 330)] == [
        BOW,
        SB,
        SB,
        SB,
        STERN,
        PT,
        PT,
        PT,
        BOW,
    ]


# --- allocating targets -------------------------------------------------------------------
def test_core_full_on_the_beam_reduced_ahead_and_astern() -> None:
    m = A["Majestic"]
    assert fire_mode(m, arc=SB, band=N).reduced is False
    assert fire_mode(m, arc=BOW, band=N).reduced is True


def test_DBA_TGT_01_broadside_ships_both_beams_never_ends() -> None:
    w = A["Warrior"]
    assert not fire_mode(w, arc=SB, band=N).reduced
    assert not fire_mode(w, arc=PT, band=N, second_target=True).reduced
    for arc in (BOW, STERN):
        with pytest.raises(IllegalOrderError, match="DBA-TGT-01"):
            fire_mode(w, arc=arc, band=C)


def test_DBA_TGT_02_broadside_turret_ship_one_full_or_both_reduced() -> None:
    c = A["Captain"]
    assert not fire_mode(c, arc=SB, band=N).reduced
    assert fire_mode(c, arc=SB, band=N, both_broadsides=True).reduced
    assert fire_mode(c, arc=PT, band=N, second_target=True).reduced


def test_DBA_TGT_03_all_main_forward_no_reduction_ahead_no_fire_astern_far() -> None:
    r = A["Conqueror"]
    assert not fire_mode(r, arc=BOW, band=L).reduced
    assert not fire_mode(r, arc=BOW, band=X).reduced
    assert fire_mode(r, arc=BOW, band=N).reduced  # only at long and extreme
    with pytest.raises(IllegalOrderError, match="DBA-TGT-03"):
        fire_mode(r, arc=STERN, band=L)
    assert fire_mode(r, arc=STERN, band=N).reduced


def test_DBA_TGT_04_no_secondaries_one_full_or_both_reduced() -> None:
    d = A["Devastation"]
    assert not fire_mode(d, arc=SB, band=N).reduced
    assert fire_mode(d, arc=SB, band=N, both_broadsides=True).reduced
    assert fire_mode(d, arc=PT, band=N, second_target=True).reduced


def test_EX_DRV_11_DBA_TGT_05_opposite_broadside_secondaries() -> None:
    four = replace(A["Majestic"], secondaries=4)
    five = replace(A["Majestic"], secondaries=5)
    assert secondary_af(four) == 1 and secondary_af(five) == 2
    mode = fire_mode(five, arc=PT, band=N, second_target=True)
    assert (mode.af, mode.reduced) == (2, False)  # not reduced effect
    assert fire_mode(A["Brooklyn"], arc=PT, band=N, second_target=True).af == 1  # 1st class
    with pytest.raises(IllegalOrderError, match="DBA-TGT-05"):
        fire_mode(five, arc=PT, band=L, second_target=True)
    # a 2nd class cruiser's second target is simply at reduced effect
    leander = fire_mode(A["Leander"], arc=PT, band=N, second_target=True)
    assert leander.reduced and leander.af == 2


def test_x_factor_cannot_fire() -> None:
    with pytest.raises(IllegalOrderError, match="'x'"):
        fire_mode(A["Devastation"], arc=SB, band=X)


def test_DBA_MG_01_monster_guns_secondary_factor_in_enemy_spell() -> None:
    v = A["Victoria"]
    mg = Options(monster_guns=True)
    assert fire_mode(v, arc=SB, band=N, options=mg).af == 5
    assert fire_mode(v, arc=SB, band=N, own_spell=False, options=mg).af == 2
    assert fire_mode(v, arc=SB, band=N, own_spell=False).af == 5  # option off
    with pytest.raises(IllegalOrderError, match="DBA-MG-01"):
        fire_mode(v, arc=SB, band=X, own_spell=False, options=mg)


def test_DBA_BSA_01_lozenge_end_on_at_long_range_without_reduction() -> None:
    """DBA-BSA-01; DBA-BSA-03 (flavour): only at long and extreme range, in a corridor narrower
    than any wing turret's arc, and never at normal range where secondaries matter."""
    h = A["Hoche"]
    bsa = Options(bow_stern_arcs=True)
    mode = fire_mode(h, arc=BOW, band=L, in_corridor=True, options=bsa)
    assert not mode.reduced and mode.blast_risk
    assert fire_mode(h, arc=BOW, band=L, in_corridor=True, accept_reduced=True, options=bsa).reduced
    assert fire_mode(h, arc=BOW, band=N, in_corridor=True, options=bsa).reduced
    assert fire_mode(h, arc=BOW, band=L, in_corridor=False, options=bsa).reduced
    assert fire_mode(h, arc=BOW, band=L, in_corridor=True).reduced  # option off
    assert not fire_mode(A["Duilio"], arc=STERN, band=X, in_corridor=True, options=bsa).reduced


def test_DBA_BSA_02_a_one_is_blast_damage_for_two_fire_phases() -> None:
    bsa = Options(bow_stern_arcs=True)
    hoche, target = s("Hoche"), s("Majestic")
    atk = one(hoche, target, arc=BOW, band=L, in_corridor=True, options=bsa)
    dice = FixedDice([1, 6])
    apply_attack(roll_attack(atk, target, dice), hoche, target, dice, options=bsa)
    dice.assert_consumed()
    assert hoche.blast_ban == 2
    with pytest.raises(IllegalOrderError, match="DBA-BSA-02"):
        gun_attacks(hoche, target, arc=SB, band=N)
    # with the −1 (−2) accepted, a 1 does no harm to the firer
    other = s("Hoche")
    atk = one(other, target, arc=BOW, band=L, in_corridor=True, accept_reduced=True, options=bsa)
    dice = FixedDice([1, 6])
    apply_attack(roll_attack(atk, target, dice), other, target, dice, options=bsa)
    assert other.blast_ban == 0


# --- small calibre and tactical factors ---------------------------------------------------
def test_DBA_SCG_01_small_calibre_only_hurts_df_1_or_0() -> None:
    for shooter in ("Havock", "Sharpshooter", "Adventure", "TB 81"):
        assert gun_attacks(s(shooter), s("Majestic"), arc=SB, band=C) == []
    assert len(gun_attacks(s("Havock"), s("Leander"), arc=SB, band=C)) == 1
    assert len(gun_attacks(s("Sharpshooter"), s("Havock"), arc=SB, band=C)) == 1


def test_DBA_TF_01_crippled_shooter_or_target_minus_two() -> None:
    atk = one(s("Majestic", crippled=True), s("Mikasa", crippled=True))
    assert any(m.value == -2 and "DBA-TF-01" in m.rule for m in atk.shooter_mods)
    assert [m.value for m in atk.target_mods] == [-2]  # AMB-70: on the target's own roll


def test_DBA_TF_02_03_splash_and_reduced() -> None:
    atk = one(s("Majestic"), s("Mikasa"), arc=BOW, splash=-1)
    assert {"DBA-TF-02", "DBA-TF-03"} <= rules(atk)
    assert atk.attack_bonus == 4 - 1 - 2


def test_DBA_TF_04_05_06_torpedo_craft_at_extreme_and_in_the_dark_and_hindered() -> None:
    leander = replace(A["Leander"], af=replace(A["Leander"].af, extreme=1))
    shooter = ShipStatus(leander)
    assert "DBA-TF-04" in rules(one(shooter, s("Havock"), band=X))
    assert "DBA-TF-04" not in rules(one(shooter, s("Adventure"), band=X))
    night = Conditions(night=True)
    assert "DBA-TF-05" in rules(one(shooter, s("Havock"), conditions=night))
    lit = Conditions(night=True, searchlight=True)
    assert "DBA-TF-05" not in rules(one(shooter, s("Havock"), conditions=lit))
    assert "DBA-TF-05" in rules(one(shooter, s("Havock"), conditions=Conditions(dusk_or_dawn=True)))
    assert "DBA-TF-05" not in rules(one(shooter, s("Leander"), conditions=night))
    assert "DBA-TF-06" in rules(one(shooter, s("Leander"), conditions=Conditions(hindered=True)))


def test_DBA_TF_10_stopped_last_spell_and_uncrippled_target() -> None:
    assert "DBA-TF-10" in rules(one(s("Majestic"), s("Mikasa", stopped_last_spell=True)))
    crippled = s("Mikasa", stopped_last_spell=True, crippled=True)
    assert "DBA-TF-10" not in rules(one(s("Majestic"), crippled))


def test_DBA_RW_02_hindered_types_fire_at_minus_one_in_rough_weather() -> None:
    rough = Options(rough_weather=True)
    assert "DBA-RW-02" in rules(one(s("Leander"), s("Naniwa"), options=rough))
    assert "DBA-RW-02" not in rules(one(s("Majestic"), s("Naniwa"), options=rough))
    atk = torpedo_attack(s("Havock"), s("Majestic"), af=1, arc=BOW, band=C, options=rough)
    assert "DBA-RW-02" in rules(atk)


def test_DBA_OB_01_02_open_barbettes() -> None:
    """DBA-OB-01 (+1 at extreme) and DBA-OB-02 (close range: a second shot)."""
    ob = Options(open_barbettes=True)
    assert "DBA-OB-01" in rules(one(s("Majestic"), s("Royal Sovereign"), band=X, options=ob))
    assert "DBA-OB-01" not in rules(one(s("Majestic"), s("Royal Sovereign"), band=X))
    two = gun_attacks(s("Majestic"), s("Royal Sovereign"), arc=SB, band=C, options=ob)
    assert [a.af for a in two] == [4, 5]  # normal factor plus close factor
    assert (
        len(
            gun_attacks(
                s("Majestic"),
                s("Royal Sovereign"),
                arc=SB,
                band=C,
                options=ob,
                close_factor_on_torpedo_craft=True,
            )
        )
        == 1
    )
    assert len(gun_attacks(s("Majestic"), s("Mikasa"), arc=SB, band=C, options=ob)) == 1


# --- torpedoes ----------------------------------------------------------------------------
def test_DBA_TORP_01_factor_one_one_attack_per_game_uncrippled() -> None:
    """DBA-TORP-01; DBA-TORP-08 (flavour): the per-game allowance stops pot-shotting."""
    maj = s("Majestic")
    torpedo_attack(maj, s("Mikasa"), af=1, arc=SB, band=C)
    with pytest.raises(IllegalOrderError, match="DBA-TORP-01"):
        torpedo_attack(maj, s("Mikasa"), af=1, arc=SB, band=C)
    with pytest.raises(IllegalOrderError, match="crippled"):
        torpedo_attack(s("Majestic", crippled=True), s("Mikasa"), af=1, arc=SB, band=C)
    with pytest.raises(IllegalOrderError, match="no torpedo factor"):
        torpedo_attack(s("Devastation"), s("Mikasa"), af=1, arc=SB, band=C)


def test_DBA_TORP_02_factor_two_one_double_or_two_single_attacks() -> None:
    """DBA-TORP-02."""
    h = s("Havock")
    torpedo_attack(h, s("Majestic"), af=2, arc=BOW, band=C)
    with pytest.raises(IllegalOrderError):
        torpedo_attack(h, s("Majestic"), af=1, arc=BOW, band=C)
    h2 = s("Havock")
    torpedo_attack(h2, s("Majestic"), af=1, arc=BOW, band=C)
    torpedo_attack(h2, s("Majestic"), af=1, arc=BOW, band=C)
    assert h2.torpedo_used == 2


def test_DBA_TORP_03_enemy_spell_attacks_at_factor_one() -> None:
    """AMB-86: the enemy-spell attack spends one factor, one is kept."""
    h = s("Havock")
    with pytest.raises(IllegalOrderError, match="DBA-TORP-03"):
        torpedo_attack(h, s("Majestic"), af=2, arc=BOW, band=C, own_spell=False)
    torpedo_attack(h, s("Majestic"), af=1, arc=BOW, band=C, own_spell=False)
    assert h.torpedo_used == 1


def test_DBA_TORP_04_05_torpedo_arcs() -> None:
    """DBA-TORP-04 (TBD/TB bow or beam, full) and DBA-TORP-05 (others: beam full, ends
    reduced)."""
    assert not torpedo_attack(s("Havock"), s("Majestic"), af=1, arc=BOW, band=C).reduced
    assert not torpedo_attack(s("Havock"), s("Majestic"), af=1, arc=PT, band=C).reduced
    with pytest.raises(IllegalOrderError, match="DBA-TORP-04"):
        torpedo_attack(s("Havock"), s("Majestic"), af=1, arc=STERN, band=C)
    assert not torpedo_attack(s("Leander"), s("Majestic"), af=1, arc=SB, band=C).reduced
    assert torpedo_attack(s("Leander"), s("Majestic"), af=1, arc=BOW, band=C).reduced
    assert torpedo_attack(s("Leander"), s("Majestic"), af=1, arc=STERN, band=C).reduced


def test_DBA_TORP_07_marker_on_the_base() -> None:
    """DBA-TORP-07."""
    h = s("Havock")
    torpedo_attack(h, s("Majestic"), af=2, arc=BOW, band=C)
    assert h.torpedo_marker == 2


def test_DBA_TF_07_08_09_11_NET_03_torpedo_factors() -> None:
    opts = Options(nets=True)
    target = s("Majestic", moved_last_spell=3, nets_lowered=True)
    atk = torpedo_attack(
        s("Havock"),
        target,
        af=1,
        arc=BOW,
        band=N,
        edge=TargetEdge.STERN,
        multiple=True,
        options=opts,
    )
    assert {"DBA-TF-07", "DBA-TF-08", "DBA-TF-09", "DBA-TF-11", "DBA-NET-03"} <= rules(atk)
    assert atk.attack_bonus == 1 - 1 - 1 - 1 + 1 - 1
    plain = torpedo_attack(s("Havock"), s("Majestic", moved_last_spell=2), af=1, arc=BOW, band=C)
    assert rules(plain) == set()
    with pytest.raises(IllegalOrderError, match="normal range"):
        torpedo_attack(s("Havock"), s("Majestic"), af=1, arc=BOW, band=L)


def test_DBA_TF_11_other_torpedo_attack_on_the_same_or_an_adjacent_ship() -> None:
    flags = multiple_torpedo_targets(["A", "A", "B", "D"], {"B": ["C"], "C": ["B", "D"]})
    assert flags == [True, True, False, False]
    assert multiple_torpedo_targets(["B", "C"], {"B": ["C"]}) == [True, False]


# --- outcomes -----------------------------------------------------------------------------
def test_opposed_roll_outcomes() -> None:
    assert table_outcome(5, 6) == "lost"
    assert table_outcome(6, 6) == "draw"
    assert table_outcome(7, 6) == "beaten"
    assert table_outcome(12, 6) == "doubled"
    assert table_outcome(1, 0) == "doubled"


def test_gunfire_rolled_and_narrated() -> None:
    log = EventLog()
    maj, mik = s("Majestic"), s("Mikasa")
    dice = FixedDice([5, 2], log=log)
    r = roll_attack(one(maj, mik), mik, dice, log=log)
    assert (r.attack_total, r.defence_total, r.outcome, r.result) == (
        9,
        6,
        "beaten",
        Result.DAMAGED,
    )
    assert "Majestic → Mikasa: gunfire 5+4 = 9 vs 2+4 = 6 → beaten, damaged" in log.events[-1].text
    dice = FixedDice([6, 1])
    assert roll_attack(one(maj, mik), mik, dice).result is Result.CRIPPLED


def test_DBA_OUT_01_torpedo_attack_rows() -> None:
    maj, tbd = A["Majestic"], A["Havock"]
    assert outcome_result(maj, "beaten", torpedo=False) is Result.DAMAGED
    assert outcome_result(maj, "beaten", torpedo=True) is Result.CRIPPLED
    assert outcome_result(maj, "doubled", torpedo=True) is Result.SUNK
    assert outcome_result(tbd, "beaten", torpedo=False) is Result.CRIPPLED  # "other" column
    assert outcome_result(tbd, "beaten", torpedo=True) is Result.DAMAGED


def test_DBA_OUT_02_crippled_by_torpedo_starts_flooding() -> None:
    """DBA-OUT-02."""
    h, maj = s("Havock"), s("Majestic")
    atk = torpedo_attack(h, maj, af=2, arc=BOW, band=C)
    dice = FixedDice([4, 2])
    rolled = roll_attack(atk, maj, dice)
    assert rolled.result is Result.CRIPPLED
    assert apply_attack(rolled, h, maj, dice) is Result.CRIPPLED
    dice.assert_consumed()
    assert maj.crippled and maj.flooding
    gun = s("Mikasa")
    apply_result(gun, Result.CRIPPLED, cause="gunfire")
    assert not gun.flooding


def test_DBA_OUT_03_crippled_ship_falls_out_one_base_width_away_from_fire() -> None:
    """DBA-OUT-03."""
    pose = Pose(0.0, 0.0, 0.0)  # heading north
    out = fall_out_of_line(pose, fire_bearing=90.0, base_width=185.2)  # fire from the east
    assert out.x == pytest.approx(-185.2) and out.y == pytest.approx(0.0)
    assert out.heading == 0.0  # front edge stays on the original heading
    out = fall_out_of_line(Pose(0, 0, 90.0), fire_bearing=0.0, base_width=100)  # from port
    assert out.y == pytest.approx(-100) and out.x == pytest.approx(0)


def test_DBA_OUT_04_special_protection_takes_three_damage_hits() -> None:
    """DBA-OUT-04: AMB-77: normal ships crippled by the 3rd damaged result, special by the 4th."""
    normal, special = s("Brooklyn"), s("Powerful")
    for _ in range(3):
        apply_result(normal, Result.DAMAGED, cause="gunfire")
        apply_result(special, Result.DAMAGED, cause="gunfire")
    assert normal.crippled and not special.crippled and special.damage == 3
    apply_result(special, Result.DAMAGED, cause="gunfire")
    assert special.crippled


def test_DBA_OUT_05_second_class_tb_crippled_if_already_damaged() -> None:
    """DBA-OUT-05."""
    tb = s("2nd Class TB")
    assert apply_result(tb, Result.DAMAGED, cause="gunfire") is Result.DAMAGED
    assert apply_result(tb, Result.DAMAGED, cause="gunfire") is Result.CRIPPLED


def _draw(target: ShipStatus, torpedo: bool) -> Result:
    atk = Attack("Shooter", target.name, torpedo, 3)
    rolled = roll_attack(atk, target, FixedDice([target.ship.df + 1, 4]))
    assert rolled.outcome == "draw"
    return apply_attack(rolled, s("Majestic"), target, FixedDice([]))


def test_DBA_OUT_06_inferior_protection_draws() -> None:
    """DBA-OUT-06."""
    assert _draw(s("Charles Martel"), False) is Result.DAMAGED
    assert _draw(s("Charles Martel", damage=2), False) is Result.CRIPPLED
    assert _draw(s("Charles Martel"), True) is Result.CRIPPLED
    assert _draw(s("Mikasa"), False) is Result.NONE  # a normal ship shrugs off a draw


def test_DBA_NET_04_damaged_netted_ship_may_foul() -> None:
    nets = Options(nets=True)
    target = s("Majestic", nets_lowered=True)
    rolled = roll_attack(one(s("Mikasa"), target), target, FixedDice([5, 2]))
    dice = FixedDice([5])
    apply_attack(rolled, s("Mikasa"), target, dice, options=nets)
    dice.assert_consumed()
    assert target.fouled and target.stopped and not target.crippled  # AMB-87
    raised = s("Majestic")
    dice = FixedDice([5])
    apply_attack(rolled, s("Mikasa"), raised, dice, options=nets)
    assert not raised.fouled  # raised nets foul only on a 6


def test_DBA_TORP_06_torpedoes_first_but_not_counted_for_this_turns_gunfire() -> None:
    """DBA-TORP-06:
    AMB-85: a ship crippled by torpedo still fires and defends uncrippled this turn."""
    ships = {n: s(n) for n in ("Havock", "Majestic", "Mikasa")}
    torp = torpedo_attack(ships["Havock"], ships["Majestic"], af=2, arc=BOW, band=C)
    gun = one(ships["Majestic"], ships["Mikasa"])
    gun_at = one(ships["Mikasa"], ships["Majestic"])
    rnd = CombatRound(ships, [torp], [gun, gun_at])
    log = EventLog()
    dice = FixedDice([4, 2, 3, 3, 3, 3], log=log)
    results = rnd.resolve(dice, log=log)
    dice.assert_consumed()
    assert [r.attack.torpedo for r, _ in results] == [True, False, False]
    first_gun_roll = next(i for i, e in enumerate(log.events) if "gunfire" in e.text)
    first_torp = next(i for i, e in enumerate(log.events) if "torpedo" in e.text)
    assert first_torp < first_gun_roll
    # the gunfire at Majestic used her uncrippled defence: 3+4 vs 3+3 → beaten, not doubled
    assert results[2][0].defence_total == 6 and results[2][0].outcome == "beaten"
    # gunfire damaged her first, then the torpedo crippled her (and she floods)
    assert results[2][1] is Result.DAMAGED and results[0][1] is Result.CRIPPLED
    assert ships["Majestic"].crippled and ships["Majestic"].flooding and not ships["Majestic"].sunk


@given(a=st.integers(1, 6), d=st.integers(1, 6), af=st.integers(0, 6), df=st.integers(0, 4))
def test_more_attack_never_gives_a_milder_result(a: int, d: int, af: int, df: int) -> None:
    order = [Result.NONE, Result.DAMAGED, Result.CRIPPLED, Result.SUNK]
    for torpedo in (False, True):
        for target in (A["Majestic"], A["Havock"]):
            lo = outcome_result(target, table_outcome(a + af, d + df), torpedo=torpedo)
            hi = outcome_result(target, table_outcome(a + af + 1, d + df), torpedo=torpedo)
            assert order.index(hi) >= order.index(lo)
