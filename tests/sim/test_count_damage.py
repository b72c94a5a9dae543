"""``count_damage`` skips uncounted event kinds first; it must count what the plain loop counts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.events import Event, EventKind
from battleline.game import new_game
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.bf1900.tally import KINDS
from battleline.sim.runner import CAUSES, cause_of, count_damage


def _reference(state: Bf1900State, events: list[Event]) -> tuple[tuple[int, ...], ...]:
    """The plain loop: every event, its ship looked up, its cause asked for."""
    counts = {s: [0] * len(CAUSES) for s in state.sides}
    for event in events:
        if event.ship is None or event.ship not in state.logs:
            continue
        cause = cause_of(event)
        if cause is not None:
            counts[state.logs[event.ship].side][CAUSES.index(cause)] += 1
    return tuple(tuple(counts[s]) for s in state.sides)


_STATE = new_game("cruiser-duel", 1).state
_SHIPS = [*_STATE.logs, "Nobody", None]
_DATA = st.fixed_dictionaries(
    {},
    optional={
        "location": st.just("vitals"),
        "size": st.integers(1, 9),
        "level": st.integers(0, 4),
        "column": st.just("100>"),
        "internal": st.booleans(),
    },
)
events = st.lists(
    st.builds(
        Event,
        kind=st.sampled_from(list(EventKind)),
        text=st.just("x"),
        ship=st.sampled_from(_SHIPS),
        data=_DATA,
    ),
    max_size=30,
)


def test_only_the_counted_kinds_have_a_cause() -> None:
    """Every kind the bf1900 tally does not read gives no cause, whatever its data."""
    full = {"location": "vitals", "size": 6, "level": 2, "column": "100>", "internal": True}
    for kind in EventKind:
        if kind not in KINDS:
            assert cause_of(Event(kind, "x", ship="A", data=full)) is None


@given(events)
def test_count_damage_equals_the_plain_loop(evs: list[Event]) -> None:
    """Same counts per side and cause as looking at every event."""
    side_of = {name: log.side for name, log in _STATE.logs.items()}
    assert count_damage(_STATE.sides, side_of, evs) == _reference(_STATE, evs)
