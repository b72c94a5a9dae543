"""The session-file class and helpers shared by the tabletop and TGD sessions."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from battleline.engine.dice import FixedDice, SeededDice
from battleline.engine.events import EventLog
from battleline.engine.sessionfile import (
    FileReader,
    SessionFile,
    command_dice,
    load_json_object,
    replay_dice,
    save_json_atomic,
)
from battleline.errors import ScenarioError


class _FileError(ScenarioError):
    pass


def test_save_writes_json_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    save_json_atomic(target, {"turn": 3, "name": "Mikasa"}, _FileError)
    assert json.loads(target.read_text(encoding="utf-8")) == {"turn": 3, "name": "Mikasa"}
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_save_into_a_missing_folder_raises_the_callers_error(tmp_path: Path) -> None:
    with pytest.raises(_FileError, match="cannot write"):
        save_json_atomic(tmp_path / "no" / "game.json", {}, _FileError)


def test_save_then_load_round_trips(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    save_json_atomic(target, {"ships": ["Fuji", "Hatsuse"]}, _FileError)
    assert load_json_object(target, _FileError, kind="x", missing="m") == {
        "ships": ["Fuji", "Hatsuse"]
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "no such TGD session file"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not a battleline TGD session"),
    ],
)
def test_load_names_the_file_and_the_fault(tmp_path: Path, text: str | None, message: str) -> None:
    target = tmp_path / "s.json"
    if text is not None:
        target.write_text(text, encoding="utf-8")
    with pytest.raises(_FileError, match=message) as info:
        load_json_object(target, _FileError, kind="TGD session", missing="no such TGD session file")
    assert str(target) in str(info.value)


def test_replay_dice_continue_where_the_saved_dice_stopped() -> None:
    unbroken = SeededDice(1905)
    first = [unbroken.roll(6, "turn 1") for _ in range(7)]
    later = [unbroken.roll(6, "turn 2") for _ in range(5)]
    events = EventLog()
    resumed = replay_dice(1905, len(first), events)
    assert list(events) == []  # the skipped dice are not narrated again
    assert [resumed.roll(6, "turn 2") for _ in range(5)] == later
    assert resumed.draws == 12
    assert resumed.log is events


# -- SessionFile and command_dice ----------------------------------------------------------------


@dataclass
class _Game:
    ships: list[str]
    seed: int
    draws: int = 0
    turn: int = 1


def _decode(reader: FileReader) -> _Game:
    ships = []
    for i, name in enumerate(reader.data["ships"]):
        with reader.field(f"ships.{i}"):
            if not isinstance(name, str):
                raise ValueError(f"{name!r} is not a ship name")
            ships.append(name)
    seed, draws, turn = reader.counts()
    return _Game(ships, seed, draws, turn)


GAME_FILE: SessionFile[_Game] = SessionFile(
    format="battleline-test",
    version=2,
    kind="test session",
    counter="turn",
    error=_FileError,
    encode=lambda g: {"ships": g.ships, "seed": g.seed, "draws": g.draws, "turn": g.turn},
    decode=_decode,
)


def test_session_file_writes_the_header_first_and_reads_back_what_it_wrote(tmp_path: Path) -> None:
    game = _Game(["Mikasa", "Fuji"], seed=1905, draws=12, turn=3)
    path = tmp_path / "g.json"
    GAME_FILE.save(game, path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith('{\n "format": "battleline-test",\n "version": 2,\n "ships"')
    assert GAME_FILE.load(path) == game
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "chess"}, "field 'format': not a battleline test session"),
        ({"version": 1}, "field 'version': version 1 is not supported (2)"),
        ({"ships": ["Mikasa", 7]}, "field 'ships.1': 7 is not a ship name"),
        ({"ships": None}, "field '(file)': malformed"),
        ({"seed": -1}, "field 'seed': -1: the turn must be 1 or more, the seed and draws 0"),
        ({"draws": "3"}, "field 'draws': '3'"),
        ({"turn": 0}, "field 'turn': 0"),
        ({"turn": True}, "field 'turn': True"),
    ],
)
def test_session_file_errors_name_the_file_and_the_field(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    data = {**GAME_FILE.to_dict(_Game(["Mikasa"], seed=1)), **change}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(_FileError) as info:
        GAME_FILE.load(path)
    assert str(info.value).startswith(f"{path}: ")
    assert message in str(info.value)


def test_a_missing_field_or_file_is_named(tmp_path: Path) -> None:
    data = GAME_FILE.to_dict(_Game(["Mikasa"], seed=1))
    del data["draws"]
    with pytest.raises(_FileError, match=r"g\.json: field 'draws': missing"):
        GAME_FILE.from_dict(data, "g.json")
    del data["ships"]
    with pytest.raises(_FileError, match=r"g\.json: field 'ships': missing"):
        GAME_FILE.from_dict(data, "g.json")
    with pytest.raises(_FileError, match="no such session file"):
        GAME_FILE.load(tmp_path / "none.json")


def test_command_dice_continue_the_seeded_dice_and_count_given_ones() -> None:
    unbroken = SeededDice(7)
    [unbroken.roll(6, "turn 1") for _ in range(4)]
    later = [unbroken.roll(6, "turn 2") for _ in range(3)]
    roll = command_dice(7, 4, turn=2, phase="damage")
    assert [roll.dice.roll(6, "turn 2") for _ in range(3)] == later
    assert roll.used == 3 and roll.dice.log is roll.events
    assert (roll.events.turn, roll.events.phase) == (2, "damage")
    assert len(roll.events) == 3  # only this command's dice are narrated
    given = FixedDice([5, 2, 6])
    given.roll(6, "earlier")
    own = command_dice(7, 4, turn=2, phase="fire", given=given)
    assert own.dice is given and own.used == 0
    assert given.roll(6, "now") == 2 and own.used == 1
