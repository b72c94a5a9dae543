"""NIPs and movement (DBA-TYPE-01, DBA-MOV-01..03, DBA-NET-01/02, DBA-RW-01/02, AMB-84/89)."""

from __future__ import annotations

import pytest

from battleline.errors import IllegalOrderError
from battleline.rulesets.dba.factors import load_annex_a
from battleline.rulesets.dba.movement import (
    TurnTogetherLock,
    change_nets_cost,
    check_allocation,
    group_move_cost,
    move_cost,
    roll_nips,
    speed_limit,
)
from battleline.rulesets.dba.options import Options
from battleline.rulesets.dba.status import ShipStatus
from battleline.testing import FixedDice

A = load_annex_a()


def st(name: str, **kw: object) -> ShipStatus:
    return ShipStatus(A[name], **kw)  # type: ignore[arg-type]


def test_nips_one_d6_per_squadron() -> None:
    dice = FixedDice([4])
    assert roll_nips("1st BS", dice) == 4
    dice.assert_consumed()


def test_DBA_TYPE_01_star_ship_pays_for_its_second_move() -> None:
    assert move_cost(st("Majestic"), 2).nips == 1
    assert move_cost(st("Devastation"), 2).nips == 2
    assert move_cost(st("Devastation"), 1).nips == 1


def test_DBA_MOV_01_two_plus_extra_free_move_straight_ahead() -> None:
    c = move_cost(st("Havock"), 3)
    assert c.nips == 1 and c.free_extra
    with pytest.raises(IllegalOrderError, match="DBA-MOV-01"):
        move_cost(st("Havock"), 4)
    with pytest.raises(IllegalOrderError):
        move_cost(st("Majestic"), 3)


def test_DBA_RW_01_rough_weather_loses_the_free_move() -> None:
    """AMB-89: the "fast" ships are the "2+" ships."""
    with pytest.raises(IllegalOrderError, match="rough weather"):
        move_cost(st("Havock"), 3, options=Options(rough_weather=True))


def test_DBA_RW_02_hindered_types_lose_a_base() -> None:
    rough = Options(rough_weather=True)
    assert speed_limit(st("Havock"), rough) == 1  # TBD
    assert speed_limit(st("Royal Sovereign"), rough) == 1  # bad sea boat
    assert speed_limit(st("Leander"), rough) == 1  # 2nd class cruiser
    assert speed_limit(st("Majestic"), rough) == 2  # unaffected battleship
    assert speed_limit(st("Brooklyn"), rough) == 2  # 1st class cruiser


def test_crippled_ships_limp_one_base() -> None:
    with pytest.raises(IllegalOrderError, match="crippled"):
        move_cost(st("Majestic", crippled=True), 2)


def test_DBA_NET_01_02_nets_cost_a_nip_cap_speed_and_turns_cost_more() -> None:
    opts = Options(nets=True)
    group = [st("Majestic"), st("Mikasa")]
    assert change_nets_cost(group, lower=True, options=opts) == 1  # as a group move
    assert all(s.nets_lowered for s in group)
    assert move_cost(group[0], 1, turns=1, options=opts).nips == 2
    with pytest.raises(IllegalOrderError, match="DBA-NET-02"):
        move_cost(group[0], 2, options=opts)
    with pytest.raises(IllegalOrderError, match="no anti-torpedo nets"):
        change_nets_cost([st("Oregon")], lower=True, options=opts)
    with pytest.raises(IllegalOrderError, match="not in play"):
        change_nets_cost(group, lower=False)


def test_group_move_costs_its_dearest_member() -> None:
    assert group_move_cost([st("Majestic"), st("Devastation")], 2).nips == 2


def test_DBA_MOV_02_crippled_ships_first_before_two_nips_elsewhere() -> None:
    ships = [st("Majestic", crippled=True), st("Mikasa"), st("Oregon")]
    with pytest.raises(IllegalOrderError, match=r"Mikasa may not get 2 NIPs.*Majestic.*DBA-MOV-02"):
        check_allocation("1st BS", ships, {"Mikasa": 2})
    check_allocation("1st BS", ships, {"Mikasa": 1, "Oregon": 1})  # single NIPs are fine
    check_allocation("1st BS", ships, {"Majestic": 1, "Mikasa": 2})
    with pytest.raises(IllegalOrderError, match="DBA-MOV-02"):
        check_allocation("1st BS", ships, {"line": 2}, groups={"line": ["Mikasa", "Oregon"]})
    # a group containing the crippled ship serves it
    check_allocation("1st BS", ships, {"all": 2}, groups={"all": ["Majestic", "Mikasa", "Oregon"]})
    with pytest.raises(IllegalOrderError, match="only 3 rolled"):
        check_allocation("1st BS", ships, {"Majestic": 2, "Mikasa": 2}, nips=3)


def test_DBA_MOV_03_turn_together_into_line_abreast_locks_group_turns() -> None:
    """AMB-84: the rest of that spell and the squadron's whole next spell (spells alternate)."""
    lock = TurnTogetherLock()
    lock.turned_together("1st BS", 3, into_line_abreast=True)
    for spell in (3, 4, 5):
        with pytest.raises(IllegalOrderError, match="DBA-MOV-03"):
            lock.check("1st BS", spell)
    lock.check("1st BS", 7)
    assert not lock.locked("2nd BS", 4)
    other = TurnTogetherLock()
    other.turned_together("1st BS", 3, into_line_abreast=False)
    assert not other.locked("1st BS", 3)
