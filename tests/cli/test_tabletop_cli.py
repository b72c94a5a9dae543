"""``battleline tabletop``: the Damage Phase for a game on a real table (BF6-DMG-02, BF6-DC-02/04,
BF6-REP-01, BF6-CF-01). Bad input exits 2 with one error line, and the game loses nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from battleline.cli import app
from battleline.tabletop.session import TabletopSession

runner = CliRunner()

SHIPS = ["--ship", "Mikasa", "--ship", "Fuji", "--ship", "Oslyabya"]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["tabletop", "new", str(path), *SHIPS, "--seed", "5"])
    assert result.exit_code == 0, result.output
    return path


def _edit(path: Path, change: Callable[[TabletopSession], None]) -> None:
    session = TabletopSession.load(path)
    change(session)
    session.save(path)


def _one_error_line(args: list[str], path: Path | None = None) -> str:
    """Run a command that must be refused: exit 2, one ``error:`` line, the file unchanged."""
    before = path.read_bytes() if path is not None and path.exists() else None
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ") and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if path is not None:
        assert (path.read_bytes() if path.exists() else None) == before
    return lines[0]


# -- the happy path ---------------------------------------------------------------------------


def test_new_creates_the_session_with_sides_and_seed(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = runner.invoke(
        app,
        ["tabletop", "new", str(path), "--ship", "Hatsuse=Mikasa", "--ship", "Oslyabya",
         "--side", "Japan", "--side", "Russia", "--seed", "42"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (
        "Hatsuse" in result.output and "Peresviet" in result.output and "seed 42" in result.output
    )
    session = TabletopSession.load(path)
    assert session.seed == 42 and session.turn == 1
    assert {n: (e.class_name, e.side) for n, e in session.ships.items()} == {
        "Hatsuse": ("Mikasa", "Japan"),
        "Oslyabya": ("Peresviet", "Russia"),
    }


def test_show_prints_the_log_sheets(game: Path) -> None:
    result = runner.invoke(app, ["tabletop", "show", str(game), "fuji"])
    assert result.exit_code == 0, result.output
    for text in ("Turn 1", "Oslyabya", "Propulsion (knots)", "DC boxes", "port amidships"):
        assert text in result.output, text


def test_BF6_DMG_02_damage_runs_the_four_steps_narrates_each_die_and_advances_the_turn(
    game: Path, tmp_path: Path
) -> None:
    hits = tmp_path / "hits.txt"
    hits.write_text("# turn 1\nOslyabya <- Fuji sec 6 b1 port\n", encoding="utf-8")
    result = runner.invoke(
        app,
        ["tabletop", "damage", str(game), "--hits", "Oslyabya <- Mikasa A 2 AP b1 port",
         "--hits-file", str(hits), "--hits", "Mikasa <- Oslyabya A 2 AP b1 starboard"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    steps = [out.index(f"Damage Step {n}") for n in ("One", "Two", "Three", "Four")]
    assert steps == sorted(steps)
    # each die is shown once: the line that uses the hit-location dice quotes them, so the
    # separate "hit location rolls" lines are not printed as well
    assert "Oslyabya: 2 rounds from Mikasa A (30.5 cm AP) roll " in out
    assert "hit location rolls" not in out
    assert "now turn 2" in out
    session = TabletopSession.load(game)
    assert session.turn == 2 and session.draws > 0
    assert session.history[0].hits[0] == "Oslyabya <- Mikasa A 2 AP b1 port"
    # the same seed and hits give the same phase, run again from a copy of the start
    again = tmp_path / "again.json"
    runner.invoke(app, ["tabletop", "new", str(again), *SHIPS, "--seed", "5"])
    runner.invoke(
        app,
        ["tabletop", "damage", str(again), "--hits", "Oslyabya <- Mikasa A 2 AP b1 port",
         "--hits-file", str(hits), "--hits", "Mikasa <- Oslyabya A 2 AP b1 starboard"],
    )  # fmt: skip
    assert TabletopSession.load(again).logs == session.logs


def test_damage_control_is_rolled_in_step_three(game: Path) -> None:
    _edit(game, lambda s: setattr(s.logs["Mikasa"], "bridge_hits", 1))
    result = runner.invoke(app, ["tabletop", "damage", str(game), "--dc", "Mikasa: BR"])
    assert result.exit_code == 0, result.output
    # the die appears once, on the line that says what it did
    assert "Mikasa: BR rolls" in result.output
    assert "Mikasa: damage control BR rolls" not in result.output


def test_dc_check_validates_without_rolling(game: Path) -> None:
    _edit(game, lambda s: setattr(s.logs["Mikasa"].propulsion, "damaged", 2))
    before = game.read_bytes()
    result = runner.invoke(app, ["tabletop", "dc-check", str(game), "--dc", "mikasa: P; P"])
    assert result.exit_code == 0, result.output
    assert "ok: Mikasa: P; P (2 of 6 DC dice)" in result.output
    assert game.read_bytes() == before


# -- bad input: exit 2, one line, nothing lost ------------------------------------------------


def test_unknown_ship_in_new_writes_no_file(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    line = _one_error_line(["tabletop", "new", str(path), "--ship", "Mikassa"], path)
    assert "unknown ship 'Mikassa'" in line and "Mikasa" in line
    assert not path.exists()


def test_unknown_ship_in_hits_dc_and_show(game: Path) -> None:
    line = _one_error_line(
        ["tabletop", "damage", str(game), "--hits", "Yashima <- Fuji A 1 b1 port"], game
    )
    assert "unknown ship 'Yashima'" in line
    line = _one_error_line(["tabletop", "damage", str(game), "--dc", "Yashima: P"], game)
    assert "unknown ship 'Yashima'" in line
    assert "unknown ship 'Yashima'" in _one_error_line(["tabletop", "show", str(game), "Yashima"])


def test_malformed_chart_file_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "charts.toml"
    bad.write_text("[ap\nlocation = 1\n", encoding="utf-8")
    path = tmp_path / "g.json"
    line = _one_error_line(
        ["tabletop", "new", str(path), "--ship", "Mikasa", "--charts", str(bad)], path
    )
    assert "charts.toml" in line and not path.exists()


def test_a_chart_file_broken_after_new_refuses_the_damage_phase(tmp_path: Path) -> None:
    charts = tmp_path / "charts"
    packaged = Path(__file__).parents[2] / "src/battleline/rulesets/bf1900/data/charts"
    charts.mkdir()
    for f in packaged.glob("*.toml"):
        (charts / f.name).write_bytes(f.read_bytes())
    path = tmp_path / "g.json"
    result = runner.invoke(
        app, ["tabletop", "new", str(path), "--ship", "Mikasa", "--charts", str(charts)]
    )
    assert result.exit_code == 0, result.output
    hits_toml = charts / "hits.toml"
    hits_toml.write_text(hits_toml.read_text(encoding="utf-8") + "\n[bogus]\n", encoding="utf-8")
    line = _one_error_line(["tabletop", "damage", str(path)], path)
    assert "hits.toml" in line


def test_BF6_DC_04_more_declarations_than_dc_dice(game: Path) -> None:
    def damage(s: TabletopSession) -> None:
        s.logs["Mikasa"].propulsion.damaged = 6
        s.logs["Mikasa"].bridge_hits = 1

    _edit(game, damage)
    dc = "Mikasa: P; P; P; P; P; P; BR"
    for command in ("damage", "dc-check"):
        line = _one_error_line(["tabletop", command, str(game), "--dc", dc], game)
        assert "Mikasa" in line and "needs 7 DC dice but only 6" in line and "BF6-DC-04" in line


def test_BF6_REP_01_repairing_a_destroyed_position(game: Path) -> None:
    _edit(game, lambda s: setattr(s.logs["Fuji"].positions["Z"], "destroyed", True))
    line = _one_error_line(["tabletop", "damage", str(game), "--dc", "Fuji: M:Z"], game)
    assert "Fuji: damage control M:Z: Z is destroyed" in line and "BF6-REP-01" in line


def test_BF6_CF_01_command_function_under_a_ct_hit(game: Path) -> None:
    _edit(game, lambda s: setattr(s.logs["Oslyabya"], "ct_hits", 1))
    line = _one_error_line(["tabletop", "dc-check", str(game), "--dc", "Oslyabya: SCUTTLE"], game)
    assert "Oslyabya" in line and "conning-tower hit" in line and "BF6-CF-01" in line


def test_BF6_DC_02_and_bad_dc_notation(game: Path) -> None:
    line = _one_error_line(["tabletop", "damage", str(game), "--dc", "Fuji: BR"], game)
    assert "nothing to address" in line and "BF6-DC-02" in line
    line = _one_error_line(["tabletop", "damage", str(game), "--dc", "Fuji: FIX"], game)
    assert "unknown damage-control action 'FIX'" in line


@pytest.mark.parametrize(
    ("hit", "says"),
    [
        ("Mikasa Fuji A 2 AP b2 port", "<-"),
        ("Mikasa <- Fuji A 2 AP b9 port", "b1–b4"),
        ("Mikasa <- Fuji sec 2 b4 port", "cannot reach bracket 4"),
        ("Mikasa <- Fuji Q 2 b1 port", "no mounting 'Q'"),
        ("Mikasa <- Fuji torpedo shallow port", "BF6-TORP-06"),
    ],
)
def test_a_bad_hit_line(game: Path, hit: str, says: str) -> None:
    line = _one_error_line(["tabletop", "damage", str(game), "--hits", hit], game)
    assert says in line


def test_existing_file_is_not_overwritten_without_force(game: Path) -> None:
    line = _one_error_line(["tabletop", "new", str(game), "--ship", "Fuji"], game)
    assert "already exists" in line and "--force" in line
    result = runner.invoke(app, ["tabletop", "new", str(game), "--ship", "Fuji", "--force"])
    assert result.exit_code == 0 and list(TabletopSession.load(game).logs) == ["Fuji"]


def test_sides_must_match_ships_and_the_session_file_must_exist(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    line = _one_error_line(
        ["tabletop", "new", str(path), *SHIPS, "--side", "Japan", "--side", "Russia"], path
    )
    assert "3 --ship but 2 --side" in line
    line = _one_error_line(["tabletop", "damage", str(tmp_path / "nope.json")])
    assert "no such session file" in line
    # a missing folder is created, as for every output file (docs/tabletop.md)
    result = runner.invoke(app, ["tabletop", "new", str(tmp_path / "no" / "g.json"), *SHIPS])
    assert result.exit_code == 0 and (tmp_path / "no" / "g.json").exists()
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    line = _one_error_line(["tabletop", "new", str(blocked / "g.json"), *SHIPS])
    assert "a file is in the way" in line


def test_the_console_command_exits_2_too(tmp_path: Path) -> None:
    """``main()`` keeps the exit code of a refused command (it once returned 0)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "battleline.cli", "tabletop", "show", str(tmp_path / "no.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and "no such session file" in done.stderr
    assert "Traceback" not in done.stderr
