"""The fire sequence over whole games: steps alternate, each battery fires once a turn, a ship
fires once a step, results are in the next step's view (TGD-FIRE-01/02, AMB-66)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.ai.base import admiral_factory, play
from battleline.engine.events import EventKind
from battleline.game import new_game
from battleline.rulesets.tgd.steps import STEPS, step_side


def _played(scenario: str, seed: int):  # type: ignore[no-untyped-def]
    return play(new_game(scenario, seed), factory=admiral_factory("tgd"))


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_every_salvo_is_in_its_sides_step_once_a_ship_and_its_batteries_once_a_turn(
    seed: int,
) -> None:
    game = _played("tgd-duel", seed)
    state = game.state
    salvos = [e for e in game.events if e.kind is EventKind.SALVO]
    assert salvos, "the admirals fired"
    per_step: Counter[tuple[int, str, str | None]] = Counter()
    batteries: Counter[tuple[int, str | None, str]] = Counter()
    for e in salvos:
        assert e.phase in STEPS
        step = STEPS.index(e.phase) + 1
        state.turn = e.turn  # whose step it was that turn
        assert state.logs[str(e.ship)].side == step_side(state, step)
        per_step[(e.turn, e.phase, e.ship)] += 1
        for battery in e.text.split(" fires ", 1)[1].split(" (")[0].split(", "):
            batteries[(e.turn, e.ship, battery)] += 1
    assert max(per_step.values()) == 1
    assert max(batteries.values()) == 1 or _twin_batteries(game)


def _twin_batteries(game) -> bool:  # type: ignore[no-untyped-def]
    """Whether some card lists two batteries with the same text (then they may both fire)."""
    for card in game.state.cards.values():
        texts = [str(b) for _, _, b in card.card.batteries()]
        if len(texts) != len(set(texts)):
            return True
    return False


def test_the_next_step_is_ordered_with_the_last_steps_results_in_view() -> None:
    game = new_game("tgd-duel", 4)
    make = admiral_factory("tgd")
    admirals = {s: make(s, i) for i, s in enumerate(game.state.sides)}
    checked = 0
    while not game.finished:
        phase = game.spec.name
        for side in game.pending.waiting_for:
            view = game.view(side)
            if phase in STEPS:
                # Every public hit count and location call of the earlier steps is in this view.
                shown = {id(e) for e in view.events}
                for e in game.events:
                    if e.kind is EventKind.HIT and (e.public or "against armour" in e.text):
                        assert id(e) in shown
                        checked += 1
            game.submit(side, admirals[side].orders(view, phase), turn=game.state.turn, phase=phase)
    assert checked > 0


@pytest.mark.slow
def test_the_historical_battle_plays_to_the_end() -> None:
    game = _played("tgd-santiago-1898", 3)
    assert game.state.result is not None
    assert any(card.sunk for card in game.state.cards.values())
