"""The typed TGD state: the cards are a field of their own, copied and hashed with the state."""

from __future__ import annotations

from battleline.engine.state import state_hash
from battleline.game import new_game
from battleline.rulesets.tgd.ruleset import new_state
from battleline.rulesets.tgd.state import TgdState


def test_new_state_is_typed_with_a_card_per_ship_and_nothing_in_extra() -> None:
    state = new_state("tgd-duel", 1)
    assert isinstance(state, TgdState)
    assert set(state.cards) == set(state.logs) == {"Mikasa", "Retvisan"}
    assert "tgd" not in state.extra
    assert state.scenario == "tgd-duel" and state.ruleset.startswith("tgd@")


def test_copy_shares_no_card_marks() -> None:
    state = new_state("tgd-duel", 1)
    twin = state.copy()
    assert isinstance(twin, TgdState) and twin.to_dict() == state.to_dict()
    twin.cards["Mikasa"].lost.add((1, 0))
    twin.cards["Mikasa"].fired.add((2, 0))
    twin.cards["Retvisan"].hull_centre_hits += 1
    assert not state.cards["Mikasa"].lost and not state.cards["Mikasa"].fired
    assert state.cards["Retvisan"].hull_centre_hits == 0
    assert twin.cards["Mikasa"].card is state.cards["Mikasa"].card  # the card itself is frozen


def test_the_state_hash_reads_the_card_marks() -> None:
    state = new_state("tgd-duel", 1)
    before = state_hash(state)
    data = state.to_dict()["cards"]["Retvisan"]
    assert data["card"].endswith("Retvisan") and data["hull_centre_hits"] == 0
    state.cards["Retvisan"].superstructure_hits = 1
    assert state_hash(state) != before


def test_the_game_keeps_its_state_typed_across_resolutions() -> None:
    game = new_game("tgd-duel", 1)
    for _ in range(3):
        for side in game.pending.waiting_for:
            game.submit(side, [])
    assert isinstance(game.state, TgdState) and game.spec.name.startswith("fire-")
