"""The game record: save, load, replay to the same state and events, verify the hash."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline.ai.base import play, stand_in
from battleline.engine import GameRecord, RecordedOrders, RecordVisitor, state_hash
from battleline.engine.events import Event
from battleline.engine.record import RecordError
from battleline.game import new_game, replay, replay_game, verify
from battleline.rulesets import get_ruleset
from battleline.rulesets.bf1900.state import Bf1900State

SCENARIO = "cruiser-duel"


@pytest.fixture(scope="module")
def played() -> tuple[GameRecord, list[dict[str, object]], str]:
    game = play(new_game(SCENARIO, 5), factory=stand_in)
    return GameRecord.of(game), [e.to_dict() for e in game.events], state_hash(game.state)


def test_record_holds_scenario_ruleset_seed_and_orders(played) -> None:  # type: ignore[no-untyped-def]
    record, _, final = played
    assert record.scenario == SCENARIO
    assert record.ruleset.startswith("bf1900@")
    assert record.seed == 5
    assert record.final_hash == final
    assert record.orders, "the admirals gave orders"
    assert all(isinstance(o, RecordedOrders) for o in record.orders)
    turns = [o.turn for o in record.orders]
    assert turns == sorted(turns)


def test_json_round_trip_is_exact(played, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    record, _, _ = played
    again = GameRecord.from_json(record.to_json())
    assert again == record
    path = tmp_path / "game.json"
    record.save(path)
    assert GameRecord.load(path) == record


def test_replay_rebuilds_the_same_state_and_every_event(played) -> None:  # type: ignore[no-untyped-def]
    record, events, final = played
    state, replayed = replay(record)
    assert state_hash(state) == final
    assert [e.to_dict() for e in replayed] == events
    game = replay_game(record)
    assert state_hash(game.state) == final and game.finished
    ok, state = verify(record)
    assert ok and state_hash(state) == final


def test_a_tampered_record_fails_verification(played) -> None:  # type: ignore[no-untyped-def]
    record, _, _ = played
    bad = GameRecord(record.scenario, record.ruleset, record.seed + 1, [], record.final_hash)
    ok, _ = verify(bad)
    assert not ok


def test_a_record_whose_orders_no_longer_fit_is_refused(played) -> None:  # type: ignore[no-untyped-def]
    record, _, _ = played
    side = new_game(SCENARIO, 5).state.sides[0]
    bad = GameRecord(
        record.scenario,
        record.ruleset,
        record.seed,
        [RecordedOrders(1, "gunnery", side, ())],
        record.final_hash,
    )
    with pytest.raises(RecordError, match="turn 1 gunnery"):
        replay(bad)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not JSON"),
        ('{"format": "other"}', "format"),
        ('{"format": "battleline-record/1", "scenario": "x"}', "missing or bad field"),
    ],
)
def test_malformed_records_give_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(text, "saved.json")


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"nothing\.json"):
        GameRecord.load(tmp_path / "nothing.json")


def test_the_visitor_walks_header_orders_events_and_end(played) -> None:  # type: ignore[no-untyped-def]
    record, events, final = played

    class Counter(RecordVisitor):
        def __init__(self) -> None:
            self.seen: list[str] = []
            self.events = 0

        def visit_header(self, record: GameRecord) -> None:
            self.seen.append("header")

        def visit_orders(self, orders: RecordedOrders) -> None:
            self.seen.append("orders")

        def visit_event(self, event: Event) -> None:
            self.events += 1

        def visit_end(self, state: Bf1900State) -> None:
            self.seen.append(state_hash(state))

    v = Counter()
    v.walk(record, get_ruleset(record.ruleset))
    assert v.seen[0] == "header"
    assert v.seen.count("orders") == len(record.orders)
    assert v.seen[-1] == final
    assert v.events == len(events)
