"""Scenarios: the built-ins load and play to the end; broken files give one clear error line."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline.ai.base import play, stand_in
from battleline.engine import Game
from battleline.engine.events import Event, EventKind
from battleline.errors import (
    IllegalOrderError,
    OrderSyntaxError,
    ScenarioError,
    UnknownNameError,
)
from battleline.game import new_game
from battleline.rulesets.bf1900.ruleset import crippled, ship_fate, verdict
from battleline.rulesets.bf1900.scenario import builtin_scenarios, get_scenario, load_scenario_file
from battleline.rulesets.bf1900.ship import FloodLevel
from battleline.rulesets.bf1900.shiplog import Mark

GOOD = """
id = "probe"
title = "Probe"
scale = "small"
turn_limit = 3

[[sides]]
name = "Blue"
[[sides.divisions]]
name = "Blue cruisers"
heading = 90
ships = [{ name = "Yoshino", class = "Yoshino" }, { name = "Naniwa", class = "Naniwa" }]

[[sides]]
name = "Red"
[[sides.divisions]]
name = "Red cruisers"
y = 5000
heading = 90
ships = [{ name = "Kasagi", class = "Kasagi" }]
"""


def _write(tmp_path: Path, text: str, name: str = "x.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_builtins_load_with_unique_ids_and_two_sides() -> None:
    scenarios = builtin_scenarios()
    assert {"cruiser-duel", "destroyer-attack"} <= set(scenarios)
    for sc in scenarios.values():
        assert len(sc.sides) == 2
        assert sc.turn_limit >= 1
        assert sc.title and sc.description


def test_a_fleet_action_of_about_eight_ships_a_side_is_built_in() -> None:
    sizes = [
        [sum(len(d.ships) for d in side.divisions) for side in sc.sides]
        for sc in builtin_scenarios().values()
    ]
    assert any(min(s) >= 7 for s in sizes)


def test_a_good_file_sets_up_ships_divisions_and_formations(tmp_path: Path) -> None:
    """Every ship has a log, a place and a division before play begins (BF6-GEN-04, BF6-GEN-06)."""
    game = new_game(str(_write(tmp_path, GOOD)), 1)
    st = game.state
    assert st.sides == ("Blue", "Red")
    assert set(st.logs) == {"Yoshino", "Naniwa", "Kasagi"}
    assert st.logs["Naniwa"].side == "Blue"
    div = st.divisions["Blue cruisers"]
    assert div.ships == ("Yoshino", "Naniwa") and div.flagship == "Yoshino"
    assert div.fleet_flagship
    # Line ahead on heading 090: Naniwa is astern (west) of Yoshino at the station interval.
    assert st.poses["Naniwa"].x < st.poses["Yoshino"].x
    assert st.poses["Naniwa"].y == pytest.approx(0.0, abs=1e-6)
    assert st.poses["Kasagi"].y == 5000


BROKEN = [
    (
        GOOD.replace('class = "Naniwa"', 'class = "Fooo"'),
        "sides[0].divisions[0].ships[1].class: unknown ship class 'Fooo'",
    ),
    (GOOD.replace("turn_limit = 3", 'turn_limit = "many"'), "turn_limit:"),
    (GOOD.replace("turn_limit = 3", "turn_limit = 0"), "turn_limit: Input should be greater"),
    (GOOD.replace('scale = "small"', 'scale = "huge"'), "scale: unknown scale 'huge'"),
    (
        GOOD.replace('name = "Blue cruisers"', 'name = "Blue cruisers"\nflagship = "Mikasa"'),
        "sides[0].divisions[0]: flagship 'Mikasa' is not a ship of this division",
    ),
    (GOOD.replace("heading = 90\nships", "headin = 90\nships", 1), "headin: unknown field"),
    (GOOD.replace('{ name = "Kasagi"', '{ name = "Yoshino"'), "ship name 'Yoshino' is used twice"),
    (GOOD.replace('name = "Red"\n', 'name = "Blue"\n'), "the two sides share the name 'Blue'"),
    (GOOD.replace('id = "probe"', 'id = "Probe Scenario"'), "id: String should match"),
    (GOOD + "\n[options]\nfog = true\n", "options: unknown option 'fog'"),
    (GOOD.replace('[[sides]]\nname = "Red"', '[[x]]\nname = "Red"', 1), "sides"),
    (GOOD.replace('title = "Probe"', 'title = "Probe'), "not valid TOML"),
]


@pytest.mark.parametrize(("text", "expected"), BROKEN)
def test_a_broken_file_gives_one_line_naming_the_field(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = _write(tmp_path, text, "broken.toml")
    with pytest.raises(ScenarioError) as info:
        load_scenario_file(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert expected in message
    assert "\n" not in message


def test_an_unknown_scenario_name_lists_the_builtins() -> None:
    with pytest.raises(UnknownNameError, match="cruiser-duel"):
        get_scenario("no-such-battle")


def test_land_must_be_a_polygon(tmp_path: Path) -> None:
    text = GOOD + '\n[[land]]\nname = "Rock"\npoints = [[0, 0], [1, 1]]\n'
    with pytest.raises(ScenarioError, match=r"land\[0\]\.points"):
        load_scenario_file(_write(tmp_path, text))


# -- victory -------------------------------------------------------------------------------


def test_crippled_means_dead_in_the_water_or_half_the_main_guns_out(tmp_path: Path) -> None:
    game = new_game(str(_write(tmp_path, GOOD)), 1)
    log = game.state.logs["Yoshino"].copy()
    assert ship_fate(log) == "intact" and not crippled(log)
    mains = [m for m in log.cls.mountings if m.gun_class.value == "main"]
    for m in mains[: (len(mains) + 1) // 2]:
        if m.is_lettered:
            log.positions[m.key].destroyed = True
        else:
            log.batteries[m.key] = [Mark.DESTROYED] * m.guns
    assert crippled(log) and ship_fate(log) == "crippled"
    other = game.state.logs["Kasagi"].copy()
    other.propulsion.destroyed = len(other.propulsion.speeds)
    assert crippled(other)


def test_victory_points_by_size_for_sunk_and_crippled(tmp_path: Path) -> None:
    game = new_game(str(_write(tmp_path, GOOD)), 1)
    st = game.state.copy()
    assert verdict(st, "test").winner is None
    st.logs["Kasagi"].sunk = True
    res = verdict(st, "test")
    assert res.winner == "Blue"
    assert res.points == {"Blue": 2.0 * st.logs["Kasagi"].cls.size, "Red": 0.0}
    st.logs["Yoshino"].surrendered = True  # counts as sunk by default
    st.logs["Naniwa"].propulsion.destroyed = len(st.logs["Naniwa"].propulsion.speeds)
    res = verdict(st, "test")
    assert res.points["Red"] == 2.0 * st.logs["Yoshino"].cls.size + st.logs["Naniwa"].cls.size


# -- whole games ---------------------------------------------------------------------------


def _invariants(game: Game, seen: dict[str, object]) -> None:
    """Rule invariants that must hold after every resolution: propulsion marks within the boxes
    (BF6-PROP-01), DC boxes as the size gives them (BF6-DC-03, BF6-DC-04), flooding levels
    (BF6-DMG-12), sinking ships never move (BF6-SINK-03)."""
    st = game.state
    assert 1 <= st.turn <= st.turn_limit
    in_divisions = [s for d in st.divisions.values() for s in d.ships]
    assert len(in_divisions) == len(set(in_divisions)), "a ship in two divisions"
    for name, log in st.logs.items():
        p = log.propulsion
        assert p.destroyed >= 0 and p.damaged >= 0 and p.destroyed + p.damaged <= len(p.speeds)
        if game.ruleset.name == "bf1900":  # the 1D12 edition's dice are its propulsion boxes
            assert len(log.dc_boxes) == log.cls.dc_boxes  # BF6-DC-03
            assert 0 <= log.dc_dice <= log.cls.dc_boxes
        assert all(n >= 0 for n in log.torpedoes_left.values())
        assert all(n <= t.tubes for t in log.cls.torpedoes for n in [log.torpedoes_left[t.key]])
        assert all(c.level in FloodLevel for c in log.compartments.values())
        assert log.fires_external >= 0 and log.fires_internal >= 0
        pose = st.poses[name]
        before = seen.get(name)
        # Sunk and sinking ships never move again (BF6-SINK-03); dead ships stay dead.
        if isinstance(before, tuple) and before[0] in ("sunk", "sinking"):
            assert (pose.x, pose.y) == before[1]
            assert log.sunk or log.sinking is not None
        if log.sunk or log.sinking is not None:
            seen.setdefault(name, ("sunk" if log.sunk else "sinking", (pose.x, pose.y)))
        if log.sunk:
            assert not log.in_battle


@pytest.mark.slow
@pytest.mark.parametrize("scenario", sorted(builtin_scenarios()))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_builtin_plays_to_the_end_with_the_invariants_holding(
    scenario: str, seed: int
) -> None:
    game = new_game(scenario, seed)
    seen: dict[str, object] = {}
    checks = 0

    def check(_events: list[Event]) -> None:
        nonlocal checks
        _invariants(game, seen)
        checks += 1

    play(game, on_events=check)  # the default admirals, as in the demo
    assert game.finished and game.state.result is not None
    assert game.events.events[-1].kind is EventKind.RESULT
    assert checks >= game.state.turn
    points = game.state.result.points
    assert set(points) == set(game.state.sides)


def test_one_builtin_game_is_quick_and_ends() -> None:
    game = play(new_game("cruiser-duel", 4), factory=stand_in)
    assert game.state.result is not None


# -- orders through the ruleset's phase table ------------------------------------------------


def _to_phase(game: Game, phase: str) -> None:
    while game.spec.name != phase:
        for side in game.pending.waiting_for:
            game.submit(side, [])


def test_BF6_CMD_02_divisional_orders_are_addressed_to_the_sides_own_divisions() -> None:
    """Orders go to the side's own divisions (BF6-CMD-02), are read and checked when submitted
    (BF6-CMD-14: no STOP with another order), and are carried out in the next Movement Phase
    (BF6-CMD-01, BF6-CMD-08: a simultaneous turn turns every ship of that division only)."""
    game = new_game("channel-1900", 1)
    with pytest.raises(IllegalOrderError, match="Britain has no division 'Escadre du Nord'"):
        game.submit("Britain", ["Escadre du Nord: TS90S"])
    with pytest.raises(OrderSyntaxError, match="TS90X"):
        game.submit("Britain", ["1st Division: TS90X"])
    with pytest.raises(IllegalOrderError, match="BF6-CMD-14"):
        game.submit("Britain", ["1st Division: STOP TS90S"])
    with pytest.raises(OrderSyntaxError, match="<division>: <orders>"):
        game.submit("Britain", ["TS90S"])
    # Speeds are checked against every ship's top undamaged box on submission (BF6-MOV-01).
    with pytest.raises(IllegalOrderError, match="BF6-MOV-01"):
        game.submit("Britain", ["1st Division: SPD40"])
    game.submit("Britain", ["1st Division: TT90S"])
    game.submit("France", [])
    # The Movement Phase carried the simultaneous turn out (BF6-CMD-08): every ship turned.
    for ship in game.state.divisions["1st Division"].ships:
        assert game.state.poses[ship].heading == pytest.approx(180.0, abs=1.0)
    for ship in game.state.divisions["2nd Division"].ships:
        assert game.state.poses[ship].heading == pytest.approx(90.0, abs=1e-6)


def test_BF6_CMD_32_we_surrender_strikes_the_division_and_scores_as_sunk() -> None:
    game = new_game("channel-1900", 1)
    game.submit("France", ["Torpilleurs: SIG SURRENDER"])
    game.submit("Britain", [])
    for ship in ("Framee", "Yatagan"):
        assert game.state.logs[ship].surrendered
        assert not game.state.logs[ship].in_battle
    assert "Torpilleurs" not in game.state.divisions or not any(
        game.state.logs[s].in_battle for s in game.state.divisions["Torpilleurs"].ships
    )
    res = verdict(game.state, "test")
    assert res.points["Britain"] == 2.0 * 2 * game.state.logs["Framee"].cls.size


def test_surrender_can_be_switched_off_by_the_scenario(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD + "\n[options]\nsurrender = false\n")
    game = new_game(str(path), 1)
    with pytest.raises(IllegalOrderError, match="allows no surrender"):
        game.submit("Red", ["Red cruisers: SIG SURRENDER"])


def test_BF6_GUN_01_a_gunnery_log_is_checked_on_submission() -> None:
    game = new_game("cruiser-duel", 1)
    _to_phase(game, "gunnery")
    with pytest.raises(IllegalOrderError, match="not a ship of Blue"):
        game.submit("Blue", ["Kasagi: Yoshino @5000 A:1"])
    with pytest.raises(OrderSyntaxError):
        game.submit("Blue", ["Yoshino: Kasagi at 5000"])
    assert game.pending.waiting_for == ("Blue", "Red")


def test_BF6_TORP_02_launches_are_checked_on_submission() -> None:
    """A declared launch is checked when sealed: nine torpedoes from a mount that has fewer is
    refused (BF6-TORP-03)."""
    game = new_game("destroyer-attack", 1)
    _to_phase(game, "torpedo")
    with pytest.raises(IllegalOrderError, match=r"BF6-TORP|REF-BF6-18"):
        game.submit("Flotilla", ["Ikazuchi: TT centreline -> Fuji x9"])


def test_BF6_DC_02_damage_control_is_checked_on_submission() -> None:
    """Declarations name the repair before any die (BF6-REP-05, BF6-DC-01); one die per damage
    event (BF6-DC-02); only the side's own ships."""
    game = new_game("cruiser-duel", 1)
    _to_phase(game, "gunnery")
    game.state.logs["Yoshino"].propulsion.damage()
    # The damage phase now asks Blue for declarations; Red has nothing to repair.
    for side in list(game.pending.waiting_for):
        game.submit(side, [])
    while game.spec.name != "damage":
        for side in list(game.pending.waiting_for):
            game.submit(side, [])
    with pytest.raises(IllegalOrderError, match="BF6-DC-02"):
        game.submit("Blue", ["Yoshino: M:A"])
    with pytest.raises(IllegalOrderError, match="not a ship of Blue"):
        game.submit("Blue", ["Kasagi: P"])
    game.submit("Blue", ["Yoshino: P"])
    assert game.spec.name == "command"
