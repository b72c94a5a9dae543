"""Every registered ruleset passes the conformance check (issue 11, §7).

Each ruleset's tutorial plays AI against AI to a result, replays exactly, repeats with the same
seed, refuses bad orders without a change, and serves no side anything it may not see.
"""

from __future__ import annotations

import pytest

from battleline.rulesets import builtin_scenarios, ruleset_names
from battleline.testing.conformance import check_conformance

#: Each ruleset's tutorial, and a line that reads as an order but breaks a rule in its opening
#: phase (refused naming the rule).
TUTORIALS: dict[str, tuple[str, tuple[str, ...]]] = {
    "bf1900": ("cruiser-duel", ("Red cruiser: SPD16",)),
    "bf1900-1d12": ("cruiser-duel-1d12", ("Red cruiser: SPD16",)),
    "tgd": ("tgd-duel", ()),
    "dba": ("dba-tutorial", ()),
}


def test_every_registered_ruleset_has_a_tutorial_here() -> None:
    assert set(TUTORIALS) == set(ruleset_names())
    owners = builtin_scenarios()
    for name, (scenario, _) in TUTORIALS.items():
        assert owners.get(scenario) == name, (scenario, owners.get(scenario))


@pytest.mark.parametrize("ruleset", sorted(TUTORIALS))
@pytest.mark.parametrize("seed", [1, 2])
def test_the_ruleset_conforms(ruleset: str, seed: int) -> None:
    scenario, illegal = TUTORIALS[ruleset]
    assert check_conformance(scenario, seed, illegal=illegal) == []
