"""A side's crew quality and preferred fighting range in a scenario (``[[sides]] gunnery`` and
``doctrine_range_m``): validated on load, kept per side for that side's view only."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline.errors import ScenarioError
from battleline.game import new_game
from battleline.rulesets.bf1900.scenario import (
    GUNNERY_LEVELS,
    builtin_scenarios,
    load_scenario_file,
)

PROBE = """
id = "probe"
title = "Probe"
turn_limit = 3

[[sides]]
name = "Blue"
{blue}
[[sides.divisions]]
name = "Blue cruisers"
heading = 90
ships = [{{ name = "Yoshino", class = "Yoshino" }}]

[[sides]]
name = "Red"
{red}
[[sides.divisions]]
name = "Red cruisers"
y = 5000
heading = 90
ships = [{{ name = "Kasagi", class = "Kasagi" }}]
"""

HISTORICAL = ("yalu-1894", "santiago-1898", "yellow-sea-1904", "tsushima-1905", "ulsan-1904")


def _write(tmp_path: Path, blue: str = "", red: str = "", name: str = "probe.toml") -> Path:
    path = tmp_path / name
    path.write_text(PROBE.format(blue=blue, red=red), encoding="utf-8")
    return path


def test_gunnery_and_doctrine_range_load_per_side(tmp_path: Path) -> None:
    sc = load_scenario_file(
        _write(tmp_path, 'gunnery = "elite"\ndoctrine_range_m = 7000', 'gunnery = "green"')
    )
    blue, red = sc.sides
    assert (blue.gunnery, blue.doctrine_range_m) == ("elite", 7000.0)
    assert (red.gunnery, red.doctrine_range_m) == ("green", None)
    assert blue.doctrine() == {"gunnery": "elite", "doctrine_range_m": 7000.0}
    assert red.doctrine() == {"gunnery": "green"}


def test_both_fields_are_optional(tmp_path: Path) -> None:
    blue, red = load_scenario_file(_write(tmp_path)).sides
    assert blue.gunnery is None and blue.doctrine_range_m is None and red.doctrine() == {}


def test_an_unknown_gunnery_is_one_clear_error_naming_the_field(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as err:
        load_scenario_file(_write(tmp_path, red='gunnery = "superb"'))
    text = str(err.value)
    assert "sides[1].gunnery" in text and "'superb'" in text
    assert all(level in text for level in GUNNERY_LEVELS)
    assert "\n" not in text


@pytest.mark.parametrize("value", ["200", "12000", "-5", "nan"])
def test_a_doctrine_range_out_of_bounds_names_the_field(tmp_path: Path, value: str) -> None:
    with pytest.raises(ScenarioError, match=r"sides\[0\]\.doctrine_range_m: must be a range"):
        load_scenario_file(_write(tmp_path, blue=f"doctrine_range_m = {value}"))


def test_a_misspelt_field_is_still_refused(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"sides\[0\]\.gunery: unknown field"):
        load_scenario_file(_write(tmp_path, blue='gunery = "green"'))


def test_every_historical_scenario_sets_both_sides_crews() -> None:
    builtins = builtin_scenarios()
    for name in HISTORICAL:
        for side in builtins[name].sides:
            assert side.gunnery in GUNNERY_LEVELS, (name, side.name)


def test_the_settings_reach_the_game_state_per_side(tmp_path: Path) -> None:
    game = new_game(str(_write(tmp_path, 'gunnery = "elite"\ndoctrine_range_m = 7000')), 1)
    assert game.state.extra["doctrine"] == {
        "Blue": {"gunnery": "elite", "doctrine_range_m": 7000.0}
    }
    plain = new_game(str(_write(tmp_path, name="plain.toml")), 1)
    assert "doctrine" not in plain.state.extra


def test_a_division_doctrine_range_out_of_bounds_names_the_field(tmp_path: Path) -> None:
    text = PROBE.format(blue="", red="").replace(
        'name = "Blue cruisers"\n', 'name = "Blue cruisers"\ndoctrine_range_m = 12000\n'
    )
    path = tmp_path / "division-range.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"divisions\[0\]\.doctrine_range_m: must be a range"):
        load_scenario_file(path)


def test_a_division_fights_at_its_own_doctrine_range_seen_by_its_side_only() -> None:
    """The Yellow Sea: the Russian cruisers keep off at 10 km, the battle line fights at the
    side's 9 km; the Japanese view carries neither (issue 11 §3)."""
    from battleline.ai.picture import build_picture
    from battleline.ai.tactics import engage_range_m

    game = new_game("yellow-sea-1904", 1)
    russia, japan = game.view("Russia"), game.view("Japan")
    assert russia.divisions["Cruiser Division"]["doctrine_range_m"] == 10000.0
    assert "doctrine_range_m" not in russia.divisions["1st Battleship Division"]
    assert not any("doctrine_range_m" in d for d in japan.divisions.values())
    assert "10000" not in japan.to_json()
    picture = build_picture(russia)
    assert engage_range_m(picture, "Askold") == 10000.0
    assert engage_range_m(picture, "Tsesarevich") == 9000.0
    # Whichever cruiser leads once Askold is lost still keeps the division's range.
    cruisers = russia.divisions["Cruiser Division"]["ships"]
    assert cruisers[0] == "Askold" and len(cruisers) > 1
    assert all(engage_range_m(picture, ship) == 10000.0 for ship in cruisers)
