"""Standing by a consort fallen behind (``[[sides]] stand_by_until_turn``, docs/ai.md): Ulsan,
where Jessen turned back to cover Rurik until about turn 63."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from battleline.ai.consorts import STAND_BY_M, consort_to_cover, stands_off
from battleline.ai.picture import build_picture
from battleline.errors import ScenarioError
from battleline.game import new_game
from battleline.rulesets.bf1900.scenario import load_scenario_file

ULSAN = Path(__file__).parents[2] / "src/battleline/rulesets/bf1900/data/scenarios/ulsan_1904.toml"


def test_the_russian_view_carries_the_stand_by_turn_and_the_japanese_does_not() -> None:
    game = new_game("ulsan-1904", 1)
    assert game.view("Russia").stand_by_until_turn == 63
    japan = game.view("Japan")
    assert japan.stand_by_until_turn is None
    assert '"stand_by_until_turn":null' in japan.to_json()  # never the enemy's 63


def test_a_division_stands_by_the_ship_outside_it_until_the_turn_named() -> None:
    shown = new_game("ulsan-1904", 1).view("Russia")
    picture = build_picture(shown)
    # Rossia and Gromoboi as a division of their own: Rurik is the consort they cover.
    assert consort_to_cover(picture, ["Rossia", "Gromoboi"]) == "Rurik"
    # All three together: nobody is left behind.
    assert consort_to_cover(picture, ["Rossia", "Gromoboi", "Rurik"]) is None
    late = build_picture(dataclasses.replace(shown, turn=64))
    assert consort_to_cover(late, ["Rossia", "Gromoboi"]) is None
    never = build_picture(dataclasses.replace(shown, stand_by_until_turn=None))
    assert consort_to_cover(never, ["Rossia", "Gromoboi"]) is None


def test_a_division_far_from_its_consort_steers_back_to_her() -> None:
    shown = new_game("ulsan-1904", 1).view("Russia")
    picture = build_picture(shown)
    assert not stands_off(picture, ["Rossia", "Gromoboi"], "Rurik")
    far = dict(picture.poses)
    far["Rossia"] = dataclasses.replace(far["Rurik"], y=far["Rurik"].y + STAND_BY_M + 500.0)
    assert stands_off(dataclasses.replace(picture, poses=far), ["Rossia"], "Rurik")


def test_a_bad_stand_by_turn_names_the_field(tmp_path: Path) -> None:
    text = ULSAN.read_text(encoding="utf-8")
    bad = tmp_path / "ulsan-bad.toml"
    bad.write_text(text.replace("stand_by_until_turn = 63", "stand_by_until_turn = 0"), "utf-8")
    with pytest.raises(ScenarioError, match="stand_by_until_turn"):
        load_scenario_file(bad)
