"""Gun laying by crew quality (reconstructed, issue 12; ``data/crews.toml``,
``docs/rules-gaps/gunnery.md``): a green crew's hit from the location die (BF6-DMG-07) stands only
on the laying die's faces; veteran and elite crews roll no laying die."""

from __future__ import annotations

import pytest
from test_damage_step2 import CHARTS, Recorder, SetDice, shells, target

from battleline.engine.events import EventKind, EventLog
from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.crews import (
    Laying,
    laying_of,
    load_crews,
    navy_laying,
    parse_crews,
)
from battleline.rulesets.bf1900.damage.step2 import resolve_hits

GREEN = Laying("green", 1, 2, "test crew", ("test",))


def test_a_green_crews_hit_stands_only_on_the_laying_faces() -> None:
    """Three rounds roll 1 2 4 (vitals, upperworks, miss); the two hits roll laying 1 and 5:
    the vitals hit stands (1 is within 1-2), the upperworks hit went wide, and one damage die is
    rolled, for the vitals hit (13 vs 9 = 144 %: column 101-150 %, face 3)."""
    log, rec = target(vitals=9, upper=6), Recorder()
    dice, events = SetDice([1, 2, 4, 1, 5, 3]), EventLog()
    resolve_hits(
        {"Suvorov": log}, [shells(3)], (), CHARTS, dice, events, rec, laying={"Mikasa": GREEN}
    )
    dice.assert_consumed()
    assert [n for n, _ in dice.sets] == [3, 2, 1]  # locations, laying, damage
    assert "laying" in dice.sets[1][1]
    assert rec.codes == [CHARTS.shell_damage("AP", "vitals", 13 / 9 * 100, 3)]
    (hit,) = events.of_kind(EventKind.HIT)
    assert hit.data["hits"] == 1 and hit.data["laying"] == [1, 5]
    assert "laying (green crew, a hit stands on 1-2) rolls 1 5 → 1 wide" in hit.text


def test_no_laying_die_for_a_crew_without_an_entry() -> None:
    """A firer not in the laying map rolls the chart as printed: location, then damage."""
    log, rec = target(), Recorder()
    dice, events = SetDice([1, 4]), EventLog()
    resolve_hits({"Suvorov": log}, [shells(1)], (), CHARTS, dice, events, rec, laying={})
    dice.assert_consumed()
    assert "laying" not in events.of_kind(EventKind.HIT)[0].data


def test_the_packaged_crews_lay_green_on_one_to_two_only() -> None:
    crews = load_crews().by_quality
    assert set(crews) == {"green"}
    assert [f for f in range(1, 7) if crews["green"].stands(f)] == [1, 2]
    assert crews["green"].sources
    assert laying_of("veteran") is None and laying_of("elite") is None and laying_of(None) is None


def test_the_us_navy_of_1898_lays_on_one_face_only() -> None:
    """The record's US gunnery of 1898 (Brown's Santiago table): a hit stands on a 1 alone, in
    1898 only; other navies and years fall back on their side's crew quality."""
    us = navy_laying("USA", 1898)
    assert us is not None and us.quality == "USA 1898" and us.sources
    assert [f for f in range(1, 7) if us.stands(f)] == [1]
    assert navy_laying("USA", 1905) is None and navy_laying("Spain", 1898) is None
    assert navy_laying("USA", None) is None


def test_a_navy_entry_outranks_the_sides_crew_quality() -> None:
    """Santiago: the US side is veteran (no laying die), yet every US ship rolls the navy's die;
    the green Spanish roll their crews' 1-2."""
    from battleline.game import new_game
    from battleline.rulesets.bf1900.ruleset import laying_by_ship

    state = new_game("santiago-1898", 1).state
    laying = laying_by_ship(state)
    for name, log in state.logs.items():
        expected = "USA 1898" if log.side == "United States" else "green"
        assert laying[name].quality == expected, name


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"laying": {}}, "reconstructed"),
        ({"reconstructed": True, "laying": {"raw": {"stands": "1-2"}}}, "(name)"),
        (
            {
                "reconstructed": True,
                "laying": {"green": {"stands": "0-2", "what": "", "sources": ["s"]}},
            },
            "stands",
        ),
        (
            {
                "reconstructed": True,
                "laying": {"green": {"stands": "1", "what": "", "sources": []}},
            },
            "sources",
        ),
        ({"reconstructed": True, "navy": [{"years": [1898, 1898]}]}, "navy"),
        (
            {
                "reconstructed": True,
                "navy": [
                    {
                        "navy": "USA",
                        "years": [1899, 1898],
                        "stands": "1",
                        "what": "",
                        "sources": ["s"],
                    }
                ],
            },
            "years",
        ),
        (
            {
                "reconstructed": True,
                "navy": [
                    {
                        "navy": "USA",
                        "years": [1898, 1898],
                        "stands": "1",
                        "what": "",
                        "sources": ["s"],
                    },
                    {
                        "navy": "USA",
                        "years": [1895, 1898],
                        "stands": "2",
                        "what": "",
                        "sources": ["s"],
                    },
                ],
            },
            "overlaps",
        ),
    ],
)
def test_a_bad_crews_file_names_the_field(raw: dict[str, object], field: str) -> None:
    with pytest.raises(RulesDataError) as err:
        parse_crews(raw)
    assert field in str(err.value)


def test_a_whole_game_rolls_laying_dice_for_the_green_side_only() -> None:
    """Yalu 1894 through the public entry points: the Chinese (``gunnery = "green"``) roll the
    laying die on their hits, the Japanese (veteran) never do, and the tally counts only the
    hits that stood."""
    from battleline.ai.base import play
    from battleline.game import new_game

    game = play(new_game("yalu-1894", 3))
    sides = game.state.ship_sides()
    laid = {
        sides[e.data["firer"]] for e in game.events.of_kind(EventKind.HIT) if "laying" in e.data
    }
    assert laid == {"China"}
    for e in game.events.of_kind(EventKind.HIT):
        if "laying" in e.data:
            assert e.data["hits"] == sum(1 for f in e.data["laying"] if f <= 2)
