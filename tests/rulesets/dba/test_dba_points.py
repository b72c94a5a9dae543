"""Points values (DBA-PV-01/02, DBA-TYPE-08, EX-DRV-12)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from battleline.rulesets.dba.factors import (
    AttackFactors,
    Flag,
    Layout,
    Protection,
    ShipFactors,
    ShipType,
    SpeedMark,
    load_annex_a,
)
from battleline.rulesets.dba.points import points_breakdown, points_value

A = load_annex_a()


def ship(**kw: object) -> ShipFactors:
    base = ShipFactors("Test", ShipType.BATTLESHIP, AttackFactors(4, 3, 2, None), df=3, speed=2)
    return replace(base, **kw)  # type: ignore[arg-type]


def test_EX_DRV_12_pv_with_x_extreme() -> None:
    """DBA-PV-01: AF N 3 + AF X "x"(0) + DF 3 (+1) + speed 2 − 1 = 8 (AMB-88)."""
    s = ship()
    assert points_value(s) == 8
    b = points_breakdown(s)
    assert (b.af_normal, b.af_extreme, b.defence, b.speed, b.extreme_x) == (3, 0, 4, 2, -1)


def test_DBA_PV_01_df4_star_special_and_df0_halving() -> None:
    assert points_value(ship(df=4)) == 3 + 0 + 4 + 3 + 2 - 1
    assert points_value(ship(speed_mark=SpeedMark.SLOW)) == 7
    assert points_value(ship(protection=Protection.SPECIAL)) == 9
    tbd = ship(
        type=ShipType.TBD, af=AttackFactors(1, 1, None, None), df=0, speed_mark=SpeedMark.FAST
    )
    # (1 + 0 + 0 + 3 − 1) / 2 = 1.5 → 1 (AMB-88 rounds down); a TBD pair costs 2.
    assert points_value(tbd) == 1
    assert points_value(A["Havock"]) * 2 == 2


def test_DBA_PV_02_monster_guns_average_factors() -> None:
    """DBA-PV-02."""
    s = ship(af=AttackFactors(5, 5, 3, 2), monster_af=AttackFactors(3, 2, 1, None))
    b = points_breakdown(s)
    assert (b.af_normal, b.af_extreme) == (3, 1)  # (5+2)//2, (2+0)//2


def test_DBA_TYPE_08_no_discount_for_bad_boats_broadside_inferior_or_extra_for_rams() -> None:
    plain = points_value(ship())
    for kw in (
        {"flags": frozenset({Flag.BAD_SEA_BOAT})},
        {"layout": Layout.BROADSIDE},
        {"protection": Protection.INFERIOR},
        {"flags": frozenset({Flag.RAM})},
    ):
        assert points_value(ship(**kw)) == plain, kw
    assert points_value(ship(protection=Protection.SPECIAL)) == plain + 1


def test_standard_types_land_on_dbsa_base_points() -> None:
    """The reconstructed Annex A is calibrated to the public DBSA points (rules-context.md)."""
    assert points_value(A["Majestic"]) == 12
    assert points_value(A["Brooklyn"]) == 8
    assert points_value(A["Leander"]) == 6
    assert points_value(A["Adventure"]) == 4


@given(af_n=st.integers(0, 6), df=st.integers(1, 4), speed=st.integers(1, 4))
def test_pv_grows_with_each_factor(af_n: int, df: int, speed: int) -> None:
    s = ship(af=AttackFactors(af_n, af_n, 1, 1), df=df, speed=speed)
    assert points_value(replace(s, af=AttackFactors(af_n + 1, af_n + 1, 1, 1))) > points_value(s)
    assert points_value(replace(s, speed=speed + 1)) > points_value(s)
    if df < 4:
        assert points_value(replace(s, df=df + 1)) > points_value(s)
