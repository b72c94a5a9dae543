"""2nd Class TBs: basing, tactical launch, rough weather (DBA-BAS-01, DBA-TBL-01..06,
DBA-RW-03, AMB-91, AMB-97)."""

from __future__ import annotations

import pytest

from battleline.engine.geometry import Pose
from battleline.errors import IllegalOrderError, ScenarioError
from battleline.rulesets.dba.combat import Arc, gun_attacks
from battleline.rulesets.dba.factors import RangeBand, load_annex_a
from battleline.rulesets.dba.options import Options
from battleline.rulesets.dba.points import points_value
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.tables import Result
from battleline.rulesets.dba.torpedo_boats import (
    check_base,
    launch_limit,
    launch_tb,
    rough_weather_withdrawals,
    share_fate,
)

A = load_annex_a()
TB2 = A["2nd Class TB"]
ON = Options(tb_launch=True)


def mother(cls: str = "Inflexible", **kw: object) -> ShipStatus:
    kw.setdefault("stopped", True)
    return ShipStatus(A[cls], side="red", **kw)  # type: ignore[arg-type]


def test_DBA_BAS_01_what_one_base_may_hold() -> None:
    check_base([A["Majestic"]])
    check_base([A["Havock"], A["TB 81"]])
    check_base([A["Adventure"], A["Havock"]])
    check_base([A["Havock"], A["Sharpshooter"]])
    for bad in (
        [A["Majestic"], A["Havock"]],
        [A["Adventure"], A["Sharpshooter"]],
        [A["Havock"]] * 3,
        [],
    ):
        with pytest.raises(ScenarioError, match="DBA-BAS-01"):
            check_base(bad)


def test_DBA_TBL_01_prelaunched_tbs_are_simply_bought() -> None:
    """No special rule: a 2nd Class TB has a points value and moves like any ship."""
    assert points_value(TB2) >= 1


def test_DBA_TBL_02_launch_needs_a_stopped_uncrippled_mother_and_costs_a_nip() -> None:
    m = mother()
    launch = launch_tb(m, TB2, spell=5, launched_this_spell=0, options=ON)
    assert launch.nips == 1 and m.tbs_carried == 1 and launch.tb.side == "red"
    with pytest.raises(IllegalOrderError, match="DBA-TBL-02"):
        launch_tb(mother(stopped=False), TB2, spell=5, launched_this_spell=0, options=ON)
    with pytest.raises(IllegalOrderError, match="AMB-97"):
        launch_tb(mother(moved_this_spell=1), TB2, spell=5, launched_this_spell=0, options=ON)
    with pytest.raises(IllegalOrderError, match="crippled"):
        launch_tb(mother(crippled=True), TB2, spell=5, launched_this_spell=0, options=ON)
    with pytest.raises(IllegalOrderError, match="no paid-for TB"):
        launch_tb(mother("Majestic"), TB2, spell=5, launched_this_spell=0, options=ON)
    with pytest.raises(IllegalOrderError, match="tb_launch"):
        launch_tb(mother(), TB2, spell=5, launched_this_spell=0)
    with pytest.raises(IllegalOrderError, match="2nd Class"):
        launch_tb(mother(), A["Havock"], spell=5, launched_this_spell=0, options=ON)


def test_DBA_TBL_03_one_a_spell_from_warships_two_from_carriers() -> None:
    assert launch_limit(A["Inflexible"]) == 1 and launch_limit(A["Leander"]) == 1
    assert launch_limit(A["Vulcan"]) == 2 and launch_limit(A["Foudre"]) == 2
    with pytest.raises(IllegalOrderError, match="DBA-TBL-03"):
        launch_tb(mother(), TB2, spell=5, launched_this_spell=1, options=ON)
    v = mother("Vulcan")
    launch_tb(v, TB2, spell=5, launched_this_spell=1, options=ON)
    with pytest.raises(IllegalOrderError, match="at most 2"):
        launch_tb(v, TB2, spell=5, launched_this_spell=2, options=ON)


def test_DBA_TBL_04_05_launcher_holds_fire_tb_abeam_moves_next_spell() -> None:
    """DBA-TBL-04 (no fire that spell) and DBA-TBL-05 (own base abeam, moves next spell)."""
    m = mother()
    launch = launch_tb(
        m,
        TB2,
        spell=5,
        launched_this_spell=0,
        options=ON,
        pose=Pose(0.0, 0.0, 0.0),
        base_width=100.0,
        starboard=True,
    )
    assert m.no_fire_this_spell
    assert launch.pose is not None and launch.pose.x == pytest.approx(100.0)
    assert launch.pose.heading == 0.0 and launch.tb.name == "Inflexible TB 1"
    assert launch.moves_from_spell == 7  # its side's next spell
    with pytest.raises(IllegalOrderError, match="DBA-TBL-04"):
        gun_attacks(m, ShipStatus(A["Majestic"]), arc=Arc.PORT, band=RangeBand.NORMAL)


def test_DBA_TBL_06_tb_shares_its_mothers_fate_that_spell() -> None:
    m = mother()
    tb = launch_tb(m, TB2, spell=5, launched_this_spell=0, options=ON).tb
    assert share_fate(m, Result.NONE, [tb]) == []
    assert share_fate(m, Result.CRIPPLED, [tb]) == [Result.CRIPPLED] and tb.crippled
    tb2 = ShipStatus(TB2)
    assert share_fate(m, Result.SUNK, [tb2]) == [Result.SUNK] and tb2.sunk


def test_DBA_RW_03_second_class_tbs_go_home_in_rough_weather() -> None:
    ships = [ShipStatus(TB2, name="TB a"), ShipStatus(A["Havock"]), ShipStatus(TB2, name="TB b")]
    assert rough_weather_withdrawals(ships) == []
    assert rough_weather_withdrawals(ships, Options(rough_weather=True)) == ["TB a", "TB b"]
