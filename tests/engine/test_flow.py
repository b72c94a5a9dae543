"""The phase table and the sealed-orders gate (BF6-GEN-07/08), on a toy ruleset.

The toy ruleset has three phases — one with orders, one that resolves by itself, one where a side
with nothing to order is skipped — so the flow is tested apart from any Battlefleet rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine import EngineState, Game, PhaseSpec, Result, state_hash
from battleline.engine.dice import SeededDice
from battleline.engine.events import Event, EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.errors import IllegalOrderError, OrderSyntaxError, UnknownNameError

#: Hits that stop a toy ship.
TOY_BOXES = 3


@dataclass(slots=True, kw_only=True)
class ToyState(EngineState):
    """A state with nothing of any real rule system: owners, poses and hits."""

    owner: dict[str, str]
    poses: dict[str, Pose]
    hits: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ToyView:
    side: str
    turn: int
    phase: str
    order_kind: str | None
    waiting_for: tuple[str, ...]
    events: tuple[Event, ...]
    result: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "events": [e.to_dict() for e in self.events]}


def _parse(state: ToyState, side: str, texts: Sequence[str]) -> list[str]:
    for t in texts:
        if t == "bad":
            raise OrderSyntaxError(f"{side}: cannot read order 'bad'")
        if t.startswith("steer "):
            ship = t.split()[1]
            if state.owner[ship] != side:
                raise IllegalOrderError(f"{ship} is not a ship of {side}")
    return list(texts)


def _resolve_orders(
    state: ToyState, orders: Mapping[str, Any], dice: SeededDice, events: EventLog
) -> None:
    for side in state.sides:
        for text in orders[side]:
            if text.startswith("steer "):
                _, ship, heading = text.split()
                p = state.poses[ship]
                state.poses[ship] = Pose(p.x, p.y, float(heading))


def _resolve_auto(
    state: ToyState, orders: Mapping[str, Any], dice: SeededDice, events: EventLog
) -> None:
    for name in state.poses:
        p = state.poses[name]
        state.poses[name] = p.forward(100.0)


def _resolve_hits(
    state: ToyState, orders: Mapping[str, Any], dice: SeededDice, events: EventLog
) -> None:
    for side in state.sides:
        for text in orders[side]:
            if text == "boom":
                dice.d6("a roll before the failure")
                raise RuntimeError("resolver failed")
            ship = text.split()[1]
            if dice.d6("toy hit", ship=ship) >= 5:
                state.hits[ship] = state.hits.get(ship, 0) + 1


class ToyRuleset:
    name = "toy"
    version = "1"
    aliases: tuple[str, ...] = ()
    phases: tuple[PhaseSpec[ToyState, Any], ...] = (
        PhaseSpec("orders", "toy orders", _resolve_orders, _parse),
        PhaseSpec("auto", None, _resolve_auto),
        PhaseSpec(
            "shoot",
            "targets",
            _resolve_hits,
            needs_orders=lambda state, side: side == "Blue",
        ),
    )

    def __init__(self, turn_limit: int = 3) -> None:
        self.turn_limit = turn_limit

    def scenario_names(self) -> list[str]:
        return ["toy"]

    def check_scenario(self, scenario: str) -> str:
        return "Toy"

    def new_state(self, scenario: str, seed: int) -> ToyState:
        return ToyState(
            scenario=scenario,
            ruleset="toy@1",
            seed=seed,
            sides=("Blue", "Red"),
            owner={"Alpha": "Blue", "Zulu": "Red"},
            poses={"Alpha": Pose(0, 0, 0), "Zulu": Pose(0, 5000, 180)},
            turn_limit=self.turn_limit,
        )

    def owners(self, state: ToyState) -> dict[str, str]:
        return dict(state.owner)

    def end_turn(self, state: ToyState, events: EventLog) -> Result | None:
        if state.hits.get("Zulu", 0) >= TOY_BOXES:
            return Result("Blue", {"Blue": 1.0, "Red": 0.0}, "Zulu dead in the water")
        return None

    def verdict(self, state: ToyState, reason: str) -> Result:
        return Result(None, {"Blue": 0.0, "Red": 0.0}, reason)

    def view(self, game: Game[ToyState, ToyView], side: str, since: int = 0) -> ToyView:
        st = game.state
        return ToyView(
            side,
            st.turn,
            st.phase,
            game.spec.order_kind,
            game.pending.waiting_for,
            tuple(game.events_for(side, since)),
            st.result.line() if st.result else None,
        )


def _game(seed: int = 7, turn_limit: int = 3) -> Game[ToyState, ToyView]:
    return Game(ToyRuleset(turn_limit), "toy", seed)


def test_BF6_GEN_07_orders_stay_sealed_until_every_side_has_submitted() -> None:
    game = _game()
    assert game.spec.name == "orders"
    before = len(game.events)
    assert game.submit("Blue", ["steer Alpha 90"]) == []
    assert game.pending.waiting_for == ("Red",)
    # Nothing resolved, nothing revealed: no ORDER event, the pose unchanged.
    assert not game.events.of_kind(EventKind.ORDER)
    assert len(game.events) == before
    assert game.state.poses["Alpha"].heading == 0
    produced = game.submit("Red", ["steer Zulu 270"])
    orders = [e.text for e in produced if e.kind is EventKind.ORDER]
    assert orders == ["Blue: steer Alpha 90", "Red: steer Zulu 270"]
    assert game.state.poses["Alpha"].heading == 90


def test_duplicate_orders_are_refused_and_the_sealed_ones_stand() -> None:
    """The gate seals a side's orders once: a second submission for the same phase is refused
    and changes nothing."""
    game = _game()
    game.submit("Blue", ["steer Alpha 90"])
    events = len(game.events)
    with pytest.raises(IllegalOrderError, match="duplicate orders from Blue"):
        game.submit("Blue", ["steer Alpha 45"])
    assert len(game.events) == events and game.pending.texts["Blue"] == ("steer Alpha 90",)
    game.submit("Red", [])
    assert game.state.poses["Alpha"].heading == 90
    assert [o.orders for o in game.history if o.side == "Blue"] == [("steer Alpha 90",)]


def test_stale_orders_for_another_turn_or_phase_are_rejected() -> None:
    game = _game()
    with pytest.raises(IllegalOrderError, match="stale"):
        game.submit("Blue", ["steer Alpha 90"], turn=2, phase="orders")
    with pytest.raises(IllegalOrderError, match="stale"):
        game.submit("Blue", ["steer Alpha 90"], turn=1, phase="shoot")
    game.submit("Blue", [], turn=1, phase="orders")
    game.submit("Red", [], turn=1, phase="orders")
    # The toy's "auto" phase ran by itself; "shoot" waits for Blue only.
    assert game.spec.name == "shoot"
    with pytest.raises(IllegalOrderError, match="stale"):
        game.submit("Blue", [], turn=1, phase="orders")


def test_bad_orders_are_refused_on_submission_and_nothing_is_sealed() -> None:
    game = _game()
    with pytest.raises(OrderSyntaxError, match="bad"):
        game.submit("Blue", ["bad"])
    with pytest.raises(IllegalOrderError, match="not a ship of Blue"):
        game.submit("Blue", ["steer Zulu 90"])
    with pytest.raises(UnknownNameError):
        game.submit("Green", [])
    assert game.pending.waiting_for == ("Blue", "Red")


def test_BF6_GEN_08_the_phase_table_runs_in_order_and_no_order_phases_resolve_themselves() -> None:
    """BF6-GEN-08."""
    game = _game()
    game.submit("Blue", [])
    game.submit("Red", [])
    phases = [e.phase for e in game.events.of_kind(EventKind.PHASE)]
    assert phases == ["orders", "auto", "shoot"]
    # Red has nothing to order in "shoot": it was submitted for it, Blue is awaited.
    assert game.pending.waiting_for == ("Blue",)
    assert game.state.poses["Alpha"].y == pytest.approx(100.0)
    game.submit("Blue", ["hit Zulu"])
    assert game.state.turn == 2 and game.spec.name == "orders"


def test_the_callers_state_is_never_changed_under_it() -> None:
    game = _game()
    old = game.state
    old_hash = state_hash(old)
    game.submit("Blue", ["steer Alpha 90"])
    game.submit("Red", [])
    assert game.state is not old
    assert state_hash(old) == old_hash
    assert old.poses["Alpha"].heading == 0


def test_the_game_ends_at_the_turn_limit_with_a_verdict() -> None:
    game = _game(turn_limit=2)
    for _ in range(2):
        game.submit("Blue", [])
        game.submit("Red", [])
        game.submit("Blue", [])
    assert game.finished
    assert game.state.result is not None
    assert game.state.result.reason == "turn limit reached"
    assert game.events.events[-1].kind is EventKind.RESULT
    with pytest.raises(IllegalOrderError, match="game is over"):
        game.submit("Blue", [])


def test_the_ruleset_can_end_the_game_early() -> None:
    game = _game(turn_limit=50)
    while not game.finished:
        game.submit("Blue", [])
        game.submit("Red", [])
        game.submit("Blue", ["hit Zulu"])
    assert game.state.result is not None
    assert game.state.result.winner == "Blue"
    assert game.state.turn < 50


def test_umpire_resolve_fills_missing_sides_with_no_orders() -> None:
    game = _game()
    game.submit("Blue", ["steer Alpha 10"])
    game.resolve()
    assert game.state.poses["Alpha"].heading == 10
    assert ("Red", ()) in [(o.side, o.orders) for o in game.history]


def test_state_hash_is_stable_and_tracks_changes() -> None:
    a, b = _game(seed=3), _game(seed=3)
    assert state_hash(a.state) == state_hash(b.state)
    a.submit("Blue", ["steer Alpha 90"])
    a.submit("Red", [])
    assert state_hash(a.state) != state_hash(b.state)
    b.submit("Blue", ["steer Alpha 90"])
    b.submit("Red", [])
    assert state_hash(a.state) == state_hash(b.state)


def test_dice_draws_are_counted_in_the_state() -> None:
    game = _game()
    game.submit("Blue", [])
    game.submit("Red", [])
    game.submit("Blue", ["hit Zulu", "hit Zulu"])
    assert game.state.draws == 2 == game.dice.draws
    assert len(game.events.of_kind(EventKind.ROLL)) == 2


_SUBMISSIONS = st.lists(
    st.tuples(st.sampled_from(["Blue", "Red"]), st.integers(min_value=0, max_value=359)),
    min_size=1,
    max_size=8,
)


@given(_SUBMISSIONS)
def test_property_the_gate_reveals_only_the_sealed_orders_once_both_are_in(
    submissions: list[tuple[str, int]],
) -> None:
    """Any interleaving of submissions: nothing is published before both sides are in; a side's
    second submission is refused; then exactly each side's sealed orders are published and
    carried out."""
    game = _game()
    ship = {"Blue": "Alpha", "Red": "Zulu"}
    last: dict[str, int] = {}
    for side, heading in submissions:
        if game.spec.name != "orders":
            break
        if side in last:
            with pytest.raises(IllegalOrderError, match="duplicate"):
                game.submit(side, [f"steer {ship[side]} {heading}"])
            continue
        produced = game.submit(side, [f"steer {ship[side]} {heading}"])
        last[side] = heading
        if len(last) < 2:
            assert produced == []
            assert not game.events.of_kind(EventKind.ORDER)
        else:
            published = [e.text for e in produced if e.kind is EventKind.ORDER]
            assert published == [
                f"Blue: steer Alpha {last['Blue']}",
                f"Red: steer Zulu {last['Red']}",
            ]
            assert game.state.poses["Alpha"].heading == last["Blue"]
            assert game.state.poses["Zulu"].heading == last["Red"]


def test_a_failed_resolution_is_rolled_back_completely() -> None:
    """Events, record, phase and dice are put back; the orders are not sealed; the game goes on
    exactly as if the failed attempt had never happened."""
    game, twin = _game(), _game()
    for g in (game, twin):
        g.submit("Blue", [])
        g.submit("Red", [])
    assert game.spec.name == "shoot"
    n_events, n_history, draws = len(game.events), len(game.history), game.dice.draws
    state = game.state
    with pytest.raises(RuntimeError, match="resolver failed"):
        game.submit("Blue", ["hit Zulu", "boom"])
    assert len(game.events) == n_events
    assert len(game.history) == n_history
    assert game.dice.draws == draws
    assert game.state is state
    assert game.spec.name == "shoot" and game.pending.waiting_for == ("Blue",)
    for g in (game, twin):
        g.submit("Blue", ["hit Zulu", "hit Zulu"])
    assert [e.to_dict() for e in game.events] == [e.to_dict() for e in twin.events]
    assert state_hash(game.state) == state_hash(twin.state)


def test_a_game_without_rollback_resolves_in_place_to_the_same_game() -> None:
    """``rollback=False`` (the simulator's games) resolves on the state itself, with no copy,
    and plays exactly the game a copying one plays; a failed resolution is still raised."""
    game = Game(ToyRuleset(3), "toy", 7, rollback=False)
    twin = _game()
    state = game.state
    for g in (game, twin):
        g.submit("Blue", ["steer Alpha 90"])
        g.submit("Red", ["steer Zulu 270"])
        g.submit("Blue", ["hit Zulu", "hit Zulu"])
    assert game.state is state  # changed in place
    assert twin.state is not state
    assert [e.to_dict() for e in game.events] == [e.to_dict() for e in twin.events]
    assert state_hash(game.state) == state_hash(twin.state)
    game.submit("Blue", [])
    game.submit("Red", [])
    assert game.spec.name == "shoot"
    with pytest.raises(RuntimeError, match="resolver failed"):
        game.submit("Blue", ["boom"])
