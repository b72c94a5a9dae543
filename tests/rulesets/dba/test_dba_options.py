"""The optional rules as toggles."""

from __future__ import annotations

import pytest

from battleline.errors import ScenarioError
from battleline.rulesets.dba.options import Options


def test_defaults_ramming_on_complications_off() -> None:
    o = Options.parse(None)
    assert o.enabled() == ("ramming",)


def test_scenario_list_turns_options_on_and_off() -> None:
    o = Options.parse(["nets", "Rough-Weather", "no_ramming", "windy_corners"])
    assert o.nets and o.rough_weather and o.windy_corners and not o.ramming
    assert Options.parse({"monster_guns": True}).monster_guns


def test_every_named_toggle_exists() -> None:
    for name in (
        "open_barbettes",
        "nets",
        "rough_weather",
        "bow_stern_arcs",
        "monster_guns",
        "windy_corners",
        "tb_launch",
        "ramming",
    ):
        assert name in Options.names()


def test_unknown_option_is_a_clear_error() -> None:
    with pytest.raises(ScenarioError, match=r"unknown option 'fog'.*known options: ramming"):
        Options.parse(["fog"])
    with pytest.raises(ScenarioError, match="both switched on and off"):
        Options.parse(["nets", "no_nets"])
    with pytest.raises(ScenarioError, match="list of option names"):
        Options.parse("nets")  # type: ignore[arg-type]
    with pytest.raises(ScenarioError, match="true or false"):
        Options.parse({"nets": "yes"})  # type: ignore[dict-item]
