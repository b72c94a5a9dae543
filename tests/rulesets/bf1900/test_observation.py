"""The observation model of digital play (issue 11, §4; a digital adaptation, not a seed rule):
observed enemy positions, sight (BF6-LOS-01, BF6-LOS-02, land, visibility), the scenario toggle,
and its reproducibility from the game seed without touching the game's dice."""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any

import pytest

from battleline.engine.dice import keyed_normals
from battleline.engine.flow import Game
from battleline.engine.geometry import Pose
from battleline.engine.record import GameRecord
from battleline.errors import IllegalOrderError, RulesDataError, ScenarioError
from battleline.game import new_game, replay_game
from battleline.rulesets.bf1900.observation import (
    Contact,
    contacts_for,
    load_observation,
    observation_draws,
)
from battleline.rulesets.bf1900.ruleset import scale_of
from battleline.rulesets.bf1900.scenario import get_scenario
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.bf1900.table import funnel_point

# Blue: Mikasa at the origin heading east, Ikazuchi 1 km south of her. Red: Fuji 4 km north in
# plain sight; Yashima 5 km south behind the Rock from both Blue ships; Hatsuse 1.4 km from
# Ikazuchi behind the Reef from Ikazuchi, but in sight of Mikasa; Chinyen 8 km east.
SCENARIO = """
id = "observation-test"
title = "Observation: sight and observed positions"
scale = "small"
turn_limit = 6
{extra}

[[sides]]
name = "Blue"
[[sides.divisions]]
name = "Blue line"
heading = 90
speed = 0
ships = [{{ name = "Mikasa", class = "Mikasa" }}]
[[sides.divisions]]
name = "Blue boats"
y = -1000
heading = 90
speed = 0
ships = [{{ name = "Ikazuchi", class = "Ikazuchi" }}]

[[sides]]
name = "Red"
[[sides.divisions]]
name = "Red north"
y = 4000
heading = 90
speed = 0
ships = [{{ name = "Fuji", class = "Fuji" }}]
[[sides.divisions]]
name = "Red hidden"
y = -5000
heading = 90
speed = 0
ships = [{{ name = "Yashima", class = "Fuji" }}]
[[sides.divisions]]
name = "Red reef"
x = 1000
y = -2000
heading = 90
speed = 0
ships = [{{ name = "Hatsuse", class = "Fuji" }}]
[[sides.divisions]]
name = "Red far"
x = 8000
heading = 90
speed = 0
ships = [{{ name = "Chinyen", class = "Fuji" }}]

[[land]]
name = "Rock"
points = [[-800, -2500], [800, -2500], [800, -3500], [-800, -3500]]
[[land]]
name = "Reef"
points = [[400, -1400], [600, -1400], [600, -1600], [400, -1600]]
"""


def _scenario(tmp_path: Path, extra: str = "") -> str:
    path = tmp_path / f"observation{abs(hash(extra))}.toml"
    path.write_text(SCENARIO.format(extra=extra), encoding="utf-8")
    return str(path)


def _to_phase(game: Game[Any, Any], phase: str) -> Game[Any, Any]:
    """Submit no orders until ``phase`` is open."""
    for _ in range(12):
        if game.spec.name == phase:
            return game
        for side in game.state.sides:
            if side in game.pending.waiting_for:
                game.submit(side, [])
    raise AssertionError(f"never reached {phase}")


def _factor(state: Bf1900State, contact: Contact) -> float:
    """Observed ÷ true range, funnel to funnel from the contact's observer."""
    scale = scale_of(state)
    assert contact.observer is not None
    here = funnel_point(
        state.poses[contact.observer], scale.base_size_m(state.logs[contact.observer].cls)[0]
    )
    length = scale.base_size_m(state.logs[contact.name].cls)[0]
    true_m = math.dist(here, funnel_point(state.poses[contact.name], length))
    return math.dist(here, funnel_point(contact.pose, length)) / true_m


# -- sight -------------------------------------------------------------------------------------


def test_BF6_LOS_02_a_ship_behind_an_island_is_not_in_the_view(tmp_path: Path) -> None:
    """Yashima, behind the Rock from every Blue ship, is not in Blue's view at all; Hatsuse,
    hidden from Ikazuchi by the Reef, is seen from Mikasa; Fuji and Chinyen are in plain sight."""
    game = new_game(_scenario(tmp_path), 1)
    seen = {c.name: c for c in game.view("Blue").contacts}
    assert set(seen) == {"Fuji", "Hatsuse", "Chinyen"}
    assert seen["Hatsuse"].observer == "Mikasa"
    assert seen["Fuji"].observer == "Mikasa"
    assert all(c.observed for c in seen.values())
    assert "Yashima" not in game.view("Blue").to_json()
    # Red sees every Blue ship (nothing hides Mikasa or Ikazuchi from all of Red's ships).
    assert {c.name for c in game.view("Red").contacts} == {"Mikasa", "Ikazuchi"}


def test_BF6_LOS_01_a_target_out_of_sight_is_refused_without_saying_where(tmp_path: Path) -> None:
    """Guns and torpedoes at Yashima are refused as "not in sight", naming neither the Rock nor
    a range; a firer blocked by land from a target another ship sees gets the ordinary
    line-of-sight answer."""
    game = _to_phase(new_game(_scenario(tmp_path), 1), "gunnery")
    with pytest.raises(IllegalOrderError) as err:
        game.check("Blue", ["Mikasa: Yashima @5000 A:2"])
    text = str(err.value)
    assert "Mikasa firing at Yashima: not in sight (BF6-LOS-01)" in text
    assert "Rock" not in text and "5000" not in text.replace("@5000", "")
    with pytest.raises(IllegalOrderError, match="no line of sight: blocked by Reef"):
        game.check("Blue", ["Ikazuchi: Hatsuse @1400 " + _any_gun(game, "Ikazuchi")])
    game = _to_phase(game, "torpedo")
    with pytest.raises(IllegalOrderError, match="Ikazuchi firing at Yashima: not in sight"):
        game.check("Blue", ["Ikazuchi: TT bow -> Yashima"])


def _any_gun(game: Game[Any, Any], ship: str) -> str:
    mount = game.state.logs[ship].cls.mountings[0]
    return f"{mount.key}:1"


# Blue: Mikasa at the origin, Ikazuchi 9.5 km north; Red: Fuji 9 km north, seen from Ikazuchi,
# and Yashima 4.5 km north, across Mikasa's sight line to Fuji, 4.5 km from Mikasa and 5.1 km
# from Ikazuchi.
SCREEN = """
id = "screen-test"
title = "Observation: a sight line blocked by a ship"
scale = "small"
turn_limit = 6
visibility_m = {visibility}

[[sides]]
name = "Blue"
[[sides.divisions]]
name = "Blue line"
heading = 90
speed = 0
ships = [{{ name = "Mikasa", class = "Mikasa" }}]
[[sides.divisions]]
name = "Blue boats"
x = 1000
y = 9500
heading = 90
speed = 0
ships = [{{ name = "Ikazuchi", class = "Ikazuchi" }}]

[[sides]]
name = "Red"
[[sides.divisions]]
name = "Red target"
y = 9000
heading = 90
speed = 0
ships = [{{ name = "Fuji", class = "Fuji" }}]
[[sides.divisions]]
name = "Red screen"
y = 4500
heading = 90
speed = 0
ships = [{{ name = "Yashima", class = "Fuji" }}]
"""


@pytest.mark.parametrize(("visibility", "seen"), [(4000, False), (6000, True)])
def test_BF6_LOS_02_a_sight_line_blocked_by_an_unseen_ship_does_not_name_her(
    tmp_path: Path, visibility: int, seen: bool
) -> None:
    """Mikasa's line to Fuji (seen from Ikazuchi) crosses Yashima's base. With visibility 4 km
    Yashima is out of Blue's sight: the refusal says "blocked" and never names her (issue 11,
    §3); with 6 km she is in Blue's view and is named."""
    path = tmp_path / f"screen{visibility}.toml"
    path.write_text(SCREEN.format(visibility=visibility), encoding="utf-8")
    game = _to_phase(new_game(str(path), 1), "gunnery")
    view = game.view("Blue")
    assert ("Yashima" in {c.name for c in view.contacts}) is seen
    assert "Fuji" in {c.name for c in view.contacts}
    with pytest.raises(IllegalOrderError) as err:
        game.check("Blue", ["Mikasa: Fuji @8000 " + _any_gun(game, "Mikasa")])
    text = str(err.value)
    assert "Mikasa firing at Fuji: no line of sight: blocked" in text
    assert ("Yashima" in text) is seen


def test_a_scenario_visibility_hides_ships_beyond_it(tmp_path: Path) -> None:
    """``visibility_m = 6000``: Chinyen, 8 km off, is out of sight; Fuji at 4 km is in it."""
    game = new_game(_scenario(tmp_path, "visibility_m = 6000"), 1)
    assert {c.name for c in game.view("Blue").contacts} == {"Fuji", "Hatsuse"}


def test_with_observed_positions_off_every_enemy_afloat_shows_at_her_exact_pose(
    tmp_path: Path,
) -> None:
    """The tabletop toggle: ``options.observed_positions = false`` gives today's exact view."""
    game = new_game(_scenario(tmp_path, "[options]\nobserved_positions = false"), 1)
    contacts = game.view("Blue").contacts
    assert [c.name for c in contacts] == ["Fuji", "Yashima", "Hatsuse", "Chinyen"]
    assert all(c.pose == game.state.poses[c.name] and not c.observed for c in contacts)
    assert all(c.observer is None for c in contacts)


def test_the_scenario_fields_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="visibility_m"):
        get_scenario(_scenario(tmp_path, "visibility_m = -5"))
    with pytest.raises(ScenarioError, match="unknown option 'observed_position'"):
        get_scenario(_scenario(tmp_path, "[options]\nobserved_position = true"))


# -- observed positions --------------------------------------------------------------------


def test_bearing_and_heading_are_near_exact_and_the_range_is_not(tmp_path: Path) -> None:
    game = new_game(_scenario(tmp_path), 3)
    state = game.state
    for c in game.view("Blue").contacts:
        true = state.poses[c.name]
        assert abs(c.pose.heading - true.heading) < 5.0
        here = state.poses[c.observer or ""]
        bearing_seen = math.degrees(math.atan2(c.pose.x - here.x, c.pose.y - here.y))
        bearing_true = math.degrees(math.atan2(true.x - here.x, true.y - here.y))
        assert abs(bearing_seen - bearing_true) < 2.0
        assert c.pose != true and _factor(state, c) != pytest.approx(1.0, abs=1e-9)


def test_the_error_is_stable_within_a_turn_and_changes_across_turns() -> None:
    """Same turn, side and ship: the same error in every phase and every repeated view, though
    the ships move between Command and Gunnery; the next turn brings a new one."""
    game = new_game("cruiser-duel", 11)
    first = game.view("Blue").contacts[0]
    assert game.view("Blue").contacts[0] == first
    before = _factor(game.state, first)
    _to_phase(game, "gunnery")
    assert game.state.turn == 1
    moved = game.view("Blue").contacts[0]
    assert moved.pose != first.pose  # Kasagi has steamed on
    assert _factor(game.state, moved) == pytest.approx(before, rel=1e-9)
    while game.state.turn == 1:
        for side in game.pending.waiting_for:
            game.submit(side, [])
    assert (game.state.turn, game.spec.name) == (2, "command")
    assert _factor(game.state, game.view("Blue").contacts[0]) != pytest.approx(before, rel=1e-6)


def test_views_draw_no_die_and_replay_reproduces_the_contacts() -> None:
    """Observing never moves the game's dice; a replayed game shows the same contacts."""
    from battleline.ai.base import play

    game = play(new_game("channel-1900", 2))
    draws = game.dice.draws
    for side in game.state.sides:
        game.view(side)
    assert game.dice.draws == draws
    again = replay_game(GameRecord.of(game))
    for side in game.state.sides:
        assert contacts_for(again.state, side) == contacts_for(game.state, side)


def test_the_draws_come_from_the_seed_and_key_alone() -> None:
    assert keyed_normals(5, ("a", 1), 2) == keyed_normals(5, ("a", 1), 2)
    assert keyed_normals(5, ("a", 1), 2) != keyed_normals(6, ("a", 1), 2)
    z = observation_draws(5, "Blue", "Kasagi", 3)
    assert z[0] == observation_draws(5, "Blue", "Kasagi", 9)[0]  # the lasting part
    assert z[1:] != observation_draws(5, "Blue", "Kasagi", 9)[1:]


def _spread(range_m: float, seeds: range, extra: dict[str, float] | None = None) -> float:
    """Standard deviation of observed ÷ true range, Kasagi ``range_m`` north of Yoshino."""
    base = new_game("cruiser-duel", 1).state
    factors = []
    for seed in seeds:
        state = base.copy()
        state.seed = seed
        state.poses["Yoshino"] = Pose(0.0, 0.0, 90.0)
        state.poses["Kasagi"] = Pose(0.0, range_m, 90.0)
        if extra:
            state.extra["doctrine"] = {"Blue": extra}
        (contact,) = contacts_for(state, "Blue")
        factors.append(_factor(state, contact))
    return statistics.stdev(factors)


def test_the_range_error_grows_with_range_and_shrinks_with_skill() -> None:
    """Veterans: about 4 % at 1.5 km, 8 % at 9 km (one standard deviation); elite crews less."""
    near, far = _spread(1500.0, range(400)), _spread(9000.0, range(400))
    assert 0.03 < near < 0.055 < 0.065 < far < 0.10
    eye = load_observation().eye("veteran")
    assert far == pytest.approx(eye.sd_total(9000.0), rel=0.15)
    assert _spread(9000.0, range(400), {"gunnery": "elite"}) < 0.7 * far


def test_poor_visibility_widens_the_error(tmp_path: Path) -> None:
    model = load_observation()
    eye = model.eye("veteran")
    assert model.factor(eye, 5000.0, 1.0, 0.0, 6000.0) - 1 > 1.5 * (
        model.factor(eye, 5000.0, 1.0, 0.0) - 1
    )


def test_a_bad_observation_file_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "obs.toml"
    path.write_text(
        (Path(__file__).parents[3] / "src/battleline/rulesets/bf1900/data/observation.toml")
        .read_text()
        .replace("sys_max = 0.070", "sys_max = -0.07"),
        encoding="utf-8",
    )
    with pytest.raises(RulesDataError, match=r"skills\.veteran.*sys_max"):
        load_observation(path)
    packaged = Path(__file__).parents[3] / "src/battleline/rulesets/bf1900/data/observation.toml"
    assert "digital_adaptation = true" in packaged.read_text()


def test_the_shared_sight_follows_the_table_as_ships_move_and_sink(tmp_path: Path) -> None:
    """The sight and observed poses a phase's views share are recomputed when the table
    changes: Yashima steamed out from behind the Rock comes into Blue's view (and may be fired
    at), a burning Hatsuse shows her smoke, a sunk Fuji leaves it, and a view after each change
    equals a fresh game's at the same table (BF6-LOS-01/02)."""
    game = _to_phase(new_game(_scenario(tmp_path), 1), "gunnery")
    state = game.state
    assert "Yashima" not in {c.name for c in contacts_for(state, "Blue")}
    with pytest.raises(IllegalOrderError, match="not in sight"):
        game.check("Blue", ["Mikasa: Yashima @5000 " + _any_gun(game, "Mikasa")])
    state.poses["Yashima"] = Pose(3000.0, -5000.0, 90.0)
    seen = {c.name: c for c in contacts_for(state, "Blue")}
    assert set(seen) == {"Fuji", "Hatsuse", "Chinyen", "Yashima"}
    assert _factor(state, seen["Yashima"]) != pytest.approx(1.0, abs=1e-9)
    try:
        game.check("Blue", ["Mikasa: Yashima @5000 " + _any_gun(game, "Mikasa")])
    except IllegalOrderError as err:  # an arc or range may still refuse it, but not sight
        assert "not in sight" not in str(err)
    state.logs["Hatsuse"].fires_external = 1  # smoke and flame show at once
    assert {c.name: c.fires for c in contacts_for(state, "Blue")}["Hatsuse"]
    state.logs["Fuji"].sunk = True
    assert "Fuji" not in {c.name for c in contacts_for(state, "Blue")}
    fresh = _to_phase(new_game(_scenario(tmp_path), 1), "gunnery").state
    fresh.poses["Yashima"] = Pose(3000.0, -5000.0, 90.0)
    fresh.logs["Fuji"].sunk = True
    fresh.logs["Hatsuse"].fires_external = 1
    assert contacts_for(fresh, "Blue") == contacts_for(state, "Blue")


def test_a_ship_that_stops_or_lists_shows_it_to_the_enemy(tmp_path: Path) -> None:
    """What a player across the table sees: an enemy ship dead in the water or listing heavily
    says so in the side's contacts, the view's JSON, without a word of why (her boxes stay her
    owner's). Issue 11 §3; the signs are those the public events announce (outward.Signs)."""
    game = _to_phase(new_game(_scenario(tmp_path), 1), "gunnery")
    state = game.state
    assert not any(c.stopped or c.listing for c in contacts_for(state, "Blue"))
    hatsuse = state.logs["Hatsuse"]
    hatsuse.propulsion.destroyed = len(hatsuse.propulsion.speeds)  # every box gone: no way on

    class _List:
        speed_boxes, tr_hits, dc_boxes = 0, 0, 0

    state.logs["Fuji"].uneven["Px"] = _List()
    seen = {c.name: c for c in contacts_for(state, "Blue")}
    assert (seen["Hatsuse"].stopped, seen["Hatsuse"].listing) == (True, False)
    assert (seen["Fuji"].stopped, seen["Fuji"].listing) == (False, True)
    sent = {c["name"]: c for c in game.view("Blue").to_dict()["contacts"]}
    assert sent["Hatsuse"]["stopped"] is True and sent["Fuji"]["listing"] is True
    assert "propulsion" not in str(sent["Hatsuse"])
