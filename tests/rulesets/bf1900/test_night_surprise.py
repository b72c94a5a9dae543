"""Night and surprise for the harbour attacks (issue 12 item 8, Port Arthur 1904): boats running
without lights are seen only nearer (``[[sides]] seen_at_m``); a side taken by surprise has its
guns unmanned for its first turns (``[[sides]] surprised_turns``). Both are digital adaptations
(docs/scenarios.md); sight is BF6-LOS-01's, refused fire names the scenario field."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline.ai.base import play
from battleline.engine.events import EventKind
from battleline.errors import IllegalOrderError, ScenarioError
from battleline.game import new_game
from battleline.rulesets.bf1900.observation import sighted
from battleline.rulesets.bf1900.ruleset import new_state, parse_gunnery
from battleline.rulesets.bf1900.scenario import load_scenario_file

NIGHT = """
id = "night-test"
title = "Night test"
turn_limit = 3
start = "night"
time = "Night, 1904"
[[sides]]
name = "Boats"
{boats}
[[sides.divisions]]
name = "Flotilla"
x = 0
y = {y}
heading = 0
speed = 20
ships = [{{ name = "Kasumi", class = "Ikazuchi" }}]
[[sides]]
name = "Roads"
{roads}
[[sides.divisions]]
name = "Anchored"
formation = "no formation"
at_anchor = true
heading = 90
ships = [{{ name = "Retvizan", class = "Retvisan", x = 0, y = 0 }}]
"""


def _file(tmp_path: Path, *, y: int = -1000, boats: str = "", roads: str = "") -> str:
    # One file per variant: scenarios are cached by path.
    path = tmp_path / f"night{y}{len(boats)}{len(roads)}{boats[-3:]}{roads[-2:]}.toml"
    path.write_text(NIGHT.format(y=y, boats=boats, roads=roads))
    return str(path)


def test_unlit_boats_are_seen_only_within_their_seen_at_m(tmp_path: Path) -> None:
    """At night (2,000 m visibility) the lit ship is seen from the boat at 1,000 m, but the
    unlit boat (seen_at_m 500) is not seen from the ship until she is nearer than 500 m."""
    far = new_state(_file(tmp_path, boats="seen_at_m = 500"), 1)
    assert "Retvizan" in sighted(far, "Boats")
    assert sighted(far, "Roads") == {}
    near = new_state(_file(tmp_path, y=-300, boats="seen_at_m = 500"), 1)
    assert "Kasumi" in sighted(near, "Roads")
    lit = new_state(_file(tmp_path), 1)  # no seen_at_m: the scenario's visibility for both
    assert "Kasumi" in sighted(lit, "Roads")


def test_a_surprised_side_may_not_fire_in_its_first_turns(tmp_path: Path) -> None:
    path = _file(tmp_path, y=-300, roads="surprised_turns = 1")
    game = new_game(path, 1)
    state = game.state
    with pytest.raises(IllegalOrderError, match="surprised_turns"):
        parse_gunnery(state, "Roads", ["Retvizan: Kasumi @400 A:2"])
    state.turn = 2  # the second turn: the guns are manned and the same line is accepted
    assert [e.target for e in parse_gunnery(state, "Roads", ["Retvizan: Kasumi @400 A:2"])] == [
        "Kasumi"
    ]
    assert parse_gunnery(state, "Boats", []) == []


def test_bad_night_fields_are_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="seen_at_m"):
        load_scenario_file(_file(tmp_path, boats="seen_at_m = -5"))
    with pytest.raises(ScenarioError, match="surprised_turns"):
        load_scenario_file(_file(tmp_path, roads="surprised_turns = -1"))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_port_arthur_boats_attack_and_keep_clear_of_the_anchored_ships(seed: int) -> None:
    """The destroyers launch, and no boat runs into a Russian ship (each flotilla turns away
    by itself, clear of the ships around it; no fleet turn for torpedo craft)."""
    game = new_game("port-arthur-1904", seed)
    play(game)
    events = list(game.events)
    side = {n: log.side for n, log in game.state.logs.items()}
    assert any(e.kind is EventKind.TORPEDO_LAUNCH for e in events)
    rammed = [
        e.text
        for e in events
        if e.kind is EventKind.COLLISION
        and e.ship is not None
        and len({side.get(n) for n in side if n in e.text}) == 2
    ]
    assert rammed == []
