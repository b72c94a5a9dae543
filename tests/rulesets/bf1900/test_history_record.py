"""The record of the historical battles (``rulesets/bf1900/history.py``): the packaged files
agree with the scenarios they name, and a bad entry gets an error naming its file, entry and
field (issue 12 items 5 and 8)."""

from __future__ import annotations

from typing import Any

import pytest

from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.history import (
    battle_records,
    parse_battles,
    parse_hit_rates,
    record_figures,
)
from battleline.rulesets.bf1900.scenario import get_scenario

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
