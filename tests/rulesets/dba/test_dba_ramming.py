"""Ramming (DBA-RAM-01..17, EX-DRV-10, EX-DBA-06, REF-DBA-04, AMB-79..83)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.errors import IllegalOrderError
from battleline.rulesets.dba.factors import load_annex_a
from battleline.rulesets.dba.options import Options
from battleline.rulesets.dba.ramming import (
    Edge,
    Formation,
    MoveKey,
    Placement,
    RamAttempt,
    RamKind,
    collision_move_order,
    ram_effect,
    ram_kind,
    ram_score,
    ram_test,
    relative_size,
    resolve_movers,
    resolve_ram,
)
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.tables import RamResult, Result
from battleline.testing import FixedDice

A = load_annex_a()
VOL, INVOL = RamKind.VOLUNTARY, RamKind.INVOLUNTARY
SEVERITY = [Result.NONE, Result.DAMAGED, Result.CRIPPLED, Result.SUNK]


def s(cls: str, **kw: object) -> ShipStatus:
    return ShipStatus(A[cls], **kw)  # type: ignore[arg-type]


def test_DBA_RAM_01_voluntary_only_against_enemies_on_purpose() -> None:
    assert ram_kind(same_side=False, wishes_to_ram=True) is VOL
    assert ram_kind(same_side=False, wishes_to_ram=False) is INVOL
    assert ram_kind(same_side=True, wishes_to_ram=True) is INVOL


def test_DBA_RAM_02_friendly_collision_move_order() -> None:
    """DBA-RAM-02."""
    movers = [
        MoveKey("big-fast", False, 2, 3, 6),
        MoveKey("compulsory", True, 6, 4, 1),
        MoveKey("low-nips", False, 1, 4, 2),
        MoveKey("big-slow", False, 2, 2, 6),
        MoveKey("small-slow", False, 2, 2, 3),
    ]
    assert collision_move_order(movers) == [
        "compulsory",
        "low-nips",
        "big-slow",
        "small-slow",
        "big-fast",
    ]


def test_DBA_RAM_03_moves_must_be_declared() -> None:
    with pytest.raises(IllegalOrderError, match="DBA-RAM-03"):
        ram_test(
            s("Majestic"),
            s("Mikasa"),
            FixedDice([6]),
            kind=VOL,
            edge=Edge.BROADSIDE,
            declared_bases=None,
            target_speed=0,
        )


def _score(roll: int, kind: RamKind, edge: Edge, declared: int = 2, target_speed: int = 2):  # type: ignore[no-untyped-def]
    dice = FixedDice([roll])
    t = ram_test(
        s("Majestic"),
        s("Mikasa"),
        dice,
        kind=kind,
        edge=edge,
        declared_bases=declared,
        target_speed=target_speed,
    )
    dice.assert_consumed()
    return t


def test_EX_DRV_10_thresholds() -> None:
    """DBA-RAM-07, DBA-RAM-08, DBA-RAM-09 with D6 + 2 bases − 2 bases = the roll (DBA-RAM-05)."""
    assert _score(5, VOL, Edge.BROADSIDE).effective
    assert not _score(4, VOL, Edge.BROADSIDE).effective
    assert _score(6, INVOL, Edge.BROADSIDE).effective
    assert not _score(5, INVOL, Edge.BROADSIDE).effective
    assert _score(6, VOL, Edge.BOW).effective and not _score(5, VOL, Edge.STERN).effective
    # bow/stern involuntary: 7 effective, 6 not (AMB-79: "at least")
    assert _score(6, INVOL, Edge.BOW, declared=3).score == 7
    assert _score(6, INVOL, Edge.BOW, declared=3).effective
    assert not _score(6, INVOL, Edge.BOW).effective
    # 1 or 0: the target rams the rammer, voluntary or not
    assert _score(1, VOL, Edge.BROADSIDE).counter_ram
    zero = _score(1, INVOL, Edge.BOW, declared=1)
    assert zero.score == 0 and zero.counter_ram
    assert not _score(2, VOL, Edge.BROADSIDE).counter_ram


def test_DBA_RAM_05_06_score_speeds_and_ram_manoeuvrability() -> None:
    """DBA-RAM-05 and DBA-RAM-06 (AMB-80): a ram rammer adds 1, a ram target takes 1 off; two
    rams cancel."""
    m, c, p = A["Majestic"], A["Conqueror"], A["Polyphemus"]
    assert ram_score(3, rammer=m, target=m, declared_bases=2, target_speed=1) == 4
    assert ram_score(3, rammer=c, target=m, declared_bases=2, target_speed=1) == 5
    assert ram_score(3, rammer=m, target=c, declared_bases=2, target_speed=1) == 3
    assert ram_score(3, rammer=c, target=p, declared_bases=2, target_speed=1) == 4
    assert ram_score(3, rammer=c, target=m, declared_bases=2, target_speed=1, rammer_adjust=0) == 4


def test_DBA_RAM_11_relative_size_levels() -> None:
    """DBA-RAM-11."""
    m = A["Majestic"]
    assert relative_size(m, A["Mikasa"], rammer_bases=2) == "same"
    assert relative_size(m, A["Leander"], rammer_bases=2) == "larger"
    assert relative_size(m, A["Havock"], rammer_bases=2) == "much_larger"
    assert relative_size(m, A["Mikasa"], rammer_bases=1) == "smaller"  # −1 level at 1 base
    assert relative_size(A["Havock"], m, rammer_bases=1) == "smaller"  # the floor
    assert relative_size(A["Conqueror"], m, rammer_bases=2) == "same"  # a ram: +1 level


def test_EX_DBA_06_stern_ram_drops_every_result_a_level() -> None:
    """DBA-RAM-16: a "Sunk" becomes "Crippled", and the rammer's result drops too."""
    assert ram_effect("larger", edge=Edge.BOW) == (RamResult.D, RamResult.S)
    assert ram_effect("larger", edge=Edge.STERN) == (RamResult.OK, RamResult.C)
    assert ram_effect("same", edge=Edge.STERN) == (RamResult.OK, RamResult.D)
    # AMB-81: bow-edge contact is not reduced
    assert ram_effect("same", edge=Edge.BOW) == ram_effect("same", edge=Edge.BROADSIDE)


def test_DBA_RAM_12_13_broadside_ram_damaged_target_stops_and_floods() -> None:
    """DBA-RAM-12:
    AMB-82: the ship given D stops; D and C start flooding. Havock (smaller) rams Majestic."""
    havock, maj = s("Havock"), s("Majestic")
    out = resolve_ram(
        havock, maj, FixedDice([6]), kind=VOL, edge=Edge.BROADSIDE, declared_bases=2, target_speed=0
    )
    assert out.effective and out.level == "smaller"
    assert (out.rammer_result, out.target_result) == (RamResult.C, RamResult.D)
    assert maj.damage == 1 and maj.stopped and maj.flooding
    # DBA-RAM-14: the crippled rammer stops without passing through
    assert havock.crippled and havock.flooding and out.placement is Placement.STOPS_SHORT


def test_DBA_RAM_13_bow_ram_damaged_rammer_broadside_to_broadside_not_stopped() -> None:
    a, b = s("Majestic"), s("Mikasa")
    out = resolve_ram(
        a, b, FixedDice([6]), kind=VOL, edge=Edge.BOW, declared_bases=2, target_speed=0
    )
    assert out.rammer_result is RamResult.D and out.target_result is RamResult.C
    assert out.placement is Placement.BROADSIDE_TO_BROADSIDE
    assert not a.stopped and not out.rammer_stopped and b.crippled and b.flooding


def test_DBA_RAM_14_bow_ram_crippled_rammer_stops_broadside_to_broadside() -> None:
    a = s("Havock")
    out = resolve_ram(
        a, s("Majestic"), FixedDice([6]), kind=VOL, edge=Edge.BOW, declared_bases=3, target_speed=0
    )
    assert out.rammer_result is RamResult.C
    assert out.placement is Placement.BROADSIDE_TO_BROADSIDE and out.rammer_stopped


def test_DBA_RAM_15_ok_rammer_continues() -> None:
    """DBA-RAM-15."""
    a, b = s("Majestic"), s("Havock")
    out = resolve_ram(
        a, b, FixedDice([6]), kind=VOL, edge=Edge.BROADSIDE, declared_bases=2, target_speed=0
    )
    assert out.rammer_result is RamResult.OK and out.placement is Placement.PASSES_THROUGH
    assert b.sunk and a.damage == 0


def test_DBA_RAM_10_no_effective_ram_passes_through_or_ends_alongside() -> None:
    """DBA-RAM-10."""
    out = resolve_ram(
        s("Majestic"),
        s("Mikasa"),
        FixedDice([3]),
        kind=VOL,
        edge=Edge.BROADSIDE,
        declared_bases=2,
        target_speed=2,
        bases_left=1,
    )
    assert not out.effective and out.placement is Placement.PASSES_THROUGH
    out = resolve_ram(
        s("Majestic"),
        s("Mikasa"),
        FixedDice([3]),
        kind=VOL,
        edge=Edge.BOW,
        declared_bases=2,
        target_speed=2,
        bases_left=1,
    )
    assert out.placement is Placement.BROADSIDE_TO_BROADSIDE
    out = resolve_ram(
        s("Majestic"),
        s("Mikasa"),
        FixedDice([3]),
        kind=VOL,
        edge=Edge.BOW,
        declared_bases=2,
        target_speed=2,
        bases_left=2,
    )
    assert out.placement is Placement.PASSES_THROUGH


def test_DBA_RAM_09_counter_ram_target_strikes_the_mover() -> None:
    mover, target = s("Havock"), s("Majestic")
    out = resolve_ram(
        mover, target, FixedDice([1]), kind=VOL, edge=Edge.BOW, declared_bases=1, target_speed=2
    )
    assert out.counter_ram and not out.effective
    assert mover.sunk  # a battleship's counter-ram on a TBD: much larger
    assert out.rammer_final is Result.SUNK


def test_DBA_RAM_17_damage_on_twice_damaged_cripples_on_crippled_no_more_both_flood() -> None:
    """DBA-RAM-17."""
    twice, crippled = s("Mikasa", damage=2), s("Mikasa", crippled=True)
    resolve_ram(
        s("Havock"),
        twice,
        FixedDice([6]),
        kind=VOL,
        edge=Edge.BROADSIDE,
        declared_bases=2,
        target_speed=0,
    )
    assert twice.crippled and twice.flooding and not twice.sunk
    out = resolve_ram(
        s("Havock"),
        crippled,
        FixedDice([6]),
        kind=VOL,
        edge=Edge.BROADSIDE,
        declared_bases=2,
        target_speed=0,
    )
    assert out.target_final is Result.NONE and crippled.flooding and not crippled.sunk


def test_DBA_RAM_04_closest_first_first_effective_ends_tests() -> None:
    """DBA-RAM-04."""
    target = s("Mikasa")
    near, far = s("Majestic", name="Near"), s("Majestic", name="Far")
    attempts = [
        RamAttempt(far, VOL, Edge.BROADSIDE, 2, distance=3.0),
        RamAttempt(near, VOL, Edge.BROADSIDE, 2, distance=1.0),
    ]
    dice = FixedDice([2, 6])
    outs = resolve_movers(attempts, target, dice, formation=Formation.LINE_AHEAD, target_speed=0)
    dice.assert_consumed()
    assert [o.rammer for o in outs] == ["Near", "Far"] and outs[1].effective
    dice = FixedDice([6])
    outs = resolve_movers(
        attempts, s("Mikasa"), dice, formation=Formation.LINE_AHEAD, target_speed=0
    )
    assert len(outs) == 1  # the Far ship is ignored after an effective ram


def test_DBA_RAM_04_counter_ram_abreast_ends_astern_continues_against_stationary() -> None:
    """DBA-RAM-04."""

    def attempts() -> list[RamAttempt]:
        return [
            RamAttempt(s("Havock", name=f"TBD{i}"), VOL, Edge.BROADSIDE, 1, distance=i)
            for i in (1, 2)
        ]

    dice = FixedDice([1])
    outs = resolve_movers(
        attempts(), s("Majestic"), dice, formation=Formation.LINE_ABREAST, target_speed=1
    )
    assert len(outs) == 1 and outs[0].counter_ram
    dice = FixedDice([1, 4])
    outs = resolve_movers(
        attempts(), s("Majestic"), dice, formation=Formation.LINE_AHEAD, target_speed=1
    )
    dice.assert_consumed()
    assert outs[0].counter_ram
    assert outs[1].test.score == 4 + 1 - 0 and outs[1].effective  # target now stationary


def test_ramming_can_be_switched_off() -> None:
    with pytest.raises(IllegalOrderError, match="switched off"):
        resolve_ram(
            s("Majestic"),
            s("Mikasa"),
            FixedDice([6]),
            kind=VOL,
            edge=Edge.BOW,
            declared_bases=2,
            target_speed=0,
            options=Options(ramming=False),
        )


NAMES = ["Majestic", "Havock", "Leander", "Conqueror", "Polyphemus", "2nd Class TB", "Katahdin"]


@given(
    rammer=st.sampled_from(NAMES),
    target=st.sampled_from(NAMES),
    roll=st.integers(1, 6),
    bases=st.integers(1, 3),
    target_speed=st.integers(0, 3),
    damage=st.integers(0, 2),
    kind=st.sampled_from([VOL, INVOL]),
)
def test_stern_ram_never_worse_for_the_target_than_the_same_bow_ram(
    rammer: str,
    target: str,
    roll: int,
    bases: int,
    target_speed: int,
    damage: int,
    kind: RamKind,
) -> None:
    """DBA-RAM-16 as a property, for both ships."""
    finals = {}
    for edge in (Edge.BOW, Edge.STERN):
        r, t = s(rammer), s(target, damage=damage)
        out = resolve_ram(
            r,
            t,
            FixedDice([roll]),
            kind=kind,
            edge=edge,
            declared_bases=bases,
            target_speed=target_speed,
        )
        finals[edge] = (SEVERITY.index(out.target_final), SEVERITY.index(out.rammer_final))
    assert finals[Edge.STERN][0] <= finals[Edge.BOW][0]
    assert finals[Edge.STERN][1] <= finals[Edge.BOW][1]
