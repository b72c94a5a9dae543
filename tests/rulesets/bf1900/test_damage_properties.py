"""Hypothesis properties of the damage model (issue 2, "Done means").

* flooding points always equal the sum of the zone levels (BF6-DMG-12);
* propulsion boxes always read destroyed…damaged…undamaged, with margin damage only when no box is
  undamaged (BF6-PROP-03/04/05), under any mix of damage, destroy and repair;
* destroyed items are never repaired (BF6-REP-01);
* the DC dice rolled never exceed the usable boxes (BF6-DC-02/04);
* the same seed gives the same events (a random Damage Phase run twice).
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.engine.events import EventLog
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.charts import load_charts
from battleline.rulesets.bf1900.damage.codes import CODE_NAMES, apply_codes
from battleline.rulesets.bf1900.damage.context import DamageContext
from battleline.rulesets.bf1900.damage.declarations import DCDeclaration, parse_declaration
from battleline.rulesets.bf1900.damage.phase import run_damage_phase
from battleline.rulesets.bf1900.damage.step3 import (
    dice_needed,
    resolve_damage_control,
    usable_declarations,
    validate_declarations,
)
from battleline.rulesets.bf1900.damage.step4 import run_step_four
from battleline.rulesets.bf1900.hits import Ammo, Aspect, ShellSet
from battleline.rulesets.bf1900.ship import GunClass
from battleline.rulesets.bf1900.shiplog import Mark, PropulsionBoxes, ShipLog
from battleline.testing import SeededDice
from conftest import cruiser, destroyer, lozenge, majestic, make_log

CHARTS = load_charts()
CLASSES = (majestic, lozenge, cruiser, destroyer)

codes_st = st.lists(
    st.sampled_from([*sorted(CODE_NAMES - {"-"}), "100FL", "150FL", "200FL", "2F", "2IF"]),
    max_size=12,
)
aspect_st = st.sampled_from([*Aspect, None])
decl_texts = st.lists(
    st.sampled_from(
        [
            "P", "BR", "M:A", "M:Z", "M:P", "ST", "HVY:forward", "HVY:port", "HVY:aft",
            "S:sec", "S:tert", "S:D", "DC", "R", "SECURE", "FREE", "SINK-1", "FLOODMAG:A",
            "FLOODMAG:Z", "CF:port=heavy", "CF:starboard=moderate", "CF:aft=light",
            "CF:forward=severe", "RECOVER-CT", "SCUTTLE",
        ]
    ),
    max_size=9,
)  # fmt: skip


def _damage(log: ShipLog, codes: list[str], seed: int, aspect: Aspect | None) -> EventLog:
    events = EventLog()
    ctx = DamageContext(CHARTS, SeededDice(seed), events, aspect, 6.0, "shell")
    apply_codes(log, codes, ctx)
    return events


def _destroyed(log: ShipLog) -> tuple[object, ...]:
    return (
        log.propulsion.destroyed,
        {k for k, p in log.positions.items() if p.destroyed},
        {k for k, p in log.positions.items() if p.magazine_flooded},
        {
            (k, i)
            for k, ms in log.batteries.items()
            for i, m in enumerate(ms)
            if m is Mark.DESTROYED
        },
        {i for i, m in enumerate(log.searchlights) if m is Mark.DESTROYED},
    )


def _propulsion_ok(p: PropulsionBoxes) -> bool:
    return (
        p.destroyed >= 0
        and p.damaged >= 0
        and p.margin >= 0
        and p.destroyed + p.damaged <= len(p.speeds)
        and (p.margin == 0 or p.undamaged == 0)
        and p.available == (p.speeds[p.destroyed + p.damaged] if p.undamaged else 0.0)
    )


@given(st.lists(st.sampled_from(["P", "Px", "repair"]), max_size=40))
def test_propulsion_boxes_stay_ordered(ops: list[str]) -> None:
    """BF6-PROP-02, BF6-PROP-03, BF6-PROP-04, BF6-PROP-05: one mark a box, read
    destroyed…damaged…undamaged, margin only with no undamaged box."""
    p = PropulsionBoxes((20, 17, 14, 10, 7, 3))
    destroyed = 0
    for op in ops:
        {"P": p.damage, "Px": p.destroy, "repair": p.repair}[op]()
        assert _propulsion_ok(p), (op, p)
        assert p.destroyed >= destroyed  # BF6-REP-01: never repaired
        destroyed = p.destroyed


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(CLASSES), codes_st, st.integers(0, 2**32 - 1), aspect_st, decl_texts)
def test_damage_then_control_keeps_every_invariant(cls, codes, seed, aspect, texts) -> None:  # type: ignore[no-untyped-def]
    """Flooding points = sum of levels; destroyed stays destroyed; dice ≤ usable boxes."""
    log = make_log(cls())
    _damage(log, codes, seed, aspect)
    assert log.flooding_points == sum(int(s.level) for s in log.compartments.values())
    assert _propulsion_ok(log.propulsion)
    before = _destroyed(log)
    dice_before = log.dc_dice
    decls = [parse_declaration(log.name, t) for t in texts]
    kept = usable_declarations(log, decls, EventLog())
    validate_declarations(log, kept)  # what survives the filter is always legal
    assert dice_needed(log, kept) <= dice_before
    dice = SeededDice(seed + 1)
    resolve_damage_control(log, kept, CHARTS, dice, EventLog())
    assert dice.draws <= dice_before  # one die per declaration, never more than usable
    after = _destroyed(log)
    assert after[0] >= before[0]  # type: ignore[operator]
    for was, now in zip(before[1:], after[1:], strict=True):
        assert was <= now  # type: ignore[operator]
    run_step_four(log, CHARTS, SeededDice(seed + 2), EventLog())
    assert log.flooding_points == sum(int(s.level) for s in log.compartments.values())
    assert _propulsion_ok(log.propulsion)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), decl_texts)
def test_validation_never_lets_dice_exceed_boxes(seed: int, texts: list[str]) -> None:
    """BF6-DC-04: whatever passes validation fits the unmarked DC boxes."""
    log = make_log(destroyer())
    _damage(log, ["DC", "P", "P", "ST", "BR", "M"], seed, Aspect.PORT)
    decls = [parse_declaration(log.name, t) for t in texts]
    try:
        validate_declarations(log, decls)
    except IllegalOrderError:
        return
    assert dice_needed(log, decls) <= log.dc_dice


def _random_phase(seed: int) -> tuple[list[str], str]:
    """A Damage Phase with fires, flooding, shells and declarations, all from one seed."""
    a, b = make_log(majestic(), "Alpha"), make_log(lozenge(), "Bravo")
    rng = SeededDice(seed)
    a.fires_internal, b.fires_external = rng.d6("setup"), rng.d6("setup")
    shells = [
        ShellSet("Alpha", "Bravo", "A", GunClass.MAIN, 30.5, 4, Ammo.AP, 14, 2, 6, Aspect.PORT),
        ShellSet(
            "Bravo", "Alpha", "sec", GunClass.SECONDARY, 13.9, 6, Ammo.HE, 4, 2, 2, Aspect.AHEAD
        ),
    ]
    decls: dict[str, list[DCDeclaration]] = {
        "Alpha": [parse_declaration("Alpha", t) for t in ("P", "M:A", "HVY:forward", "DC")],
        "Bravo": [parse_declaration("Bravo", t) for t in ("CF:starboard=heavy", "S:sec", "R")],
    }
    events = EventLog()
    dice = SeededDice(seed, log=events)
    logs = {"Alpha": a, "Bravo": b}
    run_damage_phase(logs, shells, [], decls, CHARTS, dice, events)
    return [e.text for e in events], json.dumps([a.to_dict(), b.to_dict()])


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_same_seed_same_events(seed: int) -> None:
    first, state1 = _random_phase(seed)
    second, state2 = _random_phase(seed)
    assert first == second
    assert state1 == state2
