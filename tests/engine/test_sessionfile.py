"""The session-file helpers shared by the tabletop and TGD sessions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from battleline.engine.dice import SeededDice
from battleline.engine.events import EventLog
from battleline.engine.sessionfile import load_json_object, replay_dice, save_json_atomic
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
