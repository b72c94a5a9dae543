"""Ships at anchor, the start's light and the three harbour battles (issue 12 items 3 and 7):
``at_anchor``, ``weigh_anchor_turns``, ``nets_out`` and ``disabled_machinery`` in a scenario;
the torpedo chart's "stationary with nets" line for them (BF12C-TH-04, seed 002); Foochow 1884,
Pungdo 1894 and Port Arthur 1904 played AI against AI."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline.ai.base import play
from battleline.engine.events import EventKind, EventLog
from battleline.errors import ScenarioError
from battleline.game import new_game
from battleline.rulesets.bf1900.charts import load_charts
from battleline.rulesets.bf1900.ruleset import end_turn, nets_out, new_state, ship_fate
from battleline.rulesets.bf1900.scenario import (
    START_VISIBILITY_M,
    WEIGH_ANCHOR_TURNS,
    get_scenario,
    load_scenario_file,
)
from battleline.rulesets.bf1900.torpedoes import TorpedoLaunch, resolve_torpedoes
from battleline.testing import FixedDice

NEW_BATTLES = ("foochow-1884", "pungdo-1894", "port-arthur-1904")
SCENARIOS = Path(__file__).resolve().parents[3] / "src/battleline/rulesets/bf1900/data/scenarios"

HARBOUR = """
id = "harbour-test"
title = "Harbour test"
turn_limit = 4
start = "{start}"
time = "Night, 1904"
[[sides]]
name = "Boats"
[[sides.divisions]]
name = "Flotilla"
x = 0
y = -1200
heading = 0
speed = 20
ships = [{{ name = "Kasumi", class = "Ikazuchi" }}]
[[sides]]
name = "Roads"
[[sides.divisions]]
name = "Anchored"
formation = "no formation"
at_anchor = true
nets_out = true
heading = 90
ships = [
  {{ name = "Retvizan", class = "Retvisan", x = 0, y = 0 }},
  {{ name = "Pallada", class = "Diana", x = 800, y = 0, nets_out = false, weigh_anchor_turns = 1 }},
]
[[sides.divisions]]
name = "Hulk"
x = -800
y = 0
heading = 90
disabled_machinery = true
ships = [{{ name = "Angara", class = "Diana" }}]
{extra}
"""


def _file(tmp_path: Path, start: str = "night", extra: str = "") -> Path:
    path = tmp_path / "harbour.toml"
    path.write_text(HARBOUR.format(start=start, extra=extra))
    return path


def test_ships_at_anchor_start_stopped_and_weigh_in_their_turns(tmp_path: Path) -> None:
    """An anchored ship starts at 0 kn and has no speed until her anchor is up; a ship with
    disabled machinery never steams; the division's defaults give way to a ship's own."""
    path = _file(tmp_path)
    state = new_state(str(path), 1)
    retvizan, pallada, angara = (state.logs[n] for n in ("Retvizan", "Pallada", "Angara"))
    assert state.moved_last_m == {
        "Kasumi": state.moved_last_m["Kasumi"],
        **dict.fromkeys(("Retvizan", "Pallada", "Angara"), 0.0),
    }
    assert (retvizan.anchor_turns, pallada.anchor_turns, angara.anchor_turns) == (
        WEIGH_ANCHOR_TURNS,
        1,
        0,
    )
    assert angara.machinery_disabled and not retvizan.machinery_disabled
    assert retvizan.speed_knots == pallada.speed_knots == angara.speed_knots == 0.0
    events = EventLog()
    end_turn(state, events)
    assert pallada.speed_knots == pallada.cls.max_knots  # anchor up after one turn
    note = events.of_kind(EventKind.NOTE)[-1]
    assert note.ship == "Pallada" and "weighed anchor" in note.text
    assert retvizan.speed_knots == 0.0 and retvizan.anchor_turns == WEIGH_ANCHOR_TURNS - 1
    for _ in range(WEIGH_ANCHOR_TURNS):
        end_turn(state, EventLog())
    assert retvizan.speed_knots == retvizan.cls.max_knots
    assert angara.speed_knots == 0.0  # disabled machinery: never
    assert nets_out(state) == ["Retvizan"]


def test_start_light_sets_visibility_and_the_year_comes_from_the_time(tmp_path: Path) -> None:
    night = load_scenario_file(_file(tmp_path, "night"))
    assert night.visibility_m == START_VISIBILITY_M["night"] and night.battle_year == 1904
    assert load_scenario_file(_file(tmp_path, "dawn")).visibility_m == START_VISIBILITY_M["dawn"]
    assert load_scenario_file(_file(tmp_path, "day")).visibility_m is None
    assert get_scenario("port-arthur-1904").visibility_m == 1200  # the file's own figure wins


@pytest.mark.parametrize(
    ("old", "new", "where", "message"),
    [
        ('start = "night"', 'start = "twilight"', "start", "Input should be"),
        (
            "disabled_machinery = true\n",
            "disabled_machinery = true\nnets_out = true\n",
            "sides[1].divisions[1]",
            "'Angara': nets_out needs at_anchor",
        ),
        (
            "weigh_anchor_turns = 1 }",
            "weigh_anchor_turns = 1, speed = 5 }",
            "sides[1].divisions[0]",
            "'Pallada' is at anchor or has her machinery disabled, so she starts stopped",
        ),
        (
            "weigh_anchor_turns = 1 }",
            "weigh_anchor_turns = -1 }",
            "sides[1].divisions[0].ships[1].weigh_anchor_turns",
            "greater than or equal to 0",
        ),
    ],
)
def test_bad_harbour_fields_are_refused_naming_the_field(
    tmp_path: Path, old: str, new: str, where: str, message: str
) -> None:
    path = _file(tmp_path)
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    with pytest.raises(ScenarioError) as err:
        load_scenario_file(path)
    assert f"{where}: " in str(err.value) or f"{where}." in str(err.value)
    assert message in str(err.value)


def test_torpedo_at_a_ship_with_nets_out_uses_the_stationary_nets_line(tmp_path: Path) -> None:
    """BF12C-TH-04: a torpedo at an anchored ship with nets out rolls against the "stationary
    with nets" line (beam 6 on 1D6); the same shot at an anchored ship without nets uses the
    course line. FixedDice rolls 5: a miss against the nets, a hit on the beam without them."""
    state = new_state(str(_file(tmp_path)), 1)
    charts = load_charts()
    from battleline.engine.geometry import Pose

    state.poses["Kasumi"] = Pose(0, -700, 90)  # on Retvizan's beam, 700 m off
    launch = TorpedoLaunch.parse("Kasumi: TT centreline -> Retvizan x1")
    events = EventLog()
    hits = resolve_torpedoes(
        [launch],
        state.poses,
        state.logs,
        None,
        [],
        charts,
        FixedDice([5]),
        events,
        harbour=nets_out(state),
    )
    miss = [e for e in events.of_kind(EventKind.TORPEDO_MISS) if not e.public][-1]  # firer's
    assert hits == [] and miss.data["course"] == "stationary_nets"
    assert miss.data["need"] == charts.torpedo_to_hit("stationary_nets", "beam") == 6
    state.poses["Kasumi"] = Pose(800, -700, 90)  # now on Pallada's beam: no nets
    events = EventLog()
    launch = TorpedoLaunch.parse("Kasumi: TT centreline -> Pallada x1")
    hits = resolve_torpedoes(
        [launch],
        state.poses,
        state.logs,
        None,
        [],
        charts,
        FixedDice([5]),
        events,
        harbour=nets_out(state),
    )
    assert [h.target for h in hits] == ["Pallada"]
    hit = [e for e in events.of_kind(EventKind.TORPEDO_HIT) if not e.public][-1]  # firer's
    assert hit.data["course"] != "stationary_nets"


@pytest.mark.slow
def test_an_anchorage_with_nets_out_plays_they_fire_and_are_torpedoed_on_the_nets_line(
    tmp_path: Path,
) -> None:
    """Port Arthur with every Russian ship's nets out (a variant of the built-in file), AI
    against AI: the anchored ships fire, never move, and torpedoes at them roll on the
    "stationary with nets" line."""
    text = (SCENARIOS / "port_arthur_1904.toml").read_text()
    text = text.replace('id = "port-arthur-1904"', 'id = "port-arthur-nets"')
    text = text.replace("weigh_anchor_turns = 10", "weigh_anchor_turns = 10\nnets_out = true")
    # Lit boats (no seen_at_m) and no surprise: the anchored ships see them coming and fire.
    text = text.replace("seen_at_m = 500", "").replace("surprised_turns = 1", "")
    path = tmp_path / "nets.toml"
    path.write_text(text)
    anchored = {
        "Retvizan",
        "Tsesarevich",
        "Pallada",
        "Diana",
        "Askold",
        "Novik",
        "Poltava",
        "Petropavlovsk",
        "Sevastopol",
        "Peresvet",
        "Pobeda",
    }
    lines: list[str] = []
    fired: set[str] = set()
    struck: set[str | None] = set()
    for seed in (1, 2, 3):
        game = play(new_game(str(path), seed))
        assert game.finished and game.state.result is not None
        start = new_state(str(path), seed).poses
        for name in anchored:  # weighing anchor takes ten turns: none moved in six
            assert (game.state.poses[name].x, game.state.poses[name].y) == (
                start[name].x,
                start[name].y,
            )
        for e in game.events.events:
            torpedo = e.kind in (EventKind.TORPEDO_HIT, EventKind.TORPEDO_MISS)
            if torpedo and "course" in e.data and e.ship in anchored:
                lines.append(e.data["course"])
                if e.kind is EventKind.TORPEDO_HIT:
                    struck.add(e.ship)
            if e.kind is EventKind.HIT and e.data.get("firer") in anchored:
                fired.add(e.data["firer"])
    assert lines and set(lines) == {"stationary_nets"}
    assert struck  # and some torpedoes strike, on that line
    assert fired  # the ships at anchor fire back


@pytest.mark.slow
@pytest.mark.parametrize("sid", NEW_BATTLES)
def test_new_historical_battle_plays_to_a_result(sid: str) -> None:
    """``demo --scenario ID --seed 1``: AI against AI to a result; the side history says won
    wins, or at worst a draw (seed 1)."""
    game = play(new_game(sid, 1))
    state = game.state
    assert game.finished and state.result is not None
    assert 1 <= state.turn <= get_scenario(sid).turn_limit
    winner = {"foochow-1884": "France", "pungdo-1894": "Japan", "port-arthur-1904": "Japan"}[sid]
    assert state.result.winner in (winner, None)
    assert {ship_fate(log) for log in state.logs.values()} <= {
        "sunk",
        "sinking",
        "surrendered",
        "crippled",
        "damaged",
        "intact",
    }


def test_new_battles_put_their_ships_where_history_did() -> None:
    """Foochow and Port Arthur: the defenders at anchor (stopped, anchor down); Port Arthur is a
    night action with no nets out (the record); Pungdo is fought under way."""
    for sid in ("foochow-1884", "port-arthur-1904"):
        state = new_state(sid, 1)
        defenders = state.sides[1]
        for name in state.ships_of(defenders):
            assert state.logs[name].anchor_turns > 0 and state.moved_last_m[name] == 0.0
        assert nets_out(state) == []
    assert get_scenario("port-arthur-1904").start == "night"
    pungdo = new_state("pungdo-1894", 1)
    assert all(log.anchor_turns == 0 for log in pungdo.logs.values())


def test_nets_come_in_when_a_ship_first_moves(tmp_path: Path) -> None:
    """The "stationary with nets" line is for ships at anchor: once a ship with nets out has
    moved (her anchor up, under way), torpedoes at her use the course lines again."""
    from battleline.rulesets.bf1900.ruleset import _harbour_after_move, resolve_movement

    state = new_state(str(_file(tmp_path)), 1)
    assert nets_out(state) == ["Retvizan"]
    resolve_movement(state, {}, None, EventLog())  # type: ignore[arg-type]  # no dice are rolled
    assert nets_out(state) == ["Retvizan"]  # still at anchor: did not move
    state.moved_last_m["Retvizan"] = 150.0  # as after a Movement Phase under way
    _harbour_after_move(state)  # what resolve_movement does after every move
    assert nets_out(state) == [] and "nets_out" not in state.extra
