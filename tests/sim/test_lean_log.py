"""A Monte Carlo battle keeps a lean event log (issue 11, §9), and plays exactly as in full.

The lean log records only what the tally and the admirals read; the battle's record must be the
one the full log gives, and ``sim --show RUN`` replays any run in full.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.acceptance.cli_process import run_cli

from battleline.engine.events import EventKind
from battleline.sim.runner import lean_log, play_battle, run_seed


@pytest.mark.parametrize(
    ("scenario", "index"),
    [("cruiser-duel", 0), ("cruiser-duel", 3), ("destroyer-attack", 1), ("cruiser-duel-1d12", 0)],
)
def test_a_lean_battle_gives_the_record_of_the_full_one(scenario: str, index: int) -> None:
    lean = play_battle(scenario, 11, index)
    full = play_battle(scenario, 11, index, lean=False)
    assert lean.error == "" and full.error == ""
    assert lean == full


def test_the_lean_log_drops_the_dice_narrative() -> None:
    from battleline.ai.base import play
    from battleline.game import new_game

    seed = run_seed(11, 0)
    full, lean = new_game("cruiser-duel", seed), new_game("cruiser-duel", seed, events=lean_log())
    play(full)
    play(lean)
    assert full.state.to_dict() == lean.state.to_dict()
    assert not lean.events.of_kind(EventKind.ROLL)
    assert full.events.of_kind(EventKind.ROLL)
    assert len(lean.events) < len(full.events) / 2
    assert lean.dice.draws == full.dice.draws


def test_sim_show_replays_one_run_in_full(tmp_path: Path) -> None:
    proc = run_cli("sim", "cruiser-duel", "--seed", "11", "--show", "3", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"seed {run_seed(11, 3)}" in proc.stdout
    assert "rolls" in proc.stdout  # the dice narrative, which the sweep itself never keeps
