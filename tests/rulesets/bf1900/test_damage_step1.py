"""Damage Step One: fire and flooding (BF6-DMG-04..06, BF6-DMG-10, BF6-REP-08, BF6-CF-04,
AMB-22, REF-BF6-26)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.bf1900.charts import load_charts
from battleline.rulesets.bf1900.damage.codes import apply_codes
from battleline.rulesets.bf1900.damage.context import DamageContext
from battleline.rulesets.bf1900.damage.step1 import (
    ADJOINING,
    fire_and_flooding,
    rolls_critical,
    spread_compartment,
)
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel
from battleline.rulesets.bf1900.shiplog import CompartmentState, ShipLog
from battleline.testing import FixedDice, SeededDice
from conftest import majestic

CHARTS = load_charts()


class Recorder:
    """An ``ApplyCodes`` double."""

    def __init__(self) -> None:
        self.calls: list[tuple[tuple[str, ...], DamageContext]] = []

    def __call__(self, log: ShipLog, codes: Sequence[str], ctx: DamageContext) -> None:
        self.calls.append((tuple(codes), ctx))

    @property
    def codes(self) -> list[tuple[str, ...]]:
        return [c for c, _ in self.calls]


def ship() -> ShipLog:
    return ShipLog("Majestic", dataclasses.replace(majestic(), size=8))


def flood(log: ShipLog, comp: Compartment, level: FloodLevel, **flags: bool) -> None:
    state = log.compartments[comp]
    state.level = level
    for key, value in flags.items():
        setattr(state, key, value)


def run(log: ShipLog, rolls: list[int], apply=apply_codes, events=None) -> EventLog:  # type: ignore[no-untyped-def]
    dice = FixedDice(rolls)
    events = events if events is not None else EventLog()
    fire_and_flooding(log, CHARTS, dice, events, apply)
    dice.assert_consumed()
    return events


# -- fires ------------------------------------------------------------------------------------


def test_BF6_DMG_05_external_fire_can_go_out() -> None:
    """BF6-DMG-04, BF6-DMG-05: one roll per external fire; face 1 is XF."""
    assert CHARTS.critical("fire_external", 1) == ("XF",)
    log = ship()
    log.fires_external = 1
    run(log, [1])
    assert log.fires == 0


def test_BF6_DMG_05_xf_puts_out_a_fire_of_its_own_line() -> None:
    """BF6-DMG-05: seed 000 — "the Fires section of the combat chart includes separate columns
    for external and internal fires, and that a result which may result in one or more fires
    being extinguished is also included." An XF on the external-fire line puts out the external
    fire that rolled it, not an internal one; the internal fire keeps burning and rolls again on
    its own, worse line next turn."""
    assert CHARTS.critical("fire_external", 1) == ("XF",)
    assert CHARTS.critical("fire_internal", 1) == ("XF",)
    assert CHARTS.critical("fire_internal", 3) == ("DC",)
    log = ship()
    log.fires_external, log.fires_internal = 1, 1
    events = run(log, [1, 4])  # external 1 → XF; internal 4 → IF
    assert (log.fires_external, log.fires_internal) == (0, 2)
    out = [e for e in events.of_kind(EventKind.FIRE) if "goes out" in e.text]
    assert len(out) == 1 and "an external fire" in out[0].text
    # And an XF on the internal line puts out an internal fire, never an external one.
    log2 = ship()
    log2.fires_external, log2.fires_internal = 1, 1
    run(log2, [4, 1])  # external 4 → nothing; internal 1 → XF
    assert (log2.fires_external, log2.fires_internal) == (1, 0)


def test_BF6_DMG_04_one_roll_per_fire_and_new_fires_wait() -> None:
    """Two external and one internal fire roll three times, externals first. A fire started
    during the step does not roll until next turn."""
    log = ship()
    log.fires_external, log.fires_internal = 2, 1
    rec = Recorder()
    assert CHARTS.critical("fire_external", 4) == ()
    events = run(log, [5, 4, 4], apply=rec)
    assert rec.codes == [
        CHARTS.critical("fire_external", 5),
        CHARTS.critical("fire_internal", 4),
    ]
    lines = [e.data["line"] for e in events.of_kind(EventKind.CRITICAL)]
    assert lines == ["fire_external", "fire_external", "fire_internal"]
    assert all(ctx.cause == "critical" and ctx.aspect is None for _, ctx in rec.calls)
    # Through the real codes: external 5 = F spreads one fire, internal 4 = IF another.
    log2 = ship()
    log2.fires_external, log2.fires_internal = 1, 1
    run(log2, [5, 4])
    assert (log2.fires_external, log2.fires_internal) == (2, 2)


def test_EX_BF6_09_dc_box_lost_in_step_one_is_gone_at_once() -> None:
    """EX-BF6-09:
    BF6-DMG-10: an internal fire's DC result marks a box now, so Step Three has one die less."""
    assert CHARTS.critical("fire_internal", 3) == ("DC",)
    log = ship()
    log.fires_internal = 1
    dice_before = log.dc_dice
    run(log, [3])
    assert log.dc_dice == dice_before - 1


# -- which compartments roll ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "flags", "rolls"),
    [
        (FloodLevel.LIGHT, {}, False),
        (FloodLevel.MODERATE, {}, False),
        (FloodLevel.HEAVY, {}, True),
        (FloodLevel.HEAVY, {"contained": True}, False),
        (FloodLevel.SEVERE, {}, True),
        (FloodLevel.SEVERE, {"contained": True}, True),
        (FloodLevel.HEAVY, {"counterflooded": True}, False),
        (FloodLevel.SEVERE, {"counterflooded": True}, False),
    ],
)
def test_BF6_REP_08_BF6_CF_04_which_compartments_roll(
    level: FloodLevel, flags: dict[str, bool], rolls: bool
) -> None:
    """Light and Moderate never roll; contained Hvy does not; Sev always does (it cannot be
    contained); a counterflooded compartment never triggers criticals."""
    state = CompartmentState(level, **flags)
    assert rolls_critical(state) is rolls
    log = ship()
    flood(log, Compartment.PORT, level, **flags)
    rec = Recorder()
    run(log, [1] if rolls else [], apply=rec)


def test_BF6_DMG_04_hvy_and_sev_use_their_own_lines_in_compartment_order() -> None:
    log, rec = ship(), Recorder()
    flood(log, Compartment.AFT, FloodLevel.SEVERE)
    flood(log, Compartment.FORWARD, FloodLevel.HEAVY)
    events = run(log, [5, 4], apply=rec)
    assert rec.codes == [
        CHARTS.critical("heavy_flooding", 5),
        CHARTS.critical("severe_flooding", 4),
    ]
    texts = [e.text for e in events.of_kind(EventKind.CRITICAL)]
    assert texts == [
        f"Majestic: Hvy FL in forward rolls 5 → {', '.join(CHARTS.critical('heavy_flooding', 5))}",
        f"Majestic: Sev FL in aft rolls 4 → {', '.join(CHARTS.critical('severe_flooding', 4))}",
    ]


# -- new FL hits spread (BF6-DMG-06, AMB-22) --------------------------------------------------


def test_BF6_DMG_06_new_fl_in_the_same_compartment() -> None:
    """Hvy FL 6 → 100FL; placement 1–3 keeps it in the same compartment; 100> 6 → Severe."""
    assert CHARTS.critical("heavy_flooding", 6) == ("100FL",)
    log, rec, events = ship(), Recorder(), EventLog()
    flood(log, Compartment.PORT, FloodLevel.HEAVY)
    run(log, [6, 2, 6, 1], apply=rec, events=events)
    assert log.compartments[Compartment.PORT].level is FloodLevel.SEVERE
    assert rec.calls == []  # Severe effects face 1 is "-"
    assert "Majestic: Hvy FL in port amidships rolls 6 → 100FL" in [e.text for e in events]


def test_BF6_DMG_06_new_fl_in_an_adjoining_compartment_even_if_dry() -> None:
    """Placement 4–6 goes to an adjoining compartment, picked by a second 1D6: from Forward,
    1–3 port amidships, 4–6 starboard amidships."""
    log = ship()
    flood(log, Compartment.FORWARD, FloodLevel.SEVERE)
    # Sev 6 → 150FL; placement 4 → adjoining; 6 → starboard; 150> 1 → Moderate; effects 1.
    run(log, [6, 4, 6, 1, 1], apply=Recorder())
    assert log.compartments[Compartment.STARBOARD].level is FloodLevel.MODERATE
    assert log.compartments[Compartment.FORWARD].level is FloodLevel.SEVERE


def test_spread_into_a_heavy_compartment_waits_for_next_turn() -> None:
    """What rolls is fixed at the start of the step: Forward's new FL makes port amidships Heavy,
    and port amidships does not roll this step."""
    log = ship()
    flood(log, Compartment.FORWARD, FloodLevel.HEAVY)
    # Hvy 6 → 100FL; placement 5 → adjoining; 1 → port; 100> 4 → Heavy; Heavy effects 1 → "-".
    run(log, [6, 5, 1, 4, 1], apply=Recorder())
    assert log.compartments[Compartment.PORT].level is FloodLevel.HEAVY


def test_spread_fl_codes_and_other_codes_keep_their_order() -> None:
    """A cell such as "P, 100FL" applies P, then the flood hit (BF6-DTYPE-01)."""
    from battleline.rulesets.bf1900.damage import step1

    log, rec = ship(), Recorder()
    ctx = DamageContext(CHARTS, FixedDice([1, 1, 1]), EventLog(), None, None, "critical")
    step1._apply_spreading(log, ["P", "100FL", "DC"], Compartment.AFT, ctx, rec)
    assert rec.codes == [("P",), ("DC",)]
    assert log.compartments[Compartment.AFT].level is FloodLevel.LIGHT


def test_AMB_22_adjacency() -> None:
    """Forward and Aft adjoin both amidships; each amidships adjoins Forward, Aft and the other
    amidships; adjacency is symmetric and nothing adjoins itself (REF-BF6-26)."""
    assert set(ADJOINING[Compartment.FORWARD]) == {Compartment.PORT, Compartment.STARBOARD}
    assert set(ADJOINING[Compartment.AFT]) == {Compartment.PORT, Compartment.STARBOARD}
    assert set(ADJOINING[Compartment.PORT]) == {
        Compartment.FORWARD,
        Compartment.AFT,
        Compartment.STARBOARD,
    }
    for comp, near in ADJOINING.items():
        assert comp not in near
        for other in near:
            assert comp in ADJOINING[other]


@given(source=st.sampled_from(list(Compartment)), seed=st.integers(0, 10_000))
def test_spread_lands_in_the_same_or_an_adjoining_compartment(
    source: Compartment, seed: int
) -> None:
    assert spread_compartment(SeededDice(seed), source, "x") in {source, *ADJOINING[source]}


def test_AMB_22_spread_is_half_same_half_adjoining_uniformly() -> None:
    """Exact split over all placement rolls: 1–3 same; 4–6 adjoining, uniform among them."""
    for source in Compartment:
        counts: dict[Compartment, int] = {}
        for first in range(1, 7):
            for second in range(1, 7):
                dice = FixedDice([first, second])
                where = spread_compartment(dice, source, "x")
                counts[where] = counts.get(where, 0) + 1
        assert counts[source] == 18
        near = ADJOINING[source]
        assert all(counts[c] == 18 // len(near) for c in near)


def test_sunk_ship_rolls_nothing() -> None:
    log = ship()
    log.fires_external = 3
    flood(log, Compartment.AFT, FloodLevel.SEVERE)
    log.sunk = True
    run(log, [])
