"""``battleline play``: one side against the AI in the terminal (issue 14 item 2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from battleline.cli.terminal_game import refusals, ship_panel
from battleline.engine import GameRecord
from battleline.game import new_game, verify

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _play(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run(
        [sys.executable, "-m", "battleline.cli", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=600,
    )


def test_play_cruiser_duel_as_blue_to_the_end_with_fed_input(tmp_path: Path) -> None:
    """Done means: driven to the end by a test that feeds it input; a bad order is refused
    with every problem listed and asked again; the saved record verifies."""
    record = tmp_path / "g.json"
    bad = "Yoshino: Nobody @4000 AP A:1\nYoshino: Kasagi @x AP\n\n"
    # Turn 1: command (Enter), gunnery (two bad lines, then a good empty set), then Enter on.
    stdin = "\n" + bad + "\n" * 400
    proc = _play("cruiser-duel", "--side", "Blue", "--save", str(record), stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Blue, turn 1 of 12, command phase" in out
    assert "2 problem(s); nothing was sent:" in out
    assert "'Yoshino: Nobody @4000 AP A:1'" in out and "'Yoshino: Kasagi @x AP'" in out
    assert out.count("Blue, turn 1 of 12, gunnery phase") == 1  # asked again, not re-shown
    assert "After-action report" in out and ("wins" in out or "Draw" in out)
    assert "Red, turn" not in out  # the AI's side is never prompted
    ok, _ = verify(GameRecord.load(record))
    assert ok


def test_quit_saves_and_resume_goes_on_to_the_end(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    proc = _play("cruiser-duel", "--side", "Blue", "--save", str(record), stdin="\n\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert f"left the game; saved to {record}" in proc.stdout
    saved = GameRecord.load(record)
    assert verify(saved)[0]
    proc = _play("--resume", str(record), "--side", "Blue", stdin="\n" * 400)
    assert proc.returncode == 0, proc.stderr
    assert "Blue, turn 1 of 12, torpedo phase" in proc.stdout  # where it was left
    assert "After-action report" in proc.stdout


def test_bad_side_and_missing_scenario_are_one_error_line() -> None:
    proc = _play("cruiser-duel", "--side", "Green", stdin="")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "side" in proc.stderr and "Green" in proc.stderr
    proc = _play("--side", "Blue", stdin="")
    assert proc.returncode == 2 and "SCENARIO is missing" in proc.stderr


def test_the_panel_shows_own_guns_and_bearings_from_the_view_only() -> None:
    game = new_game("cruiser-duel", 1)
    lines = ship_panel(game.view("Blue"))
    text = "\n".join(lines)
    assert lines[0].startswith("Yoshino (Yoshino, Blue cruiser)")
    assert "guns: A 1/1×15.2cm ROF 2" in text
    assert "Kasagi (Kasagi)" in text and "relative bearing" in text
    assert "torpedoes left: beam 4, bow 1" in text
    assert text.count("guns:") == 1  # the enemy's guns are not shown


def test_refusals_lists_every_bad_line() -> None:
    game = new_game("cruiser-duel", 1)
    game.submit("Blue", [])
    game.submit("Red", [])  # to the gunnery phase
    assert game.spec.name == "gunnery"
    got = refusals(game, "Blue", ["Yoshino: Nobody @4000 AP A:1", "Yoshino: Kasagi @4000 AP A:1"])
    assert len(got) == 1 and got[0].startswith("'Yoshino: Nobody @4000 AP A:1': ")
    assert refusals(game, "Blue", ["Yoshino: Kasagi @4000 AP A:1"]) == []


@pytest.mark.parametrize(
    ("scenario", "side", "shows"),
    [
        ("tgd-duel", "Japan", "card: BB1 Mikasa"),  # TGD: the damage card, ready batteries
        ("yalu", "China", "Ting Yuen at (0, 0) m heading 090°: annex Ting Yuen"),  # DBA
        ("cruiser-duel-1d12", "Blue", "guns: A 1/1"),
    ],
)
def test_play_runs_to_the_end_for_every_ruleset(scenario: str, side: str, shows: str) -> None:
    proc = _play(scenario, "--side", side, stdin="\n" * 3000)
    assert proc.returncode == 0, proc.stderr
    assert shows in proc.stdout
    assert "After-action report" in proc.stdout
