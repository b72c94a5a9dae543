"""The readable demo (issue 14 item 1): labels, turn summaries, --verbose, --step, the report."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from battleline.cli import app
from battleline.cli.narrate import Narrator, TurnTally
from battleline.cli.report import print_report, tally
from battleline.engine.events import Event, EventKind
from battleline.engine.ruleset import ShipFate
from battleline.engine.state import Result

runner = CliRunner()


def _demo(tmp_path: Path, scenario: str, *extra: str, stdin: str | None = None) -> str:
    result = runner.invoke(
        app,
        [
            "demo",
            "--scenario",
            scenario,
            "--seed",
            "1",
            "--picture",
            str(tmp_path / "t.svg"),
            *list(extra),
        ],
        input=stdin,
    )
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.slow
def test_the_default_battle_is_at_most_600_lines_with_labels_and_a_report(
    tmp_path: Path,
) -> None:
    """Done means: ``battleline demo`` (channel-1900, seed 1) in at most 600 lines."""
    out = _demo(tmp_path, "channel-1900")
    lines = out.splitlines()
    assert len(lines) <= 600
    for turn in range(1, 21):
        assert f"Turn {turn} in short" in out or f" Turn {turn} " in out
    assert "Damage Step Four: sinking and listing" in out  # a damage step label
    assert "After-action report" in out and "Victory points, ship by ship" in out
    # The ship-by-ship points add up to the verdict's totals.
    rows = re.findall(r"│ (Britain|France) +│ [^│]+│ +(\d+|-) │", out)
    assert len(rows) == 16
    scored = {"Britain": 0, "France": 0}
    for side, pts in rows:
        scored["France" if side == "Britain" else "Britain"] += 0 if pts == "-" else int(pts)
    assert f"points: Britain {scored['Britain']}, France {scored['France']}" in out
    hi, lo = sorted(scored.values(), reverse=True)
    assert re.search(rf"(Britain|France) wins {hi} to {lo}|Draw, {hi} to {lo}", out)


def test_verbose_prints_every_die_and_the_bracket_table(tmp_path: Path) -> None:
    short = _demo(tmp_path, "cruiser-duel")
    full = _demo(tmp_path, "cruiser-duel", "--verbose")
    assert len(full.splitlines()) > 3 * len(short.splitlines())
    assert "near edge" in full and "bracket" in full and "zone" in full
    assert "rolls" in full and "order  Blue: Blue cruiser:" in full
    # The short record quotes no die roll of its own (a chart line may still say what it rolled).
    assert not re.search(r"rolls \d+ \(d\d+\)", short.split("After-action report")[0])


def test_step_pauses_after_each_phase_until_q(tmp_path: Path) -> None:
    out = _demo(tmp_path, "cruiser-duel", "--step", stdin="\n\nq\n")
    assert out.count("-- end of turn") == 3
    assert "-- end of turn 1 command phase" in out
    assert "After-action report" in out  # q plays on to the end
    # End of input also stops pausing rather than hanging.
    assert _demo(tmp_path, "cruiser-duel", "--step", stdin="").count("-- end of turn") == 1


def _event(kind: EventKind, ship: str | None = None, **data: Any) -> Event:
    return Event(kind, f"{kind.value} of {ship}", turn=1, phase="damage", ship=ship, data=data)


def test_turn_tally_counts_fire_hits_damage_and_losses() -> None:
    t = TurnTally()
    for e in (
        _event(EventKind.SPLASH, "A", firer="A", target="B"),
        _event(EventKind.HIT_ZONE, "A", firer="A", target="B"),
        _event(EventKind.HIT_ZONE, "A", firer="A", target="C"),
        _event(EventKind.HIT, "B", firer="A", hits=3),
        _event(EventKind.HIT, "B", firer="C", hits=0),
        _event(EventKind.DAMAGE, "B", codes=["F", "B", "B"]),
        _event(EventKind.FIRE, "B", internal=False),
        _event(EventKind.FIRE, "B"),  # a fire going out: not a new fire
        _event(EventKind.FLOODING, "B", compartment="forward", level=3, rose=True),
        _event(EventKind.SUNK, "C"),
        _event(EventKind.SURRENDER, "D"),
    ):
        t.add(e)
    got = dict(t.lines())
    assert got["fired (* hit zone)"] == "A → B*, C*"
    assert got["hits"] == "B 3 (A 3)"
    assert got["damage"] == "B B×2"
    assert got["fires"] == "B 1 new"
    assert got["flooding"] == "B: forward Heavy"
    assert got["sinkings and strikes"] == "C sunk; D struck"


class _BareRuleset:
    """A ruleset with no picture and no points breakdown."""

    name = "bare"

    def fates(self, state: Any) -> tuple[ShipFate, ...]:
        return (ShipFate("A", "X", "Cls", 3, "intact", True),)


class _BareGame:
    def __init__(self, events: list[Event]) -> None:
        self.ruleset = _BareRuleset()
        self.state = type("S", (), {"result": Result("X", {"X": 1.0, "Y": 0.0}, "test")})()
        self.events = type("L", (), {"events": events})()


def test_a_ruleset_with_other_events_and_no_breakdown_is_narrated_and_reported() -> None:
    console = Console(width=100, record=True)
    odd = [
        Event(EventKind.PHASE, "Turn 1: nips-1 phase", turn=1, phase="nips-1"),
        Event(EventKind.HIT, "a hit with no data", turn=1, ship="A"),
        Event(EventKind.SPLASH, "a splash with no data", turn=1, ship="A"),
        Event(EventKind.NOTE, "something else", turn=1),
    ]
    for verbose in (False, True):
        narrator = Narrator(console, verbose=verbose)
        narrator(odd)
        narrator.finish()
    print_report(console, _BareGame(odd))
    text = console.export_text()
    assert "nips-1 phase" in text and "Turn 1 in short" in text
    assert "Victory points" not in text and "points: X 1, Y 0" in text
    assert tally(odd)["A"].salvos == 1


class _WrongPoints(_BareRuleset):
    """A ruleset whose inherited breakdown does not match its own verdict."""

    def ship_points(self, state: Any) -> tuple[tuple[str, str, float, str], ...]:
        return (("A", "X", 5.0, "sunk: 2 × size 2.5"),)


def test_a_breakdown_that_does_not_add_up_is_left_out() -> None:
    from battleline.cli.report import points_table

    game = _BareGame([])
    assert points_table(_WrongPoints(), game.state) is None  # Y would have 5, the verdict 0
    game.state.result = Result("Y", {"X": 0.0, "Y": 5.0}, "test")
    table = points_table(_WrongPoints(), game.state)
    assert table is not None and table.row_count == 1


@pytest.mark.parametrize(
    ("scenario", "phase"),
    [("tgd-duel", "fire-1 phase"), ("yalu", "combat-1 phase"), ("cruiser-duel-1d12", "damage")],
)
def test_the_demo_reads_every_ruleset(tmp_path: Path, scenario: str, phase: str) -> None:
    """bf1900-1d12, TGD and DBA have other phases and event kinds: labelled and reported."""
    out = _demo(tmp_path, scenario)
    assert phase in out and "Turn 1 in short" in out
    assert "After-action report" in out and "Gunnery and torpedoes" in out
