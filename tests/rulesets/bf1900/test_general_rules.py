"""The general rules (BF6-GEN-01..05): the dice, the play aids, the markers, the ship logs and the
gunnery log. BF6-GEN-06 and BF6-GEN-04's set-up are also asserted in ``test_scenarios.py``,
BF6-GEN-07/08 in ``tests/engine/test_flow.py`` and BF6-GEN-09 in ``test_scales.py``."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.ai.base import legal_lines, stand_in
from battleline.engine import Game, admiral_seed, view
from battleline.engine.events import EventKind
from battleline.game import new_game
from battleline.printing import scenario_sections
from battleline.printing.charts_pdf import write_charts
from battleline.printing.gunnery_log_pdf import (
    SECTIONS_PER_LOG,
    SHIPS_PER_SECTION,
    division_sections,
    write_gunnery_logs,
)
from battleline.printing.shiplog_pdf import write_ship_logs
from battleline.rulesets.bf1900.arcs import POSITION_ARCS, arc_width, union_width
from battleline.rulesets.bf1900.charts import FACES
from battleline.rulesets.bf1900.render import render_table
from battleline.rulesets.bf1900.ruleset import scale_of
from battleline.rulesets.bf1900.scales import get_scale
from battleline.rulesets.bf1900.scenario import builtin_scenarios, get_scenario
from battleline.rulesets.bf1900.ship import ShipType
from battleline.rulesets.bf1900.shiplog import Mark

#: How each gunnery event is drawn on the table (BF6-GEN-03).
MARKER = {EventKind.HIT_ZONE: "hit", EventKind.SPLASH: "splash"}
HIT_RED, WHITE = "#d50000", "#ffffff"


def play_turns(scenario: str, seed: int, turns: int) -> Game:
    """Play the first ``turns`` turns of a built-in scenario with the stand-in admirals."""
    game = new_game(scenario, seed)
    admirals = {s: stand_in(s, admiral_seed(seed, i)) for i, s in enumerate(game.state.sides)}
    cursor = dict.fromkeys(game.state.sides, 0)
    while not game.finished and game.state.turn <= turns:
        phase, turn = game.spec.name, game.state.turn
        for side in game.pending.waiting_for:
            seen = view(game, side, since=cursor[side])
            cursor[side] = len(game.events)
            lines = legal_lines(game, side, admirals[side].orders(seen, phase))
            game.submit(side, lines, turn=turn, phase=phase)
    return game


@pytest.fixture(scope="module")
def duel() -> Game:
    """Three turns of the cruiser duel: gunnery hits and misses, damage and its rolls."""
    return play_turns("cruiser-duel", 3, 3)


@pytest.fixture(scope="module")
def destroyers() -> Game:
    """Three turns of the destroyer attack: torpedoes too."""
    return play_turns("destroyer-attack", 5, 3)


# -- BF6-GEN-01 -------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["duel", "destroyers"])
def test_BF6_GEN_01_every_die_rolled_in_a_game_is_a_d6(
    which: str, request: pytest.FixtureRequest
) -> None:
    game: Game = request.getfixturevalue(which)
    rolls = game.events.of_kind(EventKind.ROLL)
    assert rolls, "the game rolled no dice"
    assert len(rolls) == game.dice.draws  # every roll is an event
    assert {e.data["sides"] for e in rolls} == {6}
    assert all(1 <= e.data["value"] <= 6 for e in rolls)
    assert all(e.data["purpose"] for e in rolls)  # each roll names its purpose
    assert FACES == (1, 2, 3, 4, 5, 6)  # and every chart is read with one


# -- BF6-GEN-02 -------------------------------------------------------------------------------


def test_BF6_GEN_02_the_play_aids_exist(tmp_path: Path, duel: Game) -> None:
    """Ship log, gunnery log and combat chart print; the arcs and turning circles are data."""
    logs = list(duel.state.logs.values())
    aids = [
        write_ship_logs(tmp_path / "ship-log.pdf", logs, get_scale("small")),
        write_gunnery_logs(tmp_path / "gunnery-log.pdf", division_sections("Blue", ["Yoshino"])),
        write_charts(tmp_path / "combat-chart.pdf"),
    ]
    for aid in aids:
        assert aid.read_bytes().startswith(b"%PDF")
    # The arcs sheet: the arc-card widths in use (REF-BF6-09), and the turning circles.
    widths = {arc_width(a) for arcs in POSITION_ARCS.values() for a in arcs}
    assert {265.0, 150.0, 135.0, 95.0} <= widths
    assert union_width(POSITION_ARCS["C"]) == pytest.approx(182.5)
    scale = get_scale("small")
    assert all(scale.default_turning_circle_m(t) > 0 for t in ShipType)


# -- BF6-GEN-03 -------------------------------------------------------------------------------


def test_BF6_GEN_03_a_hit_zone_is_a_red_marker_and_a_miss_a_white_splash(
    tmp_path: Path, duel: Game
) -> None:
    """Each gunnery event carries its point; drawn on the table, hit zones are red markers and
    splashes white ones (``render.render_table``)."""
    fired = duel.events.of_kind(EventKind.HIT_ZONE, EventKind.SPLASH)
    hits = [e for e in fired if e.kind is EventKind.HIT_ZONE]
    misses = [e for e in fired if e.kind is EventKind.SPLASH]
    assert hits and misses, "three turns of the duel should give both"
    assert all("red marker" in e.text for e in hits)
    assert all("white marker" in e.text for e in misses)
    state = duel.state
    scale = scale_of(state)
    markers = [(float(e.data["x"]), float(e.data["y"]), MARKER[e.kind]) for e in fired]
    svg = render_table(
        tmp_path / "shots.svg",
        state.poses,
        {n: scale.base_size_m(log.cls) for n, log in state.logs.items()},
        {n: log.side for n, log in state.logs.items()},
        markers=markers,
    ).read_text()
    assert svg.count(f"fill: {HIT_RED}; stroke: #000000") == len(hits)
    assert svg.count(f"fill: {WHITE}; stroke: #1565c0") == len(misses)


# -- BF6-GEN-04 -------------------------------------------------------------------------------


@pytest.mark.parametrize("scenario", ["channel-1900", "destroyer-attack"])
def test_BF6_GEN_04_every_ship_gets_a_log_filled_from_its_class_values(scenario: str) -> None:
    sc = get_scenario(scenario)
    logs = new_game(scenario, 1).state.logs
    entries = {s.name: (side.name, s) for side in sc.sides for d in side.divisions for s in d.ships}
    assert set(logs) == set(entries)
    for name, log in logs.items():
        side, entry = entries[name]
        c = entry.ship_class
        assert log.cls == c and log.side == side
        assert log.propulsion.speeds == c.propulsion_knots and log.speed_knots == c.max_knots
        assert log.dc_boxes == [Mark.NONE] * c.dc_boxes
        assert set(log.positions) == {m.key for m in c.mountings if m.is_lettered}
        batteries = {m.key: m.guns for m in c.mountings if not m.is_lettered}
        assert {k: len(v) for k, v in log.batteries.items()} == batteries
        assert log.torpedoes_left == {t.key: t.tubes for t in c.torpedoes}
        assert len(log.searchlights) == c.searchlights
        assert log.flooding_points == 0 and log.fires == 0 and log.in_battle


# -- BF6-GEN-05 -------------------------------------------------------------------------------


def test_BF6_GEN_05_every_built_in_scenario_fits_the_gunnery_log() -> None:
    """Two sections of four ship columns a sheet; every ship in exactly one column, in its own
    division's section (the printed layout is tested in tests/printing)."""
    assert (SECTIONS_PER_LOG, SHIPS_PER_SECTION) == (2, 4)
    for sc in builtin_scenarios().values():
        sections = scenario_sections(sc)
        for side in sc.sides:
            listed = [
                (s.division.removesuffix(" (cont.)"), ship)
                for s in sections[side.name]
                for ship in s.ships
            ]
            expected = [(d.name, s.name) for d in side.divisions for s in d.ships]
            assert listed == expected
            assert all(len(s.ships) <= SHIPS_PER_SECTION for s in sections[side.name])


@given(st.lists(st.text("abcdef", min_size=1, max_size=6), min_size=1, max_size=14, unique=True))
def test_BF6_GEN_05_a_division_runs_on_four_ships_to_a_section(ships: list[str]) -> None:
    sections = division_sections("Div", ships, flagship=ships[0])
    assert len(sections) == math.ceil(len(ships) / SHIPS_PER_SECTION)
    assert [s for sec in sections for s in sec.ships] == ships
    assert all(1 <= len(sec.ships) <= SHIPS_PER_SECTION for sec in sections)
    assert all(sec.flagship == ships[0] for sec in sections)
