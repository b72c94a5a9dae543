"""The move planned when Command Phase orders are sealed travels with them (issue 11, §5).

The Movement Phase carries out that plan (BF6-CMD-04..15) unless the Command Phase changed the
division or its orders, when the move is planned again; no plan is remembered anywhere else.
"""

from __future__ import annotations

import pytest

from battleline.game import new_game
from battleline.rulesets.bf1900 import planning
from battleline.rulesets.bf1900.notation import parse_orders

BLUE = "Blue cruiser: SPD15 TS10S"
RED = "Red cruiser: SPD16"


def test_the_movement_phase_carries_out_the_plan_sealed_with_the_orders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = new_game("cruiser-duel", 1)
    made: list[str] = []
    real = planning._make_plan

    def counting(division, *args, **kwargs):  # type: ignore[no-untyped-def]
        made.append(division.name)
        return real(division, *args, **kwargs)

    monkeypatch.setattr(planning, "_make_plan", counting)
    game.submit("Blue", [BLUE], turn=1, phase="command")
    assert made == ["Blue cruiser"]  # planned once, on submission
    sealed = game.pending.parsed["Blue"].moves["Blue cruiser"]
    game.submit("Red", [RED], turn=1, phase="command")
    # Command and Movement resolved: nothing was planned again.
    assert made == ["Blue cruiser", "Red cruiser"]
    assert game.state.phase == "gunnery"
    yoshino = game.state.poses["Yoshino"]
    legs = sealed.plan.legs["Yoshino"]
    assert any(leg.kind == "turn" for leg in legs)
    assert yoshino.heading == pytest.approx(90.0 + 10.0, abs=0.5)  # TS10S, from heading 90


def test_a_division_the_command_phase_changed_is_planned_again() -> None:
    game = new_game("cruiser-duel", 1)
    game.submit("Blue", [BLUE], turn=1, phase="command")
    move = game.pending.parsed["Blue"].moves["Blue cruiser"]
    division = game.state.divisions["Blue cruiser"]
    assert move.fits(division, parse_orders("SPD15 TS10S"))
    assert not move.fits(division, parse_orders("SPD15"))  # a fleet turn replaced its orders
    assert not move.fits(
        division.with_(fleet_flagship=not division.fleet_flagship), parse_orders("SPD15 TS10S")
    )
