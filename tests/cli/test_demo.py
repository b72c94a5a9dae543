"""``battleline demo``, ``replay --verify`` and ``scenarios`` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from battleline.cli import app

runner = CliRunner()
SCENARIO = "cruiser-duel"


def _demo(tmp_path: Path, *extra: str) -> str:
    result = runner.invoke(
        app,
        [
            "demo",
            "--scenario",
            SCENARIO,
            "--seed",
            "1",
            "--picture",
            str(tmp_path / "t.svg"),
            *extra,
        ],
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_demo_finishes_with_a_verdict_a_summary_and_a_picture(tmp_path: Path) -> None:
    out = _demo(tmp_path)
    assert "Turn 1" in out
    assert "command phase" in out and "gunnery phase" in out and "damage phase" in out
    assert "Turn 1 in short" in out and "fired (* hit zone): Kasagi → Yoshino" in out
    assert "After-action report" in out and "Fates" in out
    assert any(word in out for word in (" wins ", "Draw"))
    assert f"picture of the tracks: {tmp_path / 't.svg'}" in out
    assert (tmp_path / "t.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")


@pytest.mark.slow
def test_demo_output_is_the_same_twice(tmp_path: Path) -> None:
    first = _demo(tmp_path)
    second = _demo(tmp_path)
    assert first == second
    picture = (tmp_path / "t.svg").read_bytes()
    _demo(tmp_path)
    assert (tmp_path / "t.svg").read_bytes() == picture


def test_demo_quiet_prints_only_the_summary(tmp_path: Path) -> None:
    out = _demo(tmp_path, "--quiet")
    assert "Turn 1" not in out
    assert "Fates" in out


@pytest.mark.slow
def test_save_then_replay_verify_confirms_the_hash(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    _demo(tmp_path, "--quiet", "--save", str(record))
    assert f"game saved to {record}" in _demo(tmp_path, "--quiet", "--save", str(record))
    result = runner.invoke(app, ["replay", str(record), "--verify"])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output
    data = json.loads(record.read_text(encoding="utf-8"))
    data["final_hash"] = "0" * 64
    record.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(record), "--verify"])
    assert result.exit_code == 1
    assert "MISMATCH" in result.output


def test_scenarios_lists_the_builtins() -> None:
    result = runner.invoke(app, ["scenarios"])
    assert result.exit_code == 0
    assert "cruiser-duel" in result.output and "destroyer-attack" in result.output


@pytest.mark.slow
def test_a_broken_scenario_is_one_error_line_not_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('id = "bad"\ntitle = "Bad"\nturn_limit = "x"\n', encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "battleline.cli", "demo", "--scenario", str(bad), "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    line = " ".join(proc.stderr.split())  # the console wraps long lines
    assert line.startswith(f"error: {bad}: ")
    assert "turn_limit: Input should be a valid integer" in line
    assert line.count("error:") == 1
