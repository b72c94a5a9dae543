"""``battleline sim`` from the command line: JSON, worker-independence, the plot, bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from battleline.cli import app

runner = CliRunner()

#: The mid-sized built-in fleet action (8 ships a side).
MID_SIZED = "channel-1900"
KEYS = ("scenario", "runs", "seed", "win_rate", "ci95", "draw_rate", "mean_ships_sunk")


def _sim_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["sim", *args, "--json", "-"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)  # stdout is pure JSON
    return data


def test_json_to_stdout_has_the_keys(tiny: str) -> None:
    data = _sim_json(tiny, "--runs", "3", "--seed", "3", "--workers", "1")
    for key in KEYS:
        assert key in data
    assert data["runs"] == 3 and data["seed"] == 3 and data["scenario"] == tiny
    assert set(data["win_rate"]) == {"Blue", "Red"}
    assert all(len(pair) == 2 and pair[0] <= pair[1] for pair in data["ci95"].values())
    for key in ("mean_ships_crippled", "class_survival", "turns", "damage_by_cause"):
        assert key in data
    assert set(data["damage_by_cause"]["Blue"]) == {
        "gunfire",
        "torpedo",
        "flooding",
        "fire",
        "explosion",
        "ramming",
    }
    # Hits per round fired by side and calibre class, with the all-guns row and its interval.
    for side in ("Blue", "Red"):
        rows = data["hit_rates"][side]
        assert "all" in rows and set(rows) <= {"all", "heavy", "medium", "light"}
        for row in rows.values():
            assert row["hits"] <= row["rounds"]
            assert row["ci95"][0] <= row["rate"] <= row["ci95"][1]
        assert rows["all"]["rounds"] == sum(r["rounds"] for c, r in rows.items() if c != "all")
        # ... and gun by gun: the bores add up to the same rounds and hits.
        bores = data["hit_rates_by_bore"][side]
        assert bores and all(label.endswith(" cm") for label in bores)
        for key in ("rounds", "hits"):
            assert sum(r[key] for r in bores.values()) == rows["all"][key]


def test_one_and_two_workers_print_identical_json(tiny: str) -> None:
    one = _sim_json(tiny, "--runs", "4", "--seed", "3", "--workers", "1")
    two = _sim_json(tiny, "--runs", "4", "--seed", "3", "--workers", "2")
    assert one == two


def test_ruleset_plays_the_scenario_as_its_variant_does() -> None:
    """``--ruleset bf1900-1d12`` on the cruiser duel, over two worker processes, gives the same
    battles as its built-in 1D12 variant."""
    mine = _sim_json("cruiser-duel", "--ruleset", "bf1900-1d12", "--runs", "2", "--workers", "2")
    variant = _sim_json("cruiser-duel-1d12", "--runs", "2", "--workers", "1")
    plain = _sim_json("cruiser-duel", "--runs", "2", "--workers", "1")
    assert {**mine, "scenario": "x"} == {**variant, "scenario": "x"}
    assert mine != {**plain, "scenario": mine["scenario"]}  # the 1D12 rules played, not 1D6


def test_report_json_file_and_plot(tiny: str, tmp_path: Path) -> None:
    png = tmp_path / "sim.png"
    out = tmp_path / "sim.json"
    result = runner.invoke(
        app,
        [
            "sim",
            tiny,
            "--runs",
            "3",
            "--seed",
            "1",
            "-w",
            "1",
            "--plot",
            str(png),
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    for words in (
        "Outcome",
        "Survival by class",
        "Damage received",
        "Turns played",
        "Hits per round",
    ):
        assert words in result.stdout
    assert "Yoshino" in result.stdout and "Kasagi" in result.stdout
    # The bores print under each side's classes, heaviest gun first.
    table = result.stdout[result.stdout.index("Hits per round") :]
    cells = [line.split("│") for line in table.splitlines() if " cm " in line]
    blue = [float(c[2].split()[0]) for c in cells if c[1].strip() == "Blue"]
    assert blue and blue == sorted(blue, reverse=True)
    assert json.loads(out.read_text(encoding="utf-8"))["runs"] == 3
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 20_000


@pytest.mark.slow
def test_mid_sized_builtin_200_runs_prints_the_keys() -> None:
    """``battleline sim channel-1900 --runs 200 --seed 3 --json -``, as the issue asks."""
    data = _sim_json(MID_SIZED, "--runs", "200", "--seed", "3", "--workers", "2")
    for key in KEYS:
        assert key in data
    assert data["runs"] == 200


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "battleline.cli", "sim", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("no-such-scenario", "--runs", "5"), "unknown scenario 'no-such-scenario'"),
        (("cruiser-duel", "--runs", "0"), "--runs must be at least 1, not 0"),
        (("cruiser-duel", "--runs", "5", "--cluster", "dask://127.0.0.1:9"), "cannot reach"),
        (("cruiser-duel", "--ruleset", "dba"), "the dba ruleset reads dba-schema scenarios"),
    ],
)
def test_bad_arguments_give_one_error_line_and_a_nonzero_exit(
    args: tuple[str, ...], message: str
) -> None:
    proc = _cli(*args)
    assert proc.returncode != 0
    assert proc.stdout == ""
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in proc.stderr
