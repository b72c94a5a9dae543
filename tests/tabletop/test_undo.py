"""Undo: any run of commands taken back one by one gives each earlier session file back, byte for
byte; a file changed behind the record's back is never overwritten."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battleline.tabletop import undo
from battleline.tabletop.hits_notation import parse_hits
from battleline.tabletop.session import TabletopSession

#: Legal reports of one turn each (whole salvos, within ROF, never friendly fire).
COMMANDS = [
    ("report", "Oslyabya <- Mikasa A 2 AP b2 port"),
    ("report", "Mikasa <- Oslyabya sec 4 b1 starboard"),
    ("damage", "Oslyabya <- Fuji sec 6 b1 port"),
    ("damage", ""),
]


def _run(path: Path, command: tuple[str, str]) -> None:
    """One command as the CLI does it: read the bytes, change, save, push."""
    kind, text = command
    before = path.read_bytes()
    session = TabletopSession.load(path)
    if kind == "report":
        session.report(parse_hits(text))
    else:
        session.damage_phase(parse_hits(text), {})
    session.save(path)
    undo.push(path, before, f"{kind} {text}")


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.sampled_from(COMMANDS), min_size=1, max_size=5))
def test_undo_walks_back_through_every_version(
    tmp_path: Path, commands: list[tuple[str, str]]
) -> None:
    path = tmp_path / "game.json"
    undo.forget(path)
    TabletopSession.new(
        [("Mikasa", None, None), ("Fuji", None, None), ("Oslyabya", None, None)], seed=11
    ).save(path)
    versions = [path.read_bytes()]
    for command in commands:
        try:
            _run(path, command)
        except ValueError:  # a report the turn's earlier ones rule out: nothing changed
            assert path.read_bytes() == versions[-1]
            continue
        versions.append(path.read_bytes())
    for earlier in reversed(versions[:-1]):
        undo.undo(path)
        assert path.read_bytes() == earlier
    with pytest.raises(undo.UndoError, match="nothing to undo"):
        undo.undo(path)


def test_a_session_changed_since_the_last_command_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    TabletopSession.new([("Mikasa", None, None), ("Oslyabya", None, None)], seed=1).save(path)
    _run(path, ("report", "Oslyabya <- Mikasa A 2 AP b2 port"))
    path.write_bytes(path.read_bytes() + b" ")
    with pytest.raises(undo.UndoError, match="changed after"):
        undo.undo(path)
    assert path.read_bytes().endswith(b" ")


def test_a_broken_undo_record_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    TabletopSession.new([("Mikasa", None, None)], seed=1).save(path)
    undo.undo_path(path).write_text("{not json", encoding="utf-8")
    with pytest.raises(undo.UndoError, match="cannot read the undo record"):
        undo.undo(path)
