"""The "tgd" ruleset: bf1900 set-up, command and movement with a TGD fire phase; cards derived
from ship values where no TGD card exists (reconstructed)."""

from __future__ import annotations

import pytest

from battleline.engine import submit
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.engine.state import state_hash
from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.game import new_game
from battleline.rulesets import get_ruleset
from battleline.rulesets.bf1900.shipdb import get_ship_class
from battleline.rulesets.tgd.card import Battery
from battleline.rulesets.tgd.derive import derive_card, derive_rules
from battleline.rulesets.tgd.ruleset import new_state
from battleline.rulesets.tgd.state import TgdState
from battleline.rulesets.tgd.steps import (
    STEPS,
    FireLine,
    geometry,
    new_fire_phase,
    parse_fire_line,
    parse_step,
    resolve_step,
    step_side,
)
from battleline.testing import FixedDice

SCENARIO = "santiago-1898"
IMT = "Infanta Maria Teresa"


def test_registered_with_command_movement_and_twelve_fire_steps() -> None:
    ruleset = get_ruleset("tgd")
    names = [p.name for p in ruleset.phases]
    assert names == ["command", "movement", *(f"fire-{k}" for k in range(1, 13))]
    assert names[2:] == list(STEPS)


def test_fire_line_notation() -> None:
    assert parse_fire_line("Mikasa: 6 -> Retvisan") == FireLine("Mikasa", 6, (), "Retvisan")
    assert parse_fire_line(" Pelayo : 5 fp, fs -> Iowa ") == FireLine(
        "Pelayo", 5, ("fp", "fs"), "Iowa"
    )
    with pytest.raises(OrderSyntaxError, match="TGD-FIRE-01"):
        parse_fire_line("Mikasa fires at Retvisan")
    with pytest.raises(OrderSyntaxError, match="the TGD rules have no torpedoes"):
        parse_fire_line("Mikasa: TT 1 -> Retvisan")  # a part TGD lacks says so
    with pytest.raises(OrderSyntaxError, match="unknown arc 'zz'"):
        parse_fire_line("Mikasa: 6 zz -> Retvisan")


def test_cards_packaged_by_ship_or_class_name_else_derived() -> None:
    cards = new_state(SCENARIO, 1).cards
    assert cards["Iowa"].card.title == "BB4 Iowa"
    assert cards["Vizcaya"].card.name == IMT and cards["Vizcaya"].name == "Vizcaya"
    brooklyn = cards["Brooklyn"].card
    assert brooklyn.reconstructed and brooklyn.ship_type == "AC"
    assert brooklyn.columns[0] == (
        Battery("f", 3, 2),
        Battery("p+", 3, 2),
        Battery("s+", 3, 2),
        Battery("a", 3, 2),
    )


@pytest.mark.parametrize(
    ("cm", "strength"), [(30.5, 6), (28.0, 5), (25.4, 4), (20.3, 3), (15.2, 2), (12.0, 1)]
)
def test_derived_strength_by_calibre_keeps_pelayo_scale(cm: float, strength: int) -> None:
    assert derive_rules().strength_of(cm) == strength


def test_derived_card_splits_beam_batteries_and_drops_boat_guns() -> None:
    mikasa = derive_card(get_ship_class("Mikasa"))
    assert mikasa.columns[1] == (Battery("p", 2, 7), Battery("s", 2, 7))
    assert all(b.strength >= 1 for _, _, b in mikasa.batteries())
    assert sum(b.guns for _, _, b in mikasa.batteries()) == 4 + 14 + 20  # no 47 mm boat guns
    assert mikasa.nation == "japanese" and mikasa.speed == 18


def _duel() -> TgdState:
    """Iowa at the origin heading north, Infanta Maria Teresa 1,500 m ahead heading east."""
    state = new_state(SCENARIO, 1)
    state.poses["Iowa"] = Pose(0.0, 0.0, 0.0)
    state.poses[IMT] = Pose(0.0, 1500.0, 90.0)
    return state


def test_geometry_from_poses_in_tgd_units() -> None:
    """REF-TGD-06: the draft names no range unit; the ruleset measures 100 m to the unit."""
    assert derive_rules().metres_per_unit == 100
    rng, bearing, aspect = geometry(_duel(), "Iowa", IMT)
    assert rng == pytest.approx(15.0)
    assert bearing == pytest.approx(0.0)
    assert aspect == pytest.approx(90.0)


def test_parse_step_refuses_with_turn_step_and_rule() -> None:
    state = _duel()
    us = "United States"
    assert step_side(state, 1) == "Spain"  # turn 1: the first side opens
    with pytest.raises(IllegalOrderError, match=r"turn 1 fire-1: Spain has no ship named 'Iowa'"):
        parse_step(state, "Spain", ["Iowa: 6 -> Vizcaya"], 1)
    with pytest.raises(IllegalOrderError, match="is not an enemy ship"):
        parse_step(state, us, ["Iowa: 6 -> Oregon"], 2)
    with pytest.raises(IllegalOrderError, match=r"turn 1 fire-2: Iowa already fires in this step"):
        parse_step(state, us, [f"Iowa: 6 f -> {IMT}", f"Iowa: 3 -> {IMT}"], 2)
    with pytest.raises(IllegalOrderError, match=r"turn 1 fire-1: this fire step is Spain's"):
        parse_step(state, us, [f"Iowa: 6 -> {IMT}"], 1)
    assert parse_step(state, us, [], 1) == []  # nothing to say in the other side's step
    assert parse_step(state, us, [f"Iowa: 6 -> {IMT}"], 2) == [FireLine("Iowa", 6, (), IMT)]


def test_a_battery_fired_in_one_step_cannot_fire_in_a_later_step_of_the_turn() -> None:
    """TGD-FIRE-01 (our reading, AMB-66): each battery fires once a fire phase."""
    state = _duel()
    us = "United States"
    dice = FixedDice([1, 1])  # the f battery's two guns miss
    resolve_step(state, {us: parse_step(state, us, [f"Iowa: 6 -> {IMT}"], 2)}, dice, EventLog())
    with pytest.raises(IllegalOrderError, match=r"fire-4: Iowa: .*arc 'f' ready to fire"):
        parse_step(state, us, [f"Iowa: 6 f -> {IMT}"], 4)
    state.turn = 2  # the next turn's fire phase: every battery may fire again
    new_fire_phase(state)
    assert parse_step(state, us, [f"Iowa: 6 f -> {IMT}"], 1)


def test_the_steps_alternate_and_the_opening_side_alternates_by_turn() -> None:
    state = _duel()
    assert [step_side(state, k) for k in range(1, 5)] == ["Spain", "United States"] * 2
    state.turn = 2
    assert [step_side(state, k) for k in range(1, 5)] == ["United States", "Spain"] * 2


def test_fire_step_damages_the_card_and_caps_the_ships_propulsion() -> None:
    """Iowa's f 6x2 at range 15: 5+, US +1 → 4+; one hit in location 6 costs 3 knots."""
    state = _duel()
    events = EventLog()
    dice = FixedDice([4, 1, 6, 3])
    orders = {"Spain": [], "United States": [FireLine("Iowa", 6, (), IMT)]}
    resolve_step(state, orders, dice, events)
    dice.assert_consumed()
    card = state.cards[IMT]
    assert card.speed == 17 and card.hull_centre_hits == 1
    assert state.cards["Iowa"].fired == {(1, 0)}  # the f battery; a does not bear
    assert state.logs[IMT].speed_knots <= 20.2 * 17 / 20
    assert any("one strength six hit in location 6" in e.text for e in events)


def test_a_card_sunk_sinks_the_ship_and_later_actions_at_it_are_skipped() -> None:
    state = _duel()
    state.cards[IMT].hull_centre_hits = state.cards[IMT].card.hull_centre
    events = EventLog()
    dice = FixedDice([6, 6, 6, 6, 1])  # two hits, locations 6 and 6, save roll 1: sinks (3+)
    resolve_step(state, {"United States": [FireLine("Iowa", 6, (), IMT)]}, dice, events)
    resolve_step(state, {"United States": [FireLine("Oregon", 6, (), IMT)]}, dice, events)
    dice.assert_consumed()
    assert state.logs[IMT].sunk and state.cards[IMT].sunk
    assert any("has sunk" in e.text for e in events.of_kind(EventKind.NOTE))


def _to_fire_step(game: object) -> None:
    while not game.spec.name.startswith("fire"):  # type: ignore[attr-defined]
        for side in game.pending.waiting_for:  # type: ignore[attr-defined]
            submit(game, side, [])


def test_same_seed_same_orders_same_game() -> None:
    def play() -> str:
        game = new_game(SCENARIO, 9, ruleset="tgd")
        for _ in range(3):  # three turns of nothing but closing in
            _to_fire_step(game)
            while game.spec.name.startswith("fire"):
                for side in game.pending.waiting_for:
                    submit(game, side, [])
        return state_hash(game.state)

    assert play() == play()


def test_every_ship_class_derives_a_valid_card() -> None:
    from battleline.rulesets.bf1900.shipdb import load_ship_classes
    from battleline.rulesets.tgd.charts import load_charts

    charts = load_charts()
    for cls in load_ship_classes().values():
        card = derive_card(cls)
        assert charts.save_number(card.ship_type) >= 2, cls.name
        assert all(1 <= b.strength <= 6 for _, _, b in card.batteries()), cls.name
        assert all(0 <= a <= 6 for a in card.armour), cls.name


def test_every_builtin_scenario_sets_up_under_tgd() -> None:
    from battleline.rulesets.bf1900.scenario import builtin_scenarios

    for name in builtin_scenarios():
        state = new_state(name, 1)
        assert set(state.cards) == set(state.logs), name
        assert state.ruleset.startswith("tgd@")


def test_TGD_HIT_07_a_ship_stopped_in_one_step_is_stationary_to_the_others_in_the_next() -> None:
    """TGD-HIT-07: "Any subsequent attacking ships gain the +1 to hit, even if attacking in the
    same fire phase"; the ship that stopped it fires on without the bonus until the next phase."""
    state = _duel()
    card = state.cards[IMT]
    card.hull_centre_hits = card.card.hull_centre - 1
    state.poses["Oregon"] = Pose(200.0, 0.0, 0.0)
    events = EventLog()
    # Iowa: f 6x2 rolls 4, 1 → one hit; location 6; the last centre H: immobile (3 knots).
    resolve_step(
        state, {"United States": [FireLine("Iowa", 6, (), IMT)]}, FixedDice([4, 1, 6, 3]), events
    )
    assert card.immobile and card.stopped_by == "Iowa"
    resolve_step(
        state, {"United States": [FireLine("Oregon", 6, (), IMT)]}, FixedDice([1] * 8), events
    )
    salvo = events.of_kind(EventKind.SALVO)
    assert "stationary target +1" not in salvo[0].text
    assert "stationary target +1" in salvo[1].text
    new_fire_phase(state)  # the next turn's fire: the stopper gets the bonus too
    assert state.cards[IMT].stopped_by is None
