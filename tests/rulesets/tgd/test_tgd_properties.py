"""Hypothesis properties of the TGD rules: armour, boxes, speed, modifiers, saved state."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.engine.events import EventLog
from battleline.rulesets.tgd.card import ShipCard, card_names, load_card
from battleline.rulesets.tgd.cardlog import CardLog
from battleline.rulesets.tgd.charts import HitNumber, load_charts
from battleline.rulesets.tgd.damage import apply_location, resolve_hits
from battleline.rulesets.tgd.fire import modified_hit_number, roll_to_hit
from battleline.testing import SeededDice

CHARTS = load_charts()
NAMES = card_names()

cards = st.sampled_from(NAMES).map(load_card)


def _with_armour(card: ShipCard, armour: list[int]) -> ShipCard:
    return dataclasses.replace(card, armour=tuple(armour))  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(
    card=cards,
    armour=st.lists(st.integers(0, 8), min_size=6, max_size=6),
    extra=st.lists(st.integers(0, 3), min_size=6, max_size=6),
    hits=st.integers(1, 12),
    strength=st.integers(1, 6),
    rng=st.floats(1, 60),
    seed=st.integers(0, 2**32),
)
def test_more_armour_never_lets_more_hits_through(
    card: ShipCard,
    armour: list[int],
    extra: list[int],
    hits: int,
    strength: int,
    rng: float,
    seed: int,
) -> None:
    """TGD-ARM-01: the same hits against thicker armour penetrate no more often."""
    thicker = [a + e for a, e in zip(armour, extra, strict=True)]

    def through(values: list[int]) -> int:
        log = CardLog(_with_armour(card, values))
        results = resolve_hits(
            log,
            hits,
            strength=strength,
            rng=rng,
            charts=CHARTS,
            dice=SeededDice(seed),
            events=EventLog(),
        )
        return sum(r.penetrated for r in results)

    assert through(thicker) <= through(armour)


@settings(max_examples=80, deadline=None)
@given(
    card=cards,
    locations=st.lists(st.integers(1, 6), max_size=40),
    aspect=st.one_of(st.none(), st.floats(0, 359.9)),
    seed=st.integers(0, 2**32),
)
def test_referred_hits_never_go_below_zero_boxes(
    card: ShipCard, locations: list[int], aspect: float | None, seed: int
) -> None:
    """TGD-REFD-01..04, TGD-DMG-05..08, AMB-63: boxes and knots stay within the card, speed
    never rises, and "burning furiously" only when everything topside is gone."""
    log = CardLog(card)
    dice = SeededDice(seed)
    speed = log.speed
    all_refs = {(loc, i) for loc, i, _ in card.batteries()}
    for location in locations:
        apply_location(log, location, charts=CHARTS, dice=dice, events=EventLog(), aspect=aspect)
        assert 0 <= log.superstructure_hits <= len(card.superstructure)
        assert 0 <= log.hull_end_hits <= card.hull_ends
        assert 0 <= log.hull_centre_hits <= card.hull_centre
        assert log.lost <= all_refs
        assert 0 <= log.speed <= speed
        speed = log.speed
        assert not log.burning or log.topside_wrecked
        if log.immobile:
            assert log.speed == 0


@given(
    guns=st.integers(1, 12),
    need=st.integers(2, 6),
    first=st.sampled_from([None, 6]),
    modifier=st.integers(1, 4),
    seed=st.integers(0, 2**32),
)
def test_a_plus_modifier_never_costs_hits(
    guns: int, need: int, first: int | None, modifier: int, seed: int
) -> None:
    """AMB-60: modifiers only ease the last roll; hits never exceed the guns fired."""
    base = HitNumber(need, first)
    plain = roll_to_hit(SeededDice(seed), guns, base, ship="x")
    helped = roll_to_hit(SeededDice(seed), guns, modified_hit_number(base, modifier), ship="x")
    assert 0 <= plain <= helped <= guns


@given(short=st.floats(0.1, 80), longer=st.floats(0, 40))
def test_penetration_and_hit_chance_never_improve_with_range(short: float, longer: float) -> None:
    """TGD-PEN-01, REF-TGD-03."""
    far = short + longer
    assert CHARTS.penetration_modifier(far) <= CHARTS.penetration_modifier(short)
    near_hit, far_hit = CHARTS.hit_number(short), CHARTS.hit_number(far)
    assert (far_hit.first or 0, far_hit.need) >= (near_hit.first or 0, near_hit.need)


@settings(max_examples=40, deadline=None)
@given(
    card=cards,
    locations=st.lists(st.integers(1, 6), max_size=20),
    seed=st.integers(0, 2**32),
)
def test_card_log_round_trips_through_json(card: ShipCard, locations: list[int], seed: int) -> None:
    log = CardLog(card)
    dice = SeededDice(seed)
    for location in locations:
        apply_location(log, location, charts=CHARTS, dice=dice, events=EventLog())
    log.fired.add(next(iter({(loc, i) for loc, i, _ in card.batteries()})))
    assert CardLog.from_dict(card, log.to_dict()) == log
    assert log.copy() == log and log.copy() is not log
