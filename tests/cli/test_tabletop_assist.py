"""The tabletop assistant that checks and forgives (issue 14, item 3): sessions from scenarios,
checked hits and launches, undo byte for byte, the marked logs as PDF, each die shown once, and
the players' own dice (BF6-ROF-*, BF6-TORP-03, BF6-GEN-04)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.acceptance.cli_process import one_error, run_cli
from typer.testing import CliRunner

from battleline.cli import app
from battleline.rulesets.bf1900.scenario import get_scenario
from battleline.tabletop.session import TabletopSession
from battleline.tabletop.undo import undo_path

runner = CliRunner()

SHIPS = ["--ship", "Mikasa", "--ship", "Fuji", "--ship", "Oslyabya", "--ship", "Sokol"]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["tabletop", "new", str(path), *SHIPS, "--seed", "1905"])
    assert result.exit_code == 0, result.output
    return path


def _ok(*args: str, input: str | None = None) -> str:
    result = runner.invoke(app, list(args), input=input)
    assert result.exit_code == 0, result.output
    return result.output


def test_new_from_tsushima_starts_the_whole_battle(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    out = _ok("tabletop", "new", str(path), "--scenario", "tsushima-1905", "--seed", "1")
    sc = get_scenario("tsushima-1905")
    expected = {
        ship.name: (ship.ship_class.name, side.name, division.name)
        for side in sc.sides
        for division in side.divisions
        for ship in division.ships
    }
    session = TabletopSession.load(path)
    assert len(expected) == 24 and session.scenario == "tsushima-1905"
    assert {n: (e.class_name, e.side, e.division) for n, e in session.ships.items()} == expected
    assert "Mikasa" in out and "Knyaz Suvorov" in out and "division" in out


def test_new_refuses_a_scenario_of_another_ruleset(tmp_path: Path) -> None:
    line = one_error(
        run_cli("tabletop", "new", str(tmp_path / "x.json"), "--scenario", "cruiser-duel-1d12")
    )
    assert "bf1900-1d12" in line and not (tmp_path / "x.json").exists()


def test_twenty_rounds_from_a_two_gun_turret_is_one_error_line(game: Path) -> None:
    before = game.read_bytes()
    line = one_error(
        run_cli("tabletop", "damage", str(game), "--hits", "Oslyabya <- Mikasa A 20 AP b2 port")
    )
    assert "at most 2 round(s) a turn, not 20" in line and "BF6-ROF-03" in line
    assert game.read_bytes() == before


def test_a_third_torpedo_from_two_tubes_is_refused_after_two_were_crossed_off(game: Path) -> None:
    _ok("tabletop", "damage", str(game), "--launch", "Sokol 2")
    assert TabletopSession.load(game).logs["Sokol"].torpedoes_left == {"centreline": 0}
    before = game.read_bytes()
    line = one_error(
        run_cli("tabletop", "damage", str(game), "--hits", "Mikasa <- Sokol torpedo port")
    )
    assert "0 torpedo(es) left" in line and "BF6-TORP-03" in line
    assert game.read_bytes() == before


def test_friendly_fire_needs_the_flag(game: Path) -> None:
    hit = "Oslyabya <- Sokol torpedo port"
    line = one_error(run_cli("tabletop", "report", str(game), "--hits", hit))
    assert "both of Russia" in line and "--friendly-fire" in line
    out = _ok("tabletop", "report", str(game), "--hits", hit, "--friendly-fire")
    assert f"reported this turn: {hit}" in out
    out = _ok("tabletop", "damage", str(game))
    assert "torpedo from Sokol" in out


def test_undo_restores_the_session_file_byte_for_byte(game: Path) -> None:
    start = game.read_bytes()
    _ok("tabletop", "report", str(game), "--hits", "Oslyabya <- Mikasa A 2 AP b2 port")
    reported = game.read_bytes()
    _ok("tabletop", "damage", str(game), "--hits", "Mikasa <- Oslyabya A 2 AP b1 starboard")
    assert TabletopSession.load(game).turn == 2
    out = _ok("tabletop", "undo", str(game))
    assert "undone: tabletop damage" in out
    assert game.read_bytes() == reported
    _ok("tabletop", "undo", str(game))
    assert game.read_bytes() == start
    assert not undo_path(game).exists()
    line = one_error(run_cli("tabletop", "undo", str(game)))
    assert "nothing to undo" in line


def test_undo_refuses_when_the_file_was_changed_since(game: Path) -> None:
    _ok("tabletop", "report", str(game), "--hits", "Oslyabya <- Mikasa A 2 AP b2 port")
    data = json.loads(game.read_text(encoding="utf-8"))
    data["turn"] = 5
    game.write_text(json.dumps(data), encoding="utf-8")
    changed = game.read_bytes()
    line = one_error(run_cli("tabletop", "undo", str(game)))
    assert "changed after" in line and game.read_bytes() == changed


def test_a_refused_command_leaves_nothing_to_undo(game: Path) -> None:
    one_error(
        run_cli("tabletop", "damage", str(game), "--hits", "Oslyabya <- Mikasa A 3 AP b2 port")
    )
    assert not undo_path(game).exists()


def test_print_writes_the_current_marked_logs(game: Path, tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    fresh, marked = tmp_path / "fresh.pdf", tmp_path / "new folder" / "logs.pdf"
    _ok("tabletop", "print", str(game), str(fresh))
    session = TabletopSession.load(game)
    session.logs["Mikasa"].propulsion.damaged = 2
    session.logs["Oslyabya"].positions["A"].destroyed = True
    session.save(game)
    out = _ok("tabletop", "print", str(game), str(marked))  # the folder is created
    assert "4 ship log(s), turn 1" in out
    pages = pypdf.PdfReader(str(marked)).pages
    assert len(pages) == 4
    assert "Oslyabya" in pages[2].extract_text() and "Sokol" in pages[3].extract_text()
    assert marked.read_bytes() != fresh.read_bytes()  # the marks made since are drawn


def test_each_die_is_shown_once(game: Path) -> None:
    out = _ok(
        "tabletop", "damage", str(game), "--hits", "Oslyabya <- Fuji sec 4 b1 port", "--dice",
        "6,5,6,4",
    )  # fmt: skip
    assert "Oslyabya: 4 rounds from Fuji sec (15.2 cm HE) roll 6 5 6 4 → 4 misses" in out
    assert "hit location rolls" not in out
    assert out.count("6 5 6 4") == 1


def test_the_players_own_dice_replace_the_programs(game: Path, tmp_path: Path) -> None:
    hit = "Oslyabya <- Mikasa A 2 AP b1 port"
    out = _ok("tabletop", "damage", str(game), "--hits", hit, "--dice", "3 6")
    assert "Oslyabya: 2 rounds from Mikasa A (30.5 cm AP) roll 3 6 → 2 misses" in out
    session = TabletopSession.load(game)
    assert session.history[-1].own_dice and session.history[-1].rolls == (3, 6)
    # too few rolls: the phase says what the next die was for; nothing is saved
    before = game.read_bytes()
    line = one_error(run_cli("tabletop", "damage", str(game), "--hits", hit, "--dice", "3"))
    assert "1 roll(s) given" in line and "a d6 for Oslyabya" in line
    line = one_error(run_cli("tabletop", "damage", str(game), "--dice", "4"))
    assert "left over" in line
    line = one_error(run_cli("tabletop", "damage", str(game), "--hits", hit, "--dice", "9,9"))
    assert "roll 1 is 9, but it is a d6" in line
    assert game.read_bytes() == before


def test_ask_dice_prompts_for_each_die(game: Path) -> None:
    out = _ok(
        "tabletop", "damage", str(game), "--hits", "Oslyabya <- Fuji sec 2 b1 port",
        "--ask-dice", input="7\n6\n5\n",
    )  # fmt: skip
    assert "roll a d6 for Oslyabya: Fuji sec" in out and "not '7'; roll again" in out
    assert "roll 6 5 → 2 misses" in out
