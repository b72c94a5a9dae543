"""A side's crew quality and fighting range from its scenario reach its AI admiral
(``[[sides]] gunnery`` / ``doctrine_range_m``; see docs/ai.md, "Doctrine")."""

from __future__ import annotations

import math
import statistics
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from battleline.ai.admiral import DEFAULT_SKILL, FleetAdmiral
from battleline.ai.base import Admiral
from battleline.ai.picture import build_picture
from battleline.ai.ranging import SKILLS
from battleline.ai.tactics import ENGAGE_FRACTION, engage_range_m
from battleline.engine import Game, view
from battleline.engine.flow import admiral_seed
from battleline.game import new_game
from battleline.rulesets.bf1900.scenario import GUNNERY_LEVELS


def _duel(tmp_path: Path, **side_settings: Any) -> str:
    """The cruiser-duel scenario with ``side_settings`` added to both sides, as a file."""
    res = resources.files("battleline.rulesets.bf1900").joinpath(
        "data", "scenarios", "01-cruiser-duel.toml"
    )
    with res.open("rb") as fh:
        raw = tomllib.load(fh)
    lines = [f'id = "duel-{len(side_settings)}"', f'title = "{raw["title"]}"', "turn_limit = 12"]
    for side in raw["sides"]:
        lines.append("[[sides]]")
        lines.append(f'name = "{side["name"]}"')
        for key, value in side_settings.items():
            lines.append(f"{key} = {value!r}".replace("'", '"'))
        for div in side["divisions"]:
            lines.append("[[sides.divisions]]")
            for key in ("name", "x", "y", "heading", "speed"):
                value = div[key]
                lines.append(f'{key} = "{value}"' if isinstance(value, str) else f"{key} = {value}")
            ship = div["ships"][0]
            lines.append(f'ships = [{{ name = "{ship["name"]}", class = "{ship["class"]}" }}]')
    path = tmp_path / f"duel{len(side_settings)}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _mean_range(game: Game, turns: int) -> float:
    """Play ``turns`` turns with the default admirals; the mean distance between the two
    cruisers at each Command Phase after the first."""
    admirals: dict[str, Admiral] = {
        s: FleetAdmiral(s, admiral_seed(game.state.seed, i)) for i, s in enumerate(game.state.sides)
    }
    ranges: list[float] = []
    cursor = dict.fromkeys(game.state.sides, 0)
    while not game.finished and game.state.turn <= turns:
        if game.spec.name == "command" and game.state.turn > 1:
            a, b = game.state.poses.values()
            ranges.append(math.dist((a.x, a.y), (b.x, b.y)))
        for side in game.pending.waiting_for:
            shown = view(game, side, since=cursor[side])
            cursor[side] = len(game.events)
            lines = admirals[side].orders(shown, game.spec.name)
            game.submit(side, lines, turn=game.state.turn, phase=game.spec.name)
    return sum(ranges) / len(ranges)


def test_a_longer_doctrine_range_keeps_a_longer_mean_range(tmp_path: Path) -> None:
    """Two cruisers start 5 km apart: at the default (1.6 brackets, 4 km) the admirals close;
    with ``doctrine_range_m = 8000`` they open out and fight further off (BF6-CMD-26). The median
    of twelve battles, over the first five turns: each judges the range from observed positions,
    and later a cruiser crippled by her hits turns away, whatever the doctrine."""
    seeds = range(1, 13)
    default = statistics.median(_mean_range(new_game(_duel(tmp_path), s), 5) for s in seeds)
    longer = statistics.median(
        _mean_range(new_game(_duel(tmp_path, doctrine_range_m=8000), s), 5) for s in seeds
    )
    assert default < 5000.0
    assert longer > default + 1500.0


def test_each_side_sees_only_its_own_doctrine() -> None:
    """The Yalu: the Japanese view carries Japan's settings, the Chinese view China's."""
    game = new_game("yalu-1894", 1)
    japan, china = view(game, "Japan"), view(game, "China")
    assert (japan.gunnery, japan.doctrine_range_m) == ("veteran", 3500.0)
    assert (china.gunnery, china.doctrine_range_m) == ("green", 2500.0)
    shown = china.to_dict()
    assert (shown["gunnery"], shown["doctrine_range_m"]) == ("green", 2500.0)
    assert engage_range_m(build_picture(japan)) == 3500.0


def test_without_doctrine_the_admiral_keeps_the_defaults() -> None:
    """A scenario that sets nothing: veteran range-takers, 1.6 brackets."""
    game = new_game("cruiser-duel", 1)
    shown = view(game, "Blue")
    assert shown.gunnery is None and shown.doctrine_range_m is None
    picture = build_picture(shown)
    assert engage_range_m(picture) == ENGAGE_FRACTION * picture.scale.bracket_m
    admiral = FleetAdmiral("Blue", 1)
    admiral.orders(shown, game.spec.name)
    assert admiral.skill is SKILLS[DEFAULT_SKILL]


def test_the_admiral_takes_its_crews_skill_from_the_scenario() -> None:
    """Japan at Tsushima is elite; a skill given explicitly overrides the scenario's."""
    game = new_game("tsushima-1905", 1)
    from_scenario = FleetAdmiral("Japan", 1)
    from_scenario.orders(view(game, "Japan"), game.spec.name)
    assert from_scenario.skill is SKILLS["elite"]
    assert from_scenario.keeper.skill is SKILLS["elite"]
    forced = FleetAdmiral("Japan", 1, "green")
    forced.orders(view(game, "Japan"), game.spec.name)
    assert forced.skill is SKILLS["green"]


def test_every_scenario_gunnery_level_is_an_admiral_skill() -> None:
    """The scenario's ``gunnery`` names and the range-takers' skills are the same list, worst
    first, each level judging a first estimate more closely than the one before."""
    assert tuple(SKILLS) == GUNNERY_LEVELS
    spreads = [SKILLS[level].sd_total(6000.0) for level in GUNNERY_LEVELS]
    assert spreads == sorted(spreads, reverse=True)
