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
from battleline.rulesets.tgd.ruleset import (
    FireLine,
    _alternate,
    cards_of,
    geometry,
    new_state,
    parse_fire,
    parse_fire_line,
    resolve_fire,
)
from battleline.testing import FixedDice

SCENARIO = "santiago-1898"
IMT = "Infanta Maria Teresa"


def test_registered_with_three_phases() -> None:
    ruleset = get_ruleset("tgd")
    assert [p.name for p in ruleset.phases] == ["command", "movement", "fire"]


def test_fire_line_notation() -> None:
    assert parse_fire_line("Mikasa: 6 -> Retvisan") == FireLine("Mikasa", 6, (), "Retvisan")
    assert parse_fire_line(" Pelayo : 5 fp, fs -> Iowa ") == FireLine(
        "Pelayo", 5, ("fp", "fs"), "Iowa"
    )
    with pytest.raises(OrderSyntaxError, match="TGD-FIRE-01"):
        parse_fire_line("Mikasa fires at Retvisan")
    with pytest.raises(OrderSyntaxError, match="unknown arc 'zz'"):
        parse_fire_line("Mikasa: 6 zz -> Retvisan")


def test_cards_packaged_by_ship_or_class_name_else_derived() -> None:
    cards = cards_of(new_state(SCENARIO, 1))
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


def _duel() -> tuple:
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


def test_parse_fire_refuses_with_turn_and_rule() -> None:
    state = _duel()
    with pytest.raises(IllegalOrderError, match=r"turn 1 fire: Spain has no ship named 'Iowa'"):
        parse_fire(state, "Spain", ["Iowa: 6 -> Vizcaya"])
    with pytest.raises(IllegalOrderError, match="is not an enemy ship"):
        parse_fire(state, "United States", ["Iowa: 6 -> Oregon"])
    with pytest.raises(IllegalOrderError, match=r"turn 1 fire: Iowa: .*TGD-FIRE-01"):
        parse_fire(state, "United States", [f"Iowa: 6 f -> {IMT}", f"Iowa: 6 f -> {IMT}"])
    assert parse_fire(state, "United States", [f"Iowa: 6 -> {IMT}"])


def test_actions_alternate_and_the_first_side_alternates_by_turn() -> None:
    state = _duel()
    a = [FireLine("Iowa", 6, (), IMT), FireLine("Oregon", 6, (), IMT)]
    b = [FireLine(IMT, 5, (), "Iowa")]
    orders = {"Spain": b, "United States": a}
    assert _alternate(state, orders) == [b[0], a[0], a[1]]
    state.turn = 2
    assert _alternate(state, orders) == [a[0], b[0], a[1]]


def test_fire_phase_damages_the_card_and_caps_the_ships_propulsion() -> None:
    """Iowa's f 6x2 at range 15: 5+, US +1 → 4+; one hit in location 6 costs 3 knots."""
    state = _duel()
    events = EventLog()
    dice = FixedDice([4, 1, 6, 3])
    orders = {"Spain": [], "United States": [FireLine("Iowa", 6, (), IMT)]}
    resolve_fire(state, orders, dice, events)
    dice.assert_consumed()
    card = cards_of(state)[IMT]
    assert card.speed == 17 and card.hull_centre_hits == 1
    assert cards_of(state)["Iowa"].fired == {(1, 0)}  # the f battery; a does not bear
    assert state.logs[IMT].speed_knots <= 20.2 * 17 / 20
    assert any("one strength six hit in location 6" in e.text for e in events)


def test_a_card_sunk_sinks_the_ship_and_later_actions_at_it_are_skipped() -> None:
    state = _duel()
    cards = cards_of(state)
    cards[IMT].hull_centre_hits = cards[IMT].card.hull_centre
    state.extra["tgd"] = {n: c.to_dict() for n, c in cards.items()}
    events = EventLog()
    dice = FixedDice([6, 6, 6, 6, 1])  # two hits, locations 6 and 6, save roll 1: sinks (3+)
    orders = {
        "Spain": [],
        "United States": [FireLine("Iowa", 6, (), IMT), FireLine("Iowa", 3, (), IMT)],
    }
    resolve_fire(state, orders, dice, events)
    dice.assert_consumed()
    assert state.logs[IMT].sunk and cards_of(state)[IMT].sunk
    assert any("has sunk" in e.text for e in events.of_kind(EventKind.NOTE))


def test_same_seed_same_orders_same_game() -> None:
    def play() -> str:
        game = new_game(SCENARIO, 9, ruleset="tgd")
        submit(game, "Spain", [])
        submit(game, "United States", [])
        assert game.spec.name == "fire"
        submit(game, "United States", ["Iowa: 6 -> Infanta Maria Teresa"])
        submit(game, "Spain", [])
        assert game.spec.name == "command" and game.state.turn == 2
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
        assert set(cards_of(state)) == set(state.logs), name
        assert state.ruleset.startswith("tgd@")
