"""The record of the historical battles (``rulesets/bf1900/history.py``): the packaged files
agree with the scenarios they name, and a bad entry gets an error naming its file, entry and
field (issue 12 items 5 and 8)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from battleline.errors import RulesDataError, UnknownNameError
from battleline.rulesets.bf1900.history import (
    battle_records,
    parse_battles,
    parse_hit_rates,
    record_figures,
    records_for,
)
from battleline.rulesets.bf1900.scenario import get_scenario

SCENARIOS = Path(str(resources.files("battleline.rulesets.bf1900").joinpath("data", "scenarios")))
BATTLE = {"scenario": "yalu-1894", "victor": "Japan", "sunk": [5, 0], "note": "four sunk"}
FIGURE = {
    "scenario": "yalu-1894",
    "side": "Japan",
    "guns": "all",
    "rate": 0.12,
    "what": "claims",
    "source": "Paine (2003)",
}


def test_every_record_names_the_sides_of_its_scenario() -> None:
    """Each battle's victor, each figure's and survivor's side, and each survivor's ships are
    the scenario's own; the eight historical scenarios all have a record."""
    battles = battle_records()
    assert len(battles) == 8 and battles["santiago-1898"].sunk == (6, 0)
    for sid, record in battles.items():
        assert record.victor in [s.name for s in get_scenario(sid).sides]
    figures, survivors = record_figures()
    assert figures and survivors
    for f in figures:
        assert f.side in [s.name for s in get_scenario(f.scenario).sides], f
        assert 0.0 <= f.low <= f.high <= 1.0
    for sv in survivors:
        sides = {s.name: s for s in get_scenario(sv.scenario).sides}
        names = {ship.name for d in sides[sv.side].divisions for ship in d.ships}
        assert set(sv.ships) <= names


@pytest.mark.parametrize(
    ("entry", "where", "field"),
    [
        ({**BATTLE, "sunk": [5]}, "battle[0]", "sunk"),
        ({**BATTLE, "sunk": [5, -1]}, "battle[0]", "sunk"),
        ({**BATTLE, "victor": ""}, "battle[0]", "victor"),
        ({**BATTLE, "winner": "Japan"}, "battle[0]", "winner"),
        ({k: v for k, v in BATTLE.items() if k != "note"}, "battle[0]", "note"),
    ],
)
def test_a_bad_battle_is_named(entry: dict[str, Any], where: str, field: str) -> None:
    with pytest.raises(RulesDataError) as err:
        parse_battles({"battle": [entry]})
    assert where in str(err.value) and field in str(err.value)


def test_a_battle_recorded_twice_is_refused() -> None:
    with pytest.raises(RulesDataError, match=r"battle\[1\].*has a record already"):
        parse_battles({"battle": [BATTLE, BATTLE]})


@pytest.mark.parametrize(
    ("entry", "field", "reason"),
    [
        ({**FIGURE, "scenario": "lissa-1866"}, "scenario", "no battle record"),
        ({**FIGURE, "guns": "secondary"}, "guns", "a bore such as"),
        ({**FIGURE, "guns": "six cm"}, "guns", "a bore such as"),
        ({**FIGURE, "guns": "15.20 cm"}, "guns", "a bore such as"),
        ({**FIGURE, "rate": 12}, "rate", "from 0 to 1"),
        ({**FIGURE, "low": 0.1}, "rate", "not both"),
        ({k: v for k, v in FIGURE.items() if k != "rate"} | {"low": 0.1}, "high", "missing"),
        ({k: v for k, v in FIGURE.items() if k != "rate"} | {"low": 0.2, "high": 0.1}, "low", ""),
        ({**FIGURE, "source": " "}, "source", "expected some text"),
    ],
)
def test_a_bad_figure_is_named(entry: dict[str, Any], field: str, reason: str) -> None:
    battles = parse_battles({"battle": [BATTLE]})
    with pytest.raises(RulesDataError) as err:
        parse_hit_rates({"figure": [entry]}, battles)
    text = str(err.value)
    assert "hit_rates.toml" in text and "figure[0]" in text and field in text and reason in text


def test_a_figure_may_name_a_bore_and_a_range() -> None:
    battles = parse_battles({"battle": [BATTLE]})
    entry = {k: v for k, v in FIGURE.items() if k != "rate"}
    entry |= {"guns": "30.5 cm", "low": 0.0, "high": 0.063, "counts": "0-17 / 271"}
    (fig,), () = parse_hit_rates({"figure": [entry]}, battles)
    assert (fig.guns, fig.low, fig.high, fig.counts) == ("30.5 cm", 0.0, 0.063, "0-17 / 271")
    assert fig.within_factor_two(0.126) and not fig.within_factor_two(0.127)


# -- a battle of one's own -------------------------------------------------------------------

OWN_BATTLES = """
[[battle]]
scenario = "my-duel"
victor = "Blue"
sunk = [0, 1]
note = "Red's cruiser sunk"
"""
OWN_HIT_RATES = """
[[figure]]
scenario = "my-duel"
side = "Blue"
guns = "all"
rate = 0.05
what = "Blue's rounds"
source = "a log of my own"
"""


def _own_duel(tmp_path: Path) -> Path:
    """A scenario file of the user's: the cruiser duel under a new id."""
    text = (SCENARIOS / "01-cruiser-duel.toml").read_text(encoding="utf-8")
    path = tmp_path / "my-duel.toml"
    path.write_text(text.replace('id = "cruiser-duel"', 'id = "my-duel"'), encoding="utf-8")
    assert get_scenario(str(path)).id == "my-duel"
    return path


def test_a_users_record_names_his_own_battle(tmp_path: Path) -> None:
    """``records_for`` reads a user's battles and hit-rates files beside the packaged ones and
    finds the record of a scenario file by the file's ``id``."""
    scenario = _own_duel(tmp_path)
    (tmp_path / "b.toml").write_text(OWN_BATTLES, encoding="utf-8")
    (tmp_path / "h.toml").write_text(OWN_HIT_RATES, encoding="utf-8")
    records, (figures, survivors) = records_for(
        [str(scenario), "yalu-1894"], str(tmp_path / "b.toml"), str(tmp_path / "h.toml")
    )
    assert [r.scenario for r in records] == ["my-duel", "yalu-1894"]
    assert records[0].sunk == (0, 1) and records[0].victor == "Blue"
    assert [f.scenario for f in figures].count("my-duel") == 1
    assert any(f.scenario == "yalu-1894" for f in figures) and survivors


def test_a_users_record_replaces_the_packaged_one_figures_and_all(tmp_path: Path) -> None:
    (tmp_path / "b.toml").write_text(
        OWN_BATTLES.replace("my-duel", "yalu-1894").replace("Blue", "China"), encoding="utf-8"
    )
    records, (figures, survivors) = records_for(["yalu-1894"], str(tmp_path / "b.toml"), None)
    assert records[0].victor == "China"
    assert not [f for f in figures if f.scenario == "yalu-1894"]
    assert not [s for s in survivors if s.scenario == "yalu-1894"]


def test_a_scenario_without_a_record_or_a_bad_record_file_is_named(tmp_path: Path) -> None:
    scenario = _own_duel(tmp_path)
    with pytest.raises(UnknownNameError, match="battle record 'my-duel'"):
        records_for([str(scenario)], None, None)
    bad = tmp_path / "bad.toml"
    bad.write_text(OWN_BATTLES.replace("sunk = [0, 1]", "sunk = [0]"), encoding="utf-8")
    with pytest.raises(RulesDataError, match=r"bad\.toml.*battle\[0\].*sunk"):
        records_for([str(scenario)], str(bad), None)
    (tmp_path / "h.toml").write_text(OWN_HIT_RATES, encoding="utf-8")
    with pytest.raises(RulesDataError, match=r"h\.toml.*no battle record for 'my-duel'"):
        records_for(["yalu-1894"], None, str(tmp_path / "h.toml"))


def test_calibrate_grades_a_battle_of_ones_own(
    tmp_path: Path, project_tool: Callable[[str], ModuleType], capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole tool path: ``calibrate.py FILE --record --hit-rates`` plays the user's
    scenario and sets it beside his record and figure."""
    scenario = _own_duel(tmp_path)
    (tmp_path / "b.toml").write_text(OWN_BATTLES, encoding="utf-8")
    (tmp_path / "h.toml").write_text(OWN_HIT_RATES, encoding="utf-8")
    cal = project_tool("calibrate")
    argv = [str(scenario), "--runs", "2", "--workers", "1", "--seed", "5"]
    own = ["--record", str(tmp_path / "b.toml"), "--hit-rates", str(tmp_path / "h.toml")]
    assert cal.main([*argv, *own]) == 0
    out = capsys.readouterr().out
    assert "| my-duel | 2 | Blue | Blue 0, Red 1 |" in out
    assert "| my-duel | Blue | all |" in out and "5.00%" in out
    with pytest.raises(SystemExit):
        cal.main(argv)
    err = capsys.readouterr().err
    assert "unknown battle record 'my-duel'" in err and "--record FILE" in err
    (tmp_path / "bad.toml").write_text("[[battle]]\nscenario = 1\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        cal.main([*argv, "--record", str(tmp_path / "bad.toml")])
    err = capsys.readouterr().err
    assert "bad.toml" in err and "battle[0]" in err and "--record FILE" not in err
