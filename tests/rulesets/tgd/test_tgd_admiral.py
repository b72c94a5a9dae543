"""The TGD AI admiral: it fires when a target is in range and arc, with the strength and at the
target that promise most, and holds its fire otherwise (issue 11 §2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battleline.ai.tgd_admiral import TgdAdmiral, hit_chance, pierce_share
from battleline.engine.geometry import Pose
from battleline.game import new_game
from battleline.rulesets.tgd.charts import HitNumber, load_charts


def test_hit_chance_follows_the_chart() -> None:
    """TGD-HIT-01/04: 5+ is two faces in six; "6 then 5+" a six first (EX-TGD-09)."""
    assert hit_chance(HitNumber(5)) == pytest.approx(2 / 6)
    assert hit_chance(HitNumber(5, first=6)) == pytest.approx(2 / 36)
    assert hit_chance(HitNumber(2)) == pytest.approx(5 / 6)  # a natural 1 always misses


def test_pierce_share_uses_the_range_modified_strength() -> None:
    """TGD-PEN-01, TGD-ARM-01: strength 2 at range 15 is 3, through armour under 3."""
    armour = (6, 4, 2, 0, 4, 6)
    assert pierce_share(2, 15.0, armour, load_charts()) == pytest.approx(2 / 6)
    assert pierce_share(2, 45.0, armour, load_charts()) == pytest.approx(1 / 6)


def _to_step(game, side: str):  # type: ignore[no-untyped-def]
    """Advance to the first fire step ``side`` is asked for; its view."""
    while True:
        for s in game.pending.waiting_for:
            if game.spec.name.startswith("fire-") and s == side:
                return game.view(side)
            game.submit(s, [])


def _placed(distance_m: float, heading: float = 90.0):  # type: ignore[no-untyped-def]
    game = new_game("tgd-duel", 1)
    st = game.state
    st.poses["Mikasa"] = Pose(0.0, 0.0, heading)
    st.poses["Retvisan"] = Pose(0.0, distance_m, 90.0)
    return game


def test_fires_its_heaviest_guns_that_bear_when_the_enemy_is_in_range() -> None:
    game = _placed(1500.0)
    view = _to_step(game, "Japan")
    assert TgdAdmiral("Japan", 1).fire(view) == ["Mikasa: 6 -> Retvisan"]


def test_holds_fire_beyond_every_guns_reach_and_in_the_enemys_step() -> None:
    game = _placed(1500.0)
    view = _to_step(game, "Japan")
    assert view.firing_side == "Japan"
    assert TgdAdmiral("Russia", 1).fire(game.view("Russia")) == []  # not Russia's step
    here = view.own[0].pose
    # The same view with the enemy out of reach of strength 6 (6,000 m).
    away = replace(
        view, contacts=(replace(view.contacts[0], pose=Pose(here.x, here.y + 7000.0, 90.0)),)
    )
    assert TgdAdmiral("Japan", 1).fire(away) == []


def test_a_ship_fires_one_strength_a_step_and_the_next_in_a_later_step() -> None:
    game = _placed(800.0)  # inside the reach of the strength-2 secondaries (2,000 m)
    admiral = TgdAdmiral("Japan", 1)
    given: list[str] = []
    while game.state.turn == 1:
        phase = game.spec.name
        for side in game.pending.waiting_for:
            # Only fire orders: with no command orders both ships hold course, 800 m apart.
            ours = side == "Japan" and phase.startswith("fire-")
            lines = admiral.orders(game.view(side), phase) if ours else []
            if phase.startswith("fire-"):
                given += lines
            game.submit(side, lines, turn=1, phase=phase)
    strengths = [int(line.split(":")[1].split("->")[0]) for line in given]
    assert strengths[0] == 6 and 2 in strengths  # the 6s first, then the secondaries
    assert len(strengths) == len(set(strengths))  # each strength's batteries fire once
