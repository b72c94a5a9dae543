"""Working up to full speed (BF6-MOV-03, EX-BF6-03; issue 12 item 1).

A ship may reach at most the lowest propulsion box above last turn's move. Speed orders are written
in tenths of a knot; a last move within one tenth below a box counts as that box, so an order
rounded down to the tenth below a box (as the AI writes them) never costs the ship a box.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from battleline.game import new_game
from battleline.rulesets.bf1900.movement import allowance_at
from battleline.rulesets.bf1900.ruleset import scale_of
from battleline.rulesets.bf1900.scales import get_scale
from battleline.rulesets.bf1900.scenario import lookup_class
from battleline.rulesets.bf1900.shiplog import ShipLog

SCENARIO = """
id = "working-up"
title = "Working up speed"
description = "Two cruisers far from any enemy work up from 10 knots."
ruleset = "bf1900"
scale = "small"
turn_limit = 8

[[sides]]
name = "Blue"

[[sides.divisions]]
name = "Blue cruisers"
x = 0
y = 0
heading = 90
speed = 10
ships = [{ name = "Naniwa", class = "Naniwa" }, { name = "Takachiho", class = "Naniwa" }]

[[sides]]
name = "Red"

[[sides.divisions]]
name = "Red cruiser"
x = 0
y = 60000
heading = 270
speed = 10
ships = [{ name = "Yoshino", class = "Yoshino" }]
"""


def _tenth_below(knots: float) -> float:
    """A speed order rounded down to the tenth strictly below ``knots`` (the AI's rounding)."""
    return math.floor(knots * 10.0 - 1e-6) / 10.0


def _play(tmp_path: Path, order_for: str) -> list[float]:
    """Play turns ordering Blue the fastest speed the rules allow, written ``order_for`` ("exact"
    or "below"); return Blue's slowest ship's move each turn, in knots."""
    path = tmp_path / "working-up.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    game = new_game(str(path), 1)
    scale = scale_of(game.state)
    moves: list[float] = []
    while not game.finished and game.state.turn <= 6:
        phase, turn = game.spec.name, game.state.turn
        for side in game.pending.waiting_for:
            lines: list[str] = []
            if side == "Blue" and phase == "command":
                hi = min(
                    allowance_at(
                        game.state.logs[s],
                        scale,
                        game.state.moved_last_m.get(s, scale.knots_to_m_per_turn(10.0)),
                        game.state.logs[s].speed_knots,
                    )[1]
                    for s in ("Naniwa", "Takachiho")
                )
                knots = scale.m_per_turn_to_knots(hi)
                knots = _tenth_below(knots) if order_for == "below" else round(knots, 1)
                lines = [f"Blue cruisers: SPD{knots:g}"]
            game.submit(side, lines, turn=turn, phase=phase)
        if game.spec.name == "command" or game.finished:
            last = game.state.moved_last_m
            moves.append(min(scale.m_per_turn_to_knots(last[s]) for s in ("Naniwa", "Takachiho")))
    return moves


@pytest.mark.parametrize("order_for", ["exact", "below"])
def test_BF6_MOV_03_division_works_up_from_10_kn_one_box_a_turn(
    tmp_path: Path, order_for: str
) -> None:
    boxes = sorted(lookup_class("Naniwa").propulsion_knots)
    assert boxes == [3.0, 6.0, 9.0, 12.0, 15.0, 18.0]
    moves = _play(tmp_path, order_for)
    # Boxes above 10 kn: 12, 15, 18 — three turns, one box each, then full speed holds.
    slack = 0.1 + 1e-6 if order_for == "below" else 1e-6
    expected = [12.0, 15.0, 18.0, 18.0, 18.0]
    assert len(moves) >= len(expected)
    for got, want in zip(moves, expected, strict=False):
        assert want - slack <= got <= want + 1e-6, (moves, order_for)


def test_BF6_MOV_03_a_move_a_tenth_below_a_box_counts_as_that_box() -> None:
    """EX-BF6-03's rule with the notation's resolution: 11.9 kn last turn allows the 15 kn box,
    11.8 kn only the 12 kn box."""
    scale = get_scale("small")
    log = ShipLog(name="Naniwa", cls=lookup_class("Naniwa"))
    top = log.speed_knots
    m = scale.knots_to_m_per_turn
    assert allowance_at(log, scale, m(11.9), top)[1] == pytest.approx(m(15.0))
    assert allowance_at(log, scale, m(12.0), top)[1] == pytest.approx(m(15.0))
    assert allowance_at(log, scale, m(11.8), top)[1] == pytest.approx(m(12.0))
    assert allowance_at(log, scale, m(10.0), top)[1] == pytest.approx(m(12.0))
    assert allowance_at(log, scale, m(17.95), top)[1] == pytest.approx(m(18.0))


def test_BF6_MOV_03_box_boundaries_are_deaf_to_metre_noise() -> None:
    """A last move a fraction of a metre either side of 11.9 kn (conversion noise, a follower
    keeping station) reaches the 12 kn box all the same; the comparison is in tenths of a knot."""
    scale = get_scale("small")
    log = ShipLog(name="Naniwa", cls=lookup_class("Naniwa"))
    top = log.speed_knots
    m = scale.knots_to_m_per_turn
    for noise in (-0.5, -0.2, 0.0, 0.2, 0.5):
        assert allowance_at(log, scale, m(11.9) + noise, top)[1] == pytest.approx(m(15.0))
    assert allowance_at(log, scale, m(11.84), top)[1] == pytest.approx(m(12.0))
