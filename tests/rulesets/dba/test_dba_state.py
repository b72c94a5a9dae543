"""DbaState: typed ship records and spell bookkeeping, a copy that shares nothing mutable, and a
canonical dump whose hash replay verification compares."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.ai.base import play
from battleline.engine.geometry import Pose
from battleline.engine.state import state_hash
from battleline.game import new_game
from battleline.rulesets.dba.ruleset import new_state
from battleline.rulesets.dba.state import DbaState
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.windy_corner import WindyCorner


def test_state_is_typed_not_extra_json() -> None:
    state = new_state("yalu", 1)
    assert isinstance(state, DbaState)
    assert not hasattr(state, "extra")
    assert all(isinstance(s, ShipStatus) for s in state.ships.values())
    assert state.options.windy_corners and state.doctrine == {"China": "normal", "Japan": "long"}
    dumped = state.to_dict()
    assert dumped["ships"]["Ting Yuen"]["ship"] == "Ting Yuen"  # by Annex A name, not factors
    assert dumped["ruleset"] == "dba" and dumped["sides"] == ["China", "Japan"]


def test_copy_shares_nothing_mutable() -> None:
    state = new_state("yalu", 1)
    state.splash.corners["WC1-x"] = WindyCorner("WC1-x", "Peiyang", {"Chen Yuen"}, {"Ting Yuen"})
    state.splash.fired_at_stopped[(1, "Yoshino")] = "Ting Yuen"
    state.launched["Kotaka"] = ("Yoshino", 1)
    before = state.to_dict()
    twin = state.copy()
    assert twin.to_dict() == before and state_hash(twin) == state_hash(state)
    twin.ships["Ting Yuen"].damage = 2
    twin.poses["Ting Yuen"] = Pose(1.0, 2.0, 3.0)
    twin.splash.corners["WC1-x"].occupants.add("Chih Yuen")
    twin.splash.fired_at_stopped[(2, "Naniwa")] = "Chen Yuen"
    twin.tracks["Ting Yuen"].append((9.0, 9.0))
    twin.nips["Peiyang"] = 6
    twin.ram_choice["Yoshino"] = 1
    assert state.to_dict() == before


@settings(max_examples=4, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_a_game_ends_with_a_verdict_and_every_ship_accounted_for(seed: int) -> None:
    """Any seed: AI against AI ends; sunk ships are crippled too; scores are the PV rule's."""
    game = play(new_game("dba-tutorial", seed))
    result = game.state.result
    assert result is not None and game.state.turn <= game.state.turn_limit
    for s in game.state.ships.values():
        assert not s.sunk or s.crippled
        assert 0 <= s.torpedo_used <= s.ship.torpedo
    assert all(v >= 0 for v in result.points.values())
