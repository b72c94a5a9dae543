"""Acceptance checks for issue 3 (the table, movement and command), through the public surfaces:
the ``battleline`` CLI (``draw``, and ``replay`` of a record holding the orders: the only CLI path
that takes divisional orders) in process and as a real subprocess, and the engine.

Illegal divisional orders: an unknown division (BF6-CMD-02), stop combined with another order
(BF6-CMD-14), a speed increase beyond one box (BF6-MOV-03); a turn in succession out of line ahead
is converted, not rejected (BF6-CMD-09). The table picture: ``battleline draw`` (issue 3, "A way
to see it"). Scales as data, the same battle at every scale (BF6-GEN-09, REF-BF6-01).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from cli_process import one_error, run_cli
from typer.testing import CliRunner

from battleline.cli import app
from battleline.cli.commands.draw import draw_scenario
from battleline.engine import Game, GameRecord
from battleline.engine.events import EventKind
from battleline.engine.flow import RecordedOrders
from battleline.errors import IllegalOrderError, OrderSyntaxError, UnknownNameError
from battleline.game import new_game
from battleline.rulesets.bf1900.scales import load_scales

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

SCENARIO = """
id = "acceptance-table"
title = "Acceptance: the table"
scale = "{scale}"
turn_limit = 4

[[sides]]
name = "Blue"
[[sides.divisions]]
name = "Blue line"
x = 0
y = 0
heading = 90
speed = {speed}
ships = [{{ name = "Mikasa", class = "Mikasa" }}, {{ name = "Asahi", class = "Mikasa" }}]

[[sides]]
name = "Red"
[[sides.divisions]]
name = "Red boats"
formation = "line abreast to starboard"
x = 0
y = 7000
heading = 270
speed = {speed}
ships = [{{ name = "Ikazuchi", class = "Ikazuchi" }}, {{ name = "Inazuma", class = "Ikazuchi" }}]

[[land]]
name = "Rock"
points = [[-800, -2500], [800, -2500], [800, -3500], [-800, -3500]]
"""


def _scenario(tmp_path: Path, scale: str = "small", speed: float = 10) -> Path:
    path = tmp_path / f"table-{scale}.toml"
    path.write_text(SCENARIO.format(scale=scale, speed=speed), encoding="utf-8")
    return path


# -- illegal divisional orders, engine ---------------------------------------------------------


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return new_game(str(_scenario(tmp_path)), 1)


@pytest.mark.parametrize(
    ("side", "orders", "expect"),
    [
        ("Blue", ["Nowhere: TS90S"], ("Blue has no division 'Nowhere'", "BF6-CMD-02")),
        ("Blue", ["Red boats: TT90S"], ("Blue has no division 'Red boats'", "BF6-CMD-02")),
        ("Blue", ["Blue line: STOP TS90S"], ("division 'Blue line'", "BF6-CMD-14")),
        ("Blue", ["Blue line: SPD8 STOP"], ("division 'Blue line'", "BF6-CMD-14")),
        ("Blue", ["Blue line: SPD16"], ("division 'Blue line'", "BF6-MOV-03")),
        ("Blue", ["Blue line: SPD30"], ("division 'Blue line'", "BF6-MOV-01")),
        ("Blue", ["Blue line: SPD2"], ("division 'Blue line'", "BF6-MOV-06")),
    ],
)
def test_illegal_divisional_orders_name_the_division_and_the_rule(
    game: Game, side: str, orders: list[str], expect: tuple[str, str]
) -> None:
    """Issue 3 Done means: an unknown division (BF6-CMD-02), stop combined with another order
    (BF6-CMD-14), a speed increase beyond one box (BF6-MOV-03; Mikasa ran 10 kn, its boxes are
    2.8 kn apart) are refused, naming the division and the rule; so are a speed above the top
    undamaged box (BF6-MOV-01) and below the minimum movement (BF6-MOV-06)."""
    with pytest.raises(IllegalOrderError) as info:
        game.check(side, orders)
    for text in expect:
        assert text in str(info.value), str(info.value)


def test_a_speed_rise_of_one_box_is_legal_two_boxes_refused(game: Game) -> None:
    """BF6-MOV-03 / EX-BF6-03 at the acceptance level: 10 kn last turn allows the next box up
    (Mikasa's boxes: 2.8, 5.7, 8.5, 11.3, 14.2, 17 kn), not the one after."""
    game.check("Blue", ["Blue line: SPD11.3"])
    with pytest.raises(IllegalOrderError, match="BF6-MOV-03"):
        game.check("Blue", ["Blue line: SPD14.2"])


def test_text_that_does_not_parse_is_an_order_syntax_error(game: Game) -> None:
    with pytest.raises(OrderSyntaxError, match="TS90X"):
        game.check("Blue", ["Blue line: TS90X"])
    with pytest.raises(OrderSyntaxError, match="<division>: <orders>"):
        game.check("Blue", ["TS90S"])


def test_turn_in_succession_out_of_line_ahead_is_converted_not_rejected(game: Game) -> None:
    """Issue 3 Done means / BF6-CMD-09: a TIS given to a division in line abreast is carried out
    as a turn together (an event names the rule), and the division's ships all turn at once;
    BF6-CMD-10: a 90° turn together from line abreast brings it to line ahead."""
    before = {n: game.state.poses[n].heading for n in ("Ikazuchi", "Inazuma")}
    game.submit("Blue", [])
    events = game.submit("Red", ["Red boats: TS90S"])
    texts = [e.text for e in events if e.kind is EventKind.COMMAND]
    assert any("carried out as a turn together" in t and "BF6-CMD-09" in t for t in texts), texts
    assert any("now in line ahead" in t and "BF6-CMD-10" in t for t in texts), texts
    after = {n: game.state.poses[n].heading for n in ("Ikazuchi", "Inazuma")}
    for name in after:
        assert after[name] == pytest.approx((before[name] + 90) % 360)


def test_notation_prints_back_what_was_given(game: Game) -> None:
    """Issue 3: the compact notation round-trips through the engine's record."""
    given = ["Blue line: SPD11.3 TS45P TS45S"]
    game.submit("Blue", given)
    game.submit("Red", ["Red boats: TT90S, SIG ENGAGE"])
    recorded = {o.side: o.orders for o in GameRecord.of(game).orders if o.phase == "command"}
    assert recorded["Blue"] == tuple(given)
    from battleline.rulesets.bf1900.notation import parse_orders

    for text in ("SPD11.3 TS45P TS45S", "TT90S SIG ENGAGE", 'DROP "Kaiser Friedrich III" P'):
        orders = parse_orders(text)
        printed = " ".join(str(o) for o in orders)
        assert printed == text
        assert parse_orders(printed) == orders


# -- illegal divisional orders, CLI (``battleline replay``) ----------------------------------


def _record(tmp_path: Path, scenario: Path, *entries: tuple[int, str, str, list[str]]) -> Path:
    record = GameRecord(
        str(scenario),
        "bf1900@0.1",
        1,
        [RecordedOrders(t, ph, side, tuple(o)) for t, ph, side, o in entries],
    )
    path = tmp_path / "record.json"
    record.save(path)
    return path


@pytest.mark.parametrize(
    ("orders", "expect"),
    [
        (["Nowhere: TS90S"],
         "Blue has no division 'Nowhere' (its divisions: Blue line; BF6-CMD-02)"),
        (["Blue line: STOP TS90S"],
         "division 'Blue line': STOP cannot be combined with TS90S (BF6-CMD-14)"),
        (["Blue line: SPD16"], "division 'Blue line': SPD16"),
    ],
)  # fmt: skip
def test_replay_of_an_illegal_order_is_one_error_line(
    tmp_path: Path, orders: list[str], expect: str
) -> None:
    """Issue 3 Done means through the CLI: an illegal divisional order in a game record is one
    error line naming the division and the rule, with exit code 2 and no traceback."""
    record = _record(tmp_path, _scenario(tmp_path), (1, "command", "Blue", orders))
    line = one_error(run_cli("replay", str(record)))
    assert expect in line, line
    if "SPD16" in orders[0]:
        assert "more than one propulsion box faster" in line and "BF6-MOV-03" in line


def test_replay_of_a_tis_out_of_line_ahead_converts_it(tmp_path: Path) -> None:
    """BF6-CMD-09 through the CLI: the record replays, narrating the conversion."""
    record = _record(
        tmp_path,
        _scenario(tmp_path),
        (1, "command", "Blue", []),
        (1, "command", "Red", ["Red boats: TS90S"]),
    )
    result = runner.invoke(app, ["replay", str(record), "--narrate"])
    assert result.exit_code == 0, result.output
    assert "carried out as a turn together" in " ".join(result.output.split())


# -- scales as data: the same battle at every scale ------------------------------------------


def test_the_same_battle_is_played_at_every_scale(tmp_path: Path) -> None:
    """Issue 3: one internal unit (metres), so the same scenario and orders play at every scale
    and the lead ships end where they would at any other (BF6-GEN-09: only the table units
    change). Followers keep station one base-derived interval apart, and bases are sized per
    scale (docs/rules-gaps/scales-and-movement.md), so only their places may differ."""
    scales = sorted(load_scales())
    assert len(scales) >= 3
    leads: dict[str, dict[str, tuple[float, float, float]]] = {}
    for name in scales:
        game = new_game(str(_scenario(tmp_path, name)), 1)
        game.submit("Blue", ["Blue line: TS90P"])
        game.submit("Red", ["Red boats: TT45S"])
        assert game.spec.name == "gunnery", name
        leads[name] = {
            n: (round(p.x, 6), round(p.y, 6), p.heading)
            for n, p in game.state.poses.items()
            if n in ("Mikasa", "Ikazuchi")
        }
    first = leads[scales[0]]
    assert all(p == first for p in leads.values()), leads
    assert first["Mikasa"][2] == 0.0 and first["Ikazuchi"][2] == 315.0


def test_every_reconstructed_scale_value_is_in_the_rules_gaps_doc() -> None:
    """Issue 3 Done means: the rules-gap document covers every reconstructed value (scales,
    turn length, brackets, maximum range, minimum movement, turning circles, steering, bases)."""
    raw = tomllib.loads(
        resources.files("battleline.rulesets.bf1900")
        .joinpath("data", "scales.toml")
        .read_text(encoding="utf-8")
    )
    assert raw["reconstructed"] is True
    doc = (ROOT / "docs" / "rules-gaps" / "scales-and-movement.md").read_text(encoding="utf-8")
    flat = doc.replace(",", "")

    def num(v: float) -> str:
        return f"{v:g}"

    common = raw["common"]
    assert f"{num(common['turn_minutes'])} minutes" in flat
    assert f"{num(common['bracket_m'])} m" in flat and f"{num(common['max_range_m'])} m" in flat
    assert "half of last turn's move" in doc and "min_move_fraction = 0.5" in doc
    for kind, diameter in raw["turning_circle_m"].items():
        assert re.search(rf"\b{kind} {num(diameter)}\b", flat), kind
    steering = raw["steering"]
    assert "**half**" in doc and steering["tr_hit_widening"] == 0.5
    assert f"**{num(steering['damaged_rudder_factor'])} ×**" in doc
    assert f"**{num(steering['engine_steering_factor'])} ×**" in doc
    for name, scale in raw["scales"].items():
        assert name in doc and num(scale["units_per_km"]) in flat
        for kind, (length, width) in scale["bases"].items():
            row = next(r for r in doc.splitlines() if r.startswith(f"| {kind} |"))
            assert f"{num(length)} × {num(width)}" in row.replace(".0 ×", " ×"), (name, kind)


def test_rules_gaps_index_links_every_rules_gaps_doc() -> None:
    index = (ROOT / "docs" / "rules-gaps.md").read_text(encoding="utf-8")
    for doc in sorted((ROOT / "docs" / "rules-gaps").glob("*.md")):
        assert f"(rules-gaps/{doc.name})" in index, doc.name


# -- the table picture: ``battleline draw`` ---------------------------------------------------


def test_draw_svg_has_every_ship_to_scale_division_legend_flagships_and_land(
    tmp_path: Path,
) -> None:
    """Issue 3 "A way to see it": ships to scale with headings, divisions, land, as SVG."""
    out = tmp_path / "t.svg"
    result = runner.invoke(app, ["draw", str(_scenario(tmp_path)), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"table drawn: {out}" in result.output
    svg = out.read_text(encoding="utf-8")
    for ship in ("Mikasa", "Asahi", "Ikazuchi", "Inazuma"):
        assert f'id="ship-{ship}"' in svg, ship
    assert 'id="land-Rock"' in svg and ">Rock<" in svg
    for legend in ("Blue: Blue line", "Red: Red boats"):
        assert legend in svg
    assert "Mikasa ⚑" in svg and "Ikazuchi ⚑" in svg and "Asahi ⚑" not in svg
    assert "Small (85 mm per km)" in svg


def test_draw_png_and_scale_option(tmp_path: Path) -> None:
    """PNG by the file's suffix; ``--scale`` redraws the same set-up at another scale (bases of
    other sizes), and the same call gives the same bytes."""
    scenario = str(_scenario(tmp_path))
    png = draw_scenario(scenario, tmp_path / "t.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    small = draw_scenario(scenario, tmp_path / "small.svg").read_text(encoding="utf-8")
    again = draw_scenario(scenario, tmp_path / "again.svg").read_text(encoding="utf-8")
    large = draw_scenario(scenario, tmp_path / "large.svg", "large").read_text(encoding="utf-8")
    assert small == again
    assert "Large (10.5 in per km)" in large and large != small


@pytest.mark.parametrize("scenario", ["channel-1900", "cruiser-duel", "destroyer-attack"])
def test_draw_every_tutorial_scenario(tmp_path: Path, scenario: str) -> None:
    game = new_game(scenario, 0)
    svg = draw_scenario(scenario, tmp_path / "t.svg").read_text(encoding="utf-8")
    for ship in game.state.logs:
        assert f'id="ship-{ship}"' in svg, ship


@pytest.mark.slow
def test_draw_default_file_name(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "battleline.cli", "draw", "cruiser-duel"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "battleline-cruiser-duel.svg").exists()


@pytest.mark.parametrize(
    ("args", "expect"),
    [
        (["draw", "nosuch"], "unknown scenario 'nosuch'"),
        (["draw", "cruiser-duel", "--out", "t.jpg"], "must end in .svg or .png"),
        (["draw", "cruiser-duel", "--scale", "huge"], "unknown scale 'huge'"),
    ],
)
def test_draw_bad_input_is_one_error_line(tmp_path: Path, args: list[str], expect: str) -> None:
    line = one_error(run_cli(*args, cwd=tmp_path))
    assert expect in line, line
    assert not list(tmp_path.iterdir())  # nothing written


def test_draw_scenario_raises_battleline_errors(tmp_path: Path) -> None:
    with pytest.raises(UnknownNameError):
        draw_scenario("cruiser-duel", tmp_path / "t.svg", "huge")
