"""What a tgd side sees: its own cards in full, the enemy's only as they show; who sees which
fire events (TGD-LOC-02, TGD-ARM-02: the firer reads off the locations, the owner calls hit or
ping and keeps his card)."""

from __future__ import annotations

import json

from battleline.ai.base import admiral_factory
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.game import new_game
from battleline.rulesets import get_ruleset
from battleline.rulesets.tgd.ruleset import new_state
from battleline.rulesets.tgd.state import TgdState
from battleline.rulesets.tgd.steps import FireLine, resolve_step
from battleline.rulesets.tgd.view import card_secrets, secrets
from battleline.testing import FixedDice

IMT = "Infanta Maria Teresa"
US, SPAIN = "United States", "Spain"


def _duel() -> TgdState:
    state = new_state("santiago-1898", 1)
    state.poses["Iowa"] = Pose(0.0, 0.0, 0.0)
    state.poses[IMT] = Pose(0.0, 1500.0, 90.0)
    return state


def _fire(state: TgdState, dice: list[int]) -> EventLog:
    events = EventLog(state.ship_sides())
    fixed = FixedDice(dice, events)
    resolve_step(state, {US: [FireLine("Iowa", 6, (), IMT)]}, fixed, events)
    fixed.assert_consumed()
    return events


def test_the_firer_sees_its_dice_and_hits_the_owner_keeps_the_damage() -> None:
    """Iowa f 6x2 at range 15 (4+): dice 4 1 → one hit; location 6 → hit; 3 knots lost."""
    events = _fire(_duel(), [4, 1, 6, 3])
    to_hit = [e for e in events if e.kind is EventKind.ROLL and "to hit" in e.text]
    assert to_hit and all(e.side == US and not e.seen_by and not e.public for e in to_hit)
    salvo = events.of_kind(EventKind.SALVO)[0]
    assert salvo.side == US and not salvo.public and "chart 5+" in salvo.text
    assert any(e.public and e.text == f"Iowa: 1 hit on {IMT}" for e in events)
    location = [e for e in events if e.kind is EventKind.ROLL and "hit location" in e.text]
    assert location and all(e.side == SPAIN and US in e.seen_by for e in location)
    calls = [e for e in events if e.kind is EventKind.HIT and "against armour" in e.text]
    assert calls and all(e.visible_to(US) and e.visible_to(SPAIN) for e in calls)
    damage = [e for e in events if e.kind in (EventKind.DAMAGE, EventKind.FLOODING)]
    knots = [e for e in events if e.kind is EventKind.ROLL and "knots lost" in e.text]
    assert damage and knots
    assert all(e.side == SPAIN and not e.visible_to(US) for e in [*damage, *knots])


def test_a_sinking_is_public_its_save_roll_is_not() -> None:
    state = _duel()
    state.cards[IMT].hull_centre_hits = state.cards[IMT].card.hull_centre
    events = _fire(state, [6, 6, 6, 6, 1])  # two hits in location 6; the first save (3+) fails
    sunk = events.of_kind(EventKind.SUNK)
    assert [e.text for e in sunk] == [f"{IMT} sinks"] and sunk[0].public
    saves = [e for e in events if "save vs sinking" in e.text]
    assert saves and not any(e.visible_to(US) for e in saves)


def test_secrets_name_the_enemy_cards_box_states_only() -> None:
    state = _duel()
    _fire(state, [4, 1, 6, 3])
    mine = secrets(state, US)
    assert state.cards[IMT].summary() in mine
    assert f"{IMT}: centre hull H crossed off" in mine
    assert not any(s.startswith("Iowa:") for s in mine)
    assert get_ruleset("tgd").secrets(state, SPAIN) == set().union(
        *(card_secrets(n, state.cards[n]) for n in state.ships_of(US))
    )


def test_own_cards_in_full_enemy_only_as_seen() -> None:
    game = new_game("tgd-duel", seed=1)
    view = game.view("Japan")
    assert [c.name for c in view.cards] == ["Mikasa"]
    assert view.card("Mikasa").log.card.name == "Mikasa"
    assert [s.name for s in view.seen] == ["Retvisan"]
    data = view.to_dict()
    assert data["cards"][0]["log"]["card"].endswith("Mikasa")
    assert set(data["seen"][0]) == {"name", "burning", "stopped", "sunk"}


def test_no_view_or_event_served_in_a_whole_game_leaks_an_enemy_card() -> None:
    """Every view served to each side, events included, is scanned for the other side's card
    secrets as they stand when it is served."""
    game = new_game("tgd-duel", seed=2)
    make = admiral_factory("tgd")
    admirals = {s: make(s, i) for i, s in enumerate(game.state.sides)}
    cursor = dict.fromkeys(game.state.sides, 0)
    scanned = damaged = 0
    while not game.finished:
        phase = game.spec.name
        for side in game.pending.waiting_for:
            view = game.view(side, since=cursor[side])
            cursor[side] = len(game.events)
            text = json.dumps(view.to_dict())
            hidden = get_ruleset("tgd").secrets(game.state, side)
            leaked = [s for s in hidden if s in text]
            assert not leaked, (game.state.turn, phase, side, leaked)
            scanned += 1
            game.submit(side, admirals[side].orders(view, phase), turn=game.state.turn, phase=phase)
        damaged = sum(1 for c in game.state.cards.values() if c.lost or c.hull_centre_hits)
    assert scanned > 20 and damaged >= 1
