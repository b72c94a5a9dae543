"""Command orders are checked in full when submitted, so resolution never meets an illegal one."""

from __future__ import annotations

import pytest

from battleline.engine import submit
from battleline.errors import IllegalOrderError
from battleline.game import new_game


def test_BF6_CMD_16_an_ineligible_drop_out_is_refused_on_submission() -> None:
    """BF6-CMD-16: Magnificent has no more propulsion hits than Prince George astern of her,
    so her drop-out is refused when the order is submitted, and the side may submit again."""
    game = new_game("channel-1900", 1)
    with pytest.raises(IllegalOrderError, match="BF6-CMD-16"):
        submit(game, "Britain", ["1st Division: DROP Magnificent"])
    assert game.state.turn == 1 and game.state.phase == "command"
    submit(game, "Britain", ["1st Division: SPD10"])


def test_BF6_CMD_14_stop_with_another_order_is_refused_on_submission() -> None:
    """BF6-CMD-14: a stop cannot be combined with another order."""
    game = new_game("channel-1900", 1)
    with pytest.raises(IllegalOrderError, match="BF6-CMD-14"):
        submit(game, "France", ["Escadre du Nord: STOP TT45P"])
