"""The dice spine: one seeded source, every roll recorded, scripted dice for tests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.dice import FixedDice, SeededDice
from battleline.engine.events import EventKind, EventLog
from battleline.errors import DiceExhausted


def test_same_seed_gives_same_rolls() -> None:
    a, b = SeededDice(42), SeededDice(42)
    assert [a.d6("x") for _ in range(200)] == [b.d6("x") for _ in range(200)]


def test_different_seeds_differ() -> None:
    a, b = SeededDice(1), SeededDice(2)
    assert [a.d6("x") for _ in range(50)] != [b.d6("x") for _ in range(50)]


@given(st.integers(min_value=0, max_value=2**32), st.sampled_from([2, 6, 12, 20]))
def test_faces_stay_on_the_die(seed: int, sides: int) -> None:
    dice = SeededDice(seed)
    values = dice.rolls(300, sides, "property")
    assert all(1 <= v <= sides for v in values)
    assert dice.draws == 300


def test_seeded_d6_is_roughly_uniform() -> None:
    dice = SeededDice(7)
    values = dice.rolls(6000, 6, "uniformity")
    counts = [values.count(face) for face in range(1, 7)]
    assert all(850 < c < 1150 for c in counts), counts


def test_every_roll_is_an_event_with_its_purpose() -> None:
    log = EventLog()
    dice = SeededDice(3, log=log)
    value = dice.d6("sink roll", ship="Mikasa")
    (event,) = log.events
    assert event.kind is EventKind.ROLL
    assert event.ship == "Mikasa"
    assert event.data["purpose"] == "sink roll"
    assert event.data["value"] == value
    assert "Mikasa: sink roll rolls" in event.text


def test_fixed_dice_play_the_script_and_report_leftovers() -> None:
    dice = FixedDice([6, 3, 1])
    assert [dice.d6("a"), dice.d6("b")] == [6, 3]
    with pytest.raises(AssertionError, match="never used"):
        dice.assert_consumed()
    assert dice.d6("c") == 1
    dice.assert_consumed()
    with pytest.raises(DiceExhausted):
        dice.d6("one too many")


def test_fixed_dice_refuse_a_face_the_die_does_not_have() -> None:
    with pytest.raises(ValueError, match="d6"):
        FixedDice([7]).d6("bad script")


def test_spawned_seeds_are_independent_and_reproducible() -> None:
    first = [SeededDice(s).d6("x") for s in SeededDice(9).spawn(5)]
    second = [SeededDice(s).d6("x") for s in SeededDice(9).spawn(5)]
    assert first == second
