"""``RulesetError``: a scenario that needs a part its ruleset lacks is refused by name — TGD has no
torpedoes (a side of torpedo craft only), DBA has no land — through ``new_game``, the CLI (one
error line, non-zero exit) and the web API (422)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from battleline.errors import RulesetError, ScenarioError
from battleline.game import new_game
from battleline.server.app import create_app

SRC = Path(__file__).parents[1] / "src"
SCENARIOS = SRC / "battleline/rulesets"


def _torpedo_craft_under_tgd() -> str:
    text = (SCENARIOS / "bf1900/data/scenarios/02-destroyer-attack.toml").read_text("utf-8")
    return text.replace('ruleset = "bf1900"', 'ruleset = "tgd"')


def _dba_with_land() -> str:
    text = (SCENARIOS / "dba/data/scenarios/dba-tutorial.toml").read_text("utf-8")
    return "land = []\n" + text


CASES = [
    pytest.param(_torpedo_craft_under_tgd, "the TGD rules have no torpedoes", id="tgd-torpedoes"),
    pytest.param(_dba_with_land, "land: the dba ruleset has no rules for land", id="dba-land"),
]


@pytest.mark.parametrize(("text", "why"), CASES)
def test_new_game_raises_a_ruleset_error(tmp_path: Path, text: Callable[[], str], why: str) -> None:
    path = tmp_path / "s.toml"
    path.write_text(text(), encoding="utf-8")
    with pytest.raises(RulesetError, match=why) as caught:
        new_game(str(path), 1)
    assert isinstance(caught.value, ScenarioError)


def test_the_tgd_refusal_holds_for_a_built_in_played_under_tgd_by_argument() -> None:
    with pytest.raises(RulesetError, match="side 'Flotilla' has only torpedo craft"):
        new_game("destroyer-attack", 1, "tgd")


@pytest.mark.parametrize(("text", "why"), CASES)
def test_the_cli_prints_one_error_line_and_exits_non_zero(
    tmp_path: Path, text: Callable[[], str], why: str
) -> None:
    path = tmp_path / "s.toml"
    path.write_text(text(), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "battleline.cli", "demo", "--scenario", str(path), "--quiet"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin", "COLUMNS": "400"},
        cwd=tmp_path,
        timeout=120,
    )
    assert run.returncode == 2
    lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and why in lines[0], run.stderr
    assert "Traceback" not in run.stderr + run.stdout


@pytest.mark.parametrize(("text", "why"), CASES)
def test_the_web_api_answers_422(tmp_path: Path, text: Callable[[], str], why: str) -> None:
    app = create_app(str(tmp_path / "g.sqlite3"), scenario_dir=tmp_path / "up")
    with TestClient(app) as client:
        r = client.post("/api/games", json={"scenario_text": text()})
    assert r.status_code == 422 and why in r.json()["detail"], r.text
