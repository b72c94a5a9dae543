"""One flood hit: column, Occurrence roll, compartment, level, effects (BF6-DMG-06/08/12,
BF6-FLD-01, AMB-23, BF12C-FLOOD-02/03)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.events import EventKind, EventLog
from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.charts import load_charts
from battleline.rulesets.bf1900.damage.codes import apply_codes
from battleline.rulesets.bf1900.damage.context import DamageContext
from battleline.rulesets.bf1900.damage.flooding import column_name, resolve_flood_hit
from battleline.rulesets.bf1900.hits import Aspect
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, Rating
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.testing import FixedDice, SeededDice
from conftest import majestic

CHARTS = load_charts()


class Recorder:
    """An ``ApplyCodes`` double: records what would be applied."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[str, ...], DamageContext]] = []

    def __call__(self, log: ShipLog, codes: Sequence[str], ctx: DamageContext) -> None:
        self.calls.append((log.name, tuple(codes), ctx))

    @property
    def codes(self) -> list[tuple[str, ...]]:
        return [c for _, c, _ in self.calls]


def battleship(size: int = 8) -> ShipLog:
    cls = dataclasses.replace(majestic(), size=size, flood_protection=Rating.GOOD)
    return ShipLog("Majestic", cls)


def ctx(
    dice: FixedDice | SeededDice,
    *,
    weapon_size: float | None = 8,
    aspect: Aspect | None = Aspect.PORT,
    cause: str = "torpedo",
    events: EventLog | None = None,
) -> DamageContext:
    return DamageContext(
        CHARTS, dice, events if events is not None else EventLog(), aspect, weapon_size, cause
    )


def test_plain_fl_takes_the_weapon_size_column_and_the_embattled_side() -> None:
    """Size 8 against size 8 is 100 % → "100>"; 4 → Heavy; 1D6 3 on the port side → port
    amidships (BF6-FLD-01, EX-BF6-15); then one roll on the Heavy effects line."""
    log, dice, rec, events = battleship(8), FixedDice([4, 3, 5]), Recorder(), EventLog()
    level = resolve_flood_hit(log, ctx(dice, events=events), apply=rec)
    dice.assert_consumed()
    assert level is FloodLevel.HEAVY
    assert log.compartments[Compartment.PORT].level is FloodLevel.HEAVY
    assert rec.codes == [CHARTS.flood_effect(FloodLevel.HEAVY, 5)] == [("P",)]
    assert rec.calls[0][2].cause == "torpedo" and rec.calls[0][2].depth == 1
    texts = [e.text for e in events.of_kind(EventKind.FLOODING)]
    assert "Majestic: FL (100> column) rolls 4 → Heavy flooding in port amidships" in texts
    assert "Majestic: Heavy flooding effects roll 5 → P" in texts


def test_EX_BF12C_05_analogue_fixed_column_code() -> None:
    """A 150FL result rolls in the "150>" column, whatever the weapon."""
    log, dice, rec = battleship(), FixedDice([1, 1]), Recorder()
    level = resolve_flood_hit(
        log, ctx(dice, weapon_size=None), column=150, compartment=Compartment.STARBOARD, apply=rec
    )
    dice.assert_consumed()
    assert level is CHARTS.flood_occurrence("150>", 1) is FloodLevel.MODERATE
    assert log.compartments[Compartment.STARBOARD].level is FloodLevel.MODERATE
    assert rec.calls == []  # Moderate effects face 1 is "-"
    assert column_name(150) == column_name("150") == column_name("150>") == "150>"


def test_BF12C_FLOOD_03_under_a_quarter_of_the_size_never_floods() -> None:
    """A size-2 shell cannot flood a size-9 ship (22 %): no dice at all."""
    log, dice, events = battleship(9), FixedDice([]), EventLog()
    level = resolve_flood_hit(
        log, ctx(dice, weapon_size=2, cause="shell", events=events), apply=apply_codes
    )
    assert level is FloodLevel.NONE and log.flooding_points == 0
    assert "cannot flood" in events.of_kind(EventKind.FLOODING)[0].text


def test_no_flooding_rolls_nothing_more() -> None:
    """No level from the Occurrence roll: no compartment roll and no effects roll."""
    log, dice, rec = battleship(8), FixedDice([1]), Recorder()
    assert resolve_flood_hit(log, ctx(dice, weapon_size=2), apply=rec) is FloodLevel.NONE
    dice.assert_consumed()
    assert rec.calls == [] and log.flooding_points == 0


def test_BF6_DMG_12_level_is_never_lowered_but_effects_still_roll() -> None:
    """A Moderate result in a Severe compartment leaves it Severe; the Moderate effects line is
    still rolled (BF12C-FLOOD-02)."""
    log, rec = battleship(8), Recorder()
    log.compartments[Compartment.FORWARD].level = FloodLevel.SEVERE
    dice = FixedDice([2, 6])
    level = resolve_flood_hit(
        log, ctx(dice), column="100>", compartment=Compartment.FORWARD, apply=rec
    )
    dice.assert_consumed()
    assert level is FloodLevel.MODERATE
    assert log.compartments[Compartment.FORWARD].level is FloodLevel.SEVERE
    assert rec.codes == [CHARTS.flood_effect(FloodLevel.MODERATE, 6)]


def test_EX_BF6_15c_explosion_flooding_lands_anywhere() -> None:
    """No aspect (an explosion): any of the four compartments, 1D6 re-rolling 5–6 (AMB-21)."""
    log, dice = battleship(8), FixedDice([6, 5, 6, 4, 1])
    resolve_flood_hit(log, ctx(dice, aspect=None, cause="explosion"), column=200, apply=Recorder())
    dice.assert_consumed()
    assert log.compartments[Compartment.AFT].level is FloodLevel.SEVERE


def test_EX_BF12C_06_analogue_explosion_3F_200FL() -> None:
    """Through the real damage codes: EX → Explosion line 4 = "3F, 200FL": three more fires and
    one roll in the "200>" column, placed anywhere (BF12C-CRIT-06, BF6-FLD-01)."""
    assert CHARTS.critical("explosion", 4) == ("3F", "200FL")
    log, events = battleship(8), EventLog()
    # explosion roll 4; 200> roll 2 → Heavy; location 2 → port amidships; Heavy effects 1 → "-".
    dice = FixedDice([4, 2, 2, 1])
    apply_codes(log, ["EX"], ctx(dice, events=events, cause="shell"))
    dice.assert_consumed()
    assert log.fires_external == 3
    assert log.compartments[Compartment.PORT].level is FloodLevel.HEAVY
    assert any("200FL (200> column) rolls 2" in e.text for e in events)


def test_codes_route_FL_through_the_flooding_helper() -> None:
    """``apply_codes(["FL"])`` uses the context's weapon size and aspect (BF6-FLD-01)."""
    log = battleship(10)
    dice = FixedDice([6, 6, 1])  # 5 vs 10 → "50>": 6 → Severe; 6 → aft (port side); effects 1
    apply_codes(log, ["FL"], ctx(dice, weapon_size=5, cause="shell"))
    dice.assert_consumed()
    assert log.compartments[Compartment.AFT].level is FloodLevel.SEVERE


def test_default_apply_is_the_damage_code_mapping() -> None:
    """Moderate effects face 6 is "P": one propulsion box damaged."""
    log, dice = battleship(8), FixedDice([2, 1, 6])
    resolve_flood_hit(log, ctx(dice), column=100, apply=apply_codes)
    dice.assert_consumed()
    assert log.compartments[Compartment.FORWARD].level is FloodLevel.MODERATE
    assert log.propulsion.damaged == 1


def test_BF6_REP_08_new_heavy_breaks_containment() -> None:
    """AMB-33: a new Heavy-or-worse result in a contained zone cancels the containment."""
    log = battleship(8)
    state = log.compartments[Compartment.PORT]
    state.level, state.contained = FloodLevel.HEAVY, True
    dice = FixedDice([4, 1])  # 100> 4 → Heavy; Heavy effects 1 → "-"
    resolve_flood_hit(log, ctx(dice), column=100, compartment=Compartment.PORT, apply=Recorder())
    assert state.level is FloodLevel.HEAVY and not state.contained


def test_plain_fl_without_a_weapon_size_is_a_data_error() -> None:
    with pytest.raises(RulesDataError, match="weapon size"):
        resolve_flood_hit(battleship(), ctx(FixedDice([]), weapon_size=None), apply=apply_codes)


def test_sunk_ship_takes_no_flooding() -> None:
    log = battleship()
    log.sunk = True
    assert resolve_flood_hit(log, ctx(FixedDice([])), apply=apply_codes) is FloodLevel.NONE


@given(
    hits=st.lists(
        st.tuples(
            st.sampled_from([None, 100, 150, 200]),
            st.sampled_from([*Aspect, None]),
            st.integers(0, 12),
        ),
        min_size=1,
        max_size=12,
    ),
    seed=st.integers(0, 2**32 - 1),
)
def test_flood_level_never_decreases(
    hits: list[tuple[int | None, Aspect | None, int]], seed: int
) -> None:
    """Property (BF6-DMG-12): whatever lands, no compartment's level ever goes down, and the
    flooding points stay the sum of the levels."""
    log, dice = battleship(8), SeededDice(seed)
    for column, aspect, size in hits:
        before = {c: s.level for c, s in log.compartments.items()}
        resolve_flood_hit(
            log, ctx(dice, weapon_size=size, aspect=aspect), column=column, apply=apply_codes
        )
        for comp, state in log.compartments.items():
            assert state.level >= before[comp]
        assert log.flooding_points == sum(int(s.level) for s in log.compartments.values())
