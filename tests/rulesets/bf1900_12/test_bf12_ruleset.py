"""The 1D12 edition as a ruleset: registry, set-up on the 1D12 scale, a game played to the end
by the admirals with every damage and torpedo roll on a d12 (DIFF-01, DIFF-23)."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from battleline.ai.base import play
from battleline.engine.events import EventKind
from battleline.engine.flow import Game
from battleline.errors import IllegalOrderError, RulesDataError
from battleline.rulesets import canonical_name, get_ruleset, ruleset_of_scenario
from battleline.rulesets.bf1900.shipdb import get_ship_class
from battleline.rulesets.bf1900_12.edition import gunnery_penetration, load_conversion, to_1d12

SCENARIO = "cruiser-duel-1d12"
#: Phases whose every roll the 1D12 texts put on the d12 (DIFF-01: shell hits, flooding,
#: sinking, criticals, damage control, torpedo hits).
D12_PHASES = {"torpedo", "damage"}


def test_the_edition_is_a_ruleset_a_scenario_can_name() -> None:
    """The switch: "bf1900-1d12" and its aliases; the scenario names it."""
    for alias in ("bf1900-1d12", "battlefleet1900-v2", "bf12", "BF1900-1D12@0.1"):
        assert canonical_name(alias) == "bf1900-1d12"
    assert get_ruleset("bf1900-v2").name == "bf1900-1d12"
    assert ruleset_of_scenario(SCENARIO).name == "bf1900-1d12"
    assert get_ruleset("bf1900").name == "bf1900"


def test_DIFF_23_ship_values_on_the_1d12_scale() -> None:
    """DIFF-23, REF-BF12-14, REF-BF12-03: a battleship (1D6 size 10) is size 55, a 12-inch
    round (shell size 5) size 60, Mikasa's armour "12-9" and her guns' 1D12 penetration index by
    gunnery bracket, the reach of the ship database kept (the secondaries' dash at bracket 4)."""
    m = to_1d12(get_ship_class("Mikasa"))
    assert m.size == 55
    assert m.mounting("A").shell_size == 60
    assert (m.armour_vitals, m.armour_upperworks) == (12, 9)
    assert m.mounting("A").penetration == (18, 14, 10, 10)
    assert get_ship_class("Mikasa").mounting("sec").penetration == (7, 5, 4, None)
    assert m.mounting("sec").penetration == (10, 7, 5, None)
    game = Game(get_ruleset("bf1900-1d12"), SCENARIO, 3)
    assert game.state.ruleset.startswith("bf1900-1d12")
    assert {log.cls.size for log in game.state.logs.values()} == {33}


@pytest.mark.parametrize("seed", [0, 1])
def test_the_1d12_cruiser_duel_plays_to_the_end_on_d12s(seed: int) -> None:
    """The admirals play cruiser-duel-1d12 to a result; every roll in the Torpedo and Damage
    Phases is a d12 (DIFF-01) and the damage rolls happened."""
    game = play(Game(get_ruleset("bf1900-1d12"), SCENARIO, seed))
    assert game.finished
    assert game.events.of_kind(EventKind.RESULT)
    rolls = [e for e in game.events.of_kind(EventKind.ROLL) if e.phase in D12_PHASES]
    assert rolls, "the damage phase rolled nothing"
    assert Counter(e.data["sides"] for e in rolls).keys() == {12}


def test_damage_control_orders_are_checked_on_submission() -> None:
    """BF12-DC-02, BF12-DC-03 at the order gate: a legal-looking line that breaks a rule is refused
    with the rule ID, naming the ship."""
    from battleline.rulesets.bf1900_12.ruleset import parse_damage_control

    game = Game(get_ruleset("bf1900-1d12"), SCENARIO, 1)
    with pytest.raises(IllegalOrderError, match=r"Yoshino.*BF12-DC-02"):
        parse_damage_control(game.state, "Blue", ["Yoshino: M:A"])


@pytest.mark.parametrize(
    ("table", "field", "reason"),
    [
        ("from_bracket = [1, 2]\nfactor = [1, 1, 1]", "from_bracket", "list of 3"),
        ("from_bracket = [1, 2, 5]\nfactor = [1, 1, 1]", "from_bracket", "1 to 4"),
        ("from_bracket = [1, 2, 3]\nfactor = [1, 0, 1]", "factor", "above 0"),
        ("from_bracket = [1, 2, 3]\nfactor = [1, 1, 1]\nreach = 3", "reach", "unknown field"),
    ],
)
def test_a_bad_penetration_table_names_file_table_and_field(
    tmp_path: Path, table: str, field: str, reason: str
) -> None:
    """A user's edition file with a bad [penetration] table is refused with the file, the table
    and the field named."""
    packaged = resources.files("battleline.rulesets.bf1900_12").joinpath("data", "edition.toml")
    head = packaged.read_text(encoding="utf-8").split("\n[penetration]\n")[0] + "\n"
    bad = tmp_path / "edition.toml"
    bad.write_text(
        head + "[penetration]\n" + table + "\nbracket_range = ['short', 'medium', 'long', 'long']\n"
    )
    with pytest.raises(RulesDataError) as err:
        load_conversion(bad)
    assert (err.value.file, err.value.table, err.value.field) == (str(bad), "penetration", field)
    assert reason in str(err.value)
    ok = tmp_path / "ok.toml"
    ok.write_text(head + "[penetration]\nfrom_bracket = [1, 1, 1]\nfactor = [1, 1, 1]\n"
                  "bracket_range = ['short', 'short', 'medium', 'long']\n")  # fmt: skip
    conv = load_conversion(ok)
    assert gunnery_penetration((13, 10, 8, 6), conv) == (13, 13, 13, 13)
    assert gunnery_penetration((7, 5, 4, None), conv) == (7, 7, 7, None)
