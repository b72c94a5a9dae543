"""The TGD referee session and the ``battleline tgd`` commands: one fire action at a time
(TGD-FIRE-02), damage kept in a JSON file, the same seed giving the same cards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from battleline.cli import app
from battleline.errors import IllegalOrderError, ScenarioError, UnknownNameError
from battleline.rulesets.tgd.fire import FireOrder
from battleline.rulesets.tgd.session import SessionFileError, TgdSession, parse_ship_spec
from battleline.testing import FixedDice

runner = CliRunner()
SHIPS = ["--ship", "Pelayo", "--ship", "Mikasa", "--ship", "Second=Pelayo"]


def test_ship_specs_and_duplicate_cards_under_their_own_names() -> None:
    assert parse_ship_spec("Pelayo") == ("Pelayo", "Pelayo")
    assert parse_ship_spec(" Vizcaya = Infanta Maria Teresa ") == (
        "Vizcaya",
        "Infanta Maria Teresa",
    )
    with pytest.raises(ScenarioError, match="NAME=CARD"):
        parse_ship_spec("Vizcaya=")
    session = TgdSession.new([("Pelayo", "Pelayo"), ("Second", "Pelayo")], seed=1)
    assert session.logs["Second"].name == "Second"
    with pytest.raises(ScenarioError, match="two ships"):
        TgdSession.new([("Pelayo", "Pelayo"), ("pelayo", "Pelayo")], seed=1)
    with pytest.raises(UnknownNameError):
        TgdSession.new([("X", "Nonesuch")], seed=1)


def test_TGD_FIRE_02_actions_one_at_a_time_and_a_refused_action_changes_nothing() -> None:
    session = TgdSession.new([("Pelayo", "Pelayo"), ("Mikasa", "Mikasa")], seed=3)
    before = session.to_dict()
    with pytest.raises(IllegalOrderError, match="TGD-RNG-01"):
        session.fire("Pelayo", "Mikasa", FireOrder(2, 25.0, 0.0, 0.0))
    assert session.to_dict() == before
    dice = FixedDice([6, 4])  # ff 2x1 at 15: 5+, rake +1 → 4+, a 6 hits; location 4
    result, events = session.fire("pelayo", "MIKASA", FireOrder(2, 15.0, 0.0, 0.0), dice=dice)
    dice.assert_consumed()
    assert result.hits == 1 and session.logs["Mikasa"].superstructure_hits == 1
    assert session.draws == 2
    assert session.history[-1].text.startswith("Pelayo strength 2 -> Mikasa range 15")
    assert any("S crossed off" in e.text for e in events)
    assert session.next_phase() == 2
    assert not session.logs["Pelayo"].fired


def test_same_seed_same_actions_same_cards_across_save_and_load(tmp_path: Path) -> None:
    order = FireOrder(6, 15.0, 90.0, 270.0)
    a = TgdSession.new([("Pelayo", "Pelayo"), ("Mikasa", "Mikasa")], seed=11)
    a.fire("Mikasa", "Pelayo", order)
    path = tmp_path / "a.json"
    a.save(path)
    loaded = TgdSession.load(path)
    assert loaded.to_dict() == a.to_dict()
    loaded.next_phase()
    loaded.fire("Mikasa", "Pelayo", order)
    b = TgdSession.new([("Pelayo", "Pelayo"), ("Mikasa", "Mikasa")], seed=11)
    b.fire("Mikasa", "Pelayo", order)
    b.next_phase()
    b.fire("Mikasa", "Pelayo", order)
    assert b.to_dict() == loaded.to_dict()


def test_bad_session_files_name_the_field(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    with pytest.raises(SessionFileError, match="no such"):
        TgdSession.load(path)
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(SessionFileError, match="not a battleline TGD session"):
        TgdSession.load(path)
    session = TgdSession.new([("Pelayo", "Pelayo")], seed=1)
    data = session.to_dict()
    data["ships"]["Pelayo"]["log"]["lost"] = [[9, 9]]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SessionFileError, match=r"field 'ships\.Pelayo'.*no such battery"):
        TgdSession.load(path)
    data = session.to_dict()
    data["format"] = "other"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SessionFileError, match="'format'"):
        TgdSession.load(path)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["tgd", "new", str(path), *SHIPS, "--seed", "5"])
    assert result.exit_code == 0, result.output
    assert "BB1 Pelayo: 16 kn" in result.output and "Second (BB1 Pelayo)" in result.output
    return path


def test_cli_fire_narrates_and_saves(game: Path) -> None:
    args = ["tgd", "fire", str(game), "Mikasa", "6", "Pelayo", "--range", "15"]
    result = runner.invoke(app, [*args, "--bearing", "90", "--aspect", "270"])
    assert result.exit_code == 0, result.output
    assert "Mikasa fires f 6x2, a 6x2 (4 guns) at Pelayo, range 15" in result.output
    assert "japanese gunnery +1" in result.output
    session = TgdSession.load(game)
    assert session.draws >= 4 and len(session.history) == 1
    shown = runner.invoke(app, ["tgd", "show", str(game)])
    assert shown.exit_code == 0 and "Fire phase 1" in shown.output


def test_cli_refusal_is_one_error_line_and_leaves_the_file(game: Path) -> None:
    before = game.read_bytes()
    args = ["tgd", "fire", str(game), "Pelayo", "1", "Mikasa", "--range", "11"]
    result = runner.invoke(app, [*args, "--bearing", "90", "--aspect", "270"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "TGD-RNG-01" in lines[0]
    assert game.read_bytes() == before


def test_cli_phase_lets_batteries_fire_again(game: Path) -> None:
    args = ["tgd", "fire", str(game), "Pelayo", "5", "Mikasa", "--range", "30"]
    args += ["--bearing", "0", "--aspect", "90", "--battery", "fp"]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, args).exit_code == 2
    result = runner.invoke(app, ["tgd", "phase", str(game)])
    assert result.exit_code == 0 and "fire phase 2" in result.output
    assert runner.invoke(app, args).exit_code == 0


def test_cli_cards_lists_the_pelayo_card() -> None:
    result = runner.invoke(app, ["tgd", "cards"])
    assert result.exit_code == 0
    assert "BB1 Pelayo" in result.output and "fp 5x1, fs 5x1" in result.output


OLD_FILE = Path(__file__).parent.parent.parent / "data" / "sessions" / "tgd-v1.json"


def test_a_session_file_from_the_earlier_code_loads_saves_and_continues(tmp_path: Path) -> None:
    """``tgd-v1.json``: seed 11, Mikasa fired strength 6 at Pelayo, then phase 2, Pelayo fired
    strength 2 at Mikasa. It saves byte for byte, and its dice continue where they stopped."""
    saved = TgdSession.load(OLD_FILE)
    saved.save(tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == OLD_FILE.read_bytes()
    straight = TgdSession.new(
        [("Pelayo", "Pelayo"), ("Mikasa", "Mikasa"), ("Second", "Pelayo")], seed=11
    )
    straight.fire("Mikasa", "Pelayo", FireOrder(6, 15.0, 90.0, 270.0))
    straight.next_phase()
    straight.fire("Pelayo", "Mikasa", FireOrder(2, 15.0, 0.0, 0.0))
    assert saved.to_dict() == straight.to_dict() and saved.draws == 7
    order = FireOrder(6, 15.0, 90.0, 270.0)
    saved.next_phase()
    straight.next_phase()
    _, events_saved = saved.fire("Mikasa", "Second", order)
    _, events_straight = straight.fire("Mikasa", "Second", order)
    assert [e.text for e in events_saved] == [e.text for e in events_straight]
    assert saved.to_dict() == straight.to_dict() and saved.draws > 7
