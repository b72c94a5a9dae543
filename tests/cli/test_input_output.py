"""Input and output (issue 14, item 5), each through a real ``battleline`` process: every broken
input gets one ``error:`` line and exit 2, no traceback; every output option creates a missing
folder and refuses an unwritable path before anything is played; scenarios that could not be set
up are refused with the field named (BF6-GEN-06, BF6-MOV-01); the order notation reaches the
terminal unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.acceptance.cli_process import one_error, run_cli

#: A small scenario to break: Blue's division of two Yoshinos, Red's Kasagi.
SCENARIO = """
id = "broken"
title = "Broken on purpose"
ruleset = "bf1900"
scale = "small"
turn_limit = 2

[[land]]
name = "Rock"
points = [[-500, 2000], [500, 2000], [500, 3000], [-500, 3000]]

[[sides]]
name = "Blue"

[[sides.divisions]]
name = "Blue cruisers"
x = 0
y = 0
heading = 90
speed = {speed}
ships = [
  {{ name = "Yoshino", class = "Yoshino"{lead} }},
  {{ name = "Naniwa", class = "Yoshino"{follower} }},
]

[[sides]]
name = "Red"

[[sides.divisions]]
name = "Red cruiser"
x = {red_x}
y = {red_y}
heading = 90
speed = 18
ships = [{{ name = "Kasagi", class = "Kasagi" }}]
"""


def _scenario(tmp_path: Path, **changes: str) -> Path:
    values = {"speed": "18", "lead": "", "follower": "", "red_x": "500", "red_y": "5000"}
    values.update(changes)
    path = tmp_path / "broken.toml"
    path.write_text(SCENARIO.format(**values), encoding="utf-8")
    return path


def test_the_unbroken_scenario_plays(tmp_path: Path) -> None:
    done = run_cli("demo", "--scenario", str(_scenario(tmp_path)), "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("changes", "field", "says"),
    [
        ({"speed": "45"}, "sides[0].divisions[0].speed", "45 kn, above her top propulsion box"),
        ({"red_x": "0", "red_y": "2500"}, "sides[1].divisions[0].ships[0]", "starts on land"),
        ({"red_x": "0", "red_y": "0"}, "sides[1].divisions[0].ships[0]", "overlaps Yoshino"),
        (
            {"lead": ", x = 0, y = 0", "follower": ", x = -300, y = 400"},
            "sides[0].divisions[0].ships",
            "is not in line ahead",
        ),
    ],
    ids=["speed", "on-land", "overlap", "out-of-formation"],
)
def test_a_scenario_that_cannot_be_set_up_is_refused(
    tmp_path: Path, changes: dict[str, str], field: str, says: str
) -> None:
    path = _scenario(tmp_path, **changes)
    line = one_error(run_cli("demo", "--scenario", str(path), cwd=tmp_path))
    assert f"broken.toml: {field}: " in line and says in line
    assert not list(tmp_path.glob("*.svg"))  # nothing was played


def test_a_follower_slightly_off_station_is_within_the_tolerance(tmp_path: Path) -> None:
    """2° off the line ahead is inside the 3° slack; the speed is the ship's top box exactly."""
    path = _scenario(tmp_path, lead=", x = 0, y = 0", follower=", x = -400, y = 14", speed="23")
    assert run_cli("draw", str(path), "--out", str(tmp_path / "t.svg")).returncode == 0


@pytest.mark.parametrize("seed", ["-5", "abc", "1.5"])
def test_a_bad_seed_is_one_error_line(seed: str, tmp_path: Path) -> None:
    line = one_error(run_cli("demo", "--seed", seed, cwd=tmp_path))
    assert f"--seed {seed!r}: a seed must be a whole number, 0 or more" in line
    line = one_error(run_cli("sim", "cruiser-duel", "--runs", "1", "--seed", seed))
    assert "a seed must be a whole number" in line
    line = one_error(
        run_cli("tabletop", "new", str(tmp_path / "t.json"), "--ship", "Mikasa", "--seed", seed)
    )
    assert "a seed must be a whole number" in line and not (tmp_path / "t.json").exists()


def test_demo_save_into_a_missing_folder_creates_it(tmp_path: Path) -> None:
    record = tmp_path / "records" / "deep" / "duel.json"
    done = run_cli(
        "demo", "--scenario", "cruiser-duel", "--quiet", "--save", str(record), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert record.exists() and run_cli("replay", str(record), "--verify").returncode == 0


def test_every_output_option_refuses_an_unwritable_path_before_any_work(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    bad = str(blocker / "out.x")
    for args, option in [
        (("demo", "--save", bad), "--save"),
        (("demo", "--picture", bad), "--picture"),
        (("sim", "cruiser-duel", "--runs", "1", "--json", bad), "--json"),
        (("sim", "cruiser-duel", "--runs", "1", "--plot", bad), "--plot"),
        (("print", "ships", bad, "--ship", "Mikasa"), "OUT"),
        (("print", "charts", bad), "OUT"),
        (("draw", "cruiser-duel", "--out", bad), "--out"),
    ]:
        done = run_cli(*args, cwd=tmp_path)
        line = one_error(done)
        assert line.startswith(f"error: {option} ") and "a file is in the way" in line, line
        assert done.stdout == ""  # refused before playing or drawing anything
    line = one_error(run_cli("demo", "--save", str(tmp_path), cwd=tmp_path))
    assert "is a folder" in line


def test_print_and_picture_create_missing_folders_too(tmp_path: Path) -> None:
    pdf = tmp_path / "new" / "logs.pdf"
    assert run_cli("print", "ships", str(pdf), "--ship", "Mikasa").returncode == 0
    assert pdf.read_bytes().startswith(b"%PDF")


def test_the_notation_survives_error_messages(tmp_path: Path) -> None:
    session = tmp_path / "s.json"
    assert run_cli("tabletop", "new", str(session), "--ship", "Mikasa").returncode == 0
    line = one_error(run_cli("tabletop", "dc-check", str(session), "--dc", "Mikasa: M:A"))
    assert "damage control M:A: nothing to address" in line  # not an emoji
    line = one_error(run_cli("tabletop", "dc-check", str(session), "--dc", "Mikasa: S:ter [b]"))
    assert "damage control S:ter [b]: Mikasa has no mounting 'ter [b]'" in line  # not markup
