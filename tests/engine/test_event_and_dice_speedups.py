"""The cheap constructions behind events and dice give exactly what the plain ones gave."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.dice import DieRoll, FixedDice, SeededDice
from battleline.engine.events import Event, EventKind, EventLog, new_event

_names = st.none() | st.text(max_size=8)
_data = st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=4)


@given(
    st.sampled_from(list(EventKind)),
    st.text(max_size=20),
    st.integers(0, 99),
    st.text(max_size=8),
    _names,
    _names,
    _data,
)
def test_new_event_equals_the_constructor(
    kind: EventKind,
    text: str,
    turn: int,
    phase: str,
    ship: str | None,
    side: str | None,
    data: dict[str, object],
) -> None:
    fast = new_event(kind, text, turn, phase, ship, side, data)
    plain = Event(kind, text, turn, phase, ship, side, data)
    assert type(fast) is Event
    assert fast == plain
    assert repr(fast) == repr(plain)
    assert fast.to_dict() == plain.to_dict()


def test_a_fast_event_is_still_frozen_and_copies_like_any_event() -> None:
    event = new_event(EventKind.NOTE, "a note", 3, "gunnery", "Mikasa", None, {"x": 1})
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.text = "changed"  # type: ignore[misc]
    assert copy.deepcopy(event) == event
    assert pickle.loads(pickle.dumps(event)) == event
    assert dataclasses.replace(event, text="other").text == "other"


def test_emit_stamps_turn_and_phase() -> None:
    log = EventLog()
    log.turn, log.phase = 4, "damage"
    event = log.emit(EventKind.HIT, "hit", ship="Fuji", side="Japan", zone=2)
    assert event == Event(EventKind.HIT, "hit", 4, "damage", "Fuji", "Japan", {"zone": 2})
    assert log.events == [event]


@given(st.integers(0, 2**32), st.lists(st.sampled_from([2, 6, 12, 20]), min_size=1, max_size=60))
def test_seeded_rolls_match_the_reference_mapping(seed: int, sizes: list[int]) -> None:
    """Faces are ``1 + int(u * sides)`` of the generator's uniform floats, in order, whatever
    the block buffering and whether ``roll``, ``rolls`` or ``_next`` draws them."""
    import numpy as np

    floats = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed))).random(
        len(sizes) + 2
    )
    expected = [1 + int(u * s) for u, s in zip(floats.tolist(), sizes, strict=False)]
    dice = SeededDice(seed)
    got = [dice.roll(s, "x") for s in sizes[:1]] + [dice.rolls(1, s, "y")[0] for s in sizes[1:]]
    assert got == expected
    assert dice.draws == len(sizes)
    assert dice._next(6) == 1 + int(floats[len(sizes)] * 6)


def test_history_records_every_die_with_its_draw_index() -> None:
    log = EventLog()
    dice = FixedDice([4, 2, 6], log=log)
    dice.draws = 10  # as after a rollback that skipped ten draws
    dice.d6("first", ship="Asahi")
    dice.rolls(2, 6, "pair")
    assert dice.history == [
        DieRoll("first", 6, 4, 10),
        DieRoll("pair", 6, 2, 11),
        DieRoll("pair", 6, 6, 12),
    ]
    assert [e.text for e in log.events] == [
        "Asahi: first rolls 4 (d6)",
        "pair rolls 2 (d6)",
        "pair rolls 6 (d6)",
    ]
    assert log.events[0].data == {"purpose": "first", "sides": 6, "value": 4}
