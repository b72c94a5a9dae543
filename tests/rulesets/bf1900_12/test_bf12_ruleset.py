"""The 1D12 edition as a ruleset: registry, set-up on the 1D12 scale, a game played to the end
by the admirals with every damage and torpedo roll on a d12 (DIFF-01, DIFF-23)."""

from __future__ import annotations

from collections import Counter

import pytest

from battleline.ai.base import play
from battleline.engine.events import EventKind
from battleline.engine.flow import Game
from battleline.errors import IllegalOrderError
from battleline.rulesets import canonical_name, get_ruleset, ruleset_of_scenario
from battleline.rulesets.bf1900.shipdb import get_ship_class
from battleline.rulesets.bf1900_12.edition import to_1d12

SCENARIO = "cruiser-duel-1d12"
#: Phases whose every roll the 1D12 texts put on the d12 (DIFF-01: shell hits, flooding,
#: sinking, criticals, damage control, torpedo hits).
D12_PHASES = {"torpedo", "damage"}


def test_the_edition_is_a_ruleset_a_scenario_can_name() -> None:
    """The switch: "bf1900-1d12" and its aliases; the scenario names it."""
    for alias in ("bf1900-1d12", "battlefleet1900-v2", "bf12", "BF1900-1D12@0.1"):
        assert canonical_name(alias) == "bf1900-1d12"
    assert get_ruleset("bf1900-v2").name == "bf1900-1d12"
    assert ruleset_of_scenario(SCENARIO).name == "bf1900-1d12"
    assert get_ruleset("bf1900").name == "bf1900"


def test_DIFF_23_ship_values_on_the_1d12_scale() -> None:
    """DIFF-23, REF-BF12-14, REF-BF12-03: a battleship (1D6 size 10) is size 55, a 12-inch
    round (shell size 5) size 60, Mikasa's armour "12-9" and penetration per bracket."""
    m = to_1d12(get_ship_class("Mikasa"))
    assert m.size == 55
    assert m.mounting("A").shell_size == 60
    assert (m.armour_vitals, m.armour_upperworks) == (12, 9)
    assert m.mounting("A").penetration == get_ship_class("Mikasa").mounting("A").penetration
    game = Game(get_ruleset("bf1900-1d12"), SCENARIO, 3)
    assert game.state.ruleset.startswith("bf1900-1d12")
    assert {log.cls.size for log in game.state.logs.values()} == {33}


@pytest.mark.parametrize("seed", [0, 1])
def test_the_1d12_cruiser_duel_plays_to_the_end_on_d12s(seed: int) -> None:
    """The admirals play cruiser-duel-1d12 to a result; every roll in the Torpedo and Damage
    Phases is a d12 (DIFF-01) and the damage rolls happened."""
    game = play(Game(get_ruleset("bf1900-1d12"), SCENARIO, seed))
    assert game.finished
    assert game.events.of_kind(EventKind.RESULT)
    rolls = [e for e in game.events.of_kind(EventKind.ROLL) if e.phase in D12_PHASES]
    assert rolls, "the damage phase rolled nothing"
    assert Counter(e.data["sides"] for e in rolls).keys() == {12}


def test_damage_control_orders_are_checked_on_submission() -> None:
    """BF12-DC-02, BF12-DC-03 at the order gate: a legal-looking line that breaks a rule is refused
    with the rule ID, naming the ship."""
    from battleline.rulesets.bf1900_12.ruleset import parse_damage_control

    game = Game(get_ruleset("bf1900-1d12"), SCENARIO, 1)
    with pytest.raises(IllegalOrderError, match=r"Yoshino.*BF12-DC-02"):
        parse_damage_control(game.state, "Blue", ["Yoshino: M:A"])
